"""Settlement (RULES.md §1.8-§1.11, §3 F): after the last trick, by the preset's scoring family, as the reference
engine's :mod:`reversis_sim.reference.settle` does it:

- :func:`settle_party` (the parlett family, ``pierer``): reversis, espagnolette, led claims, party (R33);
- :func:`settle_penalty` (the ``modern`` family, F1.4): reversis, espagnolette, the Quinola surcharge, penalty
  fiches, the bête, the pot;
- :func:`settle_bank` (``serbian``, F3.7): a made reversis takes everything, a failed espagnolette returns its
  takings, the bank and the bête to the deal winner;
- :func:`settle_simple` (``parlett_simple``, F4.3): no chips, a score per seat.

The reversis result columns are filled by the caller, :func:`.deal.play_deal`.
"""

from __future__ import annotations

from .compiled import (
    P_BETE,
    P_BETE_SHARE,
    P_CANCEL_PARTY,
    P_ESP_EACH_OPPONENT,
    P_ESP_GOAL,
    P_ESP_POOL_RETURN_FACTOR,
    P_ESP_RETURN_FACTOR,
    P_ESP_REVERSIS_EXTRA,
    P_HAND_SIZE,
    P_PARTY_OPPOSITE_FACTOR,
    P_PARTY_PAYERS,
    P_PENALTY_TO_POOL,
    P_PLACEMENT_IS_CAPTURE,
    P_Q_CAPTURE_SURCHARGE,
    P_REV_BROKEN_EACH_OPPONENT,
    P_REV_BROKEN_PAYS_POOL,
    P_REV_EACH_OPPONENT,
    P_REV_NEIGHBOUR,
    P_REV_OPPOSITE,
    P_REV_PLUS_POOL,
    P_REV_TO_BREAKER,
    P_SIMPLE_Q_EXTRA,
    P_TIE_POS,
    P_WINNER_TAKES_POOL,
    PAYERS_EACH_OTHER,
    PAYERS_LOSER_ONLY,
    POOL,
    R_ACE_DUMPED,
    R_BANK_DOUBLE,
    R_BETE,
    R_BETE_SHARE,
    R_ESP_FAILED,
    R_ESP_MADE,
    R_ESP_POOL,
    R_ESP_REVERSIS,
    R_PARTY,
    R_PENALTY,
    R_POOL_TO_WINNER,
    R_POOL_WON,
    R_Q_CAPTURED,
    R_Q_DUMPED,
    R_RETURN,
    R_REVERSIS_BROKEN,
    R_REVERSIS_MADE,
    R_REVERSIS_POOL,
)
from .jit import njit_nrt_free, njit_nrt_free_inline
from .layout import (
    CL_AMOUNT,
    CL_HOLDER,
    CL_REASON,
    CL_TRICK,
    COL_BETE,
    COL_ESP_GOAL,
    COL_ESP_MADE,
    COL_ESP_SEAT,
    COL_N_PAYMENTS,
    COL_PARTY_LOSER,
    COL_PARTY_VALUE,
    COL_PARTY_WINNER,
    COL_POINTS,
    COL_POOL_AFTER,
    COL_Q_FATE,
    COL_Q_TRICK,
    COL_SCORE,
    COL_WON,
    LG_AMOUNT,
    LG_PAYEE,
    LG_PAYER,
    LG_REASON,
    LG_RETURNED,
    LG_TRICK,
    Q_DUMPED,
    TR_WINNER,
)
from .payments import mult, pay, sitting_out


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
                if ledger[idx, LG_RETURNED] or ledger[idx, LG_PAYEE] != d:
                    continue
                reason = ledger[idx, LG_REASON]
                if reason == R_ACE_DUMPED or reason == R_Q_DUMPED:
                    pay(row, ledger, 0, d, ledger[idx, LG_PAYER], ledger[idx, LG_AMOUNT] * P[P_ESP_RETURN_FACTOR],
                        R_RETURN)
                elif reason == R_POOL_WON:
                    pay(row, ledger, 0, d, POOL, ledger[idx, LG_AMOUNT] * P[P_ESP_POOL_RETURN_FACTOR], R_RETURN)

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
        holder = claims[i, CL_HOLDER]
        if holder != winner:
            pay(row, ledger, 0, holder, winner, claims[i, CL_AMOUNT] * mult(P, claims[i, CL_TRICK], holder, winner),
                claims[i, CL_REASON])
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
        taker = tricks[q_trick - 1, TR_WINNER]
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
                    if ledger[idx, LG_TRICK] != 0 and ledger[idx, LG_PAYEE] == s:
                        got += ledger[idx, LG_AMOUNT]
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
                if ledger[idx, LG_TRICK] != 0 and ledger[idx, LG_PAYEE] == d:
                    pay(row, ledger, 0, d, ledger[idx, LG_PAYER], ledger[idx, LG_AMOUNT] * P[P_ESP_RETURN_FACTOR],
                        R_RETURN)
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
        row[COL_SCORE + tricks[q_trick - 1, TR_WINNER]] += P[P_SIMPLE_Q_EXTRA]
