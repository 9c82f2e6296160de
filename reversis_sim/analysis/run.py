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


def summarize_run(out: str | Path) -> dict:
    """The short summary of a run: fish per deal by seat (± 95% CI), the Quinola's fate, reversis and
    espagnolette counts. One pass over the part files (:func:`.scan.scan_run`): the same memory for any number of
    deals."""
    scan = scan_run(out, quinola=True, reversis=True)
    manifest, policies = scan.manifest, scan.manifest["seats"]
    seats, zero_sum = scan.fish_by("seat"), scan.fish_by("seat", "fish_zero_sum")
    fates = scan.quinola_risk()["fate"]
    counts = scan.summary_counts()
    return summary_of(out, manifest, policies, seats, zero_sum,
                    {r["quinola_fate"]: r["rate"] for r in fates.to_dicts()}, counts.pop("n_deals"),
                    counts.pop("pool_left_per_match"), counts)


def summary_of(out, manifest, policies, seats, zero_sum, fates, n_deals, pool_left, counts) -> dict:
    """The summary's dict from its parts, however they were computed (the scan here; the polars queries of the
    tests' oracle): the seats' fish tables raw and with the pool share, the fates' shares, the counts."""
    return {
        "rules": manifest["rules"], "rules_label": label(manifest["rules"], manifest["rules_params"]),
        "rules_params": manifest["rules_params"],
        "seed": manifest["seed"], "out": str(out),
        "n_deals": n_deals, "n_matches": manifest["n_matches"],
        "seats": [{**row, "policy": policies[row["seat"]], "zero_sum_mean": z["mean"], "zero_sum_ci_low": z["ci_low"],
                   "zero_sum_ci_high": z["ci_high"]} for row, z in zip(seats.to_dicts(), zero_sum.to_dicts())],
        "pool_left_per_match": pool_left,
        "quinola_fate": fates,
        **counts,
    }


def analysis_tables(out: str | Path) -> dict[str, pl.DataFrame]:
    """Every table of ``reversis-sim analyze``, by name (:data:`.names.TABLES`): one pass over the part files
    (:func:`.scan.scan_run`), in flat memory. (The polars queries of :mod:`.headline` and :mod:`.payments` compute
    the same tables from frames: the documented examples of docs/schema.md, and the tests' independent oracle.)"""
    scan = scan_run(out, reasons_by="policy")
    q = scan.quinola_risk()
    tables = {
        "fish_by_seat": scan.fish_by("seat"),
        "fish_by_seat_zero_sum": scan.fish_by("seat", "fish_zero_sum"),
        "fish_by_position": scan.fish_by("position"),
        "fish_by_policy": scan.fish_by("policy"),
        "fish_by_reason": scan.fish_by_reason(),
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


def figure_tables(out: str | Path) -> tuple[dict, dict[str, Callable[[], pl.DataFrame]]]:
    """(manifest, {name: thunk}) of the tables a run's figures draw (:data:`FIGURE_TABLES`), each computed only
    when its thunk is called, in flat memory whatever the run's size: the fish, Quinola and reversis tables from
    one pass over the part files (:func:`.scan.scan_run`, made at the first of them), the distribution and the
    convergence from batches of part files. :class:`~reversis_sim.record.RunError` when ``out`` is not a complete
    run folder."""
    manifest, lf = load_run(out, batched=True)
    lf = lf.with_columns(pl.col("policy").cast(pl.String), pl.col("quinola_fate").cast(pl.String))
    cache: dict = {}

    def scan():
        if "scan" not in cache:
            cache["scan"] = scan_run(out)
        return cache["scan"]

    def q() -> dict:
        if "quinola" not in cache:
            cache["quinola"] = scan().quinola_risk()
        return cache["quinola"]

    def fish(by):
        return lambda: scan().fish_by(by)

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
