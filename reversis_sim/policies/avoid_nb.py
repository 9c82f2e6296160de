"""The numba decisions of the ``avoid`` family (declared, idea by idea, in :mod:`.avoid`): written once as
functions of the seat's public view; both engines call them (through :mod:`.dispatch`)."""

from __future__ import annotations

import numpy as np

from .. import cards as C
from ..kernel.bits import ONE, bit, count, lowest, suit_mask
from ..kernel.compiled import T_STRENGTH, T_TRICK_POINTS
from ..kernel.jit import njit_nrt_free, njit_nrt_free_inline
from ..kernel.view import (
    V_CUR,
    V_DEALER,
    V_DECK,
    V_DECLARER,
    V_HAND,
    V_IS_DEALER,
    V_LEADER,
    V_LEGAL,
    V_MUST_DISCARD,
    V_N_CUR,
    V_N_SEATS,
    V_N_TRICKS,
    V_PLAYED,
    V_SEAT,
    V_SIT_OUT,
    V_STREAK,
    V_TALON_KNOWN,
    V_TRICK,
    mask,
)
from .avoid import (
    A_ACE_HUNT,
    A_BREAK,
    A_COUNT,
    A_DECLARE,
    A_DUCK,
    A_GUARD,
    A_HUNT,
    A_LEAD_PAY,
    A_OPPOSITE,
    A_Q_BARE,
    A_Q_GUARDED,
    A_REV_TOP,
    A_REVERSIS,
    A_SAVE_DUMPS,
    A_SHED,
    A_SHORT,
    A_TAKE,
    A_UNLOAD,
)
from .cardsense import (
    beats,
    below,
    bottom,
    current_best,
    nth_seat,
    payment_cards,
    sure_tricks,
    top,
    top_cards,
    win_all_goal,
)


@njit_nrt_free_inline
def _shed(hand, legal, strength, points, params, trick_index, n_tricks, winner_opposite):
    """H1: the card to discard when void (or renouncing), most costly to keep first. (Inlined into :func:`play`, as
    :func:`_lead` is: a call would pass their arrays word by word.)"""
    if params[A_SHED] < 0.5:
        return top(legal, strength)
    if legal & bit(C.QUINOLA):
        return C.QUINOLA  # placed: the trick winner pays, and the pool is won (R26)
    aces = payment_cards(legal) & ~bit(C.QUINOLA)
    if aces:
        late = trick_index >= n_tricks - 2
        keep = params[A_SAVE_DUMPS] >= 0.5 and not late and (legal & ~aces) != 0
        if params[A_OPPOSITE] >= 0.5 and winner_opposite:
            keep = False  # H13: the opposite seat pays double now
        if not keep:
            if aces & bit(C.ACE_OF_DIAMONDS):
                return C.ACE_OF_DIAMONDS
            return top(aces, strength)
        legal = legal & ~aces
    # then the card worth most points, the strongest among equals
    best, best_key = -1, -1
    m = np.uint64(legal)
    while m:
        c = lowest(m)
        m &= m - ONE
        key = points[c] * 100 + strength[c]
        if key > best_key:
            best, best_key = c, key
    return best


@njit_nrt_free_inline
def play(params, draws, view, tables):
    """The card to play (a card of the non-empty mask ``V_LEGAL`` of the seat's view) to the trick in progress.

    ``cur[:n_cur]``: the cards already in the trick, in playing order from ``leader`` (a dealer who sits out,
    ``sit_out``, is skipped).

    Inlined into the trick loops (through the dispatch, :mod:`.dispatch`): measured, a call that passed its view
    fact by fact cost about a tenth of an ``avoid`` table's time.
    """
    seat, legal, hand = view[V_SEAT], mask(view, V_LEGAL), mask(view, V_HAND)
    trick_index, n_tricks, n_cur, leader = view[V_TRICK], view[V_N_TRICKS], view[V_N_CUR], view[V_LEADER]
    dealer, n_seats, sit_out = view[V_DEALER], view[V_N_SEATS], view[V_SIT_OUT] != 0
    played, talon_known, deck = mask(view, V_PLAYED), mask(view, V_TALON_KNOWN), mask(view, V_DECK)
    streak, declarer = view[V_STREAK], view[V_DECLARER]
    cur = view[V_CUR:]
    strength, points = tables[T_STRENGTH], tables[T_TRICK_POINTS]
    out = deck & ~hand & ~talon_known
    if params[A_COUNT] >= 0.5:
        out &= ~played
    my_streak = streak == seat and trick_index > 0
    attempting = False
    if my_streak or trick_index == 0:  # H10 (rarely on: skip the counts)
        if params[A_REVERSIS] <= n_tricks:
            attempting = sure_tricks(hand, out, strength) + trick_index >= params[A_REVERSIS]
        if not attempting and params[A_REV_TOP] <= n_tricks:
            attempting = top_cards(hand, strength) + trick_index >= params[A_REV_TOP]
    committed = my_streak and trick_index >= n_tricks - 2
    breaking = streak >= 0 and streak != seat and trick_index >= params[A_BREAK]
    win_now = attempting or committed or breaking
    if n_cur == 0:
        return _lead(params, legal, hand, out, strength, win_now)
    led = cur[0] >> 4
    follow = legal & suit_mask(led)
    bi, bs = current_best(cur, n_cur, strength)
    winner_opposite = n_seats == 4 and (nth_seat(leader, bi, dealer, n_seats, sit_out) - seat) % 4 == 2
    if follow == 0:
        return _shed(hand, legal, strength, points, params, trick_index, n_tricks, winner_opposite)
    if win_now:
        strongest = top(follow, strength)
        if strength[strongest] > bs:
            return strongest
        return bottom(follow, strength)
    losers = below(follow, strength, bs)
    safe = losers & ~bit(C.QUINOLA)  # H8: never let a heart lead force the J♥ while another heart is left
    if safe == 0:
        safe = losers
    if safe:
        if params[A_DUCK] >= 0.5:
            non_pay = safe & ~payment_cards(safe)
            return top(non_pay if non_pay else safe, strength)
        return bottom(safe, strength)
    if seat == declarer and follow != legal:
        return _shed(hand, legal & ~follow, strength, points, params, trick_index, n_tricks, winner_opposite)
    # the trick cannot be lost with this suit: H2, unload the highest card that is not a payment card
    no_q = follow & ~bit(C.QUINOLA)
    if no_q == 0:
        no_q = follow
    if params[A_UNLOAD] >= 0.5:
        non_pay = no_q & ~payment_cards(no_q)
        return top(non_pay if non_pay else no_q, strength)
    return bottom(no_q, strength)


