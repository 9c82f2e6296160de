"""The review: the values it gives are the deal's own where they can be checked, it names the known best
play of a hand-built position, and it refuses what it cannot mean."""

import json

import numpy as np
import polars as pl
import pytest
from click.testing import CliRunner

from reversis_sim import cards as C
from reversis_sim.cli import main
from reversis_sim.constraints import Deals, parse_predeal
from reversis_sim.policies import parse_seats, parse_spec
from reversis_sim.record import RunError
from reversis_sim.review import evaluate_nb, review_deal
from reversis_sim.review.batch import read_review
from reversis_sim.review.marks import THRESHOLDS, mark
from reversis_sim.review.reviewing import review_matches
from reversis_sim.review.settings import MAX_WORLDS, ReviewError, review_settings
from reversis_sim.rules import PRESETS


def run(*args, input=None):
    return CliRunner().invoke(main, list(args), input=input)


@pytest.mark.parametrize("name", ["parlett", "serbian", "modern"])
def test_the_hindsight_value_of_the_card_played_is_the_deal_itself(name):
    """At a table of ``tuned`` reviewed with ``tuned`` rollouts (no draws), playing the card played out in the true
    deal is the deal: its hindsight value is the seat's fish, decision by decision."""
    rules = PRESETS[name]
    out = review_matches(rules, parse_seats(["tuned"], rules.n_seats), seed=5, first_match=0, n_matches=2,
                         reviewed=range(rules.n_seats), worlds=2, rollout="tuned")
    d = out.decisions
    assert len(d["seat"]) > 20 * rules.n_seats
    fish = {(m, k): f for m, k, f in zip(out.deals["match"], out.deals["deal"], out.deals["fish"])}
    expected = np.array([fish[m, k][s] for m, k, s in zip(d["match"], d["deal"], d["seat"])], float)
    if rules.scoring == "simple":
        pytest.skip("simple scoring values a deal by its score")
    np.testing.assert_array_equal(d["hindsight_played"], expected)
    assert (d["hindsight_loss"] >= 0).all() and (d["options"] >= 2).all()


def test_the_review_plays_the_engines_deals_and_values_the_options_on_common_worlds():
    """The review does not change the deals (fish per deal = the run's); a loss is the best option's mean minus the
    played one's, and its standard error is the paired one (zero where the best is the card played)."""
    from reversis_sim.numba_engine import play_matches

    rules = PRESETS["parlett"]
    seats = parse_seats(["avoid"])
    out = review_matches(rules, seats, seed=9, first_match=3, n_matches=2, reviewed=[1, 3], worlds=8,
                         rollout="tuned")
    chunk = play_matches(rules, seats, seed=9, first_match=3, n_matches=2)
    np.testing.assert_array_equal(out.deals["fish"], chunk.column("fish").reshape(-1, 4))
    d = out.decisions
    assert set(d["seat"]) == {1, 3}
    np.testing.assert_allclose(d["loss"], d["value_best"] - d["value_played"], atol=1e-9)
    same = d["best"] == d["played"]
    assert (d["loss"][same] == 0).all() and (d["loss_se"][same] == 0).all()
    assert (d["loss"][~same] != 0).any() and (d["worlds"] == 8).all()


def test_a_player_that_plays_the_reviewers_best_has_error_rate_zero():
    rules = PRESETS["parlett"]
    out = review_matches(rules, parse_seats(["random"]), seed=3, first_match=0, n_matches=4, reviewed=[0],
                         worlds=8, rollout="tuned", follow_best=True)
    d = out.decisions
    assert len(d["loss"]) > 100
    assert (d["best"] == d["played"]).all()
    assert (d["loss"] == 0).all() and (d["loss_se"] == 0).all()
    # and the same seat left to play its own (random) cards loses fish, significantly in one decision in ten
    own = review_matches(rules, parse_seats(["random"]), seed=3, first_match=0, n_matches=4, reviewed=[0], worlds=8,
                         rollout="tuned").decisions
    assert (own["loss"] > 2 * own["loss_se"]).mean() > 0.05 and own["loss"].mean() > 0


