"""The deal record (RULES.md Appendix A), built in one place from a deal's outcome.

Both engines describe a finished deal as a :class:`DealOutcome` (the cards, the decisions, every payment in order,
and the few verdicts of the settlement: the reversis, the espagnolette, the party or deal winner, the loser or the
bête) and :func:`deal_record` turns it into the JSON-ready record. Everything that follows from the outcome is
derived here once: each seat's fish and the pool after the deal (from the payments), card points and tricks won
(from the tricks), the ``modern`` penalty (card points and the Quinola surcharge paid), the ``parlett_simple``
scores. ``tests/test_engine_agreement.py`` requires the two engines' records to be equal (==).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .. import cards as C
from ..rules import Rules
from .vocabulary import FATE_TALON, FORMAT, POOL, Payment, TrickRecord, quinola_fate


@dataclass(frozen=True)
class Exchange:
    """One talon decision (R13, R14, F3.2): the seat, the card it discarded (None: it kept its hand and only looked
    at its talon card), and whether it took its talon card."""

    seat: int
    discard: int | None
    took: bool


@dataclass(frozen=True)
class Reversis:
    """The reversis of a deal (R34, G9): the committed seat, whether he won every trick, and the breaker."""

    seat: int
    made: bool
    breaker: int | None


@dataclass(frozen=True)
class DealOutcome:
    """A finished deal, as either engine knows it.

    Cards are card codes; ``dealt`` and ``hands`` (at the first lead) have one list per seat (empty for a dealer who
    sits out); ``talon_offered`` the card before each seat (None: none); ``talon`` the four talon cards in exchange
    order. ``declarer``/``goal``: the espagnolette declaration (goal in the ``modern`` family, F1.4);
    ``espagnolette_made``: its verdict at settlement. ``party_winner``: the party or deal winner (None where a made
    reversis cancelled the party); ``party_loser``: the one payer of a ``loser_only`` party; ``bete``: the seat that
    paid the bête (penalty and bank scoring). ``double_ante``: ``serbian``'s doubled antes (F3.3); ``score_before``:
    ``parlett_simple``'s running totals before the deal (F4.3).
    """

    rules: Rules
    seats: Sequence[str]
    seed: int
    match: int
    deal: int
    dealer: int
    pool_before: int
    dealt: Sequence[Sequence[int]]
    talon_offered: Sequence[int | None]
    exchanges: Sequence[Exchange]
    talon: Sequence[int]
    hands: Sequence[Sequence[int]]
    declarer: int | None
    goal: str | None
    tricks: Sequence[TrickRecord]
    payments: Sequence[Payment]
    reversis: Reversis | None
    espagnolette_made: bool
    party_winner: int | None
    party_loser: int | None = None
    bete: int | None = None
    double_ante: bool = False
    score_before: Sequence[int] | None = None


def card_points(rules: Rules, tricks: Sequence[TrickRecord]) -> tuple[list[int], list[int]]:
    """(card points, tricks won) of each seat (R7, R28)."""
    points, won = [0] * rules.n_seats, [0] * rules.n_seats
    for tr in tricks:
        won[tr.winner] += 1
        points[tr.winner] += sum(rules.tables.trick_points[c] for c in tr.cards)
    return points, won


def fish_and_pool(n_seats: int, pool_before: int, payments: Sequence[Payment]) -> tuple[list[int], int]:
    """(each seat's net chips, the pool after) from the payments of a deal."""
    fish, pool = [0] * n_seats, pool_before
    for p in payments:
        if p.payer == POOL:
            pool -= p.amount
        else:
            fish[p.payer] -= p.amount
        if p.payee == POOL:
            pool += p.amount
        else:
            fish[p.payee] += p.amount
    return fish, pool


def simple_scores(rules: Rules, tricks: Sequence[TrickRecord], points: Sequence[int]) -> list[int]:
    """F4.3, ``parlett_simple``: each seat scores its card points, plus ``simple_quinola_extra`` for taking the J♥."""
    score = list(points)
    fate, t = quinola_fate(tr.cards for tr in tricks)
    if fate != FATE_TALON:
        score[tricks[t - 1].winner] += rules.simple_quinola_extra
    return score


def rules_of(record: dict) -> Rules:
    """The rule set a deal record was played under (its ``rules`` name and resolved ``rules_params``)."""
    return Rules.from_params(record["rules"], record["rules_params"])


def deal_record(o: DealOutcome) -> dict:
    """The JSON-ready deal record (Appendix A) of ``o``, with the ``result`` fields of its scoring family."""
    r = o.rules
    points, won = card_points(r, o.tricks)
    fish, pool_after = fish_and_pool(r.n_seats, o.pool_before, o.payments)
    result: dict = {"fish": fish, "pool_after": pool_after, "card_points": points, "tricks_won": won,
                    "party_winner": o.party_winner,
                    "reversis": None if o.reversis is None else {"seat": o.reversis.seat, "made": o.reversis.made,
                                                                 "breaker": o.reversis.breaker}}
    esp = None
    if o.declarer is not None and r.scoring != "simple":  # simple scoring reports no espagnolette (F4.3)
        esp = {"seat": o.declarer}
        if o.goal is not None:
            esp["goal"] = o.goal
        esp["made"] = bool(o.espagnolette_made)
    result["espagnolette"] = esp
    if r.scoring == "party" and r.party_payers == "loser_only":
        result["party_loser"] = o.party_loser
    if r.scoring in ("penalty", "bank"):
        result["bete"] = o.bete
    if r.scoring == "penalty":  # F1.4 step 5, G10: card points + the Quinola surcharge paid (if any)
        result["penalty"] = [points[s] + sum(p.amount for p in o.payments
                                             if p.reason == "quinola_captured" and p.payer == s)
                             for s in range(r.n_seats)]
    if r.scoring == "simple":
        before = list(o.score_before) if o.score_before is not None else [0] * r.n_seats
        result["score"] = simple_scores(r, o.tricks, points)
        result["score_after"] = [b + x for b, x in zip(before, result["score"])]
    declaration = None if o.declarer is None else {"seat": o.declarer}
    if declaration is not None and o.goal is not None:
        declaration["goal"] = o.goal  # F0.10
    record = {
        "format": FORMAT,
        "rules": r.name,
        "rules_params": r.to_params(),
        "run_seed": o.seed, "match": o.match, "deal": o.deal,
        "dealer": o.dealer,
        "seats": list(o.seats),
        "pool_before": o.pool_before,
        "dealt": [C.names(sorted(h)) for h in o.dealt],
        "talon_offered": [None if c is None else C.name(c) for c in o.talon_offered],
        "exchanges": [{"seat": e.seat, "discard": None if e.discard is None else C.name(e.discard), "took": e.took}
                      for e in o.exchanges],
        "talon": C.names(o.talon),
        "hands": [C.names(sorted(h)) for h in o.hands],
        "espagnolette": declaration,
        "tricks": [{"leader": tr.leader, "cards": C.names(tr.cards), "winner": tr.winner} for tr in o.tricks],
        "payments": [p.to_json() for p in o.payments],
        "result": result,
    }
    if r.double_ante_after_placement:
        record["double_ante"] = bool(o.double_ante)  # F5
    if r.scoring == "simple":
        record["score_before"] = list(o.score_before) if o.score_before is not None else [0] * r.n_seats
    return record


MISSING = object()
"""A field one side of :func:`difference` does not have."""


def difference(a, b, path: str = "") -> tuple[str, object, object] | None:
    """Where two deal records (or any JSON-like values) first differ: (the dotted path, with list indices,
    ``result.fish[2]``; the value in ``a``; the value in ``b``), :data:`MISSING` for a field one side lacks, the
    lists themselves where their lengths differ; None when they are equal (types included)."""
    if isinstance(a, dict) and isinstance(b, dict):
        for k in list(b) + [k for k in a if k not in b]:
            where = f"{path}.{k}" if path else str(k)
            if k not in a or k not in b:
                return where, a.get(k, MISSING), b.get(k, MISSING)
            d = difference(a[k], b[k], where)
            if d:
                return d
        return None
    if isinstance(a, list) and isinstance(b, list):
        for i, (x, y) in enumerate(zip(a, b)):
            d = difference(x, y, f"{path}[{i}]")
            if d:
                return d
        return None if len(a) == len(b) else (path, a, b)
    if a != b or type(a) is not type(b):
        return path, a, b
    return None


def first_difference(a, b, path: str = "", names: tuple[str, str] = ("kernel", "reference")) -> str | None:
    """Where two deal records (or any JSON-like values) first differ, as ``path: first ... != second ...``; None
    when they are equal (types included). ``names`` label the two sides in the message."""
    d = difference(a, b)
    if d is None:
        return None
    where, x, y = d
    where = f"{path}.{where}" if where else path
    if x is MISSING or y is MISSING:
        return f"{where}: present only in the {names[1] if x is MISSING else names[0]} record"
    if isinstance(x, list) and isinstance(y, list) and len(x) != len(y):
        return f"{where}: {names[0]} has {len(x)} items, {names[1]} {len(y)}"
    return f"{where}: {names[0]} {x!r} != {names[1]} {y!r}"
