"""The rules of the tricks as numba functions, shared by the deal kernel (:mod:`reversis_sim.numba_engine.deal`) and the
search policy's rollouts (:mod:`reversis_sim.policies.search_nb`): who deals and leads, the legal cards, the trick's
winner, the espagnolette's eligible hands, the trick loop with its side payments and the reversis commitment
(:func:`make_play_tricks`, one per way of choosing a card), the start of a deal's result row and the settlement of
each scoring family (:func:`settle_deal`).

Read it beside the reference engine (``reference/deal.py``, ``reference/settle.py``) and RULES.md: each rule is a
commented block citing its number.
"""

from __future__ import annotations

import numpy as np

from .. import cards as C
from .bits import bit, count, select, suit_mask
from .compiled import (
    N_ACTIVE,
    P_COMMIT_AFTER,
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
    P_REVERSIS,
    P_SCORING,
    SCORING_BANK,
    SCORING_PARTY,
    SCORING_PENALTY,
    T_STRENGTH,
    T_TRICK_POINTS,
)
from .jit import njit_nrt_free, njit_nrt_free_inline
from .layout import (
    COL_BETE,
    COL_DEALER,
    COL_DECLARER,
    COL_DOUBLE_ANTE,
    COL_ERROR,
    COL_ESP_ELIGIBLE,
    COL_ESP_SEAT,
    COL_PARTY_LOSER,
    COL_PARTY_WINNER,
    COL_POINTS,
    COL_POOL_AFTER,
    COL_POOL_BEFORE,
    COL_Q_HOLDER,
    COL_REV_BREAKER,
    COL_REV_MADE,
    COL_REV_SEAT,
    COL_WON,
    ERR_FAMILY,
    ERR_PLAY,
    H_NOW,
    STOP,
    UNKNOWN_FAMILY,
)
from .payments import commit_reversis, position, round_origin, seat_of, side_payments
from .settle import settle_bank, settle_party, settle_penalty, settle_simple
from .view import V_CUR, V_DECLARER, V_LEADER, V_STREAK, V_TRICK

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
    best_strength = tables[T_STRENGTH, tricks[ti, 1]]
    for k in range(1, N_ACTIVE):
        card = tricks[ti, 1 + k]
        if (card >> 4) == led_suit and tables[T_STRENGTH, card] > best_strength:
            best = k
            best_strength = tables[T_STRENGTH, card]
    origin = round_origin(n, dealer)
    return seat_of(position(leader, origin, n) + best, origin, n)


def make_play_tricks(choose_play):
    """The trick loop of a deal whose cards are chosen by the numba function ``choose_play`` (called as
    ``choose_play(P, n, sit_out, tables, seats, deal, ws, seat, hand, legal, seen, k)`` for the ``k``-th card of
    the trick; the seat's view
    ``deal.seat_view`` holding the deal's facts and the trick so far; the chooser sets the seat's own facts,
    :func:`reversis_sim.kernel.view.seat_plays`, :func:`reversis_sim.numba_engine.policy.choose_play`): the engine's
    seats, or a rollout's. ``ws`` is a searching seat's workspace, passed through. numba compiles one loop per
    chooser. A chooser that returns :data:`STOP` ends the loop there (a search's replay of a deal's history,
    :mod:`reversis_sim.policies.search_nb`)."""

    @njit_nrt_free_inline
    def play_tricks(P, n, sit_out, tables, seats, deal, dealer, declarer, n_forced, ws, start, n_claims):
        """R17-R21: the eldest leads; follow suit if able; the highest card of the suit led wins and leads next.
        Side payments trick by trick, the reversis commitment after trick ``reversis_commit_after``. The first
        ``n_forced`` cards in playing order are the ones already in ``deal.tricks`` (a replayed history); every
        other card is ``choose_play``'s, on the seat's view (:mod:`.view`: the deal's facts and the trick as it is
        played, kept here). From trick ``start`` on (0: the whole deal): the tricks before it are already played
        into ``deal`` (its row, ledger, hands and tricks, with ``n_claims`` led claims; a search resumes its
        rollouts there). Returns (committed seat or -1, breaker or -1, number of led claims)."""
        row, ledger, claims, hands, tricks, view = (deal.row, deal.ledger, deal.claims, deal.hands, deal.tricks,
                                                    deal.seat_view)
        n_tricks = P[P_HAND_SIZE]
        origin = round_origin(n, dealer)
        commit_after = P[P_COMMIT_AFTER] if P[P_REVERSIS] else -1
        leader = eldest_of(n, dealer)
        first_winner = -1
        one_winner = True
        committed = -1
        breaker = -1
        seen = _ZERO  # every card played so far (public)
        view[V_DECLARER] = declarer
        for ti in range(start):  # the tricks already played: what the loop knew after them
            for k in range(N_ACTIVE):
                seen |= bit(tricks[ti, 1 + k])
            leader = tricks[ti, 5]
            first_winner, one_winner, committed, breaker, _ = after_trick(P, ti + 1, leader, first_winner,
                                                                          one_winner, committed, breaker,
                                                                          commit_after, declarer)
        for ti in range(start, n_tricks):
            t = ti + 1
            tricks[ti, 0] = leader
            led_suit = -1
            played = _ZERO
            view[V_TRICK] = ti
            view[V_LEADER] = leader
            view[V_STREAK] = first_winner if (one_winner and ti > 0) else -1  # the seat that won every trick so far
            p_leader = position(leader, origin, n)
            for k in range(N_ACTIVE):
                seat = seat_of(p_leader + k, origin, n)
                hand = hands[H_NOW, seat]
                legal = legal_mask(P, hand, ti, led_suit, seat == declarer)
                if ti * N_ACTIVE + k < n_forced:
                    card = tricks[ti, 1 + k]
                else:
                    card = choose_play(P, n, sit_out, tables, seats, deal, ws, seat, hand, legal, seen, k)
                if card < 0 or (legal & bit(card)) == _ZERO:
                    if card == STOP:
                        return committed, breaker, n_claims
                    # not a legal card; or no family is registered under the seat's id
                    row[COL_ERROR] = (ERR_FAMILY if card == UNKNOWN_FAMILY else ERR_PLAY) + 16 * seat
                    card = select(legal, 0)
                hands[H_NOW, seat] = hand & ~bit(card)
                played |= bit(card)
                seen |= bit(card)
                tricks[ti, 1 + k] = card
                view[V_CUR + k] = card
                if k == 0:
                    led_suit = card >> 4
            winner = trick_winner(n, tables, tricks, ti, dealer, leader, led_suit)
            tricks[ti, 5] = winner
            row[COL_WON + winner] += 1
            for k in range(N_ACTIVE):  # R7, R28
                row[COL_POINTS + winner] += tables[T_TRICK_POINTS, tricks[ti, 1 + k]]
            if (played & PAYMENT_CARDS) != _ZERO:
                n_claims = side_payments(P, n, row, ledger, claims, n_claims, t, tricks, dealer, winner)
            first_winner, one_winner, committed, breaker, commits = after_trick(P, t, winner, first_winner,
                                                                                one_winner, committed, breaker,
                                                                                commit_after, declarer)
            if commits:
                n_claims = commit_reversis(P, row, ledger, claims, n_claims, t)
            leader = winner
        return committed, breaker, n_claims

    return play_tricks


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
