"""Comparing policies: exact zero for identical arms, purity in the seed, the variance reduction, the
sequential test, tournaments, sweeps, comparison folders and the A/A script.

Most tests run on the numba engine (fast, so they afford a few hundred matches); the reference engine plays the
same comparisons where the two engines must agree.
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import numpy as np
import polars as pl
import pytest

from reversis_sim import compare as D
from reversis_sim import keys, reference
from reversis_sim.policies import FAMILIES, PolicySpecError, parse_seats
from reversis_sim.record import RunError
from reversis_sim.reference import make_policy
from reversis_sim.rules import get_preset

ROOT = Path(__file__).resolve().parents[1]
RULES = get_preset("parlett")
SMALL = dict(n_matches=8, match_deals=4, engine="reference")  # 32 deals per seating
FAST = dict(n_matches=60, match_deals=4, engine="numba")  # 240 deals per seating


def unpaired_over_paired(per_match) -> float:
    a, b = per_match["candidate"].to_numpy(), per_match["baseline"].to_numpy()
    return (a.var(ddof=1) + b.var(ddof=1)) / np.var(a - b, ddof=1)


# ----------------------------------------------------------------------------------------------------------------
# compare


def test_identical_candidate_and_baseline_give_exactly_zero():
    r = D.compare(RULES, "random", "random", seed=11, **SMALL)
    assert r.mean_difference == 0.0 and r.p_value == 1.0
    assert (r.ci_low, r.ci_high) == (0.0, 0.0)
    assert (r.per_match["difference"].to_numpy() == 0.0).all()
    s = r.summary()
    for key in ("mean_difference", "ci_low", "ci_high", "p_value", "n_deals", "effect", "variance_reduction"):
        assert key in s
    assert s["n_matches"] == 8 and s["n_deals_compared"] == 32
    assert s["n_deals"] == 32  # the all-random seating is simulated once for both arms and all rotations


def test_identical_arms_are_exactly_zero_without_the_memo_too():
    """The zero comes from determinism by key, not from sharing one simulation: two separate simulations of the
    same seating are identical, and so are the arms of a comparison against a different field."""
    arms1 = D.Arms(RULES, first_match=3, n_matches=4, match_deals=4, engine="reference", threads=None)
    arms2 = D.Arms(RULES, first_match=3, n_matches=4, match_deals=4, engine="reference", threads=None)
    seats = parse_seats(["random", "lowest", "lowest", "lowest"])
    t1, t2 = arms1.table(seats, 5), arms2.table(seats, 5)
    assert np.array_equal(t1.fish, t2.fish) and np.array_equal(t1.deals, t2.deals)
    r = D.compare(RULES, "random", "random", field="lowest", seed=5, **SMALL)
    assert r.mean_difference == 0.0 and r.p_value == 1.0


def test_compare_is_a_pure_function_of_the_seed():
    r1 = D.compare(RULES, "lowest", "random", seed=3, **FAST)
    r2 = D.compare(RULES, "lowest", "random", seed=3, **FAST)
    r3 = D.compare(RULES, "lowest", "random", seed=4, **FAST)
    assert r1.per_match.equals(r2.per_match) and r1.summary() == r2.summary()
    assert not r1.per_match.equals(r3.per_match)
    assert r1.mean_difference != 0.0


def test_summary_is_the_paired_comparison_of_the_per_match_rotation_means():
    r = D.compare(RULES, "lowest", "random", seed=2, **SMALL)
    d = r.per_match["difference"].to_numpy()
    assert r.mean_difference == pytest.approx(d.mean(), abs=1e-12)
    assert r.paired.se == pytest.approx(d.std(ddof=1) / np.sqrt(d.size), rel=1e-12)
    assert r.effect == pytest.approx(d.mean() / d.std(ddof=1), rel=1e-12)
    assert r.variance_reduction == pytest.approx(unpaired_over_paired(r.per_match), rel=1e-12)
    # the per-match value is the mean over the four rotations of the seat under test's per-deal fish
    assert r.by_rotation.height == 4
    assert r.by_rotation["mean_difference"].mean() == pytest.approx(r.mean_difference, abs=1e-9)
    # seatings: 4 candidate rotations + the all-random table (shared by the four baseline rotations)
    assert r.n_deals == 5 * 32


def test_policy_reseeded_aa_keeps_cards_and_pairs_the_arms():
    """Same cards, independent policy randomness for the seat under test: a real A/A comparison."""
    r = D.compare(RULES, "random", "random", seed=7, n_matches=30, match_deals=4, engine="reference",
                  policy_seed_offsets=(10**6, 2 * 10**6))
    assert r.mean_difference != 0.0 and 0.0 < r.p_value < 1.0
    assert r.ci_low < 0.0 < r.ci_high
    assert np.isfinite(r.variance_reduction) and r.variance_reduction > 1.0
    assert r.variance_reduction == pytest.approx(unpaired_over_paired(r.per_match), rel=1e-12)
    assert r.n_deals == 8 * 120  # every rotation of both arms is a distinct seating


class Spy:
    """The random policy, recording every view it is shown."""

    def __init__(self):
        self.inner, self.views = make_policy("random"), []

    def __getattr__(self, name):
        def decide(view, *args):
            self.views.append(view)
            return getattr(self.inner, name)(view, *args)
        return decide


@pytest.mark.parametrize("engine", ["numba", "reference"])
def test_a_seat_with_its_own_policy_seed_changes_only_its_stream_not_the_cards(engine):
    spies = [Spy() for _ in range(4)]
    moved = reference.play_deal(RULES, spies, seed=4, match=7, deal=3, dealer=3, policy_seeds=[4, 99, 4, 4])
    plain = reference.play_deal(RULES, [make_policy("random")] * 4, seed=4, match=7, deal=3, dealer=3)
    assert moved["dealt"] == plain["dealt"] and moved["talon_offered"] == plain["talon_offered"]
    assert spies[1].views and spies[0].views
    assert {v.policy_stream for v in spies[1].views} == {keys.stream(99, 7, 3, keys.PURPOSE_POLICY, 1)}
    assert {v.policy_stream for v in spies[0].views} == {keys.stream(4, 7, 3, keys.PURPOSE_POLICY, 0)}

    arms = D.Arms(RULES, first_match=0, n_matches=3, match_deals=4, engine=engine, threads=None)
    seats = parse_seats(["random"])
    base, other = arms.table(seats, 4, [4, 4, 4, 4]), arms.table(seats, 4, [4, 99, 4, 4])
    assert not np.array_equal(base.fish, other.fish)
    assert arms.n_deals_simulated == 2 * 12  # two distinct seatings


def test_policy_seed_offsets_give_the_same_comparison_on_both_engines():
    """The numba engine keys a seat's policy by its own seed exactly as the reference does (A/A tests run there)."""
    kw = dict(seed=3, n_matches=6, match_deals=4, policy_seed_offsets=(10**6, 2 * 10**6))
    fast = D.compare(RULES, "random", "random", engine="numba", **kw)
    slow = D.compare(RULES, "random", "random", engine="reference", **kw)
    assert fast.mean_difference != 0.0
    assert fast.per_match.equals(slow.per_match)
    assert fast.paired == slow.paired


