"""Numeric helpers shared by the statistics modules: argument checks, Student-t intervals, guarded ratios.

The distribution functions come from ``scipy.special``, not ``scipy.stats``: they are the functions
``scipy.stats`` itself calls (the same numbers, bit for bit: ``tests/test_stats.py``), and importing
``scipy.stats`` costs about a second at every start of a command that prints an interval, ``scipy.special`` a fifth
of it.
"""

from __future__ import annotations

import numpy as np
from scipy import special as _sp


def t_ppf(q, df):
    """Student's t quantile ``q`` (``0 < q <= 1``) with ``df`` degrees of freedom (``scipy.stats.t.ppf``; NaN
    where ``df <= 0``)."""
    return _sp.stdtrit(df, q)


def t_sf(x, df):
    """Student's t upper tail ``P(T > x)`` with ``df`` degrees of freedom (``scipy.stats.t.sf``)."""
    return _sp.stdtr(df, -np.asarray(x, dtype=np.float64))


def norm_ppf(q):
    """The standard normal quantile ``q`` (``scipy.stats.norm.ppf``)."""
    return _sp.ndtri(q)


def beta_ppf(q, a, b):
    """The Beta(``a``, ``b``) quantile ``q`` (``scipy.stats.beta.ppf``)."""
    return _sp.betaincinv(a, b, q)


def check_level(level: float) -> float:
    level = float(level)
    if not 0.0 < level < 1.0:
        raise ValueError(f"level must lie strictly between 0 and 1 (e.g. 0.95), got {level}")
    return level


def finite_1d(x, name: str) -> np.ndarray:
    arr = np.asarray(x, dtype=np.float64)
    if arr.ndim != 1:
        raise ValueError(f"{name} must be one-dimensional, got shape {arr.shape}")
    if not np.all(np.isfinite(arr)):
        raise ValueError(f"{name} contains NaN or infinite values; drop or fill them first")
    return arr


def t_quantile(level: float, df: int) -> float:
    """Two-sided critical value of Student's t with ``df`` degrees of freedom (NaN when ``df < 1``)."""
    if df < 1:
        return float("nan")
    return float(t_ppf(0.5 + level / 2.0, df))


def t_interval(mean: float, se: float, level: float, df: int) -> tuple[float, float]:
    if not np.isfinite(se):
        return float("nan"), float("nan")
    if se == 0.0:
        return mean, mean
    half = t_quantile(level, df) * se
    return mean - half, mean + half


def safe_ratio(num: float, den: float) -> float:
    """``num / den`` with 0/0 -> 0 and x/0 -> +/-inf, without numpy warnings."""
    if den != 0.0:
        return num / den
    if num == 0.0:
        return 0.0
    return float(np.copysign(np.inf, num))
