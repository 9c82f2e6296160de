"""The learned family (policies/learned.py): its weights file read strictly, its card and its talon decision the
models' argmax in both engines, and ``reversis-sim learn`` seeded, resumable and refusing too little data."""

from __future__ import annotations

import json
import zipfile

import numpy as np
import pytest
from click.testing import CliRunner
from weights_files import assert_refused, replace_arrays

from reversis_sim.cli import main
from reversis_sim.policies import PolicySpecError, parse_spec
from reversis_sim.policies import weights as W
from reversis_sim.policies.learned import (
    EXCHANGE_FEATURES,
    LEARNED_ID,
    N_D,
    N_DWEIGHTS,
    N_O,
    N_XD,
    N_XO,
    N_XWEIGHTS,
)
from reversis_sim.reference import make_policy
from reversis_sim.rules import get_preset


def _file(path, rules="parlett", seed=0, exchange=False, **change):
    """A weights file with seeded random weights (a player that is not the shipped one, so that a test of the
    engines does not lean on what was learned); ``exchange``: with random exchange weights too."""
    rng = np.random.default_rng(seed)
    Wm = rng.normal(size=(N_D + 1, N_O))
    WX = rng.normal(size=(N_XD + 1, N_XO)) if exchange else None
    W.save(path, Wm, WX=WX, exchange=str(parse_spec("strong")), rules=get_preset(rules), command="test",
           provenance={})
    return replace_arrays(path, **change)


def test_the_shipped_player_parses_and_carries_its_weights():
    spec = parse_spec("learned")
    assert spec.family_id == LEARNED_ID and spec.weights == "parlett"
    v = spec.values()
    w = W.load("parlett")
    assert len(v) == 3 + len(w.exchange_vector) + (N_D + 1) * N_O + 1 + N_XWEIGHTS + 1 + N_DWEIGHTS
    v = v[:len(v) - 1 - N_DWEIGHTS]  # the declaration model's flag and weights: tests/test_learned_declaration.py
    assert np.array_equal(np.array(v[-(N_D + 1) * N_O - 1 - N_XWEIGHTS:-1 - N_XWEIGHTS]), w.W.ravel())
    assert w.WX is not None and v[-1 - N_XWEIGHTS] == 1.0 and np.array_equal(np.array(v[-N_XWEIGHTS:]), w.WX.ravel())
    modern = parse_spec("learned_modern").values()
    assert W.load("modern").WX is None and modern[len(modern) - 2 - N_DWEIGHTS - N_XWEIGHTS] == 0.0
    W.check_rules(w, get_preset("parlett"))
    with pytest.raises(W.WeightsError, match="learned under the rules parlett"):
        W.check_rules(w, get_preset("modern"))
    modern = parse_spec("learned_modern")
    assert modern.weights == "modern" and modern.values()[:3] == spec.values()[:3]
    W.check_rules(W.load("modern"), get_preset("modern"))
    with pytest.raises(W.WeightsError, match="learned under the rules modern"):
        W.check_rules(W.load("modern"), get_preset("parlett"))
    W.check_rules(W.load("serbian"), get_preset("serbian"))
    assert parse_spec("learned_serbian").weights == "serbian"


@pytest.mark.parametrize("damage, words", [
    ("missing", "does not exist"),
    ("truncated", "truncated"),
    ("layout", "layout version 99"),
    ("features", "another feature set"),
    ("nan", "not finite"),
    ("shape", "of shape"),
    ("exchange_nan", "exchange weights that are not finite"),
    ("exchange_shape", "exchange weights of shape"),
    ("exchange_features", "exchange model of another feature set"),
])
def test_a_bad_weights_file_is_one_sentence_and_exit_2_and_nothing_written(tmp_path, damage, words):
    path = tmp_path / "w.npz"
    if damage == "truncated":
        _file(path)
        path.write_bytes(path.read_bytes()[:300])
    elif damage == "layout":
        _file(path, layout=np.array(99))
    elif damage == "features":
        _file(path, features=np.array("layout 1: option strength"))
    elif damage == "nan":
        bad = np.zeros((N_D + 1, N_O))
        bad[3, 4] = np.nan
        _file(path, W=bad)
    elif damage == "shape":
        _file(path, W=np.zeros((N_D, N_O)))
    elif damage == "exchange_nan":
        bad = np.zeros((N_XD + 1, N_XO))
        bad[1, 2] = np.inf
        _file(path, exchange=True, WX=bad)
    elif damage == "exchange_shape":
        _file(path, exchange=True, WX=np.zeros((N_XD + 1, N_XO + 1)))
    elif damage == "exchange_features":
        _file(path, exchange=True, exchange_features=np.array(EXCHANGE_FEATURES.replace("keep", "take")))
    assert_refused(tmp_path, path, words)


