"""Opening a run folder for analysis: the summary printed after a run, the tables of ``analyze``, and the tables a
run's figures draw."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import polars as pl

from ..overrides import label
from ..record import part_files, payments_path, read_manifest
from .batches import ROWS_PER_BATCH, Batches
from .figures_data import convergence, fish_distribution, quinola_fates
from .intervals import MIN_MATCHES
from .names import TABLES
from .scan import scan_run


def load_run(out: str | Path, *, allow_partial: bool = False, batched: bool = False,
             rows_per_batch: int = ROWS_PER_BATCH) -> tuple[dict, pl.LazyFrame | Batches]:
    """(manifest, lazy frame of every (deal, seat) row) of a run folder; :class:`~reversis_sim.record.RunError`
    with a clear sentence if it is not a complete, readable run.

    With ``batched=True`` the rows come as :class:`.batches.Batches` of about ``rows_per_batch`` rows (whole part
    files), which every analysis function accepts: its memory then stays the same whatever the run's size."""
    manifest = read_manifest(out)
    paths = part_files(out, manifest, allow_partial=allow_partial)
    if batched:
        per_part = manifest["chunk_matches"] * manifest["match_deals"] * len(manifest["seats"])  # at most
        return manifest, Batches.from_parts(paths, per_part, rows_per_batch)
    return manifest, pl.scan_parquet([str(p) for p in paths])


def load_payments(out: str | Path, *, allow_partial: bool = False, batched: bool = False,
                  rows_per_batch: int = ROWS_PER_BATCH) -> pl.LazyFrame | Batches:
    """The payments table of a run folder (one row per non-zero (deal, seat, reason, direction), verified like the
    seat rows): a lazy frame, or with ``batched=True`` :class:`.batches.Batches` whose batch ``i`` holds the
    matches of batch ``i`` of :func:`load_run` with the same ``rows_per_batch``."""
    manifest = read_manifest(out)
    paths = [payments_path(p.parent, int(p.stem.split("-")[1]))
             for p in part_files(out, manifest, allow_partial=allow_partial)]
    if batched:
        per_part = manifest["chunk_matches"] * manifest["match_deals"] * len(manifest["seats"])
        return Batches.from_parts(paths, per_part, rows_per_batch)
    return pl.scan_parquet([str(p) for p in paths])


ESTIMATORS = ("pool_path", "plain")
"""How the means of fish are estimated: through the pool's expected size where the run allows it (:mod:`.pool_path`,
the default), or as plain means of what the run saw."""


def _estimator(estimator: str) -> str:
    if estimator not in ESTIMATORS:
        raise ValueError(f"unknown estimator {estimator!r}; valid estimators: {', '.join(ESTIMATORS)}")
    return estimator


def summarize_run(out: str | Path, estimator: str = "pool_path") -> dict:
    """The short summary of a run: fish per deal by seat (± 95% CI), the Quinola's fate, reversis and
    espagnolette counts. One pass over the part files (:func:`.scan.scan_run`): the same memory for any number of
    deals. With ``estimator="pool_path"`` the seats' means go through the pool's expected size where the run allows
    it (:mod:`.pool_path`): the summary's ``estimator`` says which was used, and ``estimator_note`` why not."""
    path = _estimator(estimator) == "pool_path"
    scan = scan_run(out, quinola=True, reversis=True, pool_path=path)
    manifest, policies = scan.manifest, scan.manifest["seats"]
    seats = scan.fish_by("seat", estimator=estimator)
    zero_sum = scan.fish_by("seat", "fish_zero_sum", estimator=estimator)
    fates = scan.quinola_risk()["fate"]
    counts = scan.summary_counts()
    pool_left = counts.pop("pool_left_per_match")
    if path:
        status = scan.path_status()
        counts.update(estimator="plain" if status else "pool_path", estimator_note=status)
        seats, zero_sum = seats.drop("estimator"), zero_sum.drop("estimator")
        if not status:  # what the seats lose to the pool, by the same estimator (zero-sum: it is all the pool keeps)
            pool_left = -float(seats["mean"].sum()) * counts["n_deals"] / manifest["n_matches"]
    return summary_of(out, manifest, policies, seats, zero_sum,
                    {r["quinola_fate"]: r["rate"] for r in fates.to_dicts()}, counts.pop("n_deals"),
                    pool_left, counts)


