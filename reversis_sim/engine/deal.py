"""The deal kernel: one complete deal of any preset, exactly as :mod:`reversis_sim.reference` plays it.

Read it beside the reference engine (``reference/deal.py``, ``reference/settle.py``) and RULES.md §1 and §3 F: the
steps are the same functions in the same order
(antes, exchange, declaration, the tricks with their side payments and the reversis commitment, settlement), each
rule a commented block citing its number; every difference between presets is a parameter (:mod:`.compiled`).
Hands are ``uint64`` masks (card c = bit c, see :mod:`reversis_sim.cards`), legal moves are masks, and every random
choice is drawn from the same keyed stream with the same decision index as the reference, so the deal is the same
card for card and chip for chip.

The kernel records everything as it goes, into arrays the caller provides (:mod:`.layout` describes them); the
chips move in :mod:`.payments` and :mod:`.settle`.
"""

from __future__ import annotations

import numpy as np

from .. import cards as C
from ..bits import bit, count, select, suit_mask
from ..jit import njit_nrt_free, njit_nrt_free_inline
from ..keys_nb import PURPOSE_POLICY, PURPOSE_SHUFFLE, below, draw, extend, fill_draws
from .compiled import (
    N_ACTIVE,
    P_COMMIT_AFTER,
    P_DEALER_EXTRA,
    P_DEALER_STEP,
    P_DECLARER_CAN_COMMIT,
    P_ESP,
    P_ESP_FOUR_ACES,
    P_ESP_FOUR_ACES_JH,
    P_ESP_GOAL,
    P_ESP_JH_THREE_ACES,
    P_ESP_RENOUNCE,
    P_ESP_THREE_ACES_KING,
    P_FIRST_LEAD_HEART,
    P_HAND_SIZE,
    P_N_DECK,
    P_N_SEATS,
    P_PARTY_BONUS,
    P_REVERSIS,
    P_SCORING,
    P_TALON,
    SCORING_BANK,
    SCORING_PARTY,
    SCORING_PENALTY,
    T_STRENGTH,
    T_TALON_POINTS,
    T_TRICK_POINTS,
    TALON_NONE,
    TALON_TAKE,
)
from .layout import (
    COL_BETE,
    COL_DEALER,
    COL_DECLARER,
    COL_DOUBLE_ANTE,
    COL_ERROR,
    COL_ESP_ELIGIBLE,
    COL_ESP_GOAL,
    COL_ESP_SEAT,
    COL_HEARTS,
    COL_N_EXCH,
    COL_PARTY_LOSER,
    COL_PARTY_VALUE,
    COL_PARTY_WINNER,
    COL_POINTS,
    COL_POOL_AFTER,
    COL_POOL_BEFORE,
    COL_Q_HOLDER,
    COL_REV_BREAKER,
    COL_REV_MADE,
    COL_REV_SEAT,
    COL_WON,
    ERR_EXCHANGE,
    ERR_FAMILY,
    ERR_PLAY,
    H_DEALT,
    H_LEAD,
    H_NOW,
    SWAPS,
)
from .payments import antes, commit_reversis, position, round_origin, seat_of, side_payments, sitting_out
from .policy import UNKNOWN_FAMILY, choose_declare, choose_exchange, choose_goal, choose_play
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
    best_strength = tables[T_STRENGTH, tricks[ti, 1]]
    for k in range(1, N_ACTIVE):
        card = tricks[ti, 1 + k]
        if (card >> 4) == led_suit and tables[T_STRENGTH, card] > best_strength:
            best = k
            best_strength = tables[T_STRENGTH, card]
    origin = round_origin(n, dealer)
    return seat_of(position(leader, origin, n) + best, origin, n)


# ----------------------------------------------------------------------------------------------------------------
# The steps of a deal
# ----------------------------------------------------------------------------------------------------------------


