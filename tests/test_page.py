"""The deal page (``--format html``) and the deal's picture (``--format svg``), without a browser: the page holds
every record and review whole as strict JSON and fetches nothing, a deal's page stays under 200 KB and a match's
under 1 MB, the picture holds the record's cards, and bad input writes nothing (tests/test_page_browser.py opens
the page in Chromium)."""

from __future__ import annotations

import json
import math
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from click.testing import CliRunner
from dealbuilder import build, settle

from reversis_sim import reference
from reversis_sim.cli import main
from reversis_sim.game.diagram import SUIT_SYMBOLS, seat_order
from reversis_sim.game.picture import deal_svg
from reversis_sim.plot.page import ASSETS, deal_facts, deal_page
from reversis_sim.policies import parse_seats
from reversis_sim.rules import PRESETS

GOLDEN = Path(__file__).with_name("golden")
ROOT = Path(__file__).resolve().parents[1]


def golden(name: str) -> list[dict]:
    return [json.loads(line) for line in (GOLDEN / name).read_text().splitlines()]


def embedded(page: str) -> dict:
    """The data a page carries, read back as its script reads it."""
    text = re.search(r'<script type="application/json" id="deal-data">(.*?)</script>', page, re.S).group(1)
    return json.loads(text)


def heaviest_review(record: dict) -> dict:
    """A review of ``record`` as large as one can be: every seat's every card decision reviewed, each with twelve
    options (more than a hand of eleven can have), values with every digit a float has, one luck refused (NaN)."""
    decisions = []
    for t, tr in enumerate(record["tricks"], start=1):
        for k, card in enumerate(tr["cards"]):
            options = [{"card": c, "value": -12.345678901234567 * (i + 1), "se": 3.1415926535897931,
                        "hindsight": -21.0} for i, c in enumerate(record["hands"][0][:11] + ["JH"])]
            decisions.append({"trick": t, "seat": k, "position": k, "kind": "follow", "situations": ["void"],
                              "played": card, "best": options[0]["card"], "value_played": -1.2345678901234567,
                              "value_best": -0.98765432109876543, "loss": 11.111111111111111,
                              "loss_se": 2.2222222222222222, "mark": "?", "hindsight_best": card,
                              "hindsight_loss": 0.0, "worlds": 16, "options": options})
    seats = [{"seat": s, "policy": record["seats"][s], "decisions": 12, "non_forced": 11, "total_loss": 3.5,
              "mean_loss": 0.31818181818181818, "marks": {"?!": 0, "?": 11, "??": 0},
              "fish": record["result"]["fish"][s],
              "luck": math.nan if s == 0 else 1.5, "luck_adjusted": None} for s in range(4)]
    return {"record": record, "review": {"seats": [0, 1, 2, 3], "worlds": 16, "rollout": "tuned",
                                         "rollout_name": "tuned", "luck_samples": 256},
            "decisions": decisions, "seats": seats}


def test_the_page_carries_every_record_and_review_whole_and_fetches_nothing():
    match = golden("parlett_random_s7_m0.jsonl")
    review = heaviest_review(match[3])
    page = deal_page([review])
    data = embedded(page)
    assert data["deals"][0]["record"] == match[3]
    assert data["deals"][0]["review"]["decisions"] == review["decisions"]
    assert data["deals"][0]["review"]["seats"][0]["luck"] is None  # strict JSON: no NaN reaches the page
    assert "NaN" not in page and "Infinity" not in page
    # self-contained: the script and the style inline, nothing that names an address or fetches a file
    lowered = page.lower()
    for fetching in ("http:", "https:", "src=", "<link", "@import", "url(", "fetch(", "xmlhttprequest", "<img"):
        assert fetching not in lowered, fetching
    assert "Content-Security-Policy" in page and "default-src 'none'" in page
    assert page.count("<script") == 2  # the data, and the script that draws it
    for asset in ASSETS:  # the package data are the page's, verbatim
        assert (ROOT / "reversis_sim" / "plot" / asset).read_text() in page
    # a deal's page under 200 KB even with the largest review a deal can have; a 12-deal match's under 1 MB
    assert len(page.encode()) < 200_000, len(page.encode())
    whole = deal_page(match)
    assert len(match) == 12 and len(whole.encode()) < 1_000_000
    assert [d["record"] for d in embedded(whole)["deals"]] == match


