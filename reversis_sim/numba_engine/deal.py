"""The deal kernel: one complete deal of any preset, exactly as :mod:`reversis_sim.reference` plays it.

Read it beside the reference engine (``reference/deal.py``, ``reference/settle.py``) and RULES.md §1 and §3 F: the
steps are the same functions in the same order
(antes, exchange, declaration, the tricks with their side payments and the reversis commitment, settlement), each
rule a commented block citing its number; every difference between presets is a parameter
(:mod:`reversis_sim.kernel.compiled`).
Hands are ``uint64`` masks (card c = bit c, see :mod:`reversis_sim.cards`), legal moves are masks, and every random
choice is drawn from the same keyed stream with the same decision index as the reference, so the deal is the same
card for card and chip for chip.

The kernel records everything as it goes, into arrays the caller provides (:mod:`reversis_sim.kernel.layout`
describes them); the tricks, the chips and the settlement are the kernel's (:mod:`reversis_sim.kernel`).
"""

from __future__ import annotations

import numpy as np

from .. import cards as C
from ..constraints import MAX_ATTEMPTS, TALON
from ..kernel.bits import bit, count, select, suit_mask
from ..kernel.compiled import (
    N_ACTIVE,
    P_DEALER_EXTRA,
    P_DECK_MASK,
    P_ESP,
    P_ESP_GOAL,
    P_HAND_SIZE,
    P_N_DECK,
    P_PARTY_BONUS,
    P_TALON,
    T_TALON_POINTS,
    TALON_NONE,
    TALON_TAKE,
)
from ..kernel.jit import njit_nrt_free, njit_nrt_free_inline
from ..kernel.keys_nb import PURPOSE_POLICY, PURPOSE_SHUFFLE, below, draw, extend, fill_draws
from ..kernel.layout import (
    COL_DECLARER,
    COL_ERROR,
    COL_ESP_ELIGIBLE,
    COL_ESP_GOAL,
    COL_HEARTS,
    COL_N_EXCH,
    COL_PARTY_VALUE,
    COL_POOL_AFTER,
    COL_Q_HOLDER,
    COL_SHUFFLES,
    ERR_EXCHANGE,
    ERR_FAMILY,
    ERR_WHERE,
    H_DEALT,
    H_LEAD,
    H_NOW,
    PD_DECK,
    PD_PLACED,
    SWAPS,
)
from ..kernel.payments import antes, position, round_origin, seat_of, sitting_out
from ..kernel.tricks import dealer_of, eldest_of, espagnolette_eligible, make_play_tricks, settle_deal, start_row
from ..kernel.view import V_GOAL, V_IS_DEALER, V_MUST_DISCARD, seat_decides, start_view
from ..kernel.where import accepts
from .policy import UNKNOWN_FAMILY, choose_declare, choose_exchange, choose_goal, choose_play, uses_draws

HEARTS = C.HEARTS
QUINOLA_BIT = np.uint64(1 << C.QUINOLA)
_ZERO = np.uint64(0)
_ONE = np.uint64(1)


# ----------------------------------------------------------------------------------------------------------------
# The steps of a deal
# ----------------------------------------------------------------------------------------------------------------


