"""``replay --record`` and ``review --record``: the deals kept in a file (a person's games file, or what ``replay``
wrote) are read strictly, refereed by the reference engine, drawn and reviewed ."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from reversis_sim.cli import main
from reversis_sim.engines import get_engine
from reversis_sim.policies import parse_seats
from reversis_sim.rules import PRESETS

PARLETT = PRESETS["parlett"]


@pytest.fixture(scope="module")
def records():
    """The first three deals of a parlett match of tuned, as replay writes them."""
    engine = get_engine("numba")
    seats = parse_seats(["tuned"], 4)
    return [engine.deal_record(PARLETT, seats, seed=3, match=0, deal=d) for d in range(3)]


def _file(tmp_path, records, tail: str = "") -> str:
    path = tmp_path / "games.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in records) + tail, encoding="utf-8")
    return str(path)


def _run(*args: str):
    return CliRunner().invoke(main, list(args))


def test_replay_reads_every_kept_deal_and_draws_it(tmp_path, records):
    path = _file(tmp_path, records)
    r = _run("replay", "--record", path)
    assert r.exit_code == 0, r.output
    assert [json.loads(line) for line in r.stdout.splitlines()] == records  # refereed, and given back as kept
    r = _run("replay", "--record", path, "--deal", "1", "--format", "text", "--ascii")
    assert r.exit_code == 0 and r.output.count("Trick") >= 1 and "deal 1" in r.output
    r = _run("replay", "--record", str(tmp_path), "--deal", "2", "--indent", "1")  # a folder: its games.jsonl
    assert r.exit_code == 0 and json.loads(r.stdout) == records[2]
    single = tmp_path / "one.json"
    single.write_text(json.dumps(records[0], indent=2), encoding="utf-8")  # one record written whole
    r = _run("replay", "--record", str(single))
    assert r.exit_code == 0 and json.loads(r.stdout) == records[0]


def test_a_record_that_does_not_settle_the_same_is_refused_naming_the_field(tmp_path, records):
    forged = json.loads(json.dumps(records[1]))
    forged["result"]["fish"][0] += 1
    r = _run("replay", "--record", _file(tmp_path, [records[0], forged]))
    fish = records[1]["result"]["fish"][0]
    assert r.exit_code == 2 and "record 1 does not replay: its result.fish[0] is not what the reference engine " \
        f"settles from its cards ({fish + 1} recorded, {fish} settled)" in " ".join(r.output.split())
    winner = json.loads(json.dumps(records[1]))
    winner["result"]["party_winner"] = (records[1]["result"]["party_winner"] + 1) % 4
    r = _run("review", "--record", _file(tmp_path, [winner]))  # the field that differs, named, with both values
    assert r.exit_code == 2 and f"its result.party_winner is not what the reference engine settles from its cards " \
        f"({winner['result']['party_winner']} recorded, {records[1]['result']['party_winner']} settled)" in \
        " ".join(r.output.split())
    illegal = json.loads(json.dumps(records[0]))
    t = illegal["tricks"][0]
    t["cards"][1], t["cards"][2] = t["cards"][2], t["cards"][1]  # two seats' cards swapped: not in their hands
    r = _run("review", "--record", _file(tmp_path, [illegal]))
    assert r.exit_code == 2 and "record 0 does not replay" in r.output and "Traceback" not in r.output


def test_a_bad_line_is_refused_with_its_number_and_a_torn_last_line_is_left_out_saying_so(tmp_path, records):
    path = tmp_path / "games.jsonl"
    path.write_text(json.dumps(records[0]) + "\n{not json\n" + json.dumps(records[1]) + "\n", encoding="utf-8")
    r = _run("replay", "--record", str(path))
    assert r.exit_code == 2 and "line 2: not a JSON deal record" in r.output
    r = _run("replay", "--record", _file(tmp_path, records[:2], tail=json.dumps(records[2])[:40]))
    assert r.exit_code == 0 and len(r.stdout.splitlines()) == 2 and "cut short" in r.stderr
    path.write_text(json.dumps({"format": "reversis-run/1"}) + "\n", encoding="utf-8")
    r = _run("replay", "--record", str(path))
    assert r.exit_code == 2 and "line 1: not a deal record" in r.output
    r = _run("replay", "--record", str(tmp_path / "nothing.jsonl"))
    assert r.exit_code == 2 and "does not exist" in r.output


def test_options_that_deal_anew_are_refused_beside_a_record(tmp_path, records):
    path = _file(tmp_path, records)
    r = _run("replay", "--record", path, "--seed", "4")
    assert r.exit_code == 2 and "--seed name" in r.output and "give one or the other" in r.output
    r = _run("review", "--record", path, "--rules", "modern", "--seat", "avoid")
    assert r.exit_code == 2 and "--rules, --seat" in r.output
    r = _run("replay", "--record", path, "--deal", "3")
    assert r.exit_code == 2 and "holds 3 deal records: --deal 0 to 2" in r.output
    r = _run("review", "--record", path, "--luck-samples", "4")
    assert r.exit_code == 2 and "a person is not a policy" in r.output


def test_review_of_a_record_is_the_review_from_the_record(tmp_path, records):
    """``review --record`` gives :func:`~reversis_sim.review.record.review_record`'s review of the chosen seats (every
    seat of a deal the bots played unless --review-seat names some), the exchange among the decisions."""
    from reversis_sim.review.record import review_record

    path = _file(tmp_path, records)
    r = _run("review", "--record", path, "--deal", "0", "--review-seat", "2", "--worlds", "8", "--format", "json")
    assert r.exit_code == 0, r.output
    mine = json.loads(r.stdout)
    assert mine == json.loads(json.dumps(review_record(records[0], [2], worlds=8)))
    assert "exchange" in {x["kind"] for x in mine["decisions"]} and {x["seat"] for x in mine["decisions"]} == {2}
    r = _run("review", "--record", path, "--deal", "1", "--worlds", "4", "--ascii")
    assert r.exit_code == 0 and "deal 1" in r.output
    assert all(f"S{s}  " in r.output and "decisions not forced" in r.output for s in range(4))


def test_kept_deals_are_not_reviewed_in_worlds_that_give_no_standard_error(tmp_path, records):
    """One or two worlds cannot give a loss its standard error (half the worlds choose, the others measure): refused
    by review --record and by play, one sentence, exit 2."""
    path = _file(tmp_path, records)
    r = _run("review", "--record", path, "--worlds", "2")
    assert r.exit_code == 2 and "needs two measuring worlds" in r.output and "Traceback" not in r.output
    r = _run("play", "--summary", "--out", str(tmp_path), "--worlds", "1")
    assert r.exit_code == 2 and "--worlds" in r.output and "3<=x<=1024" in r.output
