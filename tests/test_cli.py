import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from recordcheck import check_record

from reversis_sim import reference
from reversis_sim.analysis.intervals import MIN_MATCHES
from reversis_sim.analysis.sequential import MIN_UNITS
from reversis_sim.cli import main
from reversis_sim.policies import parse_seats
from reversis_sim.rules import PARLETT

README = Path(__file__).resolve().parents[1] / "README.md"


def run(*args):
    return CliRunner().invoke(main, list(args))


def test_replay_one_deal_prints_its_record():
    r = run("replay", "--rules", "parlett", "--seed", "7", "--match", "2", "--deal", "3")
    assert r.exit_code == 0, r.output
    rec = json.loads(r.stdout)
    check_record(rec)
    assert (rec["run_seed"], rec["match"], rec["deal"]) == (7, 2, 3)
    assert rec == reference.replay(PARLETT, parse_seats(["avoid"]), seed=7, match=2, deal=3)  # simulate's default


def test_replay_a_match_prints_one_record_per_line_in_order():
    r = run("replay", "--seed", "1", "--match", "4", "--seat", "random", "--seat", "random", "--seat", "random",
            "--seat", "random")
    assert r.exit_code == 0, r.output
    recs = [json.loads(line) for line in r.stdout.splitlines()]
    assert [x["deal"] for x in recs] == list(range(12))
    for prev, rec in zip(recs, recs[1:]):
        assert rec["pool_before"] == prev["result"]["pool_after"]


@pytest.mark.parametrize("args,message", [
    (["replay", "--rules", "nope"], "unknown rules preset 'nope'; valid presets: "),
    (["replay", "--seat", "duck"], "unknown policy family 'duck'; valid families: avoid, learned, lowest, random"),
    (["replay", "--seat", "random:x"], "is not key=value"),
    (["replay", "--seat", "random:x=1"], "random has no parameter 'x'"),
    (["replay", "--seat", "random", "--seat", "random"], "got 2 seat policies; give one"),
    (["replay", "--seed", "-1"], "-1 is not in the range"),
    (["replay", "--seed", "abc"], "'abc' is not a valid integer"),
    (["replay", "--match", "-3"], "-3 is not in the range"),
    (["replay", "--deal", "12"], "deal 12 is out of range: a parlett match has 12 deals (0..11)"),
    (["replay", "--deal", "-1"], "deal -1 is out of range"),
    (["simulate", "--deals", "0"], "0 is not in the range"),
    (["rules", "nope"], "unknown rules preset"),
    (["replay", "--rule", "party_bonus"], "rule override 'party_bonus' is not NAME=VALUE"),
    (["replay", "--rule", "party_bonu=4"], "did you mean party_bonus"),
    (["simulate", "--rule", "hand_size=30"], "need more than the 48 cards"),
    (["compare", "--candidate", "avoid", "--baseline", "avoid", "--rule", "ace_dumped=-1"], "must not be negative"),
    (["tournament", "--policy", "avoid", "--policy", "lowest", "--rule", "n_seats=5"], "a table of 5 needs"),
    (["sweep", "--base", "avoid", "--param", "take=1,2", "--baseline", "avoid", "--rule", "x=1"], "no rule parameter"),
    (["rules", "--rule", "party_bonus=1"], "--rule modifies a preset: name it"),
])
def test_bad_input_gets_one_clear_sentence_and_no_traceback(args, message):
    r = run(*args)
    assert r.exit_code != 0
    assert message in r.output
    assert "Traceback" not in r.output and isinstance(r.exception, SystemExit)


