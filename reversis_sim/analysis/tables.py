"""Summary tables with honest intervals, frames in, frames out: polars wrappers around :mod:`.stats`.

Inputs are per-deal frames (one row per deal, or per deal and seat); the wrappers aggregate to the sampling unit
(the match: the pool and the dealer carry over from deal to deal) with polars and hand small per-unit arrays to the
numeric functions. Outputs are small summary frames, sorted by their group columns, ready for printing, JSON, or
:mod:`reversis_sim.plot`.

A frame holds only intervals the toolkit stands behind: where a group has fewer matches than a reliable interval of
its kind needs (:mod:`.intervals`), its ``ci_low`` and ``ci_high`` are NaN and ``n_needed`` says how many matches
it needs (0 where the interval is printed).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import polars as pl

from . import stats
from .batches import Batches, collect_additive, frames_of
from .frames import Columns, column_list, require_columns
from .intervals import KINDS
from .multiple import holm, holm_reject

__all__ = ["UnitMoments", "holm_table", "kind_of", "mean_table", "paired_summary", "rate_table"]

_UNIT_ID = "__unit_id"


def _groups(frame: pl.DataFrame, by: list[str]):
    """(key dict, sub-frame) per group, in sorted key order; one group holding everything when ``by`` is empty."""
    if not by:
        yield {}, frame
        return
    for part in frame.sort(by).partition_by(by, maintain_order=True):
        yield {c: part[c][0] for c in by}, part


def _with_unit(frame: pl.LazyFrame, unit: Columns | None) -> tuple[pl.LazyFrame, list[str]]:
    """The frame with a unit column (each row its own unit when ``unit`` is None) and the unit key columns."""
    if unit is None:
        return frame.with_row_index(_UNIT_ID), [_UNIT_ID]
    units = column_list(unit)
    require_columns(frame, units, "unit")
    return frame, units


def _result_frame(rows: list[dict], by: list[str], frame: pl.DataFrame | pl.LazyFrame | Batches) -> pl.DataFrame:
    """Rows to a frame, keeping the dtypes of the group columns (of any input: each kind has ``collect_schema``)."""
    out = pl.DataFrame(rows)
    if by and out.height:
        schema = frame.collect_schema()
        out = out.with_columns([pl.col(c).cast(schema[c]) for c in by])
    return out


def kind_of(value: str, by: Sequence[str] = ()) -> str:
    """The kind of interval (:data:`.intervals.MIN_MATCHES`) of a mean of the column ``value`` by ``by``: the
    zero-sum view (``fish_zero_sum``) is ``pool_share``, a seat's or a position's fish ``seat``, anything else
    (a policy's fish over its seats, a payment reason, the Quinola's cost...) ``pool``, the strictest."""
    if value == "fish_zero_sum":
        return "pool_share"
    if value == "fish" and list(by)[:1] in (["seat"], ["position"]):
        return "seat"
    return "pool"


def _check_kind(kind: str) -> str:
    if kind not in KINDS:
        raise ValueError(f"unknown kind of interval {kind!r}; valid kinds: {', '.join(KINDS)}")
    return kind


def paired_summary(frame: pl.DataFrame, unit: Columns = "match", value_a: str = "fish_a", value_b: str = "fish_b",
                   by: Columns | None = None, level: float = 0.95) -> pl.DataFrame:
    """Paired (duplicate-deal) comparison of two arms played on the same deals.

    Parameters
    ----------
    frame : pl.DataFrame
        One row per deal with the unit column(s), the fish of the candidate (``value_a``) and of the baseline
        (``value_b``) on that same deal.
    unit : str or sequence of str
        Column(s) identifying the sampling unit (default the match; e.g. ``["run_seed", "match"]``).
    value_a, value_b : str
        Numeric columns of the candidate and the baseline.
    by : str or sequence of str, optional
        Group columns (e.g. ``"seat"``); one output row per group.
    level : float
        Confidence level.

    Returns
    -------
    pl.DataFrame
        One row per group: the ``by`` columns, ``mean_a``, ``mean_b``, ``mean_difference`` (per deal, a minus
        b), ``se``, ``ci_low``, ``ci_high``, ``p_value``, ``effect`` (mean/sd of the per-unit differences),
        ``n_units``, ``n_deals``, ``variance_reduction`` (see :func:`.stats.paired_comparison`), ``n_needed``
        (``ci_low``, ``ci_high`` and ``p_value`` are NaN where it is not 0: too few units for a reliable interval).

    Notes
    -----
    Each unit contributes its mean fish per deal in each arm; the test is the t-test on the per-unit
    differences. With equal-sized units (matches of 12 deals) this is the mean difference per deal.
    """
    by_cols = column_list(by)
    units = column_list(unit)
    require_columns(frame, units + [value_a, value_b] + by_cols, "paired_summary")
    per_unit = (frame.group_by(by_cols + units)
                .agg(pl.col(value_a).cast(pl.Float64).mean().alias("a"),
                     pl.col(value_b).cast(pl.Float64).mean().alias("b"),
                     pl.len().alias("n")))
    rows = []
    for key, part in _groups(per_unit, by_cols):
        res = stats.paired_comparison(a=part["a"].to_numpy(), b=part["b"].to_numpy(), level=level)
        shown = res.reliable
        rows.append({**key, "mean_a": res.mean_a, "mean_b": res.mean_b, "mean_difference": res.mean_difference,
                     "se": res.se, "ci_low": res.ci_low if shown else np.nan,
                     "ci_high": res.ci_high if shown else np.nan, "p_value": res.p_value if shown else np.nan,
                     "effect": res.effect, "n_units": res.n_units, "n_deals": int(part["n"].sum()),
                     "variance_reduction": res.variance_reduction, "n_needed": res.n_needed})
    return _result_frame(rows, by_cols, frame)


def mean_table(frame: pl.DataFrame | pl.LazyFrame, by: Columns | None, value: str, unit: Columns | None = "match",
               level: float = 0.95, kind: str | None = None) -> pl.DataFrame:
    """Mean of ``value`` per row (per deal) in each group, with a cluster-robust t interval.

    Parameters
    ----------
    frame : pl.DataFrame or pl.LazyFrame
        Long frame, one row per deal (or per deal and seat). A lazy frame is aggregated to per-unit totals before
        anything is collected, so only the needed columns of a large run are read.
    by : str or sequence of str, optional
        Group columns, e.g. ``"seat"`` or ``["policy", "seat"]``; None for one overall row.
    value : str
        Numeric column, e.g. ``"fish"``.
    unit : str or sequence of str, optional
        Cluster column(s): the independent sampling unit (default the match). None treats rows as independent.
    level : float
        Confidence level.
    kind : str, optional
        The kind of interval (:data:`.intervals.MIN_MATCHES`); by default :func:`kind_of` ``value`` and ``by``.

    Returns
    -------
    pl.DataFrame
        One row per group: the ``by`` columns, ``mean``, ``se``, ``ci_low``, ``ci_high``, ``n_units``,
        ``n_deals``, ``n_needed``. The standard error is :func:`.stats.ratio_mean_ci` on the per-unit totals; the
        bounds are NaN where ``n_needed`` is not 0 (too few matches for a reliable interval).
    """
    by_cols = column_list(by)
    require_columns(frame, [value] + by_cols, "mean_table")
    kind = _check_kind(kind_of(value, by_cols) if kind is None else kind)
    frames = frames_of(frame)  # a frame is one batch; a run in batches, its batches
    if len(frames) > 1:
        return _mean_table_batches(frames, by_cols, value, unit, level, kind)
    totals = _unit_totals(frames[0], by_cols, value, unit)
    rows = [_mean_row(key, stats.ratio_mean_ci(part["total"].to_numpy(), part["size"].to_numpy(), level, kind))
            for key, part in _groups(totals, by_cols)]
    return _result_frame(rows, by_cols, frame)


def _unit_totals(frame: pl.LazyFrame, by: list[str], value: str, unit: Columns | None) -> pl.DataFrame:
    """Each sampling unit's total of ``value`` and its rows, per group."""
    framed, units = _with_unit(frame, unit)
    return framed.group_by(by + units).agg(pl.col(value).cast(pl.Float64).sum().alias("total"),
                                           pl.len().alias("size")).collect()


