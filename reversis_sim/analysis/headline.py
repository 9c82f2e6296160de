"""The three headline questions, polars frames in and frames out.

Input: the run table (one row per deal and seat, :data:`reversis_sim.record.SCHEMA`), as a polars DataFrame or
LazyFrame (a lazy scan of a run reads only the columns a question needs), or as :class:`.batches.Batches` of part
files (the same answers, added up batch by batch in constant memory). Pandas users call ``.to_pandas()`` on any
result.

Sampling unit. Deals of one match are dependent (the pool carries over, and the dealer rotates), so means of fish
use the **match** as the unit (:func:`.compare.mean_table`: a cluster-robust interval on per-match totals, t with
matches - 1 degrees of freedom). Rates of events (reversis, espagnolette, the Quinola's fate) use Clopper-Pearson
intervals on event counts (:func:`.compare.rate_table`): these events are decided by one deal's cards and play.
"""

from __future__ import annotations

import polars as pl

from .batches import Batches, collect_additive, frames_of, lazy
from .tables import UnitMoments, mean_table, rate_table

Frame = pl.DataFrame | pl.LazyFrame | Batches

def fish_by(frame: Frame, by: str | list[str] = "seat", value: str = "fish") -> pl.DataFrame:
    """Expected fish per deal for each group (``seat``, ``position`` relative to the dealer, ``policy``...), with a
    95% confidence interval treating the match as the sampling unit.

    Returns columns: the group keys, ``mean``, ``se``, ``ci_low``, ``ci_high``, ``n_units`` (matches),
    ``n_deals`` (rows of the group).
    """
    return mean_table(lazy(frame), by, value, unit="match")


def with_pool_share(frame: Frame, n_seats: int) -> pl.LazyFrame | Batches:
    """Add ``fish_zero_sum``: a seat's fish plus an equal share of what the deal put into (or took out of) the
    pool. Over a match these shares add up to the pool left at its end, split equally (A34), so the seats' sums
    are zero-sum; comparisons between seats or policies are unchanged, while ``fish`` alone counts the chips
    stranded in the pool as lost."""
    return lazy(frame).with_columns(
        (pl.col("fish") + (pl.col("pool_after") - pl.col("pool_before")) / n_seats).alias("fish_zero_sum"))


def quinola_risk(frame: Frame) -> dict[str, pl.DataFrame]:
    """The Quinola's danger for its holder.

    Returns frames:
      ``fate``: share of deals by the J♥'s fate (dumped, forced, led, or left in the talon), Clopper-Pearson 95% CI;
      ``fate_by_hearts``: the holder's fate by the number of hearts he held at the first lead;
      ``fate_by_position``: the holder's fate by his position relative to the dealer (1 = eldest, 0 = dealer);
      ``cost``: expected ``quinola_net`` of the holder per deal (what the J♥ moved to or from him: its side
      payments, a pool won, a doubling paid, the ``modern`` capture surcharge), overall and by fate (match unit);
      ``holder_fish``: the holder's total fish per deal;
      ``others_pay``: how often each seat loses chips to someone else's Quinola (its ``quinola_net`` is negative
      while another seat holds the J♥: forced 5s, the dump paid as the trick winner, a capture surcharge), and
      the mean it loses per deal (``mean_paid``, over every deal in which another seat holds the J♥).
    """
    lf = lazy(frame).with_columns(pl.col("quinola_fate").cast(pl.String))
    holding = pl.col("seat") == pl.col("quinola_holder")

    # pass 1: the fate per deal (seat 0's row) and per holder by heart length and position
    keys = ["quinola_fate", "__deal", "__holder", "hearts_at_lead", "position"]
    counts = collect_additive(lf.with_columns((pl.col("seat") == 0).alias("__deal"), holding.alias("__holder"))
                     .filter(pl.col("__deal") | pl.col("__holder")), keys, pl.len().cast(pl.Int64).alias("k"))
    deals = counts.filter(pl.col("__deal")).group_by("quinola_fate").agg(pl.col("k").sum())
    holders = counts.filter(pl.col("__holder")).select("hearts_at_lead", "position", "quinola_fate", "k")

    # pass 2: what the J♥ moves to or from its holder, per match and fate (the match is the unit)
    by_fate, overall, holder_fish = UnitMoments(["quinola_fate"]), UnitMoments(["quinola_fate"]), UnitMoments(["who"])
    for f in frames_of(lf.filter(holding)):
        per = (f.group_by(["quinola_fate", "match"])
               .agg(pl.col("quinola_net").cast(pl.Float64).sum().alias("net"),
                    pl.col("fish").cast(pl.Float64).sum().alias("fish"), pl.len().alias("size")).collect())
        by_fate.add(per.select("quinola_fate", pl.col("net").alias("total"), "size"))
        per_match = per.group_by("match").agg(pl.col("net", "fish", "size").sum())
        overall.add(per_match.select(pl.lit("all").alias("quinola_fate"), pl.col("net").alias("total"), "size"))
        holder_fish.add(per_match.select(pl.lit("holder").alias("who"), pl.col("fish").alias("total"), "size"))

    # pass 3: the other seats' payments for the holder's J♥
    others = UnitMoments(["seat"])
    pays = []
    paid = (-pl.col("quinola_net")).clip(lower_bound=0)
    for f in frames_of(lf.filter((pl.col("quinola_holder") >= 0) & ~holding)):
        per = (f.group_by(["seat", "match"])
               .agg(paid.cast(pl.Float64).sum().alias("total"), (paid > 0).cast(pl.Int64).sum().alias("pays"),
                    pl.len().alias("size")).collect())
        others.add(per.select("seat", "total", "size"))
        pays.append(per.group_by("seat").agg(pl.col("pays").sum(), pl.col("size").sum()))
    return quinola_tables(deals, holders, by_fate, overall, holder_fish, others, pl.concat(pays))


