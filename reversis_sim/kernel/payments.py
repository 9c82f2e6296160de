"""Where the chips move during a deal (RULES.md §1.3, §1.7, R34-R35): antes, Ace and Quinola side payments, the
reversis commitment's returns, as the reference engine does them; the settlement is in :mod:`.settle`.

Every movement goes through :func:`pay`, which writes a ledger row and keeps the pool, the fish and the pool tallies
of the result row running (the arrays are described in :mod:`.layout`). The seat arithmetic of a table (a dealer
who sits out, positions in playing order) lives here too, for both modules.
"""

from __future__ import annotations

from .. import cards as C
from .compiled import (
    MAX_LEDGER,
    MAX_SEATS,
    P_ACE_DUMPED,
    P_EVERY_DEALER,
    P_EVERY_EACH,
    P_HAND_SIZE,
    P_LAST_TRICKS_COUNT,
    P_LAST_TRICKS_FACTOR,
    P_OPPOSITE_FACTOR,
    P_Q_FORCED_EACH_OTHER,
    P_Q_FORCED_PLUS_POOL,
    P_Q_POOL_DUMPED_WINS,
    P_Q_POOL_FORCED_DOUBLES,
    P_Q_POOL_LED_DOUBLES,
    P_RESTAKE_BELOW,
    P_RESTAKE_DEALER,
    P_RESTAKE_EACH,
    P_ROLLBACK_CLAIMS,
    P_ROLLBACK_POOL,
    P_ROLLBACK_SIDE,
    POOL,
    R_ACE_DUMPED,
    R_ACE_FORCED,
    R_ACE_LED,
    R_ANTE,
    R_POOL_DOUBLE,
    R_POOL_WON,
    R_Q_DUMPED,
    R_Q_FORCED,
    R_Q_LED,
    R_RETURN,
)
from .jit import njit_nrt_free, njit_nrt_free_inline
from .layout import (
    CL_AMOUNT,
    CL_HOLDER,
    CL_REASON,
    CL_TRICK,
    COL_ERROR,
    COL_FISH,
    COL_FROM_POOL,
    COL_N_PAYMENTS,
    COL_POOL_AFTER,
    COL_Q_FATE,
    COL_Q_TRICK,
    COL_TO_POOL,
    ERR_LEDGER,
    LG_AMOUNT,
    LG_PAYEE,
    LG_PAYER,
    LG_REASON,
    LG_RETURNED,
    LG_TRICK,
    Q_DUMPED,
    Q_FORCED,
    Q_LED,
    TR_CARDS,
    TR_LEADER,
)

QUINOLA = C.QUINOLA
ACE_OF_DIAMONDS = C.ACE_OF_DIAMONDS
RANK_ACE = C.RANK_ACE


# ----------------------------------------------------------------------------------------------------------------
# Bookkeeping
# ----------------------------------------------------------------------------------------------------------------


@njit_nrt_free
def pay(row, ledger, trick, payer, payee, amount, reason):
    """Record a movement of chips (F0.5: a payment of 0 is not written); keeps the pool and the fish running."""
    if amount <= 0:
        return
    n = row[COL_N_PAYMENTS]
    if n >= MAX_LEDGER:  # cannot happen in the parlett family (see :mod:`.layout`)
        row[COL_ERROR] = ERR_LEDGER
        return
    if payer == POOL:
        row[COL_POOL_AFTER] -= amount
        row[COL_FROM_POOL + payee] += amount
    else:
        row[COL_FISH + payer] -= amount
    if payee == POOL:
        row[COL_POOL_AFTER] += amount
        row[COL_TO_POOL + payer] += amount
    else:
        row[COL_FISH + payee] += amount
    ledger[n, LG_TRICK] = trick
    ledger[n, LG_PAYER] = payer
    ledger[n, LG_PAYEE] = payee
    ledger[n, LG_AMOUNT] = amount
    ledger[n, LG_REASON] = reason
    ledger[n, LG_RETURNED] = 0
    row[COL_N_PAYMENTS] = n + 1