def test_unpaired_control_plays_other_cards():
    r = D.compare(RULES, "random", "random", seed=7, baseline_seed=7 + 10**6, **SMALL)
    assert r.baseline_seed == 7 + 10**6 and r.mean_difference != 0.0


def test_bad_arguments_are_refused():
    with pytest.raises(ValueError, match="n_matches"):
        D.compare(RULES, "random", "random", seed=1, n_matches=0, engine="reference")
    with pytest.raises(ValueError, match="unknown engine 'gpu'; valid engines: numba, reference"):
        D.compare(RULES, "random", "random", seed=1, n_matches=2, engine="gpu")
    with pytest.raises(PolicySpecError):
        D.compare(RULES, "nosuch", "random", seed=1, n_matches=2, engine="reference")


# ----------------------------------------------------------------------------------------------------------------
# comparison folders


def test_comparison_folder_is_written_and_refused_on_overwrite(tmp_path):
    out = tmp_path / "cmp"
    r = D.compare("parlett", "lowest", "random", seed=5, out=out, **SMALL)
    assert r.out == out
    manifest, rows = D.read_compare(out)
    assert manifest["kind"] == "compare" and manifest["format"] == D.COMPARE_FORMAT
    assert manifest["candidate"] == "lowest" and manifest["baseline"] == "random" and manifest["seed"] == 5
    assert manifest["summary"]["mean_difference"] == pytest.approx(r.mean_difference)
    assert json.loads((out / "manifest.json").read_text())["files"] == [D.COMPARE_TABLE]
    assert rows.height == 8 * 4 * 2
    assert {"match", "rotation", "arm", "policy", "n_deals", "fish", "fish_per_deal"} <= set(rows.columns)
    assert [f"fish_seat_{k}" for k in range(4)] == [c for c in rows.columns if c.startswith("fish_seat_")]
    # the seat under test's fish is its column among the per-seat fish, and the differences follow from the rows
    seat_fish = np.stack([rows[f"fish_seat_{k}"].to_numpy() for k in range(4)], axis=1)
    assert np.array_equal(seat_fish[np.arange(rows.height), rows["rotation"].to_numpy()], rows["fish"].to_numpy())
    per = rows.group_by("match", "arm").agg(pl.col("fish_per_deal").mean().alias("v"))
    wide = per.pivot(on="arm", index="match", values="v").sort("match")
    assert np.allclose((wide["candidate"] - wide["baseline"]).to_numpy(), r.per_match["difference"].to_numpy())

    with pytest.raises(RunError, match="already exists and is not empty; give --force to overwrite it"):
        D.compare("parlett", "lowest", "random", seed=5, out=out, **SMALL)
    D.compare("parlett", "random", "random", seed=6, out=out, force=True, **SMALL)
    assert D.read_compare(out)[0]["candidate"] == "random"

    foreign = tmp_path / "foreign"
    foreign.mkdir()
    (foreign / "notes.txt").write_text("mine")
    with pytest.raises(RunError, match="not a comparison folder.*even with --force: choose another --out folder"):
        D.compare("parlett", "random", "random", seed=6, out=foreign, force=True, **SMALL)
    assert (foreign / "notes.txt").read_text() == "mine"


