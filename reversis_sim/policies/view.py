"""What a seat may know, and the interface every policy answers.

A policy sees its own hand, the cards played, the voids they revealed, the talon cards it knows (its own discard,
the card it looked at), the pool and the payments so far, and nothing else (the information discipline,
``tests/test_policies.py``). Engines build a :class:`SeatView` for each decision; policies never touch the engine's
state.
"""

from __future__ import annotations

from typing import NamedTuple, Protocol

from .. import cards as C
from .. import keys
from ..game import Payment, TrickRecord
from ..rules import Rules

DECLARE_PASS, DECLARE_LOSE_ALL, DECLARE_WIN_ALL = 0, 1, 2
"""The options of the declaration, as the kernels return them and a review names them: not to declare; to declare
(with the goal ``lose_all`` where the preset names one, F1.4); to declare with the goal ``win_all``."""


class SeatView(NamedTuple):
    """Everything seat ``seat`` may know when it decides (a named tuple: the reference engine makes one for each
    decision, and a frozen dataclass cost five times as much to make).

    ``hand`` and ``legal`` are sorted by card code. ``current`` holds the cards already played to the trick in
    progress, in playing order from ``leader``.
    """

    rules: Rules
    seat: int
    dealer: int
    hand: tuple[int, ...]
    trick_index: int  # 0-based trick in progress (0 before play)
    leader: int | None
    current: tuple[int, ...]
    tricks: tuple[TrickRecord, ...]
    talon_known: tuple[int, ...]
    pool: int
    payments: tuple[Payment, ...]
    espagnolette: int | None  # the declarer's seat, if any
    policy_stream: int  # this seat's random stream for this deal (keys.stream(..., PURPOSE_POLICY, seat))
    pool_before: int = 0  # the pool before this deal's antes
    double_ante: bool = False  # serbian (F3.3): this deal's antes were doubled
    goal: str | None = None  # the declarer's goal where he names one (lose_all or win_all, F1.4)

    def draw(self, index: int) -> int:
        """The seat's 64-bit random draw for decision ``index`` (see :mod:`reversis_sim.keys`)."""
        return keys.draw(self.policy_stream, index)

    def voids(self) -> list[set[int]]:
        """Suits each seat has shown it lacks (it did not follow a led suit), from the tricks played so far.

        An espagnolette declarer's renounce in the first tricks (R39) reveals nothing, so it is not counted.
        """
        out: list[set[int]] = [set() for _ in range(self.rules.n_seats)]
        done = [(t.leader, t.cards) for t in self.tricks]
        if self.leader is not None and self.current:
            done.append((self.leader, self.current))
        for ti, (leader, played) in enumerate(done):
            led = C.suit_of(played[0])
            seat = leader
            for card in played[1:]:
                seat = self.next_seat(seat)
                free = seat == self.espagnolette and ti < self.rules.espagnolette_renounce_tricks
                if C.suit_of(card) != led and not free:
                    out[seat].add(led)
        return out

    def next_seat(self, seat: int) -> int:
        """The seat that plays after ``seat`` (skipping a dealer who sits out)."""
        n = self.rules.n_seats
        nxt = (seat + 1) % n
        if self.rules.dealer_sits_out and nxt == self.dealer:
            nxt = (nxt + 1) % n
        return nxt


class Policy(Protocol):
    """The three decisions of a deal. Each gets the seat's view; none may look further."""

    def exchange(self, view: SeatView) -> int | None:
        """Talon exchange (R13, R14). The dealer returns the card to discard. A non-dealer returns the card to
        discard in order to take its face-down card, or None to keep its hand and only look at that card. Under
        ``take_then_discard`` (F3.2) the non-dealer has already taken his card and must return a discard."""

    def declare_espagnolette(self, view: SeatView) -> bool:
        """Declare the espagnolette (R38); asked only of an eligible seat."""

    def espagnolette_goal(self, view: SeatView) -> str:
        """``lose_all`` or ``win_all``: asked of a declarer where the preset lets him choose (``modern``, F1.4)."""

    def play(self, view: SeatView, legal: tuple[int, ...]) -> int:
        """The card to play, one of ``legal`` (sorted by card code)."""
