"""One deal played on from any point: the one deal skeleton every kernel shares (the engine's deals, a record played
again, the search's rollouts, the review's rollouts and its reviewed deals).

A deal in progress is its arrays (:class:`~reversis_sim.kernel.layout.Deal`) with its cursor ``deal.at``
(``AT_*``): where it stands (an exchange step, the declaration, a trick and a card) and what the tricks carry from
card to card. :func:`begin` starts one from its start record: the hands dealt and the talon's cards (``hands``,
``offered``, filled by the caller), the dealer, the pool carried in and whether the antes are doubled.
:func:`play_from` then plays it on from its cursor to the end and settles it, every seat deciding by its family
(:mod:`.choose_nb`), except where the decision comes from elsewhere:

- taken already: the first ``AT_FORCED`` cards in playing order are those in ``deal.tricks`` (a history played
  again, a record), the first ``AT_FORCED_EXCH`` exchange steps those in ``deal.exch``, the declaration
  ``AT_FORCED_DECL``;
- given: ``AT_CHOICE``, the choice for the decision the deal paused at;
- asked: a search's card, and every decision of a seat in the bit mask ``AT_STOP`` not taken already (taken ones
  too with ``AT_STOP_FORCED``: a record reviewed). There the deal pauses: the seat's view set
  (:mod:`reversis_sim.kernel.view`), ``AT_SEAT``, ``AT_KIND`` and the seat's own choice in ``AT_OWN``: the one
  taken already, or its family's (for a card only with ``AT_OWN_TOO``; never for a search's card); the trick's
  state saved in the cursor; :func:`play_from` returns :data:`PAUSED`. Its caller decides (the search, a reviewer)
  and calls it again with ``AT_CHOICE`` set.

Read it beside the reference engine (``reference/deal.py``, ``reference/settle.py``) and RULES.md: the steps are the
same in the same order (the exchange, the declaration, the tricks with their side payments and the reversis
commitment, the settlement, in :mod:`reversis_sim.kernel`), each rule a commented block citing its number.

:func:`play_from` is compiled once, for every caller: they call it through its address (a separately compiled
kernel, :mod:`reversis_sim.kernel.units`), so its code is compiled and optimised once however many kernels use it.
The engine's tables of heuristics, where nothing is taken, given or asked, play :func:`play_plain`: the same source
with those questions folded away, a unit of the same type (a command compiles the one it plays).
"""

from __future__ import annotations

import numpy as np

from ..kernel.bits import bit, count, select, suit_mask
from ..kernel.compiled import (
    MAX_SEATS,
    N_ACTIVE,
    P_COMMIT_AFTER,
    P_DECK_MASK,
    P_ESP,
    P_ESP_GOAL,
    P_HAND_SIZE,
    P_PARTY_BONUS,
    P_REVERSIS,
    P_TALON,
    T_TALON_POINTS,
    T_TRICK_POINTS,
    TALON_NONE,
    TALON_TAKE,
)
from ..kernel.jit import njit_nrt_free, njit_nrt_free_inline
from ..kernel.layout import (
    ASK_CARD,
    ASK_DECLARE,
    ASK_EXCHANGE,
    AT_BREAKER,
    AT_CHOICE,
    AT_COMMITTED,
    AT_DECLARER,
    AT_FIRST_WINNER,
    AT_FORCED,
    AT_FORCED_DECL,
    AT_FORCED_EXCH,
    AT_KIND,
    AT_LEADER,
    AT_LED,
    AT_LEN,
    AT_N_CLAIMS,
    AT_ONE_WINNER,
    AT_OWN,
    AT_OWN_TOO,
    AT_PHASE,
    AT_PLAYED,
    AT_POS,
    AT_SEAT,
    AT_SEEN,
    AT_STEP,
    AT_STOP,
    AT_STOP_FORCED,
    AT_TALON_POINTS,
    COL_DEALER,
    COL_DECLARER,
    COL_ERROR,
    COL_ESP_ELIGIBLE,
    COL_ESP_GOAL,
    COL_HEARTS,
    COL_N_EXCH,
    COL_PARTY_VALUE,
    COL_POINTS,
    COL_Q_HOLDER,
    COL_WON,
    DONE,
    ERR_EXCHANGE,
    ERR_FAMILY,
    ERR_PLAY,
    EX_CARD,
    EX_SEAT,
    EX_TOOK,
    H_LEAD,
    H_NOW,
    NO_CHOICE,
    PAUSED,
    PH_DECLARE,
    PH_DONE,
    PH_EXCHANGE,
    PH_TRICKS,
    TR_LEADER,
    TR_WINNER,
    UNKNOWN_FAMILY,
)
from ..kernel.payments import antes, commit_reversis, position, round_origin, seat_of, side_payments
from ..kernel.tricks import (
    HEARTS,
    PAYMENT_CARDS,
    QUINOLA_BIT,
    after_trick,
    eldest_of,
    espagnolette_eligible,
    legal_mask,
    settle_deal,
    start_row,
    trick_winner,
)
from ..kernel.units import I64, P_TYPE, TABLES_TYPE, Unit, deal_type, seats_type
from ..kernel.view import (
    V_CUR,
    V_DECLARER,
    V_GOAL,
    V_IS_DEALER,
    V_LEADER,
    V_MUST_DISCARD,
    V_STREAK,
    V_TRICK,
    seat_decides,
    seat_plays,
    start_view,
)
from .choose_nb import card_choice, declaration_option, exchange_choice
from .search import SEARCH_ID
from .view import DECLARE_LOSE_ALL, DECLARE_PASS

