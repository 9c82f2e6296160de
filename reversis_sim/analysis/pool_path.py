"""Means of fish whose tail is the pool, estimated through the pool's expected size (the pool-path estimator).

Why. The Quinola pool carries over from deal to deal and doubles whenever the J♥ is forced or led (R10, R25), so
what it moves in one match is heavy-tailed (skewness ~10, kurtosis ~500), and a t interval on a mean that contains
those moves misses on one side until some 100,000 matches (docs/statistics.md §9). Everything else a seat pays or
receives is light: a standard deviation of a few fish and no skew.

The pool's dynamics are known exactly. At the moment of its Quinola event, deal ``k`` of a match holds a pool
``P_k`` (the pool carried in plus this deal's antes); afterwards the pool is ``r_k · P_k`` with ``r_k`` 0 (won: the
J♥ dumped), 1 (carried: never played, or a move rolled back by a reversis) or 2 (doubled: forced or led, or a failed
espagnolette paying back twice what it won), and every seat's pool flow other than its ante is ``c · P_k`` for a
small integer ``c`` (+1 for the pool won, −1 for a doubling paid). While no seat's decisions read the pool (the
heuristic families: only the search values it), what deal ``k`` does (its cards, its play, its ``r_k`` and every
``c``) does not depend on ``P_k``: the cards of each deal are drawn from its own key. Hence

    E[c · P_k] = E[c] · m_k,   m_k = E[P_k],

and ``m_k`` follows from the rules and the chances ``π_j(r)`` of each ``r`` for a deal dealt by seat ``j``:

    m_k = q_{k-1} + a_carry + (a_new - a_carry) · z_{k-1},   q_k = (π_j(1) + 2 π_j(2)) · m_k,   z_k = π_j(0)

(``q`` the expected pool after a deal, ``z`` the chance that it is empty, ``a_new``/``a_carry`` the antes of a new and
of a carried pool, ``q_{-1} = 0``, ``z_{-1} = 1``). The estimator replaces, in every row, the realised ``c · P_k`` by
``c · m̂_k``, with ``m̂`` computed from the chances ``π̂`` counted in the same run (binomial counts: light). The
quantity is unchanged: the mean of the same per-deal value, whose expectation is the same; only its heavy part is
averaged over the pool's paths by the rules instead of over the few paths the run happened to see.

The interval. Per match ``g``, with ``L_g`` the light part of the group's total (the value minus its ``c · P``),
``e_{g,k}`` the sum of the group's ``c`` in deal ``k``, ``n_g`` its rows and ``o_g(j, r)`` how many of its deals
dealt by ``j`` ended with ``r``, the estimate is ``θ = Σ_g (L_g + Σ_k m̂_k e_{g,k}) / Σ_g n_g``; its influence
function (the delta method through ``π̂``) is

    ψ_g = L_g + Σ_k m̂_k e_{g,k} + Σ_{j,r} β_{j,r} (o_g(j, r) - π̂_j(r) d_j) - θ n_g,
    β_{j,r} = Σ_k ē_k ∂m_k/∂π_j(r) / d_j

(``d_j`` the deals dealt by ``j`` in a match, ``ē_k`` the mean of ``e_{g,k}``), every term bounded; the standard
error is the CR1 sandwich ``G/(G-1) Σ ψ_g² / (Σ n_g)²`` and the interval Student's t with ``G - 1`` degrees of
freedom, as for the plain means. Everything is kept as per-group sums of the outer products of
``w_g = (1, n_g, L_g, e_g, o_g)``, which add up over parts. ``scripts/interval_coverage.py runs`` measures its
coverage against truth runs (docs/statistics.md §10): :data:`.intervals.MIN_MATCHES` ``["pool_path"]``.
"""

from __future__ import annotations

import numpy as np
import polars as pl

from .intervals import n_needed
from .numeric import t_ppf

__all__ = ["N_OUTCOMES", "ROW_MATCHES", "ROW_PAYMENTS", "PathSums", "adjusted_totals", "expected_pools", "path_rows",
           "rare_need", "rare_reasons"]

