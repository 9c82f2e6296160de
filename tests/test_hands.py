"""Hands as dealt, and outcomes by hand feature (the attempt chart's data)."""

from __future__ import annotations

import json

import numpy as np
import polars as pl
import pytest

from reversis_sim import cards as C
from reversis_sim.analysis.hands import by_hand, hand_features, with_hand_features
from reversis_sim.engines import get_engine
from reversis_sim.policies import parse_seats
from reversis_sim.record import RunSpec, part_files
from reversis_sim.rules import PRESETS
from reversis_sim.simulate import run


@pytest.mark.parametrize("preset", ["parlett", "modern_five", "serbian", "parlett_52"])
def test_both_engines_deal_the_same_hands_as_the_records_show(preset):
    rules = PRESETS[preset]
    fast = get_engine("numba").dealt_hands(rules, seed=4, first_match=3, n_matches=2)
    slow = get_engine("reference").dealt_hands(rules, seed=4, first_match=3, n_matches=2)
    assert fast.dtype == np.uint64 and fast.shape == (2 * rules.match_deals, rules.n_seats)
    assert np.array_equal(fast, slow)
    records = get_engine("numba").match_records(rules, parse_seats(["random"], rules.n_seats), seed=4, match=4)
    for d, rec in enumerate(records):
        want = [C.mask(C.parse(c) for c in hand) for hand in rec["dealt"]]
        assert fast[rules.match_deals + d].tolist() == want


def test_hand_features_count_what_a_player_sees():
    rules = PRESETS["parlett"]
    hand = [C.parse(c) for c in ("AS", "KS", "QS", "AH", "JH", "2H", "KD", "9C")]
    f = {k: int(v[0]) for k, v in hand_features(np.array([C.mask(hand)], np.uint64), rules).items()}
    assert f == {"top_cards": 4, "hearts": 3, "aces": 2, "points": 4 + 3 + 2 + 4 + 1 + 3, "quinola": 1,
                 "voids": 0, "guards": 1}  # the 2♥ guards the J♥
    void = {k: int(v[0]) for k, v in hand_features(np.array([C.mask(hand[:5])], np.uint64), rules).items()}
    assert void["voids"] == 2 and void["guards"] == 0  # no diamonds, no clubs; the J♥ bare of lower hearts
    serbian = {k: int(v[0]) for k, v in hand_features(np.array([C.mask(hand)], np.uint64), PRESETS["serbian"]).items()}
    assert serbian["top_cards"] == 5  # the J♥ tops the hearts there: JH and AH are the two highest hearts
    assert serbian["points"] == 4 + 3 + 2 + 4 + 4 + 3  # J♥ worth 4 in tricks (F3)


def test_outcomes_by_hand_agree_with_a_direct_computation(tmp_path):
    rules = PRESETS["parlett"].replace(reversis_commit_after=2)  # commitments common enough to count
    spec = RunSpec.for_deals(rules, ["avoid:rev_top=4"], deals=4800, seed=6, chunk_matches=100)
    run(spec, tmp_path / "r")
    table = by_hand(tmp_path / "r", "top_cards", estimator="plain")
    rows = pl.read_parquet(part_files(tmp_path / "r"))
    masks = get_engine("reference").dealt_hands(rules, seed=6, first_match=0, n_matches=spec.n_matches)
    top = hand_features(masks, rules)["top_cards"]
    rows = rows.with_columns(pl.Series("tc", top[rows["match"].to_numpy() * 12 + rows["deal"].to_numpy(),
                                                 rows["seat"].to_numpy()]))
    direct = rows.group_by("tc").agg(pl.col("fish").mean().alias("mean"),
                                     (pl.col("reversis_seat") == pl.col("seat")).sum().alias("committed")).sort("tc")
    assert table["top_cards"].to_list() == direct["tc"].to_list()
    assert np.allclose(table["mean"].to_numpy(), direct["mean"].to_numpy())
    assert table["committed"].to_list() == direct["committed"].to_list()
    assert table["committed"].sum() > 20 and table.filter(pl.col("committed") > 0)["attempt_fish"].is_not_null().all()
    manifest, lf = with_hand_features(tmp_path / "r", ("hearts",))
    assert "hearts" in lf.collect_schema().names() and manifest["seed"] == 6
    with pytest.raises(ValueError, match="unknown hand feature"):
        by_hand(tmp_path / "r", "beauty")


def test_a_run_without_a_reversis_commitment_has_null_attempt_columns(tmp_path):
    spec = RunSpec.for_deals(PRESETS["parlett"], ["lowest"], deals=48, seed=1)
    run(spec, tmp_path / "r")
    rows = pl.read_parquet(part_files(tmp_path / "r"))
    assert not (rows["reversis_seat"] == rows["seat"]).any()  # the premise: nobody committed
    table = by_hand(tmp_path / "r", "top_cards")
    assert table["committed"].sum() == 0 and table["n_deals"].sum() == rows.height
    assert table["attempt_fish"].is_null().all() and table["made_rate"].is_null().all()


