"""The numba decisions of the ``lowest`` family (declared in :mod:`.lowest`)."""

from __future__ import annotations

from ..jit import njit_nrt_free as njit
from .cardsense import bottom, top, win_all_goal


@njit
def exchange(params, draws, seat, is_dealer, must_discard, hand, strength, points):
    if not (is_dealer or must_discard):
        return -1
    return top(hand, strength)


@njit
def declare(params, draws, hand, strength):
    return False


@njit
def goal(params, draws, hand, deck, strength):
    return win_all_goal(hand, deck, strength)


@njit
def play(params, draws, seat, legal, hand, trick_index, n_tricks, cur, n_cur, leader, dealer, n_seats, sit_out, played,
         talon_known, streak, declarer, deck, strength, points):
    return bottom(legal, strength)

