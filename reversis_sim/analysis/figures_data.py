"""The data the figures need that the headline tables lack: the distribution of fish per deal, and the running
mean with its interval as deals accumulate. Frames in, frames out.

Both functions take the run table (one row per deal and seat, a polars DataFrame or the LazyFrame of
:func:`.run.load_run`) and aggregate *before* collecting: a histogram is a ``group_by`` on a bin index, the
running mean works from per-match totals. A 10M-deal run (40M rows) is never materialised; only the columns a
question needs are read.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import polars as pl

from .batches import Batches, collect_additive, lazy
from .frames import column_list, require_columns
from .numeric import t_ppf

__all__ = ["convergence", "fish_distribution"]

Frame = pl.DataFrame | pl.LazyFrame | Batches

_BIN = "__bin"
ENGINE = "streaming"
"""Polars engine for the aggregations here: streaming reads a large run in batches instead of whole columns."""


def _fmt(x: float) -> str:
    """A bin edge for a label: whole numbers (and anything from 100 up, rounded) with thousands separators,
    otherwise 3 significant digits; a true minus sign."""
    if float(x).is_integer() or abs(x) >= 100:
        text = f"{round(x):,}"
    else:
        text = f"{x:.3g}"
    return text.replace("-", "−")


def _count_by(lf: pl.LazyFrame | Batches, by_cols: list[str], bin_expr: pl.Expr) -> pl.DataFrame:
    """Rows per group and bin (``count``), streamed from a lazy frame or added up over batches."""
    return collect_additive(lf, by_cols + [bin_expr], pl.len().cast(pl.Int64).alias("count"), engine=ENGINE)


# ---------------------------------------------------------------------------------------------------------------
# distribution


def _symlog_bins(k_max: int, limit: int | None) -> pl.DataFrame:
    """Bin table (``k``, ``lo``, ``hi``, ``label``, ``bin``) for symmetric doubling bins of whole numbers.

    Bin ``0`` holds 0; bin ``k > 0`` holds ``2**(k-1) .. 2**k - 1`` and bin ``-k`` the same magnitudes below 0
    (1, 2-3, 4-7, 8-15, ...). With ``limit`` (a power of two) the magnitudes ``>= limit`` go to the two tail bins.
    """
    k_top = k_max if limit is None else int(limit).bit_length() - 1
    rows = [{"k": 0, "lo": 0.0, "hi": 1.0, "label": "0"}]
    for k in range(1, k_top + 1):
        first, last = 2 ** (k - 1), 2**k - 1
        text = _fmt(first) if first == last else f"{_fmt(first)}…{_fmt(last)}"
        rows.append({"k": k, "lo": float(first), "hi": float(last + 1), "label": text})
        rows.append({"k": -k, "lo": float(-last), "hi": float(-first + 1),
                     "label": f"−{_fmt(first)}" if first == last else f"−{_fmt(last)}…−{_fmt(first)}"})
    if limit is not None:
        rows.append({"k": -(k_top + 1), "lo": -np.inf, "hi": float(-(2**k_top) + 1),
                     "label": f"≤ −{_fmt(2**k_top)}"})
        rows.append({"k": k_top + 1, "lo": float(2**k_top), "hi": np.inf, "label": f"≥ {_fmt(2**k_top)}"})
    table = pl.DataFrame(rows).sort("k")
    return table.with_columns(pl.int_range(pl.len()).cast(pl.Int32).alias("bin"))


def _edge_bins(edges: np.ndarray, whole: bool) -> pl.DataFrame:
    """Bin table for explicit edges: bin i (1..len-1) holds ``edges[i-1] <= x < edges[i]``; bin 0 and bin len(edges)
    are the tails below ``edges[0]`` and at or above ``edges[-1]``. With ``whole`` (whole-number data and edges)
    the labels give the first and the last value a bin holds."""
    lo = np.concatenate([[-np.inf], edges])
    hi = np.concatenate([edges, [np.inf]])
    labels = [f"< {_fmt(edges[0])}"]
    if whole:
        labels += [_fmt(a) if b - 1 == a else f"{_fmt(a)}…{_fmt(b - 1)}" for a, b in zip(edges[:-1], edges[1:])]
    else:
        labels += [f"{_fmt(a)}…{_fmt(b)}" for a, b in zip(edges[:-1], edges[1:])]
    labels += [f"≥ {_fmt(edges[-1])}"]
    return pl.DataFrame({"bin": np.arange(len(lo), dtype=np.int32), "lo": lo, "hi": hi, "label": labels})


def fish_distribution(frame: Frame, by: str | Sequence[str] | None = "policy",
                      bins: str | int | Sequence[float] = "symlog", value: str = "fish", *,
                      limit: int | None = None, clip: float = 0.005) -> pl.DataFrame:
    """Histogram of ``value`` (fish per deal of one seat) for each group, with the share beyond the bins.

    Fish per deal are heavy-tailed: most deals move a handful of chips, a doubled pool or a reversis moves
    thousands. The default bins therefore double in width away from zero, symmetrically (a symmetric-log
    histogram), so that the rare large payments appear as bars instead of vanishing.

    Parameters
    ----------
    frame : pl.DataFrame or pl.LazyFrame
        The run table (one row per deal and seat). Only ``value`` and the ``by`` columns are read.
    by : str or sequence of str, optional
        Group columns (``"policy"``, ``"seat"``, ``"position"``...); None for one histogram of every row.
    bins : "symlog", int, or sequence of float
        ``"symlog"``: whole-number bins 0, ±1, ±2…3, ±4…7, ±8…15, ... (``value`` must be an integer column);
        the bins reach the largest magnitude in the data unless ``limit`` cuts them.
        An int ``n``: ``n`` equal-width bins from the ``clip`` to the ``1 - clip`` quantile (included) of all rows
        (all groups share the bins; edges rounded to whole numbers for an integer column, so there may be fewer
        bins). At most about ``clip`` of the rows fall in each tail.
        A sequence: explicit increasing edges; bin ``i`` holds ``edges[i-1] <= x < edges[i]``.
    value : str
        Column to histogram (e.g. ``"fish"`` or ``"quinola_net"``).
    limit : int, optional
        ``"symlog"`` only: a power of two; magnitudes at or above it go to the tail bins.
    clip : float
        Quantile bins only: the share of rows cut at each end (0 < clip < 0.5).

    Returns
    -------
    pl.DataFrame
        One row per group and bin, every bin present (count 0 where empty), sorted: the ``by`` columns, ``bin``
        (Int32, 0 = the lowest), ``lo``, ``hi`` (Float64 edges, ``lo <= x < hi``; ±inf for the tails), ``label``
        (readable range, e.g. ``"8…15"``, ``"< −2,066"``), ``in_range`` (False for the two tail bins),
        ``count`` (Int64 rows), ``n`` (rows of the group) and ``share`` (``count / n``). The tail bins
        exist only when the bins can leave rows out (quantile or explicit bins, or ``limit``): their ``share``
        is the share of the group beyond the range. ``count`` sums to ``n`` in every group.
    """
    by_cols = column_list(by)
    lf = lazy(frame)
    require_columns(lf, [value] + by_cols, "fish_distribution")
    dtype = lf.collect_schema()[value]
    x = pl.col(value)
    if isinstance(bins, str):
        if bins != "symlog":
            raise ValueError(f"bins must be 'symlog', a number of bins, or a sequence of edges; got {bins!r}")
        if not dtype.is_integer():
            raise ValueError(f"symlog bins need whole numbers; {value!r} is {dtype}: give explicit edges instead")
        if limit is not None and (limit < 1 or int(limit) & (int(limit) - 1)):
            raise ValueError(f"limit must be a power of two (e.g. 1024), got {limit}")
        magnitude = 64 - x.cast(pl.Int64).abs().bitwise_leading_zeros().cast(pl.Int32)  # bit length of |x|
        if limit is not None:
            k_top = int(limit).bit_length() - 1
            magnitude = pl.min_horizontal(magnitude, pl.lit(k_top + 1, pl.Int32))
        signed = pl.when(x < 0).then(-magnitude).otherwise(magnitude)
        counts = _count_by(lf, by_cols, signed.alias("k"))
        k_max = int(counts["k"].abs().max() or 0)
        table = _symlog_bins(k_max, limit)
        table = table.with_columns((pl.col("lo").is_finite() & pl.col("hi").is_finite()).alias("in_range"))
        counts = counts.join(table.select("k", "bin"), on="k").drop("k")
        table = table.drop("k")
    else:
        if limit is not None:
            raise ValueError("limit applies to symlog bins only; explicit or quantile bins set their own range")
        if isinstance(bins, int | np.integer):
            if bins < 1:
                raise ValueError(f"the number of bins must be at least 1, got {bins}")
            if not 0.0 < clip < 0.5:
                raise ValueError(f"clip must lie strictly between 0 and 0.5, got {clip}")
            whole = lf.whole() if isinstance(lf, Batches) else lf
            q = whole.select(x.cast(pl.Float64).quantile(clip).alias("lo"),
                          x.cast(pl.Float64).quantile(1.0 - clip).alias("hi")).collect(engine=ENGINE).row(0)
            lo, hi = (0.0, 1.0) if q[0] is None else q
            hi = hi if hi > lo else lo + 1.0
            # the upper quantile itself stays in range (ties there would otherwise all fall in the tail)
            if dtype.is_integer():  # whole-number edges, so that every bin holds a clear range of chips
                edges = np.unique(np.round(np.linspace(lo, hi + 1.0, int(bins) + 1)))
            else:
                edges = np.linspace(lo, np.nextafter(hi, np.inf), int(bins) + 1)
        else:
            edges = np.asarray(bins, dtype=np.float64)
            if edges.ndim != 1 or edges.size < 2 or not np.all(np.diff(edges) > 0) or not np.all(np.isfinite(edges)):
                raise ValueError("explicit bins must be at least two finite, strictly increasing edges")
        whole = dtype.is_integer() and bool(np.all(edges == np.round(edges)))
        table = _edge_bins(edges, whole).with_columns(
            (pl.col("lo").is_finite() & pl.col("hi").is_finite()).alias("in_range"))
        index = pl.lit(pl.Series(edges)).search_sorted(x.cast(pl.Float64), side="right").cast(pl.Int32)
        counts = _count_by(lf, by_cols, index.alias("bin"))
    groups = counts.select(by_cols).unique() if by_cols else pl.DataFrame({_BIN: [0]})
    grid = groups.join(table, how="cross")
    out = (grid.join(counts, on=by_cols + ["bin"], how="left")
           .with_columns(pl.col("count").fill_null(0).cast(pl.Int64)))
    if _BIN in out.columns:
        out = out.drop(_BIN)
    total = pl.col("count").sum().over(by_cols) if by_cols else pl.col("count").sum()
    out = out.with_columns(total.alias("n")).with_columns((pl.col("count") / pl.col("n")).alias("share"))
    cols = by_cols + ["bin", "lo", "hi", "label", "in_range", "count", "n", "share"]
    return out.select(cols).sort(by_cols + ["bin"])


# ---------------------------------------------------------------------------------------------------------------
# convergence


def _sample_index(n: int, points: int) -> np.ndarray:
    """About ``points`` indices into 0..n-1, geometrically spaced (dense early, where the mean still moves),
    always holding the first and the last."""
    if n <= points:
        return np.arange(n)
    idx = np.unique(np.round(np.geomspace(1, n, points)).astype(np.int64) - 1)
    return np.union1d(idx, [0, n - 1])


def convergence(frame: Frame, by: str | Sequence[str] | None = "seat", points: int = 200, value: str = "fish",
                level: float = 0.95) -> pl.DataFrame:
    """Running mean of fish per deal with its confidence interval as matches accumulate, per group.

    The match is the sampling unit (the pool carries from deal to deal): matches are taken in match order; after ``g``
    matches the mean is the total of ``value`` over their rows divided by the number of rows (the estimate of
    :func:`.headline.fish_by` on those matches), and its standard error is the cluster-robust one of
    :func:`.stats.ratio_mean_ci`, i.e. ``s / sqrt(g)`` with ``s`` the running standard deviation of the
    per-match means when every match has the same number of rows. The interval is ``mean ± t(level, g - 1) * se``.
    The last point of each group therefore equals ``fish_by(frame, by)`` (mean, se, ci_low, ci_high).

    Parameters
    ----------
    frame : pl.DataFrame or pl.LazyFrame
        The run table; reads ``match``, ``deal``, ``value`` and the ``by`` columns. Aggregated to one row per
        (group, match) before anything is collected.
    by : str or sequence of str, optional
        Group columns; None for one curve over all rows.
    points : int
        About how many rows to keep per group (geometrically spaced in the number of matches, so that the
        early, fast-moving part is resolved; the first and the last match are always kept).
    value : str
        Numeric column.
    level : float
        Confidence level.

    Returns
    -------
    pl.DataFrame
        The ``by`` columns, ``n_matches`` (matches so far), ``n_deals`` (deals of those matches; deals are
        numbered from 0 in a match, so a match counts its highest deal number + 1), ``mean`` (per row: per deal
        of one seat), ``se``, ``ci_low``, ``ci_high`` (NaN while only one match is in), sorted by group and
        ``n_matches``.
    """
    if points < 2:
        raise ValueError(f"points must be at least 2, got {points}")
    if not 0.0 < level < 1.0:
        raise ValueError(f"level must lie strictly between 0 and 1, got {level}")
    by_cols = column_list(by)
    lf = lazy(frame)
    require_columns(lf, ["match", "deal", value] + by_cols, "convergence")

    def per_match(f: pl.LazyFrame) -> pl.LazyFrame:
        return (f.group_by(by_cols + ["match"])
                .agg(pl.col(value).cast(pl.Float64).sum().alias("total"), pl.len().alias("size"),
                     (pl.col("deal").max().cast(pl.Int64) + 1).alias("deals"))
                .sort(by_cols + ["match"]))

    if isinstance(lf, Batches):  # one batch of whole matches at a time; the matches per group counted first
        n_units = lf.sum_by(lambda f: f.group_by(by_cols + ["match"]).agg().group_by(by_cols).agg(
            pl.len().cast(pl.Int64).alias("g")) if by_cols else f.select(pl.col("match").n_unique().cast(
                pl.Int64).alias("g")), by_cols)
        tables = (per_match(f).collect() for f in lf)
    else:
        whole = per_match(lf).collect(engine=ENGINE)
        n_units = (whole.group_by(by_cols).agg(pl.len().cast(pl.Int64).alias("g")) if by_cols
                   else pl.DataFrame({"g": [whole.height]}))
        tables = iter([whole])
    sizes = {tuple(r[c] for c in by_cols): r["g"] for r in n_units.to_dicts()}
    curves: dict[tuple, _Curve] = {}
    for table in tables:
        for part in (table.partition_by(by_cols, maintain_order=True) if by_cols else [table]):
            if part.height == 0:
                continue
            key = tuple(part[c][0] for c in by_cols)
            if key not in curves:
                curves[key] = _Curve(part.select(by_cols).head(1), _sample_index(sizes[key], points), level)
            curves[key].add(part)
    if not curves:
        base = lf.collect_schema()
        schema = {**{c: base[c] for c in by_cols}, "n_matches": pl.Int64, "n_deals": pl.Int64,
                  "mean": pl.Float64, "se": pl.Float64, "ci_low": pl.Float64, "ci_high": pl.Float64}
        return pl.DataFrame(schema=schema)
    return pl.concat([c.frame(by_cols) for c in curves.values()]).sort(by_cols + ["n_matches"])


class _Curve:
    """The running mean and cluster-robust interval of one group, fed its per-match totals in match order, in as
    many pieces as there are batches; keeps only the sampled points ``keep`` (0-based match counts)."""

    def __init__(self, key: pl.DataFrame, keep: np.ndarray, level: float):
        self.key, self.keep, self.level = key, keep, level
        self.g = 0
        self.rows = self.sum_t = self.deals = 0.0
        self.shift = None  # the first piece's mean: conditions the running sum of squares
        self.s_uu = self.s_un = self.s_nn = 0.0
        self.out: list[dict[str, np.ndarray]] = []

    def add(self, part: pl.DataFrame) -> None:
        total = part["total"].to_numpy().astype(np.float64)
        size = part["size"].to_numpy().astype(np.float64)
        deals = part["deals"].to_numpy().astype(np.float64)
        if self.shift is None:
            self.shift = float(total.sum() / size.sum())
        g = self.g + np.arange(1, total.size + 1, dtype=np.float64)
        n_rows = self.rows + np.cumsum(size)
        mean = (self.sum_t + np.cumsum(total)) / n_rows
        u = total - self.shift * size
        s_uu = self.s_uu + np.cumsum(u * u)
        s_un = self.s_un + np.cumsum(u * size)
        s_nn = self.s_nn + np.cumsum(size * size)
        n_deals = self.deals + np.cumsum(deals)
        # sum over matches of (T_j - m n_j)^2 = sum u^2 - 2 d sum u n + d^2 sum n^2, with d = m - shift
        d = mean - self.shift
        ss = np.maximum(s_uu - 2.0 * d * s_un + d * d * s_nn, 0.0)
        pick = self.keep[(self.keep >= self.g) & (self.keep < self.g + total.size)] - self.g
        if pick.size:
            gk = g[pick]
            with np.errstate(divide="ignore", invalid="ignore"):
                se = np.where(gk > 1, np.sqrt(gk / (gk - 1.0) * ss[pick]) / n_rows[pick], np.nan)
            df = gk - 1.0
            half = np.full(pick.size, np.nan)
            ok = df >= 1
            half[ok] = t_ppf(0.5 + self.level / 2.0, df[ok]) * se[ok]
            half = np.where(se == 0.0, 0.0, half)
            self.out.append({"n_matches": gk.astype(np.int64), "n_deals": np.round(n_deals[pick]).astype(np.int64),
                             "mean": mean[pick], "se": se, "ci_low": mean[pick] - half,
                             "ci_high": mean[pick] + half})
        self.g += total.size
        self.rows, self.sum_t, self.deals = float(n_rows[-1]), self.sum_t + float(total.sum()), float(n_deals[-1])
        self.s_uu, self.s_un, self.s_nn = float(s_uu[-1]), float(s_un[-1]), float(s_nn[-1])

    def frame(self, by_cols: list[str]) -> pl.DataFrame:
        sub = pl.DataFrame({k: np.concatenate([o[k] for o in self.out]) for k in self.out[0]})
        return self.key.join(sub, how="cross") if by_cols else sub


EVERY_DEAL = -1
"""The key of the "every deal" bar of :func:`quinola_fates`."""


def quinola_fates(risk: dict[str, pl.DataFrame], by: str = "hearts_at_lead") -> pl.DataFrame:
    """The Quinola fate figure's table: the fate of every deal (``talon`` included: a J♥ that no seat held at the
    first lead, 11% of ``parlett`` deals) under the key :data:`EVERY_DEAL`, then the holder's fate by ``by``
    (``hearts_at_lead`` or ``position``), from :func:`reversis_sim.analysis.quinola_risk`'s ``fate`` and
    ``fate_by_<...>`` tables (``rate``, Clopper-Pearson ``ci_low``, ``ci_high``, ``successes``, ``trials``)."""
    held = risk["fate_by_hearts" if by == "hearts_at_lead" else f"fate_by_{by}"]
    every = risk["fate"].with_columns(pl.lit(EVERY_DEAL).cast(held[by].dtype).alias(by)).select(held.columns)
    return pl.concat([every, held])
