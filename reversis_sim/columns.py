"""A chunk of deals as both engines return it: the run table's two tables (declared once below, :data:`SEAT_TABLE`
and :data:`PAYMENTS_TABLE`; ``docs/schema.md``) in the very layout their Arrow columns take, so that writing a part file
copies nothing.

- **Seat rows**: one row per (deal, seat), deals in (match, deal) order and seats in order inside a deal (row
  ``deal_index * n_seats + seat``). The columns live in four blocks by dtype, one block row per column
  (:data:`I8`, :data:`I16`, :data:`I64`, and ``match`` alone as ``uint32``), so each column is one contiguous array.
  Per-deal values (the pool, the Quinola, the party, the reversis, the espagnolette) repeat on each seat's row.
- **Payments**: one row per non-zero (deal, seat, reason, direction): what a seat received with a reason (a positive
  ``amount``) or paid (negative), summed over the deal. A seat's amounts add up to its ``fish``; the pool is not a
  row's seat (its flows are the seats' ``to_pool`` and ``from_pool``). Rows come in deal order and, inside a deal,
  by seat, then reason code, paid before received.

:func:`from_records` builds a chunk from reference deal records: the oracle for the kernel's chunks (a test requires
them equal, array for array). The numba engine fills the blocks directly (:mod:`reversis_sim.numba_engine.rows`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from . import cards as C
from .game import POOL, QUINOLA_PAID, QUINOLA_RECEIVED, REASONS, espagnolette_eligible
from .game import quinola_fate as fate_of_tricks
from .rules import Rules

N_REASONS = len(REASONS)


@dataclass(frozen=True)
class Column:
    """One column of the run table, declared once: the engines' blocks, the Arrow schema
    (:mod:`reversis_sim.record.schema`) and the tables of ``docs/schema.md`` (``tests/test_schema_doc.py`` holds the
    doc to it) follow from it.

    ``store``: the dtype the engines keep it in (``int8``, ``int16``, ``int64``: the blocks :data:`I8`, :data:`I16`,
    :data:`I64` in table order; ``uint32``: ``match``, its own array; empty: written from the seats' specs at the
    write, ``policy``); ``dtype``: the Parquet column's type as the doc writes it; ``per_seat``: whether the seats of
    a deal differ in it (every other column is the deal's, repeated on each seat's row); ``unit`` and ``meaning``:
    the doc's cells."""

    name: str
    store: str
    dtype: str
    per_seat: bool
    unit: str
    meaning: str


