"""Numeric helpers shared by the statistics modules: argument checks, Student-t intervals, guarded ratios."""

from __future__ import annotations

import numpy as np
from scipy import stats as _st


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
    return float(_st.t.ppf(0.5 + level / 2.0, df))


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
