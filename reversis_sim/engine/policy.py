"""Seat policies inside the kernels: dispatch on the integer family id (DESIGN.md decision 5).

numba compiles a function argument separately for each function, so policies are not passed around as
functions: each decision is one small function that branches on ``family[seat]`` (``FAMILIES[...].family_id``)
and reads the seat's ``float64`` parameter vector ``params[seat]``. Adding a family adds one ``elif`` per decision.

The heuristic families (``lowest``, ``avoid``) are the shared numba functions of
:mod:`reversis_sim.policies.heuristic`, called with the seat's public view built from the kernel's state.

Family 0, ``random`` (the twin of :class:`reversis_sim.policies.random.RandomPolicy`): every choice is drawn from
the seat's keyed stream with the same decision index and the same ``below`` mapping, over the same candidates in
the same order (cards sorted by card code = mask bits from low to high), so it makes exactly the reference's
choices.

Randomness: ``draws[seat, i]`` is ``keys.draw(stream(seed, match, deal, PURPOSE_POLICY, seat), i)`` for the
decision indices of :mod:`reversis_sim.keys` the engine uses (``TAKE``, ``DISCARD``, ``DECLARE``, ``GOAL`` where
the preset asks for a goal, and ``PLAY + trick``; the other slots are not filled), drawn in bulk at the start of the
deal (vectorised loops, off the critical path of the play).
"""

from __future__ import annotations

import numpy as np

from ..bits import bit, count, select
from ..jit import njit_nrt_free, njit_nrt_free_inline
from ..policies import heuristic as H
from .compiled import (
    P_DECK_MASK,
    P_HAND_SIZE,
    P_TALON,
    T_STRENGTH,
    T_TRICK_POINTS,
    TALON_NONE,
)
from .keys import DECLARE, DISCARD, GOAL, PLAY, TAKE, below

RANDOM = 0  # family id of ``random``
KERNEL_FAMILIES = {RANDOM: "random", H.LOWEST: "lowest", H.AVOID: "avoid"}  # every family this module plays
N_DRAWS = 24  # decision indices drawn per seat and deal: PLAY + 13 tricks fit


@njit_nrt_free
def choose_exchange(family, params, draws, seat, is_dealer, must_discard, hand, tables):
    """Talon exchange (R13, R14): the card to discard, or -1 to keep the hand (never -1 for the dealer, nor under
    ``must_discard``: ``serbian``'s take-then-discard, F3.2, where the non-dealer has already taken his card).

    ``hand``: the seat's mask when it decides.
    """
    f = family[seat]
    if f == RANDOM:
        if not (is_dealer or must_discard) and below(draws[seat, TAKE], 2) == 0:
            return -1
        return select(hand, below(draws[seat, DISCARD], count(hand)))
    return H.exchange_card(f, params[seat], seat, is_dealer, must_discard, hand, tables[T_STRENGTH],
                           tables[T_TRICK_POINTS])


@njit_nrt_free
def choose_declare(family, params, draws, seat, hand, tables):
    """Declare the espagnolette (R38)? Asked only of an eligible seat."""
    f = family[seat]
    if f == RANDOM:
        return below(draws[seat, DECLARE], 2) == 1
    return H.declare(f, params[seat], hand, tables[T_STRENGTH])


@njit_nrt_free
def choose_goal(P, family, params, draws, seat, hand, tables):
    """The declarer's goal where the preset asks one (``modern``, F1.4): 1 ``win_all``, 0 ``lose_all``."""
    f = family[seat]
    if f == RANDOM:
        return below(draws[seat, GOAL], 2)  # ("lose_all", "win_all")[draw]
    return 1 if H.goal_win_all(f, params[seat], hand, np.uint64(P[P_DECK_MASK]), tables[T_STRENGTH]) else 0


@njit_nrt_free
def talon_known(exch, offered, dealer, seat):
    """The talon cards ``seat`` knows after the exchange: its own discard, or the card it looked at (A17)."""
    for k in range(4):  # the seats taking part, each once
        if exch[k, 0] == seat:
            card = exch[k, 1]
            if seat != dealer and card < 0:
                card = offered[seat]
            return bit(card)
    return np.uint64(0)


@njit_nrt_free_inline
def choose_play(P, n, sit_out, tables, family, params, draws, seat, legal, trick_index, hand, tricks, n_cur, dealer,
                seen, streak, declarer, exch, offered):
    """The card to play (a card of the non-empty mask ``legal``) to trick ``trick_index`` (0-based), at a table of
    ``n`` seats whose dealer ``sit_out`` or not (literal constants, :func:`.deal.play_deal`).

    Inlined into the trick loop, so that the random family's choice costs no call; the heuristic families go on to
    :func:`heuristic_play`.
    """
    f = family[seat]
    if f == RANDOM:
        return select(legal, below(draws[seat, PLAY + trick_index], count(legal)))
    return heuristic_play(P, n, sit_out, tables, f, params, seat, legal, trick_index, hand, tricks, n_cur, dealer,
                          seen, streak, declarer, exch, offered)


@njit_nrt_free
def heuristic_play(P, n, sit_out, tables, f, params, seat, legal, trick_index, hand, tricks, n_cur, dealer, seen,
                   streak, declarer, exch, offered):
    """A heuristic family's card. It sees the seat's public view: ``hand``, the cards ``seen`` on the table (this
    trick included), the trick so far (``tricks[trick_index, 1:1 + n_cur]``, led by ``tricks[trick_index, 0]``),
    the ``streak`` seat, the ``declarer``, and the talon cards the seat knows. The table shape (``n``,
    ``sit_out``) arrives as literal constants, so :func:`~reversis_sim.policies.heuristic.play_card` is compiled
    once per table with its seat arithmetic folded."""
    known = np.uint64(0) if P[P_TALON] == TALON_NONE else talon_known(exch, offered, dealer, seat)
    return H.play_card(f, params[seat], seat, legal, hand, trick_index, P[P_HAND_SIZE], tricks[trick_index, 1:],
                       n_cur, tricks[trick_index, 0], dealer, n, sit_out, seen, known, streak, declarer,
                       np.uint64(P[P_DECK_MASK]), tables[T_STRENGTH], tables[T_TRICK_POINTS])
