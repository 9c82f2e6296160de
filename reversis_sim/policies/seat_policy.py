"""A seat's policy in the reference engine: a :class:`~reversis_sim.policies.view.SeatView` turned into the
arguments of the shared numba decisions (:mod:`.dispatch`, and :func:`.search_nb.play` for a search), as the kernels
build them from their own state. Both engines therefore run the same decision code for every family; the engines
are checked against each other."""

from __future__ import annotations

import numpy as np

from .. import cards as C
from ..game import IllegalPlay
from ..kernel.compiled import MAX_TRICKS, compile_rules
from ..kernel.keys_nb import fill_draws
from ..keys import N_DRAWS
from . import dispatch, search_nb
from .registry import PolicySpec, parse_spec
from .view import SeatView


class SeatPolicy:
    """The policy of one seat (any registered family) for the reference engine."""

    def __init__(self, spec: PolicySpec | str):
        self.spec = parse_spec(spec) if isinstance(spec, str) else spec
        self.family = np.int64(self.spec.family_id)
        self.params = np.array(self.spec.values() or (0.0,), dtype=np.float64)
        self.searches = self.spec.rollout is not None
        if self.searches:  # the exchange and the declaration are the rollout policy's (.search)
            self.decider = np.int64(self.spec.rollout.family_id)
            self.decider_params = np.array(self.spec.rollout.values() or (0.0,), dtype=np.float64)
            self._ws = search_nb.workspace(True)
            self._tricks = np.full((MAX_TRICKS, 6), -1, dtype=np.int64)
        else:
            self.decider, self.decider_params = self.family, self.params
        self._compiled = None
        self._stream: int | None = None
        self._draws = np.zeros(N_DRAWS, dtype=np.uint64)
        self._cur = np.full(5, -1, dtype=np.int64)
        self._rules = None
        self._tables: tuple[np.ndarray, np.ndarray, np.uint64] = ()  # type: ignore[assignment]
        self._seen = (0, 0)  # (tricks counted, mask of their cards) in the current deal

    def _args(self, view: SeatView) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.uint64]:
        """(draws, strength, points, deck) for a decision: the seat's draws of this deal (made once per deal) and
        the rules' tables (made once per rule set)."""
        r = view.rules
        if r is not self._rules:
            t = r.tables
            self._tables = (np.array(t.strength, dtype=np.int64), np.array(t.trick_points, dtype=np.int64),
                            np.uint64(C.mask(t.deck)))
            self._rules = r
        if view.policy_stream != self._stream:
            fill_draws(np.uint64(view.policy_stream), r.n_tricks, r.espagnolette_goal_choice, self._draws)
            self._stream = view.policy_stream
            self._seen = (0, 0)
        return (self._draws, *self._tables)

    def _seen_before(self, view: SeatView) -> int:
        """The mask of the cards of the finished tricks (counted on from the previous decision of this deal)."""
        n, mask = self._seen
        if n > len(view.tricks):
            n, mask = 0, 0
        for t in view.tricks[n:]:
            mask |= C.mask(t.cards)
        self._seen = (len(view.tricks), mask)
        return mask

    def _checked(self, value: int) -> int:
        if value == dispatch.UNKNOWN_FAMILY:
            raise IllegalPlay(f"policy family id {int(self.family)} ({self.spec.family}) has no numba decisions "
                              f"registered")
        return int(value)

    def exchange(self, view: SeatView) -> int | None:
        draws, strength, points, _ = self._args(view)
        must = view.rules.talon_mode == "take_then_discard"
        card = self._checked(dispatch.exchange(self.decider, self.decider_params, draws, view.seat,
                                               view.seat == view.dealer, must, np.uint64(C.mask(view.hand)), strength,
                                               points))
        return None if card < 0 else card

    def declare_espagnolette(self, view: SeatView) -> bool:
        draws, strength, _, _ = self._args(view)
        return bool(self._checked(dispatch.declare(self.decider, self.decider_params, draws,
                                                   np.uint64(C.mask(view.hand)), strength)))

    def espagnolette_goal(self, view: SeatView) -> str:
        draws, strength, _, deck = self._args(view)
        win = self._checked(dispatch.goal(self.decider, self.decider_params, draws, np.uint64(C.mask(view.hand)),
                                          deck, strength))
        return "win_all" if win else "lose_all"

    def play(self, view: SeatView, legal: tuple[int, ...]) -> int:
        draws, strength, points, deck = self._args(view)
        r = view.rules
        if self.searches:
            return self._searched(view, legal, draws)
        seen = self._seen_before(view) | C.mask(view.current)
        winners = {t.winner for t in view.tricks}
        streak = winners.pop() if len(winners) == 1 else -1
        cur = self._cur
        cur[:] = -1
        cur[: len(view.current)] = view.current
        leader = view.leader if view.leader is not None else view.seat
        declarer = -1 if view.espagnolette is None else view.espagnolette
        return self._checked(dispatch.play(
            self.family, self.params, draws, view.seat, np.uint64(C.mask(legal)), np.uint64(C.mask(view.hand)),
            view.trick_index, r.n_tricks, cur, len(view.current), leader, view.dealer, r.n_seats, r.dealer_sits_out,
            np.uint64(seen), np.uint64(C.mask(view.talon_known)), streak, declarer, deck, strength, points))


    def _searched(self, view: SeatView, legal: tuple[int, ...], draws: np.ndarray) -> int:
        """A search's card: the view as the kernel's arrays (the compiled rules, the trick history)."""
        r = view.rules
        if self._compiled is None or self._compiled[0] is not r:
            self._compiled = (r, compile_rules(r))
        cr = self._compiled[1]
        tricks = self._tricks
        tricks[:] = -1
        for i, t in enumerate(view.tricks):
            tricks[i, 0], tricks[i, 1:5], tricks[i, 5] = t.leader, t.cards, t.winner
        ti = len(view.tricks)
        if ti < r.n_tricks:
            tricks[ti, 0] = view.leader if view.leader is not None else view.seat
            tricks[ti, 1:1 + len(view.current)] = view.current
        declarer = -1 if view.espagnolette is None else view.espagnolette
        return self._checked(search_nb.play(
            self.params, draws, view.seat, np.uint64(C.mask(legal)), np.uint64(C.mask(view.hand)), ti,
            len(view.current), tricks, view.dealer, declarer, int(view.goal == "win_all"),
            np.uint64(C.mask(view.talon_known)), view.pool_before, int(view.double_ante), cr.params, r.n_seats,
            r.dealer_sits_out, cr.tables, self._ws))


def make_policy(spec: PolicySpec | str) -> SeatPolicy:
    """The reference-engine policy of a spec."""
    return SeatPolicy(spec)