def test_a_preset_is_named_on_the_page_as_it_was_typed():
    from reversis_sim.policies import parse_spec

    record = dict(golden("parlett_random_s7_m0.jsonl")[0])
    record["seats"] = [parse_spec("tuned").text, "avoid", "human", parse_spec("strong").text]
    data = embedded(deal_page([record]))
    assert data["deals"][0]["names"] == ["tuned", "avoid", "human", "strong"]
    assert data["deals"][0]["record"] == record  # the record itself keeps the specs


def test_nothing_in_a_record_can_close_the_script_that_carries_it():
    record = golden("parlett_random_s7_m0.jsonl")[0]
    hostile = {**record, "seats": ["</script><script>alert(1)</script>", "<!--", "&amp;", "]]>"]}
    page = deal_page([hostile])
    assert page.count("</script>") == 2 and "alert(1)</script>" not in page
    assert embedded(page)["deals"][0]["record"]["seats"] == hostile["seats"]


def test_the_package_data_travels_with_every_install():
    """The page's script and style sheet are package data (pyproject.toml), so that a wheel, not only an editable
    install, carries them."""
    import tomllib

    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert sorted(config["tool"]["setuptools"]["package-data"]["reversis_sim.plot"]) == sorted(ASSETS)


def _broken_in_trick_10() -> dict:
    text = """
T1 L1: AS 5S 2S 6S; T2 L1: KS AH 3S 7S; T3 L1: QS JH 4S 6H; T4 L1: JS KH KC 5H; T5 L1: 9S QH QC 4H
T6 L1: 8S 9H JC 3H; T7 L1: JD 5D 2D 8D; T8 L1: KD 4D 9C 7D; T9 L1: QD 3D 8C 6D
T10 L1: 2C 8H AC 6C; T11 L3: 7C 2H 9D 7H
"""
    return settle(build(0, text, ["AD", "5C", "4C", "3C"]))


def test_the_words_of_each_trick_say_what_became_of_the_quinola_and_the_reversis():
    record = _broken_in_trick_10()
    facts = deal_facts(record)
    assert facts["tricks"]["3"] == ["the Quinola (J♥) is dumped"]
    assert facts["tricks"]["9"] == ["S1 has won tricks 1-9: committed to the reversis"]
    assert facts["tricks"]["10"] == ["S3 takes a trick: the reversis is broken"]
    assert facts["end"][:2] == ["the Quinola dumped at trick 3", "the reversis of S1 broken by S3"]
    assert facts["end"][-1] == "fish " + " · ".join(f"S{s} {v:+d}" for s, v in enumerate(record["result"]["fish"]))
    quiet = golden("parlett_random_s7_m0.jsonl")[0]
    assert all("reversis" not in x for xs in deal_facts(quiet)["tricks"].values() for x in xs)
    modern, simple = golden("modern_random_s4_m1.jsonl")[0], golden("parlett_simple_random_s3_m0.jsonl")[1]
    assert deal_facts(modern)["end"][-1] == "penalty " + " · ".join(f"S{s} {v}" for s, v in
                                                                  enumerate(modern["result"]["penalty"]))
    assert deal_facts(simple)["end"][-1].endswith("running " + " ".join(map(str, simple["result"]["score_after"])))


def _card_back(text: str) -> str:
    rank = "T" if text.startswith("10") else text[0]
    return rank + "SHDC"[SUIT_SYMBOLS.index(text[-1])]


@pytest.mark.parametrize("name", ["parlett_mixed_s16_m0.jsonl", "modern_five_random_s6_m0.jsonl",
                                  "parlett_52_random_s5_m2.jsonl", "serbian_random_s9_m3.jsonl"])
