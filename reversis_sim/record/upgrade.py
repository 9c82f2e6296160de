"""A run folder of an older schema rewritten in the current one (version 3), in place, row for row
(``reversis-sim upgrade DIR``).

- Version 1 had one table, one row per (deal, seat), with a ``paid_<reason>`` and a ``received_<reason>`` column for
  every reason. Version 2 keeps the same seat rows in narrower dtypes with one new column, ``quinola_net`` (the sums
  of ``reversis_sim.game.QUINOLA_RECEIVED`` received minus ``QUINOLA_PAID`` paid, as the version-1 analysis computed
  it), and moves the money by reason to the payments table, in the order a version-2 run writes it.
- Version 3 adds ``hand``, each seat's hand as dealt (a card mask), so that no analysis deals again: an upgrade deals
  each chunk's hands once (a deal's cards are a pure function of its keys and constraints, the engine interface's
  ``dealt_hands``).

Either way the chunk's rows equal those of a current simulation of the same run. Each chunk is rewritten durably
(payments, then the seat part, whose footer then names the current schema) and the manifest last, holding the
folder's lock: an interrupted upgrade is finished by running it again.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import polars as pl
import pyarrow.parquet as pq

from ..columns import I8, I16, I64, PAYMENT_COLUMNS, SEAT_COLUMNS, Chunk
from ..game import FATES, QUINOLA_PAID, QUINOLA_RECEIVED, REASONS
from .chunks import ChunkSet
from .files import FolderLock, RunError, write_durably, write_json_atomic
from .read import (
    FORMATS,
    MANIFEST,
    PAYMENTS,
    completed_chunks,
    identity_of,
    part_description,
    part_files_present,
    part_path,
    payments_path,
    tables_only,
)
from .schema import SCHEMA_VERSION, WRITE_OPTIONS, payment_table, seat_table
from .spec import RunSpec

OLD_VERSIONS = (1, 2)


def upgrade(out: str | Path) -> tuple[int, int]:
    """Rewrite the run folder ``out``, of schema version 1 or 2, in the current version; (chunks rewritten, chunks
    already rewritten by an earlier, interrupted upgrade). :class:`RunError` in one sentence for a folder that is not
    a run folder, or of another version."""
    out = Path(out)
    path = out / MANIFEST
    try:
        manifest = json.loads(path.read_text())
    except (OSError, ValueError):
        raise RunError(f"{out} has no readable {MANIFEST}; only a run folder can be upgraded") from None
    if not isinstance(manifest, dict) or manifest.get("format") not in FORMATS:
        raise RunError(f"{path} is not a reversis_sim run manifest; only a run folder can be upgraded")
    version = manifest.get("schema_version")
    if version == SCHEMA_VERSION:
        raise RunError(f"{out} is already in schema version {SCHEMA_VERSION}; nothing to upgrade")
    if not part_files_present(out):  # a folder of tables only (results/): nothing to rewrite
        raise RunError(tables_only(out))
    if version not in OLD_VERSIONS:
        raise RunError(f"{out} has schema version {version!r}; this reversis_sim upgrades versions "
                       f"{' and '.join(map(str, OLD_VERSIONS))}")
    old = identity_of(manifest)
    spec = RunSpec.from_identity(old)
    new = spec.identity()
    done = upgraded = 0
    with FolderLock(out):
        for chunk in completed_chunks(manifest):
            part = part_path(out, chunk)
            info, _ = part_description(part)
            if info["run"] == new and payments_path(out, chunk).exists():
                upgraded += 1  # rewritten by an earlier, interrupted upgrade
                continue
            if info["run"] != old or info.get("chunk") != chunk:
                raise RunError(f"{part} is not chunk {chunk} of this run; repair the folder in the version that "
                               f"wrote it before upgrading")
            n_seats = len(spec.seats)
            data = (chunk_of_v1(pq.read_table(part), n_seats) if version == 1 else
                    chunk_of_v2(pq.read_table(part), pq.read_table(payments_path(out, chunk)), n_seats))
            data.column("hand")[...] = dealt_hands_of(spec, chunk, data)
            meta = {"run": new, "chunk": chunk, "rows": data.n_rows, "matches": info["matches"]}
            if "shuffles" in info:
                meta["shuffles"] = info["shuffles"]
            table = seat_table(data, spec.seats, meta)
            pay = payment_table(data, spec.seats, {**meta, "rows": len(data.payments["match"]), "table": PAYMENTS})
            for target, written in ((payments_path(out, chunk), pay), (part, table)):
                write_durably(target, lambda tmp, t=written: pq.write_table(t, tmp, **WRITE_OPTIONS))
            done += 1
        manifest.update(new)
        manifest["completed_chunks"] = ChunkSet(completed_chunks(manifest)).to_json()
        manifest["upgraded_from_schema"] = version
        write_json_atomic(path, manifest)
    return done, upgraded


def dealt_hands_of(spec: RunSpec, chunk: int, data: Chunk) -> np.ndarray:
    """Each row's hand as dealt (int64 card masks, in the chunk's row order): the chunk's deals dealt again, without
    play, under the run's constraints (a deal's cards are a pure function of its keys)."""
    from ..engines import get_engine

    rules = spec.resolved_rules()
    first, n = spec.chunk_range(chunk)
    dealt = get_engine("numba").dealt_hands(rules, seed=spec.seed, first_match=first, n_matches=n,
                                            match_deals=spec.match_deals, deals=spec.resolved_deals(rules))
    index = (data.match.astype(np.int64) - first) * spec.match_deals + data.column("deal")
    return dealt[index, data.column("seat")].astype(np.int64)


def chunk_of_v2(table, payments, n_seats: int) -> Chunk:
    """The chunk of a version-2 part and its payments table (the ``hand`` column left to fill)."""
    rows = table.num_rows
    chunk = Chunk(n_seats, table["match"].to_numpy().astype(np.uint32), np.zeros((len(I8), rows), np.int8),
                  np.zeros((len(I16), rows), np.int16), np.zeros((len(I64), rows), np.int64), {})
    for name in SEAT_COLUMNS:
        if name in ("match", "hand"):
            continue
        col = table[name].combine_chunks()
        chunk.column(name)[...] = (col.indices.to_numpy() if name == "quinola_fate" else
                                   col.to_numpy(zero_copy_only=False))
    reason = payments["reason"].combine_chunks()
    chunk.payments = {"match": payments["match"].to_numpy().astype(np.uint32),
                      "deal": payments["deal"].to_numpy().astype(np.int16),
                      "seat": payments["seat"].to_numpy().astype(np.int8),
                      "reason": reason.indices.to_numpy().astype(np.int8),
                      "amount": payments["amount"].to_numpy().astype(np.int64)}
    return chunk


def chunk_of_v1(table, n_seats: int) -> Chunk:
    """The chunk of a version-1 part's table (the ``hand`` column left to fill)."""
    df = pl.from_arrow(table)
    rows = df.height
    money = {name: df[name].to_numpy() for name in df.columns if name.startswith(("paid_", "received_"))}

    def net(reasons_received, reasons_paid) -> np.ndarray:
        total = np.zeros(rows, np.int64)
        for r in reasons_received:
            total += money[f"received_{r}"]
        for r in reasons_paid:
            total -= money[f"paid_{r}"]
        return total

    chunk = Chunk(n_seats, df["match"].to_numpy().astype(np.uint32), np.zeros((len(I8), rows), np.int8),
                  np.zeros((len(I16), rows), np.int16), np.zeros((len(I64), rows), np.int64), {})
    for name in SEAT_COLUMNS:
        if name in ("match", "hand"):  # the hand: dealt again by the upgrade
            continue
        if name == "quinola_net":
            values = net(QUINOLA_RECEIVED, QUINOLA_PAID)
        elif name == "quinola_fate":
            values = (df[name].cast(pl.String).replace_strict({f: i for i, f in enumerate(FATES)}, return_dtype=pl.Int8)
                      .to_numpy())
        else:
            values = df[name].to_numpy()
        chunk.column(name)[...] = values
    # payments: one row per non-zero (row, reason, direction), by (deal, seat), reason code, paid before received
    row_ids, codes, amounts = [], [], []
    for k, reason in enumerate(REASONS):
        for sign, way in ((-1, "paid"), (1, "received")):
            col = money.get(f"{way}_{reason}")
            if col is None:
                continue
            nz = np.flatnonzero(col)
            row_ids.append(nz)
            codes.append(np.full(len(nz), 2 * k + (sign > 0), np.int64))
            amounts.append(sign * col[nz])
    row_id = np.concatenate(row_ids) if row_ids else np.zeros(0, np.int64)
    code = np.concatenate(codes) if codes else np.zeros(0, np.int64)
    amount = np.concatenate(amounts) if amounts else np.zeros(0, np.int64)
    order = np.lexsort((code, row_id))
    row_id, code, amount = row_id[order], code[order], amount[order]
    chunk.payments = {"match": chunk.match[row_id], "deal": chunk.column("deal")[row_id],
                      "seat": chunk.column("seat")[row_id], "reason": (code // 2).astype(np.int8), "amount": amount}
    assert set(chunk.payments) == set(PAYMENT_COLUMNS)
    return chunk
