"""Tournaments: every policy in every seat against a field of every policy, on the same deals; the payoff matrix,
a ranking and Holm-corrected pairwise claims."""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from dataclasses import field as dc_field
from pathlib import Path

import numpy as np
import polars as pl

from ..analysis import stats
from ..analysis.intervals import too_few
from ..analysis.tables import holm_table
from ..constraints import Deals
from ..rules import Rules
from .folders import prepare, write_folder
from .seatings import Arms, Spec, as_rules, as_spec


@dataclass(frozen=True, eq=False)
class TournamentResult:
    """``payoff``: one row per (row, column) policy: mean fish per deal of ``row`` seated in each seat in turn
    against copies of ``column``, with ``se``, ``ci_low``, ``ci_high``. ``ranking``: policies by their mean over
    every field (the same fields and deals for all). ``pairwise``: one row per pair, a paired comparison of the
    per-match row means, Holm-corrected (``p_holm``, ``reject``) with the claim it supports. ``values``: float64
    (k, k, n_matches), the per-match payoffs. Every table has ``n_needed``: where it is not 0 there were too few
    matches for a reliable interval (:mod:`.analysis.intervals`), the bounds are NaN, and a pair makes no claim
    (its p-values NaN, its claim the sentence saying how many matches are needed). ``payoff`` and ``ranking``
    are estimated through the pool's expected size where the run allows it (:mod:`.analysis.pool_path`; their
    ``estimator`` column says which, ``pool_path_note`` why not; ``adjusted`` their per-match values); ``values``
    and :attr:`matrix` are the plain per-match payoffs, and the pairwise claims compare their row means."""

    policies: list[str]
    payoff: pl.DataFrame
    ranking: pl.DataFrame
    pairwise: pl.DataFrame
    values: np.ndarray = dc_field(repr=False)
    n_matches: int = 0
    n_deals: int = 0
    pool_path_note: str | None = None
    """Why the payoffs and the ranking are plain means (None: they went through the pool's expected size)."""
    adjusted: np.ndarray | None = dc_field(default=None, repr=False)
    """float64 (k, k, n_matches): the per-match payoffs through the pool's expected size, whose means and intervals
    the ``payoff`` table prints (None where ``pool_path_note`` says why not)."""

    @property
    def matrix(self) -> np.ndarray:
        """float64 (k, k): ``M[i, j]`` the mean payoff of policy i against a field of policy j."""
        return self.values.mean(axis=2)


def _bounds(r: stats.MeanCI, mean: float) -> dict:
    """``mean``, ``se`` and the bounds of a mean (NaN where too few matches: ``n_needed``)."""
    ok = r.reliable
    return {"mean": mean, "se": r.se, "ci_low": r.ci_low if ok else np.nan, "ci_high": r.ci_high if ok else np.nan,
            "n_needed": r.n_needed}


def pool_path_status(specs: Sequence, tables) -> str | None:
    """None where every table's pool can be split off and no policy decides by the pool (the pool-path
    estimator holds: :mod:`reversis_sim.analysis.pool_path`), else a sentence saying why not."""
    readers = [str(s) for s in specs if getattr(s, "rollout", None) is not None]
    if readers:
        return f"{readers[0]} decides by the pool it sees"
    return next((t.pool for t in tables if isinstance(t.pool, str)), None)


def claims(pairwise: pl.DataFrame, match_deals: int) -> pl.DataFrame:
    """``winner`` and ``claim`` of each pair after Holm (``reject``); a pair with too few matches for a reliable
    interval (``n_needed`` > 0) claims nothing: its bounds and p-values are NaN, ``reject`` false, and ``claim``
    the sentence of :func:`.analysis.intervals.too_few`."""
    refused = pl.col("n_needed") > 0
    nan = pl.lit(float("nan"))
    pairwise = pairwise.with_columns(
        *(pl.when(refused).then(nan).otherwise(pl.col(c)).alias(c) for c in ("ci_low", "ci_high", "p_value",
                                                                            "p_holm")),
        (pl.col("reject") & ~refused).alias("reject"))
    words = pl.col("n_needed").map_elements(lambda n: too_few(int(n), match_deals), return_dtype=pl.String)
    return pairwise.with_columns(
        pl.when(~pl.col("reject")).then(pl.lit(None, pl.String))
        .when(pl.col("mean_difference") > 0).then(pl.col("policy_a")).otherwise(pl.col("policy_b")).alias("winner"),
        pl.when(refused).then(words).when(~pl.col("reject")).then(pl.lit("no claim"))
        .when(pl.col("mean_difference") > 0).then(pl.col("policy_a") + " beats " + pl.col("policy_b"))
        .otherwise(pl.col("policy_b") + " beats " + pl.col("policy_a")).alias("claim"))


