"""Known-answer deals for every payment rule of the ``parlett`` preset (RULES.md §1, §3 A).

Each test is a complete, legal 11-trick deal, written in the compact notation of the golden "about" texts
(``T<n> L<leader>: cards in playing order from the leader -> winner``; see tests/dealbuilder.py), designed so that
the rule under test is (as far as the 48 cards allow) the only thing that moves money besides the antes and the
party. The money is worked out by hand in the comment above each test; the engine must agree row by row.

Conventions used in the comments:
- seats 0..3 in playing order; s+2 sits opposite s; "neighbours" = s±1 (RULES.md §1.1);
- card points A 4, K 3, Q 2, J 1 (R7); party = 4 + the card points of the four talon cards (R31), paid to the
  party winner by every other player, the opposite seat double (R32);
- side-payment multipliers: x2 between opposite seats, x2 in tricks 10-11, multiplied (R24, A6);
- antes (R9, F0.6): a new pool (pool_before 0) gets 5 from every seat plus the dealer's 5 (= 25); a carried pool
  gets only the dealer's 5.

To keep the Aces and the Quinola out of a deal, most deals park them in the talon (then they only raise the
party), and the one Ace in play is led by the seat that wins the party, which costs nothing (R22).
"""

from __future__ import annotations

import pytest
from dealbuilder import antes, build, net, replace_trick, rows, settle

from reversis_sim.game import IllegalPlay

POOL = "pool"


def P(trick, frm, to, amount, reason):
    """One expected payment row (as ``dealbuilder.rows`` writes it)."""
    return (trick, frm, to, amount, reason)


def check(out, *, expected, fish, pool_after, party_winner, dealer=0, pool_before=0):
    """Every non-ante row, the ante rows, the fish, the pool and the party winner of a settled deal."""
    assert rows(out["payments"]) == sorted(expected, key=repr)
    assert [r for r in rows(out["payments"], antes=True) if r[4] == "ante"] == antes(dealer, pool_before)
    res = out["result"]
    assert res["fish"] == fish
    assert res["pool_after"] == pool_after
    assert res["party_winner"] == party_winner
    assert sum(fish) + pool_after - pool_before == 0  # chips are conserved


def party(winner, value):
    """R32: every other seat pays the party winner ``value``, the seat opposite him double."""
    return [P(None, s, winner, value * (2 if (s - winner) % 4 == 2 else 1), "party") for s in range(4) if s != winner]


# ==================================================================================================================
# The quiet deal. Dealer 0 (eldest 1). Talon J♥ A♥ A♦ A♣ (dealer discards J♥; seats 1-3 only look): 1+4+4+4 = 13,
# party 17. The only special card in play is A♠, led by seat 1, who wins the party: nothing is paid for it (R22).
# Points: 0: KH QH KC QC = 10 (4 tricks); 1: AS = 4 (1 trick); 2: KS QS JS = 6 (2); 3: KD QD JD JC = 7 (4).
# ==================================================================================================================
QUIET_TALON = ["JH", "AH", "AD", "AC"]
QUIET = """
T1 L1: AS 2S 3S 4S -> 1     A♠ led by 1 (the party winner): no claim
T2 L1: 5S KS 6S 7S -> 2
T3 L2: QS 8S 9S JS -> 2
T4 L2: 2H 3H KH 4H -> 0
T5 L0: QH 5H 6H 7H -> 0
T6 L0: 2D 3D 4D KD -> 3
T7 L3: QD 5D 6D 7D -> 3
T8 L3: 3C KC 4C 2C -> 0
T9 L0: QC 5C 6C 7C -> 0
T10 L0: 8H 8D 8C 9H -> 3    seats 1 and 2 are void in hearts
T11 L3: JD JC 9D 9C -> 3    seats 0 and 2 are void in diamonds
"""


# R22, A3: a led Ace is paid to the party winner, and nothing when the holder is the party winner.
# Party winner 1 (4 points, unique). Party 17: 0 pays 17, 2 pays 17, 3 (opposite) 34; 1 gets 68.
# Fish: 0: -10 (ante + dealer) -17 = -27; 1: -5 +68 = +63; 2: -5 -17 = -22; 3: -5 -34 = -39. Pool 0 -> 25.
def test_ace_led_by_the_party_winner_costs_nothing():
    out = settle(build(0, QUIET, QUIET_TALON))
    check(out, expected=party(1, 17), fish=[-27, 63, -22, -39], pool_after=25, party_winner=1)
    assert out["result"]["card_points"] == [10, 4, 6, 7]
    assert out["result"]["tricks_won"] == [4, 1, 2, 4]


# R27, A9, R9: the Quinola in the talon is never played; the pool is untouched and carried. A carried pool of 30
# gets only the dealer's 5: 35 after the deal.
# Fish: 0: -5 -17 = -22; 1: +68; 2: -17; 3: -34 (sum -5 = what the pool gained).
def test_quinola_in_the_talon_leaves_the_pool_untouched():
    out = settle(build(0, QUIET, QUIET_TALON, pool_before=30))
    check(out, expected=party(1, 17), fish=[-22, 68, -17, -34], pool_after=35, party_winner=1, pool_before=30)
    assert "JH" in out["talon"]
    assert not [p for p in out["payments"] if p["reason"] in ("pool_won", "pool_double")]


# R14 (a), R15, R31: seat 3 was dealt A♣, discarded it and took the face-down 9♥ unseen (he plays it in trick 10).
# The talon is the four cards left out: J♥ A♥ A♦ and his discard A♣, so the party is 4 + 13 = 17 (had the cards
# as offered, J♥ A♥ A♦ 9♥, been counted it would be 13). Same play and money as the quiet deal.
def test_talon_exchange_took():
    out = settle(build(0, QUIET, QUIET_TALON, took={3: ("AC", "9H")}))
    assert out["talon_offered"] == [None, "AH", "AD", "9H"]
    assert "AC" in out["dealt"][3] and "9H" not in out["dealt"][3]
    assert "9H" in out["hands"][3] and "AC" not in out["hands"][3]
    assert out["exchanges"] == [{"seat": 0, "discard": "JH", "took": False},
                                {"seat": 1, "discard": None, "took": False},
                                {"seat": 2, "discard": None, "took": False},
                                {"seat": 3, "discard": "AC", "took": True}]
    assert out["talon"] == ["JH", "AH", "AD", "AC"]
    check(out, expected=party(1, 17), fish=[-27, 63, -22, -39], pool_after=25, party_winner=1)


# ==================================================================================================================
# Aces (§1.7 table): forced = holder pays the leader; dumped = the trick winner pays the dumper; led = the holder
# pays the party winner at settlement (R22). A♠ A♥ A♣ are worth 1, A♦ 2.
# ==================================================================================================================

