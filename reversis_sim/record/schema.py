"""The run table's schema, declared once, and the Arrow table of a chunk: one row per (deal, seat).

``docs/schema.md`` documents every column.
"""

from __future__ import annotations

import json

import numpy as np
import pyarrow as pa

from ..columns import N_REASONS
from ..game import FATES, REASONS

SCHEMA_VERSION = 1
META_KEY = b"reversis_sim.run"
"""The key of a part's own metadata (its run, chunk, rows and matches) in the Parquet footer."""

_FIXED = [
    ("match", pa.int64()), ("deal", pa.int16()), ("seat", pa.int8()), ("dealer", pa.int8()),
    ("position", pa.int8()), ("policy", pa.dictionary(pa.int8(), pa.string())),
    ("fish", pa.int64()), ("card_points", pa.int16()), ("tricks_won", pa.int16()),
    ("hearts_at_lead", pa.int8()), ("to_pool", pa.int64()), ("from_pool", pa.int64()),
    ("pool_before", pa.int64()), ("pool_after", pa.int64()),
    ("quinola_holder", pa.int8()), ("quinola_fate", pa.dictionary(pa.int8(), pa.string())),
    ("quinola_trick", pa.int8()),
    ("party_winner", pa.int8()), ("party_loser", pa.int8()), ("party_value", pa.int16()),
    ("reversis_seat", pa.int8()), ("reversis_made", pa.bool_()), ("reversis_breaker", pa.int8()),
    ("espagnolette_eligible", pa.int8()), ("espagnolette_seat", pa.int8()), ("espagnolette_made", pa.bool_()),
]
_MONEY = [(f"{way}_{reason}", pa.int64()) for reason in REASONS for way in ("paid", "received")]
SCHEMA = pa.schema(_FIXED + _MONEY)
"""One row per (deal, seat). Money columns: ``paid_<reason>`` / ``received_<reason>`` for every payment reason."""


def seat_table(cols: dict[str, np.ndarray], seats: list[str], meta: dict | None = None) -> pa.Table:
    """Per-deal columns (:mod:`reversis_sim.columns`) -> the long (deal, seat) Arrow table of :data:`SCHEMA`."""
    n_deals, n_seats = cols["fish"].shape
    seat = np.tile(np.arange(n_seats, dtype=np.int8), n_deals)

    def per_deal(name: str) -> np.ndarray:
        return np.repeat(cols[name], n_seats)

    def per_seat(name: str) -> np.ndarray:
        return cols[name][:, :n_seats].reshape(-1)

    dealer = per_deal("dealer")
    data: dict[str, pa.Array] = {
        "match": per_deal("match"), "deal": per_deal("deal"), "seat": seat, "dealer": dealer,
        "position": ((seat.astype(np.int16) - dealer) % n_seats).astype(np.int8),
        "policy": pa.DictionaryArray.from_arrays(pa.array(seat, pa.int8()), pa.array(list(seats), pa.string())),
    }
    for name in ("fish", "card_points", "tricks_won", "hearts_at_lead", "to_pool", "from_pool"):
        data[name] = per_seat(name)
    for name in ("pool_before", "pool_after", "quinola_holder", "quinola_trick", "party_winner", "party_loser",
                 "party_value", "reversis_seat", "reversis_made", "reversis_breaker", "espagnolette_eligible",
                 "espagnolette_seat", "espagnolette_made"):
        data[name] = per_deal(name)
    data["quinola_fate"] = pa.DictionaryArray.from_arrays(pa.array(per_deal("quinola_fate"), pa.int8()),
                                                          pa.array(FATES, pa.string()))
    assert cols["paid"].shape[2] == N_REASONS
    for k, reason in enumerate(REASONS):
        data[f"paid_{reason}"] = cols["paid"][:, :n_seats, k].reshape(-1)
        data[f"received_{reason}"] = cols["received"][:, :n_seats, k].reshape(-1)
    arrays = [data[f.name] if isinstance(data[f.name], pa.Array) else pa.array(data[f.name], f.type)
              for f in SCHEMA]
    schema = SCHEMA.with_metadata({META_KEY: json.dumps(meta).encode()}) if meta else SCHEMA
    return pa.Table.from_arrays(arrays, schema=schema)
