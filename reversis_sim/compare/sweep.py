"""Parameter sweeps: a grid of a family's parameters against a baseline, Holm-corrected across the grid, with the
best point re-tested alone on fresh deals (explore on one seed, confirm on another: a point chosen on some deals is
biased upward on them)."""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import polars as pl

from ..analysis.tables import holm_table
from ..policies import PolicySpec
from ..rules import Rules
from .duplicate import CompareResult, compare, compare_block, result_of
from .folders import prepare, write_folder
from .seatings import Arms, Spec, as_rules, as_spec


def grid_specs(base_spec: Spec, grid: Mapping[str, Sequence[float]]) -> list[tuple[dict, PolicySpec]]:
    """Every point of ``grid`` (parameter -> values; the product, in the order given) applied to ``base_spec``:
    ``(values, spec)`` pairs, each spec parsed from its text ``family:key=v,...`` so names and ranges are checked (a
    search keeps its rollout)."""
    base = as_spec(base_spec)
    if not grid:
        raise ValueError("the grid is empty; give at least one parameter and its values")
    keys_ = list(grid)
    for key in keys_:
        if len(grid[key]) == 0:
            raise ValueError(f"grid parameter {key!r} has no values")
    points = []
    for combo in itertools.product(*(grid[k] for k in keys_)):
        values = dict(zip(keys_, combo))
        points.append((values, base.with_values(values)))
    return points


@dataclass(frozen=True, eq=False)
class SweepResult:
    """``grid``: one row per grid point (its parameter values, ``spec``, the comparison with the baseline,
    ``p_holm``, ``reject``, ``best``, ``n_needed``); ``best``: the spec with the largest explore-seed mean
    difference; ``confirm``: that spec re-tested alone on the confirm seed (None without one), ``confirmed``: its
    confirm comparison is significant at ``alpha`` in the candidate's favour, with enough matches for a reliable
    interval. With too few matches (``n_needed`` > 0) a row's bounds and p-values are NaN and ``reject`` false."""

    grid: pl.DataFrame
    best: str
    confirm: CompareResult | None = None
    confirmed: bool | None = None

    def table(self) -> pl.DataFrame:
        """The grid rows (``stage`` explore) and the confirm row (``stage`` confirm), one frame."""
        explore = self.grid.with_columns(pl.lit("explore").alias("stage"))
        if self.confirm is None:
            return explore
        s = self.confirm.summary()
        row = {c: None for c in explore.columns}
        row.update({k: s[k] for k in ("mean_difference", "se", "ci_low", "ci_high", "p_value", "effect",
                                      "variance_reduction", "n_matches", "n_deals", "n_needed") if k in row})
        row.update({"spec": self.best, "seed": self.confirm.seed, "stage": "confirm", "reject": self.confirmed,
                    "p_holm": s["p_value"], "best": True})
        return pl.concat([explore, pl.DataFrame([row], schema=explore.schema)], how="vertical")


def summary_row(r: CompareResult) -> dict:
    """A grid row: the comparison's summary, with its raw p-value for Holm (refused after it, where ``n_needed``)."""
    s = r.summary()
    row = {k: s[k] for k in ("mean_candidate", "mean_baseline", "mean_difference", "se", "ci_low", "ci_high",
                             "p_value", "effect", "variance_reduction", "n_matches", "n_deals", "n_needed")}
    return {**row, "p_value": r.p_value}


def refuse(table: pl.DataFrame) -> pl.DataFrame:
    """No claim where a row has too few matches for a reliable interval: its p-values NaN, ``reject`` false."""
    refused = pl.col("n_needed") > 0
    return table.with_columns(
        *(pl.when(refused).then(pl.lit(float("nan"))).otherwise(pl.col(c)).alias(c) for c in ("p_value", "p_holm")),
        (pl.col("reject") & ~refused).alias("reject"))


