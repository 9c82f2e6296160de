"""The ``random`` family: a uniformly random legal choice at every decision (the baseline of every comparison)."""

from __future__ import annotations

from .. import keys
from .view import SeatView


class RandomPolicy:
    """Uniform over the legal choices; its randomness comes from the seat's keyed stream, so the numba twin
    (:mod:`reversis_sim.engine`) makes exactly the same choices.

    - talon: take with probability 1/2 (``TAKE`` draw); the discard is uniform over the hand (``DISCARD`` draw);
      the dealer always discards, uniformly; under ``take_then_discard`` (``serbian``) everyone discards.
    - espagnolette: declare with probability 1/2 when eligible (``DECLARE`` draw); where a goal is chosen
      (``modern``), ``lose_all`` or ``win_all`` with probability 1/2 each (``GOAL`` draw).
    - play: uniform over the legal cards sorted by card code (``PLAY + trick`` draw).
    """

    name = "random"

    def exchange(self, view: SeatView) -> int | None:
        optional = view.seat != view.dealer and view.rules.talon_mode == "optional_blind_exchange"
        if optional and keys.below(view.draw(keys.TAKE), 2) == 0:
            return None
        return view.hand[keys.below(view.draw(keys.DISCARD), len(view.hand))]

    def declare_espagnolette(self, view: SeatView) -> bool:
        return keys.below(view.draw(keys.DECLARE), 2) == 1

    def espagnolette_goal(self, view: SeatView) -> str:
        return ("lose_all", "win_all")[keys.below(view.draw(keys.GOAL), 2)]

    def play(self, view: SeatView, legal: tuple[int, ...]) -> int:
        return legal[keys.below(view.draw(keys.PLAY + view.trick_index), len(legal))]
