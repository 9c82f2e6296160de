"""An independent checker of deal records (RULES.md Appendix A, F5) for every preset.

It re-derives from the record alone (its cards and its ``rules_params``), without calling the engine: that every
card appears exactly once, that every play was legal, who won each trick, the card points, and the Appendix A
identities. Tests run it over thousands of random deals of every preset.
"""

from __future__ import annotations

from collections import Counter


def check_record(rec: dict) -> None:
    """Raise AssertionError naming the first broken invariant."""
    params = rec["rules_params"]
    ranks = params["ranks"]  # high to low
    n = len(rec["dealt"])
    dealer = rec["dealer"]
    sit_out = params["dealer_sits_out"]
    n_tricks = params["hand_size"]
    deck = [r + s for s in "SHDC" for r in ranks]
    base_points = params["card_points"]
    overrides = params["trick_point_overrides"]

    def points(card: str) -> int:
        return overrides.get(card, base_points.get(card[0], 0))

    def strength(card: str) -> int:
        if params["special_rank"] == "JH_top_of_hearts" and card == "JH":
            return 99
        return len(ranks) - ranks.index(card[0])

    def next_seat(s: int) -> int:
        s = (s + 1) % n
        return (s + 1) % n if sit_out and s == dealer else s

    assert rec["format"] == "reversis-deal/1"
    assert n == params["n_seats"]
    active = [s for s in range(n) if not (sit_out and s == dealer)]

    # Every card exactly once: in the deal, and again at the first lead.
    dealt = [c for h in rec["dealt"] for c in h] + [c for c in rec["talon_offered"] if c is not None]
    assert sorted(dealt) == sorted(deck), "the deal does not hold every card exactly once"
    at_lead = [c for h in rec["hands"] for c in h] + rec["talon"]
    assert sorted(at_lead) == sorted(deck), "hands + talon at the first lead do not hold every card once"
    for s in range(n):
        assert len(rec["hands"][s]) == (0 if s not in active else n_tricks), "a hand has the wrong size"
    mode = params["talon_mode"]
    if mode == "none":
        assert rec["talon"] == [] and rec["exchanges"] == [] and rec["talon_offered"] == [None] * n
    else:
        assert len(rec["talon"]) == len(active) and rec["talon_offered"][dealer] is None
        assert rec["exchanges"][0]["seat"] == dealer and rec["exchanges"][0]["took"] is False
        assert [e["seat"] for e in rec["exchanges"]] == [dealer] + [(dealer + k) % n for k in range(1, n)]
        for e in rec["exchanges"]:
            s = e["seat"]
            if s == dealer:
                assert e["discard"] in rec["dealt"][s]
            elif mode == "take_then_discard":  # F3.2: compulsory take, then any discard
                assert e["took"] and e["discard"] in rec["dealt"][s] + [rec["talon_offered"][s]]
            elif e["took"]:
                assert e["discard"] in rec["dealt"][s] and rec["talon_offered"][s] in rec["hands"][s]
            else:
                assert e["discard"] is None and rec["talon_offered"][s] in rec["talon"]

    # Only legal plays, and the right winners (R17-R19, R39).
    hands = [set(h) for h in rec["hands"]]
    declarer = rec["espagnolette"]["seat"] if rec["espagnolette"] else None
    renounce = params["espagnolette_renounce_tricks"]
    leader = next_seat(dealer)
    assert len(rec["tricks"]) == n_tricks
    for t, trick in enumerate(rec["tricks"]):
        assert trick["leader"] == leader, f"trick {t + 1} led by the wrong seat"
        assert len(trick["cards"]) == len(active)
        led = trick["cards"][0][1]
        seat, best, best_seat = leader, None, None
        for k, card in enumerate(trick["cards"]):
            assert card in hands[seat], f"trick {t + 1}: seat {seat} played {card} it does not hold"
            free = k == 0 or (seat == declarer and t < renounce)
            if not free and card[1] != led:
                assert not any(c[1] == led for c in hands[seat]), f"trick {t + 1}: seat {seat} revoked with {card}"
            hands[seat].remove(card)
            if card[1] == led and (best is None or strength(card) > strength(best)):
                best, best_seat = card, seat
            seat = next_seat(seat)
        assert trick["winner"] == best_seat, f"trick {t + 1}: wrong winner"
        leader = best_seat
    assert all(not h for h in hands)

    # Appendix A identities and conservation.
    res = rec["result"]
    fish = [0] * n
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
    if not params["pool_persists"]:
        assert rec["pool_before"] == 0, "F0.7: a pool that does not persist starts at 0"
    won = Counter(t["winner"] for t in rec["tricks"])
    assert res["tricks_won"] == [won[s] for s in range(n)]
    pts = [0] * n
    for t in rec["tricks"]:
        pts[t["winner"]] += sum(points(c) for c in t["cards"])
    assert res["card_points"] == pts
    assert sum(pts) + sum(points(c) for c in rec["talon"]) == sum(points(c) for c in deck), "R7: points lost"

    # The reversis: a commitment exactly when one seat (a permitted one) won every trick up to commit_after.
    first = {t["winner"] for t in rec["tricks"][: params["reversis_commit_after"]]}
    can_commit = (len(first) == 1 and params["reversis_enabled"]
                  and (params["declarer_can_commit"] or first != {declarer}))
    made = bool(res["reversis"] and res["reversis"]["made"])
    if res["reversis"]:
        c = res["reversis"]["seat"]
        assert can_commit and first == {c}, "reversis reported without a commitment"
        assert made == (res["tricks_won"][c] == n_tricks)
    else:
        assert not can_commit, "a commitment was missed"
    if params["scoring"] == "simple":
        assert rec["payments"] == [] and res["party_winner"] is None
        score = [pts[s] + params["simple_quinola_extra"] * any("JH" in t["cards"] and t["winner"] == s
                                                                for t in rec["tricks"]) for s in range(n)]
        assert res["score"] == score
        assert res["score_after"] == [a + b for a, b in zip(rec["score_before"], score)]
    elif params["scoring"] == "party":
        assert (res["party_winner"] is None) == made, "party winner missing, or present after a made reversis"
    if res["party_winner"] is not None:
        assert res["party_winner"] in active