@njit_nrt_free_inline
def sitting_out(n, dealer):
    """The seat that takes no part in the deal, or -1: at a table of five (``modern_five``, F1.6) the dealer, since
    a deal always has four seats taking part (``check_engine_supported``)."""
    return dealer if n == MAX_SEATS else -1


@njit_nrt_free_inline
def round_origin(n, dealer):
    """F0.2: the seat from which the ``position`` of a seat in playing order is counted: seat 0 at a four-seat table
    (positions are seats), the eldest d+1 where the dealer sits out (``modern_five``: the four seats taking part
    are positions 0..3, the dealer position 4)."""
    if n != MAX_SEATS:
        return 0
    e = dealer + 1
    return 0 if e == n else e


@njit_nrt_free_inline
def position(seat, origin, n):
    """The position of ``seat`` in playing order at a table of ``n``, counted from ``origin``."""
    p = seat - origin
    return p + n if p < 0 else p


@njit_nrt_free_inline
def seat_of(p, origin, n):
    """The seat at position ``p`` (modulo the four seats taking part) in playing order from ``origin``: the seat
    ``k`` places after ``seat`` is ``seat_of(position(seat, origin, n) + k, origin, n)``. With the literal table size
    of four (:func:`.deal.play_deal`) the origin is 0 and both fold to ``(seat + k) & 3``."""
    s = origin + (p & 3)
    return s - n if s >= n else s


@njit_nrt_free
def mult(P, trick, a, b):
    """R24, A6: x2 between opposite seats, x2 in the last two tricks; the factors multiply. (At a five-seat table
    the opposite factor is compiled to 1: nobody sits opposite.)"""
    m = P[P_OPPOSITE_FACTOR] if ((a - b) & 3) == 2 else 1
    if trick > P[P_HAND_SIZE] - P[P_LAST_TRICKS_COUNT]:
        m *= P[P_LAST_TRICKS_FACTOR]
    return m


# ----------------------------------------------------------------------------------------------------------------
# During the deal
# ----------------------------------------------------------------------------------------------------------------


@njit_nrt_free_inline
def antes(P, n, row, ledger, dealer, double_ante):
    """R9, F0.6: a new pool is staked when the pool is below ``restake_below`` (parlett: empty, 5 each); then the
    every-deal antes (parlett: the dealer's 5). A seat that sits out pays nothing; F3.3: ``serbian`` doubles the
    every-deal antes after a deal with a J♥ placement."""
    sit = sitting_out(n, dealer)
    if row[COL_POOL_AFTER] < P[P_RESTAKE_BELOW]:
        for s in range(n):
            if s != sit:
                pay(row, ledger, 0, s, POOL, P[P_RESTAKE_DEALER] if s == dealer else P[P_RESTAKE_EACH], R_ANTE)
    factor = 2 if double_ante else 1
    for s in range(n):
        if s != sit:
            pay(row, ledger, 0, s, POOL, factor * (P[P_EVERY_DEALER] if s == dealer else P[P_EVERY_EACH]), R_ANTE)


