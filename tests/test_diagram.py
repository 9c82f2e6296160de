"""The deal diagram (``replay --format text``): read back, it holds exactly what the record holds."""

import re

import pytest
from click.testing import CliRunner

from reversis_sim import cards as C
from reversis_sim import reference
from reversis_sim.cli import main
from reversis_sim.game.diagram import SUIT_SYMBOLS, diagram, hand_rows
from reversis_sim.policies import parse_seats
from reversis_sim.rules import PRESETS

_SUIT_OF = {**{s: s for s in C.SUITS}, **{sym: C.SUITS[i] for i, sym in enumerate(SUIT_SYMBOLS)}}


def _hand_back(row: str) -> set[str]:
    """The cards of one ``hand_rows`` line, read back."""
    cards = set()
    for part in re.findall(r"([SHDC♠♥♦♣]) ((?:\[?[2-9TJQKA]\]? ?)+|-)", row):
        suit = _SUIT_OF[part[0]]
        for r in part[1].split():
            if r != "-":
                cards.add(r.strip("[]") + suit)
    return cards


def _card_back(text: str) -> str:
    return text[0] + _SUIT_OF[text[1]]


def _records():
    for name in ("parlett", "modern_five", "serbian", "parlett_simple"):
        rules = PRESETS[name]
        yield from reference.play_match(rules, parse_seats(["random"], rules.n_seats), seed=11, match=1)


@pytest.mark.parametrize("ascii_", [False, True])
def test_the_diagram_reads_back_as_its_record(ascii_):
    n_checked = 0
    for rec in _records():
        text = diagram(rec, ascii=ascii_)
        lines = text.splitlines()
        n = len(rec["dealt"])
        arrow = "->" if ascii_ else "→"
        if ascii_:
            assert text.isascii(), [ln for ln in lines if not ln.isascii()][:1]
        # the dealt hands, seat by seat
        start = next(i for i, ln in enumerate(lines) if ln.startswith("Dealt hands"))
        for s in range(n):
            row = lines[start + 1 + s]
            assert row.strip().startswith(f"S{s}")
            assert _hand_back(row) == set(rec["dealt"][s]), row
        # the tricks: seat and card in playing order, the winner
        start = lines.index("Tricks")
        for t, tr in enumerate(rec["tricks"], start=1):
            row = lines[start + t]
            played = re.findall(r"S(\d) (\S\S)", row.split(arrow)[0])
            assert [_card_back(c) for _, c in played] == tr["cards"], row
            assert int(played[0][0]) == tr["leader"]
            assert row.split(arrow)[1].split()[0] == f"S{tr['winner']}"
            moved = [p for p in rec["payments"] if p["trick"] == t]
            assert row.count(arrow) - 1 == len(moved), row  # one arrow per payment of the trick, one for the winner
        # the fish per seat and the pool
        fish_line = next(ln for ln in lines if ln.startswith("Fish"))
        assert [int(x) for x in re.findall(r"S\d ([+-]\d+)", fish_line)] == rec["result"]["fish"]
        assert fish_line.endswith(f"{rec['pool_before']} {arrow} {rec['result']['pool_after']}")
        n_checked += 1
    assert n_checked >= 30


def test_hands_are_sorted_by_the_presets_strength_and_mark_the_aces_and_the_quinola():
    row = hand_rows(["2S", "AS", "KS", "JH", "9H", "AD"], "AKQJ98765432", ascii=True)
    assert " ".join(row.split()) == "S [A] K 2 H [J] 9 D [A] C -"
    low = hand_rows(["2S", "AS", "KS"], "KQJ98765432A", ascii=False)  # modern: the Ace ranks low
    assert low.startswith("♠ K 2 [A]")


def test_replay_prints_the_diagram_and_refuses_options_of_the_other_format():
    r = CliRunner().invoke(main, ["replay", "--rules", "parlett", "--seed", "7", "--match", "0", "--deal", "3",
                                  "--seat", "random", "--engine", "reference", "--format", "text", "--ascii"])
    assert r.exit_code == 0, r.output
    rec = reference.replay(PRESETS["parlett"], parse_seats(["random"]), seed=7, match=0, deal=3)
    assert r.output.strip() == diagram(rec, ascii=True)
    for args, message in ((["--format", "text", "--indent", "2"], "--indent"), (["--ascii"], "--format text")):
        r = CliRunner().invoke(main, ["replay", "--engine", "reference", "--deal", "0", *args])
        assert r.exit_code == 2 and message in r.output, r.output