# Dealer 0, new pool, talon J♥ A♥ A♦ A♣ (13, party 17).
ACE_FORCED = """
T1 L1: 2S AS 3S 4S -> 2     A♠ forced by 2 to 1's lead (neighbours): 2 pays 1 1
T2 L2: KS 5S 6S 7S -> 2
T3 L2: QS 8S 9S JS -> 2
T4 L2: 2H 3H KH 4H -> 0
T5 L0: QH 5H 6H 7H -> 0
T6 L0: 2D 3D KD 4D -> 2
T7 L2: QD 5D 6D 7D -> 2
T8 L2: 2C 3C KC 4C -> 0
T9 L0: QC 5C 6C 7C -> 0
T10 L0: 8H 8D 8C 9H -> 3
T11 L3: JD JC 9D 9C -> 3
"""


# Points: 0: KH QH KC QC = 10; 1: 0 (no trick); 2: AS KS QS JS KD QD = 15; 3: JD JC = 2. Party winner 1.
# Rows: T1 2 -> 1 1 (ace_forced). Party 17: 0 pays 17, 2 pays 17, 3 (opposite) 34.
# Fish: 0: -10 -17 = -27; 1: -5 +1 +68 = +64; 2: -5 -1 -17 = -23; 3: -5 -34 = -39. Pool 25.
def test_ace_forced():
    out = settle(build(0, ACE_FORCED, QUIET_TALON))
    check(out, expected=[P(1, 2, 1, 1, "ace_forced")] + party(1, 17),
          fish=[-27, 64, -23, -39], pool_after=25, party_winner=1)
    assert out["result"]["card_points"] == [10, 0, 15, 2]


# The same cards, but seat 2 leads A♠ to trick 2 (and plays K♠ to trick 1): same points, same party winner 1.
# Row: the claim 2 -> 1 1 (ace_led), paid at settlement (trick null); 2 and 1 are neighbours, trick 2: x1.
# Fish as in the forced deal: [-27, +64, -23, -39].
def test_ace_led_pays_the_party_winner_at_settlement():
    text = replace_trick(ACE_FORCED, "T1 L1: 2S KS 3S 4S -> 2")
    text = replace_trick(text, "T2 L2: AS 5S 6S 7S -> 2     A♠ led by 2: claim 1 for the party winner")
    out = settle(build(0, text, QUIET_TALON))
    check(out, expected=[P(None, 2, 1, 1, "ace_led")] + party(1, 17),
          fish=[-27, 64, -23, -39], pool_after=25, party_winner=1)


# Dealer 0, new pool. Talon J♥ A♠ A♦ A♣ (13, party 17); A♥ is dumped by seat 1 (void in spades) in trick 3.
ACE_DUMPED = """
T1 L1: 2S KS 3S 4S -> 2
T2 L2: QS 5S 6S 7S -> 2
T3 L2: JS 8S 9S AH -> 2     A♥ dumped by 1 (void ♠), winner 2 (neighbours): 2 pays 1 1
T4 L2: 2H 3H KH 4H -> 0
T5 L0: QH 5H 6H 7H -> 0
T6 L0: 2D 3D KD 4D -> 2
T7 L2: QD 5D 6D 7D -> 2
T8 L2: 2C 3C KC 4C -> 0
T9 L0: QC 5C 6C 7C -> 0
T10 L0: 8H 8D 8C 9H -> 3
T11 L3: JD JC 9D 9C -> 3
"""


# Points: 0: 10; 1: 0; 2: KS QS JS+AH KD QD = 15 (the dumped A♥ counts for the trick winner); 3: 2. Winner 1.
# Rows: T3 2 -> 1 1 (ace_dumped). Party 17 as before. Fish: [-27, +64, -23, -39].
def test_ace_dumped():
    out = settle(build(0, ACE_DUMPED, ["JH", "AS", "AD", "AC"]))
    check(out, expected=[P(3, 2, 1, 1, "ace_dumped")] + party(1, 17),
          fish=[-27, 64, -23, -39], pool_after=25, party_winner=1)
    assert out["result"]["card_points"] == [10, 0, 15, 2]


# A♦ dumped instead (talon J♥ A♠ A♥ A♣, still 13): worth 2. Row: T3 2 -> 1 2.
# Fish: 0: -27; 1: -5 +2 +68 = +65; 2: -5 -2 -17 = -24; 3: -39.
def test_ace_of_diamonds_dumped_pays_two():
    text = replace_trick(ACE_DUMPED, "T3 L2: JS 8S 9S AD -> 2     A♦ dumped by 1, winner 2: 2 pays 1 2")
    out = settle(build(0, text, ["JH", "AS", "AH", "AC"]))
    check(out, expected=[P(3, 2, 1, 2, "ace_dumped")] + party(1, 17),
          fish=[-27, 65, -24, -39], pool_after=25, party_winner=1)


# A♦ forced: the quiet deal with seat 3 playing A♦ instead of K♦ to trick 6 (K♦ goes to the talon).
# Talon J♥ A♥ K♦ A♣ = 1+4+3+4 = 12, party 16. Points: 3: AD QD JD JC = 8; 1 still lowest with 4.
# Rows: T6 3 -> 0 2 (A♦ forced by 3 to 0's lead, neighbours). Party 16: 0 pays 16, 2 pays 16, 3 pays 32.
# Fish: 0: -10 +2 -16 = -24; 1: -5 +64 = +59; 2: -5 -16 = -21; 3: -5 -2 -32 = -39.
def test_ace_of_diamonds_forced_pays_two():
    text = replace_trick(QUIET, "T6 L0: 2D 3D 4D AD -> 3     A♦ forced by 3, leader 0: 3 pays 0 2")
    out = settle(build(0, text, ["JH", "AH", "KD", "AC"]))
    check(out, expected=[P(6, 3, 0, 2, "ace_forced")] + party(1, 16),
          fish=[-24, 59, -21, -39], pool_after=25, party_winner=1)


# A♦ led: seat 3 leads A♦ to trick 7 instead of Q♦ (Q♦ goes to the talon: J♥ A♥ Q♦ A♣ = 11, party 15).
# Points: 3: KD AD JD JC = 9; 1 still lowest with 4. The claim: 3 -> 1 2, x2 opposite = 4, at settlement.
# Party 15: 0 pays 15, 2 pays 15, 3 pays 30. Fish: 0: -10 -15 = -25; 1: -5 +4 +60 = +59; 2: -5 -15 = -20;
# 3: -5 -4 -30 = -39.
def test_ace_of_diamonds_led_pays_two_to_the_party_winner():
    text = replace_trick(QUIET, "T7 L3: AD 5D 6D 7D -> 3     A♦ led by 3: claim 2 for the party winner")
    out = settle(build(0, text, ["JH", "AH", "QD", "AC"]))
    check(out, expected=[P(None, 3, 1, 4, "ace_led")] + party(1, 15),
          fish=[-25, 59, -20, -39], pool_after=25, party_winner=1)