_ZERO = np.uint64(0)


@njit_nrt_free_inline
def begin(P, n, deal, dealer, pool_before, double_ante):
    """Start the deal of ``deal`` (its ``hands`` and ``offered`` filled by the caller: the start record) at the
    exchange's first step: its result row and the facts of its view (:func:`~reversis_sim.kernel.tricks.start_row`,
    :func:`~reversis_sim.kernel.view.start_view`), the antes (R8, R9), no talon card known yet, the cursor at the
    start with nothing forced, given or stopped for."""
    row = deal.row
    start_row(row, dealer, pool_before, double_ante)
    start_view(deal.seat_view, dealer, n, n == MAX_SEATS, P[P_HAND_SIZE], np.uint64(P[P_DECK_MASK]),
               pool_before, double_ante)
    antes(P, n, row, deal.ledger, dealer, double_ante)
    for s in range(MAX_SEATS):
        deal.known[s] = _ZERO
    at = deal.at
    for i in range(AT_LEN):
        at[i] = 0
    at[AT_PHASE], at[AT_DECLARER], at[AT_SEAT] = PH_EXCHANGE, -1, -1
    at[AT_FORCED_DECL], at[AT_CHOICE], at[AT_OWN] = NO_CHOICE, NO_CHOICE, NO_CHOICE


@njit_nrt_free_inline
def start_tricks(n, deal, declarer):
    """Set the cursor at the first lead of the deal: the eldest leads (R17), nothing played, ``declarer`` the
    espagnolette declarer or -1."""
    at = deal.at
    at[AT_PHASE], at[AT_STEP], at[AT_POS], at[AT_DECLARER] = PH_TRICKS, 0, 0, declarer
    at[AT_LEADER], at[AT_LED], at[AT_PLAYED], at[AT_SEEN] = eldest_of(n, deal.row[COL_DEALER]), -1, 0, 0
    at[AT_FIRST_WINNER], at[AT_ONE_WINNER], at[AT_COMMITTED], at[AT_BREAKER], at[AT_N_CLAIMS] = -1, 1, -1, -1, 0
    deal.seat_view[V_DECLARER] = declarer


@njit_nrt_free
def play_from(P, n, tables, seats, deal):
    """Play the deal of ``deal`` on from its cursor (module docstring) at a table of ``n`` seats (4, or 5 with the
    dealer sitting out) whose policies are ``seats``, with the rules' parameters ``P`` and per-card ``tables``
    (:mod:`reversis_sim.kernel.compiled`): the rest of the exchange, the declaration, the hands at the first lead,
    the tricks, the settlement. Returns :data:`DONE` (settled) or :data:`PAUSED` (a decision to take).

    The body is inlined twice, for a table of four and for one of five, so that LLVM folds the seat arithmetic of
    each (measured: a table of ``random`` plays 7% more deals a second than with the seat count read at run time;
    numba compiles the body once, its types the same for both)."""
    if n == 4:
        return _play_from(P, 4, tables, seats, deal, False)
    return _play_from(P, 5, tables, seats, deal, False)


@njit_nrt_free
def play_plain(P, n, tables, seats, deal):
    """:func:`play_from` for a deal where nothing is taken, given or stopped for and no seat searches (a table of
    heuristics started by :func:`begin`): the same body with the cursor's questions folded away by LLVM, every
    decision its family's (measured: a table of ``random`` plays 5% more deals a second, one of ``avoid`` 8%)."""
    if n == 4:
        return _play_from(P, 4, tables, seats, deal, True)
    return _play_from(P, 5, tables, seats, deal, True)