SEAT_TABLE = (
    Column("match", "uint32", "uint32", False, "",
           "match number (the sampling unit: deals of one match share the pool)"),
    Column("deal", "int16", "int16", False, "", "deal number within the match, 0-based"),
    Column("seat", "int8", "int8", True, "",
           "seat number in playing order (seat s+1 plays after s; s+2 sits opposite)"),
    Column("dealer", "int8", "int8", False, "", "the dealer's seat for this deal"),
    Column("position", "int8", "int8", True, "", "(seat − dealer) mod seats: 0 dealer, 1 eldest (leads first), 2, 3"),
    Column("policy", "", "dictionary<int8, string>", True, "",
           "the seat's policy spec, canonical (`avoid:duck=0`); dictionary-encoded"),
    Column("fish", "int64", "int64", True, "fish", "the seat's net chips this deal (received − paid, Appendix A)"),
    Column("card_points", "int16", "int16", True, "points",
           "card points taken in tricks (R7; the preset's trick values)"),
    Column("tricks_won", "int8", "int8", True, "tricks", "tricks taken"),
    Column("hearts_at_lead", "int8", "int8", True, "cards", "hearts held at the first lead (after the exchange)"),
    Column("to_pool", "int64", "int64", True, "fish",
           "everything the seat paid into the pool this deal (antes, doublings, returns, penalties)"),
    Column("from_pool", "int64", "int64", True, "fish", "everything the seat took out of the pool this deal"),
    Column("quinola_net", "int64", "int64", True, "fish",
           "what the J♥ moved to (+) or from (−) the seat this deal: received minus paid with the reasons "
           "`quinola_dumped`, `quinola_forced`, `quinola_led` and `pool_won` (received) and `quinola_*`, "
           "`pool_double`, `quinola_captured` (paid) (`reversis_sim.game.QUINOLA_RECEIVED`, `QUINOLA_PAID`)"),
    Column("pool_before", "int64", "int64", False, "fish",
           "the pool before the deal (per deal, repeated on each seat's row)"),
    Column("pool_after", "int64", "int64", False, "fish", "the pool after the deal"),
    Column("quinola_holder", "int8", "int8", False, "",
           "the seat holding the J♥ at the first lead; −1 if it is in the talon"),
    Column("quinola_fate", "int8", "dictionary<int8, string>", False, "",
           "`dumped` (placed on another suit), `forced` (played to a heart lead), `led`, or `talon`"),
    Column("quinola_trick", "int8", "int8", False, "", "1-based trick the J♥ was played to; 0 if never played"),
    Column("party_winner", "int8", "int8", False, "",
           "the party (deal) winner; −1 when cancelled (a made reversis; a made modern espagnolette)"),
    Column("party_loser", "int8", "int8", False, "",
           "the seat that paid the party where only one pays (`loser_only` presets); −1 otherwise"),
    Column("party_value", "int16", "int16", False, "fish", "party bonus + the talon's points (R31), paid or not"),
    Column("reversis_seat", "int8", "int8", False, "", "the seat committed to the reversis (R34); −1 if none"),
    Column("reversis_made", "int8", "bool", False, "", "the committed seat won every trick"),
    Column("reversis_breaker", "int8", "int8", False, "",
           "the winner of the first trick the committed seat lost after the commitment (G9); −1"),
    Column("espagnolette_eligible", "int8", "int8", False, "",
           "the seat whose hand qualifies for the espagnolette (R38) at the first lead; −1"),
    Column("espagnolette_seat", "int8", "int8", False, "", "the declarer; −1 if none"),
    Column("espagnolette_made", "int8", "bool", False, "",
           "the declaration succeeded (false also when a made reversis voided it, A16)"),
    Column("hand", "int64", "uint64", True, "cards",
           "the seat's hand as dealt, before the exchange: bit `c` for card `c` (0 for a seat that sits out); "
           "the last column of the table"),
)
"""The seat table, one row per (deal, seat), in table order. A new column is one line here, its value in
:func:`from_records` and in the kernel's row writer (:mod:`reversis_sim.numba_engine.rows`), a new schema
version and its step in :mod:`reversis_sim.record.upgrade`."""
PAYMENTS_TABLE = (
    Column("match", "uint32", "uint32", True, "", "match number"),
    Column("deal", "int16", "int16", True, "", "deal number within the match"),
    Column("seat", "int8", "int8", True, "", "the seat that paid or received"),
    Column("policy", "", "dictionary<int8, string>", True, "", "the seat's policy spec (as in the seat table)"),
    Column("reason", "int8", "dictionary<int8, string>", True, "",
           "the payment reason (below; Appendix A of RULES.md and §3 F5)"),
    Column("amount", "int64", "int64", True, "fish",
           "received (+) or paid (−), summed over the deal's payments of this seat, reason and direction"),
)
"""The payments table, one row per non-zero (deal, seat, reason, direction), in table order."""

I8 = tuple(c.name for c in SEAT_TABLE if c.store == "int8")
"""The ``int8`` block's columns, in block order (``reversis_made`` and ``espagnolette_made`` are 0/1, read as
``bool``; ``quinola_fate`` is an index into :data:`reversis_sim.game.FATES`)."""
I16 = tuple(c.name for c in SEAT_TABLE if c.store == "int16")
"""The ``int16`` block: deals per match are at most 10,000, card points and the party's value far below 32,767."""
I64 = tuple(c.name for c in SEAT_TABLE if c.store == "int64")
"""The ``int64`` block, the chips: a pool that doubles (R25) can double in every deal of a match, so no narrower
type holds every match the rules allow (the kernel refuses a pool past 2**56, where a doubling could overflow);
and ``hand``, the seat's hand as dealt, a card mask (bit ``c`` for card ``c``; every code is below 63, so the
mask is a non-negative ``int64``; the Parquet column is ``uint64``)."""
BOOLS = tuple(c.name for c in SEAT_TABLE if c.dtype == "bool")
PER_SEAT = frozenset(c.name for c in SEAT_TABLE if c.per_seat and c.store)
"""The columns that differ between the seats of a deal; every other column is the deal's, on each seat's row."""
SEAT_COLUMNS = tuple(c.name for c in SEAT_TABLE if c.store)
"""Every seat-row column the engines fill, in table order (the Parquet schema adds ``policy`` after ``position``)."""
PAYMENT_COLUMNS = {c.name: c.store for c in PAYMENTS_TABLE if c.store}
"""The payments' columns the engines fill and their dtypes (``reason``: an index into
:data:`reversis_sim.game.REASONS`)."""
_BLOCK = {**{n: ("i8", k) for k, n in enumerate(I8)}, **{n: ("i16", k) for k, n in enumerate(I16)},
          **{n: ("i64", k) for k, n in enumerate(I64)}}
