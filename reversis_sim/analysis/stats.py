"""Honest uncertainty for simulated fish: means with (cluster-robust) intervals, binomial rate intervals, paired
comparisons, a sequential test, and a multiple-comparison correction.

Everything here is a pure function of numpy arrays; the polars wrappers live in :mod:`.compare`.

The sampling unit
-----------------
Fish won per deal are heavy-tailed (rare payments of 64 fish and more) and the deals of one match are *not*
independent: the Quinola pool carries from deal to deal and the dealer rotates (DESIGN.md decision 2). Matches
are independent, so the match is the unit: every standard error below is computed from per-match quantities
(cluster totals or per-match means), never from loose deals, and the t distribution gets ``n_units - 1`` degrees
of freedom. Deal-level binomial intervals (:func:`wilson_interval`, :func:`clopper_pearson_interval`) assume
independent trials; use them for events the pool does not influence, or feed per-match rates to
:func:`mean_ci` instead.

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
from scipy import stats as _st

__all__ = [
    "GSPRT",
    "GsprtResult",
    "GsprtState",
    "MeanCI",
    "PairedResult",
    "clopper_pearson_interval",
    "gsprt",
    "gsprt_bounds",
    "gsprt_llr",
    "holm",
    "holm_reject",
    "mean_ci",
    "paired_comparison",
    "ratio_mean_ci",
    "ratio_mean_ci_moments",
    "wilson_interval",
]

DECISIONS = ("accept_h1", "accept_h0", "continue")
"""The three states of a sequential test."""


# ---------------------------------------------------------------------------------------------------------------
# helpers


def _check_level(level: float) -> float:
    level = float(level)
    if not 0.0 < level < 1.0:
        raise ValueError(f"level must lie strictly between 0 and 1 (e.g. 0.95), got {level}")
    return level


def _as_finite_1d(x, name: str) -> np.ndarray:
    arr = np.asarray(x, dtype=np.float64)
    if arr.ndim != 1:
        raise ValueError(f"{name} must be one-dimensional, got shape {arr.shape}")
    if not np.all(np.isfinite(arr)):
        raise ValueError(f"{name} contains NaN or infinite values; drop or fill them first")
    return arr


def _t_quantile(level: float, df: int) -> float:
    """Two-sided critical value of Student's t with ``df`` degrees of freedom (NaN when ``df < 1``)."""
    if df < 1:
        return float("nan")
    return float(_st.t.ppf(0.5 + level / 2.0, df))


def _interval(mean: float, se: float, level: float, df: int) -> tuple[float, float]:
    if not np.isfinite(se):
        return float("nan"), float("nan")
    if se == 0.0:
        return mean, mean
    half = _t_quantile(level, df) * se
    return mean - half, mean + half


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
    """

    mean: float
    se: float
    ci_low: float
    ci_high: float
    n_units: int
    n_obs: int
    df: int
    level: float

    def as_dict(self) -> dict:
        return asdict(self)


def ratio_mean_ci(totals, sizes, level: float = 0.95) -> MeanCI:
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

    Returns
    -------
    MeanCI
    """
    level = _check_level(level)
    totals = _as_finite_1d(totals, "totals")
    sizes = _as_finite_1d(sizes, "sizes")
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
    low, high = _interval(mean, se, level, n_units - 1)
    return MeanCI(mean, se, low, high, n_units, round(n_obs_f), n_units - 1, level)