N_OUTCOMES = 3
"""The pool after a deal is 0, 1 or 2 times the pool at its Quinola event (won, carried, doubled)."""
ROW_MATCHES = 1_000
"""The fewest matches that must hold a row (a hand value, a fate, a reason paid) for its interval to be printed, on
top of the run's size its kind needs: the coverage harness judged the rows held by at least this many of a block's
matches (``scripts/coverage_parts/cov_path.py``)."""
ROW_PAYMENTS = 150
"""The fewest matches that must hold a payment of a reason (their rows of fish by reason count the matches in which
the row's seats, together, were paid or paid some of it) for its interval to be printed, on top of the kind's
floor. A rare reason's row is a few large payments (each of the pool's reasons valued at the pool's expected size),
and its mean is skewed while they are few, whatever the number of matches: at a table of ``avoid`` the return of a
rolled-back doubling, held by about 54 of 10,000 matches, missed below 33 times and above 7 of 700 blocks of 10,000;
at a table of four players the broken reversis of ``avoid``, held by about 36, missed above 32 times and below 7 of
700. Rows held by 100 to 300 mostly held, now and then missing on one side (``saver``'s broken reversis, about 113
payments at 20,000 matches: 13 above and 2 below of 200 blocks on four seeds, 8 and 9 of 350 on seven others).

A floor on a count the run drew prints the runs that drew more than usual, whose means lean to one side: with 300,
``saver``'s broken reversis at 50,000 matches (about 284 payments) was printed in 22 blocks of 140 and missed below
in 7 of them. So this is a guard, set three times the counts at which rows failed and below the counts of the rows
measured to hold at their sizes (``avoid``'s broken reversis at 50,000 matches, about 182; a reversis made at
10,000 in the four players' table, about 264); a row whose expected count lies just below it is printed only by
the few runs that drew more (``random``'s broken reversis at 10,000 matches, about 119: the harness judged these
tables with the guard, docs/statistics.md §10); a table whose players make a reason rarer than any measured says
how many matches its row needs."""


def expected_pools(chances: np.ndarray, dealers: np.ndarray, ante_new: float, ante_carry: float
                   ) -> tuple[np.ndarray, np.ndarray]:
    """The expected pool at the Quinola event of each deal of a match, and its gradient.

    Parameters
    ----------
    chances : float64 (J, 3)
        ``π_j(r)``: the chance that a deal dealt by seat ``j`` leaves ``r`` (0, 1, 2) times its pool.
    dealers : intp (K,)
        The dealer of each deal of the match.
    ante_new, ante_carry : float
        What the antes add to an empty pool (a new pool) and to a carried one.

    Returns
    -------
    m : float64 (K,)
        ``E[P_k]``.
    grad : float64 (K, J, 3)
        ``∂m_k / ∂π_j(r)``.
    """
    chances = np.asarray(chances, np.float64)
    J = chances.shape[0]
    K = len(dealers)
    m, grad = np.zeros(K), np.zeros((K, J, N_OUTCOMES))
    q, dq = 0.0, np.zeros((J, N_OUTCOMES))
    z, dz = 1.0, np.zeros((J, N_OUTCOMES))
    for k, j in enumerate(dealers):
        m[k] = q + ante_carry + (ante_new - ante_carry) * z
        grad[k] = dq + (ante_new - ante_carry) * dz
        grow = chances[j, 1] + 2.0 * chances[j, 2]
        dgrow = np.zeros((J, N_OUTCOMES))
        dgrow[j, 1], dgrow[j, 2] = 1.0, 2.0
        q, dq = grow * m[k], dgrow * m[k] + grow * grad[k]
        z = chances[j, 0]
        dz = np.zeros((J, N_OUTCOMES))
        dz[j, 0] = 1.0
    return m, grad


