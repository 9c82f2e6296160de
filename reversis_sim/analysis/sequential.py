"""The generalized sequential probability ratio test (GSPRT) on per-unit differences: stop a comparison as soon as
the evidence decides between "the candidate gains ``delta``" (H1) and "it gains nothing" (H0)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .numeric import finite_1d

__all__ = ["DECISIONS", "GSPRT", "MARGIN", "GsprtResult", "GsprtState", "MIN_UNITS", "gsprt", "gsprt_bounds",
           "gsprt_llr"]

DECISIONS = ("accept_h1", "accept_h0", "continue")
"""The three states of a sequential test."""

MIN_UNITS = 1_000
"""No decision before this many units (matches) by default: an early stop rests on a mean and a variance that
have not yet met the rare big match of a heavy-tailed difference (docs/statistics.md §9)."""

MARGIN = 0.5
"""The stopping bounds are Wald's for ``MARGIN`` times the error rates asked for (by default). Per-match differences
of fish are skewed: most samples lack the rare match with a big pool, so the running mean of a right-skewed
difference sits below its expectation for thousands of matches, and the test drifts towards H0 when H1 holds (a
left skew, towards H1 when H0 holds). ``scripts/interval_coverage.py gsprt`` measured it on real pairs
(docs/statistics.md §9): with Wald's own bounds and alpha = beta = 0.05, tuned against avoid accepted H0 wrongly
7-8.5% of the time for a delta of 0.015-0.03 standard deviations of a match's difference, whatever the
warm-up (30, 1,000 or 2,000 matches); with bounds for half the rates and a warm-up of :data:`MIN_UNITS`, no
pair exceeded 4.2%, at the price of
20-40% more matches."""


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
          min_units: int = MIN_UNITS, margin: float = MARGIN) -> GsprtResult:
    """Generalized sequential probability ratio test of mean 0 against mean ``delta`` on paired differences.

    Model: the per-unit differences (per-match mean fish, candidate minus baseline) are independent normal with
    mean ``mu`` and variance ``sigma**2``. H0: ``mu = 0``; H1: ``mu = delta``. The log-likelihood ratio of the
    first ``n`` units is ``n * delta * (2 * mean - delta) / (2 * sigma**2)`` and the test stops at the first
    ``n`` where it leaves Wald's interval ``(log(beta' / (1 - alpha')), log((1 - beta') / alpha'))``, with
    ``alpha' = margin * alpha`` and ``beta' = margin * beta`` (:data:`MARGIN`: the skew of real pairs). As in the
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
        30 units, which is Wald's alpha / (1 - beta) = 5.3% plus a little); skewed, heavy-tailed differences (real
        pairs of players) need far more: the default :data:`MIN_UNITS`.
    margin : float
        The bounds are Wald's for ``margin * alpha`` and ``margin * beta`` (in (0, 1]; 1: Wald's own bounds, right
        for normal differences). The default :data:`MARGIN` keeps the measured error rates of skewed real pairs
        below ``alpha`` and ``beta``.

    Returns
    -------
    GsprtResult
    """
    delta = float(delta)
    if delta == 0.0 or not np.isfinite(delta):
        raise ValueError("delta must be a finite non-zero difference (the effect worth detecting)")
    if var is not None and not (np.isfinite(var) and var > 0):
        raise ValueError(f"var must be a positive number, got {var}")
    lower, upper = gsprt_bounds(*_margined(alpha, beta, margin))
    d = finite_1d(diffs, "diffs")
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


def _margined(alpha: float, beta: float, margin: float) -> tuple[float, float]:
    if not 0.0 < margin <= 1.0:
        raise ValueError(f"margin must lie in (0, 1], got {margin}")
    gsprt_bounds(alpha, beta)  # the rates asked for must be valid themselves
    return margin * alpha, margin * beta


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
                 min_units: int = MIN_UNITS, margin: float = MARGIN) -> None:
        delta = float(delta)
        if delta == 0.0 or not np.isfinite(delta):
            raise ValueError("delta must be a finite non-zero difference (the effect worth detecting)")
        if var is not None and not (np.isfinite(var) and var > 0):
            raise ValueError(f"var must be a positive number, got {var}")
        self.delta = delta
        self.lower, self.upper = gsprt_bounds(*_margined(alpha, beta, margin))
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
        x = finite_1d(np.atleast_1d(np.asarray(batch, dtype=np.float64)), "batch")
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