def quinola_tables(deals: pl.DataFrame, holders: pl.DataFrame, by_fate: UnitMoments, overall: UnitMoments,
                   holder_fish: UnitMoments, others: UnitMoments, pays: pl.DataFrame) -> dict[str, pl.DataFrame]:
    """The frames of :func:`quinola_risk` from its sums, however they were added up (polars here, numpy in
    :mod:`.scan`): ``deals`` (``quinola_fate``, ``k`` deals), ``holders`` (``hearts_at_lead``, ``position``,
    ``quinola_fate``, ``k`` holder rows), the match-unit moments of the holder's ``quinola_net`` by fate and
    overall, of the holder's fish and of what the other seats pay, and ``pays`` (``seat``, ``pays``, ``size``)."""
    fate_share = deals.with_columns(pl.col("k").sum().alias("n"))

    def fate_by(key: str) -> pl.DataFrame:
        by_fate = holders.group_by([key, "quinola_fate"]).agg(pl.col("k").sum())
        totals = by_fate.group_by(key).agg(pl.col("k").sum().alias("n"))
        return rate_table(by_fate.join(totals, on=key), [key, "quinola_fate"], "k", "n")

    cost = pl.concat([overall.table(), by_fate.table()]).rename({"quinola_fate": "fate"})
    others_pay = rate_table(pays, "seat", "pays", "size")
    return {
        "fate": rate_table(fate_share, "quinola_fate", "k", "n"),
        "fate_by_hearts": fate_by("hearts_at_lead"),
        "fate_by_position": fate_by("position"),
        "cost": cost,
        "holder_fish": holder_fish.table(),
        "others_pay": others_pay.join(others.table().select("seat", pl.col("mean").alias("mean_paid")), on="seat"),
    }


def reversis_rates(frame: Frame, by: str = "policy") -> pl.DataFrame:
    """Reversis and espagnolette rates by group, with Clopper-Pearson 95% intervals.

    Rows per group and ``event``: ``reversis_committed`` (per deal and seat), ``reversis_made`` and
    ``reversis_broken`` (per commitment), ``espagnolette_eligible`` (per deal and seat), ``espagnolette_declared``
    (per eligible hand), ``espagnolette_made`` (per declaration).
    """
    flagged = lazy(frame).with_columns(
        (pl.col("reversis_seat") == pl.col("seat")).alias("committed"),
        (pl.col("espagnolette_eligible") == pl.col("seat")).alias("eligible"),
        (pl.col("espagnolette_seat") == pl.col("seat")).alias("declared"),
    )
    counts = collect_additive(
        flagged, [by],
        pl.len().cast(pl.Int64).alias("rows"),
        pl.col("committed").cast(pl.Int64).sum().alias("committed"),
        (pl.col("committed") & pl.col("reversis_made")).cast(pl.Int64).sum().alias("made"),
        pl.col("eligible").cast(pl.Int64).sum().alias("eligible"),
        pl.col("declared").cast(pl.Int64).sum().alias("declared"),
        (pl.col("declared") & pl.col("espagnolette_made")).cast(pl.Int64).sum().alias("esp_made"),
    )
    return reversis_table(counts, by)


REVERSIS_COUNTS = ("rows", "committed", "made", "eligible", "declared", "esp_made")
"""The counts :func:`reversis_table` needs per group."""


def reversis_table(counts: pl.DataFrame, by: str) -> pl.DataFrame:
    """The rows of :func:`reversis_rates` from the counts per group (``by`` and :data:`REVERSIS_COUNTS`: rows,
    commitments, made reversis, eligible hands, declarations, made espagnolettes), however they were added up."""
    events = [
        ("reversis_committed", pl.col("committed"), "rows"),
        ("reversis_made", pl.col("made"), "committed"),
        ("reversis_broken", pl.col("committed") - pl.col("made"), "committed"),
        ("espagnolette_eligible", pl.col("eligible"), "rows"),
        ("espagnolette_declared", pl.col("declared"), "eligible"),
        ("espagnolette_made", pl.col("esp_made"), "declared"),
    ]
    long = pl.concat([counts.select(pl.col(by), pl.lit(event).alias("event"), k.alias("k"), pl.col(n).alias("n"))
                      for event, k, n in events])
    return rate_table(long, [by, "event"], "k", "n")