def ratio_mean_ci_moments(n_units: int, n_obs: float, sum_t: float, shift: float, sum_uu: float, sum_un: float,
                          sum_nn: float, level: float = 0.95) -> MeanCI:
    """:func:`ratio_mean_ci` from sums over the clusters instead of the per-cluster arrays, so that a run can be
    aggregated batch by batch in constant memory (the sums of two batches add up).

    With ``u_g = T_g - shift * n_g`` (``shift`` any fixed number near the mean, for numerical conditioning), the
    inputs are ``G`` (``n_units``), ``N = sum(n_g)``, ``sum(T_g)``, ``sum(u_g**2)``, ``sum(u_g * n_g)`` and
    ``sum(n_g**2)``; with ``d = m - shift``, ``sum((T_g - m n_g)**2) = sum(u**2) - 2 d sum(u n) + d**2 sum(n**2)``.
    """
    level = _check_level(level)
    if n_units < 1 or n_obs <= 0:
        raise ValueError("cannot take the mean of no data")
    mean = float(sum_t / n_obs)
    if n_units < 2:
        se = float("nan")
    else:
        d = mean - shift
        ss = max(float(sum_uu - 2.0 * d * sum_un + d * d * sum_nn), 0.0)
        se = float(np.sqrt(n_units / (n_units - 1) * ss) / n_obs)
    low, high = _interval(mean, se, level, n_units - 1)
    return MeanCI(mean, se, low, high, int(n_units), round(float(n_obs)), int(n_units) - 1, level)


def mean_ci(x, clusters=None, level: float = 0.95) -> MeanCI:
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
    x = _as_finite_1d(x, "x")
    if clusters is None:
        return ratio_mean_ci(x, np.ones_like(x), level)
    labels = np.asarray(clusters)
    if labels.shape != x.shape:
        raise ValueError(f"clusters must have one label per observation: {labels.shape} vs {x.shape}")
    if x.size == 0:
        raise ValueError("cannot take the mean of no data")
    _, inverse = np.unique(labels, return_inverse=True)
    inverse = inverse.ravel()
    totals = np.bincount(inverse, weights=x)
    sizes = np.bincount(inverse).astype(np.float64)
    return ratio_mean_ci(totals, sizes, level)


# ---------------------------------------------------------------------------------------------------------------
# binomial rates


def _binomial_args(k, n, level: float) -> tuple[np.ndarray, np.ndarray, float]:
    level = _check_level(level)
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
    z = float(_st.norm.ppf(0.5 + level / 2.0))
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
    low = _st.beta.ppf(tail, np.where(k == 0, 1.0, k), np.where(empty, 1.0, n - k + 1.0))
    high = _st.beta.ppf(1.0 - tail, np.where(empty, 1.0, k + 1.0), np.where(k == n, 1.0, n - k))
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

    def as_dict(self) -> dict:
        return asdict(self)


def _safe_ratio(num: float, den: float) -> float:
    """``num / den`` with 0/0 -> 0 and x/0 -> +/-inf, without numpy warnings."""
    if den != 0.0:
        return num / den
    if num == 0.0:
        return 0.0
    return float(np.copysign(np.inf, num))


