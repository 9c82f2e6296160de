"""The interval methods the coverage harness (``scripts/interval_coverage.py``) judges on the same blocks of matches.

Each takes ``x`` float64 (K, n), K samples of n per-match values, and returns the bounds ``(low, high)``, float64
(K,), of its two-sided ``level`` interval for the mean. ``t`` is the toolkit's (Student t on the per-match values,
:func:`reversis_sim.analysis.stats.paired_comparison`); the others are the candidates measured:

- ``hall``: Hall's (1992) cubic transformation of the studentized mean, ``g(T) = T + a T**2 / 3 + a**2 T**3 / 27 +
  a / 6`` with ``a = skew / sqrt(n)`` (monotone, so the interval is its exact inverse at the t quantiles);
- ``johnson``: Johnson's (1978) skewness-corrected t, ``T + skew / (6 sqrt(n)) (2 T**2 + 1)``, inverted on the
  branch through ``T``;
- ``boot_t``: the studentized (bootstrap-t) interval over matches, ``B`` resamples;
- ``bca``: the BCa percentile bootstrap over matches, its acceleration the mean's exact jackknife value
  ``sum(e**3) / (6 sum(e**2) ** 1.5)``.

The bootstraps are seeded (one generator per call), so a harness run is reproducible.
"""

from __future__ import annotations

import numpy as np
from scipy import stats as st


def _moments(x: np.ndarray):
    n = x.shape[-1]
    m = x.mean(axis=-1)
    c = x - m[..., None]
    s = np.sqrt((c * c).sum(axis=-1) / (n - 1))
    with np.errstate(invalid="ignore", divide="ignore"):
        skew = (c ** 3).sum(axis=-1) / n / s ** 3
    return n, m, s, np.nan_to_num(skew)


def t(x, level=0.95):
    n, m, s, _ = _moments(x)
    half = st.t.ppf(0.5 + level / 2, n - 1) * s / np.sqrt(n)
    return m - half, m + half


def hall(x, level=0.95):
    n, m, s, skew = _moments(x)
    a = skew / np.sqrt(n)
    q = st.t.ppf(0.5 + level / 2, n - 1)

    def inverse(z):
        safe = np.where(np.abs(a) < 1e-12, 1.0, a)
        return np.where(np.abs(a) < 1e-12, z, 3.0 / safe * (np.cbrt(1.0 + safe * (z - safe / 6.0)) - 1.0))

    se = s / np.sqrt(n)
    return m - inverse(q) * se, m - inverse(-q) * se


def johnson(x, level=0.95):
    n, m, s, skew = _moments(x)
    a = skew / (6.0 * np.sqrt(n))
    q = st.t.ppf(0.5 + level / 2, n - 1)

    def inverse(z):  # 2a T^2 + T + (a - z) = 0, the root through T = z at a = 0
        safe = np.where(np.abs(a) < 1e-12, 1.0, a)
        root = (-1.0 + np.sqrt(np.maximum(1.0 - 8.0 * safe * (safe - z), 0.0))) / (4.0 * safe)
        return np.where(np.abs(a) < 1e-12, z, root)

    se = s / np.sqrt(n)
    return m - inverse(q) * se, m - inverse(-q) * se


def _resample(x: np.ndarray, B: int, seed: int):
    """Means and standard deviations of ``B`` bootstrap resamples of each row of ``x``: (K, B) each."""
    rng = np.random.default_rng(seed)
    K, n = x.shape
    means, sds = np.empty((K, B)), np.empty((K, B))
    for k in range(K):
        xb = x[k][rng.integers(0, n, (B, n))]
        means[k], sds[k] = xb.mean(axis=1), xb.std(axis=1, ddof=1)
    return means, sds


def boot_t(x, level=0.95, B=999, seed=0):
    n, m, s, _ = _moments(x)
    means, sds = _resample(x, B, seed)
    with np.errstate(invalid="ignore", divide="ignore"):
        T = (means - m[:, None]) / (sds / np.sqrt(n))
    T = np.where(np.isfinite(T), T, 0.0)
    lo, hi = np.quantile(T, [0.5 - level / 2, 0.5 + level / 2], axis=1)
    se = s / np.sqrt(n)
    return m - hi * se, m - lo * se


def bca(x, level=0.95, B=999, seed=0):
    n, m, s, _ = _moments(x)
    means, _ = _resample(x, B, seed)
    below = (means < m[:, None]).mean(axis=1) + 0.5 * (means == m[:, None]).mean(axis=1)
    z0 = st.norm.ppf(np.clip(below, 0.5 / B, 1 - 0.5 / B))
    c = x - m[:, None]
    with np.errstate(invalid="ignore", divide="ignore"):
        acc = np.nan_to_num((c ** 3).sum(axis=1) / (6.0 * ((c * c).sum(axis=1)) ** 1.5))
    out = []
    for z in st.norm.ppf([0.5 - level / 2, 0.5 + level / 2]):
        alpha = st.norm.cdf(z0 + (z0 + z) / (1.0 - acc * (z0 + z)))
        out.append(np.array([np.quantile(means[k], alpha[k]) for k in range(len(m))]))
    return out[0], out[1]


METHODS = {"t": t, "hall": hall, "johnson": johnson, "boot_t": boot_t, "bca": bca}
"""Every method by name; ``t`` is the toolkit's."""
BOOTSTRAPS = ("boot_t", "bca")
"""The methods that cost O(B n) per sample (the harness judges them on at most ``--boot-samples`` blocks)."""
