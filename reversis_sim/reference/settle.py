"""Settlement: who pays whom after the last trick, by the preset's scoring family (RULES.md §1.8-§1.11, §3 F).

:func:`settle` counts the card points and tricks, decides the reversis, then runs the family's settlement, which
makes its payments through :meth:`.deal.DealState.pay` and records its verdicts (the party or deal winner, the
loser or the bête, the espagnolette) on the deal; the deal record is built from them by
:func:`reversis_sim.game.deal_record`.
"""

from __future__ import annotations

from ..game import DUMP_REASONS, FATE_DUMPED, FATE_TALON, POOL, quinola_fate
from ..game.deal_record import card_points
from .deal import DealState


def settle(g: DealState) -> None:
    """Count points and tricks, decide the reversis, then settle by the preset's scoring family."""
    r = g.rules
    g.points, g.n_won = card_points(r, g.tricks)  # R7, R28
    c = g.committed
    g.reversis_made = c is not None and g.n_won[c] == g.n_tricks
    if c is not None and not g.reversis_made:  # G9: the first trick after the commitment that c lost
        g.breaker = next(tr.winner for tr in g.tricks[r.reversis_commit_after:] if tr.winner != c)
    if r.scoring == "party":
        settle_party(g)
    elif r.scoring == "penalty":
        settle_penalty(g)
    elif r.scoring == "bank":
        settle_bank(g)
    # simple scoring (F4.3) moves no chips: the scores follow from the tricks (game.deal_record)


def rank_key(g: DealState, seat: int, points: list[int]) -> tuple[int, int, int]:
    """F0.4, R29: (points, tricks, position in the tie order counted from the dealer); smallest wins."""
    return points[seat], g.n_won[seat], g.rules.tie_offsets.index((seat - g.dealer) % g.n)


def settle_party(g: DealState) -> None:
    """R33 order: reversis (R36, R37), espagnolette (R40, R41), led claims (R22), party (R28-R32)."""
    r = g.rules
    c, made, d = g.committed, g.reversis_made, g.declarer
    if c is not None:
        if made:  # R36: each neighbour 16, the opposite 32 (fixed amounts, A6)
            for s in g.active():
                if s != c:
                    g.pay(None, s, c, r.reversis_opposite if r.opposite(s, c) else r.reversis_neighbour,
                          "reversis_made")
            if r.reversis_plus_pool:
                g.pay(None, POOL, c, g.pool, "reversis_pool")
        elif r.reversis_broken_pays_pool:  # F2.1 (pierer, A31): the maker pays the basket's amount into it
            g.pay(None, c, POOL, g.pool, "reversis_broken")
        else:  # R37: a flat 64 to the breaker
            g.pay(None, c, g.breaker, r.reversis_to_breaker, "reversis_broken")

    # R40, R41, A16: the espagnolette.
    esp_made = d is not None and not made and g.n_won[d] == 0  # a made reversis voids it (A16)
    g.espagnolette_made = esp_made
    if d is not None and not made and not esp_made:
        # R41, A14, G8: return every dump payment and pool win still standing, doubled.
        for idx, p in enumerate(list(g.ledger)):
            if idx in g.rolled_back or p.payee != d:
                continue
            if p.reason in DUMP_REASONS:
                g.pay(None, d, p.payer, p.amount * r.espagnolette_return_factor, "return")
            elif p.reason == "pool_won":
                g.pay(None, d, POOL, p.amount * r.espagnolette_pool_return_factor, "return")
    if made and r.cancel_party_on_success:
        return  # R36: no party after a made reversis (and so no led claims, A3)

    # R28-R32: the party.
    failed = d if (d is not None and not esp_made) else None
    key = {s: rank_key(g, s, g.points) for s in g.active()}
    if esp_made:
        winner = d  # R30: a successful declarer wins ahead of everyone
    else:
        winner = min((s for s in key if s != failed), key=key.__getitem__)
    g.party_winner = winner
    # R22, A3: led Aces and Quinola are paid to the party winner (nothing if he led it himself).
    for t, holder, base, reason in g.claims:
        if holder != winner:
            g.pay(None, holder, winner, base * g.mult(t, holder, winner), reason)
    value = r.party_bonus + sum(r.tables.talon_points[x] for x in g.talon)  # R31
    if r.party_payers == "each_other":  # R32: every other player pays; opposite ×2
        payers = [s for s in sorted(key) if s != winner]
    elif r.party_payers == "loser_only":  # PEN, F2.3; A14: a failed declarer pays in place of the loser
        loser = failed if failed is not None else max((s for s in key if s != winner), key=key.__getitem__)
        g.party_loser = loser
        payers = [loser]
    else:
        payers = []
    for s in payers:
        factor = r.party_opposite_factor if r.opposite(s, winner) else 1
        g.pay(None, s, winner, value * factor, "party")