@njit_nrt_free_inline
def deal_cards(P, n, deck, cards, shuffle_key, dealer, hands, offered, predeal):
    """R11, R12: shuffle by key (Fisher-Yates, as ``keys.shuffled``), deal each hand in playing order from the
    eldest (the dealer one card more; a dealer who sits out none, F1.6), then one talon card before each
    non-dealer.

    ``predeal`` (``uint64 (PREDEAL_SIZE,)``, issue 18): the cards placed in each seat's hand before the deal
    (``predeal[PD_PLACED]`` all of them); only the other cards are shuffled, and a seat's hand is its predealt cards
    and as many shuffled ones as it lacks. With nothing predealt this is the deal of an unconstrained run."""
    n_deck = P[P_N_DECK]
    placed = predeal[PD_PLACED]
    m = 0
    for i in range(n_deck):
        c = deck[i]
        if placed == _ZERO or (placed >> np.uint64(c)) & _ONE == _ZERO:
            cards[m] = c
            # the swap partner of position m, drawn for every m first (independent draws: a vectorised loop)
            cards[SWAPS + m] = below(draw(shuffle_key, m), m + 1)
            m += 1
    for i in range(m - 1, 0, -1):
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
        hand = predeal[seat]
        end = pos + size + (1 if (seat == dealer and P[P_DEALER_EXTRA]) else 0) - count(hand)
        for i in range(pos, end):
            hand |= bit(cards[i])
        hands[H_DEALT, seat] = hand
        hands[H_NOW, seat] = hand
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
def deal_constrained(P, n, deck, deal, h_deal, dealer, dealing):
    """The deal's cards (:func:`deal_cards`), drawn again while the dealt hands miss the ``where`` program of
    ``dealing`` (an ``int64`` program of :mod:`reversis_sim.constraints`; empty: every deal passes), attempt ``k``
    shuffling with the key (..., deal, PURPOSE_SHUFFLE, k), as the reference does. Returns the number of shuffles
    drawn, or 0 when none of :data:`MAX_ATTEMPTS` passed."""
    hands, dealt = deal.hands, dealing.dealt
    for attempt in range(MAX_ATTEMPTS):
        deal_cards(P, n, deck, deal.cards, extend(extend(h_deal, PURPOSE_SHUFFLE), attempt), dealer, hands,
                   deal.offered, dealing.predeal)
        if len(dealing.where) == 0:
            return attempt + 1
        cards = _ZERO
        for s in range(TALON):
            dealt[s] = hands[H_DEALT, s] if s < n else _ZERO
            cards |= dealt[s]
        dealt[TALON] = dealing.predeal[PD_DECK] & ~cards
        if accepts(dealing.where, dealt, dealing.stack):
            return attempt + 1
    return 0


def make_exchange(choose):
    """The talon exchange whose choices are ``choose``'s (called as ``choose(P, n, sit_out, tables, seats, deal, ws,
    k, seat, hand, must)`` for the ``k``-th step, the seat's view ``deal.seat_view`` set; it returns the card to
    discard, -1 to keep the hand, or ``UNKNOWN_FAMILY``): the engine's seats (:data:`exchange`), a table whose
    exchanges are reviewed (:mod:`.review`), or a rollout of the review's in which one step's choice is given
    (:mod:`.review_before`). numba compiles one exchange per chooser."""

    @njit_nrt_free_inline
    def exchange(P, n, sit_out, tables, seats, deal, dealer, ws, first, talon_points):
        """R13-R15: the dealer discards one card; then each non-dealer in playing order either discards one card and
        takes his face-down card unseen, or keeps his hand and only looks at it. F3.2 (``serbian``,
        take-then-discard): each non-dealer must take his card, then the dealer and each non-dealer in playing order
        discard one card (perhaps the one just taken). Records the talon card each seat knows in ``deal.known``
        (A17). Plays the steps ``first ..`` (0: the whole exchange; a rollout of the review starts later, the talon
        holding ``talon_points`` card points so far and ``deal.known`` the earlier seats' cards). Returns the
        talon's card points."""
        row, hands, offered, exch, known, view = (deal.row, deal.hands, deal.offered, deal.exch, deal.known,
                                                  deal.seat_view)
        if first == 0:
            for s in range(n):
                known[s] = _ZERO
        if P[P_TALON] == TALON_NONE:
            return 0
        take = P[P_TALON] == TALON_TAKE
        origin = round_origin(n, dealer)
        p_eldest = position(eldest_of(n, dealer), origin, n)
        view[V_MUST_DISCARD] = 1 if take else 0
        for k in range(first, N_ACTIVE):
            seat = exchange_seat(n, dealer, origin, p_eldest, k)  # A: the dealer discards first
            must = take or seat == dealer
            hand = hands[H_NOW, seat]
            if take and seat != dealer:
                hand |= bit(offered[seat])  # F3.2: the talon card is taken first (every take precedes every discard)
            seat_decides(view, seat, hand, _ZERO)
            view[V_IS_DEALER] = 1 if seat == dealer else 0
            choice = choose(P, n, sit_out, tables, seats, deal, ws, k, seat, hand, must)
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
        view[V_IS_DEALER] = 0
        view[V_MUST_DISCARD] = 0
        row[COL_N_EXCH] = N_ACTIVE
        return talon_points

    return exchange