def test_the_picture_holds_the_deal(name):
    """The SVG is well-formed, and read back row by row it holds each trick's cards in the seats' columns (the lead
    marked), the marks given, and the settlement's fish."""
    record = golden(name)[5]
    marks = {(2, 1): "??"}
    root = ET.fromstring(deal_svg(record, marks))
    assert root.tag == "{http://www.w3.org/2000/svg}svg" and float(root.get("width")) >= 820
    texts = list(root.iter("{http://www.w3.org/2000/svg}text"))
    lines = ["".join(t.itertext()) for t in texts]
    n, dealer = record["rules_params"]["n_seats"], record["dealer"]
    sits_out = bool(record["rules_params"]["dealer_sits_out"])
    start = lines.index("what moved") + 1
    column = {int(lines[i][1:]): float(texts[i].get("x")) for i in range(start - 2 - n, start - 2)}  # S0, S1, ...
    assert sorted(column) == list(range(n))
    for t, tr in enumerate(record["tricks"], start=1):
        row_start = lines.index(str(t), start)
        order = seat_order(n, dealer, sits_out, tr["leader"])
        for k, (s, c) in enumerate(zip(order, tr["cards"])):  # in playing order, each in its seat's column
            text, x = lines[row_start + 1 + k], float(texts[row_start + 1 + k].get("x"))
            assert abs(x - (column[s] - 10)) < 1, (t, s, text)
            assert text.startswith("›") == (k == 0), text
            assert text.endswith(marks.get((t, k), "")) and marks.get((t, k), "") in text
            assert _card_back(text.lstrip("›").removesuffix(marks.get((t, k), ""))) == c, (t, s, text)
        assert lines[row_start + 1 + len(order)] == f"S{tr['winner']}"
        start = row_start + 1 + len(order)
    fish = next(x for x in lines if x.startswith("Fish: "))
    assert [int(v) for v in re.findall(r"S\d ([+-]\d+)", fish)] == record["result"]["fish"]


def _run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def _one_sentence(output: str) -> str:
    message = output.split("Error: ", 1)[1].strip()
    assert "\n" not in message and "Traceback" not in output, output
    return message


