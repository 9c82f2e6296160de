"""A run folder of schema version 1, written as reversis_sim wrote it before version 2 (one table with a
``paid_<reason>`` and a ``received_<reason>`` column per reason), from the reference engine's deal records: the
fixture of the upgrade tests, built without the code under test."""

from __future__ import annotations

import json

import pyarrow as pa
import pyarrow.parquet as pq

from reversis_sim import cards as C
from reversis_sim import reference
from reversis_sim.columns import quinola_fate
from reversis_sim.game import FATES, REASONS, espagnolette_eligible
from reversis_sim.policies import parse_seats
from reversis_sim.record import RunSpec, new_manifest

V1_FIXED = [
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
V1_SCHEMA = pa.schema(V1_FIXED + [(f"{way}_{r}", pa.int64()) for r in REASONS for way in ("paid", "received")])


def v1_rows(records, rules, seats):
    """The version-1 rows (dicts) of deal records."""
    ns = rules.n_seats
    for rec in records:
        res = rec["result"]
        hands = [[C.parse(c) for c in h] for h in rec["hands"]]
        fate, trick = quinola_fate(rec)
        rv, esp = res["reversis"], res["espagnolette"]
        eligible = [s for s, h in enumerate(hands) if espagnolette_eligible(rules, h)]
        for s in range(ns):
            row = {"match": rec["match"], "deal": rec["deal"], "seat": s, "dealer": rec["dealer"],
                   "position": (s - rec["dealer"]) % ns, "policy": seats[s], "fish": res["fish"][s],
                   "card_points": res["card_points"][s], "tricks_won": res["tricks_won"][s],
                   "hearts_at_lead": sum(1 for c in hands[s] if C.suit_of(c) == C.HEARTS),
                   "to_pool": sum(p["amount"] for p in rec["payments"] if p["from"] == s and p["to"] == "pool"),
                   "from_pool": sum(p["amount"] for p in rec["payments"] if p["to"] == s and p["from"] == "pool"),
                   "pool_before": rec["pool_before"], "pool_after": res["pool_after"],
                   "quinola_holder": next((k for k, h in enumerate(hands) if C.QUINOLA in h), -1),
                   "quinola_fate": FATES[fate], "quinola_trick": trick,
                   "party_winner": -1 if res["party_winner"] is None else res["party_winner"],
                   "party_loser": -1 if res.get("party_loser") is None else res["party_loser"],
                   "party_value": rules.party_bonus + sum(rules.tables.talon_points[C.parse(c)] for c in rec["talon"]),
                   "reversis_seat": -1 if rv is None else rv["seat"], "reversis_made": bool(rv and rv["made"]),
                   "reversis_breaker": -1 if rv is None or rv["breaker"] is None else rv["breaker"],
                   "espagnolette_eligible": eligible[0] if eligible and rules.espagnolette_enabled else -1,
                   "espagnolette_seat": -1 if esp is None else esp["seat"],
                   "espagnolette_made": bool(esp and esp["made"])}
            for r in REASONS:
                row[f"paid_{r}"] = sum(p["amount"] for p in rec["payments"] if p["from"] == s and p["reason"] == r)
                row[f"received_{r}"] = sum(p["amount"] for p in rec["payments"] if p["to"] == s and p["reason"] == r)
            yield row


def write_v1_folder(out, spec: RunSpec, rules) -> None:
    """A complete version-1 run folder of ``spec`` (played by the reference engine)."""
    out.mkdir(parents=True)
    identity = {**spec.identity(), "schema_version": 1}
    seats = parse_seats(spec.seats, rules.n_seats)
    for chunk in range(spec.n_chunks):
        first, n = spec.chunk_range(chunk)
        records = [r for m in range(first, first + n) for r in reference.play_match(rules, seats, seed=spec.seed,
                                                                                     match=m,
                                                                                     n_deals=spec.match_deals)]
        rows = list(v1_rows(records, rules, spec.seats))
        meta = {"run": identity, "chunk": chunk, "rows": len(rows), "matches": [first, first + n - 1]}
        table = pa.Table.from_pylist(rows, schema=V1_SCHEMA.with_metadata({b"reversis_sim.run": json.dumps(meta)}))
        pq.write_table(table, out / f"part-{chunk:05d}.parquet", compression="zstd")
    manifest = {**new_manifest(spec), **identity, "format": "reversis-run/1",
                "completed_chunks": list(range(spec.n_chunks))}
    (out / "manifest.json").write_text(json.dumps(manifest))
