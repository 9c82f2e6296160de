"""Constrained deals: the --where language and --predeal, parsed once; the readable evaluator and the
kernel's agree on every deal; bad input is one sentence naming what is wrong."""

import random

import numpy as np
import pytest

from reversis_sim import cards as C
from reversis_sim.constraints import MAX_STACK, ConstraintError, parse_predeal, parse_where
from reversis_sim.kernel.where import accepts
from reversis_sim.rules import PRESETS

PARLETT = PRESETS["parlett"]
EXPRESSIONS = ["hearts(0) == 2 and has(0, JH)", "not void(1, S) or aces(talon) >= 1", "2 <= hcp(3) - kings(2) < 9",
               "guards(0) >= 2 and cards(talon) == 4", "queens(1) + jacks(1) != 3 or diamonds(2) > clubs(2)",
               "has(talon, AD) or spades(3) - -1 > 4", "not (hearts(0) >= 3 and has(0, JH))"]


def _hands(deck, rng):
    d = deck[:]
    rng.shuffle(d)
    return [C.mask(d[0:11]), C.mask(d[11:22]), C.mask(d[22:33]), C.mask(d[33:44]), 0, C.mask(d[44:48])]


def _direct(expr: str, h) -> bool:
    """The expressions above, computed with the card helpers instead of the program."""
    def n(seat, suit):
        return sum(1 for c in C.from_mask(h[seat]) if C.suit_of(c) == suit)

    def ranks(seat, rank):
        return sum(1 for c in C.from_mask(h[seat]) if C.rank_of(c) == rank)

    def hcp(seat):
        return sum({C.RANK_ACE: 4, C.RANK_KING: 3, C.RANK_QUEEN: 2, C.RANK_JACK: 1}.get(C.rank_of(c), 0)
                   for c in C.from_mask(h[seat]))

    talon = 5
    return [
        n(0, C.HEARTS) == 2 and C.QUINOLA in C.from_mask(h[0]),
        n(1, C.SPADES) > 0 or ranks(talon, C.RANK_ACE) >= 1,
        2 <= hcp(3) - ranks(2, C.RANK_KING) < 9,
        sum(1 for c in C.from_mask(h[0]) if C.suit_of(c) == C.HEARTS and C.rank_of(c) < C.RANK_JACK) >= 2
        and len(C.from_mask(h[talon])) == 4,
        ranks(1, C.RANK_QUEEN) + ranks(1, C.RANK_JACK) != 3 or n(2, C.DIAMONDS) > n(2, C.CLUBS),
        C.ACE_OF_DIAMONDS in C.from_mask(h[talon]) or n(3, C.SPADES) + 1 > 4,
        not (n(0, C.HEARTS) >= 3 and C.QUINOLA in C.from_mask(h[0])),
    ][EXPRESSIONS.index(expr)]


@pytest.mark.parametrize("expr", EXPRESSIONS)
def test_the_program_the_kernel_and_a_direct_computation_agree(expr):
    rng = random.Random(EXPRESSIONS.index(expr))
    where = parse_where(expr, 4)
    program = np.array(where.program, np.int64)
    stack = np.zeros(MAX_STACK, np.int64)
    outcomes = set()
    for _ in range(2000):
        h = _hands(list(PARLETT.tables.deck), rng)
        want = _direct(expr, h)
        assert where.evaluate(h) == want
        assert accepts(program, np.array(h, np.uint64), stack) == want
        outcomes.add(want)
    assert outcomes == {True, False}  # each expression both accepts and rejects deals
    assert parse_where(where.text, 4) == where  # the canonical text parses to the same program


@pytest.mark.parametrize("expr,fragment", [
    ("hearts(0) ==", "does not parse"), ("foo(1) > 0", "unknown function foo()"), ("hearts(7) > 1", "not a seat"),
    ("has(0, XX)", "'XX' is not a card"), ("void(0, Q)", "'Q' is not a suit"), ("hearts(0) is 2", "operator"),
    ("x", "not part of the language"), ("", "is empty"), ("has(0)", "takes a seat and a card"),
    ("hearts(0) * 2 > 1", "not part of the language"),
])
def test_bad_expressions_are_one_sentence(expr, fragment):
    with pytest.raises(ConstraintError, match=None) as e:
        parse_where(expr, 4)
    assert fragment in str(e.value) and "\n" not in str(e.value)


def test_predeal_places_cards_and_refuses_what_cannot_be_dealt():
    p = parse_predeal(["0=JH,2H,AS", "2=KD"], PARLETT)
    assert p.masks[0] == C.mask([C.QUINOLA, C.parse("2H"), C.parse("AS")]) and p.masks[2] == 1 << C.parse("KD")
    assert p.text == ["0=AS,2H,JH", "2=KD"]
    for items, fragment in [(["0=JH", "1=JH"], "JH is given twice"), (["5=JH"], "not a seat"),
                            (["0=TH"], "TH is not in the parlett deck (it has no tens)"),
                            (["0=10H"], "10H is not in the parlett deck (it has no tens)"),
                            (["0=ZZ"], "'ZZ' is not a card"),
                            (["0"], "write SEAT=CARDS"),
                            (["0=" + ",".join(C.names(PARLETT.tables.deck[:12]))], "a hand holds 11")]:
        with pytest.raises(ConstraintError) as e:
            parse_predeal(items, PARLETT)
        assert fragment in str(e.value), (items, str(e.value))
    with pytest.raises(ConstraintError, match="dealer sits out"):
        parse_predeal(["0=JH"], PRESETS["modern_five"])
