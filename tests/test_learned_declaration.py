"""The learned family's declaration model (policies/learned_declaration_nb.py): the espagnolette declared and the
goal named as the model's argmax in both engines, a file without the model keeping the avoid setting's, a bad
model refused in one sentence, and ``reversis-sim learn`` fitting it reproducibly on deals of its own while keeping
a learned table's card and exchange weights bit for bit."""

from __future__ import annotations

import json
from dataclasses import replace

import numpy as np
import pytest
from click.testing import CliRunner
from weights_files import assert_refused, replace_arrays

from reversis_sim.cli import main
from reversis_sim.constraints import deals_of
from reversis_sim.learn.run import eligible_where
from reversis_sim.policies import parse_spec
from reversis_sim.policies import weights as W
from reversis_sim.policies.learned import (
    DD_ELDEST,
    DECLARATION_FEATURES,
    DO_DECLARE,
    DO_WIN_ALL,
    N_D,
    N_DD,
    N_DO,
    N_O,
)
from reversis_sim.reference.match import play_deal
from reversis_sim.reference.seat_policy import Watching
from reversis_sim.rules import get_preset

AVOID = {"parlett": "strong", "modern": "strong_modern", "serbian": "strong_serbian"}
LEARNED = {"parlett": "learned", "modern": "learned_modern", "serbian": "learned_serbian"}


def _file(path, rules="parlett", seed=0, declaration=True, **change):
    """A weights file with seeded random card weights, the shipped exchange model of the rules (``strong``'s
    exchange throws an Ace or the J♥ from nearly every hand that could declare) and, with ``declaration``, random
    declaration weights (the ``win_all`` column zero where the rules ask no goal)."""
    rng = np.random.default_rng(seed)
    preset = get_preset(rules)
    WD = None
    if declaration:  # the eldest declares, the others pass, but for the other facts' small random weights
        WD = 0.3 * rng.normal(size=(N_DD + 1, N_DO))
        WD[0, DO_DECLARE], WD[1 + DD_ELDEST, DO_DECLARE] = -1.5, 3.0
        if not preset.espagnolette_goal_choice:
            WD[:, DO_WIN_ALL] = 0.0
    W.save(path, rng.normal(size=(N_D + 1, N_O)), WX=W.load(rules).WX, WD=WD, exchange=str(parse_spec(AVOID[rules])),
           rules=preset, command="test", provenance={})
    return replace_arrays(path, **change)


class _Seat(Watching):
    """A reference seat that keeps its view, hand and answers at each declaration."""

    def __init__(self, inner, seen):
        super().__init__(inner)
        self.seen = seen

    def declare_espagnolette(self, view):
        declares = self.inner.declare_espagnolette(view)
        goal = self.inner.espagnolette_goal(view) if declares else None
        self.seen.append((self.inner._view.copy(), declares, goal))
        return declares


def _declarations(rules, spec, n_deals, seed):
    """The declarations of a table of ``spec`` in ``n_deals`` deals dealt so that seat 0 may declare."""
    from reversis_sim.game import dealer_of

    seen = []
    deals = deals_of(rules, (), eligible_where(rules))
    for deal in range(n_deals):
        play_deal(rules, [_Seat(spec, seen) for _ in range(rules.n_seats)], seed=seed, match=deal // 12,
                  deal=deal % 12, dealer=dealer_of(rules, deal % 12), deals=deals)
    return seen, deals


@pytest.mark.parametrize("name, seed", [("parlett", 7), ("modern", 8)])
def test_the_declaration_is_the_declaration_models_argmax(tmp_path, name, seed):
    """The declaration and the goal the player takes are the options of highest score, recomputed here in numpy
    from the facts of the seat's view (the facts the fit reads) and the weights (passing first, then losing every
    trick, among equal scores); and a table of four such players plays the same deals in both engines."""
    from reversis_sim.engines import get_engine
    from reversis_sim.policies.learned_declaration_nb import declaration_facts_of
    from reversis_sim.policies.view import DECLARE_LOSE_ALL, DECLARE_PASS, DECLARE_WIN_ALL

    rules = get_preset(name)
    path = _file(tmp_path / "w.npz", rules=name, seed=seed)
    w = W.load(str(path))
    seen, deals = _declarations(rules, f"learned:weights={path}", 120 if name == "parlett" else 24, seed)
    options = np.array([DECLARE_PASS, DECLARE_LOSE_ALL] + ([DECLARE_WIN_ALL] if rules.espagnolette_goal_choice
                                                            else []))
    answers = set()
    for view, declares, goal in seen:
        o, d = declaration_facts_of(rules, view[None, :], options, np.zeros(len(options), np.int64))
        score = o @ (np.r_[1.0, d[0]] @ w.WD)
        best = int(options[np.flatnonzero(score >= score.max() - 1e-9)[0]])
        assert declares == (best != DECLARE_PASS)
        if declares and rules.espagnolette_goal_choice:
            assert goal == ("win_all" if best == DECLARE_WIN_ALL else "lose_all")
        answers.add((declares, goal))
    assert len(seen) >= 3 and len(answers) >= 2  # more than one answer was checked
    seats = [f"learned:weights={path}"] * 4
    for deal in range(6):
        fast = get_engine("numba").deal_record(rules, seats, seed=seed, match=0, deal=deal, deals=deals)
        slow = get_engine("reference").deal_record(rules, seats, seed=seed, match=0, deal=deal, deals=deals)
        assert fast["tricks"] == slow["tricks"] and fast["result"] == slow["result"]
        assert fast["espagnolette"] == slow["espagnolette"]


