"""Seat policies inside the kernels: the policies' numba dispatch (:mod:`reversis_sim.policies.dispatch`) called
with each seat's family id, parameter vector and draws, and the public view the kernel keeps.

numba compiles a function argument separately for each function, so policies are not passed around as functions:
each decision passes ``family[seat]`` (the family id) to the dispatch, which calls the registered family's numba
decision (DESIGN.md decision 5). The reference engine calls the very same functions
(:class:`reversis_sim.policies.SeatPolicy`); the engines are checked against each other, the policy code is shared.

Randomness: ``draws[seat]`` holds the seat's keyed draws of the deal (:func:`reversis_sim.keys_nb.fill_draws`),
drawn in bulk at the start of the deal (vectorised loops, off the critical path of the play).

An unknown family id makes every decision return ``UNKNOWN_FAMILY``; the deal kernel records ``ERR_FAMILY`` for the
seat (:mod:`reversis_sim.kernel.layout`) and the wrappers raise, so an unknown id never plays as another family.
"""

from __future__ import annotations

import numpy as np

from ..kernel.compiled import P_DECK_MASK, P_HAND_SIZE, T_STRENGTH, T_TRICK_POINTS
from ..kernel.jit import njit_nrt_free, njit_nrt_free_inline
from ..kernel.layout import COL_DOUBLE_ANTE, COL_ESP_GOAL, COL_POOL_BEFORE
from ..policies import dispatch, search_nb
from ..policies import random_nb as random_family
from ..policies.dispatch import UNKNOWN_FAMILY, uses_draws
from ..policies.random import FAMILY as RANDOM
from ..policies.search import SEARCH_ID

RANDOM_ID = RANDOM.family_id
random_play = random_family.play
_ZERO = np.uint64(0)

__all__ = ["UNKNOWN_FAMILY", "choose_declare", "choose_exchange", "choose_goal", "choose_play", "uses_draws"]


@njit_nrt_free_inline
def _decider(family, params):
    """The family and parameters that take a seat's exchange and declaration decisions: its own, or a search's
    rollout policy (:mod:`reversis_sim.policies.search`)."""
    if family == SEARCH_ID:
        return search_nb.rollout_family(params), search_nb.rollout_params(params)
    return family, params


@njit_nrt_free
def choose_exchange(family, params, draws, seat, is_dealer, must_discard, hand, tables):
    """Talon exchange (R13, R14): the card to discard, -1 to keep the hand (never for the dealer, nor under
    ``must_discard``: ``serbian``'s take-then-discard, F3.2, where the non-dealer has already taken his card), or
    ``UNKNOWN_FAMILY``. ``hand``: the seat's mask when it decides."""
    f, p = _decider(family[seat], params[seat])
    return dispatch.exchange(f, p, draws[seat], seat, is_dealer, must_discard, hand, tables[T_STRENGTH],
                             tables[T_TRICK_POINTS])


@njit_nrt_free
def choose_declare(family, params, draws, seat, hand, tables):
    """Declare the espagnolette (R38)? 1 or 0 (or ``UNKNOWN_FAMILY``); asked only of an eligible seat."""
    f, p = _decider(family[seat], params[seat])
    return dispatch.declare(f, p, draws[seat], hand, tables[T_STRENGTH])


@njit_nrt_free
def choose_goal(P, family, params, draws, seat, hand, tables):
    """The declarer's goal where the preset asks one (``modern``, F1.4): 1 ``win_all``, 0 ``lose_all`` (or
    ``UNKNOWN_FAMILY``)."""
    f, p = _decider(family[seat], params[seat])
    return dispatch.goal(f, p, draws[seat], hand, np.uint64(P[P_DECK_MASK]), tables[T_STRENGTH])


@njit_nrt_free_inline
def choose_play(P, n, sit_out, tables, family, params, draws, seat, legal, trick_index, hand, tricks, n_cur, dealer,
                seen, streak, declarer, known, row, ws):
    """The card to play (a card of the non-empty mask ``legal``) to trick ``trick_index`` (0-based), at a table of
    ``n`` seats whose dealer ``sit_out`` or not (literal constants, :func:`.deal.play_deal`), or
    ``UNKNOWN_FAMILY``. The seat's public view: its ``hand``, the cards ``seen`` on the table (this trick
    included), the trick so far (``tricks[trick_index, 1:1 + n_cur]``, led by ``tricks[trick_index, 0]``), the
    ``streak`` seat, the ``declarer``, and the talon cards it knows (``known[seat]``, from the exchange); a search
    also the whole trick history and the public facts of the deal in ``row``, and ``ws``, its workspace.

    Inlined into the trick loop. The ``random`` family's own decision (inlined too) is called first, without the
    dispatch and the talon cards it ignores: measured, the dispatch and the view cost the random family 7% of its
    deals per second. Every other family goes through :func:`_dispatched_play`."""
    if family[seat] == RANDOM_ID:
        return random_play(params[seat], draws[seat], seat, legal, hand, trick_index, P[P_HAND_SIZE],
                           tricks[trick_index, 1:], n_cur, tricks[trick_index, 0], dealer, n, sit_out, seen, _ZERO,
                           streak, declarer, np.uint64(P[P_DECK_MASK]), tables[T_STRENGTH], tables[T_TRICK_POINTS])
    if family[seat] == SEARCH_ID:
        return _searched_play(P, n, sit_out, tables, params, draws, seat, legal, trick_index, hand, tricks, n_cur,
                              dealer, declarer, known, row, ws)
    return _dispatched_play(P, n, sit_out, tables, family, params, draws, seat, legal, trick_index, hand, tricks,
                            n_cur, dealer, seen, streak, declarer, known)


@njit_nrt_free
def _searched_play(P, n, sit_out, tables, params, draws, seat, legal, trick_index, hand, tricks, n_cur, dealer,
                   declarer, known, row, ws):
    """A search's card (:func:`reversis_sim.policies.search_nb.play`), given the public facts of the deal from the
    result row: the pool before the deal, doubled antes, the declarer's goal (and nothing else of the row)."""
    return search_nb.play(params[seat], draws[seat], seat, legal, hand, trick_index, n_cur, tricks, dealer, declarer,
                       row[COL_ESP_GOAL], known[seat], row[COL_POOL_BEFORE], row[COL_DOUBLE_ANTE], P, n, sit_out,
                       tables, ws)


@njit_nrt_free_inline
def _dispatched_play(P, n, sit_out, tables, family, params, draws, seat, legal, trick_index, hand, tricks, n_cur,
                     dealer, seen, streak, declarer, known):
    """:func:`choose_play` through the dispatch (inlined, as the dispatch's links are)."""
    return dispatch.play(family[seat], params[seat], draws[seat], seat, legal, hand, trick_index, P[P_HAND_SIZE],
                         tricks[trick_index, 1:], n_cur, tricks[trick_index, 0], dealer, n, sit_out, seen, known[seat],
                         streak, declarer, np.uint64(P[P_DECK_MASK]), tables[T_STRENGTH], tables[T_TRICK_POINTS])
