"""A seat's policy in the reference engine: a :class:`~reversis_sim.policies.view.SeatView` turned into the seat's
view record (:mod:`reversis_sim.kernel.view`), the very record the kernels fill, and handed to the shared numba
decisions (:mod:`reversis_sim.policies.dispatch`, and :func:`reversis_sim.search.decide_nb.play` for a search). Both
engines therefore run the same decision code on the same facts for every family; the engines are checked against
each other.

It lives with the reference engine, above the search, because it seats every family the spec parser knows, the
search included: the policies below it know the search only by its declaration."""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from .. import cards as C
from ..game import IllegalPlay
from ..kernel.compiled import MAX_SEATS, MAX_TRICKS, compile_rules
from ..kernel.keys_nb import fill_draws
from ..kernel.view import (
    V_CUR,
    V_DEALER,
    V_DECK,
    V_DECLARER,
    V_DOUBLE_ANTE,
    V_GOAL,
    V_HAND,
    V_IS_DEALER,
    V_LEADER,
    V_LEGAL,
    V_LEN,
    V_MUST_DISCARD,
    V_N_CUR,
    V_N_SEATS,
    V_N_TRICKS,
    V_PLAYED,
    V_POOL_BEFORE,
    V_SEAT,
    V_SIT_OUT,
    V_STREAK,
    V_TALON_KNOWN,
    V_TRICK,
    new_view,
)
from ..keys import N_DRAWS
from ..policies import dispatch, random_nb
from ..policies.deal_nb import PLAY_FROM
from ..policies.random import FAMILY as RANDOM
from ..policies.registry import PolicySpec, parse_spec
from ..policies.view import SeatView
from ..search import decide_nb, rollout_nb

RANDOM_ID = RANDOM.family_id


@lru_cache(maxsize=32)
def _compiled(rules):
    """The rules' compiled arrays and the mask of their deck, made once per rule set for every seat (a match seats
    new policies: compiling the rules for each cost the reference engine about an eighth of its time). The seats
    only read them."""
    return compile_rules(rules), C.mask(rules.tables.deck)


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
            self._ws = rollout_nb.workspace(True)
            self._tricks = np.full((MAX_TRICKS, 6), -1, dtype=np.int64)
        else:
            self.decider, self.decider_params = self.family, self.params
        self._compiled = None
        self._stream: int | None = None
        self._draws = np.zeros(N_DRAWS, dtype=np.uint64)
        self._view = new_view()
        self._deck = 0
        self._seen = (0, 0)  # (tricks counted, mask of their cards) in the current deal

    def _tables(self, view: SeatView):
        """The rules' compiled arrays (made once per rule set) and the seat's draws of this deal (made once per
        deal)."""
        r = view.rules
        if self._compiled is None or self._compiled[0] is not r:
            compiled, self._deck = _compiled(r)
            self._compiled = (r, compiled)
        if view.policy_stream != self._stream:
            fill_draws(np.uint64(view.policy_stream), r.n_tricks, r.espagnolette_goal_choice, self._draws)
            self._stream = view.policy_stream
            self._seen = (0, 0)
        return self._compiled[1]

    def _seen_before(self, view: SeatView) -> int:
        """The mask of the cards of the finished tricks (counted on from the previous decision of this deal)."""
        n, mask = self._seen
        if n > len(view.tricks):
            n, mask = 0, 0
        for t in view.tricks[n:]:
            mask |= C.mask(t.cards)
        self._seen = (len(view.tricks), mask)
        return mask

    def _fill(self, view: SeatView, legal: tuple[int, ...] | None = None, exchanging: bool = False) -> np.ndarray:
        """The seat's view record (:mod:`reversis_sim.kernel.view`) as the kernel has it at this decision, slot by
        slot in the order of the record. ``legal``: the cards it may play (None: a decision before the play);
        ``exchanging``: the talon exchange."""
        r, v = view.rules, self._view
        playing = legal is not None
        winners = {t.winner for t in view.tricks}
        current = list(view.current) + [-1] * (MAX_SEATS - len(view.current))
        v[:] = [
            view.dealer,  # V_DEALER
            r.n_seats,  # V_N_SEATS
            int(r.dealer_sits_out),  # V_SIT_OUT
            r.n_tricks,  # V_N_TRICKS
            self._deck,  # V_DECK
            view.pool_before,  # V_POOL_BEFORE
            int(view.double_ante),  # V_DOUBLE_ANTE
            -1 if view.espagnolette is None or not playing else view.espagnolette,  # V_DECLARER
            int(view.goal == "win_all"),  # V_GOAL
            view.trick_index,  # V_TRICK
            (view.seat if view.leader is None else view.leader) if playing else -1,  # V_LEADER
            len(view.current),  # V_N_CUR
            winners.pop() if len(winners) == 1 else -1,  # V_STREAK
            (self._seen_before(view) | C.mask(view.current)) if playing else 0,  # V_PLAYED
            *current,  # V_CUR ..
            view.seat,  # V_SEAT
            C.mask(view.hand),  # V_HAND
            C.mask(legal) if playing else 0,  # V_LEGAL
            C.mask(view.talon_known),  # V_TALON_KNOWN
            int(exchanging and view.seat == view.dealer),  # V_IS_DEALER
            int(exchanging and r.talon_mode == "take_then_discard"),  # V_MUST_DISCARD
        ]
        return v

    def _checked(self, value: int) -> int:
        if value == dispatch.UNKNOWN_FAMILY:
            raise IllegalPlay(f"policy family id {int(self.family)} ({self.spec.family}) has no numba decisions "
                              f"registered")
        return int(value)

    def exchange(self, view: SeatView) -> int | None:
        cr = self._tables(view)
        card = self._checked(dispatch.exchange(self.decider, self.decider_params, self._draws,
                                               self._fill(view, exchanging=True), cr.tables))
        return None if card < 0 else card

    def declare_espagnolette(self, view: SeatView) -> bool:
        cr = self._tables(view)
        return bool(self._checked(dispatch.declare(self.decider, self.decider_params, self._draws,
                                                   self._fill(view), cr.tables)))

    def espagnolette_goal(self, view: SeatView) -> str:
        cr = self._tables(view)
        win = self._checked(dispatch.goal(self.decider, self.decider_params, self._draws, self._fill(view),
                                          cr.tables))
        return "win_all" if win else "lose_all"

    def play(self, view: SeatView, legal: tuple[int, ...]) -> int:
        cr = self._tables(view)
        if self.family == RANDOM_ID:  # as the kernel does (choose_nb.card_choice): random reads only these
            return int(random_nb.pick(self._draws, np.uint64(C.mask(legal)), view.trick_index))
        v = self._fill(view, legal)
        if self.searches:
            return self._checked(decide_nb.play(self.params, self._draws, v, cr.tables, cr.params, view.rules.n_seats,
                                                self._history(view), self._ws, PLAY_FROM))
        return self._checked(dispatch.play(self.family, self.params, self._draws, v, cr.tables))

    def pool_worlds(self, view: SeatView, legal: tuple[int, ...], k: int) -> tuple[np.ndarray, np.ndarray]:
        """A search's weighed worlds at this decision (:func:`.decide_nb.pool_worlds`, under its ``tau`` and rollout
        policy): each seat's hand at the first lead, ``uint64 (k, MAX_SEATS)``, and each world's log-likelihood.
        For tests and studies of inference."""
        if not self.searches:
            raise ValueError(f"{self.spec} is not a search: it weighs no worlds")
        cr = self._tables(view)
        out, logw = np.zeros((k, MAX_SEATS), np.uint64), np.zeros(k, np.float64)
        got = decide_nb.pool_worlds(self.params, self._draws, self._fill(view, legal), cr.tables, cr.params,
                                    view.rules.n_seats, self._history(view), self._ws, out, logw)
        return out[:got], logw[:got]

    def search_args(self, view: SeatView, legal: tuple[int, ...]) -> tuple:
        """The arguments of :data:`.decide_nb.play` at this decision, copied (its parameters, draws, view record,
        tables, rules, table size, trick history, workspace and the deal skeleton), so that a benchmark can time
        the search's decisions apart from the engine (``bench/bench_decisions.py``)."""
        if not self.searches:
            raise ValueError(f"{self.spec} is not a search")
        cr = self._tables(view)
        return (self.params, self._draws.copy(), self._fill(view, legal).copy(), cr.tables, cr.params,
                view.rules.n_seats, self._history(view).copy(), self._ws, PLAY_FROM)

    def _history(self, view: SeatView) -> np.ndarray:
        """The trick history as the kernel keeps it (leader, the cards in playing order, winner), for a search."""
        tricks = self._tricks
        tricks[:] = -1
        for i, t in enumerate(view.tricks):
            tricks[i, 0], tricks[i, 1:1 + len(t.cards)], tricks[i, 5] = t.leader, t.cards, t.winner
        ti = len(view.tricks)
        if ti < view.rules.n_tricks:
            tricks[ti, 0] = view.leader if view.leader is not None else view.seat
            tricks[ti, 1:1 + len(view.current)] = view.current
        return tricks