@pytest.mark.parametrize("args,message", [
    (["compare", "--candidate", "avoid", "--baseline", "random", "--delta", "1"],
     "--delta sets the sequential test: add --sprt, or leave it out"),
    (["compare", "--candidate", "avoid", "--baseline", "random", "--alpha", "0.1", "--beta", "0.1"],
     "--alpha, --beta set the sequential test"),
    (["compare", "--candidate", "avoid", "--baseline", "random", "--sprt", "--delta", "1", "--out", "x"],
     "--sprt stops when the test decides and writes no folder"),
    (["compare", "--candidate", "avoid", "--baseline", "random", "--resume"], "give --out"),
    (["sweep", "--base", "avoid", "--param", "take=2,4", "--param", "take=8", "--baseline", "avoid"],
     "take is given twice; give each parameter once"),
    (["review", "--seed", "7", "--deal", "3", "--out", "x"], "--out belongs to a review of a player over many deals"),
    (["review", "--seed", "7", "--deal", "3", "--resume", "--force"], "--resume, --force belong to a review of a"),
    (["review", "--policy", "avoid", "--out", "x", "--resume", "--force"], "give one of the two"),
    (["review", "--record", "x.jsonl", "--deals", "1200"], "--deals belongs to a review of a player over many"),
    (["play", "--summary", "--show", "0", "--out", "x"], "give one of the two"),
    (["play", "--show", "0", "--seed", "3", "--out", "x"], "--seed sets a game to play; --show plays nothing"),
])
def test_an_option_that_does_not_apply_is_refused_in_one_sentence(args, message):
    r = run(*args)
    assert r.exit_code == 2 and message in r.output and "Traceback" not in r.output, r.output


def test_simulate_writes_a_run_and_prints_a_summary_as_json(tmp_path):
    out = tmp_path / "run"
    r = run("simulate", "--engine", "reference", "--deals", "48", "--seed", "3", "--format", "json", "--quiet",
            "--out", str(out), "--chunk-matches", "3")
    assert r.exit_code == 0, r.output
    data = json.loads(r.stdout)
    assert data["n_deals"] == 48 and data["n_matches"] == 4 and len(data["seats"]) == 4
    assert abs(sum(data["quinola_fate"].values()) - 1) < 1e-12
    assert sorted(p.name for p in out.glob("part-*")) == ["part-00000.parquet", "part-00001.parquet"]
    again = run("simulate", "--engine", "reference", "--deals", "48", "--seed", "3", "--out", str(out))
    assert again.exit_code != 0 and "already exists" in again.output and "--resume" in again.output
    tables = json.loads(run("analyze", str(out), "--format", "json").stdout)
    assert {"fish_by_seat", "quinola_fate", "reversis_rates"} <= set(tables)
    csv = run("analyze", str(out), "--format", "csv", "--table", "fish_by_position").output
    assert csv.splitlines()[0].startswith("position,mean,se,ci_low,ci_high")
    # as text into a pipe (no terminal): one line a row, no name or title cut into two
    text = run("analyze", str(out), "--table", "fish_by_reason").output
    header = next(line for line in text.splitlines() if line.startswith("| policy"))
    assert "| n_needed |" in header and "| estimator |" in header, text
    assert any("| pool_double " in line for line in text.splitlines()), text
    # one policy at every seat: its side payments cancel, and the table says so rather than leaving zeros unexplained
    assert "(one policy at every seat: what one of its seats pays another it also receives" in text, text
    assert "NaN" not in csv and ",," in csv  # a refused interval is empty, as JSON's null


def test_the_note_under_a_refused_table_gives_the_range_its_rows_need_and_one_policy_is_explained():
    import polars as pl

    from reversis_sim.cli.folders import one_policy_note
    from reversis_sim.cli.options import refusal_note

    rows = pl.DataFrame({"policy": ["avoid"] * 3, "reason": ["ante", "party", "return"],
                         "n_needed": [0, 50_000, 100_000]})
    assert "here: 50,000 to 100,000 needed, by row (600,000 to 1,200,000 deals);" in refusal_note(rows, 12)
    same = rows.with_columns(pl.lit(50_000).alias("n_needed"))
    assert "here: 50,000 needed (600,000 deals);" in refusal_note(same, 12)
    assert refusal_note(rows.with_columns(pl.lit(0).alias("n_needed")), 12) is None
    assert one_policy_note(rows).startswith("(one policy at every seat")
    assert one_policy_note(rows.with_columns(pl.Series("policy", ["avoid", "tuned", "avoid"]))) is None


def test_resuming_a_complete_run_says_it_was_complete_and_prints_its_summary(tmp_path):
    out = tmp_path / "run"
    args = ["simulate", "--engine", "reference", "--deals", "48", "--seed", "3", "--out", str(out), "--no-figures"]
    assert run(*args).exit_code == 0
    again = run(*args, "--resume")
    assert again.exit_code == 0 and f"{out} was already complete (1 chunk): nothing simulated" in again.stderr
    assert "wrote" not in again.stderr and "48 deals in 4 matches" in again.stdout, again.output