def _position(cards: str):
    """Seat 2 dealt ``cards`` and low clubs to eleven cards, ``lowest`` there (it keeps its hand at the exchange and
    discards its lowest card when void: never the J♥ nor an Ace); ``tuned`` elsewhere."""
    rules = PRESETS["parlett"]
    clubs = ",".join(r + "C" for r in "23456789JQK"[:11 - len(cards.split(","))])
    deals = Deals(parse_predeal([f"2={cards},{clubs}"], rules))
    return rules, parse_seats(["tuned", "tuned", "lowest", "tuned"]), deals


@pytest.mark.parametrize("card", ["JH", "AD"])
def test_a_void_seat_is_told_to_dump_the_quinola_or_an_ace(card):
    """A seat void in the suit led, holding the J♥ (dumped, it wins the pool and its holder is rid of it) or the A♦
    (dumped, the trick's winner pays for it): the review names that card best over the low club ``lowest`` plays,
    and marks the club where the J♥ could go (a dumped Quinola is worth tens of fish; an Ace, a few: in some deals
    keeping it costs nothing, and the reviewer is then indifferent)."""
    from reversis_sim.engines import get_engine

    code = C.parse(card)
    found = []
    for seed in range(16):
        rules, seats, deals = _position(f"{card},2H,3H")
        rec = get_engine("numba").deal_record(rules, seats, seed=seed, match=0, deal=0, deals=deals)
        gone = next(t for t, tr in enumerate(rec["tricks"]) if card in tr["cards"])  # 0-based trick it was played
        out = review_matches(rules, seats, seed=seed, first_match=0, n_matches=1, reviewed=[2], worlds=64,
                             rollout="tuned", only_deal=0, deals=deals)
        d = out.decisions
        first = [i for i in range(len(d["seat"])) if d["kind"][i] == 4 and d["trick"][i] < gone]
        if first:
            i = first[0]
            assert d["played"][i] != code  # lowest discards a low club
            found.append((int(d["best"][i]), float(d["loss"][i]), mark(d["loss"][i], d["loss_se"][i])))
    assert len(found) >= 6, found
    best_share = sum(best == code for best, _, _ in found) / len(found)
    if card == "JH":  # the J♥ (half the worlds choose: a close second, in a reversis run, may win the choice), marked
        assert best_share >= 0.85 and all(loss > 0 for _, loss, _ in found), found
        assert sum(m is not None for _, _, m in found) >= 0.8 * len(found), found
    else:  # the A♦ dump is worth a few fish: the best nearly always, and the loss of the club positive on average
        assert best_share >= 0.75 and np.mean([loss for _, loss, _ in found]) > 0, found


def test_one_deal_reviewed_as_json_and_as_text():
    r = run("review", "--seed", "7", "--match", "0", "--deal", "3", "--seat", "tuned", "--review-seat", "0",
            "--review-seat", "2", "--worlds", "8", "--luck-samples", "32", "--format", "json")
    assert r.exit_code == 0, r.output
    rev = json.loads(r.stdout)
    assert rev["record"]["deal"] == 3 and rev["review"]["seats"] == [0, 2]
    assert {x["seat"] for x in rev["decisions"]} <= {0, 2}
    for x in rev["decisions"]:
        values = {o["card"]: o["value"] for o in x["options"]}
        assert x["played"] in values and x["best"] in values
        assert x["loss"] == pytest.approx(values[x["best"]] - values[x["played"]], abs=1e-9)
        assert all(o["se"] >= 0 for o in x["options"])
    for p in rev["seats"]:
        assert p["non_forced"] == sum(1 for x in rev["decisions"] if x["seat"] == p["seat"])
        assert p["luck_adjusted"] == pytest.approx(p["fish"] - p["luck"])
    t = run("review", "--seed", "7", "--match", "0", "--deal", "3", "--seat", "tuned", "--review-seat", "0",
            "--worlds", "8", "--luck-samples", "0", "--ascii")
    assert t.exit_code == 0, t.output
    assert t.output.isascii() and "Review of S0" in t.output and "Tricks" in t.output


