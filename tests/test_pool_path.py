"""The pool-path estimator: the expected pool by the rules against brute force, its sums against the run's own
flows, and its means against the plain means of the same runs (tolerances from the plain standard errors)."""

import itertools

import numpy as np
import polars as pl
import pytest

from reversis_sim.analysis import analysis_tables, summarize_run
from reversis_sim.analysis.intervals import MIN_MATCHES
from reversis_sim.analysis.pool_path import ROW_MATCHES, ROW_PAYMENTS, PathSums, expected_pools, path_rows, rare_reasons
from reversis_sim.analysis.scan import scan_run
from reversis_sim.record import RunSpec
from reversis_sim.rules import PRESETS
from reversis_sim.simulate import run


def brute_force(chances, dealers, ante_new, ante_carry):
    """E[P_k] by walking every sequence of outcomes (r = 0, 1, 2 times the pool) with its probability."""
    K = len(dealers)
    m = np.zeros(K)
    for seq in itertools.product(range(3), repeat=K):
        prob, pool, pots = 1.0, 0, np.zeros(K)
        for k, (r, j) in enumerate(zip(seq, dealers)):
            pots[k] = pool + (ante_new if pool == 0 else ante_carry)
            prob *= chances[j, r]
            pool = r * pots[k]
        m += prob * pots
    return m


def test_expected_pools_equal_brute_force_and_their_gradient_finite_differences():
    rng = np.random.default_rng(7)
    chances = rng.dirichlet([4, 1, 5], size=3)
    dealers = np.array([0, 1, 2, 0, 1, 2, 0])
    m, grad = expected_pools(chances, dealers, 25.0, 5.0)
    np.testing.assert_allclose(m, brute_force(chances, dealers, 25, 5), rtol=1e-12)
    h = 1e-6
    for j, r in itertools.product(range(3), range(3)):
        up, down = chances.copy(), chances.copy()
        up[j, r] += h
        down[j, r] -= h
        numeric = (expected_pools(up, dealers, 25.0, 5.0)[0] - expected_pools(down, dealers, 25.0, 5.0)[0]) / (2 * h)
        np.testing.assert_allclose(grad[:, j, r], numeric, rtol=1e-6, atol=1e-6)


@pytest.fixture(scope="module")
def mixed(tmp_path_factory):
    out = tmp_path_factory.mktemp("mixed") / "run"
    run(RunSpec.for_deals(PRESETS["parlett"], ["random", "avoid", "tuned", "saver"], deals=96_000, seed=17,
                          chunk_matches=500), out)
    return out


def test_pool_path_means_agree_with_the_plain_means(mixed):
    """The same quantity: the pool-path mean lies within 4 plain standard errors of the plain mean in every row of
    every mean table (the plain se, the wider, bounds their difference), and its own se is smaller where the pool
    moves (a seat's fish, the Quinola's cost)."""
    path, plain = analysis_tables(mixed), analysis_tables(mixed, estimator="plain")
    for name, keys in (("fish_by_seat", ["seat"]), ("fish_by_position", ["position"]), ("fish_by_policy", ["policy"]),
                       ("fish_by_seat_zero_sum", ["seat"]), ("quinola_cost", ["fate"]),
                       ("fish_by_reason", ["policy", "reason"])):
        both = path[name].join(plain[name], on=keys, suffix="_plain")
        assert both.height == plain[name].height, name
        assert (both["estimator"] == "pool_path").any(), name
        z = ((both["mean"] - both["mean_plain"]) / both["se_plain"]).fill_nan(0.0)
        assert z.abs().max() < 4, (name, both.select(*keys, "mean", "mean_plain", "se_plain"))
    seats = path["fish_by_seat"].join(plain["fish_by_seat"], on="seat", suffix="_plain")
    assert (seats["se"] < 0.7 * seats["se_plain"]).all()
    cost = path["quinola_cost"].join(plain["quinola_cost"], on="fate", suffix="_plain")
    assert (cost["se"] < 0.7 * cost["se_plain"]).all()


