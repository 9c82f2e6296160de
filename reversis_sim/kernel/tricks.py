"""The rules of the tricks as numba functions, for the one deal skeleton (:mod:`reversis_sim.policies.deal_nb`) and
the search's inference: who deals and leads, the legal cards, the trick's winner, the espagnolette's eligible
hands, the reversis's bookkeeping after each trick, the start of a deal's result row and the settlement of each
scoring family (:func:`settle_deal`).

Read it beside the reference engine (``reference/deal.py``, ``reference/settle.py``) and RULES.md: each rule is a
commented block citing its number.
"""

from __future__ import annotations

import numpy as np

from .. import cards as C
from .bits import count, suit_mask
from .compiled import (
    N_ACTIVE,
    P_DEALER_STEP,
    P_DECLARER_CAN_COMMIT,
    P_ESP_FOUR_ACES,
    P_ESP_FOUR_ACES_JH,
    P_ESP_JH_THREE_ACES,
    P_ESP_RENOUNCE,
    P_ESP_THREE_ACES_KING,
    P_FIRST_LEAD_HEART,
    P_HAND_SIZE,
    P_N_SEATS,
    P_SCORING,
    SCORING_BANK,
    SCORING_PARTY,
    SCORING_PENALTY,
    T_STRENGTH,
)
from .jit import njit_nrt_free, njit_nrt_free_inline
from .layout import (
    COL_BETE,
    COL_DEALER,
    COL_DECLARER,
    COL_DOUBLE_ANTE,
    COL_ESP_ELIGIBLE,
    COL_ESP_SEAT,
    COL_PARTY_LOSER,
    COL_PARTY_WINNER,
    COL_POOL_AFTER,
    COL_POOL_BEFORE,
    COL_Q_HOLDER,
    COL_REV_BREAKER,
    COL_REV_MADE,
    COL_REV_SEAT,
    COL_WON,
    TR_CARDS,
)
from .payments import position, round_origin, seat_of
from .settle import settle_bank, settle_party, settle_penalty, settle_simple

HEARTS = C.HEARTS
QUINOLA_BIT = np.uint64(1 << C.QUINOLA)
ACES_MASK = np.uint64(C.mask(C.make(C.RANK_ACE, s) for s in range(4)))
KINGS_MASK = np.uint64(C.mask(C.make(C.RANK_KING, s) for s in range(4)))
PAYMENT_CARDS = ACES_MASK | QUINOLA_BIT  # the cards with side payments (§1.7)
_ZERO = np.uint64(0)


@njit_nrt_free
def dealer_of(P, deal):
    """R4: deal 0 is dealt by seat 0; the deal then passes by ``dealer_step`` (modulo the seats, F0.8)."""
    return (deal * P[P_DEALER_STEP]) % P[P_N_SEATS]


@njit_nrt_free_inline
def eldest_of(n, dealer):
    """R3, R17: the eldest is the dealer's right-hand neighbour, d+1 (the first seat taking part after him)."""
    e = dealer + 1
    return 0 if e == n else e


# ----------------------------------------------------------------------------------------------------------------
# Rule helpers
# ----------------------------------------------------------------------------------------------------------------


@njit_nrt_free_inline
def legal_mask(P, hand, trick_index, led_suit, is_declarer):
    """R18, R20, R39: the cards a seat may play (``led_suit`` -1 for a lead)."""
    if led_suit < 0:
        # R20: no restriction on leads, except the Encyclopédie's option for the first lead.
        if P[P_FIRST_LEAD_HEART] and trick_index == 0:
            hearts = hand & suit_mask(HEARTS)
            if hearts != _ZERO:
                return hearts
        return hand
    # R39: the espagnolette declarer may refuse to follow in the first tricks.
    if is_declarer and trick_index < P[P_ESP_RENOUNCE]:
        return hand
    # R18: follow suit if able, otherwise any card.
    follow = hand & suit_mask(led_suit)
    if follow != _ZERO:
        return follow
    return hand