# ==================================================================================================================
# Doubling (R24, A6): opposite x2, last two tricks x2, both x4.
# ==================================================================================================================

# Dealer 0, new pool, talon J♥ A♥ A♦ A♣ (party 17). A♠ is forced by the seat opposite the leader.
# Points: 3: AS KS QS JS = 10 (3 tricks); 2: KH QH KC QC JC JD = 12; 1: KD QD = 5; 0: none -> party winner 0.
# Rows: T1 3 -> 1 1x2 = 2 (ace_forced). Party 17: 1 pays 17, 2 (opposite 0) 34, 3 pays 17.
# Fish: 0: -10 +68 = +58; 1: -5 +2 -17 = -20; 2: -5 -34 = -39; 3: -5 -2 -17 = -24.
OPPOSITE = """
T1 L1: 2S 3S AS 4S -> 3     A♠ forced by 3, leader 1 sits opposite: 3 pays 1 1x2 = 2
T2 L3: KS 5S 6S 7S -> 3
T3 L3: QS 8S 9S JS -> 3
T4 L3: 2H 3H 4H KH -> 2
T5 L2: QH 5H 6H 7H -> 2
T6 L2: 2D 3D 4D KD -> 1
T7 L1: QD 5D 6D 7D -> 1
T8 L1: 2C KC 3C 4C -> 2
T9 L2: QC 5C 6C 7C -> 2
T10 L2: JC 8C 8H 9C -> 2   seat 0 is void in clubs
T11 L2: JD 9D 9H 8D -> 2   seat 0 is void in diamonds
"""


def test_opposite_seats_pay_double():
    out = settle(build(0, OPPOSITE, QUIET_TALON))
    check(out, expected=[P(1, 3, 1, 2, "ace_forced")] + party(0, 17),
          fish=[58, -20, -39, -24], pool_after=25, party_winner=0)
    assert out["result"]["card_points"] == [0, 5, 12, 10]


# Last two tricks, neighbours: the quiet deal with seat 2 dumping A♣ (void in hearts) in trick 10, won by seat 3.
# 1 x2 (trick 10) = 2. Talon J♥ A♥ A♦ 8♣ = 9, party 13. Points: 3: KD QD AC JD JC = 11; 1 lowest with 4.
# Rows: T10 3 -> 2 2. Party 13: 0 pays 13, 2 pays 13, 3 pays 26.
# Fish: 0: -10 -13 = -23; 1: -5 +52 = +47; 2: -5 +2 -13 = -16; 3: -5 -2 -26 = -33.
def test_last_two_tricks_pay_double():
    text = replace_trick(QUIET, "T10 L0: 8H 8D AC 9H -> 3    A♣ dumped by 2 in trick 10: 3 pays 2 1x2 = 2")
    out = settle(build(0, text, ["JH", "AH", "AD", "8C"]))
    check(out, expected=[P(10, 3, 2, 2, "ace_dumped")] + party(1, 13),
          fish=[-23, 47, -16, -33], pool_after=25, party_winner=1)


# Both: seat 1 dumps A♦ in trick 10 on seat 3's trick (opposite): 2 x2 x2 = 8. Talon J♥ A♥ 8♦ A♣ = 9, party 13.
# Points: 3: KD QD AD JD JC = 11; 1 lowest with 4. Rows: T10 3 -> 1 8. Party 13: 0 13, 2 13, 3 26.
# Fish: 0: -10 -13 = -23; 1: -5 +8 +52 = +55; 2: -5 -13 = -18; 3: -5 -8 -26 = -39.
def test_opposite_in_the_last_two_tricks_pays_four_times():
    text = replace_trick(QUIET, "T10 L0: 8H AD 8C 9H -> 3    A♦ dumped by 1, winner 3 opposite, trick 10: 2x2x2 = 8")
    out = settle(build(0, text, ["JH", "AH", "8D", "AC"]))
    check(out, expected=[P(10, 3, 1, 8, "ace_dumped")] + party(1, 13),
          fish=[-23, 55, -18, -39], pool_after=25, party_winner=1)


# A led Ace keeps the multipliers of the trick it was led in (R22: "record the trick number"): seat 3 leads A♣ to
# trick 11 (J♦ goes to the talon: J♥ A♥ A♦ J♦ = 10, party 14). Claim 3 -> 1: 1 x2 (opposite) x2 (trick 11) = 4.
# Points: 3: KD QD AC JC = 10; 1 lowest with 4. Party 14: 0 14, 2 14, 3 28.
# Fish: 0: -10 -14 = -24; 1: -5 +4 +56 = +55; 2: -5 -14 = -19; 3: -5 -4 -28 = -37.
def test_led_ace_claim_keeps_its_tricks_multipliers():
    text = replace_trick(QUIET, "T11 L3: AC JC 9D 9C -> 3    A♣ led by 3 in trick 11: claim 1x2x2 = 4")
    out = settle(build(0, text, ["JH", "AH", "AD", "JD"]))
    check(out, expected=[P(None, 3, 1, 4, "ace_led")] + party(1, 14),
          fish=[-24, 55, -19, -37], pool_after=25, party_winner=1)


# ==================================================================================================================
# The Quinola (J♥) and the pool (R22-R27).
# ==================================================================================================================

# Dealer 0. Talon: the four Aces (16, party 20). Seat 1 (void in spades) dumps J♥ in trick 3 on seat 2's trick.
QUINOLA_DUMPED = replace_trick(
    ACE_DUMPED, "T3 L2: JS 8S 9S JH -> 2     J♥ dumped by 1: 2 pays 1 5, and 1 takes the pool")
FOUR_ACES = ["AS", "AH", "AD", "AC"]


# New pool 25. Rows: T3 2 -> 1 5 (quinola_dumped); T3 pool -> 1 25 (pool_won).
# Points: 0: 10; 1: 0; 2: KS QS JS JH KD QD = 12; 3: 2. Party 20: 0 pays 20, 2 pays 20, 3 (opposite) 40.
# Fish: 0: -10 -20 = -30; 1: -5 +5 +25 +80 = +105; 2: -5 -5 -20 = -30; 3: -5 -40 = -45. Pool 0 -> 25 -> 0.
def test_quinola_dumped_wins_the_pool():
    out = settle(build(0, QUINOLA_DUMPED, FOUR_ACES))
    check(out, expected=[P(3, 2, 1, 5, "quinola_dumped"), P(3, POOL, 1, 25, "pool_won")] + party(1, 20),
          fish=[-30, 105, -30, -45], pool_after=0, party_winner=1)