def test_pool_path_keeps_the_exact_identities(mixed):
    """Linear in the rows: the seats' pool-share means add up to 0, the policies' means are the seats' (one policy a
    seat), and the holder's cost over every fate is the deal-weighted mean of the cost by fate."""
    t = analysis_tables(mixed)
    assert abs(t["fish_by_seat_zero_sum"]["mean"].sum()) < 1e-9
    by_policy = dict(zip(t["fish_by_policy"]["policy"], t["fish_by_policy"]["mean"]))
    seats = summarize_run(mixed)["seats"]
    for row in seats:
        assert row["mean"] == pytest.approx(by_policy[row["policy"]], rel=1e-12)
    cost = t["quinola_cost"]
    fates = cost.filter(pl.col("fate") != "all")
    overall = cost.filter(pl.col("fate") == "all")
    assert overall["mean"][0] == pytest.approx((fates["mean"] * fates["n_deals"]).sum() / fates["n_deals"].sum(),
                                               rel=1e-9)


def test_the_pool_path_prints_where_the_plain_means_refuse(mixed):
    """8,000 matches: fewer than a seat's raw fish (32,000) or the pool tables (128,000) need under the plain
    means; the pool-path intervals of the seats are printed, and the summary says which estimator it used."""
    summary = summarize_run(mixed)
    assert summary["estimator"] == "pool_path" and summary["estimator_note"] is None
    assert all(np.isfinite(row["ci_low"]) and row["n_needed"] == 0 for row in summary["seats"])
    plain = summarize_run(mixed, estimator="plain")
    assert all(not np.isfinite(row["ci_low"]) for row in plain["seats"])
    # the Quinola's cost through the pool's expected size held from 10,000 matches (docs/statistics.md §10)
    cost = analysis_tables(mixed)["quinola_cost"]
    assert cost["ci_low"].is_nan().all() and (cost["n_needed"] == MIN_MATCHES["pool_path_cost"]).all()


def test_a_run_whose_pool_breaks_the_law_keeps_the_plain_means(tmp_path):
    """serbian's forced J♥ pays the pool's amount to the leader, not into the pool: a flow that is no multiple of
    the pool; and a search seat decides by the pool it sees. Both keep the plain means, and say why."""
    out = tmp_path / "serbian"
    run(RunSpec.for_deals(PRESETS["serbian"], ["avoid"], deals=1200, seed=3, chunk_matches=50), out)
    scan = scan_run(out, reasons_by="policy", pool_path=True)
    assert "does not follow the law" in scan.path_status()
    assert set(scan.fish_by("seat", estimator="pool_path")["estimator"]) == {"plain"}
    search = tmp_path / "search"
    run(RunSpec.for_deals(PRESETS["parlett"], ["search:worlds=2", "avoid", "avoid", "avoid"], deals=48, seed=3,
                          chunk_matches=2), search)
    status = scan_run(search, pool_path=True).path_status()
    assert status is not None and "decides by the pool" in status
    assert summarize_run(search)["estimator"] == "plain"


def test_the_tables_by_the_hand_dealt_go_through_the_pool_and_agree_with_the_plain_ones(mixed):
    """fish_by_hearts and quinola_cost_by_guards: the same rows, the pool-path means within 4 plain standard errors
    of the plain ones, narrower where the pool moves; a value held in fewer matches than the floor counts prints no
    interval; below the tables' own floor (100,000 matches: their rarest rows) none is printed."""
    from reversis_sim.analysis.hands import by_hand, quinola_cost_by_hand

    path, plain = by_hand(mixed, "hearts"), by_hand(mixed, "hearts", estimator="plain")
    assert set(path["estimator"]) == {"pool_path"} and path["hearts"].to_list() == plain["hearts"].to_list()
    both = path.join(plain, on="hearts", suffix="_plain").filter(pl.col("n_units") > 100)
    assert (((both["mean"] - both["mean_plain"]) / both["se_plain"]).abs() < 4).all()
    ratio = both["se"] / both["se_plain"]
    assert ratio.max() < 1.1 and ratio.median() < 0.5  # no wider; much narrower where the pool moves (hearts held)
    cost = quinola_cost_by_hand(mixed, "guards")
    assert cost["cost_ci_low"].is_nan().all() and path["ci_low"].is_nan().all()  # 8,000 matches: too few
    assert (cost["n_needed"] >= MIN_MATCHES["pool_path_hand"]).all()
    # the tables' own floor, or more where fewer than ROW_MATCHES of the run's matches hold the value
    held = path["n_units"].to_numpy()
    rare = np.ceil(8_000 * ROW_MATCHES / np.clip(held, 1, None))
    floor = MIN_MATCHES["pool_path_hand"]
    expected = np.where(held < ROW_MATCHES, np.maximum(rare, floor), floor)
    assert (path["n_needed"].to_numpy() == expected).all() and (expected > floor).any()