def test_a_file_without_the_model_declares_as_its_avoid_setting(tmp_path):
    """No ``WD``: the vector's flag is 0 and every declaration is the avoid setting's (H12: at most ``declare`` high
    cards besides the Aces)."""
    from reversis_sim import cards as C

    rules = get_preset("parlett")
    path = _file(tmp_path / "w.npz", declaration=False)
    spec = parse_spec(f"learned:weights={path}")
    assert W.load(str(path)).WD is None and spec.values()[-1 - (N_DD + 1) * N_DO] == 0.0
    seen, _ = _declarations(rules, spec, 120, 9)
    from reversis_sim.kernel.view import V_HAND
    from reversis_sim.policies.avoid import A_DECLARE

    limit = parse_spec("strong").values()[A_DECLARE]
    for view, declares, _ in seen:
        hand = [c for c in range(64) if (int(view[V_HAND]) >> c) & 1]
        high = sum(1 for c in hand if (c & 15) != C.RANK_ACE and c != C.QUINOLA and (c & 15) >= C.RANK_JACK)
        assert declares == (high <= limit)
    assert len(seen) >= 3


@pytest.mark.parametrize("damage, words", [
    ("nan", "declaration weights that are not finite"),
    ("shape", "declaration weights of shape"),
    ("features", "declaration model of another feature set"),
    ("goal", "ask the declarer no goal"),
])
def test_a_bad_declaration_model_is_refused_in_one_sentence(tmp_path, damage, words):
    path = tmp_path / "w.npz"
    if damage == "nan":
        bad = np.zeros((N_DD + 1, N_DO))
        bad[2, 0] = np.nan
        _file(path, WD=bad)
    elif damage == "shape":
        _file(path, WD=np.zeros((N_DD, N_DO)))
    elif damage == "features":
        _file(path, declaration_features=np.array(DECLARATION_FEATURES.replace("eldest", "dealer")))
    elif damage == "goal":
        bad = np.zeros((N_DD + 1, N_DO))
        bad[0, DO_WIN_ALL] = 1.0
        _file(path, WD=bad)
    assert_refused(tmp_path, path, words)


def test_the_declaration_views_are_those_of_the_whole_match():
    """The learning run plays each reviewed deal alone up to its declaration, from the pool the review carried into
    it: the views are those of the match played whole, slot for slot."""
    from reversis_sim.learn.positions import DECLARATION, declaration_views, views_of
    from reversis_sim.review.reviewing import review_matches

    rules = get_preset("parlett")
    t = parse_spec("learned")
    deals = deals_of(rules, (), eligible_where(rules))
    out = review_matches(rules, [t] * 4, seed=7, first_match=0, n_matches=4, reviewed=[0], worlds=2, rollout=t,
                         luck_samples=0, threads=1, deals=deals)
    pools = {(int(m), int(k)): int(p) for m, k, p in zip(out.deals["match"], out.deals["deal"],
                                                          out.deals["pool_before"])}
    whole = views_of(rules, [t] * 4, seed=7, first_match=0, n_matches=4, deals=deals)
    keys = [k for k in whole if k[2] == DECLARATION]
    alone = declaration_views(rules, [t] * 4, seed=7, deals=deals, pools=pools, which=[k[:2] for k in keys])
    assert len(keys) >= 2 and sorted(k for k in alone if k[2] == DECLARATION) == sorted(keys)
    assert any(whole[k][5] > 0 for k in keys)  # a pool carried in was checked (V_POOL_BEFORE)
    for k in keys:
        assert np.array_equal(whole[k], alone[k])