class PathSums:
    """The additive sums of the pool-path estimator for some groups: per group, ``Σ_g w_g w_gᵀ`` with
    ``w_g = (1, n_g, L_g, e_{g,0..K-1}, o_g)`` (float64 (G, 3 + K + 3J)), over every match of the run.

    ``add`` adds another part's sums (the same groups and shape); every match is a unit of every group (a match
    without a row of the group has ``n_g = 0`` but still moves ``π̂``)."""

    def __init__(self, outer: np.ndarray, occupied: np.ndarray | None = None):
        self.outer = np.asarray(outer, np.float64)
        # per group, the matches with a row of it (the ``n_units`` a plain table reports, and what its floor counts)
        self.occupied = (np.full(len(self.outer), int(round(self.outer[0, 0, 0])) if len(self.outer) else 0)
                         if occupied is None else np.asarray(occupied, np.int64))

    @classmethod
    def of(cls, sizes: np.ndarray, light: np.ndarray, events: np.ndarray, outcomes: np.ndarray,
           held: np.ndarray | None = None) -> PathSums:
        """The sums of one part: ``sizes`` and ``light`` (U, G), ``events`` (U, G, K), ``outcomes`` (U, J * 3)
        shared by every group; ``held`` (U, G) bool, whether a match holds the group's row (by default: has a row
        of it, ``sizes > 0``)."""
        U, G = light.shape
        w = np.concatenate([np.ones((U, G, 1)), sizes[..., None], light[..., None], events,
                            np.broadcast_to(outcomes[:, None, :], (U, G, outcomes.shape[1]))], axis=2)
        wt = np.ascontiguousarray(w.transpose(1, 2, 0))  # (G, D, U)
        return cls(np.matmul(wt, wt.transpose(0, 2, 1)), np.count_nonzero(sizes if held is None else held, axis=0))

    def add(self, other: PathSums) -> PathSums:
        self.outer = self.outer + other.outer
        self.occupied = self.occupied + other.occupied
        return self

    def __getitem__(self, index) -> PathSums:
        return PathSums(self.outer[index], self.occupied[index])


def path_rows(sums: PathSums, dealers: np.ndarray, ante_new: float, ante_carry: float, level: float = 0.95,
              kind: str | list[str] = "pool_path", row_matches: int = ROW_MATCHES) -> list[dict]:
    """The rows of :func:`.tables.mean_table` (``mean``, ``se``, ``ci_low``, ``ci_high``, ``n_units``, ``n_deals``,
    ``n_needed``) of every group of ``sums``, estimated through the pool's expected size (module docstring);
    the bounds NaN where the run has fewer matches than an interval of ``kind`` (one, or one per group) needs, or
    fewer than ``row_matches`` of them hold the group's row (``n_units``: those matches; the standard error counts
    every match, each one moving the chances the estimate uses)."""
    outer = sums.outer
    K = len(dealers)
    J = (outer.shape[1] - 3 - K) // N_OUTCOMES
    first = outer[0, 0]  # (1, n, L, e, o) against 1: the sums of w
    G = first[0]
    counts = first[3 + K:].reshape(J, N_OUTCOMES)
    per_dealer = np.bincount(dealers, minlength=J).astype(np.float64)  # d_j
    seen = counts.sum(axis=1)
    chances = np.divide(counts, seen[:, None], out=np.full_like(counts, 1.0 / N_OUTCOMES), where=seen[:, None] > 0)
    m, grad = expected_pools(chances, dealers, ante_new, ante_carry)
    rows = []
    kinds = [kind] * len(outer) if isinstance(kind, str) else list(kind)
    for o, occupied, kind_g in zip(outer, sums.occupied, kinds, strict=True):
        s = o[0]
        n_obs, light, events = s[1], s[2], s[3:3 + K]
        mean = (light + m @ events) / n_obs if n_obs > 0 else np.nan
        beta = np.einsum("k,kjr->jr", events / G, grad) / np.where(per_dealer > 0, per_dealer, 1.0)[:, None]
        a = np.concatenate([[-(beta * chances * per_dealer[:, None]).sum(), -mean if n_obs > 0 else 0.0, 1.0], m,
                            beta.ravel()])
        var_sum = max(float(a @ o @ a), 0.0)
        units = int(round(G))
        se = np.sqrt(units / (units - 1) * var_sum) / n_obs if units > 1 and n_obs > 0 else np.nan
        need = rare_need(units, int(occupied), row_matches, n_needed(units, kind_g))
        half = t_ppf(0.5 + level / 2, units - 1) * se if units > 1 else np.nan
        shown = need == 0 and np.isfinite(se)
        rows.append({"mean": float(mean), "se": float(se), "ci_low": float(mean - half) if shown else np.nan,
                     "ci_high": float(mean + half) if shown else np.nan, "n_units": int(occupied),
                     "n_deals": int(round(n_obs)), "n_needed": need})
    return rows