def test_analyze_refuses_a_folder_that_is_not_a_run(tmp_path):
    r = run("analyze", str(tmp_path))
    assert r.exit_code != 0 and "is not a run folder" in r.output and "Traceback" not in r.output
    assert f"run 'reversis-sim simulate --out {tmp_path}'" in r.output  # an empty folder: simulate can fill it
    (tmp_path / "notes.txt").write_text("mine")  # someone's folder, which simulate would refuse: not advised
    r = run("analyze", str(tmp_path))
    assert "give the --out folder of a simulate run" in r.output and "simulate --out" not in r.output, r.output


@pytest.mark.parametrize("command", ["analyze", "plot", "hands"])
def test_a_review_or_games_folder_given_for_a_run_says_what_it_is_and_what_reads_it(tmp_path, command):
    review, games = tmp_path / "review", tmp_path / "games"
    review.mkdir()
    (review / "manifest.json").write_text(json.dumps({"format": "reversis-review/2", "chunks_done": []}))
    r = run(command, str(review))
    said = "holds no reviewed chunk yet" if command == "plot" else "is a review folder"  # plot draws a review's figure
    assert r.exit_code == 1 and said in r.output and "--resume" in r.output, r.output
    games.mkdir()
    (games / "games.jsonl").write_text("")
    r = run(command, str(games))
    assert r.exit_code == 1 and "is a games folder of 'play'" in r.output and "play --summary" in r.output, r.output


def test_rules_and_policies_list_their_items_as_data():
    rules = json.loads(run("rules", "--format", "json").stdout)
    assert "parlett" in [x["name"] for x in rules]
    params = json.loads(run("rules", "parlett", "--format", "json").stdout)["params"]
    assert params["reversis_to_breaker"] == 64
    fams = json.loads(run("policies", "--format", "json").stdout)
    assert "random" in [x["name"] for x in fams]


def _commands():
    import click

    names = main.list_commands(click.Context(main))
    assert names and all(main.get_command(None, n).name == n for n in names)  # each resolves to its own command
    return names


@pytest.mark.parametrize("name", _commands())
def test_every_command_has_help_with_an_example_and_is_in_the_readme(name):
    r = run(name, "--help")
    assert r.exit_code == 0
    assert "Example:" in r.output and "reversis-sim " + name in r.output
    assert f"reversis-sim {name}" in README.read_text()


def test_compare_prints_the_paired_difference_as_json():
    r = run("compare", "--candidate", "avoid", "--baseline", "lowest", "--deals", "240", "--seed", "2",
            "--format", "json")
    assert r.exit_code == 0, r.output
    data = json.loads(r.stdout)
    assert {"mean_difference", "ci_low", "ci_high", "p_value", "n_deals", "n_needed"} <= set(data)
    # 20 matches are too few for a reliable interval: none is printed, and the sentence says how many are needed
    assert data["ci_low"] is None and data["ci_high"] is None and data["p_value"] is None
    assert data["n_needed"] == MIN_MATCHES["difference"] and "too few matches for a reliable interval" in data["note"]
    text = run("compare", "--candidate", "avoid", "--baseline", "lowest", "--deals", "240", "--seed", "2").output
    assert "95% CI" not in text and f"{MIN_MATCHES['difference']:,} needed" in text
    same = json.loads(run("compare", "--candidate", "avoid", "--baseline", "avoid", "--deals", "120",
                          "--format", "json").output)
    assert same["mean_difference"] == 0 and same["p_value"] == 1 and same["n_needed"] == 0  # exact at any size


