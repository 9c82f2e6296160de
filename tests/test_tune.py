"""Tuning: the search space and its refusals, the search on objectives with a known answer, the honesty
of explore-then-confirm, and the engine-backed tuner, best response and self-play from the API and the CLI."""

from __future__ import annotations

import json
import zlib

import numpy as np
import pytest
from click.testing import CliRunner
from scipy import stats as st

from reversis_sim.analysis.stats import paired_comparison
from reversis_sim.cli import main
from reversis_sim.tune import OPTIMIZERS, SpaceError, best_response, build_space, search, self_play, tune

# ----------------------------------------------------------------------------------------------------------------
# the search space


def test_the_default_space_is_every_parameter_over_its_range():
    space = build_space("avoid:take=3")
    assert [d.name for d in space.dims][:3] == ["duck", "unload", "shed"]
    take = next(d for d in space.dims if d.name == "take")
    assert (take.kind, take.low, take.high, take.step) == ("real", 0.0, 20.0, 0.25)
    assert next(d for d in space.dims if d.name == "duck").choices == (0.0, 1.0)
    assert str(space.spec({"take": 7.5, "guard": 3})) == "avoid:guard=3,take=7.5"
    assert str(space.spec({})) == "avoid:take=3"  # the base's own values stand


@pytest.mark.parametrize("params,message", [
    (["speed=1..2"], "avoid has no parameter 'speed'"),
    (["take=5..5"], "the range is empty or inverted"),
    (["take=9..2"], "the range is empty or inverted"),
    (["take=-1..5"], "leaves the parameter's bounds [0, 20]"),
    (["guard=0..9"], "leaves the parameter's bounds [0, 6]"),
    (["guard=0.5..3"], "guard takes whole numbers"),
    (["duck=0..1"], "duck is an on/off switch; write duck=0,1"),
    (["duck=0.5"], "is an on/off switch"),
    (["take=a..b"], "must be two numbers"),
    (["take"], "is not NAME=LOW..HIGH"),
    (["take=1..2", "take=3..4"], "take is given twice"),
])
def test_bad_spaces_are_refused_in_one_sentence(params, message):
    with pytest.raises(SpaceError, match=message.replace("[", r"\[").replace("]", r"\]")):
        build_space("avoid", params)


def test_a_family_without_parameters_cannot_be_tuned():
    with pytest.raises(SpaceError, match="no parameters to tune"):
        build_space("random")


# ----------------------------------------------------------------------------------------------------------------
# the search on synthetic objectives


class Synthetic:
    """A known objective over ``take`` and ``guard``: a quadratic bowl peaking at (7.5, 3) with its top at 0 (the
    gain over a baseline), seen with noise on every block, as a duplicate comparison sees a candidate's gain. With
    ``effect=0`` no setting matters (an A/A). Deterministic: the noise is keyed by (seed, block, setting)."""

    def __init__(self, n_blocks=12, seed=0, effect=1.0, noise=1.0):
        self.n_blocks, self.deals_used = n_blocks, 0
        self.seed, self.effect, self.noise = seed, effect, noise

    def truth(self, spec) -> float:
        p = dict(spec.params)
        return -self.effect * (((p["take"] - 7.5) / 4) ** 2 + ((p["guard"] - 3) / 2) ** 2)

    def block(self, spec, block) -> float:
        self.deals_used += 1
        key = zlib.crc32(f"{self.seed},{block},{spec}".encode())
        return self.truth(spec) + np.random.default_rng(key).normal(0, self.noise)

    def deals_per_evaluation(self) -> int:
        return self.n_blocks