def test_a_tournament_says_when_its_payoffs_stay_plain():
    """A search in the tournament, or a table whose pool breaks the law, keeps the plain payoffs, naming why."""
    from reversis_sim.compare.seatings import Table, as_spec
    from reversis_sim.compare.tournament import pool_path_status

    fine = Table(np.zeros((2, 4)), np.ones(2), (None,) * 5)
    broken = Table(np.zeros((2, 4)), np.ones(2), "its antes are not the same in every deal")
    assert pool_path_status([as_spec("avoid"), as_spec("tuned")], [fine]) is None
    assert pool_path_status([as_spec("avoid")], [fine, broken]) == "its antes are not the same in every deal"
    assert "decides by the pool" in pool_path_status([as_spec("search:worlds=2"), as_spec("avoid")], [fine])


def test_a_row_held_by_few_matches_prints_no_interval_and_says_how_many_would_hold_it():
    """path_rows' row floor: a group held by 100 of 2,500 matches (above the kind's 2,000) needs the matches in
    which ``row_matches`` would hold it; a group held by all of them is printed; the standard error counts every
    match either way."""
    rng = np.random.default_rng(3)
    U, K, J = 2_500, 4, 2
    dealers = np.array([0, 1, 0, 1])
    outcomes = np.zeros((U, J, 3))
    deal_outcome = rng.choice(3, size=(U, K), p=[0.4, 0.2, 0.4])
    np.add.at(outcomes, (np.repeat(np.arange(U), K), np.tile(dealers, U), deal_outcome.ravel()), 1.0)
    sizes = np.full((U, 2), float(K))
    held = np.ones((U, 2), bool)
    held[100:, 1] = False
    light = rng.normal(size=(U, 2)) * np.where(held, 1.0, 0.0)
    events = np.where(held[..., None], rng.integers(-1, 2, size=(U, 2, K)), 0).astype(float)
    sums = PathSums.of(sizes, light, events, outcomes.reshape(U, -1), held)
    every, rare = path_rows(sums, dealers, 25.0, 5.0, kind="pool_path", row_matches=ROW_PAYMENTS)
    assert every["n_units"] == U and every["n_needed"] == 0 and np.isfinite(every["ci_low"])
    assert rare["n_units"] == 100 and np.isnan(rare["ci_low"]) and np.isfinite(rare["se"])
    assert rare["n_needed"] == int(np.ceil(U * ROW_PAYMENTS / 100))
    assert PathSums.of(sizes, light, events, outcomes.reshape(U, -1)).occupied.tolist() == [U, U]  # by rows alone


def test_every_reason_counts_the_matches_holding_a_payment_of_it(mixed):
    """fish_by_reason through the pool's expected size: a row is held by the matches in which the policy's seats,
    together, were paid or paid some of it (a reason that moves the pool: in some deal; any other: over the match,
    the sample its mean is taken over), not by every match (every match has a row of every reason); below
    :data:`ROW_PAYMENTS` of them it prints no interval and needs more matches than its kind's floor (the return's
    own, ``pool_path_return``). A row no match holds is a payment between seats of one policy, 0 in every match."""
    pays = pl.read_parquet(sorted(mixed.glob("payments-*.parquet"))).with_columns(
        pl.col("policy").cast(pl.String), pl.col("reason").cast(pl.String))
    pool = pl.col("reason").is_in(["pool_double", "pool_won", "return"])
    held = pl.concat([
        pays.filter(pool).group_by("match", "deal", "policy", "reason").agg(pl.col("amount").sum()),
        pays.filter(~pool).group_by("match", "policy", "reason").agg(pl.col("amount").sum())], how="diagonal"
    ).filter(pl.col("amount") != 0).group_by("policy", "reason").agg(pl.col("match").n_unique().alias("held"))
    table = analysis_tables(mixed)["fish_by_reason"]
    both = table.join(held, on=["policy", "reason"], how="left").with_columns(pl.col("held").fill_null(0))
    matches = 8_000
    assert table.height == 52 and set(both.filter(pl.col("held") == 0)["n_units"]) <= {matches}
    held_rows = both.filter(pl.col("held") > 0)
    assert (held_rows["n_units"] == held_rows["held"]).all(), held_rows.select("policy", "reason", "n_units", "held")
    for reason, n_units, need, low in zip(held_rows["reason"], held_rows["n_units"], held_rows["n_needed"],
                                          held_rows["ci_low"]):
        floor = MIN_MATCHES["pool_path_return" if reason == "return" else "pool_path_reason"]
        rare = int(np.ceil(matches * ROW_PAYMENTS / n_units)) if n_units < ROW_PAYMENTS else 0
        assert need == max(floor, rare) and np.isnan(low), (reason, n_units, need)
    rare_plain = held_rows.filter(~pl.col("reason").is_in(["pool_double", "pool_won", "return"])
                                  & (pl.col("n_units") < ROW_PAYMENTS))
    assert rare_plain.height  # a broken reversis: these rows' rarity is what the loop above checked
    assert (both.filter(pl.col("reason") == "return")["n_units"] < 0.2 * matches).all()  # the rare one