# R9, R10, R26, R4: the pool is won and a new one is started. Deal 1: the dumped-Quinola deal on a carried pool of
# 30 (dealer 0 adds 5: 35), won by seat 1 in trick 3: pool_after 0.
#   Fish: 0: -5 -20 = -25; 1: +5 +35 +80 = +120; 2: -5 -20 = -25; 3: -40.
# Deal 2: the next dealer is seat 1 (R4); its pool_before is deal 1's pool_after, 0, so all four ante 5 again and
# the dealer 5 more (25). The deal is the quiet deal turned one seat on (seat s plays what s-1 played), so the
# Quinola stays in the talon and the pool carries 25. Party winner 2 (4 points); party 17: 1 pays 17, 3 pays 17,
# 0 (opposite 2) 34.
#   Fish: 0: -5 -34 = -39; 1: -10 -17 = -27; 2: -5 +68 = +63; 3: -5 -17 = -22.
QUIET_TURNED = """
T1 L2: AS 2S 3S 4S -> 2
T2 L2: 5S KS 6S 7S -> 3
T3 L3: QS 8S 9S JS -> 3
T4 L3: 2H 3H KH 4H -> 1
T5 L1: QH 5H 6H 7H -> 1
T6 L1: 2D 3D 4D KD -> 0
T7 L0: QD 5D 6D 7D -> 0
T8 L0: 3C KC 4C 2C -> 1
T9 L1: QC 5C 6C 7C -> 1
T10 L1: 8H 8D 8C 9H -> 0
T11 L0: JD JC 9D 9C -> 0
"""


def test_pool_won_then_restarted():
    first = settle(build(0, QUINOLA_DUMPED, FOUR_ACES, pool_before=30))
    check(first, expected=[P(3, 2, 1, 5, "quinola_dumped"), P(3, POOL, 1, 35, "pool_won")] + party(1, 20),
          fish=[-25, 120, -25, -40], pool_after=0, party_winner=1, pool_before=30)

    second = settle(build(1, QUIET_TURNED, QUIET_TALON, pool_before=first["result"]["pool_after"]))
    check(second, expected=party(2, 17), fish=[-39, -27, 63, -22], pool_after=25, party_winner=2,
          dealer=1, pool_before=0)
    assert [r for r in rows(second["payments"], antes=True) if r[4] == "ante"] == sorted(
        [P(None, 0, POOL, 5, "ante"), P(None, 1, POOL, 5, "ante"), P(None, 1, POOL, 5, "ante"),
         P(None, 2, POOL, 5, "ante"), P(None, 3, POOL, 5, "ante")], key=repr)


# R23, R25, A5, A8: J♥ forced. The quiet deal with seat 3 playing J♥ instead of 3♥ to seat 2's heart lead in
# trick 4 (3♥ goes to the talon: 3♥ A♥ A♦ A♣ = 12, party 16). Carried pool 30, dealer adds 5: 35.
# Holder 3 pays the leader 2 10 (neighbours); each other non-leader pays the leader 5: seat 0 (opposite 2) 5x2 = 10,
# seat 1 (neighbour) 5; the holder doubles the pool: 3 pays 35 (pool 70).
# Points: 0: KH JH QH KC QC = 11; 1 lowest with 4. Party 16: 0 pays 16, 2 pays 16, 3 (opposite 1) 32.
# Fish: 0: -5 -10 -16 = -31; 1: -5 +64 = +59; 2: +25 -16 = +9; 3: -10 -35 -32 = -77. Pool 30 -> 35 -> 70.
def test_quinola_forced_pays_the_leader_and_doubles_the_pool():
    text = replace_trick(QUIET, "T4 L2: 2H JH KH 4H -> 0     J♥ forced by 3 under 2's lead")
    out = settle(build(0, text, ["3H", "AH", "AD", "AC"], pool_before=30))
    check(out, expected=[P(4, 3, 2, 10, "quinola_forced"), P(4, 0, 2, 10, "quinola_forced"),
                         P(4, 1, 2, 5, "quinola_forced"), P(4, 3, POOL, 35, "pool_double")] + party(1, 16),
          fish=[-31, 59, 9, -77], pool_after=70, party_winner=1, pool_before=30)


# R24 (DECISION): J♥ forced in trick 10 doubles the side payments, not the pool doubling. The quiet deal with
# seat 3 playing J♥ instead of 9♥ to seat 0's 8♥ in trick 10 (J♥ wins it). 9♥ to the talon (9♥ A♥ A♦ A♣ = 12,
# party 16). New pool 25.
# Holder 3 pays leader 0 10x2 = 20; seat 1 (neighbour of 0) 5x2 = 10; seat 2 (opposite 0) 5x2x2 = 20;
# 3 pays the pool 25 (not x2): pool 50.
# Points: 3: KD QD JH JD JC = 8; 1 lowest with 4. Party 16: 0 16, 2 16, 3 32.
# Fish: 0: -10 +50 -16 = +24; 1: -5 -10 +64 = +49; 2: -5 -20 -16 = -41; 3: -5 -20 -25 -32 = -82.
def test_quinola_forced_in_the_last_two_tricks():
    text = replace_trick(QUIET, "T10 L0: 8H 8D 8C JH -> 3    J♥ forced by 3 in trick 10")
    out = settle(build(0, text, ["9H", "AH", "AD", "AC"]))
    check(out, expected=[P(10, 3, 0, 20, "quinola_forced"), P(10, 1, 0, 10, "quinola_forced"),
                         P(10, 2, 0, 20, "quinola_forced"), P(10, 3, POOL, 25, "pool_double")] + party(1, 16),
          fish=[24, 49, -41, -82], pool_after=50, party_winner=1)


# R22, R25, A4: J♥ led. The quiet deal with seat 0 leading J♥ instead of Q♥ to trick 5 (it still wins: J♥ over
# 7♥). Q♥ to the talon (Q♥ A♥ A♦ A♣ = 14, party 18). Carried pool 10, dealer adds 5: 15.
# 0 pays the pool 15 (pool 30) in trick 5; at settlement the claim 10 goes to the party winner 1 (neighbours, trick 5:
# x1); nobody pays the 5s of a forced Quinola.
# Points: 0: KH JH KC QC = 9; 1 lowest with 4. Party 18: 0 18, 2 18, 3 36.
# Fish: 0: -5 -15 -10 -18 = -48; 1: +10 +72 = +82; 2: -18; 3: -36. Pool 10 -> 15 -> 30.
def test_quinola_led_doubles_the_pool_and_pays_the_party_winner():
    text = replace_trick(QUIET, "T5 L0: JH 5H 6H 7H -> 0     J♥ led by 0")
    out = settle(build(0, text, ["QH", "AH", "AD", "AC"], pool_before=10))
    check(out, expected=[P(5, 0, POOL, 15, "pool_double"), P(None, 0, 1, 10, "quinola_led")] + party(1, 18),
          fish=[-48, 82, -18, -36], pool_after=30, party_winner=1, pool_before=10)
    assert not [p for p in out["payments"] if p["reason"] == "quinola_forced"]


