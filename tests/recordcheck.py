"""An independent checker of deal records (RULES.md Appendix A) for the parlett family.

It re-derives from the record alone, without calling the engine: that every card appears exactly once, that every
play was legal, who won each trick, and the Appendix A identities. Tests run it over thousands of random deals.
"""

from __future__ import annotations

from collections import Counter

RANKS_HIGH_TO_LOW = {"parlett": "AKQJ98765432", "parlett_52": "AKQJT98765432"}
POINTS = {"A": 4, "K": 3, "Q": 2, "J": 1}


def deck_of(rules_name: str) -> list[str]:
    ranks = RANKS_HIGH_TO_LOW.get(rules_name, RANKS_HIGH_TO_LOW["parlett"])
    return [r + s for s in "SHDC" for r in ranks]


def check_record(rec: dict) -> None:
    """Raise AssertionError naming the first broken invariant."""
    name = rec["rules"]
    ranks = RANKS_HIGH_TO_LOW.get(name, RANKS_HIGH_TO_LOW["parlett"])
    params = rec["rules_params"]
    n_tricks = params["hand_size"]
    dealer = rec["dealer"]
    deck = deck_of(name)
    assert rec["format"] == "reversis-deal/1"

    # Every card exactly once: in the deal, and again at the first lead.
    dealt = [c for h in rec["dealt"] for c in h] + [c for c in rec["talon_offered"] if c is not None]
    assert sorted(dealt) == sorted(deck), "the deal does not hold every card exactly once"
    at_lead = [c for h in rec["hands"] for c in h] + rec["talon"]
    assert sorted(at_lead) == sorted(deck), "hands + talon at the first lead do not hold every card once"
    assert all(len(h) == n_tricks for h in rec["hands"]), "a hand at the first lead has the wrong size"
    if params["talon_mode"] != "none":
        assert len(rec["talon"]) == 4 and rec["talon_offered"][dealer] is None
        assert rec["exchanges"][0]["seat"] == dealer and rec["exchanges"][0]["took"] is False
        for e in rec["exchanges"]:
            s = e["seat"]
            if e["took"]:
                assert e["discard"] in rec["dealt"][s] and rec["talon_offered"][s] in rec["hands"][s]
            elif s != dealer:
                assert e["discard"] is None and rec["talon_offered"][s] in rec["talon"]

    # Only legal plays, and the right winners (R17-R19, R39).
    hands = [set(h) for h in rec["hands"]]
    declarer = rec["espagnolette"]["seat"] if rec["espagnolette"] else None
    renounce = params["espagnolette_renounce_tricks"]
    leader = (dealer + 1) % 4
    assert len(rec["tricks"]) == n_tricks
    for t, trick in enumerate(rec["tricks"]):
        assert trick["leader"] == leader, f"trick {t + 1} led by the wrong seat"
        led = trick["cards"][0][1]
        best, best_seat = None, None
        for k, card in enumerate(trick["cards"]):
            seat = (leader + k) % 4
            assert card in hands[seat], f"trick {t + 1}: seat {seat} played {card} it does not hold"
            free = k == 0 or (seat == declarer and t < renounce)
            if not free and card[1] != led:
                assert not any(c[1] == led for c in hands[seat]), f"trick {t + 1}: seat {seat} revoked with {card}"
            hands[seat].remove(card)
            if card[1] == led and (best is None or ranks.index(card[0]) < ranks.index(best[0])):
                best, best_seat = card, seat
        assert trick["winner"] == best_seat, f"trick {t + 1}: wrong winner"
        leader = best_seat
    assert all(not h for h in hands)

    # Appendix A identities and conservation.
    res = rec["result"]
    fish = [0, 0, 0, 0]
    pool = rec["pool_before"]
    for p in rec["payments"]:
        assert p["amount"] > 0 and p["from"] != p["to"]
        if p["from"] == "pool":
            pool -= p["amount"]
            assert pool >= 0, "the pool went negative"
        else:
            fish[p["from"]] -= p["amount"]
        if p["to"] == "pool":
            pool += p["amount"]
        else:
            fish[p["to"]] += p["amount"]
    assert fish == res["fish"], "result.fish is not received minus paid"
    assert pool == res["pool_after"], "result.pool_after is not pool_before plus in minus out"
    assert sum(res["fish"]) + res["pool_after"] - rec["pool_before"] == 0, "chips not conserved"
    won = Counter(t["winner"] for t in rec["tricks"])
    assert res["tricks_won"] == [won[s] for s in range(4)]
    pts = [0, 0, 0, 0]
    for t in rec["tricks"]:
        pts[t["winner"]] += sum(POINTS.get(c[0], 0) for c in t["cards"])
    assert res["card_points"] == pts
    assert sum(pts) + sum(POINTS.get(c[0], 0) for c in rec["talon"]) == 40, "R7: the pack holds 40 points"
    reversis_made = bool(res["reversis"] and res["reversis"]["made"])
    assert (res["party_winner"] is None) == reversis_made, "party winner missing, or present after a made reversis"
    if res["reversis"]:
        c = res["reversis"]["seat"]
        first = [t["winner"] for t in rec["tricks"][: params["reversis_commit_after"]]]
        assert set(first) == {c}, "reversis reported without a commitment"
        assert reversis_made == (res["tricks_won"][c] == n_tricks)
    elif params["reversis_enabled"]:
        first = {t["winner"] for t in rec["tricks"][: params["reversis_commit_after"]]}
        assert len(first) > 1, "a commitment was missed"
    reasons = Counter(p["reason"] for p in rec["payments"])
    if reasons["pool_won"] or reasons["pool_double"]:
        assert "JH" not in rec["talon"]