@njit_nrt_free_inline
def deal_cards(P, n, deck, cards, shuffle_key, dealer, hands, offered):
    """R11, R12: shuffle by key (Fisher-Yates, as ``keys.shuffled``), deal each hand in playing order from the
    eldest (the dealer one card more; a dealer who sits out none, F1.6), then one talon card before each
    non-dealer."""
    n_deck = P[P_N_DECK]
    for i in range(n_deck):
        cards[i] = deck[i]
        # the swap partner of position i, drawn for every i first (independent draws: a vectorised loop)
        cards[SWAPS + i] = below(draw(shuffle_key, i), i + 1)
    for i in range(n_deck - 1, 0, -1):
        j = cards[SWAPS + i]
        c = cards[i]
        cards[i] = cards[j]
        cards[j] = c
    origin = round_origin(n, dealer)
    size = P[P_HAND_SIZE]
    sit = sitting_out(n, dealer)
    if sit >= 0:
        hands[H_DEALT, sit] = _ZERO
        hands[H_NOW, sit] = _ZERO
    p_eldest = position(eldest_of(n, dealer), origin, n)
    pos = 0
    for k in range(N_ACTIVE):
        seat = seat_of(p_eldest + k, origin, n)
        end = pos + size + (1 if (seat == dealer and P[P_DEALER_EXTRA]) else 0)
        m = _ZERO
        for i in range(pos, end):
            m |= bit(cards[i])
        hands[H_DEALT, seat] = m
        hands[H_NOW, seat] = m
        pos = end
    for s in range(n):
        offered[s] = -1
    if P[P_TALON] != TALON_NONE:
        for k in range(N_ACTIVE):
            seat = seat_of(p_eldest + k, origin, n)  # the non-dealers, in playing order
            if seat != dealer:
                offered[seat] = cards[pos]
                pos += 1


@njit_nrt_free_inline
def exchange(P, n, tables, family, pparams, draws, row, dealer, hands, offered, exch, known):
    """R13-R15: the dealer discards one card; then each non-dealer in playing order either discards one card and
    takes his face-down card unseen, or keeps his hand and only looks at it. F3.2 (``serbian``, take-then-discard):
    each non-dealer must take his card, then the dealer and each non-dealer in playing order discard one card
    (perhaps the one just taken). Records the talon card each seat knows in ``known`` (A17). Returns the talon's
    card points."""
    for s in range(n):
        known[s] = _ZERO
    if P[P_TALON] == TALON_NONE:
        return 0
    take = P[P_TALON] == TALON_TAKE
    talon_points = 0
    origin = round_origin(n, dealer)
    p_eldest = position(eldest_of(n, dealer), origin, n)
    for k in range(N_ACTIVE):
        seat = dealer if k == 0 else seat_of(p_eldest + k - 1, origin, n)  # A: the dealer discards first
        must = take or seat == dealer
        hand = hands[H_NOW, seat]
        if take and seat != dealer:
            hand |= bit(offered[seat])  # F3.2: the talon card is taken first (every take precedes every discard)
        choice = choose_exchange(family, pparams, draws, seat, seat == dealer, take, hand, tables)
        if (choice >= 0 and (hand & bit(choice)) == _ZERO) or (choice < 0 and (must or choice == UNKNOWN_FAMILY)):
            # not a card of his hand; or no family is registered under the seat's id
            row[COL_ERROR] = (ERR_FAMILY if choice == UNKNOWN_FAMILY else ERR_EXCHANGE) + 16 * seat
            choice = select(hand, 0)
        exch[k, 0] = seat
        exch[k, 1] = choice
        exch[k, 2] = 0
        if must:  # R13: the dealer discards, never takes; F3.2: everyone discards, the non-dealers took
            hand &= ~bit(choice)
            talon_card = choice
            exch[k, 2] = 1 if seat != dealer else 0
        elif choice < 0:  # R14 (b): keep the hand and just look at the card
            talon_card = offered[seat]
        else:  # R14 (a): discard one card, take the face-down card without looking first
            hand = (hand & ~bit(choice)) | bit(offered[seat])
            talon_card = choice
            exch[k, 2] = 1
        hands[H_NOW, seat] = hand
        known[seat] = bit(talon_card)  # A17: his discard, or the card he looked at
        talon_points += tables[T_TALON_POINTS, talon_card]
    row[COL_N_EXCH] = N_ACTIVE
    return talon_points


