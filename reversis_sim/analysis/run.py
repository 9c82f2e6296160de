"""Opening a run folder for analysis, and the summary printed after a run."""

from __future__ import annotations

from pathlib import Path

import polars as pl

from ..record import part_files, read_manifest
from .headline import fish_by, quinola_risk, reversis_rates, with_pool_share


def load_run(out: str | Path, *, allow_partial: bool = False) -> tuple[dict, pl.LazyFrame]:
    """(manifest, lazy frame of every (deal, seat) row) of a run folder; :class:`~reversis_sim.record.RunError`
    with a clear sentence if it is not a complete, readable run."""
    manifest = read_manifest(out)
    paths = part_files(out, manifest, allow_partial=allow_partial)
    return manifest, pl.scan_parquet([str(p) for p in paths])


def summarize_run(out: str | Path) -> dict:
    """The short summary of a run: fish per deal by seat (± 95% CI), the Quinola's fate, reversis and
    espagnolette counts."""
    manifest, lf = load_run(out)
    policies = manifest["seats"]
    seats = fish_by(lf, "seat")
    zero_sum = fish_by(with_pool_share(lf, len(policies)), "seat", "fish_zero_sum")
    fate = quinola_risk(lf)["fate"]
    counts = (lf.select(
        (pl.col("reversis_seat") == pl.col("seat")).sum().alias("reversis_committed"),
        ((pl.col("reversis_seat") == pl.col("seat")) & pl.col("reversis_made")).sum().alias("reversis_made"),
        (pl.col("espagnolette_seat") == pl.col("seat")).sum().alias("espagnolette_declared"),
        ((pl.col("espagnolette_seat") == pl.col("seat")) & pl.col("espagnolette_made")).sum()
        .alias("espagnolette_made"),
        pl.len().alias("rows"),
    ).collect().row(0, named=True))
    n_seats = len(policies)
    return {
        "rules": manifest["rules"], "seed": manifest["seed"], "out": str(out),
        "n_deals": counts.pop("rows") // n_seats, "n_matches": manifest["n_matches"],
        "seats": [{**row, "policy": policies[row["seat"]], "zero_sum_mean": z["mean"], "zero_sum_ci_low": z["ci_low"],
                   "zero_sum_ci_high": z["ci_high"]} for row, z in zip(seats.to_dicts(), zero_sum.to_dicts())],
        "pool_left_per_match": lf.filter(pl.col("seat") == 0).group_by("match")  # the last deal of each match
        .agg(pl.col("pool_after").sort_by("deal").last()).select(pl.col("pool_after").cast(pl.Float64).mean())
        .collect().item(),
        "quinola_fate": {r["quinola_fate"]: r["rate"] for r in fate.to_dicts()},
        **counts,
    }


def analysis_tables(out: str | Path) -> dict[str, pl.DataFrame]:
    """Every table of ``reversis-sim analyze``, by name."""
    manifest, lf = load_run(out)
    lf = lf.with_columns(pl.col("policy").cast(pl.String))
    q = quinola_risk(lf)
    return {
        "fish_by_seat": fish_by(lf, "seat"),
        "fish_by_seat_zero_sum": fish_by(with_pool_share(lf, len(manifest["seats"])), "seat", "fish_zero_sum"),
        "fish_by_position": fish_by(lf, "position"),
        "fish_by_policy": fish_by(lf, "policy"),
        "quinola_fate": q["fate"],
        "quinola_fate_by_hearts": q["fate_by_hearts"],
        "quinola_fate_by_position": q["fate_by_position"],
        "quinola_cost": q["cost"],
        "quinola_others_pay": q["others_pay"],
        "reversis_rates": reversis_rates(lf, "policy"),
    }
