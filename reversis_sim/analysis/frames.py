"""Small helpers every analysis module uses on its input frames: column lists and checks."""

from __future__ import annotations

from collections.abc import Sequence

import polars as pl

from .batches import Batches

Columns = str | Sequence[str]
"""One column name or several."""


def column_list(cols: Columns | None) -> list[str]:
    """``cols`` as a list of names (none for None)."""
    if cols is None:
        return []
    return [cols] if isinstance(cols, str) else list(cols)


def columns_of(frame: pl.DataFrame | pl.LazyFrame | Batches) -> list[str]:
    """The column names of a frame, a lazy frame or batches (without collecting)."""
    return frame.columns if isinstance(frame, pl.DataFrame) else frame.collect_schema().names()


def require_columns(frame: pl.DataFrame | pl.LazyFrame | Batches, cols: list[str], what: str) -> None:
    """``ValueError`` naming the missing columns (and the frame's own) if ``frame`` lacks any of ``cols``."""
    names = columns_of(frame)
    missing = [c for c in cols if c not in names]
    if missing:
        raise ValueError(f"{what}: column(s) {missing} not in the frame; its columns are {names}")
