"""Heuristic families, written once as numba functions of a seat's public view (RULES.md §4, H1-H14).

Both engines call these same functions: the numba kernel directly, the reference engine through
:class:`reversis_sim.policies.kernel_policy.KernelPolicy`, which builds the arguments from a
:class:`~reversis_sim.policies.view.SeatView`. The engines are checked against each other; the policy code is shared.

What a decision sees (the information discipline of issue 4) is a subset of the seat's
:class:`~reversis_sim.policies.view.SeatView`: its own ``hand`` mask; ``played`` (every card seen on the table, the
current trick included); ``talon_known`` (talon cards it knows: its discard, the card it looked at); the current
trick ``cur[:n_cur]`` with the seats that played it; the public ``streak`` (the seat that has won every trick so far,
or -1); the espagnolette ``declarer``; the rules' per-card ``strength`` and ``points`` tables. Nothing about another
seat's hand.

Families (``FAMILIES`` in :mod:`.registry` maps names to these ids):

- ``lowest`` (1): the naive baseline. Plays its lowest legal card, never takes the talon card, discards its highest
  card, never declares.
- ``avoid`` (2): the sourced ideas, each switched or weighted by a parameter (index ``A_*`` below).
"""

from __future__ import annotations

import numpy as np

from .. import cards as C
from ..bits import ONE, bit, count, lowest, suit_mask
from ..jit import njit_nrt_free as njit

LOWEST = 1
AVOID = 2

# --- parameters of ``avoid`` (index into the seat's float64 parameter vector) -------------------------------------
A_DUCK = 0  # H2: follow with the highest card that still loses the trick
A_UNLOAD = 1  # H2: when a trick cannot be lost, unload the highest non-payment card
A_SHED = 2  # H1: when void, discard the J♥ and the Aces first, then the highest-point card
A_SAVE_DUMPS = 3  # H1: keep Aces to dump in the doubled last two tricks (payments ×2)
A_LEAD_PAY = 4  # H7: 0 = never lead an Ace or the J♥ while another card is left
A_SHORT = 5  # H9: lead from the shortest suit (1) or the longest (0)
A_HUNT = 6  # H5: lead low hearts while the J♥ is out
A_ACE_HUNT = 7  # H6: lead low into suits whose Ace is still out
A_GUARD = 8  # H8: low hearts kept as guards of one's own J♥
A_TAKE = 9  # H3/H4: take the talon card when the hand's danger reaches this
A_DECLARE = 10  # H12: declare the espagnolette with at most this many high non-Ace cards
A_REVERSIS = 11  # H10: attempt the reversis with at least this many sure tricks (> tricks: never)
A_BREAK = 12  # H11: fight a run of tricks by one opponent once it reaches this many
A_OPPOSITE = 13  # H13: dump payment cards at once when the trick is being won by the opposite seat
A_COUNT = 14  # H14: count the cards played (1) or treat every unseen card as still out (0)
N_AVOID_PARAMS = 15


@njit
def _top(mask, strength):
    """The card of ``mask`` with the highest strength (-1 if empty)."""
    best, best_s = -1, -1
    m = np.uint64(mask)
    while m:
        c = lowest(m)
        m &= m - ONE
        if strength[c] > best_s:
            best, best_s = c, strength[c]
    return best


@njit
def _bottom(mask, strength):
    """The card of ``mask`` with the lowest strength (-1 if empty)."""
    best, best_s = -1, 1 << 30
    m = np.uint64(mask)
    while m:
        c = lowest(m)
        m &= m - ONE
        if strength[c] < best_s:
            best, best_s = c, strength[c]
    return best


@njit
def _below(mask, strength, limit):
    """The cards of ``mask`` weaker than strength ``limit``."""
    out = np.uint64(0)
    m = np.uint64(mask)
    while m:
        c = lowest(m)
        m &= m - ONE
        if strength[c] < limit:
            out |= bit(c)
    return out


@njit
def _payment_mask(hand):
    """The cards with side payments in every preset: the four Aces and the J♥."""
    m = np.uint64(0)
    for s in range(4):
        m |= bit(16 * s + C.RANK_ACE)
    m |= bit(C.QUINOLA)
    return hand & m