def sweep(rules: Rules | str, base_spec: Spec, grid: Mapping[str, Sequence[float]], baseline: Spec, *,
          n_matches: int, seed: int, confirm_seed: int | None = None, confirm_matches: int | None = None,
          engine: str = "numba", field: Spec | None = None, match_deals: int | None = None,
          threads: int | None = None, alpha: float = 0.05, level: float = 0.95, out: str | Path | None = None,
          force: bool = False, resume: bool = False, cluster=None) -> SweepResult:
    """Compare every grid point with ``baseline`` (the duplicate design of :func:`compare`, all points on the same
    matches of the explore ``seed``; the baseline arm is simulated once), Holm-correct across the points, pick
    the best mean difference, and, given ``confirm_seed`` (a seed other than ``seed``: fresh deals), re-test the
    best point alone on ``confirm_matches`` (default ``n_matches``) matches of it. The selection is made on the
    explore seed only, so the confirm p-value is an honest single test of the chosen setting.

    ``out`` writes ``grid.parquet`` and a manifest (kind ``sweep``, with the confirm summary); ``resume`` computes
    again a folder of the same sweep whose table is truncated, missing or foreign. ``cluster``: a
    :class:`reversis_sim.cluster.Cluster` whose workers play the seatings (None: here)."""
    rules = as_rules(rules)
    if confirm_matches is not None and confirm_seed is None:
        raise ValueError("confirm_matches needs a confirm_seed (a seed other than the explore seed)")
    if confirm_seed is not None and int(confirm_seed) == int(seed):
        raise ValueError(f"confirm_seed must differ from the explore seed ({seed}): the confirmation must run on "
                         f"fresh deals")
    points = grid_specs(base_spec, grid)
    base = as_spec(baseline)
    fld = base if field is None else as_spec(field)
    deals = rules.match_deals if match_deals is None else int(match_deals)
    settings = {"rules": rules.name, "rules_params": rules.to_params(), "base_spec": str(as_spec(base_spec)),
                "grid": {k: [float(v) for v in vs] for k, vs in grid.items()}, "baseline": str(base),
                "field": str(fld), "seed": int(seed), "confirm_seed": confirm_seed, "confirm_matches": confirm_matches,
                "n_matches": n_matches, "match_deals": deals, "alpha": alpha, "level": level}
    if out is not None:
        prepare(Path(out), "sweep", settings, force=force, resume=resume)
    arms = Arms(rules, first_match=0, n_matches=n_matches, match_deals=deals, engine=engine, threads=threads,
                cluster=cluster)
    rows = []
    for index, (values, spec) in enumerate(points):
        before = arms.n_deals_simulated
        dup, paired, _ = compare_block(arms, spec, base, fld, seed=seed, baseline_seed=seed, offsets=(0, 0),
                                       level=level)
        r = result_of(arms, dup, paired, spec, base, fld, seed=seed, baseline_seed=seed, offsets=(0, 0), level=level,
                      n_deals=arms.n_deals_simulated - before)
        rows.append({"point": index, **{k: float(v) for k, v in values.items()}, "spec": str(spec), "seed": seed,
                     **summary_row(r)})
    table = refuse(holm_table(pl.DataFrame(rows), alpha=alpha))
    best_index = int(np.argmax(table["mean_difference"].to_numpy()))
    table = table.with_columns((pl.col("point") == best_index).alias("best"))
    best = table["spec"][best_index]
    confirm = confirmed = None
    if confirm_seed is not None:
        confirm = compare(rules, best, base, fld, n_matches=confirm_matches or n_matches, match_deals=deals,
                          seed=int(confirm_seed), engine=engine, threads=threads, level=level, cluster=cluster)
        confirmed = bool(confirm.n_needed == 0 and confirm.p_value < alpha and confirm.mean_difference > 0)
    result = SweepResult(table, best, confirm, confirmed)
    if out is not None:
        manifest = {"rules": rules.name, "rules_params": rules.to_params(), "base_spec": str(as_spec(base_spec)),
                    "grid": {k: [float(v) for v in vs] for k, vs in grid.items()}, "baseline": str(base),
                    "field": str(fld), "seed": int(seed), "n_matches": n_matches, "match_deals": deals,
                    "engine": engine, "alpha": alpha, "level": level, "best": best,
                    "confirm": None if confirm is None else confirm.summary(), "confirmed": confirmed}
        write_folder(Path(out), "sweep", {"grid.parquet": result.table()}, manifest, force=force or resume,
                     settings=settings)
    return result