assert sorted(SEAT_COLUMNS) == sorted([*_BLOCK, "match"])


@dataclass
class Chunk:
    """The deals of some matches, as seat rows (blocks ``match``, ``i8``, ``i16``, ``i64``) and payments."""

    n_seats: int
    match: np.ndarray  # uint32 (rows,)
    i8: np.ndarray  # int8 (len(I8), rows)
    i16: np.ndarray  # int16 (len(I16), rows)
    i64: np.ndarray  # int64 (len(I64), rows)
    payments: dict[str, np.ndarray]  # PAYMENT_COLUMNS, one array each
    shuffles: int = 0  # shuffles drawn for these deals (more than the deals where a --where condition rejected some)

    @property
    def n_rows(self) -> int:
        return len(self.match)

    @property
    def n_deals(self) -> int:
        return len(self.match) // self.n_seats

    def column(self, name: str) -> np.ndarray:
        """One seat-row column, ``(rows,)``, without a copy."""
        if name == "match":
            return self.match
        block, k = _BLOCK[name]
        col = getattr(self, block)[k]
        return col.view(np.bool_) if name in BOOLS else col

    def __getitem__(self, name: str) -> np.ndarray:
        """A column per deal: ``(deals, seats)`` for a per-seat column, ``(deals,)`` for the deal's own (views)."""
        col = self.column(name)
        return col.reshape(-1, self.n_seats) if name in PER_SEAT else col[::self.n_seats]

    def arrays(self) -> dict[str, np.ndarray]:
        """Every column of both tables, named (payments as ``payments.<name>``): for comparisons and tests."""
        out = {name: self.column(name) for name in SEAT_COLUMNS}
        out.update({f"payments.{k}": v for k, v in self.payments.items()})
        return out

    def keep_deals(self, keep: np.ndarray) -> Chunk:
        """The chunk restricted to the deals where ``keep`` (bool, one per deal) is true (payments of the other
        deals must already be absent)."""
        rows = np.repeat(keep, self.n_seats)
        return Chunk(self.n_seats, self.match[rows], self.i8[:, rows], self.i16[:, rows], self.i64[:, rows],
                     self.payments, self.shuffles)


def empty(n_deals: int, n_seats: int = 4, n_payments: int = 0) -> Chunk:
    """A zeroed chunk of ``n_deals`` deals and ``n_payments`` payment rows."""
    rows = n_deals * n_seats
    return Chunk(n_seats, np.zeros(rows, np.uint32), np.zeros((len(I8), rows), np.int8),
                 np.zeros((len(I16), rows), np.int16), np.zeros((len(I64), rows), np.int64),
                 {k: np.zeros(n_payments, dt) for k, dt in PAYMENT_COLUMNS.items()})


def concat(chunks: Sequence[Chunk]) -> Chunk:
    """Chunks of consecutive matches, as one."""
    if not chunks:
        raise ValueError("concat needs at least one chunk")
    return Chunk(chunks[0].n_seats, np.concatenate([c.match for c in chunks]),
                 np.concatenate([c.i8 for c in chunks], axis=1), np.concatenate([c.i16 for c in chunks], axis=1),
                 np.concatenate([c.i64 for c in chunks], axis=1),
                 {k: np.concatenate([c.payments[k] for c in chunks]) for k in PAYMENT_COLUMNS},
                 sum(c.shuffles for c in chunks))


def quinola_fate(record: dict) -> tuple[int, int]:
    """(fate code, 1-based trick) of the J♥ in a deal record (:func:`reversis_sim.game.quinola_fate`)."""
    return fate_of_tricks([C.parse(c) for c in trick["cards"]] for trick in record["tricks"])


def payment_rows(record: dict, n_seats: int) -> list[tuple[int, int, int]]:
    """A deal record's payment rows, (seat, reason code, amount): each seat's total paid (-) and received (+) by
    reason, non-zero ones only, by seat, then reason code, what was paid before what was received."""
    totals: dict[tuple[int, int, int], int] = {}
    for p in record["payments"]:
        k = REASONS.index(p["reason"])
        for party, sign in ((p["from"], -1), (p["to"], 1)):
            if party != POOL:
                totals[(party, k, sign)] = totals.get((party, k, sign), 0) + p["amount"]
    assert all(0 <= seat < n_seats for seat, _, _ in totals)
    return [(seat, k, sign * total) for (seat, k, sign), total in sorted(totals.items()) if total]


