"""The run table's schema (version 3), derived from its one declaration (:data:`reversis_sim.columns.SEAT_TABLE`,
``PAYMENTS_TABLE``), and the Arrow tables of a chunk, built without copying the
engine's arrays (:class:`reversis_sim.columns.Chunk`): the seat table, one row per (deal, seat), and the payments
table, one row per non-zero (deal, seat, reason, direction).

``docs/schema.md`` documents every column, the dtypes' bounds and the reason for each choice.
"""

from __future__ import annotations

import json

import numpy as np
import pyarrow as pa

from ..columns import PAYMENTS_TABLE, SEAT_TABLE, Chunk
from ..game import FATES, REASONS

SCHEMA_VERSION = 3
META_KEY = b"reversis_sim.run"
"""The key of a part's own metadata (its run, chunk, rows and matches) in the Parquet footer."""

ARROW_TYPES = {
    "uint32": pa.uint32(), "int8": pa.int8(), "int16": pa.int16(), "int64": pa.int64(), "uint64": pa.uint64(),
    "bool": pa.bool_(), "dictionary<int8, string>": pa.dictionary(pa.int8(), pa.string()),
}
"""The Arrow type of each ``dtype`` a column of :data:`reversis_sim.columns.SEAT_TABLE` or ``PAYMENTS_TABLE`` names."""
SCHEMA = pa.schema([pa.field(c.name, ARROW_TYPES[c.dtype], nullable=False) for c in SEAT_TABLE])
"""The seat table: one row per (deal, seat). No column holds a null (non-nullable: Parquet writes no definition
levels)."""
PAYMENTS_SCHEMA = pa.schema([pa.field(c.name, ARROW_TYPES[c.dtype], nullable=False) for c in PAYMENTS_TABLE])
"""The payments table: one row per non-zero (deal, seat, reason, direction); ``amount`` > 0 received, < 0 paid."""

WRITE_OPTIONS = dict(compression="zstd", compression_level=1, write_statistics=["match"])
"""How both tables are written (measured when the lean schema was chosen: docs/performance.md; ``reversis-sim bench``
measures the writer today): zstd at its fastest level on dictionary pages, statistics only for ``match`` (the readers
check a part's match range from them)."""

_REASONS = pa.array(REASONS, pa.string())
_FATES = pa.array(FATES, pa.string())


def _with_meta(schema: pa.Schema, meta: dict | None) -> pa.Schema:
    return schema.with_metadata({META_KEY: json.dumps(meta).encode()}) if meta else schema


def seat_table(chunk: Chunk, seats: list[str], meta: dict | None = None) -> pa.Table:
    """The chunk's seat rows as an Arrow table of :data:`SCHEMA` (zero-copy views of its blocks)."""
    policies = pa.array(list(seats), pa.string())
    arrays = []
    for field in SCHEMA:
        if field.name == "policy":
            arrays.append(pa.DictionaryArray.from_arrays(pa.array(chunk.column("seat")), policies))
        elif field.name == "quinola_fate":
            arrays.append(pa.DictionaryArray.from_arrays(pa.array(chunk.column("quinola_fate")), _FATES))
        elif field.name == "hand":  # non-negative int64 masks, read as uint64 without a copy
            arrays.append(pa.array(chunk.column("hand").view(np.uint64), field.type))
        else:
            arrays.append(pa.array(chunk.column(field.name), field.type))
    return pa.Table.from_arrays(arrays, schema=_with_meta(SCHEMA, meta))


def payment_table(chunk: Chunk, seats: list[str], meta: dict | None = None) -> pa.Table:
    """The chunk's payment rows as an Arrow table of :data:`PAYMENTS_SCHEMA`."""
    p = chunk.payments
    arrays = [pa.array(p["match"]), pa.array(p["deal"]), pa.array(p["seat"]),
              pa.DictionaryArray.from_arrays(pa.array(p["seat"]), pa.array(list(seats), pa.string())),
              pa.DictionaryArray.from_arrays(pa.array(p["reason"]), _REASONS), pa.array(p["amount"])]
    return pa.Table.from_arrays(arrays, schema=_with_meta(PAYMENTS_SCHEMA, meta))