@njit_nrt_free_inline
def _lead(params, legal, hand, out, strength, win_now):
    """H5, H6, H7, H9, H14: the card to lead."""
    if win_now:
        return top(legal, strength)
    cand = legal
    if params[A_LEAD_PAY] < 0.5:
        safe = cand & ~payment_cards(cand)
        if safe:
            cand = safe
    hearts = cand & suit_mask(C.HEARTS)
    quinola_out = (out & bit(C.QUINOLA)) != 0
    if params[A_HUNT] >= 0.5 and quinola_out and hearts:
        return bottom(hearts, strength)
    if params[A_ACE_HUNT] >= 0.5:
        for s in range(4):
            mine = cand & suit_mask(s)
            if mine and (out & bit(16 * s + C.RANK_ACE)):
                return bottom(mine, strength)
    # H9 + H14: the shortest (or longest) suit whose lowest card can still be beaten by a card out
    best, best_key = -1, -1.0
    for s in range(4):
        mine = cand & suit_mask(s)
        if mine == 0:
            continue
        low = bottom(mine, strength)
        beatable = beats(out & suit_mask(s), strength, strength[low])
        n = count(hand & suit_mask(s))
        size_key = (14 - n) if params[A_SHORT] >= 0.5 else n
        key = (100.0 if beatable else 0.0) + size_key
        if key > best_key:
            best, best_key = low, key
    return best


@njit_nrt_free
def _danger(hand, strength, points, params):
    """H3/H4: how badly the hand needs the talon: Aces without low guards, and the J♥ short of heart guards."""
    d = 0.0
    for s in range(4):
        mine = hand & suit_mask(s)
        n = count(mine)
        if mine & bit(16 * s + C.RANK_ACE):
            d += 2.0 if n <= 2 else 1.0
        if s == C.HEARTS and (mine & bit(C.QUINOLA)) and n - 1 <= params[A_GUARD]:
            d += 3.0
        d += points[top(mine, strength)] / 4.0 if mine and n <= 2 else 0.0
    return d


@njit_nrt_free
def _discard_score(c, hand, strength, points, params):
    """H3/H4: the cost of keeping card ``c``: payment cards, high cards of short suits (voids to be made)."""
    s = c >> 4
    n = count(hand & suit_mask(s))
    score = points[c] * 2.0 + strength[c] / 16.0
    if (c & 15) == C.RANK_ACE:
        score += 6.0 if n <= 3 else 3.0
    if c == C.QUINOLA:
        hearts = count(hand & suit_mask(C.HEARTS)) - 1
        score += params[A_Q_BARE] if hearts <= params[A_GUARD] else params[A_Q_GUARDED]
    if n <= 2 and s != C.HEARTS:
        score += 2.0  # H3: shorten a side suit towards a void
    return score


@njit_nrt_free
def exchange(params, draws, view, tables):
    """The talon decision: the card to discard, or -1 to keep the hand and only look (never -1 when the seat is
    the dealer or must discard)."""
    hand, strength, points = mask(view, V_HAND), tables[T_STRENGTH], tables[T_TRICK_POINTS]
    if not (view[V_IS_DEALER] or view[V_MUST_DISCARD]) and _danger(hand, strength, points, params) < params[A_TAKE]:
        return -1
    best, best_score = -1, -1e9
    m = np.uint64(hand)
    while m:
        c = lowest(m)
        m &= m - ONE
        sc = _discard_score(c, hand, strength, points, params)
        if sc > best_score:
            best, best_score = c, sc
    return best


@njit_nrt_free
def declare(params, draws, view, tables):
    """H12: declare the espagnolette only with few high cards besides the Aces."""
    risky = 0
    m = mask(view, V_HAND)
    while m:
        c = lowest(m)
        m &= m - ONE
        r = c & 15
        if r != C.RANK_ACE and c != C.QUINOLA and r >= C.RANK_JACK:
            risky += 1
    return risky <= params[A_DECLARE]


@njit_nrt_free
def goal(params, draws, view, tables):
    """``modern`` goal: win every trick only with a hand of sure tricks, otherwise lose every trick."""
    return win_all_goal(mask(view, V_HAND), mask(view, V_DECK), tables[T_STRENGTH])
