"""Constrained deals end to end: the two engines draw the same constrained deals chip for chip; the
conditional deal is uniform (chi-square on small cases); runs record their constraints; bad input is exit 2."""

import itertools
import json
from types import SimpleNamespace

import numpy as np
import pytest
from click.testing import CliRunner
from scipy import stats

from reversis_sim import cards as C
from reversis_sim.cli import main
from reversis_sim.constraints import deals_of
from reversis_sim.engines import get_engine
from reversis_sim.numba_engine.hands import dealt_hands
from reversis_sim.policies import parse_seats
from reversis_sim.record import RunSpec, read_manifest
from reversis_sim.rules import PRESETS
from reversis_sim.simulate import run

PARLETT = PRESETS["parlett"]
ALPHA = 1e-3  # fixed seeds: each chi-square test below either passes or fails for good


@pytest.mark.parametrize("name,predeal,where", [
    ("parlett", ["0=JH,2H"], None), ("parlett", [], "hearts(0) == 2 and has(0, JH)"),
    ("modern", ["1=AS,AH"], "guards(1) >= 3 or void(2, C)"), ("serbian", ["3=JH"], "hcp(talon) > 3"),
    ("modern_five", [], "spades(0) + spades(1) >= 3"), ("parlett_simple", ["2=QS"], None),
])
def test_both_engines_draw_the_same_constrained_deals(name, predeal, where):
    rules = PRESETS[name]
    seats = parse_seats(["avoid", "random", "tuned", "lowest", "avoid"][:rules.n_seats], rules.n_seats)
    deals = deals_of(rules, predeal, where)
    a = get_engine("numba").columns(rules, seats, seed=7, first_match=3, n_matches=3, deals=deals)
    b = get_engine("reference").columns(rules, seats, seed=7, first_match=3, n_matches=3, deals=deals)
    for k, v in b.arrays().items():
        assert np.array_equal(a.arrays()[k], v), k
    assert a.shuffles == b.shuffles >= a.n_deals
    records = get_engine("numba").match_records(rules, seats, seed=7, match=4, deals=deals)
    assert records == get_engine("reference").match_records(rules, seats, seed=7, match=4, deals=deals)
    for rec in records:  # every deal meets the constraints
        dealt = [C.mask(C.parse(c) for c in h) for h in rec["dealt"]]
        for seat, m in enumerate(deals.predeal.masks):
            assert dealt[seat] & m == m
        if deals.where is not None:
            talon = C.mask(rules.tables.deck) & ~np.bitwise_or.reduce(np.array(dealt, dtype=np.uint64)).item()
            assert deals.accepts(dealt + [0] * (5 - rules.n_seats) + [talon])