def test_weights_of_other_rules_are_refused_at_the_table(tmp_path):
    path = _file(tmp_path / "w.npz", rules="modern")
    out = tmp_path / "run"
    r = CliRunner().invoke(main, ["simulate", "--rules", "parlett", "--seat", f"learned:weights={path}",
                                  "--deals", "24", "--out", str(out)])
    assert r.exit_code == 2 and "learned under the rules modern" in r.output, r.output
    assert "or play `learned`, shipped with weights learned under parlett" in " ".join(r.output.split())
    assert not out.exists()
    r = CliRunner().invoke(main, ["simulate", "--rules", "modern", "--seat", f"learned:weights={path}",
                                  "--deals", "24", "--out", str(out), "--quiet"])
    assert r.exit_code == 0, r.output


def test_the_card_is_the_models_argmax(tmp_path):
    """The card the kernel plays is the legal card of highest score, the score recomputed here in numpy from the
    facts of the seat's view (the very facts the fit reads) and the weights: the player plays its model."""
    from reversis_sim import cards as C
    from reversis_sim.kernel.compiled import compile_rules
    from reversis_sim.policies.learned_nb import facts_of, option_score
    from reversis_sim.reference.seat_policy import Watching

    rules = get_preset("parlett")
    path = _file(tmp_path / "w.npz", seed=3)
    w = W.load(str(path))
    tables = compile_rules(rules).tables
    played = {}

    class Seat(Watching):
        def watch(self, view, legal, card):
            played[(view.trick_index, len(view.current), view.seat)] = (self.inner._view.copy(), legal, card)

    from reversis_sim.reference.match import play_deal

    checked = 0
    for deal in range(3):
        played.clear()
        play_deal(rules, [Seat(f"learned:weights={path}") for _ in range(4)], seed=21, match=0, deal=deal,
                  dealer=deal % 4)
        for view, legal, card in played.values():
            if len(legal) < 2:
                continue
            cards = np.array(legal)
            o, d = facts_of(rules, view[None, :], cards, np.zeros(len(cards), np.int64))
            v = np.r_[1.0, d[0]] @ w.W
            score = o @ v
            direct = [option_score(view, tables, int(c), v) for c in cards]  # what the kernel sums, fact by fact
            assert np.allclose(direct, score, rtol=0, atol=1e-9)
            top = score.max()
            assert card == cards[np.flatnonzero(score >= top - 1e-9)[0]], C.name(card)
            checked += 1
    assert checked > 50


def test_the_talon_decision_is_the_exchange_models_argmax(tmp_path):
    """The talon decision the kernel takes is the option of highest score (discarding a card of the hand, or
    keeping it where the seat may), recomputed here in numpy from the facts of the seat's view (the facts the fit
    reads); the dealer, who must discard, never keeps; and a table of four such players plays the same deals in
    both engines."""
    from reversis_sim.engines import get_engine
    from reversis_sim.kernel.compiled import compile_rules
    from reversis_sim.policies.learned_exchange_nb import exchange_facts_of, exchange_option_score
    from reversis_sim.reference.match import play_deal
    from reversis_sim.reference.seat_policy import Watching

    rules = get_preset("parlett")
    path = _file(tmp_path / "w.npz", seed=5, exchange=True)
    w = W.load(str(path))
    seen = []

    class Seat(Watching):
        def exchange(self, view):
            card = self.inner.exchange(view)
            seen.append((self.inner._view.copy(), view.hand, view.seat == view.dealer, card))
            return card

    for deal in range(12):
        play_deal(rules, [Seat(f"learned:weights={path}") for _ in range(4)], seed=23, match=0, deal=deal,
                  dealer=deal % 4)
    kept = 0
    for view, hand, dealer, card in seen:
        options = ([] if dealer else [-1]) + sorted(hand)
        o, d = exchange_facts_of(rules, view[None, :], np.array(options), np.zeros(len(options), np.int64))
        v = np.r_[1.0, d[0]] @ w.WX
        score = o @ v
        tables = compile_rules(rules).tables
        direct = [v[0] if c < 0 else exchange_option_score(view, tables, c, v) for c in options]  # the kernel's sum
        assert np.allclose(direct, score, rtol=0, atol=1e-9)
        chosen = options[int(np.flatnonzero(score >= score.max() - 1e-9)[0])]
        assert (card if card is not None else -1) == chosen
        kept += card is None
        assert not (dealer and card is None)
    assert len(seen) == 48 and 0 < kept < 36  # both kinds of decision were checked
    seats = [f"learned:weights={path}"] * 4
    for deal in range(4):
        fast = get_engine("numba").deal_record(rules, seats, seed=5, match=0, deal=deal)
        slow = get_engine("reference").deal_record(rules, seats, seed=5, match=0, deal=deal)
        assert fast["tricks"] == slow["tricks"] and fast["result"] == slow["result"]