@pytest.mark.parametrize("args, message", [
    (["--review-seat", "4"], "review seat 4 is out of range"),
    (["--worlds", "0"], "--worlds 0"),
    (["--worlds", "1"], "needs two measuring worlds"),  # one world would choose and measure the same loss
    (["--worlds", "2"], "needs two measuring worlds"),  # one measuring world: every standard error 0
    (["--deal", "12"], "deal 12 is out of range"),
    (["--seat", "search:worlds=16,rollout=tuned", "--worlds", "32"], "an equally noisy copy of itself"),
    (["--rollout", "search"], "must be a heuristic"),
    (["--ascii", "--format", "json"], "--ascii"),
    (["--scheduler", "local:1"], "--scheduler reviews a player over many deals"),
])
def test_bad_review_input_is_one_sentence_and_exit_2(args, message):
    base = ["review", "--seed", "1", "--deal", "0"]
    r = run(*base, *[a for a in args])
    assert r.exit_code == 2, r.output
    assert message in r.output and "Traceback" not in r.output


def test_settings_refuse_a_search_reviewing_itself_but_not_with_more_worlds():
    table = parse_seats(["search:worlds=8,rollout=tuned"])  # the default search rolls out with learned (0.3.0)
    with pytest.raises(ReviewError, match="noisy copy"):
        review_settings(4, table, [0], 16, "tuned", 0)  # 8 of the 16 worlds choose: the search's own 8
    assert review_settings(4, table, [0], 32, "tuned", 0).worlds == 32
    assert review_settings(4, table, [0], 8, "tuned", 0).worlds == 8
    assert review_settings(4, table, [0], 16, "avoid", 0).rollout == parse_spec("avoid")
    assert MAX_WORLDS == evaluate_nb.MAX_WORLDS  # the plain-Python bound is the kernel's


def test_marks_need_a_significant_loss_and_are_spaced_one_two_four():
    t = list(THRESHOLDS.values())
    assert t[1] == 2 * t[0] and t[2] == 4 * t[0]
    assert mark(t[2] + 1, 1.0) == "??" and mark(t[1], 1.0) == "?" and mark(t[0], 0.1) == "?!"
    assert mark(t[0] - 0.01, 0.0) is None and mark(100.0, 50.0) is None  # not twice its standard error


def test_luck_has_mean_zero_over_deals():
    """E[E[fish | hand]] = E[fish]: the luck of the hands dealt averages 0 within its standard error."""
    rules = PRESETS["parlett"]
    out = review_matches(rules, parse_seats(["tuned"]), seed=21, first_match=0, n_matches=40, reviewed=[0, 1],
                         worlds=1, rollout="tuned", luck_samples=8)
    luck = out.deals["luck"][:, :2].ravel()
    assert np.isfinite(luck).all() and len(luck) == 960
    per_match = out.deals["luck"][:, :2].reshape(40, -1).mean(axis=1)  # the match is the unit
    se = per_match.std(ddof=1) / np.sqrt(len(per_match))
    assert abs(per_match.mean()) < 3 * se, (per_match.mean(), se)
    assert luck.std() > 5  # hands differ


def test_review_deal_reports_the_decisions_of_the_reviewed_seats_only():
    rules = PRESETS["parlett"]
    seats = parse_seats(["tuned"])
    settings = review_settings(4, seats, [1], 4, "tuned", 0)
    rev = review_deal(rules, seats, seed=2, match=1, deal=5, settings=settings)
    assert {x["seat"] for x in rev["decisions"]} == {1}
    assert rev["seats"][0]["luck"] is None and parse_spec(rev["review"]["rollout"]) == parse_spec("tuned")


def test_the_review_table_keeps_its_columns_when_a_value_is_long():
    """A marked loss (``489.8 ± 184.4 ??``) or a long value widens its column for every row: the next column starts
    at one place on every line."""
    from reversis_sim.review.one_deal import review_text

    rules = PRESETS["parlett"]
    seats = parse_seats(["tuned"])
    rev = review_deal(rules, seats, seed=2, match=1, deal=5, settings=review_settings(4, seats, [1], 4, "tuned", 0))
    assert len(rev["decisions"]) >= 2
    rev["decisions"][0].update(loss=489.84, loss_se=184.41, mark="??", value_best=-1234.5)
    lines = review_text(rev).splitlines()
    head = next(i for i, line in enumerate(lines) if line.lstrip().startswith("trick"))
    table = lines[head:head + 1 + len(rev["decisions"])]
    starts = {line.index("(") - len(line.split()[-2]) - 1 for line in table[1:]}  # where "hindsight best" begins
    assert starts == {table[0].index("hindsight")}, "\n".join(table)


