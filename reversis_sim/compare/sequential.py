"""The sequential comparison: the duplicate design played in batches of matches until the GSPRT decides."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from dataclasses import field as dc_field

import numpy as np

from ..analysis import stats
from ..analysis.intervals import too_few
from ..analysis.sequential import GSPRT, MARGIN, MIN_UNITS
from ..constraints import Deals
from ..rules import Rules
from .duplicate import compare_block, seed_offsets
from .seatings import Arms, Spec, as_rules, as_spec


@dataclass(frozen=True)
class SprtUpdate:
    """State after one batch: ``llr`` against the bounds ``lower`` / ``upper``, ``decision`` (``accept_h1``,
    ``accept_h0``, ``continue``), matches and deals used so far, and the running mean and variance of the
    per-match differences."""

    batch: int
    n_matches: int
    n_deals: int
    llr: float
    lower: float
    upper: float
    decision: str
    mean: float
    var: float


@dataclass(frozen=True, eq=False)
class SprtResult:
    """Outcome of :func:`sprt_compare`. ``decision``: ``accept_h1`` (candidate better by at least ``delta``),
    ``accept_h0`` (not better than 0) or ``inconclusive`` (``max_matches`` reached first). ``estimate`` is the
    paired estimate on every match played; after a sequential stop its interval is nominal only (the stopping
    rule biases it away from 0)."""

    decision: str
    n_matches: int
    n_deals: int
    llr: float
    lower: float
    upper: float
    delta: float
    alpha: float
    beta: float
    estimate: stats.PairedResult
    history: list[SprtUpdate] = dc_field(repr=False)
    match_deals: int | None = None

    def summary(self) -> dict:
        """Plain-dict summary; ``json_ready(result.summary())`` for JSON (an infinite LLR becomes None). The
        estimate's bounds and p-value are NaN, and ``note`` says why, with too few matches for a reliable interval
        (``n_needed``)."""
        e = self.estimate
        ok = e.reliable
        return {"kind": "sprt", "decision": self.decision, "n_matches": self.n_matches, "n_deals": self.n_deals,
                "llr": self.llr, "lower": self.lower, "upper": self.upper, "delta": self.delta, "alpha": self.alpha,
                "beta": self.beta, "mean_difference": e.mean_difference, "ci_low": e.ci_low if ok else np.nan,
                "ci_high": e.ci_high if ok else np.nan, "p_value": e.p_value if ok else np.nan, "effect": e.effect,
                "variance_reduction": e.variance_reduction, "n_needed": e.n_needed,
                "note": None if ok else too_few(e.n_needed, self.match_deals)}


def sprt_compare(rules: Rules | str, candidate: Spec, baseline: Spec, field: Spec | None = None, *, delta: float,
                 alpha: float = 0.05, beta: float = 0.05, batch_matches: int, max_matches: int, seed: int,
                 engine: str = "numba", on_update: Callable[[SprtUpdate], None] | None = None,
                 match_deals: int | None = None, threads: int | None = None, min_units: int = MIN_UNITS,
                 policy_seed_offsets: int | tuple[int, int] = 0, level: float = 0.95,
                 constraints: Deals | None = None, margin: float = MARGIN, cluster=None) -> SprtResult:
    """Play the duplicate design in batches of matches until the GSPRT accepts H1 or H0, or ``max_matches``.

    H1: the candidate wins ``delta`` fish per deal more than the baseline; H0: it wins no more (difference 0).
    The per-match differences are those of :func:`compare` (batch ``k`` plays matches ``k * batch_matches ..``,
    so a run is a prefix of the fixed-size comparison on the same seed) and go to
    :class:`.analysis.sequential.GSPRT`, whose bounds are checked after every batch. ``on_update`` gets a
    :class:`SprtUpdate` after each batch (the CLI prints the LLR from it). ``min_units``: no decision before this
    many matches (default :data:`.analysis.sequential.MIN_UNITS`; with a ``max_matches`` below it the test can
    only be inconclusive); ``margin``: the bounds are Wald's for ``margin`` times ``alpha`` and ``beta``
    (:data:`.analysis.sequential.MARGIN`: with both defaults the error rates of skewed real pairs stayed below
    ``alpha`` and ``beta``, docs/statistics.md §9); ``cluster``: a :class:`reversis_sim.cluster.Cluster` whose
    workers play the batches (None: here).
    """
    rules = as_rules(rules)
    if batch_matches < 1 or max_matches < 1:
        raise ValueError(f"batch_matches and max_matches must be at least 1, got {batch_matches}, {max_matches}")
    cand, base = as_spec(candidate), as_spec(baseline)
    fld = base if field is None else as_spec(field)
    offsets = seed_offsets(policy_seed_offsets)
    deals = rules.match_deals if match_deals is None else int(match_deals)
    test = GSPRT(delta, alpha, beta, min_units=min_units, margin=margin)
    diffs, a_all, b_all, history = [], [], [], []
    n_done = n_deals = 0
    state = test.state
    while n_done < max_matches:
        size = min(batch_matches, max_matches - n_done)
        arms = Arms(rules, first_match=n_done, n_matches=size, match_deals=deals, engine=engine, threads=threads,
                    deals=constraints, cluster=cluster)
        dup, _, d = compare_block(arms, cand, base, fld, seed=seed, baseline_seed=seed, offsets=offsets,
                                  level=level)
        a_all.append(dup.a.mean(axis=0))
        b_all.append(dup.b.mean(axis=0))
        diffs.append(d)
        n_done += size
        n_deals += arms.n_deals_simulated
        state = test.update(d)
        update = SprtUpdate(len(history), n_done, n_deals, state.llr, test.lower, test.upper, state.decision,
                            state.mean, state.var)
        history.append(update)
        if on_update is not None:
            on_update(update)
        if state.decision != "continue":
            break
    a, b = np.concatenate(a_all), np.concatenate(b_all)
    estimate = stats.paired_comparison(a=a, b=b, level=level)
    decision = "inconclusive" if state.decision == "continue" else state.decision
    return SprtResult(decision, n_done, n_deals, state.llr, test.lower, test.upper, float(delta), alpha, beta,
                      estimate, history, deals)


