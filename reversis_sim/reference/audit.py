"""Settling a given deal card by card: how a user audits a real game, and how the golden records are checked."""

from __future__ import annotations

from .. import cards as C
from ..game import IllegalPlay
from ..policies import SeatView
from ..rules import Rules
from .match import play_deal
from .table import Layout, playing_order


class ScriptedPolicy:
    """Plays the decisions written in a deal record: its exchange, its declaration and its cards in order."""

    def __init__(self, exchange: int | None, declares: bool, goal: str | None, cards_by_trick: list[int | None]):
        self._exchange, self._declares, self._goal, self._cards = exchange, declares, goal, cards_by_trick

    def exchange(self, view: SeatView) -> int | None:
        return self._exchange

    def declare_espagnolette(self, view: SeatView) -> bool:
        return self._declares

    def espagnolette_goal(self, view: SeatView) -> str | None:
        return self._goal

    def play(self, view: SeatView, legal: tuple[int, ...]) -> int:
        card = self._cards[view.trick_index]
        if card is None:
            raise IllegalPlay(f"trick {view.trick_index + 1}: the record has no card for seat {view.seat}")
        return card


def settle_record(record: dict, rules: Rules) -> dict:
    """Re-play a deal record's cards and decisions through the engine and return the engine's own record.

    Uses ``dealt``, ``talon_offered``, ``exchanges``, ``espagnolette`` and the cards of each trick (each seat's card
    in trick t is read with the record's leaders); the engine decides legality, winners and every payment.
    """
    n = rules.n_seats

    def parse(x):
        return None if x is None else C.parse(x)

    layout = Layout([[C.parse(x) for x in h] for h in record["dealt"]],
                    [parse(x) for x in record["talon_offered"]])
    exchange: list[int | None] = [None] * n
    for e in record["exchanges"]:
        exchange[e["seat"]] = parse(e["discard"])
    esp = record.get("espagnolette")
    declarer = esp if isinstance(esp, int) or esp is None else esp["seat"]
    goal = esp.get("goal") if isinstance(esp, dict) else None
    cards: list[list[int | None]] = [[None] * len(record["tricks"]) for _ in range(n)]
    for t, tr in enumerate(record["tricks"]):
        order = playing_order(rules, record["dealer"], tr["leader"])
        for seat, card in zip(order, tr["cards"]):
            cards[seat][t] = C.parse(card)
    policies = [ScriptedPolicy(exchange[s], s == declarer, goal, cards[s]) for s in range(n)]
    out = play_deal(rules, policies, seed=record.get("run_seed", 0), match=record.get("match", 0),
                    deal=record.get("deal", 0), dealer=record["dealer"], pool_before=record["pool_before"],
                    seat_names=record.get("seats"), layout=layout, double_ante=record.get("double_ante", False),
                    score_before=record.get("score_before"))
    if declarer is not None and out["espagnolette"] is None:  # R38: only an eligible hand may declare
        raise IllegalPlay(f"seat {declarer} may not declare the espagnolette: its hand at the first lead "
                          f"({' '.join(out['hands'][declarer])}) is not one of {', '.join(rules.espagnolette_hands)}"
                          + ("" if rules.espagnolette_enabled else f" (and {rules.name} has no espagnolette)"))
    return out