def test_review_is_split_by_job_and_the_one_command_spelling_still_works(tmp_path):
    """``review deal``, ``review player`` and ``review record FILE`` each take their own options only, and print what
    the one-command spelling (``review --deal``, ``--policy``, ``--record``) prints; an interrupted ``review player``
    says the command that continues it, job included."""
    one = ["--seed", "7", "--match", "0", "--deal", "3", "--seat", "tuned", "--review-seat", "0", "--worlds", "4",
           "--luck-samples", "0", "--format", "json"]
    old, new = run("review", *one), run("review", "deal", *one)
    assert old.exit_code == 0 and new.exit_code == 0, (old.output, new.output)
    assert json.loads(new.stdout) == json.loads(old.stdout)
    wrong = run("review", "deal", *one, "--out", "x")
    assert wrong.exit_code == 2 and "No such option '--out'" in wrong.output
    wrong = run("review", "player", "--policy", "random", "--deal", "3")
    assert wrong.exit_code == 2 and "No such option '--deal'" in wrong.output
    before = run("review", "--seed", "7", "deal", "--deal", "3")
    assert before.exit_code == 2 and "--seed comes before the job 'deal'" in before.output
    assert run("review", "player", "--help").exit_code == 0 and run("review", "record", "--help").exit_code == 0

    many = ["--policy", "random", "--field", "tuned", "--deals", "24", "--seed", "4", "--worlds", "4",
            "--luck-samples", "0", "--format", "json", "--no-figures"]
    a = run("review", "player", *many, "--out", str(tmp_path / "a"))
    b = run("review", *many, "--out", str(tmp_path / "b"))
    assert a.exit_code == 0 and b.exit_code == 0, (a.output, b.output)
    assert json.loads(a.stdout)["error_rate"] == json.loads(b.stdout)["error_rate"]

    import click

    from reversis_sim.cli.options import continue_command
    from reversis_sim.cli.review import review

    args = ["--policy", "random", "--force"]
    root = click.Context(main, info_name="reversis-sim")
    with review.make_context("review", ["player", *args], parent=root) as ctx:
        with review.get_command(ctx, "player").make_context("player", list(args), parent=ctx) as job:
            assert continue_command(job, out="o") == "reversis-sim review player --policy random --out o --resume"

    games = tmp_path / "games.jsonl"
    replayed = run("replay", "--seed", "7", "--match", "0", "--deal", "3", "--seat", "tuned")
    assert replayed.exit_code == 0, replayed.output
    games.write_text(replayed.stdout.strip() + "\n")
    kept = ["--review-seat", "0", "--worlds", "4", "--format", "json"]
    old, new = run("review", "--record", str(games), *kept), run("review", "record", str(games), *kept)
    assert old.exit_code == 0 and new.exit_code == 0, (old.output, new.output)
    assert json.loads(new.stdout) == json.loads(old.stdout)
    missing = str(tmp_path / "none.jsonl")  # a bad file is named as it was given: the argument, or the option
    assert "Invalid value for FILE: " in run("review", "record", missing).output
    assert "Invalid value for '--record': " in run("review", "--record", missing).output