@njit_nrt_free_inline
def _play_from(P, n, tables, seats, deal, plain):
    at = deal.at
    if at[AT_PHASE] == PH_EXCHANGE:
        if not _exchange(P, n, tables, seats, deal, plain):
            return PAUSED
        deal.row[COL_PARTY_VALUE] = P[P_PARTY_BONUS] + at[AT_TALON_POINTS]  # R31 (set now for a reviewed declaration)
        at[AT_PHASE] = PH_DECLARE
    if at[AT_PHASE] == PH_DECLARE:
        if not _declaration(P, n, tables, seats, deal):
            return PAUSED
        _first_lead(P, n, deal)
        start_tricks(n, deal, at[AT_DECLARER])
    if at[AT_PHASE] == PH_TRICKS:
        if not _tricks(P, n, tables, seats, deal, plain):
            return PAUSED
        settle_deal(P, n, deal.row, deal.ledger, deal.claims, at[AT_N_CLAIMS], deal.tricks, deal.row[COL_DEALER],
                    at[AT_DECLARER], at[AT_COMMITTED], at[AT_BREAKER])
        at[AT_PHASE] = PH_DONE
    return DONE


PLAY_FROM = Unit(play_from, lambda: I64(P_TYPE, I64, TABLES_TYPE, seats_type(), deal_type()))
"""The skeleton as a unit: ``play_from(P, n, tables, seats, deal)``, compiled once and called through its address."""
PLAY_PLAIN = Unit(play_plain, PLAY_FROM.signature)
""":func:`play_plain` as a unit of the same type, for the engine's tables of heuristics."""


@njit_nrt_free_inline
def _pause(at, seat, kind, own):
    """Stop at the decision of ``seat`` of ``kind`` (the seat's own choice ``own``, or NO_CHOICE)."""
    at[AT_SEAT] = seat
    at[AT_KIND] = kind
    at[AT_OWN] = own


@njit_nrt_free_inline
def exchange_seat(n, dealer, origin, p_eldest, k):
    """The seat of the exchange's ``k``-th step: the dealer first, then the non-dealers in playing order."""
    return dealer if k == 0 else seat_of(p_eldest + k - 1, origin, n)


@njit_nrt_free_inline
def _exchange(P, n, tables, seats, deal, plain):
    """R13-R15: the dealer discards one card; then each non-dealer in playing order either discards one card and
    takes his face-down card unseen, or keeps his hand and only looks at it. F3.2 (``serbian``, take-then-discard):
    each non-dealer must take his card, then the dealer and each non-dealer in playing order discard one card
    (perhaps the one just taken). Records the talon card each seat knows in ``deal.known`` (A17) and the talon's
    card points in the cursor. From the cursor's step on; False where it paused."""
    at = deal.at
    if P[P_TALON] == TALON_NONE:
        return True
    row, hands, offered, exch, known, view = deal.row, deal.hands, deal.offered, deal.exch, deal.known, deal.seat_view
    take = P[P_TALON] == TALON_TAKE
    dealer = row[COL_DEALER]
    origin = round_origin(n, dealer)
    p_eldest = position(eldest_of(n, dealer), origin, n)
    view[V_MUST_DISCARD] = 1 if take else 0
    talon_points = at[AT_TALON_POINTS]
    for k in range(at[AT_STEP], N_ACTIVE):
        seat = exchange_seat(n, dealer, origin, p_eldest, k)  # A: the dealer discards first
        must = take or seat == dealer
        hand = hands[H_NOW, seat]
        if take and seat != dealer:
            hand |= bit(offered[seat])  # F3.2: the talon card is taken first (every take precedes every discard)
        seat_decides(view, seat, hand, _ZERO)
        view[V_IS_DEALER] = 1 if seat == dealer else 0
        choice = at[AT_CHOICE]
        if plain:
            choice = exchange_choice(seats, deal.draws, view, tables)
        elif choice != NO_CHOICE:
            at[AT_CHOICE] = NO_CHOICE
        else:
            stopped = ((at[AT_STOP] >> seat) & 1) != 0
            if k < at[AT_FORCED_EXCH]:
                choice = exch[k, EX_CARD]
                stopped = stopped and at[AT_STOP_FORCED] != 0
            else:
                choice = exchange_choice(seats, deal.draws, view, tables)
            if stopped:
                at[AT_STEP] = k
                at[AT_TALON_POINTS] = talon_points
                _pause(at, seat, ASK_EXCHANGE, choice)
                return False
        if (choice >= 0 and (hand & bit(choice)) == _ZERO) or (choice < 0 and (must or choice == UNKNOWN_FAMILY)):
            # not a card of his hand; or no family is registered under the seat's id
            row[COL_ERROR] = (ERR_FAMILY if choice == UNKNOWN_FAMILY else ERR_EXCHANGE) + 16 * seat
            choice = select(hand, 0)
        exch[k, EX_SEAT] = seat
        exch[k, EX_CARD] = choice
        exch[k, EX_TOOK] = 0
        if must:  # R13: the dealer discards, never takes; F3.2: everyone discards, the non-dealers took
            hand &= ~bit(choice)
            talon_card = choice
            exch[k, EX_TOOK] = 1 if seat != dealer else 0
        elif choice < 0:  # R14 (b): keep the hand and just look at the card
            talon_card = offered[seat]
        else:  # R14 (a): discard one card, take the face-down card without looking first
            hand = (hand & ~bit(choice)) | bit(offered[seat])
            talon_card = choice
            exch[k, EX_TOOK] = 1
        hands[H_NOW, seat] = hand
        known[seat] = bit(talon_card)  # A17: his discard, or the card he looked at
        talon_points += tables[T_TALON_POINTS, talon_card]
    view[V_IS_DEALER] = 0
    view[V_MUST_DISCARD] = 0
    row[COL_N_EXCH] = N_ACTIVE
    at[AT_STEP] = N_ACTIVE
    at[AT_TALON_POINTS] = talon_points
    return True


