"""The numba decisions of the ``lowest`` family (declared in :mod:`.lowest`)."""

from __future__ import annotations

from ..kernel.jit import njit_nrt_free
from .cardsense import bottom, top, win_all_goal


@njit_nrt_free
def exchange(params, draws, seat, is_dealer, must_discard, hand, strength, points):
    if not (is_dealer or must_discard):
        return -1
    return top(hand, strength)


@njit_nrt_free
def declare(params, draws, hand, strength):
    return False


@njit_nrt_free
def goal(params, draws, hand, deck, strength):
    return win_all_goal(hand, deck, strength)


@njit_nrt_free
def play(params, draws, seat, legal, hand, trick_index, n_tricks, cur, n_cur, leader, dealer, n_seats, sit_out, played,
         talon_known, streak, declarer, deck, strength, points):
    return bottom(legal, strength)

