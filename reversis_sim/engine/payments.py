"""Where the chips move (RULES.md §1.3, §1.7-§1.11): antes, Ace and Quinola side payments, the reversis
commitment's returns, and the settlement (reversis, espagnolette, led claims, party), as ``reference.py`` does them.

Every movement goes through :func:`pay`, which writes a ledger row and keeps the pool, the fish and the pool tallies
of the result row running (the arrays are described in :mod:`.layout`).
"""

from __future__ import annotations

from .. import cards as C
from ..jit import njit_nrt_free, njit_nrt_free_inline
from .compiled import (
    MAX_LEDGER,
    P_ACE_DUMPED,
    P_CANCEL_PARTY,
    P_ESP_POOL_RETURN_FACTOR,
    P_ESP_RETURN_FACTOR,
    P_EVERY_DEALER,
    P_EVERY_EACH,
    P_HAND_SIZE,
    P_LAST_TRICKS_COUNT,
    P_LAST_TRICKS_FACTOR,
    P_OPPOSITE_FACTOR,
    P_PARTY_OPPOSITE_FACTOR,
    P_PARTY_PAYERS,
    P_Q_FORCED_EACH_OTHER,
    P_Q_FORCED_PLUS_POOL,
    P_Q_POOL_DUMPED_WINS,
    P_Q_POOL_FORCED_DOUBLES,
    P_Q_POOL_LED_DOUBLES,
    P_RESTAKE_BELOW,
    P_RESTAKE_DEALER,
    P_RESTAKE_EACH,
    P_REV_BROKEN_PAYS_POOL,
    P_REV_NEIGHBOUR,
    P_REV_OPPOSITE,
    P_REV_TO_BREAKER,
    P_ROLLBACK_CLAIMS,
    P_ROLLBACK_POOL,
    P_ROLLBACK_SIDE,
    P_TIE_POS,
    PAYERS_EACH_OTHER,
    PAYERS_LOSER_ONLY,
    POOL,
    R_ACE_DUMPED,
    R_ACE_FORCED,
    R_ACE_LED,
    R_ANTE,
    R_PARTY,
    R_POOL_DOUBLE,
    R_POOL_WON,
    R_Q_DUMPED,
    R_Q_FORCED,
    R_Q_LED,
    R_RETURN,
    R_REVERSIS_BROKEN,
    R_REVERSIS_MADE,
)
from .layout import (
    COL_ERROR,
    COL_ESP_MADE,
    COL_ESP_SEAT,
    COL_FISH,
    COL_FROM_POOL,
    COL_N_PAYMENTS,
    COL_PARTY_LOSER,
    COL_PARTY_VALUE,
    COL_PARTY_WINNER,
    COL_POINTS,
    COL_POOL_AFTER,
    COL_Q_FATE,
    COL_Q_TRICK,
    COL_REV_BREAKER,
    COL_REV_MADE,
    COL_REV_SEAT,
    COL_TO_POOL,
    COL_WON,
    ERR_LEDGER,
    Q_DUMPED,
    Q_FORCED,
    Q_LED,
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
    ledger[n, 0] = trick
    ledger[n, 1] = payer
    ledger[n, 2] = payee
    ledger[n, 3] = amount
    ledger[n, 4] = reason
    ledger[n, 5] = 0
    row[COL_N_PAYMENTS] = n + 1


@njit_nrt_free
def mult(P, trick, a, b):
    """R24, A6: x2 between opposite seats, x2 in the last two tricks; the factors multiply."""
    m = P[P_OPPOSITE_FACTOR] if ((a - b) & 3) == 2 else 1
    if trick > P[P_HAND_SIZE] - P[P_LAST_TRICKS_COUNT]:
        m *= P[P_LAST_TRICKS_FACTOR]
    return m


@njit_nrt_free
def party_key(P, row, dealer, seat):
    """F0.4, R29: (points, tricks, position in the tie order from the dealer) as one integer; smallest wins.
    Lexicographic because tricks < 64 and positions < 8."""
    return ((row[COL_POINTS + seat] * 64 + row[COL_WON + seat]) * 8) + P[P_TIE_POS + ((seat - dealer) & 3)]


# ----------------------------------------------------------------------------------------------------------------
# During the deal
# ----------------------------------------------------------------------------------------------------------------


@njit_nrt_free_inline
def antes(P, row, ledger, dealer):
    """R9, F0.6: a new pool is staked when the pool is empty (5 each); the dealer adds 5 on every deal."""
    if row[COL_POOL_AFTER] < P[P_RESTAKE_BELOW]:
        for s in range(4):
            pay(row, ledger, 0, s, POOL, P[P_RESTAKE_DEALER] if s == dealer else P[P_RESTAKE_EACH], R_ANTE)
    for s in range(4):
        pay(row, ledger, 0, s, POOL, P[P_EVERY_DEALER] if s == dealer else P[P_EVERY_EACH], R_ANTE)


@njit_nrt_free_inline
def side_payments(P, row, ledger, claims, n_claims, t, tricks, winner):
    """§1.7, R22-R27: Ace and Quinola payments of trick ``t``, card by card in playing order. Returns the new
    number of led claims."""
    leader = tricks[t - 1, 0]
    led_suit = tricks[t - 1, 1] >> 4
    for i in range(4):
        card = tricks[t - 1, 1 + i]
        seat = (leader + i) & 3
        if card == QUINOLA:
            kind = 2
        elif card == ACE_OF_DIAMONDS:
            kind = 1
        elif (card & 15) == RANK_ACE:
            kind = 0
        else:
            continue
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
                claims[n_claims, 0] = t
                claims[n_claims, 1] = seat
                claims[n_claims, 2] = led_amount
                claims[n_claims, 3] = R_Q_LED if quinola else R_ACE_LED
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
                for other in range(4):
                    if other != leader and other != seat:
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
        trick = ledger[idx, 0]
        if trick == 0 or trick > t or ledger[idx, 4] == R_RETURN:
            continue
        payer = ledger[idx, 1]
        payee = ledger[idx, 2]
        is_pool = payer == POOL or payee == POOL
        if (is_pool and P[P_ROLLBACK_POOL]) or (not is_pool and P[P_ROLLBACK_SIDE]):
            pay(row, ledger, t, payee, payer, ledger[idx, 3], R_RETURN)
            ledger[idx, 5] = 1
    if P[P_ROLLBACK_CLAIMS]:
        kept = 0
        for i in range(n_claims):
            if claims[i, 0] > t:
                for j in range(4):
                    claims[kept, j] = claims[i, j]
                kept += 1
        n_claims = kept
    return n_claims


# ----------------------------------------------------------------------------------------------------------------
# Settlement
# ----------------------------------------------------------------------------------------------------------------


@njit_nrt_free_inline
def settle(P, row, ledger, claims, n_claims, dealer, declarer, committed, breaker):
    """R33 order: the reversis (R36, R37), the espagnolette (R40, R41), led claims (R22), the party (R28-R32)."""
    n_tricks = P[P_HAND_SIZE]

    # R36, R37: the reversis.
    made = False
    if committed >= 0:
        c = committed
        made = row[COL_WON + c] == n_tricks
        row[COL_REV_SEAT] = c
        row[COL_REV_MADE] = made
        row[COL_REV_BREAKER] = -1 if made else breaker
        if made:  # R36: each neighbour 16, the opposite 32 (fixed amounts, A6)
            for s in range(4):
                if s != c:
                    amount = P[P_REV_OPPOSITE] if ((s - c) & 3) == 2 else P[P_REV_NEIGHBOUR]
                    pay(row, ledger, 0, s, c, amount, R_REVERSIS_MADE)
        elif P[P_REV_BROKEN_PAYS_POOL]:  # F2.1 (pierer, A31): the maker pays the basket's amount into it
            pay(row, ledger, 0, c, POOL, row[COL_POOL_AFTER], R_REVERSIS_BROKEN)
        else:  # R37: a flat 64 to the breaker
            pay(row, ledger, 0, c, breaker, P[P_REV_TO_BREAKER], R_REVERSIS_BROKEN)

    # R40, R41, A16: the espagnolette.
    esp_made = False
    d = declarer
    if d >= 0:
        esp_made = (not made) and row[COL_WON + d] == 0  # a made reversis voids it (A16)
        row[COL_ESP_SEAT] = d
        row[COL_ESP_MADE] = esp_made
        if not made and not esp_made:
            # R41, A14, G8: return every dump payment and pool win still standing, doubled.
            n = row[COL_N_PAYMENTS]
            for idx in range(n):
                if ledger[idx, 5] or ledger[idx, 2] != d:
                    continue
                reason = ledger[idx, 4]
                if reason == R_ACE_DUMPED or reason == R_Q_DUMPED:
                    pay(row, ledger, 0, d, ledger[idx, 1], ledger[idx, 3] * P[P_ESP_RETURN_FACTOR], R_RETURN)
                elif reason == R_POOL_WON:
                    pay(row, ledger, 0, d, POOL, ledger[idx, 3] * P[P_ESP_POOL_RETURN_FACTOR], R_RETURN)

    # R28-R32: the party (cancelled by a made reversis, R36).
    if made and P[P_CANCEL_PARTY]:
        return
    failed = d if (d >= 0 and not esp_made) else -1
    if esp_made:
        winner = d  # R30: a successful declarer wins ahead of everyone
    else:
        winner = -1
        best = 0
        for s in range(4):
            if s != failed:
                key = party_key(P, row, dealer, s)
                if winner < 0 or key < best:
                    winner = s
                    best = key
    row[COL_PARTY_WINNER] = winner
    # R22, A3: led Aces and Quinola are paid to the party winner (nothing if he led it himself).
    for i in range(n_claims):
        holder = claims[i, 1]
        if holder != winner:
            pay(row, ledger, 0, holder, winner, claims[i, 2] * mult(P, claims[i, 0], holder, winner), claims[i, 3])
    value = row[COL_PARTY_VALUE]  # R31
    payers = P[P_PARTY_PAYERS]
    if payers == PAYERS_EACH_OTHER:  # R32: every other player pays; opposite x2
        for s in range(4):
            if s != winner:
                factor = P[P_PARTY_OPPOSITE_FACTOR] if ((s - winner) & 3) == 2 else 1
                pay(row, ledger, 0, s, winner, value * factor, R_PARTY)
    elif payers == PAYERS_LOSER_ONLY:  # PEN; A14: a failed declarer pays in place of the loser
        loser = failed
        if loser < 0:
            worst = 0
            for s in range(4):
                if s != winner:
                    key = party_key(P, row, dealer, s)
                    if loser < 0 or key > worst:
                        loser = s
                        worst = key
        row[COL_PARTY_LOSER] = loser
        factor = P[P_PARTY_OPPOSITE_FACTOR] if ((loser - winner) & 3) == 2 else 1
        pay(row, ledger, 0, loser, winner, value * factor, R_PARTY)