def test_learn_refuses_too_little_data_and_writes_nothing(tmp_path):
    out = tmp_path / "w.npz"
    r = CliRunner().invoke(main, ["learn", "--deals", "24", "--seed", "1", "--out", str(out)])
    assert r.exit_code == 2 and "too few" in r.output, r.output
    assert "give at least 144 deals" in r.output, r.output  # how many, in the option's unit (12 matches of 12)
    assert not out.exists() and not (tmp_path / "w.npz.parts").exists()
    out.write_bytes(b"weights")  # a finished run's file: --resume has nothing to do, and says so
    r = CliRunner().invoke(main, ["learn", "--deals", "480", "--seed", "1", "--out", str(out), "--resume"])
    assert r.exit_code == 2 and "its run finished, nothing to resume" in r.output, r.output
    assert out.read_bytes() == b"weights"


def test_an_interrupted_learn_prints_the_exact_command_that_continues_it(tmp_path, monkeypatch):
    import shlex

    from reversis_sim.cli import learning

    def stopped(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(learning, "interruptible", stopped)  # Ctrl-C as the run starts
    out = tmp_path / "w.npz"
    args = ["learn", "--deals", "480", "--seed", "1", "--out", str(out)]
    r = CliRunner().invoke(main, args)
    assert r.exit_code == 130, r.output
    again = shlex.split(r.stderr.strip().splitlines()[-1])
    assert again == ["reversis-sim", *args, "--resume"], r.stderr


def test_learn_is_seeded_and_resumes_to_the_same_weights(tmp_path):
    """The same command writes the same weights; a run stopped after its first chunk and resumed writes them too."""
    from reversis_sim.learn.run import LearnSpec, learn

    rules = get_preset("parlett")
    args = ["learn", "--deals", "480", "--worlds", "4", "--seed", "11", "--declaration-deals", "0"]
    a, b = tmp_path / "a.npz", tmp_path / "b.npz"
    r = CliRunner().invoke(main, [*args, "--out", str(a), "--format", "json"])
    assert r.exit_code == 0, r.output
    report = json.loads(r.output[r.output.index("{"):])
    assert report["train_decisions"] > 0 and report["exchange"]["train_decisions"] > 0
    spec = LearnSpec("parlett", rules.to_params(), str(parse_spec("strong")), 11, 40, 4)

    def stop(c):
        if c == 1:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        learn(rules, spec, b, command="x", progress=stop)
    assert not b.exists() and (tmp_path / "b.npz.parts" / "chunk-00000.npz").exists()
    learn(rules, spec, b, command="x", resume=True)
    assert np.array_equal(W.load(str(a)).W, W.load(str(b)).W)
    assert np.array_equal(W.load(str(a)).WX, W.load(str(b)).WX)
    assert W.load(str(a)).command.startswith("reversis-sim learn")
    with zipfile.ZipFile(a) as z:
        assert "provenance.npy" in z.namelist()
    assert make_policy(f"learned:weights={a}") is not None


def test_a_search_rolls_out_with_the_learned_player_and_both_engines_agree():
    """A rollout policy may carry a learned player's weights (624 values): the search's rollouts, its exchange
    and its declaration are the learned player's, in both engines."""
    from reversis_sim.engines import get_engine

    spec = parse_spec("search:worlds=2,start=9,rollout=learned")
    assert spec.rollout.family == "learned" and len(spec.values()) > 624
    rules = get_preset("parlett")
    seats = [spec, "strong", "strong", "strong"]
    fast = get_engine("numba").deal_record(rules, seats, seed=3, match=0, deal=1)
    slow = get_engine("reference").deal_record(rules, seats, seed=3, match=0, deal=1)
    assert fast["tricks"] == slow["tricks"] and fast["result"] == slow["result"]


def test_an_unknown_shipped_name_is_refused_with_the_names():
    with pytest.raises(PolicySpecError, match="no shipped weights named 'modrn'.*modern"):
        parse_spec("learned:weights=modrn")


def test_each_fact_is_named_by_its_place_in_the_model():
    """The numba code reads the facts by name (``o[O_TAKES_NOW]``, ``d[D_LEAD]``): each name is the fact's place in
    :data:`OPTION_FACTS` and :data:`DECISION_FACTS`, the order the weights were fitted in."""
    from reversis_sim.policies import learned

    for prefix, facts in (("O_", learned.OPTION_FACTS), ("D_", learned.DECISION_FACTS)):
        names = {n: getattr(learned, n) for n in dir(learned) if n.startswith(prefix)}
        assert names == {prefix + f.upper(): i for i, f in enumerate(facts)}