@pytest.mark.parametrize("optimizer", OPTIMIZERS)
def test_the_search_finds_a_known_optimum(optimizer):
    space = build_space("avoid", ["take=0..20", "guard=0..6"])
    result = search(space, Synthetic(), budget_deals=12 * 60, seed=2, optimizer=optimizer)
    best = dict(result.best.values)
    assert abs(best["take"] - 7.5) <= 2.5 and abs(best["guard"] - 3) <= 1, (optimizer, best)
    assert result.trials[0].spec == "avoid"  # the base setting is always tried first
    if optimizer == "optuna":
        assert sum(t.state == "pruned" for t in result.trials) > 0  # racing stops clearly worse candidates


def test_explore_then_confirm_reports_no_gain_at_the_nominal_rate_when_nothing_matters():
    """A/A: no setting matters. The best of a search looks like a gain on its own explore seed (selection), but
    re-tested on fresh blocks it is significant in about 5% of searches, as a 5% test should be."""
    space = build_space("avoid", ["take=0..20", "guard=0..6"])
    n, significant, explore = 60, 0, []
    for rep in range(n):
        null = Synthetic(seed=rep, effect=0.0)
        best = search(space, null, budget_deals=12 * 25, seed=rep, optimizer="random").best
        explore.append(best.mean)
        fresh = Synthetic(n_blocks=40, seed=10_000 + rep, effect=0.0)
        diffs = [fresh.block(space.spec(best.values), b) for b in range(40)]
        r = paired_comparison(diff=np.asarray(diffs))
        significant += r.p_value < 0.05 and r.mean_difference > 0
    assert np.mean(explore) > 0.3  # the explore seed flatters the chosen setting
    assert significant <= st.binom.ppf(0.99, n, 0.025)  # one-sided 5% test: about 2.5% significant gains


def test_a_budget_that_cannot_judge_a_few_candidates_besides_the_base_is_refused():
    """A budget of one evaluation would judge only the base setting (also the baseline), and then report that the
    search found nothing better: refused, saying how many it could judge and the least budget that judges four."""
    with pytest.raises(ValueError, match="judges 0 candidates in full .each costs 12 deals"):
        search(build_space("avoid", ["take=0..20"]), Synthetic(), budget_deals=5, seed=0)
    with pytest.raises(ValueError, match="judges 1 candidate in full .*the base setting itself; give --budget-deals "
                                         "48 or more"):
        search(build_space("avoid", ["take=0..20"]), Synthetic(), budget_deals=20, seed=0)
    assert len(search(build_space("avoid", ["take=0..20"]), Synthetic(), budget_deals=48, seed=0).trials) >= 4


def test_every_seed_of_ours_seeds_the_optimizers():
    """Seeds run 0 to 2**63 - 1 everywhere; the optimizers' 32-bit seeds are folded from the larger ones (and a
    seed below 2**32 is used as it is, so earlier tunings keep their trials)."""
    from reversis_sim.keys import MAX_SEED, next_seed, sub_seed

    space = build_space("avoid", ["take=0..20", "guard=0..6"])
    for optimizer in ("optuna", "random"):
        big = search(space, Synthetic(), budget_deals=12 * 8, seed=MAX_SEED, optimizer=optimizer)
        again = search(space, Synthetic(), budget_deals=12 * 8, seed=MAX_SEED, optimizer=optimizer)
        assert [t.values for t in big.trials] == [t.values for t in again.trials] and len(big.trials) >= 8
    assert all(0 <= sub_seed(s, 7) < 2**32 for s in (0, 2**32, MAX_SEED))
    assert next_seed(MAX_SEED) == 0 and next_seed(5, 2) == 7


# ----------------------------------------------------------------------------------------------------------------
# the engine


SMALL = dict(budget_deals=400_000, eval_deals=4_800, confirm_deals=48_000)  # the least confirmation
RERUN = dict(SMALL, budget_deals=120_000)
"""For the tests that compare a tuning with itself (run twice, resumed): a shorter search, the same steps."""