# R25, A3: a led Quinola doubles the pool even when its holder wins the party; his claim of 10 then goes to
# himself, so nothing is paid. The quiet deal with seat 1 leading J♥ to trick 1 (the others follow with low hearts)
# and throwing K♥ (void in spades) on seat 2's 2♠ lead in trick 4, won by seat 0's 4♠. A♠ goes to the talon
# (the four Aces: 16, party 20). Points: 0: KH QH KC QC = 10; 1: JH = 1; 2: KS QS JS = 6; 3: KD QD JD JC = 7.
# Rows: T1 1 -> pool 25 (pool 50). Party 20: 0 pays 20, 2 pays 20, 3 (opposite 1) 40.
# Fish: 0: -10 -20 = -30; 1: -5 -25 +80 = +50; 2: -5 -20 = -25; 3: -5 -40 = -45. Pool 0 -> 25 -> 50.
def test_quinola_led_by_the_party_winner_still_doubles_the_pool():
    text = replace_trick(QUIET, "T1 L1: JH 2H 3H 4H -> 1     J♥ led by 1, who will win the party")
    text = replace_trick(text, "T4 L2: 2S 3S 4S KH -> 0     seat 1 is void in spades")
    out = settle(build(0, text, FOUR_ACES))
    check(out, expected=[P(1, 1, POOL, 25, "pool_double")] + party(1, 20),
          fish=[-30, 50, -25, -45], pool_after=50, party_winner=1)
    assert out["result"]["card_points"] == [10, 1, 6, 7]


# ==================================================================================================================
# The party (R28-R32)
# ==================================================================================================================

# R31/R32 with the worked example's numbers: dealer 0, seat 2 wins the party, talon K♠ Q♦ 7♣ 2♥ -> party 4+3+2 = 9:
# seats 1 and 3 pay 9 each, seat 0 (opposite) pays 18; seat 2 gains 36. Seat 2 takes no trick.
# The other Aces and the Quinola move money among seats 0, 1 and 3 only:
#   T1 A♠ forced by 3 (leader 1, opposite): 3 pays 1 2.     T4 A♥ forced by 0 (leader 1): 0 pays 1 1.
#   T7 A♦ forced by 0 (leader 3): 0 pays 3 2.               T8 J♥ dumped by 1 (void ♦), winner 0: 0 pays 1 5, and
#   T9 A♣ forced by 1 (leader 0): 1 pays 0 1.                  1 takes the new pool 25.
# Points: 0: KH AH QH AD JD JH = 15; 1: JS AC KC QC JC = 11; 2: 0; 3: AS QS KD = 9 (+ talon 5 = 40).
# Fish: 0: -10 -1 -2 -5 +1 -18 = -35; 1: -5 +2 +1 +5 +25 -1 -9 = +18; 2: -5 +36 = +31; 3: -5 -2 +2 -9 = -14.
PARTY = """
T1 L1: 2S 3S AS 4S -> 3
T2 L3: QS 5S 6S 7S -> 3
T3 L3: 8S 9S JS 3H -> 1     seat 2 is void in spades
T4 L1: KH 4H 5H AH -> 0
T5 L0: QH 6H 7H 8H -> 0
T6 L0: 2D 3D 4D KD -> 3
T7 L3: 5D AD 6D 7D -> 0
T8 L0: JD JH 9D 8D -> 0     seat 1 is void in diamonds
T9 L0: 2C AC 3C 4C -> 1
T10 L1: KC 5C 6C QC -> 1
T11 L1: JC 8C 9H 9C -> 1    seat 3 is void in clubs
"""


def test_party_is_four_plus_the_talon_points_opposite_double():
    out = settle(build(0, PARTY, ["KS", "QD", "7C", "2H"]))
    check(out, expected=[P(1, 3, 1, 2, "ace_forced"), P(4, 0, 1, 1, "ace_forced"), P(7, 0, 3, 2, "ace_forced"),
                         P(8, 0, 1, 5, "quinola_dumped"), P(8, POOL, 1, 25, "pool_won"),
                         P(9, 1, 0, 1, "ace_forced"),
                         P(None, 0, 2, 18, "party"), P(None, 1, 2, 9, "party"), P(None, 3, 2, 9, "party")],
          fish=[-35, 18, 31, -14], pool_after=0, party_winner=2)
    assert out["result"]["card_points"] == [15, 11, 0, 9]
    assert {k: v for k, v in net(out["payments"]).items() if 2 in k} == {(0, 2): 18, (1, 2): 9, (3, 2): 9,
                                                                         (2, POOL): 5}


# R29 tie-breaks. In these deals two seats take every trick; the other two end on 0 points.
# Talon J♥ A♥ A♦ A♣ (party 17). A♠ is always forced by seat 3 under seat 2's lead in trick 2 (3 pays 2 1).
# Points: 2: 11 (or 12 / 9 / 8, see each deal), 3: 16 or more; the two sinks 0.
TIE_TAIL = """
T4 L3: KH 2H 3H 4H -> 3
T5 L3: 5H 6H 7H QH -> 2
T6 L2: KD 2D 3D 4D -> 2
T7 L2: 5D QD 6D 7D -> 3
T8 L3: JD 8D 9D 8H -> 3     seat 2 is void in diamonds
T9 L3: KC 2C 3C 4C -> 3
T10 L3: 5C 6C 7C QC -> 2
T11 L2: JC 8C 9C 9H -> 2    seat 1 is void in clubs
"""


# Seats 0 (the dealer) and 1 (d+1) tie on 0 points and 0 tricks: the dealer wins (d comes first).
# Party 17: 1 pays 17, 2 (opposite 0) 34, 3 pays 17. Fish: 0: -10 +68 = +58; 1: -5 -17 = -22;
# 2: -5 +1 -34 = -38; 3: -5 -1 -17 = -23.
def test_tie_goes_to_the_dealer():
    text = """
T1 L1: 2S KS 3S 4S -> 2
T2 L2: QS AS 5S 6S -> 3     A♠ forced by 3: 3 pays 2 1
T3 L3: JS 7S 8S 9S -> 3
""" + TIE_TAIL
    out = settle(build(0, text, QUIET_TALON))
    assert out["result"]["card_points"] == [0, 0, 11, 16] and out["result"]["tricks_won"] == [0, 0, 5, 6]
    check(out, expected=[P(2, 3, 2, 1, "ace_forced")] + party(0, 17),
          fish=[58, -22, -38, -23], pool_after=25, party_winner=0)


# Dealer 3: seats 0 (d+1) and 1 (d+2) tie on 0 points and 0 tricks; the dealer is not among them: d+1 = seat 0
# wins (to the dealer's right; a leftward order d, d-1, ... would pick seat 1).
# Party 17: 1 pays 17, 2 (opposite) 34, 3 pays 17. Fish: 0: -5 +68 = +63; 1: -22; 2: -5 +1 -34 = -38;
# 3: -10 -1 -17 = -28.
def test_tie_without_the_dealer_goes_to_the_dealers_right():
    text = """
T1 L0: 2S 3S KS 4S -> 2
T2 L2: QS AS 5S 6S -> 3     A♠ forced by 3: 3 pays 2 1
T3 L3: JS 7S 8S 9S -> 3
""" + TIE_TAIL
    out = settle(build(3, text, QUIET_TALON))
    assert out["result"]["card_points"] == [0, 0, 11, 16] and out["result"]["tricks_won"] == [0, 0, 5, 6]
    check(out, expected=[P(2, 3, 2, 1, "ace_forced")] + party(0, 17),
          fish=[63, -22, -38, -28], pool_after=25, party_winner=0, dealer=3)