@njit_nrt_free_inline
def side_payments(P, n, row, ledger, claims, n_claims, t, tricks, dealer, winner):
    """§1.7, R22-R27: Ace and Quinola payments of trick ``t``, card by card in playing order (F1.3, F3.4: the
    other presets' amounts are parameters). Returns the new number of led claims."""
    sit = sitting_out(n, dealer)
    origin = round_origin(n, dealer)
    leader = tricks[t - 1, TR_LEADER]
    p_leader = position(leader, origin, n)
    led_suit = tricks[t - 1, TR_CARDS] >> 4
    for i in range(4):
        card = tricks[t - 1, 1 + i]
        if card == QUINOLA:
            kind = 2
        elif card == ACE_OF_DIAMONDS:
            kind = 1
        elif (card & 15) == RANK_ACE:
            kind = 0
        else:
            continue
        seat = seat_of(p_leader + i, origin, n)
        quinola = kind == 2
        dumped_amount = P[P_ACE_DUMPED + 3 * kind]
        forced_amount = P[P_ACE_DUMPED + 3 * kind + 1]
        led_amount = P[P_ACE_DUMPED + 3 * kind + 2]
        if i == 0:
            # R22, A3, A4: a led card is claimed by the party winner at settlement (holder's amount only).
            if quinola:
                row[COL_Q_FATE] = Q_LED
                row[COL_Q_TRICK] = t
            if led_amount:
                claims[n_claims, CL_TRICK] = t
                claims[n_claims, CL_HOLDER] = seat
                claims[n_claims, CL_AMOUNT] = led_amount
                claims[n_claims, CL_REASON] = R_Q_LED if quinola else R_ACE_LED
                n_claims += 1
            # R25: a led Quinola doubles the pool (holder pays the pool's amount).
            if quinola and P[P_Q_POOL_LED_DOUBLES]:
                pay(row, ledger, t, seat, POOL, row[COL_POOL_AFTER], R_POOL_DOUBLE)
        elif (card >> 4) == led_suit:
            # A7: forced = any play by a non-leader to a lead of its own suit; the holder pays the leader.
            reason = R_Q_FORCED if quinola else R_ACE_FORCED
            if quinola and P[P_Q_FORCED_PLUS_POOL]:
                forced_amount += row[COL_POOL_AFTER]  # F3.4 (serbian): the bank + 4, at that moment
            pay(row, ledger, t, seat, leader, forced_amount * mult(P, t, seat, leader), reason)
            if quinola:
                row[COL_Q_FATE] = Q_FORCED
                row[COL_Q_TRICK] = t
                # R23, A5: each player who is neither leader nor holder also pays the leader 5.
                for other in range(n):
                    if other != leader and other != seat and other != sit:
                        pay(row, ledger, t, other, leader,
                            P[P_Q_FORCED_EACH_OTHER] * mult(P, t, other, leader), R_Q_FORCED)
                # R25: the holder doubles the pool.
                if P[P_Q_POOL_FORCED_DOUBLES]:
                    pay(row, ledger, t, seat, POOL, row[COL_POOL_AFTER], R_POOL_DOUBLE)
        else:
            # Dumped (placed): the trick winner pays the dumper.
            reason = R_Q_DUMPED if quinola else R_ACE_DUMPED
            pay(row, ledger, t, winner, seat, dumped_amount * mult(P, t, winner, seat), reason)
            if quinola:
                row[COL_Q_FATE] = Q_DUMPED
                row[COL_Q_TRICK] = t
                # R26: a dumped Quinola wins the whole pool.
                if P[P_Q_POOL_DUMPED_WINS]:
                    pay(row, ledger, t, POOL, seat, row[COL_POOL_AFTER], R_POOL_WON)
    return n_claims


@njit_nrt_free_inline
def commit_reversis(P, row, ledger, claims, n_claims, t):
    """R34, R35, A10: the one player who won tricks 1..t is committed to the reversis, and every side payment,
    pool movement and led claim of tricks 1..t is returned (as new rows in the opposite direction). Returns the
    new number of led claims."""
    n = row[COL_N_PAYMENTS]
    for idx in range(n):
        trick = ledger[idx, LG_TRICK]
        if trick == 0 or trick > t or ledger[idx, LG_REASON] == R_RETURN:
            continue
        payer = ledger[idx, LG_PAYER]
        payee = ledger[idx, LG_PAYEE]
        is_pool = payer == POOL or payee == POOL
        if (is_pool and P[P_ROLLBACK_POOL]) or (not is_pool and P[P_ROLLBACK_SIDE]):
            pay(row, ledger, t, payee, payer, ledger[idx, LG_AMOUNT], R_RETURN)
            ledger[idx, LG_RETURNED] = 1
    if P[P_ROLLBACK_CLAIMS]:
        kept = 0
        for i in range(n_claims):
            if claims[i, CL_TRICK] > t:
                for j in range(4):
                    claims[kept, j] = claims[i, j]
                kept += 1
        n_claims = kept
    return n_claims