@pytest.mark.slow
def test_tune_is_a_pure_function_of_its_seeds_and_confirms_on_fresh_deals():
    a = tune("parlett", "avoid", params=["take=0..8"], seed=5, confirm_seed=6, **RERUN)
    b = tune("parlett", "avoid", params=["take=0..8"], seed=5, confirm_seed=6, **RERUN)
    assert [t.spec for t in a.search.trials] == [t.spec for t in b.search.trials]
    assert a.summary() == {**b.summary(), "search_seconds": a.summary()["search_seconds"],
                           "evaluations_per_s": a.summary()["evaluations_per_s"]}
    assert a.search.trials[0].spec == "avoid" and a.search.trials[0].mean == 0.0  # the base is the baseline
    assert a.confirm.seed == 6 and a.confirm.candidate == a.best.spec and a.search.deals_used <= RERUN["budget_deals"]
    with pytest.raises(ValueError, match="must differ from --seed"):
        tune("parlett", "avoid", seed=5, confirm_seed=5, **SMALL)


def test_a_parameter_without_effect_gives_no_significant_gain():
    """modern has no talon: take never acts, every candidate plays the baseline's game, exactly."""
    r = tune("modern", "avoid", params=["take=0..20"], seed=1, confirm_seed=2, **SMALL)
    assert {t.mean for t in r.search.trials} == {0.0}
    assert r.confirm.mean_difference == 0.0 and not r.significant


def test_best_response_to_random_is_a_large_confirmed_gain():
    r = best_response("parlett", "random", params=["take=0..20"], seed=3, confirm_seed=4, **SMALL)
    assert r.best.spec.startswith("avoid") and r.significant and r.confirm.ci_low > 50


def test_self_play_stops_when_a_round_finds_no_confirmed_gain():
    played = self_play("modern", "avoid", rounds=3, params=["take=0..20"], seed=1, confirm_seed=2, **SMALL)
    assert played.stopped == "converged" and len(played.rounds) == 1 and played.final == "avoid"


def test_self_play_that_runs_out_of_rounds_publishes_the_least_exploited_field():
    """Iterated best responses may cycle; the published setting is then the field whose measured exploitability
    was smallest, not the last best response (whose own exploitability nobody measured)."""
    from types import SimpleNamespace

    from reversis_sim.tune.tuner import SelfPlay, SelfPlayRound

    def rnd(i, field, gain, best):
        result = SimpleNamespace(confirm=SimpleNamespace(mean_difference=gain), best=SimpleNamespace(spec=best))
        return SelfPlayRound(i, field, result)

    fields = ["avoid", "avoid:take=0", "avoid:take=2", "avoid:take=1"]
    gains = [6.0, 1.4, 0.9, 1.7]
    played = SelfPlay([rnd(i, f, g, fields[(i + 1) % 4]) for i, (f, g) in enumerate(zip(fields, gains))], "rounds")
    assert played.final == "avoid:take=2"
    played.stopped = "converged"
    assert played.final == "avoid:take=1"


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


@pytest.mark.slow
def test_tune_and_best_response_from_the_command_line(tmp_path):
    r = run("tune", "--base", "avoid", "--param", "take=0..8", "--budget-deals", "300000", "--eval-deals", "4800",
            "--confirm-deals", "48000", "--seed", "5", "--format", "json", "--out", tmp_path / "t")
    assert r.exit_code == 0, r.output
    data = json.loads(r.stdout)
    assert data["confirm_seed"] == 6 and {"confirmed_gain", "ci_low", "ci_high", "significant"} <= set(data)
    assert json.loads((tmp_path / "t" / "manifest.json").read_text())["kind"] == "tune"
    b = run("best-response", "--field", "lowest", "--param", "take=0..8", "--budget-deals", "300000",
            "--eval-deals", "4800", "--confirm-deals", "48000")
    assert b.exit_code == 0, b.output
    assert "exploitability of lowest by the avoid family: at least" in b.output