def test_read_compare_refuses_other_folders(tmp_path):
    with pytest.raises(RunError):
        D.read_compare(tmp_path)


# ----------------------------------------------------------------------------------------------------------------
# sequential test


def test_sprt_accepts_h0_for_identical_arms_and_reports_each_batch():
    seen = []
    r = D.sprt_compare(RULES, "random", "random", None, delta=1.0, batch_matches=5, max_matches=40, seed=1,
                       engine="reference", match_deals=4, min_units=10, on_update=seen.append)
    assert r.decision == "accept_h0"
    assert r.n_matches == 10 and len(seen) == 2 and seen[-1].decision == "accept_h0"
    assert seen[0].decision == "continue" and seen[0].n_matches == 5
    assert r.llr == -np.inf and r.estimate.mean_difference == 0.0
    assert r.summary()["decision"] == "accept_h0"


def test_sprt_is_a_prefix_of_the_fixed_comparison_and_reports_inconclusive():
    seen = []
    r = D.sprt_compare(RULES, "lowest", "random", delta=50.0, batch_matches=4, max_matches=10, seed=8,
                       engine="reference", match_deals=4, min_units=30, on_update=lambda s: seen.append(s.llr))
    assert r.decision == "inconclusive" and r.n_matches == 10 and len(seen) == 3  # batches of 4, 4, 2
    fixed = D.compare(RULES, "lowest", "random", seed=8, n_matches=10, match_deals=4, engine="reference")
    assert r.estimate.mean_difference == pytest.approx(fixed.mean_difference, abs=1e-12)
    assert r.n_deals == fixed.n_deals


# ----------------------------------------------------------------------------------------------------------------
# tournament