def reason_kind(reason: str) -> str:
    """The kind of interval (:data:`.intervals.MIN_MATCHES`) of a row of fish by reason through the pool's expected
    size: the return of a rolled-back doubling, a mean of a few large payments, has a floor of its own."""
    return "pool_path_return" if reason == "return" else "pool_path_reason"


def rare_need(units: int, held: int, row_matches: int, need: int) -> int:
    """The matches a row needs (``need``: its kind's, 0 when ``units`` are enough) where only ``held`` of the run's
    ``units`` matches hold it: below ``row_matches`` of them, the matches in which that many would."""
    if held >= row_matches:
        return need
    return max(need, int(np.ceil(units * row_matches / max(held, 1))), units + 1)


def rare_reasons(table: pl.DataFrame, row_payments: int = ROW_PAYMENTS) -> pl.DataFrame:
    """A plain table of fish by reason (:func:`.tables.mean_table`'s columns and ``held``, the matches holding a
    payment of the row) with the payment floor of the pool's reasons carried to every reason: ``n_units`` becomes
    ``held``, and a row that fewer than ``row_payments`` matches hold prints no interval and says how many matches
    it needs. A row held by no match nets to zero in every match (a payment between seats of one policy), its mean
    exactly 0, and keeps its interval.

    Why: a rare payment is skewed like the return of a rolled-back doubling, whatever its size: at a table of four
    players the broken reversis of ``avoid`` (about 36 of 10,000 matches hold one) missed above 32 times and below 7
    of 700 blocks of 10,000 (docs/statistics.md §10)."""
    units = table["n_units"].to_list()
    held = table["held"].fill_null(0).to_list()
    need = [n if h == 0 else rare_need(u, h, row_payments, n) for u, h, n in zip(units, held, table["n_needed"])]
    shown = pl.Series(need) == 0
    return table.with_columns(
        pl.when(shown).then(pl.col("ci_low")).otherwise(float("nan")).alias("ci_low"),
        pl.when(shown).then(pl.col("ci_high")).otherwise(float("nan")).alias("ci_high"),
        pl.Series("n_needed", need, table.schema["n_needed"]),
        pl.when(pl.col("held") > 0).then(pl.col("held")).otherwise(pl.col("n_units"))
        .cast(table.schema["n_units"]).alias("n_units")).drop("held")


def adjusted_totals(light: np.ndarray, events: np.ndarray, outcomes: np.ndarray, dealers: np.ndarray,
                    ante_new: float, ante_carry: float) -> np.ndarray:
    """Per match and group, a total whose mean over the matches is the pool-path estimate of the group's total and
    whose spread is its influence (module docstring): ``L_g + Σ_k m̂_k e_{g,k} + Σ_{j,r} β_{j,r} (o_g(j, r) -
    π̂_j(r) d_j)``. The plain machinery (``stats.mean_ci``, a paired comparison) on these values gives the
    pool-path intervals of a comparison's tables.

    ``light`` (U, G), ``events`` (U, G, K), ``outcomes`` (U, J * 3); returns float64 (U, G)."""
    U = light.shape[0]
    J = outcomes.shape[1] // N_OUTCOMES
    counts = outcomes.sum(axis=0).reshape(J, N_OUTCOMES)
    seen = counts.sum(axis=1)
    chances = np.divide(counts, seen[:, None], out=np.full_like(counts, 1.0 / N_OUTCOMES), where=seen[:, None] > 0)
    m, grad = expected_pools(chances, dealers, ante_new, ante_carry)
    per_dealer = np.bincount(dealers, minlength=J).astype(np.float64)
    beta = np.einsum("gk,kjr->gjr", events.mean(axis=0), grad) / np.where(per_dealer > 0, per_dealer, 1.0)[:, None]
    deviation = outcomes.reshape(U, J, N_OUTCOMES) - chances[None] * per_dealer[None, :, None]
    return light + events @ m + np.einsum("gjr,ujr->ug", beta, deviation)