def quinola_net(record: dict, n_seats: int) -> list[int]:
    """What the J♥ moved to (+) or from (-) each seat in a deal record (:data:`reversis_sim.game.QUINOLA_PAID`)."""
    net = [0] * n_seats
    for p in record["payments"]:
        if p["reason"] in QUINOLA_RECEIVED and p["to"] != POOL:
            net[p["to"]] += p["amount"]
        if p["reason"] in QUINOLA_PAID and p["from"] != POOL:
            net[p["from"]] -= p["amount"]
    return net


def from_records(records: Sequence[dict], rules: Rules) -> Chunk:
    """The chunk of reference deal records of one rule set, in order."""
    ns = rules.n_seats
    talon_points = rules.tables.talon_points
    deal: dict[str, list] = {name: [] for name in SEAT_COLUMNS if name not in PER_SEAT}
    seat: dict[str, list] = {name: [] for name in PER_SEAT}
    pay: dict[str, list] = {k: [] for k in PAYMENT_COLUMNS}
    for rec in records:
        res = rec["result"]
        hands = [[C.parse(c) for c in h] for h in rec["hands"]]
        rv, esp = res["reversis"], res["espagnolette"]
        eligible = [s for s, h in enumerate(hands) if espagnolette_eligible(rules, h)]
        fate, trick = quinola_fate(rec)
        values = {
            "match": rec["match"], "deal": rec["deal"], "dealer": rec["dealer"], "pool_before": rec["pool_before"],
            "pool_after": res["pool_after"],
            "quinola_holder": next((s for s, h in enumerate(hands) if C.QUINOLA in h), -1),
            "quinola_fate": fate, "quinola_trick": trick,
            "party_winner": -1 if res["party_winner"] is None else res["party_winner"],
            "party_loser": -1 if res.get("party_loser") is None else res["party_loser"],
            "party_value": rules.party_bonus + sum(talon_points[C.parse(c)] for c in rec["talon"]),
            "reversis_seat": -1 if rv is None else rv["seat"], "reversis_made": bool(rv and rv["made"]),
            "reversis_breaker": -1 if rv is None or rv["breaker"] is None else rv["breaker"],
            "espagnolette_eligible": eligible[0] if eligible and rules.espagnolette_enabled else -1,
            "espagnolette_seat": -1 if esp is None else esp["seat"],
            "espagnolette_made": bool(esp and esp["made"]),
        }
        for name, v in values.items():
            deal[name].append(v)
        to_pool, from_pool = [0] * ns, [0] * ns
        for p in rec["payments"]:
            if p["to"] == POOL:
                to_pool[p["from"]] += p["amount"]
            if p["from"] == POOL:
                from_pool[p["to"]] += p["amount"]
        per_seat = {
            "seat": list(range(ns)), "position": [(s - rec["dealer"]) % ns for s in range(ns)],
            "fish": res["fish"], "card_points": res["card_points"], "tricks_won": res["tricks_won"],
            "hearts_at_lead": [sum(1 for c in h if C.suit_of(c) == C.HEARTS) for h in hands],
            "to_pool": to_pool, "from_pool": from_pool, "quinola_net": quinola_net(rec, ns),
            "hand": [C.mask(C.parse(c) for c in h) for h in rec["dealt"]],
        }
        for name, v in per_seat.items():
            seat[name].append(v)
        for s, k, amount in payment_rows(rec, ns):
            for name, v in (("match", rec["match"]), ("deal", rec["deal"]), ("seat", s), ("reason", k),
                            ("amount", amount)):
                pay[name].append(v)
    out = empty(len(records), ns, len(pay["match"]))
    for name in SEAT_COLUMNS:
        col = out.column(name)
        if name in PER_SEAT:
            col[...] = np.asarray(seat[name], dtype=np.int64).reshape(-1) if records else 0
        else:
            col[...] = np.repeat(np.asarray(deal[name], dtype=np.int64), ns) if records else 0
    for k, dt in PAYMENT_COLUMNS.items():
        out.payments[k][...] = np.asarray(pay[k], dtype=dt)
    out.shuffles = len(records)  # one shuffle a deal: the caller counts those of constrained deals
    return out
