"""Per-deal result columns: the common output of both engines' batch mode, and the input of the Parquet layer.

One row per deal. Per-seat values are ``(n_deals, n_seats)`` arrays; money by reason is
``(n_deals, n_parties, n_reasons)`` where party ``n_seats`` is the pool. :func:`from_records` builds the columns from
reference deal records; it is the oracle for the kernel's columns (a test requires them equal).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from . import cards as C
from .game import POOL, REASONS, espagnolette_eligible
from .game import quinola_fate as fate_of_tricks
from .rules import Rules

N_REASONS = len(REASONS)

#: name -> (dtype, per-seat?)  ``per-seat`` columns have shape (n, n_seats); money columns are listed apart.
DEAL_COLUMNS: dict[str, tuple[str, bool]] = {
    "match": ("int64", False),
    "deal": ("int16", False),
    "dealer": ("int8", False),
    "pool_before": ("int64", False),
    "pool_after": ("int64", False),
    "fish": ("int64", True),
    "card_points": ("int16", True),
    "tricks_won": ("int16", True),
    "hearts_at_lead": ("int8", True),  # hearts each seat held at the first lead
    "to_pool": ("int64", True),  # everything each seat paid into the pool this deal
    "from_pool": ("int64", True),  # everything each seat took out of the pool this deal
    "quinola_holder": ("int8", False),  # seat holding the J♥ at the first lead, -1 if in the talon
    "quinola_fate": ("int8", False),  # index into reversis_sim.game.FATES
    "quinola_trick": ("int8", False),  # 1-based trick the J♥ was played in, 0 if never
    "party_winner": ("int8", False),  # -1 if cancelled
    "party_loser": ("int8", False),  # -1 unless the preset has one payer
    "party_value": ("int16", False),  # bonus + talon points (paid or not)
    "reversis_seat": ("int8", False),  # committed seat, -1 if none
    "reversis_made": ("bool", False),
    "reversis_breaker": ("int8", False),
    "espagnolette_eligible": ("int8", False),  # the eligible seat after the exchange, -1 if none
    "espagnolette_seat": ("int8", False),  # the declarer, -1 if none
    "espagnolette_made": ("bool", False),
}
MONEY_COLUMNS = ("paid", "received")  # int64 (n, n_seats + 1, N_REASONS); party n_seats = the pool


def empty(n_deals: int, n_seats: int = 4) -> dict[str, np.ndarray]:
    """Zeroed columns for ``n_deals`` deals (the kernels fill arrays of exactly this layout)."""
    out = {}
    for name, (dtype, per_seat) in DEAL_COLUMNS.items():
        out[name] = np.zeros((n_deals, n_seats) if per_seat else n_deals, dtype=dtype)
    for name in MONEY_COLUMNS:
        out[name] = np.zeros((n_deals, n_seats + 1, N_REASONS), dtype="int64")
    return out


def quinola_fate(record: dict) -> tuple[int, int]:
    """(fate code, 1-based trick) of the J♥ in a deal record (:func:`reversis_sim.game.quinola_fate`)."""
    return fate_of_tricks([C.parse(c) for c in trick["cards"]] for trick in record["tricks"])


def from_records(records: Sequence[dict], rules: Rules) -> dict[str, np.ndarray]:
    """Columns of reference deal records of one rule set, in order."""
    n_seats = rules.n_seats
    out = empty(len(records), n_seats)
    pool = n_seats
    talon_points = rules.tables.talon_points
    for i, rec in enumerate(records):
        res = rec["result"]
        hands = [[C.parse(c) for c in h] for h in rec["hands"]]
        for name in ("match", "deal", "dealer", "pool_before"):
            out[name][i] = rec[name]
        out["pool_after"][i] = res["pool_after"]
        out["fish"][i] = res["fish"]
        out["card_points"][i] = res["card_points"]
        out["tricks_won"][i] = res["tricks_won"]
        out["hearts_at_lead"][i] = [sum(1 for c in h if C.suit_of(c) == C.HEARTS) for h in hands]
        out["quinola_holder"][i] = next((s for s, h in enumerate(hands) if C.QUINOLA in h), -1)
        out["quinola_fate"][i], out["quinola_trick"][i] = quinola_fate(rec)
        out["party_winner"][i] = -1 if res["party_winner"] is None else res["party_winner"]
        out["party_loser"][i] = -1 if res.get("party_loser") is None else res["party_loser"]
        out["party_value"][i] = rules.party_bonus + sum(talon_points[C.parse(c)] for c in rec["talon"])
        rv = res["reversis"]
        out["reversis_seat"][i] = -1 if rv is None else rv["seat"]
        out["reversis_made"][i] = bool(rv and rv["made"])
        out["reversis_breaker"][i] = -1 if rv is None or rv["breaker"] is None else rv["breaker"]
        eligible = [s for s, h in enumerate(hands) if espagnolette_eligible(rules, h)]
        out["espagnolette_eligible"][i] = eligible[0] if eligible and rules.espagnolette_enabled else -1
        esp = res["espagnolette"]
        out["espagnolette_seat"][i] = -1 if esp is None else esp["seat"]
        out["espagnolette_made"][i] = bool(esp and esp["made"])
        for p in rec["payments"]:
            k = REASONS.index(p["reason"])
            payer = pool if p["from"] == POOL else p["from"]
            payee = pool if p["to"] == POOL else p["to"]
            out["paid"][i, payer, k] += p["amount"]
            if payee == pool:
                out["to_pool"][i, payer] += p["amount"]
            if payer == pool:
                out["from_pool"][i, payee] += p["amount"]
            out["received"][i, payee, k] += p["amount"]
    return out