def test_a_rare_reason_needs_the_matches_in_which_enough_would_hold_it():
    """rare_reasons on three rows of 20,000 matches whose kind needs no more: held by none (0 in every match: it
    keeps its interval [0, 0]), by 100 (needs the 60,000 matches in which 300 would hold it, no interval), by 500
    (printed, its ``n_units`` the 500)."""
    table = pl.DataFrame({"reason": ["none", "rare", "common"], "mean": [0.0, 0.1, 0.2], "se": [0.0, 0.01, 0.01],
                          "ci_low": [0.0, 0.08, 0.18], "ci_high": [0.0, 0.12, 0.22], "n_units": [20_000] * 3,
                          "n_deals": [240_000] * 3, "n_needed": [0, 0, 0], "held": [0, 100, 500]})
    out = rare_reasons(table, row_payments=300)
    assert out.columns == [c for c in table.columns if c != "held"]
    assert out["n_units"].to_list() == [20_000, 100, 500] and out["n_needed"].to_list() == [0, 60_000, 0]
    assert out["ci_low"][0] == 0.0 and np.isnan(out["ci_low"][1]) and np.isnan(out["ci_high"][1])
    assert out["ci_low"][2] == 0.18 and out["ci_high"][2] == 0.22


def test_at_ten_thousand_matches_the_quinola_cost_and_the_reasons_print_their_intervals_and_the_return_its_need(
        tmp_path):
    """The README's main job a tenth the size (120,000 deals): the Quinola's cost by fate and overall and fish by
    payment reason print their intervals through the pool's expected size; the return of a rolled-back doubling,
    held by a few dozen of these matches, says the matches it needs instead (its own floor)."""
    out = tmp_path / "tenth"
    run(RunSpec.for_deals(PRESETS["parlett"], ["avoid"], deals=120_000, seed=23, chunk_matches=5_000), out)
    tables = analysis_tables(out)
    cost = tables["quinola_cost"]
    assert set(cost["estimator"]) == {"pool_path"} and cost["ci_low"].is_finite().all()
    assert (cost["n_needed"] == 0).all() and MIN_MATCHES["pool_path_cost"] <= 10_000
    reasons = tables["fish_by_reason"].filter(pl.col("se") > 0)
    assert set(reasons["reason"]) == {"ante", "pool_double", "pool_won", "return"}
    printed = reasons.filter(pl.col("reason") != "return")
    assert (printed["n_needed"] == 0).all()  # the ante is a plain mean (no pool in it), judged with the others
    assert (printed["ci_low"] < printed["mean"]).all() and (printed["mean"] < printed["ci_high"]).all()
    assert MIN_MATCHES["pool_path_reason"] <= 10_000
    needs = dict(zip(reasons["reason"], reasons["n_needed"]))
    ret = reasons.filter(pl.col("reason") == "return").row(0, named=True)
    assert ret["estimator"] == "pool_path" and ret["n_units"] < ROW_PAYMENTS
    assert ret["ci_low"] is None or np.isnan(ret["ci_low"])
    assert needs["return"] >= MIN_MATCHES["pool_path_return"] > MIN_MATCHES["pool_path_reason"]