def settle_penalty(g: DealState) -> None:
    """F1.4, the ``modern`` family: reversis, espagnolette, the Quinola surcharge, penalty fiches, the bête and the
    pot. Every amount is flat (F1.5); the opponents are the other seats taking part."""
    r = g.rules
    c, made, d = g.committed, g.reversis_made, g.declarer

    def opponents(seat: int) -> list[int]:
        return [s for s in g.active() if s != seat]

    # Step 1: the reversis.
    if c is not None:
        if made:
            for s in opponents(c):
                g.pay(None, s, c, r.reversis_each_opponent, "reversis_made")
            if r.reversis_plus_pool:
                g.pay(None, POOL, c, g.pool, "reversis_pool")
            return  # an espagnolette is void (G13)
        for s in opponents(c):
            g.pay(None, c, s, r.reversis_broken_each_opponent, "reversis_broken")
    # Step 2: the espagnolette, made by losing (or winning) every trick as declared.
    if d is not None:
        want = 0 if g.goal == "lose_all" else g.n_tricks
        g.espagnolette_made = g.n_won[d] == want
        if g.espagnolette_made:
            for s in opponents(d):
                g.pay(None, s, d, r.espagnolette_each_opponent, "espagnolette_made")
            g.pay(None, POOL, d, g.pool, "espagnolette_pool")
            return
        for s in opponents(d):  # G3: he is still ranked in step 5
            g.pay(None, d, s, r.espagnolette_each_opponent, "espagnolette_failed")
    # Step 3: the J♥ captured other than by placement costs its taker the pot + 4, into the pot (A22).
    surcharge = [0] * g.n
    fate, t = quinola_fate(tr.cards for tr in g.tricks)
    if fate != FATE_TALON and (fate != FATE_DUMPED or r.placement_is_capture):
        taker = g.tricks[t - 1].winner
        surcharge[taker] = g.pool + r.quinola_capture_surcharge
        g.pay(None, taker, POOL, surcharge[taker], "quinola_captured")
    # Step 4: penalty fiches: each seat pays its card points into the pot (A18).
    if r.penalty_to_pool:
        for s in g.active():
            g.pay(None, s, POOL, g.points[s], "penalty")
    # Step 5: the deal winner (fewest penalty) and the bête (most) pays him (F0.4).
    penalty = [g.points[s] + surcharge[s] for s in range(g.n)]
    key = {s: rank_key(g, s, penalty) for s in g.active()}
    winner = min(key, key=key.__getitem__)
    bete = max(key, key=key.__getitem__)
    g.party_winner, g.bete = winner, bete
    share = r.bete_dealer_share if r.dealer_sits_out else 0
    g.pay(None, bete, g.dealer, share, "bete_share")  # F1.6: the sitting-out dealer's share
    g.pay(None, bete, winner, r.bete_payment - share, "bete")
    # Step 6: the winner takes the pot, unless it carries over (modern_partie).
    if r.winner_takes_pool:
        g.pay(None, POOL, winner, g.pool, "pool_to_winner")


def settle_bank(g: DealState) -> None:
    """F3.7, ``serbian``: a made reversis takes everything; a failed espagnolette returns its takings doubled
    and doubles the bank; the deal winner takes the bank and the bête pays him 4."""
    r = g.rules
    c, made, d = g.committed, g.reversis_made, g.declarer
    key = {s: rank_key(g, s, g.points) for s in g.active()}
    winner = min(key, key=key.__getitem__)
    bete = max(key, key=key.__getitem__)
    if made:
        # Step 1 (G1): every other seat hands the maker everything it received in tricks 1-11 (gross).
        for s in g.active():
            if s != c:
                got = sum(p.amount for p in g.ledger if p.trick is not None and p.payee == s)
                g.pay(None, s, c, got, "reversis_made")
        if r.reversis_plus_pool:
            g.pay(None, POOL, c, g.pool, "reversis_pool")
        if d is not None and d != c:
            g.pay(None, d, c, r.espagnolette_reversis_extra, "espagnolette_reversis")
        return  # an espagnolette is void (G13)
    if d is not None:
        g.espagnolette_made = winner == d  # A29: made = being the deal winner
        if not g.espagnolette_made:
            # Step 2 (G2): everything he received in tricks 1-11 goes back doubled; then he doubles the bank.
            for p in list(g.ledger):
                if p.trick is not None and p.payee == d:
                    g.pay(None, d, p.payer, p.amount * r.espagnolette_return_factor, "return")
            g.pay(None, d, POOL, g.pool, "bank_double")
    # Step 3: the bank to the winner, and the bête pays him 4.
    g.party_winner, g.bete = winner, bete
    g.pay(None, POOL, winner, g.pool, "pool_to_winner")
    g.pay(None, bete, winner, r.bete_payment, "bete")