def test_tournament_frames_and_their_consistency_with_compare():
    pols = ["random", "lowest", "avoid"]
    t = D.tournament(RULES, pols, n_matches=6, match_deals=4, seed=2, engine="numba")
    assert t.payoff.height == 9 and set(t.payoff.columns) >= {"row", "column", "mean", "ci_low", "ci_high"}
    assert t.ranking.height == 3 and t.ranking["rank"].to_list() == [1, 2, 3]
    assert t.ranking["mean"].to_list() == sorted(t.ranking["mean"].to_list(), reverse=True)
    assert t.pairwise.height == 3
    assert set(t.pairwise.columns) >= {"policy_a", "policy_b", "p_value", "p_holm", "reject", "claim"}
    assert (t.pairwise["p_holm"] >= t.pairwise["p_value"] - 1e-15).all()
    assert t.matrix.shape == (3, 3) and t.values.shape == (3, 3, 6)
    assert t.n_deals == 3 * 2 * 4 * 24 + 3 * 24  # off-diagonal seatings, then one table per diagonal entry
    # M[lowest, random] and M[random, random] are the two arms of compare(lowest, random)
    c = D.compare(RULES, "lowest", "random", seed=2, n_matches=6, match_deals=4, engine="numba")
    assert t.matrix[1, 0] == pytest.approx(c.paired.mean_a, abs=1e-12)
    assert t.matrix[0, 0] == pytest.approx(c.paired.mean_b, abs=1e-12)
    # the payoff table prints the means through the pool's expected size (heuristics only: the estimator holds)
    assert t.pool_path_note is None and set(t.payoff["estimator"]) == {"pool_path"}
    assert t.payoff.filter((t.payoff["row"] == "lowest") & (t.payoff["column"] == "random"))["mean"][0] == \
        pytest.approx(t.adjusted[1, 0].mean())


def test_tournament_refuses_duplicates_and_writes_a_folder(tmp_path):
    with pytest.raises(ValueError, match="twice"):
        D.tournament(RULES, ["random", "random:"], n_matches=2, seed=1, engine="reference")
    with pytest.raises(ValueError, match="two"):
        D.tournament(RULES, ["random"], n_matches=2, seed=1, engine="reference")
    out = tmp_path / "t"
    t = D.tournament(RULES, ["random", "lowest"], n_matches=3, match_deals=4, seed=1, engine="reference", out=out)
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["kind"] == "tournament" and manifest["policies"] == ["random", "lowest"]
    assert pl.read_parquet(out / "payoff.parquet").equals(t.payoff)
    assert pl.read_parquet(out / "values.parquet").height == 2 * 2 * 3
    with pytest.raises(RunError):
        D.tournament(RULES, ["random", "lowest"], n_matches=3, match_deals=4, seed=1, engine="reference", out=out)


# ----------------------------------------------------------------------------------------------------------------
# sweep


def test_grid_specs_parse_every_point():
    points = D.grid_specs("avoid", {"take": [0, 4, 7.5]})
    assert [str(s) for _, s in points] == ["avoid:take=0", "avoid", "avoid:take=7.5"]
    with pytest.raises(PolicySpecError):
        D.grid_specs("avoid", {"nosuch": [1]})
    with pytest.raises(PolicySpecError):
        D.grid_specs("avoid", {"take": [21]})  # out of range
    with pytest.raises(PolicySpecError, match="switch"):
        D.grid_specs("avoid", {"duck": [0.5]})
    with pytest.raises(ValueError, match="empty"):
        D.grid_specs("avoid", {})


def test_sweep_holm_and_explore_confirm(tmp_path):
    s = D.sweep(RULES, "avoid", {"take": [0.0, 4.0, 20.0]}, "avoid", n_matches=30, match_deals=4, seed=3,
                confirm_seed=4, confirm_matches=25, engine="numba", out=tmp_path / "sw")
    g = s.grid
    assert g.height == 3
    assert {"take", "spec", "mean_difference", "p_value", "p_holm", "reject", "best"} <= set(g.columns)
    assert (g["p_holm"] >= g["p_value"] - 1e-15).all()
    assert g.filter(g["best"])["spec"][0] == s.best
    assert g.filter(g["best"])["mean_difference"][0] == g["mean_difference"].max()
    assert s.confirm is not None and s.confirm.seed == 4 and s.confirm.n_matches == 25
    assert s.confirm.candidate == s.best and isinstance(s.confirmed, bool)
    assert s.table()["stage"].to_list() == ["explore"] * 3 + ["confirm"]
    # each grid point equals a stand-alone comparison on the explore seed (the shared baseline arm changes nothing)
    alone = D.compare(RULES, g["spec"][0], "avoid", seed=3, n_matches=30, match_deals=4, engine="numba")
    assert g["mean_difference"][0] == pytest.approx(alone.mean_difference, abs=1e-12)
    assert g["mean_difference"][1] == 0.0  # the default take=4 is the baseline itself
    manifest = json.loads((tmp_path / "sw" / "manifest.json").read_text())
    assert manifest["kind"] == "sweep" and manifest["best"] == s.best
    with pytest.raises(ValueError, match="differ"):
        D.sweep(RULES, "avoid", {"take": [0.0]}, "avoid", n_matches=2, seed=3, confirm_seed=3, engine="reference")