@pytest.mark.parametrize("name,predeal,where", [
    ("parlett", [], "hearts(0) == 2"), ("parlett_52", ["0=JH"], "hearts(0) >= 3 and aces(2) == 0"),
    ("serbian", [], "hearts(talon) >= 1"), ("modern_five", [], "aces(1) >= 2"), ("pierer", [], "hearts(3) > 6"),
    ("parlett", [], "hearts(0) > 20"),
])
def test_the_kernel_counts_the_acceptance_of_the_reference_shuffles(name, predeal, where):
    """A ``--where``'s acceptance rate is estimated before a command runs: the numba kernel draws the reference's
    very shuffles and counts the same passes, dealer by dealer (none where the dealer sits out and the condition
    needs his cards, none for an impossible condition); the verdict is one, whichever engine counted."""
    from reversis_sim.constraints import ConstraintError, acceptance_rate
    from reversis_sim.numba_engine.hands import acceptance
    from reversis_sim.reference import acceptance as reference_acceptance

    rules = PRESETS[name]
    deals = deals_of(rules, predeal, where)
    counted = acceptance(rules, deals, 2000, seed=3)
    assert counted == reference_acceptance(rules, deals, 2000, seed=3)
    assert [t for _, t in counted] == [2000 // rules.n_seats] * rules.n_seats
    if all(p for p, _ in counted):
        assert 0 < acceptance_rate(rules, deals, counted) <= 1
    else:
        with pytest.raises(ConstraintError, match="no shuffle among"):
            acceptance_rate(rules, deals, counted)


def test_predealt_cards_leave_the_rest_uniform():
    """With the J♥ and the 2♥ in seat 0's hand, the A♠ lands in each seat (or the talon) in proportion to the free
    places there: 9 in seat 0, 11 in seats 1 and 2, 12 for the dealer, seat 3, and 3 in the talon (deal 3)."""
    deals = deals_of(PARLETT, ["0=JH,2H"], None)
    hands = dealt_hands(PARLETT, seed=11, first_match=0, n_matches=8000, deals=deals).reshape(8000, 12, 4)[:, 3]
    ace = 1 << C.parse("AS")
    where = np.array([[(int(h) & ace) != 0 for h in deal] for deal in hands])
    counts = np.append(where.sum(axis=0), len(hands) - where.sum())
    free = np.array([9, 11, 11, 12, 3])
    assert (hands[:, 0].astype(np.uint64) & np.uint64(deals.predeal.masks[0]) == deals.predeal.masks[0]).all()
    assert stats.chisquare(counts, len(hands) * free / free.sum()).pvalue > ALPHA


def test_a_where_condition_keeps_the_accepted_deals_uniform():
    """Among deals where seat 0 holds exactly two hearts, each of the 66 pairs of the twelve hearts is as likely."""
    deals = deals_of(PARLETT, [], "hearts(0) == 2")
    hands, shuffles = dealt_hands(PARLETT, seed=12, first_match=0, n_matches=1100, deals=deals, with_shuffles=True)
    hearts = [tuple(c for c in C.from_mask(int(h)) if C.suit_of(c) == C.HEARTS) for h in hands[:, 0]]
    assert all(len(h) == 2 for h in hearts)
    pairs = list(itertools.combinations(sorted(c for c in PARLETT.tables.deck if C.suit_of(c) == C.HEARTS), 2))
    counts = np.array([hearts.count(p) for p in pairs])
    assert counts.sum() == len(hands) and stats.chisquare(counts).pvalue > ALPHA
    assert (shuffles >= 1).all() and shuffles.sum() > 2 * len(hands)  # about one shuffle in four passes


def test_unconstrained_deals_are_those_of_before():
    plain = dealt_hands(PARLETT, seed=3, first_match=0, n_matches=50)
    assert np.array_equal(plain, dealt_hands(PARLETT, seed=3, first_match=0, n_matches=50,
                                             deals=deals_of(PARLETT, [], None)))
    loose = deals_of(PARLETT, [], "cards(0) >= 11")  # every deal passes at once: the same deals
    assert np.array_equal(plain, dealt_hands(PARLETT, seed=3, first_match=0, n_matches=50, deals=loose))


def test_a_constrained_run_records_its_constraints_and_refuses_a_resume_without_them(tmp_path):
    deals = deals_of(PARLETT, ["0=JH"], "hearts(0) <= 3")
    spec = RunSpec.for_deals(PARLETT, ["avoid"], deals=240, seed=2, constraints=deals)
    run(spec, tmp_path / "run")
    manifest = read_manifest(tmp_path / "run")
    assert manifest["deals"] == {"predeal": ["0=JH"], "where": "hearts(0) <= 3"}
    plain = RunSpec.for_deals(PARLETT, ["avoid"], deals=240, seed=2)
    assert "deals" not in plain.identity()
    from reversis_sim.record import RunError

    with pytest.raises(RunError, match="deals"):
        run(plain, tmp_path / "run", resume=True)


def _cli(*args):
    """The command line's entry point run in this process (what a process of its own adds is only start-up): its
    exit status, standard output and standard error."""
    r = CliRunner().invoke(main, [str(a) for a in args])
    return SimpleNamespace(returncode=r.exit_code, stdout=r.stdout, stderr=r.stderr)


@pytest.mark.parametrize("args,fragment", [
    (["--predeal", "0=JH", "--predeal", "1=JH"], "JH is given twice"),
    (["--predeal", "0=" + ",".join(C.names(PARLETT.tables.deck[:12]))], "a hand holds 11"),
    (["--predeal", "0=ZZ"], "'ZZ' is not a card"), (["--predeal", "9=JH"], "not a seat"),
    (["--where", "hearts(0) >"], "does not parse"), (["--where", "luck(0) > 1"], "unknown function luck()"),
    (["--where", "has(0, JH) and has(1, JH)"], "no shuffle among 5,000"),
    (["--where", "has(0, JH) and has(1, JH)"], "loosen it or predeal the cards it asks for"),
    # under modern_five the dealer sits out and holds nothing: no advice to predeal (impossible there)
    (["--rules", "modern_five", "--where", "has(0, JH)"], "the dealer sits out and is dealt no cards"),
])
def test_bad_constraints_are_one_sentence_exit_2_and_write_nothing(tmp_path, args, fragment):
    out = tmp_path / "never"
    r = _cli("simulate", "--deals", "240", "--out", str(out), *args)
    assert r.returncode == 2 and fragment in r.stderr and "Traceback" not in r.stderr, r.stderr
    assert "modern_five" not in args or "predeal" not in r.stderr.split("sits out")[1]
    assert not out.exists()


def test_replay_and_compare_take_the_constraints():
    r = _cli("replay", "--seed", "4", "--match", "1", "--deal", "2", "--predeal", "1=JH,AS")
    rec = json.loads(r.stdout)
    assert {"JH", "AS"} <= set(rec["dealt"][1])
    c = _cli("compare", "--candidate", "tuned", "--baseline", "avoid", "--deals", "240", "--where",
             "hearts(0) >= 4", "--format", "json")
    assert c.returncode == 0, c.stderr
    assert json.loads(c.stdout)["deals"] == {"where": "hearts(0) >= 4"}


def test_a_constrained_comparison_and_tournament_say_they_are_conditional():
    """A comparison or a tournament on constrained deals measures the players on those deals only: the text says
    so under the heading, the JSON keeps the constraints; without constraints neither says anything of it."""
    args = ["compare", "--candidate", "tuned", "--baseline", "avoid", "--deals", "240"]
    c = _cli(*args, "--where", "hearts(0) >= 4")
    assert c.returncode == 0, c.stderr
    assert ('conditional on the deals meeting {"where": "hearts(0) >= 4"}: the difference and its interval are '
            'among those deals') in c.stdout.splitlines()[1], c.stdout
    assert "conditional on" not in _cli(*args).stdout
    args = ["tournament", "--policy", "tuned", "--policy", "avoid", "--deals", "120"]
    t = _cli(*args, "--predeal", "0=JH")
    assert t.returncode == 0, t.stderr
    assert ('conditional on the deals meeting {"predeal": ["0=JH"]}: every payoff, rank and claim below is among '
            'those deals') in t.stdout.splitlines()[1], t.stdout
    assert json.loads(_cli(*args, "--predeal", "0=JH", "--format", "json").stdout)["deals"] == {"predeal": ["0=JH"]}
    plain = _cli(*args, "--format", "json")
    assert "deals" not in json.loads(plain.stdout) and "conditional on" not in _cli(*args).stdout


def test_a_constrained_runs_summary_says_it_is_conditional(tmp_path):
    """Every number of a constrained run is among the deals meeting its constraints: the summary says so, as text
    and in JSON; an unconstrained one says nothing of it."""
    args = ["simulate", "--engine", "reference", "--deals", "48", "--seed", "3", "--no-figures"]
    r = _cli(*args, "--predeal", "0=JH", "--where", "hearts(0) >= 3", "--out", tmp_path / "c")
    assert r.returncode == 0, r.stderr
    assert ('conditional on the deals meeting {"predeal": ["0=JH"], "where": "hearts(0) >= 3"}: every mean, rate '
            'and interval below is among those deals') in r.stdout, r.stdout
    data = json.loads(_cli(*args, "--predeal", "0=JH", "--out", tmp_path / "j", "--format", "json").stdout)
    assert data["conditional_on"] == {"predeal": ["0=JH"]}
    plain = _cli(*args, "--out", tmp_path / "p")
    assert "conditional on" not in plain.stdout
    analyzed = _cli("analyze", tmp_path / "c", "--table", "quinola_fate")  # and analyze says it of every table
    assert analyzed.stdout.startswith('conditional on the deals meeting {"predeal": ["0=JH"], "where": '), analyzed
    assert "conditional on" not in _cli("analyze", tmp_path / "p", "--table", "quinola_fate").stdout