def test_a_player_reviewed_over_many_deals_into_a_resumable_folder(tmp_path):
    out = tmp_path / "rev"
    args = ["review", "--policy", "random", "--field", "tuned", "--deals", "48", "--seed", "4", "--worlds", "4",
            "--luck-samples", "2", "--out", str(out), "--format", "json", "--no-figures"]
    r = run(*args)
    assert r.exit_code == 0, r.output
    s = json.loads(r.stdout)
    assert s["deals"] == 48 and s["matches"] == 4 and s["decisions"] > 200
    assert s["ci_low"] is None and s["matches_needed"] > 4  # too few matches for an interval: refused, and said
    kinds = s["by_kind"]
    assert sum(k["decisions"] for k in kinds.values()) == s["decisions"]
    assert s["costliest"] and "--seat random --seat tuned" in s["costliest"][0]["replay"]
    again = run(*args)  # a finished review is not written twice
    assert again.exit_code == 2 and "--resume" in again.output
    resumed = run(*args, "--resume")
    assert resumed.exit_code == 0 and json.loads(resumed.stdout)["error_rate"] == s["error_rate"]
    drawn = run("plot", str(out), "--format", "svg")  # the loss by trick as SVG, for documents
    figure = out / "figures" / "review_loss_by_trick.svg"
    assert drawn.exit_code == 0 and str(figure) in drawn.output and "<svg" in figure.read_text()
    (out / "decisions-00000.parquet").unlink()  # a folder whose tables were not kept (results/ladder in git)
    with pytest.raises(RunError, match="decisions-00000.parquet.*--resume"):
        read_review(out)
    lost = run(*args, "--resume")
    assert lost.exit_code == 0 and json.loads(lost.stdout)["error_rate"] == s["error_rate"]  # the chunk redone
    assert "decisions-00000.parquet: missing); it is reviewed again" in lost.stderr
    assert (out / "decisions-00000.parquet").is_file()
    csv = run(*args[:-3], "--resume", "--format", "csv", "--no-figures")
    assert csv.exit_code == 0 and csv.stdout.startswith("group,key,decisions,error_rate")
    other = run(*[a if a != "random" else "lowest" for a in args], "--resume")
    assert other.exit_code == 2 and "other settings" in other.output
    (tmp_path / "x").mkdir()
    (tmp_path / "x" / "a.txt").write_text("mine")
    stranger = run(*args[:-5], "--out", str(tmp_path / "x"), "--format", "json")
    assert stranger.exit_code == 2 and "not a review folder" in stranger.output
    assert sorted(p.name for p in (tmp_path / "x").iterdir()) == ["a.txt"]  # nothing written
    assert (tmp_path / "x" / "a.txt").read_text() == "mine"


def test_a_breakdown_takes_every_match_as_a_unit_and_prints_its_interval_where_the_situation_is_common():
    """The error rate of a situation is its fish lost over its decisions; its interval is printed only when the
    matches holding such decisions reach the floor at which the error rate's interval was measured to hold (a rare
    situation says how many matches to review)."""
    from reversis_sim.analysis.intervals import MIN_MATCHES
    from reversis_sim.review.summary import summarize_review

    rng = np.random.default_rng(5)
    n_matches, per_match = 1_200, 10
    match = np.repeat(np.arange(n_matches), per_match)
    first = np.tile(np.arange(per_match) == 0, n_matches)
    flags = np.where(first & (match < 600), 1, 0) | np.where(first & (match < 1_100), 2, 0)
    loss = rng.exponential(2.0, match.size)
    zeros = np.zeros(match.size, np.int64)
    decisions = pl.DataFrame({"match": match, "deal": zeros, "trick": zeros + 1, "seat": zeros, "kind": zeros + 2,
                              "flags": flags, "loss": loss, "loss_se": loss, "hindsight_loss": loss,
                              "played": zeros, "best": zeros})
    deals = pl.DataFrame({"match": np.arange(n_matches), "deal": np.zeros(n_matches, np.int64),
                          "pool_before": np.zeros(n_matches, np.int64), "fish": np.zeros(n_matches, np.int64),
                          "luck": np.full(n_matches, np.nan)})
    manifest = {"identity": {"rules_params": {"n_seats": 4}, "rules": "parlett", "policy": "tuned", "field": "tuned",
                             "worlds": 16, "rollout": "tuned", "seed": 1}}
    s = summarize_review(manifest, decisions, deals)
    assert s["ci_low"] is not None and s["ci_low"] < s["error_rate"] < s["ci_high"]
    quinola, void = s["by_situation"]["holds_quinola"], s["by_situation"]["void"]
    assert quinola["error_rate"] == pytest.approx(loss[(flags & 1) != 0].mean())
    assert quinola["decisions"] == 600 and quinola["matches"] == n_matches
    assert quinola["ci_low"] is None and quinola["matches_needed"] == 2 * MIN_MATCHES["error_rate"]
    assert void["ci_low"] is not None and void["matches_needed"] == 0
    assert void["error_rate"] == pytest.approx(loss[(flags & 2) != 0].mean())


def test_rating_bands_are_spaced_one_two_four_and_place_the_ladder():
    from reversis_sim.review.marks import RATING_BANDS, rating

    bounds = [b for b, _ in RATING_BANDS[:-1]]
    assert all(b2 == 2 * b1 for b1, b2 in zip(bounds, bounds[1:]))
    assert [rating(x) for x in (1.32, 2.09, 2.85, 3.27, 4.94, 7.19, 8.00)] == [  # docs/review.md's ladder
        "search-class", "expert", "expert", "advanced", "advanced", "beginner", "beginner"]
    assert rating(None) is None and rating(bounds[0]) == "expert"  # a bound belongs to the band above it