@njit_nrt_free_inline
def exchange_seat(n, dealer, origin, p_eldest, k):
    """The seat of the exchange's ``k``-th step: the dealer first, then the non-dealers in playing order."""
    return dealer if k == 0 else seat_of(p_eldest + k - 1, origin, n)


DECLARE_PASS, DECLARE_LOSE_ALL, DECLARE_WIN_ALL = 0, 1, 2
"""The options of the declaration: not to declare; to declare (with the goal ``lose_all`` where the preset names
one, F1.4); to declare with the goal ``win_all``."""


def make_declare(choose):
    """The declaration whose choice is ``choose``'s (called as ``choose(P, n, sit_out, tables, seats, deal, ws, seat,
    hand)`` for the one eligible seat, its view ``deal.seat_view`` set; it returns a declaration option,
    :data:`DECLARE_PASS` ..., or ``UNKNOWN_FAMILY``): the engine's seats (:data:`declare`), a reviewed table, a
    rollout of the review's."""

    @njit_nrt_free_inline
    def declare(P, n, sit_out, tables, seats, deal, dealer, ws):
        """R38, A13: after the exchange and before the first lead, an eligible player may declare; in the ``modern``
        family he also names his goal (F1.4). Returns the declarer's seat or -1."""
        if not P[P_ESP]:
            return -1
        row, view = deal.row, deal.seat_view
        origin = round_origin(n, dealer)
        p_eldest = position(eldest_of(n, dealer), origin, n)
        for k in range(N_ACTIVE):
            seat = seat_of(p_eldest + k, origin, n)
            hand = deal.hands[H_NOW, seat]
            if espagnolette_eligible(P, hand):  # at most one seat can be eligible
                seat_decides(view, seat, hand, deal.known[seat])
                option = choose(P, n, sit_out, tables, seats, deal, ws, seat, hand)
                if option == UNKNOWN_FAMILY:
                    row[COL_ERROR] = ERR_FAMILY + 16 * seat
                    return -1
                if option > DECLARE_PASS:
                    row[COL_DECLARER] = seat
                    if P[P_ESP_GOAL]:
                        goal = option - DECLARE_LOSE_ALL
                        row[COL_ESP_GOAL] = goal
                        view[V_GOAL] = goal
                    return seat
                return -1
        return -1

    return declare


@njit_nrt_free_inline
def seat_exchange(P, n, sit_out, tables, seats, deal, ws, k, seat, hand, must):
    """The engine's exchange choice: the seat's family on its view."""
    return choose_exchange(seats, deal.draws, deal.seat_view, tables)


@njit_nrt_free_inline
def seat_declares(P, n, sit_out, tables, seats, deal, ws, seat, hand):
    """The engine's declaration option (:func:`make_declare`): whether the seat's family declares, and its goal."""
    declares = choose_declare(seats, deal.draws, deal.seat_view, tables)
    if declares == UNKNOWN_FAMILY or not declares:
        return declares
    if not P[P_ESP_GOAL]:
        return DECLARE_LOSE_ALL
    goal = choose_goal(seats, deal.draws, deal.seat_view, tables)
    return UNKNOWN_FAMILY if goal == UNKNOWN_FAMILY else DECLARE_LOSE_ALL + goal


exchange = make_exchange(seat_exchange)
"""The engine's exchange (:func:`make_exchange`)."""

declare = make_declare(seat_declares)
"""The engine's declaration (:func:`make_declare`)."""


# ----------------------------------------------------------------------------------------------------------------
# One deal
# ----------------------------------------------------------------------------------------------------------------