@njit
def _sure_tricks(hand, out, strength):
    """H10: tricks the hand takes for certain by cashing its top cards: per suit, the run of cards above every
    card of that suit still out."""
    n = 0
    for s in range(4):
        mine = hand & suit_mask(s)
        theirs = out & suit_mask(s)
        top_theirs = _top(theirs, strength)
        limit = -1 if top_theirs < 0 else strength[top_theirs]
        m = mine
        while m:
            c = lowest(m)
            m &= m - ONE
            if strength[c] > limit:
                n += 1
    return n


@njit
def _current_best(cur, n_cur, strength):
    """(index in the trick, strength) of the card now winning the trick."""
    led = cur[0] >> 4
    bi, bs = 0, strength[cur[0]]
    for i in range(1, n_cur):
        c = cur[i]
        if (c >> 4) == led and strength[c] > bs:
            bi, bs = i, strength[c]
    return bi, bs


@njit
def _nth_seat(leader, i, dealer, n_seats, sit_out):
    """The seat that plays the ``i``-th card of a trick led by ``leader``."""
    s = leader
    for _ in range(i):
        s = (s + 1) % n_seats
        if sit_out and s == dealer:
            s = (s + 1) % n_seats
    return s


@njit
def _shed(hand, legal, strength, points, params, trick_index, n_tricks, winner_opposite):
    """H1: the card to discard when void (or renouncing), most costly to keep first."""
    if params[A_SHED] < 0.5:
        return _top(legal, strength)
    if legal & bit(C.QUINOLA):
        return C.QUINOLA  # placed: the trick winner pays, and the pool is won (R26)
    aces = _payment_mask(legal) & ~bit(C.QUINOLA)
    if aces:
        late = trick_index >= n_tricks - 2
        keep = params[A_SAVE_DUMPS] >= 0.5 and not late and (legal & ~aces) != 0
        if params[A_OPPOSITE] >= 0.5 and winner_opposite:
            keep = False  # H13: the opposite seat pays double now
        if not keep:
            if aces & bit(C.ACE_OF_DIAMONDS):
                return C.ACE_OF_DIAMONDS
            return _top(aces, strength)
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


@njit
def play_card(family, params, seat, legal, hand, trick_index, n_tricks, cur, n_cur, leader, dealer, n_seats,
              sit_out, played, talon_known, streak, declarer, deck, strength, points):
    """The card to play (a card of the non-empty mask ``legal``) to trick ``trick_index`` (0-based).

    ``cur[:n_cur]``: the cards already in the trick, in playing order from ``leader`` (a dealer who sits out,
    ``sit_out``, is skipped).
    """
    if family == LOWEST:
        return _bottom(legal, strength)
    # --- avoid ------------------------------------------------------------------------------------------------
    out = deck & ~hand & ~talon_known
    if params[A_COUNT] >= 0.5:
        out &= ~played
    my_streak = streak == seat and trick_index > 0
    attempting = False
    if (my_streak or trick_index == 0) and params[A_REVERSIS] <= n_tricks:  # H10 (rarely on: skip the count)
        attempting = _sure_tricks(hand, out, strength) + trick_index >= params[A_REVERSIS]
    committed = my_streak and trick_index >= n_tricks - 2
    breaking = streak >= 0 and streak != seat and trick_index >= params[A_BREAK]
    win_now = attempting or committed or breaking
    if n_cur == 0:
        return _lead(params, legal, hand, out, strength, win_now)
    led = cur[0] >> 4
    follow = legal & suit_mask(led)
    bi, bs = _current_best(cur, n_cur, strength)
    winner_opposite = n_seats == 4 and (_nth_seat(leader, bi, dealer, n_seats, sit_out) - seat) % 4 == 2
    if follow == 0:
        return _shed(hand, legal, strength, points, params, trick_index, n_tricks, winner_opposite)
    if win_now:
        top = _top(follow, strength)
        if strength[top] > bs:
            return top
        return _bottom(follow, strength)
    losers = _below(follow, strength, bs)
    safe = losers & ~bit(C.QUINOLA)  # H8: never let a heart lead force the J♥ while another heart is left
    if safe == 0:
        safe = losers
    if safe:
        if params[A_DUCK] >= 0.5:
            non_pay = safe & ~_payment_mask(safe)
            return _top(non_pay if non_pay else safe, strength)
        return _bottom(safe, strength)
    if seat == declarer and follow != legal:
        return _shed(hand, legal & ~follow, strength, points, params, trick_index, n_tricks, winner_opposite)
    # the trick cannot be lost with this suit: H2, unload the highest card that is not a payment card
    no_q = follow & ~bit(C.QUINOLA)
    if no_q == 0:
        no_q = follow
    if params[A_UNLOAD] >= 0.5:
        non_pay = no_q & ~_payment_mask(no_q)
        return _top(non_pay if non_pay else no_q, strength)
    return _bottom(no_q, strength)