def _mean_row(key: dict, r: stats.MeanCI) -> dict:
    """One row of :func:`mean_table`: the bounds only where the interval is reliable."""
    return {**key, "mean": r.mean, "se": r.se, "ci_low": r.ci_low if r.reliable else np.nan,
            "ci_high": r.ci_high if r.reliable else np.nan, "n_units": r.n_units, "n_deals": r.n_obs,
            "n_needed": r.n_needed}


MOMENTS = ("n_units", "n_obs", "sum_t", "sum_uu", "sum_un", "sum_nn")
"""The sums a group's per-match moments are kept in (:class:`UnitMoments`, :mod:`.scan_part`)."""
_ALL = "__all"


class UnitMoments:
    """Per-group sums over the sampling units from which :func:`.stats.ratio_mean_ci_moments` gives the mean per
    row and its cluster-robust interval, fed the per-unit totals one batch at a time (a unit must not straddle two
    batches). The shift of a group is its mean in the first batch it appears in.

    ``add`` takes a frame with the ``by`` columns, ``total`` (the sum of the value over the unit's rows) and
    ``size`` (the unit's rows), one row per group and unit; ``table`` gives the rows of :func:`mean_table`.
    """

    def __init__(self, by: Sequence[str]):
        self.by = list(by)
        self.keys = self.by or [_ALL]
        self.shifts: pl.DataFrame | None = None
        self.moments: pl.DataFrame | None = None
        self.template: pl.DataFrame | None = None  # no rows: the dtypes of the ``by`` columns

    def add(self, totals: pl.DataFrame) -> None:
        totals = self._keyed(totals)
        if totals is None:
            return
        keys = self.keys
        totals = totals.select(*keys, pl.col("total").cast(pl.Float64), pl.col("size").cast(pl.Float64))
        self._keep_shifts(totals.group_by(keys).agg((pl.col("total").sum() / pl.col("size").sum()).alias("shift")))
        u = pl.col("total") - pl.col("shift") * pl.col("size")
        self._merge(totals.join(self.shifts, on=keys).group_by(keys)
                    .agg(pl.len().cast(pl.Int64).alias("n_units"), pl.col("size").sum().alias("n_obs"),
                         pl.col("total").sum().alias("sum_t"), (u * u).sum().alias("sum_uu"),
                         (u * pl.col("size")).sum().alias("sum_un"), (pl.col("size") ** 2).sum().alias("sum_nn")))

    def add_moments(self, moments: pl.DataFrame) -> None:
        """Add one batch's sums instead of its per-unit totals: ``moments`` has the ``by`` columns, the columns of
        :data:`MOMENTS` and ``shift``, the number its ``u`` sums are taken about; they are moved to this
        accumulator's shift (``u' = u + (shift - shift') n``)."""
        moments = self._keyed(moments)
        if moments is None:
            return
        keys = self.keys
        moments = moments.select(*keys, pl.col("n_units").cast(pl.Int64),
                                 *(pl.col(m).cast(pl.Float64) for m in (*MOMENTS[1:], "shift")))
        self._keep_shifts(moments.select(*keys, "shift"))
        d = pl.col("shift") - pl.col("shift_right")
        self._merge(moments.join(self.shifts, on=keys).select(
            *keys, "n_units", "n_obs", "sum_t",
            (pl.col("sum_uu") + 2.0 * d * pl.col("sum_un") + d * d * pl.col("sum_nn")).alias("sum_uu"),
            (pl.col("sum_un") + d * pl.col("sum_nn")).alias("sum_un"), "sum_nn"))

    def _keyed(self, frame: pl.DataFrame) -> pl.DataFrame | None:
        """A batch with this accumulator's key columns (a constant one when there is no ``by``), or None when it
        is empty; the first batch also gives the dtypes of the ``by`` columns."""
        if frame.height == 0:
            return None
        if self.template is None:
            self.template = frame.select(self.by).clear()
        return frame if self.by else frame.with_columns(pl.lit(0).alias(_ALL))

    def _keep_shifts(self, first: pl.DataFrame) -> None:
        """Each group's shift is the one it had in the first batch it appeared in (``first``: keys and ``shift``)."""
        self.shifts = first if self.shifts is None else pl.concat(
            [self.shifts, first.join(self.shifts, on=self.keys, how="anti")], how="vertical_relaxed")

    def _merge(self, batch: pl.DataFrame) -> None:
        """Add a batch's moments (about the kept shifts) to the running ones, group by group."""
        self.moments = batch if self.moments is None else (
            pl.concat([self.moments, batch], how="vertical_relaxed").group_by(self.keys)
            .agg(pl.col(MOMENTS).sum()))

    @classmethod
    def from_sums(cls, keys: pl.DataFrame, sums: dict[str, np.ndarray], shift: np.ndarray) -> UnitMoments:
        """The moments of groups added up elsewhere (:mod:`.scan`): ``keys`` one row per group (the ``by`` columns
        in their dtypes; groups without a unit left out), ``sums`` the arrays of :data:`MOMENTS` by name, one
        value per group, taken about ``shift``."""
        acc = cls(keys.columns)
        acc.template = keys.clear()
        keyed = keys if acc.by else pl.DataFrame({_ALL: np.zeros(len(shift), np.int32)})
        if keyed.height == 0:
            return acc
        acc.shifts = keyed.with_columns(pl.Series("shift", shift, pl.Float64))
        acc.moments = keyed.with_columns(pl.Series("n_units", sums["n_units"]).cast(pl.Int64),
                                         *(pl.Series(m, sums[m], pl.Float64) for m in MOMENTS[1:]))
        return acc

    def table(self, level: float = 0.95, kind: str = "pool") -> pl.DataFrame:
        """The rows of :func:`mean_table` (``kind``: the kind of interval, :data:`.intervals.MIN_MATCHES`)."""
        if self.moments is None:
            raise ValueError("cannot take the mean of no data")
        kind = _check_kind(kind)
        rows = [_mean_row({c: row[c] for c in self.by},
                          stats.ratio_mean_ci_moments(row["n_units"], row["n_obs"], row["sum_t"], row["shift"],
                                                      row["sum_uu"], row["sum_un"], row["sum_nn"], level, kind))
                for row in self.moments.join(self.shifts, on=self.keys).sort(self.keys).to_dicts()]
        return _result_frame(rows, self.by, self.template)


