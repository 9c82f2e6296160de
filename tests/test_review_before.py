"""The review of the decisions before the first lead: the exchange (keep, or which card to discard) and
the declaration. Each option is played out from that moment in worlds of what the seat knew; the option played,
played out in the true deal, is the deal itself; a hand-built exchange has a known best discard."""

import json

import numpy as np
import pytest
from click.testing import CliRunner

from reversis_sim import cards as C
from reversis_sim.cli import main
from reversis_sim.constraints import Deals, parse_predeal
from reversis_sim.policies import parse_seats
from reversis_sim.review.marks import KINDS, mark, option_name
from reversis_sim.review.reviewing import review_matches
from reversis_sim.rules import PRESETS

EXCHANGE, DECLARATION = 0, 1


@pytest.mark.parametrize("name, kind", [("parlett", EXCHANGE), ("serbian", EXCHANGE), ("modern", DECLARATION)])
def test_the_option_taken_played_out_in_the_true_deal_is_the_deal(name, kind):
    """At a table of ``tuned`` reviewed with ``tuned`` rollouts (no draws), the exchange or declaration the seat
    took, played out from that moment in the true deal by the same policies, is the deal: its hindsight value is
    the seat's fish. (The rollout replays the rest of the exchange, the declaration and every trick.)"""
    rules = PRESETS[name]
    out = review_matches(rules, parse_seats(["tuned"], rules.n_seats), seed=5, first_match=0, n_matches=2,
                         reviewed=range(rules.n_seats), worlds=2, rollout="tuned")
    d = out.decisions
    sel = d["kind"] == kind
    assert sel.sum() >= (2 if kind == DECLARATION else 4 * 12), sel.sum()
    fish = {(m, k): f for m, k, f in zip(out.deals["match"], out.deals["deal"], out.deals["fish"])}
    expected = np.array([fish[m, k][s] for m, k, s in zip(d["match"], d["deal"], d["seat"])], float)
    np.testing.assert_array_equal(d["hindsight_played"][sel], expected[sel])
    assert (d["trick"][sel] == -1).all() and (d["hindsight_loss"][sel] >= 0).all()
    if kind == EXCHANGE and rules.talon_mode == "optional_blind_exchange":  # a non-dealer may keep: -1 an option
        assert (d["options"][sel] >= 2).all() and (d["played"][sel] == -1).any()


def test_a_dealer_is_told_to_discard_the_bare_quinola():
    """The dealer (seat 0 deals deal 0) is dealt the J♥, the K♠ and low cards (its twelfth card dealt at random);
    ``lowest`` discards its strongest card, the K♠ or a card as strong. Discarding the J♥ takes the Quinola out of
    the deal (nothing is paid for a J♥ in the talon); keeping it unguarded risks the Quinola's payments: the review
    names the J♥ best and marks the discard played."""
    rules = PRESETS["parlett"]
    deals = Deals(parse_predeal(["0=JH,KS,2C,3C,4C,5C,6C,7C,2D,3D,4D"], rules))
    seats = parse_seats(["lowest", "tuned", "tuned", "tuned"])
    found = []
    for seed in range(8):
        out = review_matches(rules, seats, seed=seed, first_match=0, n_matches=1, reviewed=[0], worlds=32,
                             rollout="tuned", only_deal=0, deals=deals)
        d = out.decisions
        (i,) = np.flatnonzero(d["kind"] == EXCHANGE)
        assert d["played"][i] != C.QUINOLA and d["options"][i] >= 4  # the dealer discards: no keep
        found.append((int(d["best"][i]), float(d["loss"][i]), mark(d["loss"][i], d["loss_se"][i])))
    assert sum(best == C.QUINOLA for best, _, _ in found) >= 7, found
    # the loss, measured on worlds apart from those that chose, is large against its spread over the eight deals
    losses = np.array([loss for _, loss, _ in found])
    assert losses.mean() > 2 * losses.std(ddof=1) / np.sqrt(len(losses)), found
    assert sum(m is not None for _, _, m in found) >= 5, found


def test_a_player_that_follows_the_reviewers_best_exchange_loses_nothing_there():
    rules = PRESETS["parlett"]
    follow = review_matches(rules, parse_seats(["random"]), seed=3, first_match=0, n_matches=2, reviewed=[0],
                            worlds=8, rollout="tuned", follow_best=True).decisions
    own = review_matches(rules, parse_seats(["random"]), seed=3, first_match=0, n_matches=2, reviewed=[0],
                         worlds=8, rollout="tuned").decisions
    for d in (follow, own):
        assert (d["kind"] == EXCHANGE).sum() == 24  # one exchange a deal, two matches of twelve
    sel = follow["kind"] == EXCHANGE
    assert (follow["best"][sel] == follow["played"][sel]).all() and (follow["loss"][sel] == 0).all()
    sel = own["kind"] == EXCHANGE  # random exchanges: it loses fish there, on average
    assert own["loss"][sel].mean() > 0


def test_option_names():
    assert option_name(EXCHANGE, -1) == "keep" and option_name(EXCHANGE, C.QUINOLA) == "JH"
    assert option_name(DECLARATION, 0) == "pass" and option_name(DECLARATION, 1) == "declare"
    assert option_name(DECLARATION, 1, goal=True) == "declare lose_all"
    assert option_name(DECLARATION, 2, goal=True) == "declare win_all"
    assert KINDS[EXCHANGE] == "exchange" and KINDS[DECLARATION] == "declaration"


def test_one_deal_shows_the_exchange_with_its_options():
    r = CliRunner().invoke(main, ["review", "--seed", "7", "--match", "0", "--deal", "1", "--seat", "tuned",
                                  "--review-seat", "1", "--review-seat", "2", "--worlds", "8", "--luck-samples", "0",
                                  "--format", "json"])
    assert r.exit_code == 0, r.output
    rev = json.loads(r.stdout)
    ex = [x for x in rev["decisions"] if x["kind"] == "exchange"]
    assert {x["seat"] for x in ex} == {1, 2} and all(x["trick"] == 0 for x in ex)
    for x in ex:
        names = [o["card"] for o in x["options"]]
        assert x["played"] in names and x["best"] in names
        if x["seat"] != rev["record"]["dealer"]:
            assert "keep" in names  # a non-dealer may keep his hand (R14 b)
    for p in rev["seats"]:  # eleven cards and the exchange
        assert p["decisions"] == rules_tricks() + 1
    t = CliRunner().invoke(main, ["review", "--seed", "7", "--match", "0", "--deal", "1", "--seat", "tuned",
                                  "--review-seat", "1", "--worlds", "8", "--luck-samples", "0", "--ascii"])
    assert t.exit_code == 0 and "exchange" in t.output and t.output.isascii(), t.output


def rules_tricks():
    return PRESETS["parlett"].n_tricks