@njit_nrt_free_inline
def declare(P, n, tables, family, pparams, draws, row, dealer, hands):
    """R38, A13: after the exchange and before the first lead, an eligible player may declare; in the ``modern``
    family he also names his goal (F1.4). Returns the declarer's seat or -1."""
    if not P[P_ESP]:
        return -1
    origin = round_origin(n, dealer)
    p_eldest = position(eldest_of(n, dealer), origin, n)
    for k in range(N_ACTIVE):
        seat = seat_of(p_eldest + k, origin, n)
        hand = hands[H_NOW, seat]
        if espagnolette_eligible(P, hand):  # at most one seat can be eligible
            declares = choose_declare(family, pparams, draws, seat, hand, tables)
            if declares == UNKNOWN_FAMILY:
                row[COL_ERROR] = ERR_FAMILY + 16 * seat
                return -1
            if declares:
                row[COL_DECLARER] = seat
                if P[P_ESP_GOAL]:
                    goal = choose_goal(P, family, pparams, draws, seat, hand, tables)
                    if goal == UNKNOWN_FAMILY:
                        row[COL_ERROR] = ERR_FAMILY + 16 * seat
                        goal = 0
                    row[COL_ESP_GOAL] = goal
                return seat
            return -1
    return -1


@njit_nrt_free_inline
def play_tricks(P, n, sit_out, tables, family, pparams, draws, row, ledger, claims, dealer, declarer, hands, tricks,
                known):
    """R17-R21: the eldest leads; follow suit if able; the highest card of the suit led wins and leads next.
    Side payments trick by trick, the reversis commitment after trick ``reversis_commit_after``. Returns
    (committed seat or -1, breaker or -1, number of led claims)."""
    n_tricks = P[P_HAND_SIZE]
    origin = round_origin(n, dealer)
    commit_after = P[P_COMMIT_AFTER] if P[P_REVERSIS] else -1
    leader = eldest_of(n, dealer)
    first_winner = -1
    one_winner = True
    committed = -1
    breaker = -1
    n_claims = 0
    seen = _ZERO  # every card played so far (public)
    for ti in range(n_tricks):
        t = ti + 1
        tricks[ti, 0] = leader
        led_suit = -1
        played = _ZERO
        streak = first_winner if (one_winner and ti > 0) else -1  # the seat that won every trick so far
        p_leader = position(leader, origin, n)
        for k in range(N_ACTIVE):
            seat = seat_of(p_leader + k, origin, n)
            hand = hands[H_NOW, seat]
            legal = legal_mask(P, hand, ti, led_suit, seat == declarer)
            card = choose_play(P, n, sit_out, tables, family, pparams, draws, seat, legal, ti, hand, tricks, k,
                               dealer, seen, streak, declarer, known)
            if card < 0 or (legal & bit(card)) == _ZERO:
                # not a legal card; or no family is registered under the seat's id
                row[COL_ERROR] = (ERR_FAMILY if card == UNKNOWN_FAMILY else ERR_PLAY) + 16 * seat
                card = select(legal, 0)
            hands[H_NOW, seat] = hand & ~bit(card)
            played |= bit(card)
            seen |= bit(card)
            tricks[ti, 1 + k] = card
            if k == 0:
                led_suit = card >> 4
        winner = trick_winner(n, tables, tricks, ti, dealer, leader, led_suit)
        tricks[ti, 5] = winner
        row[COL_WON + winner] += 1
        for k in range(N_ACTIVE):  # R7, R28
            row[COL_POINTS + winner] += tables[T_TRICK_POINTS, tricks[ti, 1 + k]]
        if (played & PAYMENT_CARDS) != _ZERO:
            n_claims = side_payments(P, n, row, ledger, claims, n_claims, t, tricks, dealer, winner)
        if t == 1:
            first_winner = winner
        elif winner != first_winner:
            one_winner = False
        if t == commit_after and one_winner and (winner != declarer or P[P_DECLARER_CAN_COMMIT]):
            # F1.4: where the declarer cannot be committed, his winning tricks 1..t commits nobody.
            committed = winner
            n_claims = commit_reversis(P, row, ledger, claims, n_claims, t)
        elif committed >= 0 and breaker < 0 and winner != committed:
            breaker = winner  # G9: the winner of the first trick after the commitment that he lost
        leader = winner
    return committed, breaker, n_claims


