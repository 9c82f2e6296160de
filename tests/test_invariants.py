"""Invariants over seeded random play: every card exactly once, only legal plays, the Appendix A
identities, chips conserved, the pool carried from deal to deal."""

import pytest
from recordcheck import check_record

from reversis_sim import reference
from reversis_sim.policies import parse_seats
from reversis_sim.rules import PRESETS

N_MATCHES = 834  # x 12 deals = 10,008 deals of parlett


def _matches(rules, seed, n_matches):
    seats = parse_seats(["random"], rules.n_seats)
    for m in range(n_matches):
        yield list(reference.play_match(rules, seats, seed=seed, match=m))


@pytest.mark.slow
def test_ten_thousand_random_parlett_deals_keep_every_invariant():
    rules = PRESETS["parlett"]
    n = 0
    seen = {"declared": 0, "pool_won": 0, "talon_quinola": 0}
    for deals in _matches(rules, seed=20261130, n_matches=N_MATCHES):
        pool = 0
        for k, rec in enumerate(deals):
            check_record(rec)
            assert rec["deal"] == k and rec["dealer"] == k % 4, "R4: the deal passes to the right"
            assert rec["pool_before"] == pool, "R10: the pool carries over"
            pool = rec["result"]["pool_after"]
            seen["declared"] += rec["espagnolette"] is not None
            seen["pool_won"] += any(p["reason"] == "pool_won" for p in rec["payments"])
            seen["talon_quinola"] += "JH" in rec["talon"]
            n += 1
    assert n >= 10_000
    # The random deals exercised the rare branches too (otherwise the invariants prove little).
    assert all(v > 10 for v in seen.values()), seen


@pytest.mark.parametrize("name", sorted(set(PRESETS) - {"parlett"}))
def test_every_preset_keeps_every_invariant(name):
    rules = PRESETS[name]
    n = 0
    for deals in _matches(rules, seed=5, n_matches=60):
        for k, rec in enumerate(deals):
            check_record(rec)
            n += 1
            assert rec["dealer"] == (k * rules.dealer_step) % rules.n_seats
            if not rules.espagnolette_enabled:
                assert rec["espagnolette"] is None
        if rules.pool_persists:
            for prev, rec in zip(deals, deals[1:]):
                assert rec["pool_before"] == prev["result"]["pool_after"]
        if rules.scoring == "simple":  # G14: the match stops at the target, not before
            totals = [max(r["result"]["score_after"]) for r in deals]
            assert all(t < rules.target_total for t in totals[:-1])
            assert totals[-1] >= rules.target_total or len(deals) == rules.match_deals
    assert n >= 300


def test_a_won_pool_restarts_with_fresh_antes():
    """R9/R10: after the pool is won, the next deal stakes a new pool (5 each + the dealer's 5)."""
    checked = 0
    for deals in _matches(PRESETS["parlett"], seed=3, n_matches=60):
        for prev, rec in zip(deals, deals[1:]):
            antes = [p for p in rec["payments"] if p["reason"] == "ante"]
            if prev["result"]["pool_after"] == 0:
                assert sorted((p["from"], p["amount"]) for p in antes) == sorted(
                    [(s, 5) for s in range(4)] + [(rec["dealer"], 5)])
                checked += 1
            else:
                assert [(p["from"], p["amount"]) for p in antes] == [(rec["dealer"], 5)]
    assert checked > 0
