"""A run read in batches of part files, so that its analysis needs the same memory for 1M deals as for 20M.

A polars query over one lazy scan of every part reads whole columns (the in-memory engine) or keeps a hash entry per
match (the streaming engine, for the per-match totals every mean needs): memory grows with the run. A part file,
however, holds whole matches (a chunk), so every per-match total lies within one part. :class:`Batches` is a run's
part files cut into consecutive batches of about ``rows_per_batch`` rows, each a lazy scan; the analysis functions
accept it wherever they accept a frame and add up their per-batch results: counts are summed, and means are
combined from per-group moments of the per-match totals (:func:`.stats.ratio_mean_ci_moments`), exactly what they
would be on the whole run up to rounding. Only one batch is in memory at a time.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

import polars as pl

ROWS_PER_BATCH = 2_000_000
"""Default batch size, in rows (deal x seat): about 500,000 deals of four seats, ~200 MB while it is aggregated."""


class Batches:
    """Lazy frames over consecutive groups of part files; no sampling unit (match) straddles two of them.

    Build one with :meth:`from_parts` (or :func:`.run.load_run` with ``batched=True``). Row-wise transforms
    (:meth:`with_columns`, :meth:`filter`, :meth:`map`) apply to every batch and return new ``Batches``.
    """

    def __init__(self, frames: Sequence[pl.LazyFrame]):
        if not frames:
            raise ValueError("Batches needs at least one lazy frame")
        self.frames = list(frames)

    @classmethod
    def from_parts(cls, paths: Sequence[str | Path], rows_per_part: int,
                   rows_per_batch: int = ROWS_PER_BATCH) -> Batches:
        """Consecutive part files of at most ``rows_per_part`` rows each, grouped into batches of at most
        ``rows_per_batch`` rows (a part larger than that is a batch of its own)."""
        if rows_per_part < 1:
            raise ValueError(f"rows_per_part must be at least 1, got {rows_per_part}")
        step = max(1, rows_per_batch // rows_per_part)
        paths = [str(p) for p in paths]
        return cls([pl.scan_parquet(paths[i:i + step]) for i in range(0, len(paths), step)])

    def __iter__(self) -> Iterator[pl.LazyFrame]:
        return iter(self.frames)

    def __len__(self) -> int:
        return len(self.frames)

    def map(self, fn: Callable[[pl.LazyFrame], pl.LazyFrame]) -> Batches:
        """Apply a lazy transform to every batch: row-wise, or an aggregation within matches (a match never
        straddles two batches), never one across matches."""
        return Batches([fn(f) for f in self.frames])

    def with_columns(self, *exprs, **named) -> Batches:
        return self.map(lambda f: f.with_columns(*exprs, **named))

    def filter(self, *predicates) -> Batches:
        return self.map(lambda f: f.filter(*predicates))

    def whole(self) -> pl.LazyFrame:
        """One lazy frame over every batch, for the rare statistic that is not additive (a quantile)."""
        return pl.concat(self.frames, how="vertical")

    def collect_schema(self) -> pl.Schema:
        return self.frames[0].collect_schema()

    def sum_by(self, query: Callable[[pl.LazyFrame], pl.LazyFrame], keys: Sequence[str]) -> pl.DataFrame:
        """Run an additive aggregation on every batch and add the results: ``query`` maps a batch to a lazy frame
        of sums or counts by ``keys`` (every other column is summed across batches)."""
        parts = [query(f).collect() for f in self.frames]
        both = pl.concat(parts, how="vertical_relaxed")
        keys = list(keys)
        if not keys:
            return both.select(pl.all().sum())
        return both.group_by(keys).agg(pl.all().sum()).sort(keys)


def lazy(frame: pl.DataFrame | pl.LazyFrame | Batches) -> pl.LazyFrame | Batches:
    """A DataFrame as a LazyFrame; a LazyFrame or :class:`Batches` as it is."""
    return frame.lazy() if isinstance(frame, pl.DataFrame) else frame


def collect_additive(frame: pl.DataFrame | pl.LazyFrame | Batches, keys: Sequence[str | pl.Expr], *aggs: pl.Expr,
                     engine: str = "auto") -> pl.DataFrame:
    """``group_by(keys).agg(*aggs)`` (``select(*aggs)`` without keys) of additive aggregates (sums, counts),
    collected with the polars ``engine`` and sorted by the keys; over :class:`Batches`, every batch's result is
    added up."""
    keys = list(keys)
    names = [k if isinstance(k, str) else k.meta.output_name() for k in keys]
    query = (lambda f: f.group_by(keys).agg(*aggs)) if keys else (lambda f: f.select(*aggs))
    if isinstance(frame, Batches):
        return frame.sum_by(query, names)
    out = query(lazy(frame)).collect(engine=engine)
    return out.sort(names) if names else out


def frames_of(frame: pl.DataFrame | pl.LazyFrame | Batches) -> list[pl.LazyFrame]:
    """The lazy frames to aggregate one after the other: the batches, or the one frame."""
    return frame.frames if isinstance(frame, Batches) else [lazy(frame)]