def make_play_deal(play_tricks, exchange=exchange, declare=declare):
    """The deal kernel whose tricks are played by ``play_tricks`` (a :func:`reversis_sim.kernel.tricks.make_play_tricks`
    loop), its exchange by ``exchange`` (:func:`make_exchange`) and its declaration by ``declare``
    (:func:`make_declare`): the engine's seats (:data:`play_deal`), or a table whose decisions are reviewed as they
    are taken (:mod:`.review`). The deal's other steps and the settlement are the same."""

    @njit_nrt_free
    def play_deal(rules, n, sit_out, seats, h_match, h_pmatch, d, pool_before, double_ante, deal, ws, dealing):
        """Play deal ``d`` of the match whose key prefix is ``h_match`` (``keys.extend(seed_hash(seed), match)``),
        with seat ``s``'s policy stream prefix ``h_pmatch[s]`` (the same with its policy seed), the rules' arrays
        ``rules`` (:class:`reversis_sim.kernel.compiled.RulesArrays`) and the seats' policies ``seats``
        (:class:`reversis_sim.kernel.layout.Seats`), and fill the deal's arrays ``deal``
        (:class:`reversis_sim.kernel.layout.Deal`; ``ws``: the searching seats' workspace,
        :func:`reversis_sim.policies.rollout_nb.workspace`; ``dealing``: the deal's constraints and their scratch,
        :func:`deal_constrained`). ``double_ante``: ``serbian``, the previous deal had a J♥ placement (F3.3). Returns
        the pool after the deal.

        ``n`` is the number of seats, ``P[P_N_SEATS]`` (4, or 5 where the dealer sits out) and ``sit_out`` whether the
        dealer sits out (``P[P_SIT_OUT]``, the same as ``n == 5``), literal constants from the match kernels: numba
        compiles one specialization of the deal per table, in which the seat arithmetic of a four-seat table is the
        plain ``& 3`` (measured: the four-seat deal is 12% slower with the random policy, 8-17% with the heuristics,
        when the table is read at run time). It stays a parameter of the one deal loop."""
        P, tables, deck = rules
        row, hands = deal.row, deal.hands
        dealer = dealer_of(P, d)
        start_row(row, dealer, pool_before, double_ante)
        start_view(deal.seat_view, dealer, n, sit_out, P[P_HAND_SIZE], np.uint64(P[P_DECK_MASK]), pool_before,
                   double_ante)

        # DESIGN decision 1: the deal's draws, keyed by (seed, match, deal, purpose, seat).
        h_deal = extend(h_match, d)
        # Each seat's policy stream is keyed by its own policy seed (``h_pmatch[s]`` = extend(seed_hash(policy seed),
        # match)); by default every policy seed is the run seed, and then this is extend(h_deal, PURPOSE_POLICY), s.
        # A seat whose family never reads them (``avoid``, ``lowest``) is not drawn for: 60 hashes a deal at a table of
        # four.
        for s in range(n):
            if uses_draws(seats.family[s]):
                fill_draws(extend(extend(extend(h_pmatch[s], d), PURPOSE_POLICY), s), P[P_HAND_SIZE], P[P_ESP_GOAL],
                           deal.draws[s])

        row[COL_SHUFFLES] = deal_constrained(P, n, deck, deal, h_deal, dealer, dealing)
        if row[COL_SHUFFLES] == 0:
            row[COL_ERROR] = ERR_WHERE
            return pool_before
        antes(P, n, row, deal.ledger, dealer, double_ante)
        talon_points = exchange(P, n, sit_out, tables, seats, deal, dealer, ws, 0, 0)
        row[COL_PARTY_VALUE] = P[P_PARTY_BONUS] + talon_points  # R31 (set here for a review of the declaration)
        declarer = declare(P, n, sit_out, tables, seats, deal, dealer, ws)
        for s in range(n):  # Appendix A: each seat's cards at the first lead
            hand = hands[H_NOW, s]
            hands[H_LEAD, s] = hand
            row[COL_HEARTS + s] = count(hand & suit_mask(HEARTS))
            if (hand & QUINOLA_BIT) != _ZERO:
                row[COL_Q_HOLDER] = s
            if P[P_ESP] and row[COL_ESP_ELIGIBLE] < 0 and espagnolette_eligible(P, hand):
                row[COL_ESP_ELIGIBLE] = s
        committed, breaker, n_claims = play_tricks(P, n, sit_out, tables, seats, deal, dealer, declarer, 0, ws, 0, 0)
        settle_deal(P, n, row, deal.ledger, deal.claims, n_claims, deal.tricks, dealer, declarer, committed, breaker)
        return row[COL_POOL_AFTER]

    return play_deal


play_tricks = make_play_tricks(choose_play)
"""The trick loop of the engine's seats (:func:`reversis_sim.kernel.tricks.make_play_tricks`)."""

play_deal = make_play_deal(play_tricks)
"""One deal played by the engine's seats (:func:`make_play_deal`)."""