@pytest.mark.parametrize("args,message", [
    (["--param", "speed=1..2"], "avoid has no parameter 'speed'"),
    (["--param", "take=5..1"], "empty or inverted"),
    (["--param", "take=0..30"], "leaves the parameter's bounds"),
    (["--budget-deals", "100"], "judges 0 candidates in full"),
    (["--budget-deals", "30000", "--eval-deals", "4800"], "judges 1 candidate in full"),
    (["--seed", str(2**63)], "is not in the range 0<=x<=9223372036854775807"),
    (["--confirm-deals", "24000"], "holds its 95% from 4,000 matches"),
    (["--field", "avoid", "--field", "random"], "give one --field policy"),
    (["--confirm-seed", "0"], "must differ from --seed"),
])
def test_bad_tuning_input_is_one_sentence_exit_2_and_writes_nothing(tmp_path, args, message):
    out = tmp_path / "never"
    r = run("tune", "--base", "avoid", *args, "--out", out)
    assert r.exit_code == 2 and message in r.output and "Traceback" not in r.output, r.output
    assert not out.exists()


@pytest.mark.slow
def test_a_resumed_tuning_ends_with_the_uninterrupted_result(tmp_path):
    """Interrupted after k block evaluations (its journal cut there, as a kill leaves it, a torn last line
    included), a tuning run again from the journal reads those k back, simulates the rest, and ends with exactly
    the uninterrupted trials, deals spent and confirmation; a tuning with a journal is the one without."""
    from reversis_sim.tune import Journal

    kw = dict(params=["take=0..8", "guard=0..6"], seed=9, confirm_seed=10, **RERUN)
    whole = tune("parlett", "avoid", journal=Journal(tmp_path / "whole.jsonl"), **kw)
    plain = tune("parlett", "avoid", **kw)
    assert plain.search.deals_used == whole.search.deals_used and plain.best.spec == whole.best.spec
    lines = (tmp_path / "whole.jsonl").read_text().splitlines()
    assert len(lines) == len({(t.spec, b) for t in whole.search.trials for b in t.blocks}) > 6
    cut = tmp_path / "cut.jsonl"
    cut.write_text("\n".join(lines[:5]) + "\n" + lines[5][:17])  # five evaluations and a torn sixth
    journal = Journal(cut)
    resumed = tune("parlett", "avoid", journal=journal, **kw)
    assert journal.replayed == 5
    timing = ("search_seconds", "evaluations_per_s")
    assert {k: v for k, v in resumed.summary().items() if k not in timing} == \
        {k: v for k, v in whole.summary().items() if k not in timing}
    assert [(t.spec, t.blocks, t.block_values) for t in resumed.search.trials] == \
        [(t.spec, t.blocks, t.block_values) for t in whole.search.trials]


def test_a_best_that_is_the_baseline_itself_is_said_so_not_read_as_a_measured_zero(capsys):
    """When no candidate beat the start, the confirmation compares the baseline with itself on the same deals: an
    exact 0 with a zero-width interval, said as such rather than as a measurement."""
    from types import SimpleNamespace

    from reversis_sim.cli.tuning import _echo_result
    from reversis_sim.rules import PRESETS

    summary = {"optimizer": "optuna", "n_trials": 4, "n_pruned": 0, "search_deals": 9600, "search_seconds": 1.0,
               "evaluations_per_s": 8.0, "best": "avoid", "explore_mean": 0.0, "explore_blocks": 2,
               "significant": False, "confirm_deals": 48000, "confirmed_gain": 0.0, "ci_low": 0.0, "ci_high": 0.0,
               "p_value": 1.0}
    result = SimpleNamespace(summary=lambda: summary, seed=1, confirm_seed=2, baseline="avoid")
    _echo_result(result, PRESETS["parlett"], "tuning avoid")
    assert "the best found is the baseline itself, compared with itself (exactly 0)" in capsys.readouterr().out
    summary.update(confirmed_gain=0.5, ci_low=-0.1, ci_high=1.1, p_value=0.1)
    _echo_result(result, PRESETS["parlett"], "tuning avoid")
    assert "no significant gain" in capsys.readouterr().out