def test_every_parameter_of_avoid_sweeps_to_exactly_zero_at_its_default_and_moves_play_elsewhere():
    """Each parameter's value reaches the kernel: its default gives exactly 0 against the default policy, and most
    parameters change the game at one end of their range."""
    moved = []
    for p in FAMILIES["avoid"].params:
        values = sorted({p.low, p.default, p.high})
        s = D.sweep(RULES, "avoid", {p.name: values}, "avoid", n_matches=20, match_deals=4, seed=1, engine="numba")
        assert s.grid.height == len(values)
        assert s.grid.filter(pl.col(p.name) == p.default)["mean_difference"].to_list() == [0.0]
        if (s.grid["mean_difference"] != 0.0).any():
            moved.append(p.name)
    assert len(moved) >= 12, moved


# ----------------------------------------------------------------------------------------------------------------
# the A/A script


def test_aa_validation_quick_mode(capsys):
    spec = importlib.util.spec_from_file_location("aa_validation", ROOT / "scripts" / "aa_validation.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    rc = mod.main(["--quick", "--format", "json"])
    out = json.loads(capsys.readouterr().out)
    assert out["mode"] == "paired" and out["engine"] == "numba" and out["n_comparisons"] == 100
    assert out["mean_difference_sd"] > 0.0  # the arms really play independent policy randomness
    # an honest test: about 5 of 100 comparisons "significant", intervals covering 0 about 95 times in 100
    assert out["false_positive_rate_ok"] and out["coverage_ok"] and out["pass"] and rc == 0
    assert out["coverage"] == pytest.approx(1.0 - out["false_positive_rate"])  # the t-test's duality


# ----------------------------------------------------------------------------------------------------------------
# intervals printed only where they hold (docs/statistics.md §9)


def test_an_interval_is_printed_only_from_the_matches_it_needs():
    from reversis_sim.analysis.intervals import MIN_MATCHES

    floor = MIN_MATCHES["difference"]
    few = D.compare(RULES, "tuned", "avoid", seed=5, n_matches=50)
    s = few.summary()
    assert few.n_needed == floor and np.isnan(s["ci_low"]) and np.isnan(s["ci_high"]) and np.isnan(s["p_value"])
    assert s["note"] == f"too few matches for a reliable interval here: {floor:,} needed ({floor * 12:,} deals)"
    assert np.isfinite(few.ci_low) and few.paired.ci_low < few.mean_difference  # the library keeps the t bounds
    assert few.json_summary()["ci_low"] is None
    assert few.by_rotation["n_needed"].to_list() == [MIN_MATCHES["rotation"]] * 4
    assert few.by_rotation["ci_low"].is_nan().all()
    enough = D.compare(RULES, "random", "avoid", seed=5, n_matches=floor)
    s = enough.summary()
    assert enough.n_needed == 0 and s["note"] is None
    assert (s["ci_low"], s["ci_high"], s["p_value"]) == (enough.ci_low, enough.ci_high, enough.p_value)
    assert s["ci_low"] < s["mean_difference"] < s["ci_high"] < 0  # random loses to avoid


def test_tournament_and_sweep_make_no_claim_with_too_few_matches():
    t = D.tournament(RULES, ["random", "avoid"], n_matches=30, match_deals=4, seed=3)
    pair = t.pairwise.row(0, named=True)
    assert not pair["reject"] and pair["winner"] is None and pair["claim"].startswith("too few matches")
    assert np.isnan(pair["p_value"]) and np.isnan(pair["p_holm"]) and np.isnan(pair["ci_low"])
    assert t.payoff["ci_low"].is_nan().all() and (t.payoff["n_needed"] > 0).all()
    s = D.sweep(RULES, "avoid", {"take": [0.0, 20.0]}, "random", n_matches=30, match_deals=4, seed=3,
                confirm_seed=4)
    assert not s.grid["reject"].any() and s.grid["p_holm"].is_nan().all() and (s.grid["n_needed"] > 0).all()
    assert s.confirmed is False and s.confirm.n_needed > 0  # avoid crushes random, but 30 matches prove nothing
