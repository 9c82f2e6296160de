"""``reversis-sim play`` driven as a person drives it: through a pseudo-terminal, a fixed seed, cards
typed (legal, illegal, a ten under a 48-card preset, ``?``, ``hint``), Ctrl-C mid-deal and the end of input; the
screen and the saved records checked. And the review from a record, which grades the person's cards, checked
against ``review`` on a deal the bots played (the same numbers)."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pexpect
import pytest

from reversis_sim import cards as C
from reversis_sim.play.human import ASCII, CardError, Screen, parse_card, refusal
from reversis_sim.play.records import read_games
from reversis_sim.play.session import HUMAN
from reversis_sim.rules import PRESETS

sys.path.insert(0, str(Path(__file__).parent))
from recordcheck import check_record  # noqa: E402

PARLETT = PRESETS["parlett"]
README = Path(__file__).resolve().parents[1] / "README.md"
PROMPT = r"Your card \(\? legal cards, hint\): "
TIMEOUT = 600  # a cold numba cache compiles the review and the search first (minutes); warm, a deal takes seconds


def _spawn(tmp_path: Path, *args: str) -> pexpect.spawn:
    cmd = [sys.executable, "-m", "reversis_sim", "play", "--seed", "7", "--speed", "0", "--ascii",
           "--out", str(tmp_path / "games"), *args]
    return pexpect.spawn(cmd[0], cmd[1:], encoding="utf-8", timeout=TIMEOUT, dimensions=(50, 200))


def _legal(child: pexpect.spawn) -> list[str]:
    """Ask '?' at a card prompt; the legal cards listed (ASCII, 10 written as T for typing)."""
    child.sendline("?")
    child.expect(r"Legal: ([^\r\n]*)\r\n")
    cards = child.match.group(1).split()
    child.expect(PROMPT)
    return [c.replace("10", "T") for c in cards]


def _play_out(child: pexpect.spawn) -> None:
    """Play the first legal card at every prompt to the end of the deal."""
    while child.expect([PROMPT, r"Deal \d+ done"]) == 0:
        child.sendline(_legal(child)[0])


def test_cards_typed_are_parsed_and_a_ten_is_refused_under_48_cards():
    assert parse_card("JH", PARLETT) == parse_card("jh", PARLETT) == parse_card("J♥", PARLETT)
    with pytest.raises(CardError, match="no tens in parlett.*R5"):
        parse_card("10S", PARLETT)
    assert parse_card("10S", PRESETS["parlett_52"]) == parse_card("TS", PRESETS["parlett_52"])
    with pytest.raises(CardError, match="not a card"):
        parse_card("XY", PARLETT)


def test_an_illegal_card_is_refused_naming_the_rule():
    s = Screen(ascii=True)
    qs, ks, jh = parse_card("QS", PARLETT), parse_card("KS", PARLETT), parse_card("JH", PARLETT)
    why = refusal(jh, [ks, jh], [ks], PARLETT, 2, [qs], s)
    assert why.startswith("R18") and "QS was led" in why
    assert refusal(ks, [ks, jh], [ks], PARLETT, 2, [qs], s) is None
    assert "do not hold" in refusal(qs, [ks, jh], [ks], PARLETT, 2, [], s)


@pytest.mark.slow
def test_a_deal_played_at_the_terminal_is_shown_reviewed_and_kept(tmp_path):
    child = _spawn(tmp_path, "--deals", "1", "--you", "1")
    child.expect("you are S1")
    child.expect(r"Discard \(a card, or keep\): ")  # seed 7: S0 deals, S1 may exchange (R14)
    child.sendline("keep")
    child.expect("You keep your hand and look at the talon card")
    child.expect(PROMPT)
    child.sendline("10S")
    child.expect("there are no tens in parlett")
    child.expect(PROMPT)
    child.sendline("hint")
    child.expect(r"Hint: ([^\r\n]*)\r\n")  # one answer: the card to play (pexpect's patterns are DOTALL)
    hint = child.match.group(1)
    assert re.fullmatch(r"play \w+\.", hint), hint
    child.expect(r"fish for you, \+- one standard error|fish for you, ± one standard error")
    child.expect(r"  [^\r\n]*\r\n")  # the options' values
    if child.expect([r"\(The search player, search, would play \w+\.\)", PROMPT]) == 0:  # named as such
        hint += " " + child.match.group(0)
        child.expect(PROMPT)
    example = README.read_text().translate(ASCII)  # the README's example is this session's screen
    assert f"Hint: {hint.split(' (')[0]}" in example and ("(The search" not in hint or hint.split(". ")[1] in example)
    child.sendline(_legal(child)[0])  # trick 1: 5S, the first legal card
    child.expect(PROMPT)  # trick 2 (seed 7): S3 leads 2H, S0 follows; you hold hearts and diamonds
    child.sendline("7D")
    child.expect(r"Refused: R18: you must follow suit: 2H was led and you hold H")
    child.expect(PROMPT)
    child.sendline(_legal(child)[0])
    _play_out(child)
    child.expect("Review of S1")
    child.expect(r"S1 +\d+ of 12 decisions not forced, lost")
    child.expect(r"Duplicate +the same cards with tuned in your seat")
    child.expect("Running fish")
    child.expect("Saved 1 deal to")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    (record,) = read_games(tmp_path / "games")
    assert record["seats"][1] == HUMAN and record["run_seed"] == 7 and record["deal"] == 0
    assert record["exchanges"][1]["seat"] == 1 and record["exchanges"][1]["discard"] is None  # "keep"
    check_record(record)
    from reversis_sim.game import rules_of
    from reversis_sim.reference import settle_record

    assert settle_record(record, rules_of(record)) == record  # refereed: the engine settles it the same
    from reversis_sim.review.record import review_record

    (keep,) = [x for x in review_record(record, [1], worlds=16)["decisions"] if x["kind"] == "exchange"]
    assert keep["played"] == "keep" and keep["options"][0]["card"] == "keep" and len(keep["options"]) >= 3


@pytest.mark.slow
def test_ctrl_c_mid_deal_keeps_the_finished_deals_and_says_so(tmp_path):
    child = _spawn(tmp_path, "--deals", "2", "--you", "0", "--no-review")
    child.expect(r"Discard: ")  # seed 7, deal 0: you deal, you discard (R13)
    child.sendline(_first_card(child))
    _play_out(child)
    child.expect(r"Discard \(a card, or keep\): ")  # deal 1, mid-deal: S1 deals, you may exchange
    child.sendintr()
    child.expect(r"Interrupted: 1 finished deal saved to .*games.jsonl; the deal in progress is not kept")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 130
    records = read_games(tmp_path / "games")
    assert [r["deal"] for r in records] == [0] and records[0]["seats"][0] == HUMAN
    check_record(records[0])


def _first_card(child: pexpect.spawn) -> str:
    """The first card of the hand shown before a discard prompt."""
    line = re.findall(r"Your hand +(.*)", child.before or "")[-1]
    s, cards = re.findall(r"([SHDC]) ((?:\[?\w+\]? ?)+)", line)[0]
    rank = cards.split()[0].strip("[]")
    return ("T" if rank == "10" else rank) + s


def test_the_end_of_input_ends_the_game_cleanly(tmp_path):
    child = _spawn(tmp_path, "--deals", "1", "--you", "2", "--no-review")
    child.expect(r"Discard \(a card, or keep\): ")
    child.sendeof()
    child.expect(r"End of input: 0 finished deals saved to")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    assert "Traceback" not in (child.before or "")
    assert read_games(tmp_path / "games") == []


@pytest.mark.parametrize("preset, seed, deal", [("parlett", 5, 2), ("serbian", 3, 1), ("modern", 11, 0)])
def test_the_review_from_a_record_gives_reviews_numbers_on_a_bots_deal(preset, seed, deal):
    """The person's decisions are reviewed from the record (review/record.py): on a deal the bots played, that
    review equals ``review``'s (which plays the deal again in the numba engine) decision for decision, to the
    digit: the same views, the same worlds, the same rollouts, the exchange and the declaration as well as the
    cards (serbian takes before it discards, F3.2; modern names the declaration's goal)."""
    from reversis_sim.policies import parse_spec
    from reversis_sim.review.one_deal import review_deal
    from reversis_sim.review.record import review_record
    from reversis_sim.review.settings import review_settings

    rules = PRESETS[preset]
    seats = [parse_spec(x) for x in ("tuned", "avoid", "tuned", "random")]
    reviewed = [0, 1, 2, 3]
    settings = review_settings(4, seats, reviewed, 16, "tuned", 0)
    theirs = review_deal(rules, seats, seed=seed, match=0, deal=deal, settings=settings)
    mine = review_record(theirs["record"], reviewed, worlds=16, rules=rules)
    kinds = {x["kind"] for x in mine["decisions"]}
    assert ("exchange" in kinds) == (rules.talon_mode != "none") and len(mine["decisions"]) >= 24
    assert sorted(mine["decisions"], key=_order) == sorted(theirs["decisions"], key=_order)
    assert [s["decisions"] for s in mine["seats"]] == [s["decisions"] for s in theirs["seats"]]


def test_a_declaration_is_reviewed_from_the_record():
    """A seat eligible for the espagnolette has its declaration reviewed from the record as ``review`` reviews it
    (the first deal of a modern match where a bot is eligible)."""
    from reversis_sim.engines import get_engine
    from reversis_sim.game import espagnolette_eligible
    from reversis_sim.policies import parse_spec
    from reversis_sim.review.one_deal import review_deal
    from reversis_sim.review.record import review_record
    from reversis_sim.review.settings import review_settings

    rules = PRESETS["modern"]
    seats = [parse_spec("tuned")] * 4
    engine = get_engine("numba")
    for seed in range(400):
        record = engine.deal_record(rules, seats, seed=seed, match=0, deal=0)
        eligible = [s for s in range(4) if espagnolette_eligible(rules, [C.parse(c) for c in record["hands"][s]])]
        if eligible:
            break
    assert eligible, "no eligible hand in 400 deals"
    settings = review_settings(4, seats, eligible, 16, "tuned", 0)
    theirs = review_deal(rules, seats, seed=seed, match=0, deal=0, settings=settings)
    mine = review_record(theirs["record"], eligible, worlds=16, rules=rules)
    decl = [x for x in mine["decisions"] if x["kind"] == "declaration"]
    assert len(decl) == 1 and {o["card"] for o in decl[0]["options"]} == {"pass", "declare lose_all",
                                                                         "declare win_all"}
    assert sorted(mine["decisions"], key=_order) == sorted(theirs["decisions"], key=_order)


def _order(x: dict) -> tuple:
    return (x["seat"], x["trick"], x["kind"] not in ("exchange", "declaration"), x["kind"] == "declaration",
            x["position"])


class _Typist:
    """A person who answers every prompt with the first choice the screen offers (for the library-level tests)."""

    def __init__(self, declare: str = "n"):
        self.said: list[str] = []
        self.declare = declare

    def say(self, text: str) -> None:
        self.said.append(text)

    def ask(self, prompt: str) -> str:
        last = self.said[-1]
        if prompt.startswith("Discard"):
            return _typed(last.split(":")[1].split()[0]) if last.startswith("Any card") else "?"
        if prompt.startswith("Declare"):
            return self.declare
        if prompt.startswith("Your goal"):
            return "lose"
        return _typed(last.split()[1]) if last.startswith("Legal: ") else "?"


def _typed(card: str) -> str:
    return card.replace("10", "T")


def _session(tmp_path: Path, rules_name: str, you: int, n_deals: int, declare: str = "n") -> tuple[list, _Typist]:
    from reversis_sim.play.loop import run
    from reversis_sim.play.session import Game
    from reversis_sim.policies import parse_seats

    rules = PRESETS[rules_name]
    typist = _Typist(declare)
    game = Game(rules, parse_seats(["tuned"], rules.n_seats), you, seed=11, match=0, n_deals=n_deals)
    kept = run(game, Screen(typist.say, typist.ask, ascii=True), tmp_path / "games", None, None)
    return kept, typist


def test_a_declaration_is_asked_of_an_eligible_person_and_kept(tmp_path):
    """modern_five, seed 11: seat 4's hand may declare the espagnolette in one of the five deals (R38); the person
    is asked, declares, names a goal (F1.4), and the record says so; the records are refereed."""
    from reversis_sim.game import rules_of
    from reversis_sim.reference import settle_record

    kept, typist = _session(tmp_path, "modern_five", 4, 5, declare="y")
    asked = [line for line in typist.said if "may declare the espagnolette (R38)" in line]
    declared = [r for r in kept if isinstance(r["espagnolette"], dict) and r["espagnolette"]["seat"] == 4]
    assert len(asked) == len(declared) == 1 and declared[0]["espagnolette"]["goal"] == "lose_all"
    assert read_games(tmp_path / "games") == kept
    for record in kept:
        check_record(record)
        assert settle_record(record, rules_of(record)) == record


def test_a_games_file_is_read_strictly_but_for_a_torn_last_line(tmp_path):
    """play --summary and --show read the games file as replay and review do (play/records.py): a torn last line (a
    crash mid-write) is left out, any other line that is not a deal record is one sentence naming its line, exit 2."""
    from click.testing import CliRunner

    from reversis_sim.cli import main
    from reversis_sim.play.records import RecordFileError

    kept, _ = _session(tmp_path, "parlett", 2, 2)
    games = tmp_path / "games" / "games.jsonl"
    lines = games.read_text().splitlines()
    games.write_text("\n".join(lines) + "\n" + lines[0][:40])  # torn while written
    assert read_games(tmp_path / "games") == kept
    games.write_text(lines[0] + "\nnot a record\n" + lines[1] + "\n")
    with pytest.raises(RecordFileError, match="line 2: not a JSON deal record"):
        read_games(tmp_path / "games")
    r = CliRunner().invoke(main, ["play", "--summary", "--out", str(tmp_path / "games")])
    assert r.exit_code == 2 and "line 2: not a JSON deal record" in r.output and "Traceback" not in r.output
    games.write_text("")
    assert read_games(tmp_path / "games") == [] and read_games(tmp_path / "none") == []


def test_the_summary_reviews_every_kept_deal_and_withholds_an_interval_it_cannot_hold(tmp_path):
    from click.testing import CliRunner

    from reversis_sim.cli import main
    from reversis_sim.play.summary import summarize_games, summary_text
    from reversis_sim.review.record import review_record

    kept, _ = _session(tmp_path, "parlett", 2, 3)
    summary = summarize_games(kept)
    reviews = [review_record(r, [2])["seats"][0] for r in kept]
    assert summary["n_deals"] == 3 and summary["matches"] == 1
    assert summary["fish_per_deal"] == pytest.approx(sum(r["result"]["fish"][2] for r in kept) / 3)
    assert summary["decisions"] == sum(x["non_forced"] for x in reviews)
    assert summary["error_rate"] == pytest.approx(sum(x["total_loss"] for x in reviews) / summary["decisions"])
    assert summary["ci_low"] is None and summary["matches_needed"] == 1_000  # no interval: no coverage
    text = summary_text(summary)
    assert "<- you" in text and "1,000 needed" in text and "tuned" in text
    r = CliRunner().invoke(main, ["play", "--summary", "--out", str(tmp_path / "games"), "--format", "json"])
    assert r.exit_code == 0 and json.loads(r.stdout)["decisions"] == summary["decisions"]
    r = CliRunner().invoke(main, ["play", "--show", "1", "--out", str(tmp_path / "games"), "--ascii"])
    assert r.exit_code == 0 and "Review of S2" in r.output and "deal 1" in r.output
    r = CliRunner().invoke(main, ["play", "--show", "3", "--out", str(tmp_path / "games")])
    assert r.exit_code != 0 and "keeps 3 deals: show 0 to 2" in r.output


class _Script(_Typist):
    """A person who types ``answers`` in order at the prompts ('' a bare Enter), then stops (end of input)."""

    def __init__(self, answers: list[str]):
        super().__init__()
        self.answers, self.prompts = list(answers), []

    def ask(self, prompt: str) -> str:
        self.prompts.append(prompt)
        if not self.answers:
            raise EOFError
        return self.answers.pop(0)


def _scripted(tmp_path: Path, answers: list[str], hint=None) -> tuple[_Script, int, list]:
    from reversis_sim.play.loop import SessionEnd, run
    from reversis_sim.play.session import Game
    from reversis_sim.policies import parse_seats

    person = _Script(answers)
    screen = Screen(person.say, person.ask, ascii=True)
    game = Game(PARLETT, parse_seats(["tuned"], 4), 1, seed=7, match=0, n_deals=1)
    with pytest.raises(SessionEnd) as end:
        run(game, screen, tmp_path / "games", None, None if hint is None else hint(screen))
    return person, end.value.code, end.value.kept


def test_an_empty_line_never_decides_and_quit_ends_the_session_keeping_the_finished_deals(tmp_path):
    """seed 7: S1 may exchange (R14). A bare Enter at the talon asks again instead of keeping the hand; at a card it
    asks again too; 'quit' ends the session (exit status 0) and says what is kept."""
    person, code, kept = _scripted(tmp_path, ["", "keep", "", "quit"])
    assert person.prompts[:2] == ["Discard (a card, or keep): "] * 2  # the empty line did not keep the hand
    assert any("Type the card to discard, or keep" in line for line in person.said)
    assert person.prompts[2:] == ["Your card (? legal cards, hint): "] * 2
    assert any("Type the card to play" in line for line in person.said)
    assert code == 0 and kept == [] and "You quit: 0 finished deals saved to" in person.said[-1]


def test_hint_at_the_talon_gives_the_search_players_exchange(tmp_path):
    from reversis_sim.play.loop import Hint

    person, code, _ = _scripted(tmp_path, ["hint"], hint=Hint)
    (line,) = [x for x in person.said if x.startswith("Hint:")]
    assert re.fullmatch(r"Hint: (keep your hand|discard \w+) \(the search player's exchange, search's; the review "
                        r"after the deal values each option\)\.", line), line
    assert code == 0 and not any("is not a card" in x for x in person.said)
