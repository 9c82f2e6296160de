"""Honest uncertainty for simulated fish: means with (cluster-robust) intervals, binomial rate intervals, paired
comparisons. The sequential test is in :mod:`.sequential`, the multiple-comparison correction in :mod:`.multiple`.

Everything here is a pure function of numpy arrays; the polars wrappers live in :mod:`.tables`.

The sampling unit
-----------------
Fish won per deal are heavy-tailed (rare payments of 64 fish and more) and the deals of one match are *not*
independent: the Quinola pool carries from deal to deal and the dealer rotates, so the deals of a match are not
independent. Matches are independent, so the match is the unit: every standard error below is computed from per-match
quantities (cluster totals or per-match means), never from loose deals, and the t distribution gets ``n_units - 1``
degrees of freedom. Deal-level binomial intervals (:func:`wilson_interval`, :func:`clopper_pearson_interval`) assume
independent trials; use them for events the pool does not influence, or feed per-match rates to
:func:`mean_ci` instead.

When an interval is printed
---------------------------
Every function here returns the t interval's bounds whatever the number of units, and ``n_needed``: 0 when that
many matches make the interval a reliable 95% interval of a quantity of its ``kind``, else the matches needed
(:mod:`.intervals`, measured by ``scripts/interval_coverage.py``). The tables and commands print the bounds only when
``n_needed`` is 0, and otherwise say in words how many matches are needed.

Degenerate data
---------------
Zero variance (identical players, a constant column) is a legitimate outcome of common random numbers, so it is
handled explicitly and silently: a zero standard error gives a zero-width interval, and a zero mean difference
with zero spread gives a p-value of exactly 1. Fewer than two units give NaN standard errors and intervals (no
variance can be estimated from one unit), again without numpy warnings.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

import numpy as np

from .intervals import n_needed as _n_needed
from .numeric import beta_ppf, check_level, finite_1d, norm_ppf, safe_ratio, t_interval, t_sf

__all__ = ["MeanCI", "PairedResult", "clopper_pearson_interval", "mean_ci", "paired_comparison", "ratio_mean_ci",
           "ratio_mean_ci_moments", "wilson_interval"]


# ---------------------------------------------------------------------------------------------------------------
# means


@dataclass(frozen=True)
class MeanCI:
    """A mean with its standard error and a two-sided t interval.

    Attributes
    ----------
    mean : float
        Mean per observation (per deal when observations are deals).
    se : float
        Standard error of ``mean``; cluster-robust when clusters were given.
    ci_low, ci_high : float
        Bounds of the ``level`` interval, ``mean -/+ t(level, df) * se``.
    n_units : int
        Number of independent units (clusters, or observations when no clusters were given).
    n_obs : int
        Number of observations.
    df : int
        Degrees of freedom of the t distribution, ``n_units - 1``.
    level : float
        Confidence level.
    n_needed : int
        0 when ``n_units`` are enough for a reliable interval of this kind of quantity, else the number of units
        (matches) needed (:func:`.intervals.n_needed`): the bounds are then the t interval's, not to be printed.
    """

    mean: float
    se: float
    ci_low: float
    ci_high: float
    n_units: int
    n_obs: int
    df: int
    level: float
    n_needed: int = 0

    @property
    def reliable(self) -> bool:
        """The interval may be printed as a ``level`` interval (``n_needed == 0``)."""
        return self.n_needed == 0

    def as_dict(self) -> dict:
        return asdict(self)


def ratio_mean_ci(totals, sizes, level: float = 0.95, kind: str = "pool") -> MeanCI:
    """Mean per observation from per-cluster totals, with the linearised (cluster-robust) standard error.

    The estimator is the ratio ``m = sum(T_g) / sum(n_g)`` (the plain mean of all observations). Its variance is
    estimated by linearisation (the delta method, as in survey sampling and the CR1 sandwich of a regression on
    a constant):

    ``var(m) = G / (G - 1) * sum((T_g - m * n_g) ** 2) / N ** 2``, with ``G`` clusters and ``N = sum(n_g)``.

    When every cluster has the same size this is *exactly* ``s**2 / G``, with ``s**2`` the sample variance of
    the per-cluster means: the textbook "average the per-match means" analysis. With unequal sizes it weights
    clusters by size, so the estimate stays the mean per observation.

    Parameters
    ----------
    totals : array_like of float, shape (G,)
        Sum of the observations in each cluster.
    sizes : array_like of int, shape (G,)
        Number of observations in each cluster (all > 0).
    level : float
        Confidence level of the t interval (``G - 1`` degrees of freedom).
    kind : str
        What the mean is (:data:`.intervals.MIN_MATCHES`): ``"seat"`` (a seat's fish per deal in a run),
        ``"pool_share"`` (the zero-sum view), ``"difference"`` (a paired difference), ``"pool"`` (anything else:
        the strictest, the default); it sets ``n_needed``.

    Returns
    -------
    MeanCI
    """
    level = check_level(level)
    totals = finite_1d(totals, "totals")
    sizes = finite_1d(sizes, "sizes")
    if totals.shape != sizes.shape:
        raise ValueError(f"totals and sizes must have the same length, got {totals.size} and {sizes.size}")
    if totals.size == 0:
        raise ValueError("cannot take the mean of no data")
    if np.any(sizes <= 0):
        raise ValueError("every cluster size must be positive")
    n_units = int(totals.size)
    n_obs_f = float(sizes.sum())
    mean = float(totals.sum() / n_obs_f)
    if n_units < 2:
        se = float("nan")
    else:
        resid = totals - mean * sizes
        se = float(np.sqrt(n_units / (n_units - 1) * np.sum(resid * resid)) / n_obs_f)
    low, high = t_interval(mean, se, level, n_units - 1)
    return MeanCI(mean, se, low, high, n_units, round(n_obs_f), n_units - 1, level, _n_needed(n_units, kind))


def ratio_mean_ci_moments(n_units: int, n_obs: float, sum_t: float, shift: float, sum_uu: float, sum_un: float,
                          sum_nn: float, level: float = 0.95, kind: str = "pool") -> MeanCI:
    """:func:`ratio_mean_ci` from sums over the clusters instead of the per-cluster arrays, so that a run can be
    aggregated batch by batch in constant memory (the sums of two batches add up).

    With ``u_g = T_g - shift * n_g`` (``shift`` any fixed number near the mean, for numerical conditioning), the
    inputs are ``G`` (``n_units``), ``N = sum(n_g)``, ``sum(T_g)``, ``sum(u_g**2)``, ``sum(u_g * n_g)`` and
    ``sum(n_g**2)``; with ``d = m - shift``, ``sum((T_g - m n_g)**2) = sum(u**2) - 2 d sum(u n) + d**2 sum(n**2)``.
    ``kind`` sets ``n_needed`` as in :func:`ratio_mean_ci`.
    """
    level = check_level(level)
    if n_units < 1 or n_obs <= 0:
        raise ValueError("cannot take the mean of no data")
    mean = float(sum_t / n_obs)
    if n_units < 2:
        se = float("nan")
    else:
        d = mean - shift
        ss = max(float(sum_uu - 2.0 * d * sum_un + d * d * sum_nn), 0.0)
        se = float(np.sqrt(n_units / (n_units - 1) * ss) / n_obs)
    low, high = t_interval(mean, se, level, n_units - 1)
    return MeanCI(mean, se, low, high, int(n_units), round(float(n_obs)), int(n_units) - 1, level,
                  _n_needed(n_units, kind))


def mean_ci(x, clusters=None, level: float = 0.95, kind: str = "pool") -> MeanCI:
    """Mean of ``x`` with a standard error and a t interval, optionally cluster-robust.

    Parameters
    ----------
    x : array_like of float, shape (n,)
        Observations, e.g. fish won per deal by one seat.
    clusters : array_like, shape (n,), optional
        Cluster label of each observation (e.g. the match id; any hashable dtype numpy can sort). When given,
        the clusters are the independent units and :func:`ratio_mean_ci` is applied to the per-cluster totals;
        with equal cluster sizes this equals the t interval on per-cluster means. When omitted, the
        observations are taken as independent (``sd / sqrt(n)``, ``n - 1`` degrees of freedom).
    level : float
        Confidence level, strictly between 0 and 1.
    kind : str
        What the mean is, for ``n_needed`` (:func:`ratio_mean_ci`).

    Returns
    -------
    MeanCI
        ``mean`` is always the plain mean of ``x`` (per observation).

    Examples
    --------
    >>> r = mean_ci([1.0, 2.0, 3.0, 4.0], clusters=[0, 0, 1, 1])
    >>> r.mean, r.n_units
    (2.5, 2)
    """
    x = finite_1d(x, "x")
    if clusters is None:
        return ratio_mean_ci(x, np.ones_like(x), level, kind)
    labels = np.asarray(clusters)
    if labels.shape != x.shape:
        raise ValueError(f"clusters must have one label per observation: {labels.shape} vs {x.shape}")
    if x.size == 0:
        raise ValueError("cannot take the mean of no data")
    _, inverse = np.unique(labels, return_inverse=True)
    inverse = inverse.ravel()
    totals = np.bincount(inverse, weights=x)
    sizes = np.bincount(inverse).astype(np.float64)
    return ratio_mean_ci(totals, sizes, level, kind)


# ---------------------------------------------------------------------------------------------------------------
# binomial rates


def _binomial_args(k, n, level: float) -> tuple[np.ndarray, np.ndarray, float]:
    level = check_level(level)
    k_arr, n_arr = np.broadcast_arrays(np.asarray(k, dtype=np.float64), np.asarray(n, dtype=np.float64))
    if np.any(~np.isfinite(k_arr)) or np.any(~np.isfinite(n_arr)):
        raise ValueError("k and n must be finite counts")
    if np.any(k_arr < 0) or np.any(n_arr < 0) or np.any(k_arr > n_arr):
        raise ValueError("counts must satisfy 0 <= k <= n")
    if np.any(k_arr != np.round(k_arr)) or np.any(n_arr != np.round(n_arr)):
        raise ValueError("k and n must be whole numbers")
    return k_arr, n_arr, level


def wilson_interval(k, n, level: float = 0.95) -> tuple[np.ndarray, np.ndarray]:
    """Wilson score interval for a binomial proportion ``k / n`` (no continuity correction).

    Parameters
    ----------
    k : array_like of int
        Successes; broadcast against ``n``.
    n : array_like of int
        Trials, ``0 <= k <= n``. Where ``n == 0`` both bounds are NaN.
    level : float
        Confidence level.

    Returns
    -------
    low, high : ndarray of float64, broadcast shape of ``k`` and ``n``
        Bounds in [0, 1]; exactly 0 when ``k == 0`` and exactly 1 when ``k == n``.
    """
    k, n, level = _binomial_args(k, n, level)
    z = float(norm_ppf(0.5 + level / 2.0))
    z2 = z * z
    empty = n == 0
    n_safe = np.where(empty, 1.0, n)
    p = k / n_safe
    denom = 1.0 + z2 / n_safe
    centre = (p + z2 / (2.0 * n_safe)) / denom
    half = z * np.sqrt(p * (1.0 - p) / n_safe + z2 / (4.0 * n_safe * n_safe)) / denom
    low = np.clip(centre - half, 0.0, 1.0)
    high = np.clip(centre + half, 0.0, 1.0)
    low = np.where(k == 0, 0.0, low)
    high = np.where(k == n, 1.0, high)
    low = np.where(empty, np.nan, low)
    high = np.where(empty, np.nan, high)
    return low, high


def clopper_pearson_interval(k, n, level: float = 0.95) -> tuple[np.ndarray, np.ndarray]:
    """Clopper–Pearson ("exact") interval for a binomial proportion, from beta quantiles.

    ``low = Beta(a/2; k, n - k + 1)`` and ``high = Beta(1 - a/2; k + 1, n - k)`` with ``a = 1 - level``; the
    bound is 0 at ``k == 0`` and 1 at ``k == n``. Guaranteed coverage of at least ``level``, at the price of
    being wider than :func:`wilson_interval`.

    Parameters
    ----------
    k, n : array_like of int
        Successes and trials, broadcast together, ``0 <= k <= n``. Where ``n == 0`` both bounds are NaN.
    level : float
        Confidence level.

    Returns
    -------
    low, high : ndarray of float64, broadcast shape of ``k`` and ``n``
    """
    k, n, level = _binomial_args(k, n, level)
    tail = (1.0 - level) / 2.0
    empty = n == 0
    # beta parameters must be positive: substitute 1 where the bound is fixed anyway
    low = beta_ppf(tail, np.where(k == 0, 1.0, k), np.where(empty, 1.0, n - k + 1.0))
    high = beta_ppf(1.0 - tail, np.where(empty, 1.0, k + 1.0), np.where(k == n, 1.0, n - k))
    low = np.where(k == 0, 0.0, low)
    high = np.where(k == n, 1.0, high)
    low = np.where(empty, np.nan, low)
    high = np.where(empty, np.nan, high)
    return np.asarray(low, dtype=np.float64), np.asarray(high, dtype=np.float64)


# ---------------------------------------------------------------------------------------------------------------
# paired comparison (duplicate deals)


@dataclass(frozen=True)
class PairedResult:
    """Result of :func:`paired_comparison`.

    Attributes
    ----------
    mean_difference : float
        Mean of the per-unit differences ``d_i`` (candidate minus baseline).
    se : float
        Standard error of ``mean_difference``, ``sd(d) / sqrt(n_units)``.
    ci_low, ci_high : float
        Two-sided t interval at ``level``.
    t_statistic : float
        ``mean_difference / se`` (0 when both are 0, +/-inf when only ``se`` is 0).
    p_value : float
        Two-sided p-value of the one-sample t-test of mean 0 (1 when all ``d_i`` are 0, 0 when they are
        constant and non-zero).
    effect : float
        Standardised effect ``mean(d) / sd(d)`` (Cohen's d_z); 0 or +/-inf when ``sd(d)`` is 0.
    n_units : int
        Number of paired units (matches).
    df : int
        ``n_units - 1``.
    level : float
        Confidence level.
    mean_a, mean_b : float
        Means of the two arms per unit (NaN when they were not given).
    variance_reduction : float
        ``(var(a) + var(b)) / var(a - b)``: how many times more units an unpaired comparison would need for the
        same standard error. ``inf`` when the arms differ by a constant, NaN when not computable (arms not given,
        fewer than two units, or both arms constant).
    n_needed : int
        0 when ``n_units`` are enough for a reliable interval (and test) of a difference, else the matches needed
        (:func:`.intervals.n_needed`, kind ``"difference"``): the bounds and the p-value are then the t test's, not
        to be printed as a 95% interval or a significance.
    """

    mean_difference: float
    se: float
    ci_low: float
    ci_high: float
    t_statistic: float
    p_value: float
    effect: float
    n_units: int
    df: int
    level: float
    mean_a: float = float("nan")
    mean_b: float = float("nan")
    variance_reduction: float = float("nan")
    n_needed: int = 0

    @property
    def reliable(self) -> bool:
        """The interval and the p-value may be printed (``n_needed == 0``)."""
        return self.n_needed == 0

    def as_dict(self) -> dict:
        return asdict(self)


def paired_comparison(diff=None, a=None, b=None, *, level: float = 0.95, kind: str = "difference") -> PairedResult:
    """Paired (duplicate-deal) comparison of a candidate against a baseline on the same units.

    Each unit (match) is played twice on identical cards and identical policy randomness, once with the
    candidate and once with the baseline; ``d_i`` is the candidate's mean fish per deal in match ``i`` minus the
    baseline's. The common deal luck cancels in ``d_i``, which is why the paired design needs
    ``variance_reduction`` times fewer matches than comparing two independent samples.

    Parameters
    ----------
    diff : array_like of float, shape (n,), optional
        Per-unit differences ``d_i``. Computed as ``a - b`` when omitted.
    a, b : array_like of float, shape (n,), optional
        Per-unit values of the candidate and the baseline (same unit order). Needed for ``variance_reduction``;
        when ``diff`` is given as well it must equal ``a - b``.
    level : float
        Confidence level.
    kind : str
        What the difference is, for ``n_needed`` (:data:`.intervals.MIN_MATCHES`; a difference of fish per deal).

    Returns
    -------
    PairedResult

    Notes
    -----
    The test is the one-sample t-test of ``mean(d) = 0`` with ``n - 1`` degrees of freedom. Per-match differences
    of fish are skewed and heavy-tailed (the pool), so the t interval undercovers on one side until thousands of
    matches (docs/statistics.md §9): ``n_needed`` says from how many it holds.
    Identical arms give ``mean_difference == 0.0`` exactly and ``p_value == 1.0``.
    """
    level = check_level(level)
    if (a is None) != (b is None):
        raise ValueError("give both a and b (per-unit values of the two arms), or neither")
    if a is not None:
        a = finite_1d(a, "a")
        b = finite_1d(b, "b")
        if a.shape != b.shape:
            raise ValueError(f"a and b must have the same length, got {a.size} and {b.size}")
    if diff is None:
        if a is None:
            raise ValueError("give the per-unit differences, or the per-unit values a and b")
        d = a - b
    else:
        d = finite_1d(diff, "diff")
        if a is not None and (d.shape != a.shape or not np.allclose(d, a - b, rtol=1e-9, atol=1e-12)):
            raise ValueError("diff must equal a - b unit by unit")
    n = int(d.size)
    if n == 0:
        raise ValueError("cannot compare zero units")

    mean = float(d.mean())
    if n < 2:
        sd = se = t_stat = p_value = effect = float("nan")
    else:
        sd = float(d.std(ddof=1))
        se = sd / np.sqrt(n)
        t_stat = safe_ratio(mean, se)
        effect = safe_ratio(mean, sd)
        p_value = float(2.0 * t_sf(abs(t_stat), n - 1)) if np.isfinite(t_stat) else 0.0
        p_value = min(p_value, 1.0)
    low, high = t_interval(mean, se, level, n - 1)

    mean_a = mean_b = vr = float("nan")
    if a is not None:
        mean_a, mean_b = float(a.mean()), float(b.mean())
        if n >= 2:
            num = float(a.var(ddof=1) + b.var(ddof=1))
            den = float(np.var(a - b, ddof=1))
            vr = float("nan") if num == 0.0 and den == 0.0 else safe_ratio(num, den)
    return PairedResult(mean, float(se), low, high, float(t_stat), float(p_value), float(effect), n, n - 1,
                        level, mean_a, mean_b, vr, _n_needed(n, kind))