def _mean_table_batches(frames: list[pl.LazyFrame], by: list[str], value: str, unit: Columns | None,
                        level: float, kind: str) -> pl.DataFrame:
    """:func:`mean_table` over a run in batches: the per-unit totals of one batch at a time, reduced to
    :class:`UnitMoments` and added up (memory: one batch's totals, whatever the run's size)."""
    if unit is None:
        raise ValueError("mean_table over Batches needs a unit column (rows of different batches would share ids)")
    acc = UnitMoments(by)
    for frame in frames:
        acc.add(_unit_totals(frame, by, value, unit))
    return acc.table(level, kind)


def rate_table(frame: pl.DataFrame | pl.LazyFrame, by: Columns | None, success_col: str, trials_col: str | None = None,
               method: str = "clopper_pearson", level: float = 0.95) -> pl.DataFrame:
    """Binomial rates with intervals: successes over trials, summed within each group.

    Parameters
    ----------
    frame : pl.DataFrame
        Rows of counts or of 0/1 (bool) indicators, e.g. one row per deal with ``reversis_made`` and
        ``reversis_committed``.
    by : str or sequence of str, optional
        Group columns; None for one overall row.
    success_col : str
        Successes (count or bool).
    trials_col : str, optional
        Trials (count or bool); each row is one trial when omitted.
    method : {"clopper_pearson", "wilson"}
        Interval method (:func:`.stats.clopper_pearson_interval`, :func:`.stats.wilson_interval`). The default is
        Clopper–Pearson: ``scripts/interval_coverage.py runs`` found the Wilson interval missing below its band for the
        rare events (reversis, a led J♥, an espagnolette) of runs of up to 50 matches (its lower bound lands above
        the rate when one or two events are seen), and Clopper–Pearson holding at every size measured, from two
        matches (docs/statistics.md §9); the two agree once the counts are large.
    level : float
        Confidence level.

    Returns
    -------
    pl.DataFrame
        One row per group: the ``by`` columns, ``successes``, ``trials``, ``rate`` (NaN where there were no
        trials), ``ci_low``, ``ci_high``.

    Notes
    -----
    Binomial intervals treat trials as independent. That holds for events decided by the cards of one deal;
    for anything the carried-over pool can influence, compute a per-match rate and use :func:`mean_table`.
    """
    methods = {"wilson": stats.wilson_interval, "clopper_pearson": stats.clopper_pearson_interval}
    if method not in methods:
        raise ValueError(f"unknown method {method!r}; valid methods: {', '.join(methods)}")
    by_cols = column_list(by)
    require_columns(frame, [success_col] + ([trials_col] if trials_col else []) + by_cols, "rate_table")
    trials = pl.col(trials_col).cast(pl.Int64).sum() if trials_col else pl.len().cast(pl.Int64)
    aggs = [pl.col(success_col).cast(pl.Int64).sum().alias("successes"), trials.alias("trials")]
    counts = collect_additive(frame, by_cols, *aggs)
    k = counts["successes"].to_numpy()
    n = counts["trials"].to_numpy()
    low, high = methods[method](k, n, level)
    rate = np.divide(k, n, out=np.full(k.shape, np.nan), where=n > 0)
    return counts.with_columns(pl.Series("rate", rate), pl.Series("ci_low", low), pl.Series("ci_high", high))


def holm_table(frame: pl.DataFrame, p_col: str = "p_value", alpha: float = 0.05) -> pl.DataFrame:
    """Add Holm–Bonferroni ``p_holm`` and ``reject`` (at family-wise level ``alpha``) to a frame of comparisons,
    one row per comparison (e.g. the rows of :func:`paired_summary` for several candidates). A NaN p-value (a
    comparison with too few matches for a reliable test, :mod:`.intervals`) is no test: it is left out of the
    family, its ``p_holm`` NaN and ``reject`` false."""
    require_columns(frame, [p_col], "holm_table")
    p = frame[p_col].cast(pl.Float64).fill_null(np.nan).to_numpy()
    made = ~np.isnan(p)
    adjusted = np.full(p.shape, np.nan)
    reject = np.zeros(p.shape, bool)
    adjusted[made], reject[made] = holm(p[made]), holm_reject(p[made], alpha)
    return frame.with_columns(pl.Series("p_holm", adjusted), pl.Series("reject", reject))
