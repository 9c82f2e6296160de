"""Where the chips move (RULES.md §1.3, §1.7-§1.11, §3 F): antes, Ace and Quinola side payments, the reversis
commitment's returns, and the settlement of each scoring family, as ``reference.py`` does them:

- :func:`settle_party` (the parlett family, ``pierer``): reversis, espagnolette, led claims, party (R33);
- :func:`settle_penalty` (the ``modern`` family, F1.4): reversis, espagnolette, the Quinola surcharge, penalty
  fiches, the bête, the pot;
- :func:`settle_bank` (``serbian``, F3.7): a made reversis takes everything, a failed espagnolette returns its
  takings, the bank and the bête to the deal winner;
- :func:`settle_simple` (``parlett_simple``, F4.3): no chips, a score per seat.

Every movement goes through :func:`pay`, which writes a ledger row and keeps the pool, the fish and the pool tallies
of the result row running (the arrays are described in :mod:`.layout`).
"""

from __future__ import annotations

from .. import cards as C
from ..jit import njit_nrt_free, njit_nrt_free_inline
from .compiled import (
    MAX_LEDGER,
    MAX_SEATS,
    P_ACE_DUMPED,
    P_BETE,
    P_BETE_SHARE,
    P_CANCEL_PARTY,
    P_ESP_EACH_OPPONENT,
    P_ESP_GOAL,
    P_ESP_POOL_RETURN_FACTOR,
    P_ESP_RETURN_FACTOR,
    P_ESP_REVERSIS_EXTRA,
    P_EVERY_DEALER,
    P_EVERY_EACH,
    P_HAND_SIZE,
    P_LAST_TRICKS_COUNT,
    P_LAST_TRICKS_FACTOR,
    P_OPPOSITE_FACTOR,
    P_PARTY_OPPOSITE_FACTOR,
    P_PARTY_PAYERS,
    P_PENALTY_TO_POOL,
    P_PLACEMENT_IS_CAPTURE,
    P_Q_CAPTURE_SURCHARGE,
    P_Q_FORCED_EACH_OTHER,
    P_Q_FORCED_PLUS_POOL,
    P_Q_POOL_DUMPED_WINS,
    P_Q_POOL_FORCED_DOUBLES,
    P_Q_POOL_LED_DOUBLES,
    P_RESTAKE_BELOW,
    P_RESTAKE_DEALER,
    P_RESTAKE_EACH,
    P_REV_BROKEN_EACH_OPPONENT,
    P_REV_BROKEN_PAYS_POOL,
    P_REV_EACH_OPPONENT,
    P_REV_NEIGHBOUR,
    P_REV_OPPOSITE,
    P_REV_PLUS_POOL,
    P_REV_TO_BREAKER,
    P_ROLLBACK_CLAIMS,
    P_ROLLBACK_POOL,
    P_ROLLBACK_SIDE,
    P_SIMPLE_Q_EXTRA,
    P_TIE_POS,
    P_WINNER_TAKES_POOL,
    PAYERS_EACH_OTHER,
    PAYERS_LOSER_ONLY,
    POOL,
    R_ACE_DUMPED,
    R_ACE_FORCED,
    R_ACE_LED,
    R_ANTE,
    R_BANK_DOUBLE,
    R_BETE,
    R_BETE_SHARE,
    R_ESP_FAILED,
    R_ESP_MADE,
    R_ESP_POOL,
    R_ESP_REVERSIS,
    R_PARTY,
    R_PENALTY,
    R_POOL_DOUBLE,
    R_POOL_TO_WINNER,
    R_POOL_WON,
    R_Q_CAPTURED,
    R_Q_DUMPED,
    R_Q_FORCED,
    R_Q_LED,
    R_RETURN,
    R_REVERSIS_BROKEN,
    R_REVERSIS_MADE,
    R_REVERSIS_POOL,
)
from .layout import (
    COL_BETE,
    COL_ERROR,
    COL_ESP_GOAL,
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
    COL_SCORE,
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


@njit_nrt_free
def party_key(P, n, row, dealer, seat, extra):
    """F0.4, R29: (points + ``extra``, tricks, position in the tie order from the dealer) as one integer; smallest
    wins. Lexicographic because tricks < 64 and positions < 128 (``extra``: the ``modern`` surcharge)."""
    offset = seat - dealer
    if offset < 0:
        offset += n
    return (((row[COL_POINTS + seat] + extra) * 64 + row[COL_WON + seat]) * 128) + P[P_TIE_POS + offset]


@njit_nrt_free
def deal_winner_and_bete(P, n, row, dealer, extra_seat, extra):
    """F0.4: the smallest and the largest key among the seats taking part (``extra`` added to the points of
    ``extra_seat``, the ``modern`` penalty)."""
    sit = sitting_out(n, dealer)
    winner, bete, best, worst = -1, -1, 0, 0
    for s in range(n):
        if s == sit:
            continue
        key = party_key(P, n, row, dealer, s, extra if s == extra_seat else 0)
        if winner < 0 or key < best:
            winner, best = s, key
        if bete < 0 or key > worst:
            bete, worst = s, key
    return winner, bete


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
    leader = tricks[t - 1, 0]
    p_leader = position(leader, origin, n)
    led_suit = tricks[t - 1, 1] >> 4
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
# Settlement (the reversis result columns are filled by the caller, :func:`.deal.play_deal`)
# ----------------------------------------------------------------------------------------------------------------


@njit_nrt_free_inline
def settle_party(P, n, row, ledger, claims, n_claims, dealer, declarer, committed, breaker, made):
    """R33 order: the reversis (R36, R37), the espagnolette (R40, R41), led claims (R22), the party (R28-R32)."""
    sit = sitting_out(n, dealer)

    # R36, R37: the reversis.
    if committed >= 0:
        c = committed
        if made:  # R36: each neighbour 16, the opposite 32 (fixed amounts, A6)
            for s in range(n):
                if s != c and s != sit:
                    amount = P[P_REV_OPPOSITE] if ((s - c) & 3) == 2 else P[P_REV_NEIGHBOUR]
                    pay(row, ledger, 0, s, c, amount, R_REVERSIS_MADE)
            if P[P_REV_PLUS_POOL]:
                pay(row, ledger, 0, POOL, c, row[COL_POOL_AFTER], R_REVERSIS_POOL)
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
            n_rows = row[COL_N_PAYMENTS]
            for idx in range(n_rows):
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
        for s in range(n):
            if s != failed and s != sit:
                key = party_key(P, n, row, dealer, s, 0)
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
        for s in range(n):
            if s != winner and s != sit:
                factor = P[P_PARTY_OPPOSITE_FACTOR] if ((s - winner) & 3) == 2 else 1
                pay(row, ledger, 0, s, winner, value * factor, R_PARTY)
    elif payers == PAYERS_LOSER_ONLY:  # PEN; A14: a failed declarer pays in place of the loser
        loser = failed
        if loser < 0:
            worst = 0
            for s in range(n):
                if s != winner and s != sit:
                    key = party_key(P, n, row, dealer, s, 0)
                    if loser < 0 or key > worst:
                        loser = s
                        worst = key
        row[COL_PARTY_LOSER] = loser
        factor = P[P_PARTY_OPPOSITE_FACTOR] if ((loser - winner) & 3) == 2 else 1
        pay(row, ledger, 0, loser, winner, value * factor, R_PARTY)


@njit_nrt_free
def settle_penalty(P, n, row, ledger, tricks, dealer, declarer, committed, made):
    """F1.4, the ``modern`` family: reversis, espagnolette, the Quinola surcharge, penalty fiches, the bête and the
    pot. Every amount is flat (F1.5); the opponents are the other seats taking part."""
    sit = sitting_out(n, dealer)
    n_tricks = P[P_HAND_SIZE]
    c, d = committed, declarer
    # Step 1: the reversis (the declarer is never committed, F1.4).
    if c >= 0:
        if made:
            for s in range(n):
                if s != c and s != sit:
                    pay(row, ledger, 0, s, c, P[P_REV_EACH_OPPONENT], R_REVERSIS_MADE)
            if P[P_REV_PLUS_POOL]:
                pay(row, ledger, 0, POOL, c, row[COL_POOL_AFTER], R_REVERSIS_POOL)
            if d >= 0:
                row[COL_ESP_SEAT] = d  # void (made: false, G13)
            return
        for s in range(n):
            if s != c and s != sit:
                pay(row, ledger, 0, c, s, P[P_REV_BROKEN_EACH_OPPONENT], R_REVERSIS_BROKEN)
    # Step 2: the espagnolette, made by losing (or winning) every trick as declared.
    if d >= 0:
        # (without a goal choice the reference's goal is None, which counts as win_all)
        want = 0 if (P[P_ESP_GOAL] and row[COL_ESP_GOAL] == 0) else n_tricks
        esp_made = row[COL_WON + d] == want
        row[COL_ESP_SEAT] = d
        row[COL_ESP_MADE] = esp_made
        if esp_made:
            for s in range(n):
                if s != d and s != sit:
                    pay(row, ledger, 0, s, d, P[P_ESP_EACH_OPPONENT], R_ESP_MADE)
            pay(row, ledger, 0, POOL, d, row[COL_POOL_AFTER], R_ESP_POOL)
            return
        for s in range(n):  # G3: he is still ranked in step 5
            if s != d and s != sit:
                pay(row, ledger, 0, d, s, P[P_ESP_EACH_OPPONENT], R_ESP_FAILED)
    # Step 3: the J♥ captured other than by placement costs its taker the pot + 4, into the pot (A22).
    taker = -1
    surcharge = 0
    q_trick = row[COL_Q_TRICK]
    if q_trick > 0 and (row[COL_Q_FATE] != Q_DUMPED or P[P_PLACEMENT_IS_CAPTURE]):
        taker = tricks[q_trick - 1, 5]
        surcharge = row[COL_POOL_AFTER] + P[P_Q_CAPTURE_SURCHARGE]
        pay(row, ledger, 0, taker, POOL, surcharge, R_Q_CAPTURED)
    # Step 4: penalty fiches: each seat pays its card points into the pot (A18).
    if P[P_PENALTY_TO_POOL]:
        for s in range(n):
            if s != sit:
                pay(row, ledger, 0, s, POOL, row[COL_POINTS + s], R_PENALTY)
    # Step 5: the deal winner (fewest penalty) and the bête (most) pays him (F0.4); F1.6: the dealer's share.
    winner, bete = deal_winner_and_bete(P, n, row, dealer, taker, surcharge)
    row[COL_PARTY_WINNER] = winner
    row[COL_BETE] = bete
    share = P[P_BETE_SHARE]
    pay(row, ledger, 0, bete, dealer, share, R_BETE_SHARE)
    pay(row, ledger, 0, bete, winner, P[P_BETE] - share, R_BETE)
    # Step 6: the winner takes the pot, unless it carries over (modern_partie).
    if P[P_WINNER_TAKES_POOL]:
        pay(row, ledger, 0, POOL, winner, row[COL_POOL_AFTER], R_POOL_TO_WINNER)


@njit_nrt_free
def settle_bank(P, n, row, ledger, dealer, declarer, committed, made):
    """F3.7, ``serbian``: a made reversis takes everything; a failed espagnolette returns its takings doubled and
    doubles the bank; the deal winner takes the bank and the bête pays him 4."""
    sit = sitting_out(n, dealer)
    c, d = committed, declarer
    winner, bete = deal_winner_and_bete(P, n, row, dealer, -1, 0)
    if made:
        # Step 1 (G1): every other seat hands the maker everything it received in tricks 1-11 (gross).
        for s in range(n):
            if s != c and s != sit:
                got = 0
                for idx in range(row[COL_N_PAYMENTS]):
                    if ledger[idx, 0] != 0 and ledger[idx, 2] == s:
                        got += ledger[idx, 3]
                pay(row, ledger, 0, s, c, got, R_REVERSIS_MADE)
        if P[P_REV_PLUS_POOL]:
            pay(row, ledger, 0, POOL, c, row[COL_POOL_AFTER], R_REVERSIS_POOL)
        if d >= 0:
            if d != c:
                pay(row, ledger, 0, d, c, P[P_ESP_REVERSIS_EXTRA], R_ESP_REVERSIS)
            row[COL_ESP_SEAT] = d  # void (made: false, G13)
        return
    if d >= 0:
        esp_made = winner == d  # A29: made = being the deal winner
        row[COL_ESP_SEAT] = d
        row[COL_ESP_MADE] = esp_made
        if not esp_made:
            # Step 2 (G2): everything he received in tricks 1-11 goes back doubled; then he doubles the bank.
            n_rows = row[COL_N_PAYMENTS]
            for idx in range(n_rows):
                if ledger[idx, 0] != 0 and ledger[idx, 2] == d:
                    pay(row, ledger, 0, d, ledger[idx, 1], ledger[idx, 3] * P[P_ESP_RETURN_FACTOR], R_RETURN)
            pay(row, ledger, 0, d, POOL, row[COL_POOL_AFTER], R_BANK_DOUBLE)
    # Step 3: the bank to the winner, and the bête pays him 4.
    row[COL_PARTY_WINNER] = winner
    row[COL_BETE] = bete
    pay(row, ledger, 0, POOL, winner, row[COL_POOL_AFTER], R_POOL_TO_WINNER)
    pay(row, ledger, 0, bete, winner, P[P_BETE], R_BETE)


@njit_nrt_free
def settle_simple(P, n, row, tricks):
    """F4.3, ``parlett_simple``: no chips; each seat scores its card points, +5 for taking the J♥."""
    for s in range(n):
        row[COL_SCORE + s] = row[COL_POINTS + s]
    q_trick = row[COL_Q_TRICK]
    if q_trick > 0:
        row[COL_SCORE + tricks[q_trick - 1, 5]] += P[P_SIMPLE_Q_EXTRA]