# Dealer 2: seats 0 (d+2) and 1 (d+3) tie on 0 points and 0 tricks: d+2 = seat 0 wins.
# Points: 2: KS JS QH KD QC JC = 12; 3: AS QS KH QD JD KC = 15. Party 17: 1 pays 17, 2 (opposite) 34, 3 17.
# Fish: 0: -5 +68 = +63; 1: -22; 2: -10 +1 -34 = -43; 3: -5 -1 -17 = -23.
def test_tie_between_the_last_two_goes_to_d_plus_2():
    text = """
T1 L3: JS 2S 3S KS -> 2
T2 L2: QS AS 5S 6S -> 3     A♠ forced by 3: 3 pays 2 1
T3 L3: 9S 7S 8S 4S -> 3
""" + TIE_TAIL
    out = settle(build(2, text, QUIET_TALON))
    assert out["result"]["card_points"] == [0, 0, 12, 15] and out["result"]["tricks_won"] == [0, 0, 5, 6]
    check(out, expected=[P(2, 3, 2, 1, "ace_forced")] + party(0, 17),
          fish=[63, -22, -43, -23], pool_after=25, party_winner=0, dealer=2)


# Dealer 0: seats 0 and 1 tie on 0 points, but the dealer took a (pointless) trick: the fewest tricks decide before
# the seat order, so seat 1 wins. Points: 2: KS QH KD JC = 9; 3: AS QS JS KH QD JD KC QC = 18.
# Party 17: 0 pays 17, 2 pays 17, 3 (opposite 1) 34. Fish: 0: -10 -17 = -27; 1: -5 +68 = +63;
# 2: -5 +1 -17 = -21; 3: -5 -1 -34 = -40.
TIE_FIRST = """
T1 L1: 2S KS 3S 4S -> 2
T2 L2: QS AS 5S 6S -> 3     A♠ forced by 3: 3 pays 2 1
T3 L3: JS 7S 8S 9S -> 3
T4 L3: KH 2H 3H 4H -> 3
T5 L3: 5H 6H 7H QH -> 2
T6 L2: KD 2D 3D 4D -> 2
T7 L2: 5D QD 6D 7D -> 3
"""


def test_tie_on_points_goes_to_fewest_tricks():
    text = TIE_FIRST + """
T8 L3: JD 8D 9D 4C -> 3     seat 2 is void in diamonds
T9 L3: KC 2C 3C QC -> 3
T10 L3: 5C 6C 7C JC -> 2
T11 L2: 8H 8C 9H 9C -> 0    seats 3 and 1 are void in hearts; the dealer wins a trick without points
"""
    out = settle(build(0, text, QUIET_TALON))
    assert out["result"]["card_points"] == [0, 0, 9, 18] and out["result"]["tricks_won"] == [1, 0, 4, 6]
    check(out, expected=[P(2, 3, 2, 1, "ace_forced")] + party(1, 17),
          fish=[-27, 63, -21, -40], pool_after=25, party_winner=1)


# Fewest points come first: seat 0 ends on 0 points with 2 tricks, seat 1 on 1 point (J♣) with 1 trick: seat 0
# wins. Points: 2: KS QH KD = 8; 3: AS QS JS KH QD JD QC KC = 18.
# Party 17: 1 pays 17, 2 (opposite 0) 34, 3 pays 17. Fish: 0: +58; 1: -22; 2: -5 +1 -34 = -38; 3: -23.
def test_fewest_points_beat_fewer_tricks():
    text = TIE_FIRST + """
T8 L3: 2C 3C JC 4C -> 1
T9 L1: 5C 6C 7C 9C -> 0
T10 L0: 9H 8H 8C 8D -> 0    seats 2 and 3 are void in hearts
T11 L0: 9D QC KC JD -> 3    seats 1 and 2 are void in diamonds
"""
    out = settle(build(0, text, QUIET_TALON))
    assert out["result"]["card_points"] == [0, 1, 8, 18] and out["result"]["tricks_won"] == [2, 1, 3, 5]
    check(out, expected=[P(2, 3, 2, 1, "ace_forced")] + party(0, 17),
          fish=[58, -22, -38, -23], pool_after=25, party_winner=0)


# ==================================================================================================================
# The reversis (R34-R37, A10-A12, G9)
# ==================================================================================================================

# Dealer 0, new pool 25. Seat 1 leads every trick. Talon 5♣ 4♣ 3♣ 2♣ (0 points).
REVERSIS_1_TO_9 = """
T1 L1: AS 5S 2S 6S -> 1     A♠ led: a claim (cancelled by the commitment)
T2 L1: KS AH 3S 7S -> 1     A♥ dumped by 2 (void ♠): 1 pays 2 1
T3 L1: QS JH 4S 6H -> 1     J♥ dumped by 2: 1 pays 2 5, and 2 takes the pool 25
T4 L1: JS KH KC 5H -> 1
T5 L1: 9S QH QC 4H -> 1
T6 L1: 8S 9H JC 3H -> 1
T7 L1: JD 5D 2D 8D -> 1
T8 L1: KD 4D 9C 7D -> 1     seat 3 is void in diamonds
T9 L1: QD 3D 8C 6D -> 1     seat 1 has won tricks 1-9: committed; tricks 1-9 are given back
"""
# The commitment after trick 9 (R35, A10) returns, as rows of trick 9: 2 -> 1 1, 2 -> 1 5, 2 -> pool 25; the
# led claim of trick 1 is dropped. Points of seat 1 in tricks 1-9: 4+7+3+7+4+1+1+3+2 = 32.
ROLLBACK = [P(2, 1, 2, 1, "ace_dumped"), P(3, 1, 2, 5, "quinola_dumped"), P(3, POOL, 2, 25, "pool_won"),
            P(9, 2, 1, 1, "return"), P(9, 2, 1, 5, "return"), P(9, 2, POOL, 25, "return")]


