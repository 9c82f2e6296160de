"""The numba decisions of the ``random`` family (declared, with how it draws, in :mod:`.random`)."""

from __future__ import annotations

from ..kernel.bits import count, select
from ..kernel.jit import njit_nrt_free, njit_nrt_free_inline
from ..kernel.keys_nb import DECLARE, DISCARD, GOAL, PLAY, TAKE, below


@njit_nrt_free
def exchange(params, draws, seat, is_dealer, must_discard, hand, strength, points):
    if not (is_dealer or must_discard) and below(draws[TAKE], 2) == 0:
        return -1
    return select(hand, below(draws[DISCARD], count(hand)))


@njit_nrt_free
def declare(params, draws, hand, strength):
    return below(draws[DECLARE], 2) == 1


@njit_nrt_free
def goal(params, draws, hand, deck, strength):
    return below(draws[GOAL], 2) == 1  # ("lose_all", "win_all")[draw]


@njit_nrt_free_inline
def play(params, draws, seat, legal, hand, trick_index, n_tricks, cur, n_cur, leader, dealer, n_seats, sit_out, played,
         talon_known, streak, declarer, deck, strength, points):
    return select(legal, below(draws[PLAY + trick_index], count(legal)))