def test_the_quinola_by_hand_of_a_constrained_run_agrees_with_a_direct_computation(tmp_path):
    """A run whose seat 0 is dealt the J♥: the holder's fate and cost by its guards, against the reference's dealt
    hands (with the same constraint) and pandas-free numpy; the tables say what they are conditional on."""
    from reversis_sim.analysis.hands import conditioning, quinola_by_hand, quinola_cost_by_hand
    from reversis_sim.constraints import deals_of

    rules = PRESETS["parlett"]
    deals = deals_of(rules, [], "has(0, JH) and hearts(0) <= 4")
    spec = RunSpec.for_deals(rules, ["avoid"], deals=2400, seed=9, chunk_matches=50, constraints=deals)
    report = run(spec, tmp_path / "r")
    cond = conditioning(tmp_path / "r")
    assert cond["deals"] == {"where": "has(0, JH) and hearts(0) <= 4"}
    assert cond["acceptance"] == pytest.approx(report.n_deals_run / report.n_shuffles) and cond["acceptance"] < 0.3
    assert cond["passed"] == cond["acceptance"]  # without a predeal, the shuffles that passed are the share
    table = quinola_by_hand(tmp_path / "r", "guards")
    rows = pl.read_parquet(part_files(tmp_path / "r")).sort("match", "deal", "seat")
    masks = get_engine("reference").dealt_hands(rules, seed=9, first_match=0, n_matches=spec.n_matches, deals=deals)
    guards = hand_features(masks, rules)["guards"][:, 0]
    holder = rows.filter(pl.col("seat") == 0).with_columns(pl.Series("g", guards),
                                                           pl.col("quinola_fate").cast(pl.String))
    for (g, fate), part in holder.group_by("g", "quinola_fate"):
        got = table.filter((pl.col("guards") == g) & (pl.col("fate") == fate))
        assert got["successes"].item() == part.height
        assert got["trials"].item() == holder.filter(pl.col("g") == g).height
    assert "cost_mean" not in table.columns  # one cost per hand, not repeated on every fate row as a cost by fate
    cost = quinola_cost_by_hand(tmp_path / "r", "guards", estimator="plain")
    assert cost["guards"].n_unique() == cost.height
    for g, part in holder.group_by("g"):
        got = cost.filter(pl.col("guards") == g[0])
        assert got["cost_mean"].item() == pytest.approx(part["quinola_net"].mean())
        assert got["holders"].item() == part.height
    assert table["guards"].max() <= 3  # hearts(0) <= 4 with the J♥: at most three hearts below it


def test_the_hands_command_prints_conditional_tables_and_draws_a_figure(tmp_path):
    from click.testing import CliRunner

    from reversis_sim.cli import main

    out = tmp_path / "r"
    r = CliRunner().invoke(main, ["simulate", "--deals", "1200", "--predeal", "1=JH", "--out", str(out),
                                  "--no-figures", "--quiet"])
    assert r.exit_code == 0, r.output
    r = CliRunner().invoke(main, ["hands", str(out), "--feature", "guards"])
    assert r.exit_code == 0, r.output
    assert 'conditional on the deals meeting {"predeal": ["1=JH"]}' in r.output and "## quinola by guards" in r.output
    # every shuffle "passes" a predeal alone, which says nothing of how often a deal gives seat 1 the J♥ (about 23%)
    assert "share of all deals not measured: --predeal places its cards in every deal)" in r.output, r.output
    assert "100.00%" not in r.output
    cond = json.loads(CliRunner().invoke(main, ["hands", str(out), "--format", "json"]).stdout)["conditioning"]
    assert cond["acceptance"] is None and cond["passed"] == 1.0
    assert (out / "figures" / "hand_guards.png").stat().st_size > 10_000


def test_analyze_adds_the_tables_by_hand(tmp_path):
    from click.testing import CliRunner

    from reversis_sim.cli import main

    out = tmp_path / "r"
    assert CliRunner().invoke(main, ["simulate", "--deals", "480", "--out", str(out), "--no-figures",
                                     "--quiet"]).exit_code == 0
    r = CliRunner().invoke(main, ["analyze", str(out), "--hand", "aces", "--format", "json"])
    assert r.exit_code == 0, r.output
    import json

    data = json.loads(r.stdout)
    assert {"fish_by_seat", "fish_by_aces", "quinola_by_aces", "quinola_cost_by_aces"} <= set(data)
    assert sum(row["n_deals"] for row in data["fish_by_aces"]) == 480 * 4
    for args in (["--hand", "hearts", "--table", "fish_by_hearts"], ["--table", "fish_by_hearts"]):
        r = CliRunner().invoke(main, ["analyze", str(out), *args, "--format", "json"])
        assert r.exit_code == 0 and list(json.loads(r.stdout)) == ["fish_by_hearts"], r.output
    r = CliRunner().invoke(main, ["analyze", str(out), "--table", "quinola_cost_by_guards", "--format", "csv"])
    assert r.exit_code == 0 and r.stdout.startswith("guards,holders,cost_mean,"), r.output