def test_bad_input_is_one_sentence_exit_2_and_writes_nothing(tmp_path, monkeypatch):
    rules = PRESETS["parlett"]
    records = list(reference.play_match(rules, parse_seats(["random"]), seed=3, match=0))[:3]
    good = tmp_path / "good.jsonl"
    good.write_text("".join(json.dumps(r) + "\n" for r in records))
    page = tmp_path / "page.html"
    first = _run("replay", "--record", good, "--format", "html", "--output", page)
    assert first.exit_code == 0 and page.is_file(), first.output
    assert f"wrote {page}" in first.output and [d["record"] for d in embedded(page.read_text())["deals"]] == records
    before = page.read_bytes()
    again = _run("replay", "--record", good, "--format", "html", "--output", page)  # the page exists
    assert again.exit_code == 2 and "exists: give --force" in _one_sentence(again.output)
    assert page.read_bytes() == before
    forced = _run("replay", "--record", good, "--deal", "1", "--format", "html", "--output", page, "--force")
    assert forced.exit_code == 0 and [d["record"] for d in embedded(page.read_text())["deals"]] == [records[1]]

    broken = tmp_path / "broken" / "games.jsonl"  # a games folder whose second line is not a record
    broken.parent.mkdir()
    broken.write_text(json.dumps(records[0]) + "\n{\"format\": \"reversis-deal/1\", \n" + json.dumps(records[2]) + "\n")
    tampered = tmp_path / "tampered.jsonl"  # a record whose fish were changed: it does not referee
    fish = records[1]["result"]["fish"]
    tampered.write_text(json.dumps({**records[1], "result": {**records[1]["result"],
                                                             "fish": [fish[0] + 1, fish[1] - 1, *fish[2:]]}}) + "\n")
    kept = tmp_path / "kept"  # a games folder keeping that record
    kept.mkdir()
    (kept / "games.jsonl").write_text(tampered.read_text())
    out = tmp_path / "out"
    out.mkdir()
    monkeypatch.chdir(out)  # where a file named by default would go
    cases = [
        (["replay", "--record", broken, "--format", "html"], "line 2: not a JSON deal record"),
        (["review", "--record", broken, "--format", "html"], "line 2: not a JSON deal record"),
        (["play", "--show", "0", "--out", broken.parent, "--format", "html"], "line 2: not a JSON deal record"),
        (["replay", "--record", tampered, "--format", "html"], "does not replay: its result.fish"),
        (["replay", "--record", tampered, "--format", "svg"], "does not replay: its result.fish"),
        (["review", "--record", tampered, "--format", "html"], "does not replay: its result.fish"),
        (["play", "--show", "0", "--out", kept, "--format", "html"], "does not replay: its result.fish"),
        (["replay", "--record", good, "--format", "svg"], "--format svg draws one deal and 3 are shown"),
        (["replay", "--engine", "reference", "--seed", "3", "--format", "svg"], "--format svg draws one deal"),
        (["replay", "--record", good, "--output", out / "x.html"], "--output belongs to the file of --format html"),
        (["replay", "--record", good, "--format", "html", "--output", out], "is a directory"),
        (["replay", "--record", good, "--format", "html", "--output", out / "no" / "x.html"], "does not exist"),
        (["review", "--policy", "random", "--format", "html", "--out", out / "r"], "draw one deal"),
        (["play", "--summary", "--out", broken.parent, "--format", "html"], "draw one kept deal (--show K)"),
    ]
    for args, message in cases:
        r = CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False)
        assert r.exit_code == 2, (args, r.output)
        assert message in _one_sentence(r.output), (args, r.output)
    assert sorted(p.name for p in out.iterdir()) == []
    assert sorted(p.name for p in broken.parent.iterdir()) == ["games.jsonl"]
    assert sorted(p.name for p in kept.iterdir()) == ["games.jsonl"]


def test_a_kept_deal_reviewed_is_a_page_beside_the_games_and_a_picture_with_its_marks(tmp_path):
    records = list(reference.play_match(PRESETS["parlett"], parse_seats(["random"]), seed=5, match=0))[:2]
    games = tmp_path / "games"
    games.mkdir()
    (games / "games.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records))
    r = _run("play", "--show", "1", "--out", games, "--format", "html", "--worlds", "4")
    assert r.exit_code == 0, r.output
    (deal,) = embedded((games / "deal1.html").read_text())["deals"]  # the default: beside the games file
    assert deal["record"] == records[1] and deal["review"]["decisions"]
    assert {x["seat"] for x in deal["review"]["decisions"]} <= {0, 1, 2, 3}
    picture = tmp_path / "deal1.svg"
    r = _run("review", "--record", games, "--deal", "1", "--worlds", "4", "--format", "svg", "--output", picture)
    assert r.exit_code == 0, r.output
    review = _run("review", "--record", games, "--deal", "1", "--worlds", "4", "--format", "json")
    decisions = json.loads(review.stdout)["decisions"]
    marks = {(x["trick"], x["position"]): x["mark"] for x in decisions if x["mark"] and x["trick"] > 0}
    assert picture.read_text() == deal_svg(records[1], marks)


def test_replay_writes_the_picture_of_one_deal(tmp_path):
    picture = tmp_path / "deal.svg"
    r = _run("replay", "--engine", "reference", "--seed", "3", "--match", "1", "--deal", "2", "--seat", "random",
             "--format", "svg", "--output", picture)
    assert r.exit_code == 0, r.output
    assert r.stdout == "" and f"wrote {picture}" in r.stderr  # the note on stderr: '> file' catches no stray line
    record = reference.replay(PRESETS["parlett"], parse_seats(["random"]), seed=3, match=1, deal=2)
    assert picture.read_text() == deal_svg(record)
