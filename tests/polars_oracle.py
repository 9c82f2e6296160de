"""The analysis computed a second way, by the lazy polars queries of ``reversis_sim.analysis.headline`` and
``.payments`` over batches of part files (the documented examples of docs/schema.md): the tests' independent oracle
of the one-pass scan, which is the toolkit's only path."""

import polars as pl

from reversis_sim.analysis import (
    fish_by,
    fish_by_reason,
    load_payments,
    load_run,
    quinola_risk,
    reversis_rates,
    with_pool_share,
)
from reversis_sim.analysis.batches import collect_additive
from reversis_sim.analysis.figures_data import quinola_fates
from reversis_sim.analysis.run import summary_of


def summarize_run_polars(out) -> dict:
    """``summarize_run`` computed by the lazy polars queries of ``analysis.headline`` over batches of part files."""
    manifest, lf = load_run(out, batched=True)
    policies = manifest["seats"]
    seats = fish_by(lf, "seat")
    zero_sum = fish_by(with_pool_share(lf, len(policies)), "seat", "fish_zero_sum")
    fates = collect_additive(lf.filter(pl.col("seat") == 0).with_columns(pl.col("quinola_fate").cast(pl.String)),
                             ["quinola_fate"], pl.len().cast(pl.Int64).alias("k"))
    counts = collect_additive(
        lf, [],
        (pl.col("reversis_seat") == pl.col("seat")).cast(pl.Int64).sum().alias("reversis_committed"),
        ((pl.col("reversis_seat") == pl.col("seat")) & pl.col("reversis_made")).cast(pl.Int64).sum()
        .alias("reversis_made"),
        (pl.col("espagnolette_seat") == pl.col("seat")).cast(pl.Int64).sum().alias("espagnolette_declared"),
        ((pl.col("espagnolette_seat") == pl.col("seat")) & pl.col("espagnolette_made")).cast(pl.Int64).sum()
        .alias("espagnolette_made"),
        pl.len().cast(pl.Int64).alias("rows"),
    ).row(0, named=True)
    pool = collect_additive(lf.filter(pl.col("seat") == 0).map(  # the pool after the last deal of each match
        lambda f: f.group_by("match").agg(pl.col("pool_after").sort_by("deal").last().cast(pl.Float64))), [],
        pl.col("pool_after").sum().alias("total"), pl.len().cast(pl.Int64).alias("matches")).row(0, named=True)
    n_deals = counts.pop("rows") // len(policies)
    return summary_of(out, manifest, policies, seats, zero_sum,
                    {r["quinola_fate"]: r["k"] / fates["k"].sum() for r in fates.to_dicts()}, n_deals,
                    pool["total"] / pool["matches"], counts)


def analysis_tables_polars(out) -> dict[str, pl.DataFrame]:
    """``analysis_tables`` computed by the lazy polars queries over batches of part files."""
    manifest, lf = load_run(out, batched=True)
    lf = lf.with_columns(pl.col("policy").cast(pl.String))
    q = quinola_risk(lf)
    return {
        "fish_by_seat": fish_by(lf, "seat"),
        "fish_by_seat_zero_sum": fish_by(with_pool_share(lf, len(manifest["seats"])), "seat", "fish_zero_sum"),
        "fish_by_position": fish_by(lf, "position"),
        "fish_by_policy": fish_by(lf, "policy"),
        "fish_by_reason": fish_by_reason(lf, load_payments(out, batched=True), "policy"),
        "quinola_fate": q["fate"],
        "quinola_fate_by_hearts": q["fate_by_hearts"],
        "quinola_fate_by_position": q["fate_by_position"],
        "quinola_cost": q["cost"],
        "quinola_others_pay": q["others_pay"],
        "reversis_rates": reversis_rates(lf, "policy"),
    }


def figure_tables_polars(out) -> dict:
    """The fish, Quinola and reversis tables of ``figure_tables`` by the polars queries."""
    _, lf = load_run(out, batched=True)
    lf = lf.with_columns(pl.col("policy").cast(pl.String), pl.col("quinola_fate").cast(pl.String))
    q = quinola_risk(lf)
    return {"fish_by_seat": fish_by(lf, ["seat", "policy"]), "fish_by_position": fish_by(lf, "position"),
            "fish_by_policy": fish_by(lf, "policy"), "quinola_fate_by_hearts": quinola_fates(q),
            "quinola_cost": q["cost"], "reversis_rates": reversis_rates(lf, "policy")}