@njit_nrt_free_inline
def _declaration(P, n, tables, seats, deal):
    """R38, A13: after the exchange and before the first lead, an eligible player may declare; in the ``modern``
    family he also names his goal (F1.4). Sets the cursor's declarer; False where it paused."""
    at = deal.at
    if not P[P_ESP]:
        return True
    row, view = deal.row, deal.seat_view
    dealer = row[COL_DEALER]
    origin = round_origin(n, dealer)
    p_eldest = position(eldest_of(n, dealer), origin, n)
    for k in range(N_ACTIVE):
        seat = seat_of(p_eldest + k, origin, n)
        hand = deal.hands[H_NOW, seat]
        if espagnolette_eligible(P, hand):  # at most one seat can be eligible
            seat_decides(view, seat, hand, deal.known[seat])
            option = at[AT_CHOICE]
            if option != NO_CHOICE:
                at[AT_CHOICE] = NO_CHOICE
            else:
                stopped = ((at[AT_STOP] >> seat) & 1) != 0
                if at[AT_FORCED_DECL] != NO_CHOICE:
                    option = at[AT_FORCED_DECL]
                    stopped = stopped and at[AT_STOP_FORCED] != 0
                else:
                    option = declaration_option(P[P_ESP_GOAL], seats, deal.draws, view, tables)
                if stopped:
                    _pause(at, seat, ASK_DECLARE, option)
                    return False
            if option == UNKNOWN_FAMILY:
                row[COL_ERROR] = ERR_FAMILY + 16 * seat
                return True
            if option > DECLARE_PASS:
                row[COL_DECLARER] = seat
                at[AT_DECLARER] = seat
                if P[P_ESP_GOAL]:
                    goal = option - DECLARE_LOSE_ALL
                    row[COL_ESP_GOAL] = goal
                    view[V_GOAL] = goal
            return True
    return True


@njit_nrt_free_inline
def _first_lead(P, n, deal):
    """Appendix A: each seat's cards at the first lead, and what the run table keeps of them."""
    row, hands = deal.row, deal.hands
    for s in range(n):
        hand = hands[H_NOW, s]
        hands[H_LEAD, s] = hand
        row[COL_HEARTS + s] = count(hand & suit_mask(HEARTS))
        if (hand & QUINOLA_BIT) != _ZERO:
            row[COL_Q_HOLDER] = s
        if P[P_ESP] and row[COL_ESP_ELIGIBLE] < 0 and espagnolette_eligible(P, hand):
            row[COL_ESP_ELIGIBLE] = s


