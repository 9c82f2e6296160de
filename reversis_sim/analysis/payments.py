"""Where the fish go: a run's payments table (one row per non-zero (deal, seat, reason, direction), schema version
2) summed by reason, per deal, with the match as the sampling unit.

A seat's payment amounts add up to its ``fish``, so the rows of :func:`fish_by_reason` for one policy add up to its
expected fish per deal (:func:`.headline.fish_by`), reason by reason: antes paid, side payments for Aces and the
Quinola, pools won and doubled, the party, the reversis, the espagnolette. The payments table is sparse: a match in
which a policy neither paid nor received with a reason counts as a zero for it, not as a missing unit.
"""

from __future__ import annotations

import polars as pl

from .batches import Batches, frames_of
from .tables import UnitMoments


def fish_by_reason(seats: pl.DataFrame | pl.LazyFrame | Batches, payments: pl.DataFrame | pl.LazyFrame | Batches,
                   by: str = "policy", direction: bool = False) -> pl.DataFrame:
    """Expected chips per deal by ``by`` (``policy`` or ``seat``) and payment reason: received (+) minus paid (-),
    with a 95% interval over matches; with ``direction=True``, received and paid apart (a ``direction`` column).

    ``seats`` and ``payments`` are the run's two tables (:func:`.run.load_run`, :func:`.run.load_payments`), as
    frames or as :class:`.batches.Batches` of the same part files (batch ``i`` of one holds the matches of batch
    ``i`` of the other). Returns the group key, ``reason`` (and ``direction``), ``mean``, ``se``, ``ci_low``,
    ``ci_high``, ``n_units`` (matches), ``n_deals`` (the group's seat-deals)."""
    seat_frames, pay_frames = frames_of(seats), frames_of(payments)
    if len(seat_frames) != len(pay_frames):
        raise ValueError(f"{len(seat_frames)} batches of seat rows against {len(pay_frames)} of payments: give both "
                         f"tables of the same run, batched alike")
    keys = [by, "reason", "direction"] if direction else [by, "reason"]

    def readable(f: pl.LazyFrame) -> pl.LazyFrame:
        f = f.with_columns(pl.col("reason").cast(pl.String), *([pl.col("policy").cast(pl.String)] if by == "policy"
                                                               else []))
        return f.with_columns(pl.when(pl.col("amount") > 0).then(pl.lit("received")).otherwise(pl.lit("paid"))
                              .alias("direction")) if direction else f

    # pass 1: the (reason, direction) groups the run has at all; pass 2: per batch, the moments of every (key,
    # group) over all the key's matches, a match without a row of the group counting as a zero total. Over units
    # of size n_g with totals T_g about a shift s, the silent units add s**2 n**2 to sum(u**2) and -s n**2 to
    # sum(u n): the sums need the rows that exist and each key's sum of n**2, never a (key, match, group) grid.
    groups = pl.concat([readable(f).select(keys[1:]).unique().collect() for f in pay_frames]).unique()
    if groups.height == 0:
        return pl.DataFrame(schema={k: pl.String for k in keys})
    moments = UnitMoments(keys)
    for seat_f, pay_f in zip(seat_frames, pay_frames):
        sizes = (seat_f.with_columns(pl.col(by).cast(pl.String) if by == "policy" else pl.col(by))
                 .group_by([by, "match"]).agg(pl.len().cast(pl.Float64).alias("size")).collect())
        per_key = sizes.group_by(by).agg(pl.len().alias("n_units"), pl.col("size").sum().alias("n_obs"),
                                         (pl.col("size") ** 2).sum().alias("sum_nn"))
        totals = (readable(pay_f).group_by([*keys, "match"])
                  .agg(pl.col("amount").cast(pl.Float64).sum().alias("total")).collect()
                  .join(sizes, on=[by, "match"]))
        sums = totals.group_by(keys).agg(pl.col("total").sum().alias("sum_t"))
        grid = (per_key.join(groups, how="cross").join(sums, on=keys, how="left")
                .with_columns(pl.col("sum_t").fill_null(0.0))
                .with_columns((pl.col("sum_t") / pl.col("n_obs")).alias("shift")))
        u = pl.col("total") - pl.col("shift") * pl.col("size")
        seen = (totals.join(grid.select(*keys, "shift"), on=keys).group_by(keys)
                .agg((u * u).sum().alias("uu"), (u * pl.col("size")).sum().alias("un"),
                     (pl.col("size") ** 2).sum().alias("nn")))
        silent_nn = pl.col("sum_nn") - pl.col("nn").fill_null(0.0)
        moments.add_moments(grid.join(seen, on=keys, how="left").select(
            *keys, "n_units", "n_obs", "sum_t", "shift", "sum_nn",
            (pl.col("uu").fill_null(0.0) + pl.col("shift") ** 2 * silent_nn).alias("sum_uu"),
            (pl.col("un").fill_null(0.0) - pl.col("shift") * silent_nn).alias("sum_un")))
    return moments.table().sort(keys)