# ----------------------------------------------------------------------------------------------------------------
# One deal
# ----------------------------------------------------------------------------------------------------------------


@njit_nrt_free
def play_deal(P, n, sit_out, tables, deck, family, pparams, h_match, h_pmatch, deal, dealer, pool_before,
              double_ante, row, hands, offered, exch, tricks, ledger, claims, cards, draws, known):
    """Play deal ``deal`` of the match whose key prefix is ``h_match`` (``keys.extend(seed_hash(seed), match)``),
    with seat ``s``'s policy stream prefix ``h_pmatch[s]`` (the same with its policy seed), and fill the caller's
    arrays (:mod:`.layout`). ``double_ante``: ``serbian``, the previous deal had a J♥ placement (F3.3). Returns the
    pool after the deal.

    ``n`` is the number of seats, ``P[P_N_SEATS]`` (4, or 5 where the dealer sits out) and ``sit_out`` whether the
    dealer sits out (``P[P_SIT_OUT]``, the same as ``n == 5``), literal constants from the match kernels: numba
    compiles one specialization of the deal per table, in which the seat arithmetic of a four-seat table is the
    plain ``& 3`` (measured: the four-seat deal is 12% slower with the random policy, 8-17% with the heuristics,
    when the table is read at run time). It stays a parameter of the one deal loop."""
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

    # DESIGN decision 1: the deal's draws, keyed by (seed, match, deal, purpose, seat).
    h_deal = extend(h_match, deal)
    shuffle_key = extend(extend(h_deal, PURPOSE_SHUFFLE), 0)
    # Each seat's policy stream is keyed by its own policy seed (``h_pmatch[s]`` = extend(seed_hash(policy seed),
    # match)); by default every policy seed is the run seed, and then this is extend(h_deal, PURPOSE_POLICY), s.
    for s in range(n):
        fill_draws(extend(extend(extend(h_pmatch[s], deal), PURPOSE_POLICY), s), P[P_HAND_SIZE], P[P_ESP_GOAL],
                   draws[s])

    deal_cards(P, n, deck, cards, shuffle_key, dealer, hands, offered)
    antes(P, n, row, ledger, dealer, double_ante)
    talon_points = exchange(P, n, tables, family, pparams, draws, row, dealer, hands, offered, exch, known)
    declarer = declare(P, n, tables, family, pparams, draws, row, dealer, hands)
    for s in range(n):  # Appendix A: each seat's cards at the first lead
        hand = hands[H_NOW, s]
        hands[H_LEAD, s] = hand
        row[COL_HEARTS + s] = count(hand & suit_mask(HEARTS))
        if (hand & QUINOLA_BIT) != _ZERO:
            row[COL_Q_HOLDER] = s
        if P[P_ESP] and row[COL_ESP_ELIGIBLE] < 0 and espagnolette_eligible(P, hand):
            row[COL_ESP_ELIGIBLE] = s
    row[COL_PARTY_VALUE] = P[P_PARTY_BONUS] + talon_points  # R31
    committed, breaker, n_claims = play_tricks(P, n, sit_out, tables, family, pparams, draws, row, ledger, claims,
                                               dealer, declarer, hands, tricks, known)
    # R34, G9: the reversis, as every scoring reports it.
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
    return row[COL_POOL_AFTER]