@njit_nrt_free_inline
def _tricks(P, n, tables, seats, deal, plain):
    """R17-R21: the eldest leads; follow suit if able; the highest card of the suit led wins and leads next. Side
    payments trick by trick, the reversis commitment after trick ``reversis_commit_after``. From the cursor's trick
    and card on, with the state the cursor carries; False where it paused (the state saved in the cursor)."""
    at = deal.at
    row, ledger, claims, hands, tricks, view = deal.row, deal.ledger, deal.claims, deal.hands, deal.tricks, \
        deal.seat_view
    n_tricks = P[P_HAND_SIZE]
    dealer = row[COL_DEALER]
    origin = round_origin(n, dealer)
    commit_after = P[P_COMMIT_AFTER] if P[P_REVERSIS] else -1
    declarer, forced, stop, stop_forced = at[AT_DECLARER], at[AT_FORCED], at[AT_STOP], at[AT_STOP_FORCED] != 0
    leader, led_suit = at[AT_LEADER], at[AT_LED]
    played, seen = np.uint64(at[AT_PLAYED]), np.uint64(at[AT_SEEN])
    first_winner, one_winner = at[AT_FIRST_WINNER], at[AT_ONE_WINNER] != 0
    committed, breaker, n_claims = at[AT_COMMITTED], at[AT_BREAKER], at[AT_N_CLAIMS]
    k0 = at[AT_POS]
    choice = at[AT_CHOICE]  # the card given for the decision the deal paused at, if any
    at[AT_CHOICE] = NO_CHOICE
    asks = stop  # the seats whose cards may pause the deal: those stopped for, and a search
    for s in range(n):
        if seats.family[s] == SEARCH_ID:
            asks |= 1 << s
    for ti in range(at[AT_STEP], n_tricks):
        t = ti + 1
        if k0 == 0:
            tricks[ti, TR_LEADER] = leader
            led_suit = -1
            played = _ZERO
            view[V_TRICK] = ti
            view[V_LEADER] = leader
            view[V_STREAK] = first_winner if (one_winner and ti > 0) else -1  # the seat that won every trick so far
        p_leader = position(leader, origin, n)
        for k in range(k0, N_ACTIVE):
            seat = seat_of(p_leader + k, origin, n)
            hand = hands[H_NOW, seat]
            legal = legal_mask(P, hand, ti, led_suit, seat == declarer)
            taken = ti * N_ACTIVE + k < forced
            if plain or (choice == NO_CHOICE and not taken and ((asks >> seat) & 1) == 0):
                card = card_choice(tables, seats, deal, seat, hand, legal, seen, k)  # the common case: its family's
            elif choice != NO_CHOICE:
                card = choice
                choice = NO_CHOICE
            elif taken and not (((stop >> seat) & 1) != 0 and stop_forced):
                card = tricks[ti, 1 + k]
            else:  # stopped for, or a search's card: pause
                seat_plays(view, seat, hand, legal, seen, deal.known[seat], k)
                own = NO_CHOICE
                if taken:
                    own = tricks[ti, 1 + k]
                elif at[AT_OWN_TOO] and seats.family[seat] != SEARCH_ID:
                    own = card_choice(tables, seats, deal, seat, hand, legal, seen, k)
                at[AT_STEP], at[AT_POS], at[AT_LEADER], at[AT_LED] = ti, k, leader, led_suit
                at[AT_PLAYED], at[AT_SEEN] = np.int64(played), np.int64(seen)
                at[AT_FIRST_WINNER], at[AT_ONE_WINNER] = first_winner, 1 if one_winner else 0
                at[AT_COMMITTED], at[AT_BREAKER], at[AT_N_CLAIMS] = committed, breaker, n_claims
                _pause(at, seat, ASK_CARD, own)
                return False
            if card < 0 or (legal & bit(card)) == _ZERO:
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
        k0 = 0
        winner = trick_winner(n, tables, tricks, ti, dealer, leader, led_suit)
        tricks[ti, TR_WINNER] = winner
        row[COL_WON + winner] += 1
        for k in range(N_ACTIVE):  # R7, R28
            row[COL_POINTS + winner] += tables[T_TRICK_POINTS, tricks[ti, 1 + k]]
        if (played & PAYMENT_CARDS) != _ZERO:
            n_claims = side_payments(P, n, row, ledger, claims, n_claims, t, tricks, dealer, winner)
        first_winner, one_winner, committed, breaker, commits = after_trick(P, t, winner, first_winner, one_winner,
                                                                            committed, breaker, commit_after,
                                                                            declarer)
        if commits:
            n_claims = commit_reversis(P, row, ledger, claims, n_claims, t)
        leader = winner
    at[AT_STEP], at[AT_POS] = n_tricks, 0
    at[AT_COMMITTED], at[AT_BREAKER], at[AT_N_CLAIMS] = committed, breaker, n_claims
    return True