# Made: seat 1 also wins tricks 10 and 11. Trick 10: he leads A♦ (a claim, cancelled with the party, A3) and seat 3
# dumps A♣ (opposite, trick 10): 1 pays 3 1x2x2 = 4 -- this stands. R36: 0 and 2 pay 16, 3 (opposite) 32; no party.
# Fish: 0: -10 -16 = -26; 1: -5 (-1 -5 +1 +5) -4 +64 = +55; 2: -5 (+1 +5 +25 -1 -5 -25) -16 = -21;
# 3: -5 +4 -32 = -33. Pool 25 (won in trick 3, put back at the commitment).
def test_reversis_made():
    text = REVERSIS_1_TO_9 + """
T10 L1: AD 8H AC 2H -> 1    A♦ led (claim void: no party); A♣ dumped by 3: 1 pays 3 4
T11 L1: 9D 7H 7C 6C -> 1
"""
    out = settle(build(0, text, ["5C", "4C", "3C", "2C"]))
    check(out, expected=ROLLBACK + [P(10, 1, 3, 4, "ace_dumped"),
                                    P(None, 0, 1, 16, "reversis_made"), P(None, 2, 1, 16, "reversis_made"),
                                    P(None, 3, 1, 32, "reversis_made")],
          fish=[-26, 55, -21, -33], pool_after=25, party_winner=None)
    assert out["result"]["reversis"] == {"seat": 1, "made": True, "breaker": None}
    assert out["result"]["card_points"] == [0, 40, 0, 0]


# Broken in trick 10: seat 1 leads 2♣ and seat 3 (opposite) plays A♣: forced in trick 10, 3 pays 1 1x2x2 = 4
# (stands), and seat 3 wins it: R37, 1 pays 3 a flat 64. A♦ is in the talon (A♦ 5♣ 4♣ 3♣ = 4, party 8).
# Points: 1: 32; 3: AC = 4 (2 tricks); 0 and 2: 0 points, 0 tricks -> the dealer 0 wins the party (R37: settled
# as usual). Party 8: 1 pays 8, 2 (opposite) 16, 3 pays 8.
# Fish: 0: -10 +32 = +22; 1: -5 +0 +4 -64 -8 = -73; 2: -5 +0 -16 = -21; 3: -5 -4 +64 -8 = +47.
def test_reversis_broken_in_trick_10():
    text = REVERSIS_1_TO_9 + """
T10 L1: 2C 8H AC 6C -> 3    A♣ forced by 3 (opposite, trick 10): 3 pays 1 4; 3 breaks the reversis
T11 L3: 7C 2H 9D 7H -> 3
"""
    out = settle(build(0, text, ["AD", "5C", "4C", "3C"]))
    check(out, expected=ROLLBACK + [P(10, 3, 1, 4, "ace_forced"), P(None, 1, 3, 64, "reversis_broken")]
          + party(0, 8),
          fish=[22, -73, -21, 47], pool_after=25, party_winner=0)
    assert out["result"]["reversis"] == {"seat": 1, "made": False, "breaker": 3}


# Broken in trick 11: seat 1 wins trick 10 (leading A♦: a claim of 2; A♣ dumped by 3: 1 pays 3 4) and loses
# trick 11 (2♣) to seat 3's 7♣: 1 pays 3 64. 9♦ is in the talon (0 points, party 4).
# Points: 1: 32 + AD AC = 40; 3: 0 points, 1 trick; 0 and 2: 0 points, 0 tricks -> the dealer 0 wins.
# The claim of trick 10 stands (A3): 1 pays 0 2x2 = 4 (neighbours, trick 10). Party 4: 1 pays 4, 2 pays 8, 3 pays 4.
# Fish: 0: -10 +4 +16 = +10; 1: -5 -4 -64 -4 -4 = -81; 2: -5 -8 = -13; 3: -5 +4 +64 -4 = +59.
def test_reversis_broken_in_trick_11():
    text = REVERSIS_1_TO_9 + """
T10 L1: AD 8H AC 2H -> 1    A♦ led: a claim of 2 (x2 in trick 10); A♣ dumped by 3: 1 pays 3 4
T11 L1: 2C 7H 7C 6C -> 3    seat 3 breaks the reversis
"""
    out = settle(build(0, text, ["9D", "5C", "4C", "3C"]))
    check(out, expected=ROLLBACK + [P(10, 1, 3, 4, "ace_dumped"), P(None, 1, 3, 64, "reversis_broken"),
                                    P(None, 1, 0, 4, "ace_led")] + party(0, 4),
          fish=[10, -81, -13, 59], pool_after=25, party_winner=0)
    assert out["result"]["reversis"] == {"seat": 1, "made": False, "breaker": 3}
    assert out["result"]["tricks_won"] == [0, 10, 0, 1]


# ==================================================================================================================
# The espagnolette (R38-R42)
# ==================================================================================================================

# Dealer 0, new pool 25. Seat 2 holds J♥ A♠ A♥ A♦ (A♣ is in the talon) and declares. He renounces in tricks 1-4
# although he holds the suit led (A♠ until trick 4; 4♥ 7♥ when he dumps A♠ on hearts), R39.
# Talon A♣ J♠ 8♠ J♣ = 6, party 10.
ESPAGNOLETTE_1_TO_8 = """
T1 L1: KS AH 2S 3S -> 1     A♥ dumped by 2: 1 pays 2 1
T2 L1: QS JH 4S 5S -> 1     J♥ dumped by 2: 1 pays 2 5, and 2 takes the pool 25
T3 L1: 6S AD 9S 7S -> 3     A♦ dumped by 2: 3 pays 2 2
T4 L3: KH 2H 3H AS -> 3     A♠ dumped by 2: 3 pays 2 1
T5 L3: KD 2D 3D 4D -> 3
T6 L3: QD 5D 6D 7D -> 3
T7 L3: 8D 9D JD 2C -> 1     seat 2 is void in diamonds
T8 L1: KC 3C 4C 5C -> 1
"""
ESP_TALON = ["AC", "JS", "8S", "JC"]
ESP_DUMPS = [P(1, 1, 2, 1, "ace_dumped"), P(2, 1, 2, 5, "quinola_dumped"), P(2, POOL, 2, 25, "pool_won"),
             P(3, 3, 2, 2, "ace_dumped"), P(4, 3, 2, 1, "ace_dumped")]
ESP_MADE = ESPAGNOLETTE_1_TO_8 + """
T9 L1: QC 6C 7C 8C -> 1
T10 L1: QH 4H 5H 6H -> 1    seat 2 must follow now, and does so low
T11 L1: 9H 7H 8H 9C -> 1
"""


# Made (R40): seat 2 takes no trick. Seat 0 (the dealer) also ends on 0 points and 0 tricks and would win the
# tie-break, but the successful declarer wins the party ahead of everyone (R30), and keeps his dump payments and
# the pool. Points: 1: 7+3+1+3+2+2 = 18; 3: 4+7+3+2 = 16. Party 10: 0 (opposite) 20, 1 pays 10, 3 pays 10.
# Fish: 0: -10 -20 = -30; 1: -5 -1 -5 -10 = -21; 2: -5 +1 +5 +25 +2 +1 +40 = +69; 3: -5 -2 -1 -10 = -18.
# Pool 0 -> 25 -> 0.
def test_espagnolette_made():
    out = settle(build(0, ESP_MADE, ESP_TALON, espagnolette=2))
    check(out, expected=ESP_DUMPS + party(2, 10), fish=[-30, -21, 69, -18], pool_after=0, party_winner=2)
    assert out["result"]["espagnolette"] == {"seat": 2, "made": True}
    assert out["result"]["card_points"] == [0, 18, 0, 16] and out["result"]["tricks_won"] == [0, 7, 0, 4]