@njit_nrt_free_inline
def espagnolette_eligible(P, hand):
    """R38: four Aces, or the Quinola and three Aces (other presets add their own hands)."""
    n_aces = count(hand & ACES_MASK)
    quinola = (hand & QUINOLA_BIT) != _ZERO
    if P[P_ESP_FOUR_ACES] and n_aces == 4:
        return True
    if P[P_ESP_JH_THREE_ACES] and quinola and n_aces >= 3:
        return True
    if P[P_ESP_FOUR_ACES_JH] and quinola and n_aces == 4:
        return True
    if P[P_ESP_THREE_ACES_KING] and n_aces == 3 and count(hand & KINGS_MASK) >= 1:
        return True
    return False


@njit_nrt_free_inline
def trick_winner(n, tables, tricks, ti, dealer, leader, led_suit):
    """R19: the highest card of the suit led wins (strength from the preset's rank order: ace low in ``modern``,
    the J♥ top of hearts in ``serbian``)."""
    best = 0
    best_strength = tables[T_STRENGTH, tricks[ti, TR_CARDS]]
    for k in range(1, N_ACTIVE):
        card = tricks[ti, TR_CARDS + k]
        if (card >> 4) == led_suit and tables[T_STRENGTH, card] > best_strength:
            best = k
            best_strength = tables[T_STRENGTH, card]
    origin = round_origin(n, dealer)
    return seat_of(position(leader, origin, n) + best, origin, n)


@njit_nrt_free_inline
def after_trick(P, t, winner, first_winner, one_winner, committed, breaker, commit_after, declarer):
    """The reversis's bookkeeping after trick ``t`` (1-based) is won by ``winner``: the first trick's winner,
    whether one seat won every trick so far, the committed seat and the breaker. Returns them, and whether the
    winner commits to the reversis now (the caller returns the payments, :func:`.payments.commit_reversis`)."""
    if t == 1:
        first_winner = winner
    elif winner != first_winner:
        one_winner = False
    commits = False
    if t == commit_after and one_winner and (winner != declarer or P[P_DECLARER_CAN_COMMIT]):
        # F1.4: where the declarer cannot be committed, his winning tricks 1..t commits nobody.
        committed = winner
        commits = True
    elif committed >= 0 and breaker < 0 and winner != committed:
        breaker = winner  # G9: the winner of the first trick after the commitment that he lost
    return first_winner, one_winner, committed, breaker, commits


@njit_nrt_free_inline
def start_row(row, dealer, pool_before, double_ante):
    """Clear a deal's result row (from ``COL_DEALER`` on) and set what is known before the cards are dealt."""
    for c in range(COL_DEALER, len(row)):
        row[c] = 0
    row[COL_PARTY_WINNER] = -1
    row[COL_PARTY_LOSER] = -1
    row[COL_REV_SEAT] = -1
    row[COL_REV_BREAKER] = -1
    row[COL_ESP_ELIGIBLE] = -1
    row[COL_ESP_SEAT] = -1
    row[COL_DECLARER] = -1
    row[COL_BETE] = -1
    row[COL_Q_HOLDER] = -1
    row[COL_DEALER] = dealer
    row[COL_POOL_BEFORE] = pool_before
    row[COL_POOL_AFTER] = pool_before
    row[COL_DOUBLE_ANTE] = double_ante


@njit_nrt_free_inline
def settle_deal(P, n, row, ledger, claims, n_claims, tricks, dealer, declarer, committed, breaker):
    """R34, G9: the reversis as every scoring reports it; then the settlement of the preset's scoring family."""
    made = False
    if committed >= 0:
        made = row[COL_WON + committed] == P[P_HAND_SIZE]
        row[COL_REV_SEAT] = committed
        row[COL_REV_MADE] = made
        row[COL_REV_BREAKER] = -1 if made else breaker
    scoring = P[P_SCORING]
    if scoring == SCORING_PARTY:
        settle_party(P, n, row, ledger, claims, n_claims, dealer, declarer, committed, breaker, made)
    elif scoring == SCORING_PENALTY:
        settle_penalty(P, n, row, ledger, tricks, dealer, declarer, committed, made)
    elif scoring == SCORING_BANK:
        settle_bank(P, n, row, ledger, dealer, declarer, committed, made)
    else:
        settle_simple(P, n, row, tricks)