@pytest.mark.parametrize("name", ["parlett", "serbian", "modern"])
def test_eligible_where_holds_every_deal_where_seat_0_may_declare(name):
    """The deals a declaration model learns from hold all those where seat 0 is eligible after the exchange: in
    deals dealt with two Aces or more to seat 0 (a wider condition), every seat 0 asked to declare was dealt a hand
    the condition accepts; where the rules have a talon, some it accepts were not asked (one card from eligible),
    and where they have none, it accepts exactly the hands asked."""
    from reversis_sim import cards as C
    from reversis_sim.constraints import parse_where
    from reversis_sim.game import dealer_of

    rules = get_preset(name)
    where = parse_where(eligible_where(rules), rules.n_seats)
    wider = deals_of(rules, (), "aces(0) >= 2")
    asked, accepted = 0, 0
    for deal in range(160):
        seen = []
        seats = [_Seat(LEARNED[name], seen) for _ in range(rules.n_seats)]
        rec = play_deal(rules, seats, seed=13, match=deal // 12, deal=deal % 12, dealer=dealer_of(rules, deal % 12),
                        deals=wider)
        dealt = [C.mask([C.parse(c) for c in h]) for h in rec["dealt"]]
        ok = where.evaluate(dealt + [0] * (6 - len(dealt)))
        accepted += ok
        if seen:
            asked += 1
            assert ok, rec["dealt"][0]
    assert asked >= 3 and (accepted > asked if rules.talon_mode != "none" else accepted == asked)


def test_learn_fits_the_declaration_reproducibly_and_keeps_the_card_weights(tmp_path):
    """``--declaration-only``: the same command writes the same declaration weights; a run stopped after its first
    chunk and resumed writes them too; the table's card weights, exchange and provenance are kept as they were."""
    from reversis_sim.learn.run import LearnSpec, learn

    rules = get_preset("modern")
    args = ["learn", "--rules", "modern", "--policy", "learned_modern", "--declaration-only",
            "--declaration-deals", "600", "--worlds", "4", "--seed", "11"]
    a, b = tmp_path / "a.npz", tmp_path / "b.npz"
    r = CliRunner().invoke(main, [*args, "--out", str(a), "--format", "json"])
    assert r.exit_code == 0, r.output
    report = json.loads(r.output[r.output.index("{"):])["declaration"]
    assert report["train_decisions"] >= 260 and report["held_out_decisions"] > 0
    assert report["held_out_regret"] >= 0 and report["held_out_regret_table"] >= 0
    wa, shipped = W.load(str(a)), W.load("modern")
    assert wa.WD is not None and np.array_equal(wa.W, shipped.W) and wa.WX is None and shipped.WX is None
    assert wa.exchange == shipped.exchange and wa.provenance["kept"]["command"] == shipped.command
    spec = LearnSpec("modern", rules.to_params(), str(parse_spec("learned_modern")), 11, 0, 4, True, 50, False)

    def stop(c):
        if c == 1:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        learn(rules, spec, b, command="x", progress=stop)
    assert not b.exists() and (tmp_path / "b.npz.parts" / "declaration-00000.npz").exists()
    learn(rules, spec, b, command="x", resume=True)
    assert np.array_equal(wa.WD, W.load(str(b)).WD)
    c = tmp_path / "c.npz"  # a table whose file carries a declaration model: set aside, the same weights
    learn(rules, replace(spec, policy=str(parse_spec(f"learned:weights={a}"))), c, command="x")
    assert np.array_equal(wa.WD, W.load(str(c)).WD) and np.array_equal(wa.W, W.load(str(c)).W)


@pytest.mark.parametrize("args, words", [
    (["--rules", "parlett_no_espagnolette", "--policy", "strong", "--declaration-deals", "600"], "no espagnolette"),
    (["--policy", "strong", "--declaration-only", "--declaration-deals", "600"], "learned player"),
    (["--policy", "learned", "--declaration-only", "--declaration-deals", "24"], "declaration matches are too few"),
])
def test_learn_refuses_a_declaration_run_it_cannot_make(tmp_path, args, words):
    out = tmp_path / "w.npz"
    r = CliRunner().invoke(main, ["learn", *args, "--deals", "480", "--out", str(out)])
    assert r.exit_code == 2 and words in " ".join(r.output.split()), r.output
    assert not out.exists() and not (tmp_path / "w.npz.parts").exists()


@pytest.mark.parametrize("name", ["parlett", "serbian", "modern"])
def test_each_shipped_file_carries_its_declaration_and_how_it_was_made(name):
    """The shipped players declare by their model: the vector's flag is 1 and its tail the file's ``WD``; the goal's
    column is zero where the rules ask none; the file records the declaration's command beside the one that made
    its card weights."""
    from reversis_sim.policies.learned import N_DWEIGHTS

    w = W.load(name)
    v = parse_spec(f"learned:weights={name}").values()
    assert w.WD is not None and v[len(v) - 1 - N_DWEIGHTS] == 1.0
    assert np.array_equal(np.array(v[len(v) - N_DWEIGHTS:]), w.WD.ravel())
    assert np.any(w.WD[:, DO_WIN_ALL] != 0) == get_preset(name).espagnolette_goal_choice
    assert "--declaration-only" in w.command and w.provenance["kept"]["command"].startswith("reversis-sim learn")
    assert w.provenance["fit"]["declaration"]["held_out_regret"] < w.provenance["fit"]["declaration"][
        "held_out_regret_table"]
