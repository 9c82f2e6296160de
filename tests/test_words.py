"""Words from the preset played: the run summary, the figures and their captions state the rules the run was
played under (reversis_sim/game/words.py). Every preset's summary is run, and no sentence of it names a payment,
a hand, an aim or a stake its rules do not have."""

from __future__ import annotations

import re

import pytest
from click.testing import CliRunner

from reversis_sim.cli import main
from reversis_sim.game.words import fate_legend, pool_name
from reversis_sim.rules import PRESETS

STAKES = ("pool", "pot", "bank")

PHRASES = {  # a phrase of the summary -> whether the rules have what it names
    r"doubles the (pool|pot|bank)": lambda r: "double_pool" in (r.quinola_pool_forced, r.quinola_pool_led),
    r"pays the leader": lambda r: bool(r.quinola_forced_holder or r.quinola_forced_each_other
                                       or r.quinola_forced_plus_pool),
    r"every other player pays the leader": lambda r: r.quinola_forced_each_other > 0,
    r"pays the party winner": lambda r: r.quinola_led_holder > 0,
    r"pays its thrower": lambda r: r.quinola_dumped > 0,
    r"thrower takes the": lambda r: r.quinola_pool_dumped == "win_pool",
    r"whoever takes it pays": lambda r: r.scoring == "penalty",
    r"a placement counts as a capture": lambda r: r.placement_is_capture,
    r"antes are doubled": lambda r: r.double_ante_after_placement,
    r"points on top of its own": lambda r: r.scoring == "simple",
    r"four Aces": lambda r: r.espagnolette_enabled and bool({"four_aces", "four_aces_plus_JH"}
                                                            & set(r.espagnolette_hands)),
    r"three Aces and the J♥": lambda r: r.espagnolette_enabled and "JH_plus_three_aces" in r.espagnolette_hands,
    r"three Aces and a King": lambda r: r.espagnolette_enabled and "three_aces_plus_king" in r.espagnolette_hands,
    r"plays to win no trick": lambda r: r.espagnolette_enabled and r.espagnolette_success == "zero_tricks",
    r"or every trick, as he declares": lambda r: r.espagnolette_goal_choice,
    r"plays to win the deal": lambda r: r.espagnolette_success == "is_deal_winner",
    r"Reversis \(winning every trick\)": lambda r: r.reversis_enabled,
    r"Espagnolette \(": lambda r: r.espagnolette_enabled,
    r"all the tricks but the last two": lambda r: r.reversis_commit_after == r.hand_size - 2,
    r"lay in the talon": lambda r: r.talon_mode != "none",
    r"share of it, so the seats add up to 0": lambda r: r.pool_persists and not r.winner_takes_pool,
    r"no fish change hands": lambda r: r.scoring == "simple",
}


@pytest.mark.parametrize("preset", PRESETS)
def test_every_presets_summary_names_only_what_its_rules_have(tmp_path, preset):
    rules = PRESETS[preset]
    r = CliRunner().invoke(main, ["simulate", "--rules", preset, "--deals", str(24 * rules.match_deals), "--seed",
                                  "5", "--out", str(tmp_path / preset), "--no-figures", "--quiet"])
    assert r.exit_code == 0, r.output
    text = " ".join(r.stdout.split())
    for phrase, has in PHRASES.items():
        if not has(rules):
            assert not re.search(phrase, text), f"{preset} has no {phrase!r}: {text}"
    for stake in STAKES:
        if stake != pool_name(rules):
            assert not re.search(rf"\b{stake}\b", text), f"{preset} calls it the {pool_name(rules)}: {text}"
    assert "every raw mean is negative" not in text
    if not (rules.pool_persists and not rules.winner_takes_pool):  # nothing can be left in the pool
        assert "share" not in r.stdout.splitlines()[1], "one column: the raw means already add up to 0"


@pytest.mark.parametrize("preset", ["parlett", "modern", "serbian", "pierer", "parlett_simple"])
def test_the_figures_legends_name_who_pays_under_the_rules_played(preset):
    legend = fate_legend(PRESETS[preset])
    expected = {
        "parlett": ("holder is paid", "holder pays", "holder pays"),
        "modern": ("holder is paid", "its taker pays", "its taker pays"),
        "serbian": ("holder is paid", "holder pays", "no payment"),
        "pierer": ("holder is paid", "holder pays", "holder pays"),
        "parlett_simple": ("its taker scores 5 more",) * 3,
    }[preset]
    assert [legend[f].split("(")[-1].rstrip(")") for f in ("dumped", "forced", "led")] == list(expected)


def test_a_runs_figures_take_their_words_from_its_rules():
    from reversis_sim.plot.files import rule_words

    modern = PRESETS["modern"]
    words = rule_words({"rules": "modern", "rules_params": modern.to_params()})
    assert words["fish_by_seat"]["pool"] == words["quinola_cost"]["pool"] == "pot"
    assert words["quinola_fate_by_hearts"]["words"] == fate_legend(modern)
    assert "its taker pays" in words["quinola_fate_by_hearts"]["words"]["forced"]