def tournament(rules: Rules | str, policies: Sequence[Spec], *, n_matches: int, seed: int, engine: str = "numba",
               match_deals: int | None = None, threads: int | None = None, level: float = 0.95,
               alpha: float = 0.05, first_match: int = 0, out: str | Path | None = None,
               force: bool = False, deals: Deals | None = None, resume: bool = False, cluster=None) -> TournamentResult:
    """Every policy in every seat against three (``n_seats - 1``) copies of every policy, on the same deals.

    ``M[i][j]`` = mean over matches of (mean over the seat rotations of policy i's fish per deal against a field
    of j); its interval is :func:`.analysis.stats.mean_ci` on the per-match values. The ranking averages a row over
    all fields (``j`` including ``i``: every policy faces the same fields); "i beats j" claims come from
    :func:`.analysis.stats.paired_comparison` of the per-match row means of i and j (same fields, same deals),
    Holm-corrected over all pairs at family-wise level ``alpha``. ``out`` writes ``payoff``, ``ranking``,
    ``pairwise`` and ``values`` Parquet tables and a manifest (kind ``tournament``); ``resume`` computes again a
    folder of the same tournament one of whose tables is truncated, missing or foreign. ``cluster``: a
    :class:`reversis_sim.cluster.Cluster` whose workers play the seatings (None: here).
    """
    rules = as_rules(rules)
    specs = [as_spec(p) for p in policies]
    canonical = [str(s) for s in specs]
    names = [p.strip() if isinstance(p, str) else str(p) for p in policies]  # as the user wrote them
    if len(specs) < 2:
        raise ValueError("a tournament needs at least two policies")
    if len(set(canonical)) != len(canonical):
        dup = sorted({n for n in canonical if canonical.count(n) > 1})
        raise ValueError(f"policies listed twice (after filling in defaults): {', '.join(dup)}")
    per_match = rules.match_deals if match_deals is None else int(match_deals)
    settings = {"rules": rules.name, "rules_params": rules.to_params(), "policies": canonical, "seed": int(seed),
                "first_match": first_match, "n_matches": n_matches, "match_deals": per_match, "level": level,
                "alpha": alpha, "deals": deals.identity() if deals is not None and deals.constrained else None}
    if out is not None:
        prepare(Path(out), "tournament", settings, force=force, resume=resume)
    arms = Arms(rules, first_match=first_match, n_matches=n_matches, match_deals=per_match, engine=engine,
                threads=threads, deals=deals, cluster=cluster)
    n, k = rules.n_seats, len(specs)
    values = np.empty((k, k, n_matches))
    tables = {}
    for i, j in itertools.product(range(k), range(k)):
        per_rot = []
        for s in range(n):
            seats = [specs[j]] * n
            seats[s] = specs[i]
            tables[i, j, s] = arms.table(seats, seed)
            per_rot.append(tables[i, j, s].per_deal(s))
        values[i, j] = np.mean(per_rot, axis=0)
    # the payoffs and the ranking through the pool's expected size where every table allows it
    # (analysis/pool_path.py): the same expected fish, with an interval from 10,000 matches instead of 32,000 or
    # 128,000; the pairwise claims keep the plain differences, whose floor was measured on them
    estimated = values
    why = pool_path_status(specs, tables.values())
    if why is None:
        estimated = np.empty_like(values)
        for i, j in itertools.product(range(k), range(k)):
            estimated[i, j] = np.mean([tables[i, j, s].per_deal_pool_path(s) for s in range(n)], axis=0)

    payoff = []
    for i, j in itertools.product(range(k), range(k)):
        # plain: a seat's fish against another policy's field; a table of one policy alone is its pool left
        kind = "pool_path_tournament" if why is None else ("seat" if i != j else "pool")
        r = stats.mean_ci(estimated[i, j], level=level, kind=kind)
        payoff.append({"row": names[i], "column": names[j], **_bounds(r, r.mean), "n_matches": n_matches,
                       "estimator": "plain" if why else "pool_path"})
    row_means = values.mean(axis=1)  # (k, n_matches)
    ranking = []
    for i, row in enumerate(estimated.mean(axis=1)):
        r = stats.mean_ci(row, level=level, kind="pool" if why else "pool_path_tournament")  # its table alone too
        ranking.append({"policy": names[i], **_bounds(r, r.mean), "estimator": "plain" if why else "pool_path"})
    ranking_frame = (pl.DataFrame(ranking).sort("mean", descending=True, maintain_order=True)
                     .with_row_index("rank", offset=1).with_columns(pl.col("rank").cast(pl.Int64)))
    pairs = []
    for i, j in itertools.combinations(range(k), 2):
        r = stats.paired_comparison(a=row_means[i], b=row_means[j], level=level)
        pairs.append({"policy_a": names[i], "policy_b": names[j], "mean_difference": r.mean_difference,
                      "se": r.se, "ci_low": r.ci_low, "ci_high": r.ci_high, "p_value": r.p_value,
                      "effect": r.effect, "n_needed": r.n_needed})
    pairwise = claims(holm_table(pl.DataFrame(pairs), alpha=alpha), arms.match_deals)
    result = TournamentResult(names, pl.DataFrame(payoff), ranking_frame, pairwise, values, n_matches,
                              arms.n_deals_simulated, why, None if why else estimated)
    if out is not None:
        long = pl.DataFrame({
            "row": np.repeat(names, k * n_matches), "column": np.tile(np.repeat(names, n_matches), k),
            "match": np.tile(np.arange(first_match, first_match + n_matches), k * k), "value": values.reshape(-1)})
        manifest = {"rules": rules.name, "rules_params": rules.to_params(), "policies": names,
                    "policy_specs": canonical, "seed": int(seed),
                    "first_match": first_match, "n_matches": n_matches, "match_deals": per_match, "engine": engine,
                    "level": level, "alpha": alpha, "n_deals": arms.n_deals_simulated,
                    "layout": {"values.parquet": "one row per (row, column, match): mean over rotations of row's "
                                                 "fish per deal against a field of column"}}
        write_folder(Path(out), "tournament", {"payoff.parquet": result.payoff, "ranking.parquet": ranking_frame,
                                               "pairwise.parquet": pairwise, "values.parquet": long},
                     manifest, force=force or resume, settings=settings)
    return result


