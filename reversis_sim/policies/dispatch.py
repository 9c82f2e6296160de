"""The numba dispatch of the four decisions on the family id, built from the registry (DESIGN.md decision 5).

numba compiles a function argument separately for each function, so the kernels never pass policies around as
functions: each decision is called as ``play(family_id, params, draws, ...)``, which tries the registered families
in order (:data:`.heuristics.HEURISTICS`) and calls the one whose id matches (a search is not dispatched: the
engines call :func:`.search_nb.play` themselves, for it needs the table). The chain is made of small closures, one
per family and decision (:func:`_link`), ending in :func:`_unknown`, which returns :data:`UNKNOWN_FAMILY`: a kernel
turns that into an error that names the seat, so an unknown id never plays as another family.

The arguments, as both engines pass them (the kernels from their arrays, the reference engine from a
:class:`~reversis_sim.policies.view.SeatView`, :mod:`.seat_policy`):

- ``family_id`` (int64), ``params`` (float64 vector: the family's parameters in declaration order), ``draws``
  (uint64 ``(N_DRAWS,)``: the seat's keyed draws of the deal, :func:`reversis_sim.keys_nb.fill_draws`);
- ``seat``, ``dealer``, ``n_seats``, ``sit_out`` (the dealer sits out); ``hand``, ``legal``, ``played`` (every card
  seen on the table, the current trick included), ``talon_known`` (the talon cards the seat knows: its discard, the
  card it looked at) and ``deck``: uint64 masks;
- ``trick_index`` (0-based), ``n_tricks``; the current trick ``cur[:n_cur]`` in playing order from ``leader``;
  ``streak`` (the seat that has won every trick so far, or -1), ``declarer`` (-1: none);
- ``strength``, ``points``: the rules' per-card tables (int64, indexed by card code).
"""

from __future__ import annotations

from ..kernel.jit import njit_nrt_free, njit_nrt_free_inline
from ..kernel.layout import UNKNOWN_FAMILY
from .heuristics import HEURISTICS


@njit_nrt_free
def _unknown_exchange(family_id, params, draws, seat, is_dealer, must_discard, hand, strength, points):
    return UNKNOWN_FAMILY


@njit_nrt_free
def _unknown_declare(family_id, params, draws, hand, strength):
    return UNKNOWN_FAMILY


@njit_nrt_free
def _unknown_goal(family_id, params, draws, hand, deck, strength):
    return UNKNOWN_FAMILY


@njit_nrt_free
def _unknown_play(family_id, params, draws, seat, legal, hand, trick_index, n_tricks, cur, n_cur, leader, dealer,
                  n_seats, sit_out, played, talon_known, streak, declarer, deck, strength, points):
    return UNKNOWN_FAMILY


def _link(decision: str, family_id: int, decide, rest):
    """A numba function: ``decide(*args)`` (as an int64) for ``family_id``, otherwise ``rest(family_id, *args)``.

    The links of ``play`` are inlined into their caller (numba ``inline="always"``), so that a trick loop tests the
    family ids in turn and runs the family's decision in place, with no call that passes its twenty arguments (a
    family inlines its own ``play`` for that, as :func:`.avoid_nb.play` does)."""
    if decision == "exchange":
        @njit_nrt_free
        def exchange(f, params, draws, seat, is_dealer, must_discard, hand, strength, points):
            if f == family_id:
                return decide(params, draws, seat, is_dealer, must_discard, hand, strength, points)
            return rest(f, params, draws, seat, is_dealer, must_discard, hand, strength, points)
        return exchange
    if decision == "declare":
        @njit_nrt_free
        def declare(f, params, draws, hand, strength):
            if f == family_id:
                return 1 if decide(params, draws, hand, strength) else 0
            return rest(f, params, draws, hand, strength)
        return declare
    if decision == "goal":
        @njit_nrt_free
        def goal(f, params, draws, hand, deck, strength):
            if f == family_id:
                return 1 if decide(params, draws, hand, deck, strength) else 0
            return rest(f, params, draws, hand, deck, strength)
        return goal

    @njit_nrt_free_inline
    def play(f, params, draws, seat, legal, hand, trick_index, n_tricks, cur, n_cur, leader, dealer, n_seats,
             sit_out, played, talon_known, streak, declarer, deck, strength, points):
        if f == family_id:
            return decide(params, draws, seat, legal, hand, trick_index, n_tricks, cur, n_cur, leader, dealer,
                          n_seats, sit_out, played, talon_known, streak, declarer, deck, strength, points)
        return rest(f, params, draws, seat, legal, hand, trick_index, n_tricks, cur, n_cur, leader, dealer, n_seats,
                    sit_out, played, talon_known, streak, declarer, deck, strength, points)
    return play


def _chain(decision: str, unknown):
    fn = unknown
    for fam in reversed(HEURISTICS):  # the first registered family is tried first
        fn = _link(decision, fam.family_id, getattr(fam.kernel(), decision), fn)
    return fn


exchange = _chain("exchange", _unknown_exchange)
"""``exchange(family_id, params, draws, seat, is_dealer, must_discard, hand, strength, points)``: the card to
discard, -1 to keep the hand, or :data:`UNKNOWN_FAMILY`."""
declare = _chain("declare", _unknown_declare)
"""``declare(family_id, params, draws, hand, strength)``: 1 to declare, 0 not to, or :data:`UNKNOWN_FAMILY`."""
goal = _chain("goal", _unknown_goal)
"""``goal(family_id, params, draws, hand, deck, strength)``: 1 ``win_all``, 0 ``lose_all``, or
:data:`UNKNOWN_FAMILY`."""
play = _chain("play", _unknown_play)
"""``play(family_id, params, draws, seat, legal, hand, trick_index, n_tricks, cur, n_cur, leader, dealer, n_seats,
sit_out, played, talon_known, streak, declarer, deck, strength, points)``: a card of ``legal``, or
:data:`UNKNOWN_FAMILY`."""

NO_DRAWS = sum(1 << fam.family_id for fam in HEURISTICS if not fam.draws)
"""The registered families that never read their draws, as a bit mask of family ids."""
assert all(0 <= fam.family_id < 63 for fam in HEURISTICS)


@njit_nrt_free
def uses_draws(family_id):
    """Whether a seat of family ``family_id`` reads its keyed draws (:attr:`.family.Family.draws`): every family but
    the registered ones that say not (an unknown id or a search does)."""
    if family_id < 0 or family_id >= 63:
        return True
    return ((NO_DRAWS >> family_id) & 1) == 0