def test_sprt_tournament_sweep_and_bench_run_from_the_command_line():
    allowed = (MIN_UNITS + 200) * 12
    r = run("compare", "--candidate", "avoid", "--baseline", "random", "--sprt", "--delta", "50", "--deals",
            str(allowed), "--batch-deals", "480", "--format", "json")
    assert r.exit_code == 0, r.output
    decided = json.loads(r.stdout)
    # avoid wins ~170 fish per deal more than random: the test accepts H1 as soon as its warm-up allows
    assert decided["decision"] == "accept_h1" and decided["n_matches"] == MIN_UNITS and decided["mean_difference"] > 50
    short = run("compare", "--candidate", "avoid", "--baseline", "random", "--sprt", "--delta", "50", "--deals", "2400")
    assert short.exit_code != 0 and "no decision before" in short.output
    assert "needs --delta" in run("compare", "--candidate", "avoid", "--baseline", "random", "--sprt").output
    t = run("tournament", "--policy", "avoid", "--policy", "lowest", "--deals", "120", "--format", "json")
    assert t.exit_code == 0, t.output
    assert len(json.loads(t.stdout)["payoff"]) == 4
    ranked = json.loads(t.stdout)["ranking"]
    text = run("tournament", "--policy", "avoid", "--policy", "lowest", "--deals", "120").output
    # the pairwise differences stay plain: said under them wherever the ranking's means went through the pool
    assert ("(pairwise: plain differences" in text) == any(r["estimator"] == "pool_path" for r in ranked), text
    s = run("sweep", "--base", "avoid", "--param", "take=2,20", "--baseline", "avoid", "--deals", "120",
            "--format", "json")
    assert s.exit_code == 0, s.output
    assert len([row for row in json.loads(s.stdout)["grid"] if row["stage"] == "explore"]) == 2
    bad = run("sweep", "--base", "avoid", "--param", "take", "--baseline", "avoid")
    assert bad.exit_code != 0 and "NAME=V1,V2" in bad.output
    bad = run("sweep", "--base", "avoid", "--param", "take=a", "--baseline", "avoid")
    assert bad.exit_code == 2 and "'take=a': values must be numbers" in bad.output
    bad = run("sweep", "--base", "avoid", "--param", "take=2,99", "--baseline", "avoid")  # a value out of range
    assert bad.exit_code == 2 and "'take=2,99': take=99 is out of range [0, 20]" in bad.output, bad.output
    assert "unload=" not in bad.output  # said of the option, not of the whole expanded spec
    bad = run("sweep", "--base", "search", "--param", "infer=none,bayes", "--baseline", "tuned")
    assert bad.exit_code == 2 and "bayes is not one of none, rollout" in bad.output  # a choice is swept by its names
    from reversis_sim.cli.comparisons import _grid_value
    from reversis_sim.policies import FAMILIES

    infer = FAMILIES["search"].params[FAMILIES["search"].position("infer")]
    assert [_grid_value(infer, v) for v in ("none", "rollout", "1")] == [0.0, 1.0, 1.0]
    b = run("bench", "--deals", "1200", "--format", "json")
    assert b.exit_code == 0, b.output
    data = json.loads(b.stdout)
    assert {"reference_deals_per_s", "kernel_deals_per_s_1_thread", "kernel_deals_per_s_all_threads",
            "threads"} <= set(data)
    assert data["end_to_end_deals"] == data["n_deals"] and data["disk_bytes_per_deal"] > 0
    assert data["end_to_end_vs_kernel"] == data["end_to_end_deals_per_s"] / data["kernel_deals_per_s_all_threads"]
    assert data["disk_bytes_per_deal"] == pytest.approx(data["disk_seat_bytes_per_deal"]
                                                        + data["disk_payment_bytes_per_deal"])
    # 293 bytes a deal, and the four dealt hands (schema version 3): 4 x 8
    assert data["arrow_seat_bytes_per_deal"] < 330 and data["payment_rows_per_deal"] > 1
    assert data["writer_vs_kernel_1_thread"] == (data["kernel_core_deals_per_s_1_thread"]
                                                 / data["writer_deals_per_s_1_thread"])


def test_replay_prints_the_same_record_from_either_engine():
    a = run("replay", "--seed", "4", "--match", "1", "--deal", "5", "--seat", "avoid", "--engine", "numba")
    b = run("replay", "--seed", "4", "--match", "1", "--deal", "5", "--seat", "avoid", "--engine", "reference")
    assert a.exit_code == 0 and b.exit_code == 0
    assert json.loads(a.stdout) == json.loads(b.stdout)


