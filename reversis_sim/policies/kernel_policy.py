"""The heuristic families seen from the reference engine: a :class:`SeatView` turned into the arguments of the
shared numba decision functions of :mod:`.heuristic` (the kernel builds the same arguments from its own state)."""

from __future__ import annotations

import numpy as np

from .. import cards as C
from . import heuristic as H
from .view import SeatView


class KernelPolicy:
    """A policy of a heuristic family (``lowest``, ``avoid``) for the reference engine."""

    def __init__(self, family_id: int, params: tuple[float, ...]):
        self.family = family_id
        self.params = np.array(params or (0.0,), dtype=np.float64)

    @staticmethod
    def _tables(view: SeatView) -> tuple[np.ndarray, np.ndarray, np.uint64]:
        t = view.rules.tables
        return (np.array(t.strength, dtype=np.int64), np.array(t.trick_points, dtype=np.int64),
                np.uint64(C.mask(t.deck)))

    def exchange(self, view: SeatView) -> int | None:
        strength, points, _ = self._tables(view)
        must = view.rules.talon_mode == "take_then_discard"
        card = H.exchange_card(self.family, self.params, view.seat, view.seat == view.dealer, must,
                               np.uint64(C.mask(view.hand)), strength, points)
        return None if card < 0 else int(card)

    def declare_espagnolette(self, view: SeatView) -> bool:
        strength, _, _ = self._tables(view)
        return bool(H.declare(self.family, self.params, np.uint64(C.mask(view.hand)), strength))

    def espagnolette_goal(self, view: SeatView) -> str:
        strength, _, deck = self._tables(view)
        win = H.goal_win_all(self.family, self.params, np.uint64(C.mask(view.hand)), deck, strength)
        return "win_all" if win else "lose_all"

    def play(self, view: SeatView, legal: tuple[int, ...]) -> int:
        strength, points, deck = self._tables(view)
        r = view.rules
        seen = C.mask(c for t in view.tricks for c in t.cards) | C.mask(view.current)
        winners = {t.winner for t in view.tricks}
        streak = winners.pop() if len(winners) == 1 else -1
        cur = np.full(5, -1, dtype=np.int64)
        cur[: len(view.current)] = view.current
        leader = view.leader if view.leader is not None else view.seat
        declarer = -1 if view.espagnolette is None else view.espagnolette
        card = H.play_card(self.family, self.params, view.seat, np.uint64(C.mask(legal)),
                           np.uint64(C.mask(view.hand)), view.trick_index, r.n_tricks, cur, len(view.current),
                           leader, view.dealer, r.n_seats, r.dealer_sits_out, np.uint64(seen),
                           np.uint64(C.mask(view.talon_known)), streak, declarer, deck, strength, points)
        return int(card)