def summary_of(out, manifest, policies, seats, zero_sum, fates, n_deals, pool_left, counts) -> dict:
    """The summary's dict from its parts, however they were computed (the scan here; the polars queries of the
    tests' oracle): the seats' fish tables raw and with the pool share, the fates' shares, the counts."""
    return {
        "rules": manifest["rules"], "rules_label": label(manifest["rules"], manifest["rules_params"]),
        "rules_params": manifest["rules_params"],
        "seed": manifest["seed"], "out": str(out),
        "n_deals": n_deals, "n_matches": manifest["n_matches"],
        "seats": [{**row, "policy": policies[row["seat"]], "zero_sum_mean": z["mean"], "zero_sum_ci_low": z["ci_low"],
                   "zero_sum_ci_high": z["ci_high"], "zero_sum_n_needed": z["n_needed"]}
                  for row, z in zip(seats.to_dicts(), zero_sum.to_dicts())],
        "pool_left_per_match": pool_left,
        "quinola_fate": fates,
        **counts,
    }


def analysis_tables(out: str | Path, estimator: str = "pool_path") -> dict[str, pl.DataFrame]:
    """Every table of ``reversis-sim analyze``, by name (:data:`.names.TABLES`): one pass over the part files
    (:func:`.scan.scan_run`), in flat memory. (The polars queries of :mod:`.headline` and :mod:`.payments` compute
    the same tables from frames with ``estimator="plain"``: the documented examples of docs/schema.md, and the
    tests' independent oracle.) With ``estimator="pool_path"`` the means of fish go through the pool's expected size
    where the run allows it (:mod:`.pool_path`), each such table with an ``estimator`` column."""
    e = _estimator(estimator)
    scan = scan_run(out, reasons_by="policy", pool_path=e == "pool_path")
    q = scan.quinola_risk(e)
    tables = {
        "fish_by_seat": scan.fish_by("seat", estimator=e),
        "fish_by_seat_zero_sum": scan.fish_by("seat", "fish_zero_sum", estimator=e),
        "fish_by_position": scan.fish_by("position", estimator=e),
        "fish_by_policy": scan.fish_by("policy", estimator=e),
        "fish_by_reason": scan.fish_by_reason(e),
        "quinola_fate": q["fate"],
        "quinola_fate_by_hearts": q["fate_by_hearts"],
        "quinola_fate_by_position": q["fate_by_position"],
        "quinola_cost": q["cost"],
        "quinola_others_pay": q["others_pay"],
        "reversis_rates": scan.reversis_rates("policy"),
    }
    assert tuple(tables) == TABLES
    return tables


FIGURE_TABLES = ("fish_by_seat", "fish_by_position", "fish_by_policy", "fish_distribution", "convergence",
                 "quinola_fate_by_hearts", "quinola_cost", "reversis_rates")
"""The tables a run's figures draw, in order (:func:`figure_tables`)."""


def band_where_printed(curve: pl.DataFrame, kind: str) -> pl.DataFrame:
    """A convergence curve whose interval is null where fewer matches are in than a reliable interval of ``kind``
    needs (:data:`.intervals.MIN_MATCHES`): a figure draws no band the text would refuse."""
    enough = pl.col("n_matches") >= MIN_MATCHES[kind]
    return curve.with_columns(pl.when(enough).then(pl.col(c)).otherwise(None).alias(c) for c in ("ci_low", "ci_high"))


def figure_tables(out: str | Path, estimator: str = "pool_path"
                  ) -> tuple[dict, dict[str, Callable[[], pl.DataFrame]]]:
    """(manifest, {name: thunk}) of the tables a run's figures draw (:data:`FIGURE_TABLES`), each computed only
    when its thunk is called, in flat memory whatever the run's size: the fish, Quinola and reversis tables from
    one pass over the part files (:func:`.scan.scan_run`, made at the first of them), the distribution and the
    convergence from batches of part files; the means of fish by ``estimator`` (:func:`analysis_tables`), so that a
    figure draws the band the text prints. :class:`~reversis_sim.record.RunError` when ``out`` is not a complete
    run folder."""
    e = _estimator(estimator)
    manifest, lf = load_run(out, batched=True)
    lf = lf.with_columns(pl.col("policy").cast(pl.String), pl.col("quinola_fate").cast(pl.String))
    cache: dict = {}

    def scan():
        if "scan" not in cache:
            cache["scan"] = scan_run(out, pool_path=e == "pool_path")
        return cache["scan"]

    def q() -> dict:
        if "quinola" not in cache:
            cache["quinola"] = scan().quinola_risk(e)
        return cache["quinola"]

    def fish(by):
        return lambda: scan().fish_by(by, estimator=e)

    tables = {
        "fish_by_seat": fish(["seat", "policy"]),
        "fish_by_position": fish("position"),
        "fish_by_policy": fish("policy"),
        "fish_distribution": lambda: fish_distribution(lf, "policy"),
        "convergence": lambda: band_where_printed(convergence(lf, ["seat", "policy"]), "seat"),
        "quinola_fate_by_hearts": lambda: quinola_fates(q()),
        "quinola_cost": lambda: q()["cost"],
        "reversis_rates": lambda: scan().reversis_rates("policy"),
    }
    assert tuple(tables) == FIGURE_TABLES
    return manifest, tables
