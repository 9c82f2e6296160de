"""The table and the cards before any decision: who plays after whom, the legal cards, the trick winner, the deal.

Each function is the literal reading of its rule (RULES.md §1), for the reference engine.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .. import cards as C
from .. import keys
from ..constraints import ACCEPTANCE_MATCH, MAX_ATTEMPTS, N_SEAT_SLOTS, ConstraintError, Deals
from ..rules import Rules


def trick_winner(rules: Rules, leader: int, played: Sequence[int], order: Sequence[int]) -> int:
    """R19: the highest card of the suit led wins (strength from the preset's rank order).

    ``order`` is the seats in playing order from the leader, ``played`` their cards.
    """
    strength = rules.tables.strength
    led = C.suit_of(played[0])
    best = 0
    for i, card in enumerate(played):
        if C.suit_of(card) == led and strength[card] > strength[played[best]]:
            best = i
    return order[best]


def legal_cards(rules: Rules, hand: Sequence[int], trick_index: int, current: Sequence[int],
                is_declarer: bool) -> tuple[int, ...]:
    """R18, R20, R39: the cards a seat may play, sorted by card code."""
    hand = sorted(hand)
    if not current:
        # R20: no restriction on leads, except the Encyclopédie's option for the first lead.
        if rules.first_lead_rule == "heart_if_able" and trick_index == 0:
            hearts = [c for c in hand if C.suit_of(c) == C.HEARTS]
            if hearts:
                return tuple(hearts)
        return tuple(hand)
    # R39: the espagnolette declarer may refuse to follow in the first tricks.
    if is_declarer and trick_index < rules.espagnolette_renounce_tricks:
        return tuple(hand)
    # R18: follow suit if able, otherwise any card.
    led = C.suit_of(current[0])
    follow = [c for c in hand if C.suit_of(c) == led]
    return tuple(follow or hand)


def eldest(rules: Rules, dealer: int) -> int:
    """R3, R17: the eldest is the dealer's right-hand neighbour, d+1 (skipping nobody at a four-seat table)."""
    return (dealer + 1) % rules.n_seats


def playing_order(rules: Rules, dealer: int, first: int) -> list[int]:
    """Seats taking part, in playing order starting with ``first`` (F0.2)."""
    seats = [(first + k) % rules.n_seats for k in range(rules.n_seats)]
    return [s for s in seats if not (rules.dealer_sits_out and s == dealer)]


def active_seats(rules: Rules, dealer: int) -> list[int]:
    """The seats taking part in a deal, by number (a dealer who sits out does not, F1.6)."""
    return [s for s in range(rules.n_seats) if not (rules.dealer_sits_out and s == dealer)]


@dataclass
class Layout:
    """The cards of a deal before any decision: each seat's dealt hand, and the talon card before each seat."""

    dealt: list[list[int]]
    talon_offered: list[int | None]
    shuffles: int = 1  # shuffles drawn for it (more where a --where condition rejected some)


def deal_cards(rules: Rules, seed: int, match: int, deal: int, dealer: int, deals: Deals | None = None) -> Layout:
    """R11, R12: shuffle by key, then deal each hand in playing order from the eldest, then the talon cards.

    ``deals``: the predealt cards go to their seats first and the rest of the deck is shuffled and dealt
    into the remaining places; a ``where`` condition the dealt hands miss draws the shuffle again, keyed by the
    attempt (:data:`reversis_sim.constraints.MAX_ATTEMPTS` at most). Without constraints, the deal is the keyed
    shuffle of attempt 0, as it always was."""
    if deals is None or not deals.constrained:
        return _deal_once(rules, seed, match, deal, dealer, [0] * rules.n_seats, 0)
    for attempt in range(MAX_ATTEMPTS):
        layout = _deal_once(rules, seed, match, deal, dealer, deals.predeal.masks, attempt)
        if _meets(rules, deals, layout):
            layout.shuffles = attempt + 1
            return layout
    raise ConstraintError(f"match {match} deal {deal}: no deal met --where {deals.where.text!r} in {MAX_ATTEMPTS:,} "
                          f"shuffles")


def _meets(rules: Rules, deals: Deals, layout: Layout) -> bool:
    """Whether the dealt hands meet the ``where`` condition: the program reads each seat's hand (slots of absent
    seats empty), then the talon, every card no hand was dealt."""
    hands = [C.mask(h) for h in layout.dealt] + [0] * (N_SEAT_SLOTS - rules.n_seats)
    talon = C.mask(rules.tables.deck) & ~C.mask(c for h in layout.dealt for c in h)
    return deals.accepts([*hands, talon])


def _deal_once(rules: Rules, seed: int, match: int, deal: int, dealer: int, predeal: Sequence[int],
               attempt: int) -> Layout:
    """One keyed shuffle (attempt ``attempt``) of the cards not predealt, dealt around the predealt ones."""
    placed = 0
    for m in predeal:
        placed |= m
    deck = keys.shuffled([c for c in rules.tables.deck if not placed >> c & 1], seed, match, deal, attempt)
    order = playing_order(rules, dealer, eldest(rules, dealer))
    dealt: list[list[int]] = [[] for _ in range(rules.n_seats)]
    pos = 0
    for seat in order:
        size = rules.hand_size + (1 if seat == dealer and rules.dealer_extra_card else 0)
        mine = C.from_mask(predeal[seat])
        dealt[seat] = sorted(mine + deck[pos:pos + size - len(mine)])
        pos += size - len(mine)
    offered: list[int | None] = [None] * rules.n_seats
    if rules.talon_mode != "none":
        for seat in order:
            if seat != dealer:
                offered[seat] = deck[pos]
                pos += 1
    return Layout(dealt, offered)


def acceptance(rules: Rules, deals: Deals, n: int = 20_000, seed: int = 0) -> list[tuple[int, int]]:
    """How often one shuffle meets the constraints, by dealer: ``[(passed, tried), ...]`` for each seat as the
    dealer, ``n`` shuffles in all (keyed by ``seed``, apart from any run's keys: match numbers from
    ``ACCEPTANCE_MATCH``). A dealer with no pass is a condition the run cannot meet when that seat deals."""
    out = []
    per_dealer = max(1, n // rules.n_seats)
    for dealer in range(rules.n_seats):
        passed = 0
        for k in range(per_dealer):
            layout = _deal_once(rules, seed, ACCEPTANCE_MATCH + k, dealer, dealer, deals.predeal.masks, 0)
            passed += _meets(rules, deals, layout)
        out.append((passed, per_dealer))
    return out