def paired_comparison(diff=None, a=None, b=None, *, level: float = 0.95) -> PairedResult:
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

    Returns
    -------
    PairedResult

    Notes
    -----
    The test is the one-sample t-test of ``mean(d) = 0`` with ``n - 1`` degrees of freedom; by the central limit
    theorem on per-match means it is adequate for heavy-tailed fish once there are a few dozen matches.
    Identical arms give ``mean_difference == 0.0`` exactly and ``p_value == 1.0``.
    """
    level = _check_level(level)
    if (a is None) != (b is None):
        raise ValueError("give both a and b (per-unit values of the two arms), or neither")
    if a is not None:
        a = _as_finite_1d(a, "a")
        b = _as_finite_1d(b, "b")
        if a.shape != b.shape:
            raise ValueError(f"a and b must have the same length, got {a.size} and {b.size}")
    if diff is None:
        if a is None:
            raise ValueError("give the per-unit differences, or the per-unit values a and b")
        d = a - b
    else:
        d = _as_finite_1d(diff, "diff")
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
        t_stat = _safe_ratio(mean, se)
        effect = _safe_ratio(mean, sd)
        p_value = float(2.0 * _st.t.sf(abs(t_stat), n - 1)) if np.isfinite(t_stat) else 0.0
        p_value = min(p_value, 1.0)
    low, high = _interval(mean, se, level, n - 1)

    mean_a = mean_b = vr = float("nan")
    if a is not None:
        mean_a, mean_b = float(a.mean()), float(b.mean())
        if n >= 2:
            num = float(a.var(ddof=1) + b.var(ddof=1))
            den = float(np.var(a - b, ddof=1))
            vr = float("nan") if num == 0.0 and den == 0.0 else _safe_ratio(num, den)
    return PairedResult(mean, float(se), low, high, float(t_stat), float(p_value), float(effect), n, n - 1,
                        level, mean_a, mean_b, vr)


# ---------------------------------------------------------------------------------------------------------------
# generalized sequential probability ratio test


def gsprt_bounds(alpha: float = 0.05, beta: float = 0.05) -> tuple[float, float]:
    """Wald's stopping bounds ``(log(beta / (1 - alpha)), log((1 - beta) / alpha))`` for the LLR."""
    if not (0.0 < alpha < 1.0 and 0.0 < beta < 1.0 and alpha + beta < 1.0):
        raise ValueError(f"need 0 < alpha, beta < 1 and alpha + beta < 1, got alpha={alpha}, beta={beta}")
    return float(np.log(beta / (1.0 - alpha))), float(np.log((1.0 - beta) / alpha))


def gsprt_llr(n, mean, var, delta: float):
    """Log-likelihood ratio of H1 (mean ``delta``) against H0 (mean 0) for ``n`` normal observations.

    ``LLR = n * delta * (2 * mean - delta) / (2 * var)``. Vectorised over ``n``, ``mean`` and ``var``. Where
    ``var == 0`` the LLR is +/-inf according to the sign of ``2 * mean - delta`` (0 when that is exactly 0),
    without numpy warnings.
    """
    n, mean, var = np.broadcast_arrays(*(np.asarray(v, dtype=np.float64) for v in (n, mean, var)))
    num = n * delta * (2.0 * mean - delta)
    zero = var == 0.0
    out = num / (2.0 * np.where(zero, 1.0, var))
    out = np.where(zero, np.where(num == 0.0, 0.0, np.sign(num) * np.inf), out)
    return out if out.ndim else float(out)


def _decide(llr: float, lower: float, upper: float) -> str:
    if llr >= upper:
        return "accept_h1"
    if llr <= lower:
        return "accept_h0"
    return "continue"


@dataclass(frozen=True)
class GsprtResult:
    """Result of :func:`gsprt` on a whole sequence.

    Attributes
    ----------
    decision : str
        ``"accept_h1"``, ``"accept_h0"`` or ``"continue"`` (no bound crossed within the data).
    n_stop : int
        Number of units used when the decision was reached (``len(diffs)`` when ``"continue"``).
    llr : ndarray of float64, shape (n,)
        LLR after each unit (0 before ``min_units``).
    lower, upper : float
        The stopping bounds.
    mean, var : float
        Mean and variance of the differences at ``n_stop``.
    """

    decision: str
    n_stop: int
    llr: np.ndarray
    lower: float
    upper: float
    mean: float
    var: float