@njit
def _lead(params, legal, hand, out, strength, win_now):
    """H5, H6, H7, H9, H14: the card to lead."""
    if win_now:
        return _top(legal, strength)
    cand = legal
    if params[A_LEAD_PAY] < 0.5:
        safe = cand & ~_payment_mask(cand)
        if safe:
            cand = safe
    hearts = cand & suit_mask(C.HEARTS)
    quinola_out = (out & bit(C.QUINOLA)) != 0
    if params[A_HUNT] >= 0.5 and quinola_out and hearts:
        return _bottom(hearts, strength)
    if params[A_ACE_HUNT] >= 0.5:
        for s in range(4):
            mine = cand & suit_mask(s)
            if mine and (out & bit(16 * s + C.RANK_ACE)):
                return _bottom(mine, strength)
    # H9 + H14: the shortest (or longest) suit whose lowest card can still be beaten by a card out
    best, best_key = -1, -1.0
    for s in range(4):
        mine = cand & suit_mask(s)
        if mine == 0:
            continue
        low = _bottom(mine, strength)
        top_out = _top(out & suit_mask(s), strength)
        beatable = top_out >= 0 and strength[top_out] > strength[low]
        n = count(hand & suit_mask(s))
        size_key = (14 - n) if params[A_SHORT] >= 0.5 else n
        key = (100.0 if beatable else 0.0) + size_key
        if key > best_key:
            best, best_key = low, key
    return best


@njit
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
        d += points[_top(mine, strength)] / 4.0 if mine and n <= 2 else 0.0
    return d


@njit
def _discard_score(c, hand, strength, points, params):
    """H3/H4: the cost of keeping card ``c``: payment cards, high cards of short suits (voids to be made)."""
    s = c >> 4
    n = count(hand & suit_mask(s))
    score = points[c] * 2.0 + strength[c] / 16.0
    if (c & 15) == C.RANK_ACE:
        score += 6.0 if n <= 3 else 3.0
    if c == C.QUINOLA:
        hearts = count(hand & suit_mask(C.HEARTS)) - 1
        score += 8.0 if hearts <= params[A_GUARD] else -4.0
    if n <= 2 and s != C.HEARTS:
        score += 2.0  # H3: shorten a side suit towards a void
    return score


@njit
def exchange_card(family, params, seat, is_dealer, must_discard, hand, strength, points):
    """The talon decision: the card to discard, or -1 to keep the hand and only look (never -1 when the seat is
    the dealer or ``must_discard``)."""
    if family == LOWEST:
        if not (is_dealer or must_discard):
            return -1
        return _top(hand, strength)
    if not (is_dealer or must_discard) and _danger(hand, strength, points, params) < params[A_TAKE]:
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


@njit
def declare(family, params, hand, strength):
    """H12: declare the espagnolette only with few high cards besides the Aces."""
    if family == LOWEST:
        return False
    risky = 0
    m = np.uint64(hand)
    while m:
        c = lowest(m)
        m &= m - ONE
        r = c & 15
        if r != C.RANK_ACE and c != C.QUINOLA and r >= C.RANK_JACK:
            risky += 1
    return risky <= params[A_DECLARE]


@njit
def goal_win_all(family, params, hand, deck, strength):
    """``modern`` goal: win every trick only with a hand of sure tricks, otherwise lose every trick."""
    return _sure_tricks(hand, deck & ~hand, strength) >= count(hand)
