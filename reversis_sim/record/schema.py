"""The run table's schema (version 3), declared once, and the Arrow tables of a chunk, built without copying the
engine's arrays (:class:`reversis_sim.columns.Chunk`): the seat table, one row per (deal, seat), and the payments
table, one row per non-zero (deal, seat, reason, direction).

``docs/schema.md`` documents every column, the dtypes' bounds and the reason for each choice.
"""

from __future__ import annotations

import json

import numpy as np
import pyarrow as pa

from ..columns import PAYMENT_COLUMNS, Chunk
from ..game import FATES, REASONS

SCHEMA_VERSION = 3
META_KEY = b"reversis_sim.run"
"""The key of a part's own metadata (its run, chunk, rows and matches) in the Parquet footer."""

_SEAT_TYPES = {
    "match": pa.uint32(), "deal": pa.int16(), "seat": pa.int8(), "dealer": pa.int8(), "position": pa.int8(),
    "policy": pa.dictionary(pa.int8(), pa.string()),
    "fish": pa.int64(), "card_points": pa.int16(), "tricks_won": pa.int8(), "hearts_at_lead": pa.int8(),
    "to_pool": pa.int64(), "from_pool": pa.int64(), "quinola_net": pa.int64(),
    "pool_before": pa.int64(), "pool_after": pa.int64(),
    "quinola_holder": pa.int8(), "quinola_fate": pa.dictionary(pa.int8(), pa.string()), "quinola_trick": pa.int8(),
    "party_winner": pa.int8(), "party_loser": pa.int8(), "party_value": pa.int16(),
    "reversis_seat": pa.int8(), "reversis_made": pa.bool_(), "reversis_breaker": pa.int8(),
    "espagnolette_eligible": pa.int8(), "espagnolette_seat": pa.int8(), "espagnolette_made": pa.bool_(),
    "hand": pa.uint64(),
}
SCHEMA = pa.schema([pa.field(name, t, nullable=False) for name, t in _SEAT_TYPES.items()])
"""The seat table: one row per (deal, seat). No column holds a null (non-nullable: Parquet writes no definition
levels)."""
_PAYMENT_TYPES = {"match": pa.uint32(), "deal": pa.int16(), "seat": pa.int8(),
                  "policy": pa.dictionary(pa.int8(), pa.string()), "reason": pa.dictionary(pa.int8(), pa.string()),
                  "amount": pa.int64()}
assert set(_PAYMENT_TYPES) == {*PAYMENT_COLUMNS, "policy"}
PAYMENTS_SCHEMA = pa.schema([pa.field(name, t, nullable=False) for name, t in _PAYMENT_TYPES.items()])
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