# Failed (R41, A14): seat 2 must follow hearts in trick 10 and wins it with 8♥ (0 points); seat 0 takes Q♥ in
# trick 11. Seat 2 has the fewest points (0) but cannot win the party: seat 0 (2 points) wins it, and seat 2 pays
# it like the others. Seat 2 gives back each dump payment x2 to its payer (2 to 1, 10 to 1, 4 to 3, 2 to 3) and
# the pool he won x2 (50 into the pool). Points: 0: 2; 1: 16; 2: 0; 3: 16.
# Party 10: 1 pays 10, 2 (opposite 0) 20, 3 pays 10.
# Fish: 0: -10 +40 = +30; 1: -5 -1 -5 +2 +10 -10 = -9; 2: -5 +34 -68 -20 = -59; 3: -5 -2 -1 +4 +2 -10 = -12.
# Pool 0 -> 25 -> 0 -> 50.
def test_espagnolette_failed():
    text = ESPAGNOLETTE_1_TO_8 + """
T9 L1: QC 6C 7C 8C -> 1
T10 L1: 5H 8H 4H 6H -> 2    the declarer must follow hearts, and wins the trick
T11 L2: 7H 9H QH 9C -> 0
"""
    out = settle(build(0, text, ESP_TALON, espagnolette=2))
    check(out, expected=ESP_DUMPS + [P(None, 2, 1, 2, "return"), P(None, 2, 1, 10, "return"),
                                     P(None, 2, 3, 4, "return"), P(None, 2, 3, 2, "return"),
                                     P(None, 2, POOL, 50, "return")] + party(0, 10),
          fish=[30, -9, -59, -12], pool_after=50, party_winner=0)
    assert out["result"]["espagnolette"] == {"seat": 2, "made": False}
    assert out["result"]["card_points"] == [2, 16, 0, 16] and out["result"]["tricks_won"] == [1, 5, 1, 4]


# ==================================================================================================================
# Legality (R18, R39)
# ==================================================================================================================

def test_not_following_suit_is_illegal():
    # Seat 3 plays 3♥ to the spade lead of trick 1 although he holds 3♠ (played later, in trick 4).
    text = replace_trick(QUIET, "T1 L1: AS 2S 3H 4S -> 1")
    text = replace_trick(text, "T4 L2: 2H 3S KH 4H -> 0")
    with pytest.raises(IllegalPlay, match=r"trick 1: seat 3"):
        settle(build(0, text, QUIET_TALON))


def test_renounce_is_the_declarers_privilege_only():
    # The made espagnolette's cards without the declaration: seat 2's A♥ on the spade lead of trick 1 is a revoke.
    with pytest.raises(IllegalPlay, match=r"trick 1: seat 2"):
        settle(build(0, ESP_MADE, ESP_TALON))


def test_declarer_may_renounce_up_to_trick_9():
    # Seat 2 dumps 4♥ on the club lead of trick 9 while still holding 6♣ (allowed, R39), then follows hearts in
    # trick 10 and throws 6♣ in trick 11 (void in hearts by then). Every chip is as in the made deal.
    text = ESPAGNOLETTE_1_TO_8 + """
T9 L1: QC 4H 7C 8C -> 1     seat 2 renounces: he still holds 6♣
T10 L1: QH 7H 5H 6H -> 1
T11 L1: 9H 6C 8H 9C -> 1
"""
    out = settle(build(0, text, ESP_TALON, espagnolette=2))
    check(out, expected=ESP_DUMPS + party(2, 10), fish=[-30, -21, 69, -18], pool_after=0, party_winner=2)


def test_declarer_must_follow_in_trick_10():
    # Seat 2 plays 9♣ to the heart lead of trick 10 while holding 4♥.
    text = ESPAGNOLETTE_1_TO_8 + """
T9 L1: QC 6C 7C 8C -> 1
T10 L1: QH 9C 5H 6H -> 1
T11 L1: 9H 4H 8H 7H -> 1
"""
    with pytest.raises(IllegalPlay, match=r"trick 10: seat 2"):
        settle(build(0, text, ESP_TALON, espagnolette=2))


# R38 (eligibility) in the replay of a given deal. The quiet deal's record says seat 3 declared the espagnolette,
# but seat 3 holds neither four Aces nor the Quinola and three Aces (no seat does: three Aces and the Quinola are
# in the talon). The engine only asks an eligible seat whether it declares, so settle_record silently drops the
# declaration and settles the deal as if none had been made (its record then says espagnolette: null) instead of
# refusing the record. A declaration is a decision like a discard, and an audit replay should refuse one the rules
# do not allow (the IllegalPlay docstring: "chose a card or discard the rules do not allow").
def test_declaration_by_an_ineligible_seat_is_refused():
    """R38: only four Aces, or the J♥ and three Aces, may declare; an audit refuses any other declaration."""
    with pytest.raises(IllegalPlay, match="may not declare the espagnolette"):
        settle(build(0, QUIET, QUIET_TALON, espagnolette=3))


# ==================================================================================================================
# The builder itself
# ==================================================================================================================

def test_builder_derives_the_hands_as_dealt():
    rec = build(0, QUIET, QUIET_TALON, took={3: ("AC", "9H")})
    assert sorted(rec["dealt"][0]) == sorted(["4S", "7S", "9S", "KH", "QH", "2D", "5D", "KC", "QC", "8H", "JC", "JH"])
    assert sorted(rec["dealt"][1]) == sorted(["AS", "5S", "JS", "4H", "5H", "3D", "6D", "4C", "5C", "8D", "9D"])
    assert sorted(rec["dealt"][3]) == sorted(["3S", "6S", "8S", "3H", "7H", "KD", "QD", "3C", "7C", "AC", "JD"])
    assert rec["talon_offered"] == [None, "AH", "AD", "9H"]


@pytest.mark.parametrize("change, message", [
    (("T2 L1: 5S KS 6S 7S -> 2", "T2 L1: 5S KS 6S 2S -> 2"), "cards used twice"),
    (("T3 L2: QS 8S 9S JS -> 2", "T3 L3: QS 8S 9S JS -> 2"), "must be led by 2"),
    (("T3 L2: QS 8S 9S JS -> 2", "T3 L2: QS 8S 9S JS -> 1"), "seat 2 wins it"),
])
def test_builder_rejects_a_broken_deal(change, message):
    old, new = change
    with pytest.raises(AssertionError, match=message):
        build(0, QUIET.replace(old, new), QUIET_TALON)