def test_rule_overrides_reach_replay_compare_and_simulate(tmp_path):
    """Rules travel whole: the record, the comparison and the run folder play the overridden rules, and a resume
    with other overrides is refused."""
    rich = PARLETT.replace(party_bonus=40)
    r = run("replay", "--seed", "3", "--deal", "2", "--rule", "party_bonus=40", "--engine", "numba")
    assert r.exit_code == 0, r.output
    rec = json.loads(r.stdout)
    assert rec["rules_params"]["party_bonus"] == 40
    assert rec == reference.replay(rich, parse_seats(["avoid"]), seed=3, match=0, deal=2)

    c = run("compare", "--candidate", "avoid:take=0", "--baseline", "avoid", "--deals", "240", "--seed", "5",
            "--rule", "party_bonus=40", "--format", "json")
    assert c.exit_code == 0, c.output
    from reversis_sim.compare import compare

    want = compare(rich, "avoid:take=0", "avoid", n_matches=20, seed=5)
    plain = compare(PARLETT, "avoid:take=0", "avoid", n_matches=20, seed=5)
    assert json.loads(c.stdout)["mean_difference"] == pytest.approx(want.mean_difference, abs=1e-12)
    assert want.mean_difference != plain.mean_difference

    out = tmp_path / "run"
    s = run("simulate", "--deals", "240", "--seed", "2", "--out", str(out), "--rule", "party_bonus=40",
            "--no-figures", "--quiet", "--format", "json")
    assert s.exit_code == 0, s.output
    assert json.loads(s.stdout)["rules_label"] == "parlett with party_bonus=40"
    assert json.loads((out / "manifest.json").read_text())["rules_params"]["party_bonus"] == 40
    again = run("simulate", "--deals", "240", "--seed", "2", "--out", str(out), "--rule", "party_bonus=41",
                "--no-figures", "--quiet", "--resume")
    assert again.exit_code == 1 and "rule party_bonus: run has 40, asked 41" in again.output


def test_a_run_of_long_matches_chooses_a_chunk_that_fits_unless_one_is_named(tmp_path):
    """The chunk size the user did not set is chosen to fit (at most 1,000,000 deals a part file); one the user
    names and that does not fit is refused naming it."""
    out = tmp_path / "long"
    r = run("simulate", "--deals", "24000", "--rule", "match_deals=10000", "--seed", "2", "--out", str(out),
            "--no-figures", "--quiet", "--format", "json")
    assert r.exit_code == 0, r.output
    assert json.loads((out / "manifest.json").read_text())["chunk_matches"] == 100
    r = run("simulate", "--deals", "24000", "--rule", "match_deals=10000", "--chunk-matches", "2048",
            "--out", str(tmp_path / "named"))
    assert r.exit_code == 2 and "--chunk-matches 2,048 of 10,000 deals" in r.output


def test_the_readme_lists_every_command_that_takes_rule_and_the_current_schema():
    from reversis_sim.cli import main as group
    from reversis_sim.record import SCHEMA_VERSION

    ctx = group.make_context("reversis-sim", ["--help"], resilient_parsing=True)
    takes = {n for n in group.list_commands(ctx) if any(p.name == "rule_overrides"
                                                         for p in group.get_command(ctx, n).params)}
    readme = " ".join(README.read_text().split())
    listed = readme[readme.index("can be changed with `--rule NAME=VALUE`"):].split("):")[0]
    assert takes and all(f"`{name}`" in listed for name in takes), (takes, listed)
    upgrade = readme[readme.index("`reversis-sim upgrade DIR`"):][:300]
    assert f"version {SCHEMA_VERSION}" in upgrade
    assert f"version {SCHEMA_VERSION}" in run("upgrade", "--help").output


def test_the_summary_and_a_deal_diagram_name_a_preset_as_it_was_typed(tmp_path):
    seats = ["--seat", "tuned", "--seat", "avoid", "--seat", "lowest", "--seat", "random"]
    r = run("simulate", "--engine", "reference", *seats, "--deals", "48", "--seed", "3", "--out", str(tmp_path / "r"),
            "--no-figures")
    assert r.exit_code == 0, r.output
    rows = [line.split() for line in r.stdout.splitlines() if line[:4].strip() in ("0", "1", "2", "3")]
    assert [row[1] for row in rows] == ["tuned", "avoid", "lowest", "random"], r.stdout
    shown = run("replay", "--seed", "3", "--match", "0", "--deal", "0", *seats, "--format", "text")
    assert shown.exit_code == 0 and "S0  tuned" in shown.output and "unload=0" not in shown.output, shown.output
