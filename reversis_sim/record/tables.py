"""Parquet tables that say whose they are: a review's or a comparison's table is written durably with its owner in
its footer (the kind of folder, a fingerprint of the settings that made it, its chunk and its name, its row count)
and checked against that owner before a row of it is trusted, so that a truncated, missing or foreign file is found
and recomputed on ``--resume``, as a run folder's part is (a run's parts carry their whole run description,
:mod:`.read`)."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

from .files import write_durably

OWNER_KEY = b"reversis_sim.owner"
"""The key of a table's owner in its Parquet footer."""


def fingerprint(settings) -> str:
    """A short fingerprint of JSON-ready ``settings``: equal settings, equal fingerprints."""
    text = json.dumps(settings, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:20]


def write_owned(path: Path, frame, owner: dict) -> None:
    """Write ``frame`` (a polars frame or an Arrow table) to ``path`` durably (temporary name, fsync, rename), its
    ``owner`` and its row count in the footer."""
    table = frame if isinstance(frame, pa.Table) else frame.to_arrow()
    meta = dict(table.schema.metadata or {})
    meta[OWNER_KEY] = json.dumps({**owner, "rows": table.num_rows}, sort_keys=True).encode()
    table = table.replace_schema_metadata(meta)
    write_durably(Path(path), lambda tmp: pq.write_table(table, tmp, compression="zstd"))


def owned_problem(path: Path, owner: dict, *, unowned=None) -> str | None:
    """None when ``path`` is a whole table of ``owner`` (:func:`write_owned`); otherwise what is wrong with it, in a
    few words: missing, not a readable Parquet file, another owner's, rows lost. ``unowned(metadata)``: how to judge
    a readable table that names no owner (one written before tables carried theirs; default: not ours)."""
    path = Path(path)
    if not path.is_file():
        return "missing"
    try:
        meta = pq.read_metadata(path)
    except Exception:  # noqa: BLE001 - truncated, or not Parquet at all: the same problem for the user
        return "not a readable Parquet file (truncated, or not ours)"
    raw = (meta.metadata or {}).get(OWNER_KEY)
    if raw is None:
        return unowned(meta) if unowned is not None else "a table that names no owner (not written here)"
    try:
        found = json.loads(raw)
    except ValueError:
        return "a table with a damaged footer"
    if not isinstance(found, dict) or {k: found.get(k) for k in owner} != owner:
        return "another folder's or another chunk's table (a copied file)"
    if found.get("rows") != meta.num_rows:
        return f"{meta.num_rows:,} rows where it was written with {found.get('rows')}"
    return None
