"""The numba decisions of the ``random`` family (declared, with how it draws, in :mod:`.random`), each a function
of the seat's view (:mod:`reversis_sim.kernel.view`)."""

from __future__ import annotations

from ..kernel.bits import count, select
from ..kernel.jit import njit_nrt_free, njit_nrt_free_inline
from ..kernel.keys_nb import DECLARE, DISCARD, GOAL, PLAY, TAKE, below
from ..kernel.view import V_HAND, V_IS_DEALER, V_LEGAL, V_MUST_DISCARD, V_TRICK, mask


@njit_nrt_free
def exchange(params, draws, view, tables):
    hand = mask(view, V_HAND)
    if not (view[V_IS_DEALER] or view[V_MUST_DISCARD]) and below(draws[TAKE], 2) == 0:
        return -1
    return select(hand, below(draws[DISCARD], count(hand)))


@njit_nrt_free
def declare(params, draws, view, tables):
    return below(draws[DECLARE], 2) == 1


@njit_nrt_free
def goal(params, draws, view, tables):
    return below(draws[GOAL], 2) == 1  # ("lose_all", "win_all")[draw]


@njit_nrt_free_inline
def play(params, draws, view, tables):
    return pick(draws, mask(view, V_LEGAL), view[V_TRICK])


@njit_nrt_free_inline
def pick(draws, legal, trick_index):
    """The play: a uniform choice among the ``legal`` cards in card-code order, by the trick's draw (the numba
    engine calls it straight, :func:`.choose_nb.card_choice`)."""
    return select(legal, below(draws[PLAY + trick_index], count(legal)))
