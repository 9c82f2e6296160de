"""The words both engines, the policies and the record layer share: payment reasons, the pool as a party, the deal
record's format, the Quinola's fates, an illegal play, one movement of chips and one trick.

This module holds names and small pure functions only. The numba kernels freeze the numeric codes defined here
(the index of a reason in :data:`REASONS`, the ``FATE_*`` codes) into their compiled code, so it is one of the files
the kernel cache watches (:mod:`reversis_sim.kernel.jit`): keep it small.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from .. import cards as C
from ..rules import Rules

FORMAT = "reversis-deal/1"
"""The ``format`` field of a deal record (RULES.md Appendix A)."""

POOL = "pool"
"""The pool as a party of a payment: ``Payment.payer`` / ``payee`` is a seat number or this."""

REASONS = ("ante", "ace_dumped", "ace_forced", "ace_led", "quinola_dumped", "quinola_forced", "quinola_led",
           "pool_double", "pool_won", "party", "reversis_made", "reversis_broken", "return", "espagnolette",
           "quinola_captured", "penalty", "bete", "bete_share", "pool_to_winner", "reversis_pool",
           "espagnolette_made", "espagnolette_pool", "espagnolette_failed", "espagnolette_reversis", "bank_double")
"""Payment reasons (Appendix A, F5). A reason's code is its index here: the kernels and the run table number them
in this order, so new reasons go at the end."""

QUINOLA_RECEIVED = ("quinola_dumped", "quinola_forced", "quinola_led", "pool_won")
QUINOLA_PAID = ("quinola_dumped", "quinola_forced", "quinola_led", "pool_double", "quinola_captured")
"""What the J♥ moves to or from a seat in a deal, its ``quinola_net`` (run table): the seat received, minus what it
paid, with these reasons: the Quinola's side payments, a pool won by the dumped J♥, a pool doubling paid, and the
capture surcharge of the ``modern`` family (pot + 4, A22)."""

DUMP_REASONS = ("ace_dumped", "quinola_dumped")
"""The payments a failed espagnolette returns (R41), with a pool won by a dumped J♥."""

FATES = ("talon", "dumped", "forced", "led")
"""What became of the J♥ in a deal (RULES.md §1.7; ``talon`` = never played, R27); a fate's code is its index."""
FATE_TALON, FATE_DUMPED, FATE_FORCED, FATE_LED = range(len(FATES))
FATE_MEANINGS = {
    "talon": "never played: it lay in the talon, or was discarded to it",
    "dumped": "thrown on a trick of another suit by a seat void in it, which takes the pool",
    "forced": "played to a heart lead: its holder pays the leader and doubles the pool",
    "led": "led by its holder, who doubles the pool",
}
"""What each fate means, in a newcomer's words (the run summary prints them)."""


class IllegalPlay(ValueError):
    """A policy (or a scripted deal) chose a card or discard the rules do not allow."""


@dataclass(frozen=True)
class Payment:
    """One movement of chips. ``payer``/``payee`` is a seat number or :data:`POOL`; ``trick`` is 1-based or None
    (a payment at the deal's start or at settlement)."""

    trick: int | None
    payer: int | str
    payee: int | str
    amount: int
    reason: str

    def to_json(self) -> dict:
        return {"trick": self.trick, "from": self.payer, "to": self.payee, "amount": self.amount,
                "reason": self.reason}


@dataclass(frozen=True)
class TrickRecord:
    """One trick: its leader, the cards in playing order from the leader, and the seat that won it."""

    leader: int
    cards: tuple[int, ...]
    winner: int


def quinola_fate(tricks: Iterable[Sequence[int]]) -> tuple[int, int]:
    """(fate code, 1-based trick) of the J♥, given the cards of each trick in playing order from the leader.

    Led: it opened the trick. Forced (A7): a non-leader played it to a heart lead. Dumped (placed): a non-leader
    played it to a lead of another suit. Talon: it was never played (0 for the trick)."""
    for t, cards in enumerate(tricks, start=1):
        if C.QUINOLA in cards:
            i = list(cards).index(C.QUINOLA)
            if i == 0:
                return FATE_LED, t
            return (FATE_FORCED if C.suit_of(cards[0]) == C.HEARTS else FATE_DUMPED), t
    return FATE_TALON, 0


def espagnolette_eligible(rules: Rules, hand: Sequence[int]) -> bool:
    """R38: four Aces, or the Quinola and three Aces (other presets add their own hands)."""
    n_aces = sum(1 for c in hand if C.rank_of(c) == C.RANK_ACE)
    has_quinola = C.QUINOLA in hand
    n_kings = sum(1 for c in hand if C.rank_of(c) == C.RANK_KING)
    tests = {
        "four_aces": n_aces == 4,
        "JH_plus_three_aces": has_quinola and n_aces >= 3,
        "four_aces_plus_JH": has_quinola and n_aces == 4,
        "three_aces_plus_king": n_aces == 3 and n_kings >= 1,
    }
    return any(tests[h] for h in rules.espagnolette_hands)


def dealer_of(rules: Rules, deal: int) -> int:
    """R4: deal 0 is dealt by seat 0; the deal then passes by ``dealer_step`` (to the right in ``parlett``)."""
    return (deal * rules.dealer_step) % rules.n_seats