_ORDER = (V_DEALER, V_N_SEATS, V_SIT_OUT, V_N_TRICKS, V_DECK, V_POOL_BEFORE, V_DOUBLE_ANTE, V_DECLARER, V_GOAL, V_TRICK,
          V_LEADER, V_N_CUR, V_STREAK, V_PLAYED, *range(V_CUR, V_CUR + MAX_SEATS), V_SEAT, V_HAND, V_LEGAL,
          V_TALON_KNOWN, V_IS_DEALER, V_MUST_DISCARD)
assert _ORDER == tuple(range(V_LEN)), "SeatPolicy._fill writes the view's slots in their order"


def make_policy(spec: PolicySpec | str) -> SeatPolicy:
    """The reference-engine policy of a spec."""
    return SeatPolicy(spec)


class Watching:
    """A reference-engine seat that plays the decisions of ``inner`` (a policy, or a spec) and calls
    :meth:`watch` after each card it plays: how studies, benchmarks and tests ask other policies about the very
    decisions of a game (``studies/infer_study/infer_study.py``, ``bench/bench_decisions.py``)."""

    def __init__(self, inner):
        self.inner = make_policy(inner) if isinstance(inner, (str, PolicySpec)) else inner

    def watch(self, view: SeatView, legal: tuple[int, ...], card: int) -> None:
        """Called after each card played (``card``, of ``legal``, at ``view``); nothing by default."""

    def exchange(self, view: SeatView):
        return self.inner.exchange(view)

    def declare_espagnolette(self, view: SeatView) -> bool:
        return self.inner.declare_espagnolette(view)

    def espagnolette_goal(self, view: SeatView) -> str:
        return self.inner.espagnolette_goal(view)

    def play(self, view: SeatView, legal: tuple[int, ...]) -> int:
        card = self.inner.play(view, legal)
        self.watch(view, legal, card)
        return card