def test_the_play_summary_sets_you_beside_the_ladder_that_was_measured():
    """play --summary's ladder is results/ladder/ladder.json's (a stale copy once showed the card decisions alone,
    graded before the exchange was); the searches of earlier versions are spelled out, so none reads as today's."""
    from pathlib import Path

    from reversis_sim.play.summary import LADDER

    rows = json.loads((Path(__file__).resolve().parents[1] / "results/ladder/ladder.json").read_text())["rows"]
    measured = {r["player"]: tuple(round(r[k], 2) for k in ("error_rate", "ci_low", "ci_high")) for r in rows}
    assert measured.pop("naive") == measured["lowest"]  # one player, shown once
    shown = {name: (rate, lo, hi) for name, rate, lo, hi in LADDER}
    assert shown == measured
    assert [r[1] for r in LADDER] == sorted(r[1] for r in LADDER)
    searches = [parse_spec(n) for n in shown if n.startswith("search")]
    assert parse_spec("search") in searches and len(set(searches)) == len(searches) > 1


@pytest.mark.slow
@pytest.mark.statistical
@pytest.mark.parametrize("player", ["tuned", "avoid"])
def test_the_luck_adjusted_interval_keeps_its_coverage(player):
    """Fish minus the luck of the hand estimates the seat's fish per deal (the luck has mean 0): on 40 blocks of
    100 matches of one seeded review, its interval holds the truth (seat 0's fish per deal over 20,000 matches
    played by the engine, whose error is about a fortieth of a block's half-width) as often as the binomial band
    allows, at a table of ``tuned`` (A/A: ``tuned`` in seat 0) and with ``avoid`` in seat 0 (players that differ),
    and it is narrower than the plain interval on the same deals. A biased luck would shift every adjusted interval
    off the truth."""
    from scipy import stats as sps

    from reversis_sim.analysis.stats import mean_ci
    from reversis_sim.numba_engine import play_matches

    rules = PRESETS["parlett"]
    seats = parse_seats([player, "tuned", "tuned", "tuned"])
    chunk = play_matches(rules, seats, seed=2026, first_match=0, n_matches=20_000)
    truth = float(chunk.column("fish")[chunk.column("seat") == 0].mean())
    blocks, size = 40, 100
    out = review_matches(rules, seats, seed=77, first_match=0, n_matches=blocks * size, reviewed=[0], worlds=1,
                         rollout="tuned", luck_samples=16)
    m, f, luck = out.deals["match"], out.deals["fish"][:, 0].astype(float), out.deals["luck"][:, 0]
    held, narrower = 0, 0
    for k in range(blocks):
        sel = (m >= k * size) & (m < (k + 1) * size)
        adjusted, plain = mean_ci(f[sel] - luck[sel], m[sel]), mean_ci(f[sel], m[sel])
        held += adjusted.ci_low <= truth <= adjusted.ci_high
        narrower += adjusted.ci_high - adjusted.ci_low < plain.ci_high - plain.ci_low
    assert held >= sps.binom.ppf(0.025, blocks, 0.95), (held, blocks)
    assert narrower > blocks // 2


def test_the_reviewer_and_the_bots_default_to_the_rules_familys_own_strongest_preset():
    """parlett's tuned under the parlett family (and pierer); under the modern family and serbian, that family's
    strongest preset, tuned under its own rules."""
    from reversis_sim.review.settings import default_rollout

    assert {name: default_rollout(rules) for name, rules in PRESETS.items()} == {
        name: ("strong_modern" if name.startswith("modern") else "strong_serbian" if name == "serbian" else "tuned")
        for name in PRESETS}
    r = run("review", "--rules", "serbian", "--seed", "3", "--deal", "1", "--worlds", "4", "--luck-samples", "0",
            "--format", "json")
    assert r.exit_code == 0, r.output
    review = json.loads(r.stdout)["review"]
    assert review["rollout_name"] == "strong_serbian" and parse_spec(review["rollout"]) == parse_spec("strong_serbian")
    r = run("play", "--rules", "serbian", "--seed", "3", "--deals", "1", "--speed", "0", "--no-review", input="quit\n")
    assert r.exit_code == 0 and "S0 strong_serbian" in r.output and "You quit" in r.output, r.output