def _running_mean_var(d: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Running mean and sample variance (ddof=1; NaN for one observation) of every prefix of ``d``."""
    n = np.arange(1, d.size + 1, dtype=np.float64)
    shifted = d - d[0]  # variance is shift-invariant; shifting keeps the cumulative sums well conditioned
    s1 = np.cumsum(shifted)
    s2 = np.cumsum(shifted * shifted)
    m_shift = s1 / n
    ss = np.maximum(s2 - n * m_shift * m_shift, 0.0)
    var = np.full(d.size, np.nan)
    var[1:] = ss[1:] / (n[1:] - 1.0)
    return m_shift + d[0], var


def gsprt(diffs, delta: float, alpha: float = 0.05, beta: float = 0.05, var: float | None = None,
          min_units: int = 30) -> GsprtResult:
    """Generalized sequential probability ratio test of mean 0 against mean ``delta`` on paired differences.

    Model: the per-unit differences (per-match mean fish, candidate minus baseline) are independent normal with
    mean ``mu`` and variance ``sigma**2``. H0: ``mu = 0``; H1: ``mu = delta``. The log-likelihood ratio of the
    first ``n`` units is ``n * delta * (2 * mean - delta) / (2 * sigma**2)`` and the test stops at the first
    ``n`` where it leaves Wald's interval ``(log(beta / (1 - alpha)), log((1 - beta) / alpha))``. As in the
    fishtest GSPRT, the unknown ``sigma**2`` is replaced by the sample variance of the units seen so far (the
    "generalized" part); per-match means of heavy-tailed fish are close enough to normal for this to keep the
    error rates near ``alpha`` and ``beta``.

    Parameters
    ----------
    diffs : array_like of float, shape (n,)
        Per-unit differences in the order they were produced.
    delta : float
        The smallest difference worth detecting (non-zero; negative to test for a worse candidate).
    alpha, beta : float
        Target probabilities of accepting H1 when H0 holds, and H0 when H1 holds.
    var : float, optional
        Known variance of a difference; estimated from the data when omitted.
    min_units : int
        No decision before this many units. With an estimated variance a very early stop rests on a variance
        from a handful of units and inflates both error rates (simulating normal differences with
        delta = 0.2 sd and alpha = beta = 0.05: about 14.5% false positives with no warm-up, about 5.5% with
        30 units, which is Wald's alpha / (1 - beta) = 5.3% plus a little), hence the default.

    Returns
    -------
    GsprtResult
    """
    delta = float(delta)
    if delta == 0.0 or not np.isfinite(delta):
        raise ValueError("delta must be a finite non-zero difference (the effect worth detecting)")
    if var is not None and not (np.isfinite(var) and var > 0):
        raise ValueError(f"var must be a positive number, got {var}")
    lower, upper = gsprt_bounds(alpha, beta)
    d = _as_finite_1d(diffs, "diffs")
    min_units = max(int(min_units), 1 if var is not None else 2)
    if d.size == 0:
        return GsprtResult("continue", 0, np.zeros(0), lower, upper, float("nan"), float("nan"))
    n = np.arange(1, d.size + 1, dtype=np.float64)
    mean, est_var = _running_mean_var(d)
    v = np.full(d.size, float(var)) if var is not None else est_var
    active = n >= min_units
    llr = np.zeros(d.size)
    llr[active] = gsprt_llr(n[active], mean[active], v[active], delta)
    crossed = np.flatnonzero(active & ((llr >= upper) | (llr <= lower)))
    i = int(crossed[0]) if crossed.size else d.size - 1
    decision = _decide(float(llr[i]), lower, upper) if crossed.size else "continue"
    return GsprtResult(decision, i + 1, llr, lower, upper, float(mean[i]), float(v[i]))


@dataclass(frozen=True)
class GsprtState:
    """Snapshot of an incremental :class:`GSPRT`: ``llr``, ``n`` units seen, ``decision``, and the running
    ``mean`` and ``var`` of the differences."""

    llr: float
    n: int
    decision: str
    mean: float
    var: float


class GSPRT:
    """Incremental version of :func:`gsprt`, for a simulation that stops as soon as the answer is known.

    Feed batches of per-unit differences as they are produced; the bounds are checked at the end of every
    batch (looking less often than every unit only makes the test slightly conservative). Once a bound is
    crossed the decision is final: later batches still update ``n``, ``mean``, ``var`` and ``llr`` but not the
    decision. Fed one unit at a time it reproduces :func:`gsprt` exactly.

    Running moments use Chan's parallel update, so any batching gives the same mean and variance.

    Examples
    --------
    >>> test = GSPRT(delta=0.5)
    >>> state = test.update([0.3, -0.1, 0.7])
    >>> state.n, state.decision
    (3, 'continue')
    """

    def __init__(self, delta: float, alpha: float = 0.05, beta: float = 0.05, var: float | None = None,
                 min_units: int = 30) -> None:
        delta = float(delta)
        if delta == 0.0 or not np.isfinite(delta):
            raise ValueError("delta must be a finite non-zero difference (the effect worth detecting)")
        if var is not None and not (np.isfinite(var) and var > 0):
            raise ValueError(f"var must be a positive number, got {var}")
        self.delta = delta
        self.lower, self.upper = gsprt_bounds(alpha, beta)
        self.known_var = None if var is None else float(var)
        self.min_units = max(int(min_units), 1 if var is not None else 2)
        self._n = 0
        self._mean = 0.0
        self._m2 = 0.0
        self._decision = "continue"
        self._llr = 0.0

    @property
    def state(self) -> GsprtState:
        """The current state (no data needed)."""
        return GsprtState(self._llr, self._n, self._decision, self._mean if self._n else float("nan"),
                          self._var())

    def _var(self) -> float:
        if self.known_var is not None:
            return self.known_var
        return self._m2 / (self._n - 1) if self._n > 1 else float("nan")

    def update(self, batch) -> GsprtState:
        """Add a batch of per-unit differences (array_like of float, shape (k,)) and return the new state."""
        x = _as_finite_1d(np.atleast_1d(np.asarray(batch, dtype=np.float64)), "batch")
        if x.size:
            k = x.size
            b_mean = float(x.mean())
            b_m2 = float(np.sum((x - b_mean) ** 2))
            n_new = self._n + k
            step = b_mean - self._mean
            self._mean += step * k / n_new
            self._m2 += b_m2 + step * step * self._n * k / n_new
            self._n = n_new
        if self._n >= self.min_units:
            self._llr = float(gsprt_llr(self._n, self._mean, self._var(), self.delta))
            if self._decision == "continue":
                self._decision = _decide(self._llr, self.lower, self.upper)
        return self.state


# ---------------------------------------------------------------------------------------------------------------
# multiple comparisons


def holm(pvalues) -> np.ndarray:
    """Holm–Bonferroni adjusted p-values.

    With the ``m`` p-values sorted ascending, ``p_(1) <= ... <= p_(m)``, the adjusted value of the ``i``-th is
    ``min(1, max_{j <= i} (m - j + 1) * p_(j))``: monotone in the raw p-values and capped at 1. Rejecting where
    the adjusted p-value is ``<= alpha`` controls the family-wise error rate at ``alpha`` under any dependence.

    Parameters
    ----------
    pvalues : array_like of float, any shape
        Raw p-values in [0, 1]; NaN is not allowed.

    Returns
    -------
    ndarray of float64, same shape as ``pvalues``
    """
    p = np.asarray(pvalues, dtype=np.float64)
    flat = p.ravel()
    if flat.size == 0:
        return p.copy()
    if np.any(~np.isfinite(flat)) or np.any((flat < 0) | (flat > 1)):
        raise ValueError("p-values must be finite numbers in [0, 1]")
    m = flat.size
    order = np.argsort(flat, kind="stable")
    scaled = (m - np.arange(m)) * flat[order]
    adjusted_sorted = np.minimum(np.maximum.accumulate(scaled), 1.0)
    out = np.empty(m)
    out[order] = adjusted_sorted
    return out.reshape(p.shape)


def holm_reject(pvalues, alpha: float = 0.05) -> np.ndarray:
    """Reject decisions (bool array, shape of ``pvalues``) of the Holm procedure at family-wise level ``alpha``:
    one p-value per pairwise comparison in, one decision per comparison out."""
    if not 0.0 < alpha < 1.0:
        raise ValueError(f"alpha must lie strictly between 0 and 1, got {alpha}")
    return holm(pvalues) <= alpha
