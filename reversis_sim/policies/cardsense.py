"""What a player can work out from the cards he sees: numba helpers shared by the heuristic families.

Hands and card sets are ``uint64`` masks (card c = bit c, :mod:`reversis_sim.cards`); ``strength`` is the rules'
per-card playing strength within a suit (higher wins).
"""

from __future__ import annotations

import numpy as np

from .. import cards as C
from ..kernel.bits import ONE, bit, count, highest, lowest, suit_mask
from ..kernel.jit import njit_nrt_free, njit_nrt_free_inline


@njit_nrt_free
def top(mask, strength):
    """The card of ``mask`` with the highest strength (-1 if empty)."""
    best, best_s = -1, -1
    m = np.uint64(mask)
    while m:
        c = lowest(m)
        m &= m - ONE
        if strength[c] > best_s:
            best, best_s = c, strength[c]
    return best


@njit_nrt_free
def bottom(mask, strength):
    """The card of ``mask`` with the lowest strength (-1 if empty)."""
    best, best_s = -1, 1 << 30
    m = np.uint64(mask)
    while m:
        c = lowest(m)
        m &= m - ONE
        if strength[c] < best_s:
            best, best_s = c, strength[c]
    return best


@njit_nrt_free
def below(mask, strength, limit):
    """The cards of ``mask`` weaker than strength ``limit``."""
    out = np.uint64(0)
    m = np.uint64(mask)
    while m:
        c = lowest(m)
        m &= m - ONE
        if strength[c] < limit:
            out |= bit(c)
    return out


@njit_nrt_free
def beats(mask, strength, limit):
    """Whether a card of ``mask`` is stronger than strength ``limit``: ``strength[top(mask)] > limit`` for a
    non-empty mask, False for an empty one. The cards are tried from the highest card code down, so that where the
    strength follows the ranks the first card answers."""
    m = np.uint64(mask)
    while m:
        c = highest(m)
        if strength[c] > limit:
            return True
        m &= ~bit(c)
    return False


@njit_nrt_free
def payment_cards(hand):
    """The cards of ``hand`` with side payments in every preset: the four Aces and the J♥."""
    m = np.uint64(0)
    for s in range(4):
        m |= bit(16 * s + C.RANK_ACE)
    m |= bit(C.QUINOLA)
    return hand & m


@njit_nrt_free
def sure_tricks(hand, out, strength):
    """H10: tricks the hand takes for certain by cashing its top cards: per suit, the run of cards above every
    card of that suit still ``out``."""
    n = 0
    for s in range(4):
        mine = hand & suit_mask(s)
        theirs = out & suit_mask(s)
        top_theirs = top(theirs, strength)
        limit = -1 if top_theirs < 0 else strength[top_theirs]
        m = mine
        while m:
            c = lowest(m)
            m &= m - ONE
            if strength[c] > limit:
                n += 1
    return n


@njit_nrt_free
def top_cards(hand, strength):
    """The cards of ``hand`` of the two highest ranks of their suit (the Ace and King of ``parlett``; the King and
    Queen where the Ace is low; the J♥ where it tops the hearts): a visible measure of a hand's trick-taking power."""
    n = 0
    for s in range(4):
        mine = hand & suit_mask(s)
        m = mine
        while m:
            c = lowest(m)
            m &= m - ONE
            if strength[c] >= _suit_top(strength, s) - 1:
                n += 1
    return n


@njit_nrt_free
def _suit_top(strength, suit):
    """The highest strength of any card of ``suit`` in the deck."""
    best = -1
    for r in range(16):
        if strength[16 * suit + r] > best:
            best = strength[16 * suit + r]
    return best


@njit_nrt_free
def win_all_goal(hand, deck, strength):
    """The ``modern`` declarer's goal (F1.4): win every trick only with a hand of sure tricks."""
    return sure_tricks(hand, deck & ~hand, strength) >= count(hand)


@njit_nrt_free_inline
def current_best(cur, n_cur, strength):
    """(index in the trick, strength) of the card now winning the trick ``cur[:n_cur]`` (inlined: a loop of three
    cards, cheaper than the call that passes two arrays)."""
    led = cur[0] >> 4
    bi, bs = 0, strength[cur[0]]
    for i in range(1, n_cur):
        c = cur[i]
        if (c >> 4) == led and strength[c] > bs:
            bi, bs = i, strength[c]
    return bi, bs


@njit_nrt_free
def nth_seat(leader, i, dealer, n_seats, sit_out):
    """The seat that plays the ``i``-th card of a trick led by ``leader`` (a dealer who sits out is skipped)."""
    s = leader
    for _ in range(i):  # a branch, not a remainder: the table's size is read at run time (a division)
        s = 0 if s + 1 == n_seats else s + 1
        if sit_out and s == dealer:
            s = 0 if s + 1 == n_seats else s + 1
    return s
