"""The search policy: exact world sampling, the spec, and agreement of the engines on search seats."""

import itertools
import math
import random

import numpy as np
import pytest
from scipy import stats

from reversis_sim import cards as C
from reversis_sim import reference
from reversis_sim.engines import get_engine
from reversis_sim.game import espagnolette_eligible
from reversis_sim.kernel.compiled import MAX_SEATS, MAX_TRICKS, compile_rules
from reversis_sim.kernel.view import (
    V_DEALER,
    V_DECK,
    V_DECLARER,
    V_HAND,
    V_N_CUR,
    V_SEAT,
    V_TALON_KNOWN,
    V_TRICK,
    new_view,
)
from reversis_sim.policies import PolicySpecError, parse_seats, parse_spec, registry, search, weights
from reversis_sim.reference import Watching, make_policy
from reversis_sim.rules import PRESETS, get_preset
from reversis_sim.search import decide_nb, rollout_nb
from reversis_sim.search import worlds as W

PARLETT = compile_rules(PRESETS["parlett"]).params
FACT = np.array([float(math.factorial(i)) for i in range(64)])


def _scratch():
    return (np.zeros(W.MAX_HOLDERS, np.uint64), np.zeros((5, W.MAX_HOLDERS), np.int64),
            np.zeros((5, W.N_KEYS)), np.zeros(64, np.int64), np.zeros(1, np.int64))


def _mask(cards):
    return np.uint64(C.mask(cards))


def _enumerate(unseen, need, voids):
    """Every consistent world by brute force: a tuple of frozensets, one per holder."""
    cards = sorted(unseen)
    out = []
    for labels in itertools.product(range(len(need)), repeat=len(cards)):
        if any(labels.count(h) != need[h] for h in range(len(need))):
            continue
        if any((voids[h] >> C.suit_of(c)) & 1 for c, h in zip(cards, labels)):
            continue
        out.append(tuple(frozenset(c for c, h in zip(cards, labels) if h == g) for g in range(len(need))))
    return out


def _as_sets(out, n):
    return tuple(frozenset(C.from_mask(int(out[h]))) for h in range(n))


# A small case: 7 unseen cards in three suits among three holders, with voids.
SMALL_UNSEEN = [C.make(r, s) for s, ranks in ((0, (2, 3, 4)), (1, (5, 6)), (2, (7, 8))) for r in ranks]
SMALL_NEED = [3, 2, 2]
SMALL_VOIDS = [0b010, 0b001, 0]  # holder 0 lacks suit 1, holder 1 lacks suit 0


def test_the_world_count_is_the_brute_force_count():
    out, ints, table, cards, state = _scratch()
    for need, voids in ((SMALL_NEED, SMALL_VOIDS), ([2, 2, 3], [0, 0, 0]), ([3, 2, 2], [0b110, 0b001, 0b100])):
        want = len(_enumerate(SMALL_UNSEEN, need, voids))
        got = W.count_worlds(_mask(SMALL_UNSEEN), np.array(need + [0]), len(need), np.array(voids + [0]), table,
                             FACT, *ints[:4])
        assert got == want


@pytest.mark.parametrize("path", ["rejection", "exact"])
def test_worlds_are_uniform_over_the_consistent_worlds(path):
    """Chi-square against the uniform distribution over every consistent world (brute force), both ways of
    drawing; a sampler that favoured some worlds by 10% would fail at this size."""
    worlds = _enumerate(SMALL_UNSEEN, SMALL_NEED, SMALL_VOIDS)
    index_of = {w: i for i, w in enumerate(worlds)}
    out, ints, table, cards, state = _scratch()
    unseen, need, voids = _mask(SMALL_UNSEEN), np.array(SMALL_NEED + [0]), np.array(SMALL_VOIDS + [0])
    counts = np.zeros(len(worlds))
    n_draws = 400 * len(worlds)
    key = np.uint64(20261201)
    index = 0
    if path == "exact":
        W.count_worlds(unseen, need, 3, voids, table, FACT, *ints[:4])
    for _ in range(n_draws):
        if path == "exact":
            index = W.deal_exact(key, index, unseen, need, 3, voids, table, FACT, ints, out, cards)
        else:
            state[0] = 0
            index = W.sample(PARLETT, key, index, unseen, need, 3, voids, -1, np.uint64(0),
                             W.Scratch(ints, table, FACT, out, cards, state))
        counts[index_of[_as_sets(out, 3)]] += 1
    assert counts.min() > 0
    assert stats.chisquare(counts).pvalue > 1e-3


def test_tight_constraints_use_the_exact_draw_and_never_loop():
    """Each holder's suits forced by its voids: one consistent world in 34,650 deals, which rejection would almost
    never find; the sampler finds it. With no consistent world it says so."""
    unseen = [C.make(r, s) for s in (0, 1, 2) for r in (2, 3, 4, 5)]
    need = np.array([4, 4, 4, 0])
    voids = np.array([0b110, 0b101, 0b011, 0])
    out, ints, table, cards, state = _scratch()
    for i in range(5):
        state[0] = 0
        index = W.sample(PARLETT, np.uint64(i), 0, _mask(unseen), need, 3, voids, -1, np.uint64(0),
                         W.Scratch(ints, table, FACT, out, cards, state))
        assert index > 0
        assert [C.suit_of(c) for h in range(3) for c in C.from_mask(int(out[h]))] == [0] * 4 + [1] * 4 + [2] * 4
    state[0] = 0
    voids[1] = 0b111  # holder 1 lacks every suit: nothing is consistent
    assert W.sample(PARLETT, np.uint64(9), 0, _mask(unseen), need, 3, voids, -1, np.uint64(0),
                    W.Scratch(ints, table, FACT, out, cards, state)) == -1


# ---------------------------------------------------------------------------------------------------------------
# Worlds drawn at real decisions honour everything the seat knows
# ---------------------------------------------------------------------------------------------------------------


class _Spy:
    """A seat's policy that keeps the view of every card it plays; declares whenever it may (to exercise the
    declarer's constraint)."""

    def __init__(self, spec):
        self.inner = make_policy(spec)
        self.views, self.legal = [], []

    def exchange(self, view):
        return self.inner.exchange(view)

    def declare_espagnolette(self, view):
        return True

    def espagnolette_goal(self, view):
        return self.inner.espagnolette_goal(view)

    def play(self, view, legal):
        self.views.append(view)
        self.legal.append(legal)
        return self.inner.play(view, legal)


def _history(view):
    tricks = np.full((MAX_TRICKS, 6), -1, np.int64)
    for i, t in enumerate(view.tricks):
        tricks[i, 0], tricks[i, 1:5], tricks[i, 5] = t.leader, t.cards, t.winner
    tricks[len(view.tricks), 0] = view.leader if view.leader is not None else view.seat
    tricks[len(view.tricks), 1:1 + len(view.current)] = view.current
    return tricks


def _check_worlds(rules, view, outcome, n_worlds=8):
    """Draw worlds at ``view`` and check each against what the seat knows, and the true deal against the same
    constraints (so that they are neither too loose nor too tight)."""
    cr = compile_rules(rules)
    n, seat = rules.n_seats, view.seat
    declarer = -1 if view.espagnolette is None else view.espagnolette
    out = np.zeros((n_worlds, MAX_SEATS), np.uint64)
    record = new_view()
    record[[V_SEAT, V_HAND, V_TRICK, V_N_CUR, V_DEALER, V_DECLARER, V_TALON_KNOWN, V_DECK]] = [
        seat, C.mask(view.hand), len(view.tricks), len(view.current), view.dealer, declarer, C.mask(view.talon_known),
        C.mask(rules.tables.deck)]
    got = decide_nb.draw_worlds(cr.params, n, record, _history(view), np.uint64(hash((seat, len(view.tricks)))
                                & (2**63 - 1)), out, rollout_nb.workspace(True))
    assert got == n_worlds, "no consistent world at a real decision"
    played = [set() for _ in range(n)]
    done = [(t.leader, t.cards) for t in view.tricks] + ([(view.leader, view.current)] if view.current else [])
    for leader, cards in done:
        s = leader
        for c in cards:
            played[s].add(c)
            s = view.next_seat(s)
    voids = view.voids()
    truth = [set(h) for h in outcome.hands]
    deck = set(rules.tables.deck)
    for w in list(out) + [np.array([_mask(h) for h in truth] + [0] * (MAX_SEATS - n), np.uint64)]:
        hands = [set(C.from_mask(int(w[s]))) for s in range(n)]
        assert hands[seat] == set(view.hand) | played[seat]
        assert all(not (hands[a] & hands[b]) for a in range(n) for b in range(a))
        talon = deck - set().union(*hands)
        assert set(view.talon_known) <= talon
        for s in range(n):
            assert played[s] <= hands[s]
            assert len(hands[s]) == len(truth[s])
            hidden = hands[s] - played[s]
            assert not {C.suit_of(c) for c in hidden} & voids[s], (s, voids[s])
        if view.espagnolette is not None:
            assert reference_eligible(rules, hands[view.espagnolette])


def reference_eligible(rules, hand):
    return espagnolette_eligible(rules, sorted(hand))


@pytest.mark.parametrize("first_lead_rule", ["any", "heart_if_able"])
def test_a_first_lead_of_another_suit_shows_no_heart_where_a_heart_must_be_led_if_able(first_lead_rule):
    rules = PRESETS["parlett"].replace(first_lead_rule=first_lead_rule)
    cr = compile_rules(rules)
    deck = list(rules.tables.deck)
    lead = next(c for c in deck if C.suit_of(c) != C.HEARTS)
    hand = [c for c in deck if C.suit_of(c) not in (C.HEARTS, C.suit_of(lead))][:12]
    record = new_view()  # seat 2 follows the eldest's first lead (dealer 0, no declarer)
    record[[V_SEAT, V_HAND, V_TRICK, V_N_CUR, V_DEALER, V_DECLARER, V_TALON_KNOWN, V_DECK]] = [
        2, C.mask(hand), 0, 1, 0, -1, 0, C.mask(deck)]
    tricks = np.full((MAX_TRICKS, 6), -1, np.int64)
    tricks[0, 0], tricks[0, 1] = 1, lead
    out = np.zeros((200, MAX_SEATS), np.uint64)
    assert decide_nb.draw_worlds(cr.params, 4, record, tricks, np.uint64(9), out, rollout_nb.workspace(True)) == 200
    hearts = C.mask(c for c in deck if C.suit_of(c) == C.HEARTS)
    leader_has_hearts = (out[:, 1] & np.uint64(hearts)) != 0
    if first_lead_rule == "any":
        assert leader_has_hearts.mean() > 0.9  # 11 of the 35 unseen cards, 12 of them hearts
    else:
        assert not leader_has_hearts.any()


@pytest.mark.parametrize("preset", ["parlett", "modern", "serbian", "modern_five"])
def test_sampled_worlds_honour_hands_voids_the_talon_and_the_declaration(preset):
    rules = PRESETS[preset]
    rng = random.Random(3)
    checked = 0
    for deal in range(6):
        spies = [_Spy(rng.choice(["random", "tuned", "lowest"])) for _ in range(rules.n_seats)]
        dealer = deal % rules.n_seats
        outcome = reference.play_deal_outcome(rules, spies, seed=77, deal=deal, dealer=dealer)
        for spy in spies:
            for view in spy.views[::3]:
                _check_worlds(rules, view, outcome)
                checked += 1
    assert checked >= 60


def test_the_declarers_eligible_hand_is_honoured():
    """A hand-built parlett deal in which seat 1 holds the four Aces and declares: every world the others draw
    gives him a hand that was eligible."""
    rules = PRESETS["parlett"]
    layout = reference.deal_cards(rules, 5, 0, 0, 0)
    aces = [C.make(C.RANK_ACE, s) for s in range(4)]
    dealt = [list(h) for h in layout.dealt]
    for ace in aces:  # swap every Ace into seat 1's hand
        holder = next(s for s in range(4) if ace in dealt[s])
        if holder != 1:
            give = next(c for c in dealt[1] if c not in aces)
            dealt[holder][dealt[holder].index(ace)], dealt[1][dealt[1].index(give)] = give, ace
    layout = reference.Layout(dealt, layout.talon_offered)
    spies = [_Spy("tuned") for _ in range(4)]
    spies[1].exchange = lambda view: None  # keep the Aces
    outcome = reference.play_deal_outcome(rules, spies, dealer=0, layout=layout)
    assert outcome.declarer == 1
    for s in (0, 2, 3):
        for view in spies[s].views[:6]:
            _check_worlds(rules, view, outcome)


# ---------------------------------------------------------------------------------------------------------------
# The spec, and the engines
# ---------------------------------------------------------------------------------------------------------------


def test_the_default_search_rolls_out_with_the_rules_own_learned_player_or_strongest_heuristic():
    """A search left on its default rollout plays, under each rule set, the shipped learned player learned under
    those rules, else the family's strongest heuristic (learned weights are refused under other rules): what a
    table seats and what a folder records name it; a rollout given is kept."""
    def bound(text, rules):
        return parse_seats([text], rules=get_preset(rules))[0]

    assert bound("search", "parlett") == parse_spec("search")
    assert bound("search", "modern").rollout == parse_spec("learned_modern")
    assert bound("search", "serbian").rollout == parse_spec("learned_serbian")
    assert bound("search:worlds=4", "parlett_simple") == parse_spec("search:worlds=4,rollout=strong")
    assert bound("search", "modern_five").rollout == parse_spec("strong_modern")
    assert bound("search", "pierer").rollout == parse_spec("strong")
    assert bound("search:rollout=tuned", "modern").rollout == parse_spec("tuned")  # given: kept
    assert bound("tuned", "modern") == parse_spec("tuned")
    recorded = str(bound("search", "modern"))
    assert parse_spec(recorded) == bound("search", "modern") and "learned" in recorded
    for name in registry.LEARNED_PLAYERS:  # each shipped learned player fits the rules it is chosen for
        spec = parse_spec(name)
        fits = [r for r in PRESETS if registry.search_rollout(get_preset(r)) == name]
        assert fits, name
        for r in fits:
            weights.check_rules(weights.load(spec.weights), get_preset(r))


def test_a_search_spec_carries_its_rollout_policy():
    spec = parse_spec("search:worlds=24,rollout=(avoid:take=0,declare=3)")
    assert spec.rollout == parse_spec("avoid:take=0,declare=3")
    assert str(spec) == "search:worlds=24,rollout=(avoid:take=0,declare=3)"
    assert parse_spec(str(spec)) == spec
    assert parse_spec("search").rollout == parse_spec(search.DEFAULT_ROLLOUT)
    assert str(parse_spec("search:rollout=learned")) == "search" and search.DEFAULT_ROLLOUT == "learned"
    assert str(parse_spec("search:rollout=strong")) != "search"  # the default before 0.3.0 is another player now
    assert str(parse_spec("search:rollout=tuned")) != "search"  # and the one before 0.2.0
    assert parse_spec("search:rollout=cautious").rollout == parse_spec("cautious")
    values = spec.values()
    assert values[:search.N_OWN] == (24, 1.0, 1.0, 2, 0, 1.0, 4, 6, 0)  # worlds, margin, race, first, infer
    # (none), tau, pool, start, window
    k = search.N_OWN
    assert values[k] == parse_spec("avoid").family_id and values[k + 1:] == spec.rollout.values()


@pytest.mark.parametrize("text,message", [
    ("search:worlds=0", "worlds=0 is out of range [1, 4096]"),
    ("search:rollout=search", "a search cannot roll out with a search"),
    ("search:rollout=(search:worlds=2)", "a search cannot roll out with a search"),
    ("search:rollout=avoid:take=0,declare=3", "search has no parameter 'declare'"),
    ("search:rollout=(avoid:take=x)", "its rollout policy is not valid"),
    ("search:rollout=(avoid", "a '(' without its ')'"),
    ("search:depth=3", "search has no parameter 'depth' (parameters: worlds, margin, race, first, infer, tau, pool, "
                       "start, window, rollout)"),
    ("search:margin=-1", "margin=-1 is out of range [0, 10]"),
    ("search:infer=table", "infer='table' is not one of none, rollout"),
    ("search:infer=2", "infer=2 is not one of none, rollout"),
    ("search:infer=rollout,tau=0", "tau=0 is out of range [0.05, 20]"),
    ("search:infer=rollout,tau=-1", "tau=-1 is out of range [0.05, 20]"),
    ("search:infer=rollout,rollout=(search:infer=rollout)", "a search cannot roll out with a search"),
    ("search:tau=2", "tau acts only with infer=rollout; add it, or leave it out"),
    ("search:pool=2,tau=3", "tau and pool act only with infer=rollout"),
    ("search:window=3", "window acts only with infer=rollout"),
    ("search:infer=rollout,rollout=random", "infer=rollout needs a rollout policy that plays by rule"),
])
def test_bad_search_specs_are_refused_in_one_sentence(text, message):
    with pytest.raises(PolicySpecError, match=None) as err:
        parse_spec(text)
    assert message in str(err.value)


@pytest.mark.parametrize("preset", ["parlett", "modern", "serbian", "modern_five", "parlett_simple"])
def test_the_engines_agree_on_search_seats(preset):
    rules = PRESETS[preset]
    seats = ["search", "tuned",  # the default; searches from trick 0, weighed by the last 5 cards or every card
             "search:worlds=2,rollout=avoid,infer=rollout,tau=0.5,start=0,window=5",
             "random", "search:worlds=3,race=0,infer=rollout,pool=1,start=0"][:rules.n_seats]
    a = get_engine("numba").columns(rules, seats, seed=5, first_match=0, n_matches=2, match_deals=3)
    b = get_engine("reference").columns(rules, seats, seed=5, first_match=0, n_matches=2, match_deals=3)
    a, b = a.arrays(), b.arrays()
    assert a.keys() == b.keys()
    for k in a:
        np.testing.assert_array_equal(a[k], b[k], err_msg=k)


def test_a_raced_option_leaves_the_race_when_its_upper_bound_is_not_above_the_own_card():
    """After n worlds, a card stays while mean + race * SE of its paired gain over the own card is above
    0; the own card always stays."""
    from reversis_sim.search.options_nb import raced

    stats = np.zeros((5, 64))
    n = 4
    gains = {1: [5.0, -3.0, 4.0, 2.0],  # mean +2: stays
             2: [-10.0, -12.0, -8.0, -10.0],  # mean -10, SE 0.8: out
             3: [0.0, 0.0, 0.0, 0.0],  # never differs from the own card so far: out
             4: [-4.0, 6.0, -4.0, 0.0]}  # mean -0.5, SE 2.4: in with race 1, out with race 0.1
    for c, g in gains.items():
        stats[0, c], stats[1, c] = sum(g), sum(x * x for x in g)
        stats[3, c] = stats[4, c] = n  # every world's weight 1
    cands = sum(np.uint64(1) << np.uint64(c) for c in (0, *gains))  # card 0: the own card
    keep = raced(np.uint64(cands), 0, stats, 1.0)
    assert [c for c in range(6) if int(keep) >> c & 1] == [0, 1, 4]
    keep = raced(np.uint64(cands), 0, stats, 0.1)
    assert [c for c in range(6) if int(keep) >> c & 1] == [0, 1]


def test_racing_drops_only_cards_the_search_would_not_play():
    """A card leaves the race only when its gain plus ``race`` SEs is not above 0, and such a card is never the
    margin rule's choice: raced only after the last world (``first`` = ``worlds``), the search plays exactly the
    unraced search's cards; raced from world 2, it stops early and plays other deals (the race acts)."""
    rules = PRESETS["parlett"]
    eng = get_engine("numba")
    field = ["tuned"] * 3

    def fish(spec):
        return eng.columns(rules, [spec, *field], seed=11, first_match=0, n_matches=3, threads=1)["fish"]

    plain = fish("search:worlds=6,race=0")
    np.testing.assert_array_equal(fish("search:worlds=6,race=2,first=6"), plain)
    assert not np.array_equal(fish("search:worlds=6,race=2,first=2"), plain)


# ---------------------------------------------------------------------------------------------------------------
# Inference: worlds weighed by the other seats' plays
# ---------------------------------------------------------------------------------------------------------------


def test_a_spec_names_its_inference_model_and_reads_it_back():
    spec = parse_spec("search:infer=rollout,tau=0.5")
    assert str(spec) == "search:infer=rollout,tau=0.5" and parse_spec(str(spec)) == spec
    assert dict(spec.params)["infer"] == search.INFER_MODELS.index("rollout")
    assert parse_spec("search:infer=1") == parse_spec("search:infer=rollout")
    assert str(parse_spec("search:infer=none")) == "search"


def _followed_above_the_weakest(view, rules):
    """Each (seat, card, weaker unseen cards of its suit) where a seat other than the viewer followed the suit led
    with ``card`` while cards of that suit weaker than it are still unseen by the viewer: a ``lowest`` seat would
    have played one of them had it held it."""
    strength = rules.tables.strength
    gone = set(view.hand) | set(view.talon_known)
    for t in view.tricks:
        gone |= set(t.cards)
    gone |= set(view.current)
    out = []
    for t in view.tricks:
        led = C.suit_of(t.cards[0])
        s = t.leader
        for k, c in enumerate(t.cards):
            if k > 0 and s != view.seat and C.suit_of(c) == led:
                weaker = [x for x in rules.tables.deck if C.suit_of(x) == led and x not in gone
                          and strength[x] < strength[c]]
                if weaker:
                    out.append((s, c, weaker))
            s = view.next_seat(s)
    return out


def test_a_play_that_shows_a_holding_moves_the_weight_the_right_way():
    """Seats that play their weakest legal card (``lowest``): a seat that followed suit with a card while weaker
    cards of the suit are unseen would have played one of them, had it held it then (and an unseen card it holds now
    it held then). Weighed by ``rollout=lowest`` the worlds must give it such a card far less often than uniform
    worlds do (the same worlds, weights e^(-1/tau) = e^-4 against them); and the weights are finite and vary."""
    rules = PRESETS["modern"]
    uniform, weighted = [], []
    for deal in range(6):
        spies = [_Spy("lowest") for _ in range(rules.n_seats)]
        for spy in spies:
            spy.declare_espagnolette = lambda view: False
        reference.play_deal_outcome(rules, spies, seed=31, deal=deal, dealer=deal % rules.n_seats)
        weigher = make_policy("search:infer=rollout,tau=0.25,rollout=lowest")
        for spy in spies:
            for view, legal in list(zip(spy.views, spy.legal))[2::3]:
                cases = _followed_above_the_weakest(view, rules)
                if not cases:
                    continue
                worlds, logw = weigher.pool_worlds(view, legal, 256)
                assert len(worlds) == 256 and np.isfinite(logw).all()
                w = np.exp(logw - logw.max())
                w /= w.sum()
                for s, _, weaker in cases:
                    held = (worlds[:, s] & np.uint64(_mask(weaker))) != 0
                    uniform.append(held.mean())
                    weighted.append(w[held].sum())
    assert len(uniform) >= 30
    u, g = np.mean(uniform), np.mean(weighted)
    assert u > 0.2, u  # the event is common among uniform worlds: the test can see the weight move
    assert g < u / 4, (u, g)


def test_a_window_weighs_only_the_last_cards_the_others_played():
    """``window=K`` asks the model on the others' last K cards only: the same worlds are drawn; a window as long as
    the deal weighs them as no window does; a short one leaves out terms that are each at most 0 (a log-probability),
    so its log-weight is at least the whole history's, equal to it while the others have played at most K cards and
    above it for some world later in the deal."""
    rules = PRESETS["modern"]
    spies = [_Spy("lowest") for _ in range(rules.n_seats)]
    reference.play_deal_outcome(rules, spies, seed=31, deal=0, dealer=0)
    whole, long, short = (make_policy(f"search:infer=rollout,tau=0.25,rollout=lowest{w}")
                          for w in ("", ",window=64", ",window=3"))
    later = 0
    for spy in spies:
        for view, legal in zip(spy.views, spy.legal):
            worlds, logw = whole.pool_worlds(view, legal, 32)
            worlds_long, logw_long = long.pool_worlds(view, legal, 32)
            worlds_short, logw_short = short.pool_worlds(view, legal, 32)
            np.testing.assert_array_equal(worlds, worlds_long)
            np.testing.assert_array_equal(worlds, worlds_short)
            np.testing.assert_array_equal(logw, logw_long)
            others = sum(len(t.cards) - 1 for t in view.tricks) + len(view.current)  # the seat plays now
            if others <= 3:
                np.testing.assert_array_equal(logw, logw_short)
            else:
                assert (logw_short >= logw).all()
                later += bool((logw_short > logw).any())
    assert later >= 10, later


def test_weighted_statistics_are_the_plain_ones_with_unit_weights_and_follow_the_weights():
    """With every weight 1, the weighted mean and SE are the sample mean and SE to the last bit (a search without
    inference plays exactly as before); a weight moves the mean toward its world, and the SE is measured on the
    effective number of worlds, (sum w)^2 / sum w^2."""
    from reversis_sim.search.options_nb import mean_se

    d = np.array([3.0, -1.0, 4.0, 1.5, -5.0])
    stats = np.zeros((5, 64))
    stats[0, 7], stats[1, 7], stats[3, 7], stats[4, 7] = d.sum(), (d * d).sum(), len(d), len(d)
    mean, se = mean_se(stats, 7)
    assert mean == d.sum() / len(d)
    assert se == np.sqrt(max((d * d).sum() - len(d) * mean * mean, 0.0) / (len(d) - 1) / len(d))
    w = np.array([1.0, 0.5, 0.25, 1.0, 0.125])
    stats[0, 8], stats[1, 8], stats[3, 8], stats[4, 8] = (w * d).sum(), (w * d * d).sum(), w.sum(), (w * w).sum()
    mean, se = mean_se(stats, 8)
    m = np.average(d, weights=w)
    var = (w * (d - m) ** 2).sum() / (w.sum() - (w * w).sum() / w.sum())
    assert mean == pytest.approx(m) and se == pytest.approx(np.sqrt(var * (w * w).sum() / w.sum() ** 2))
    stats[:, 9] = 0.0
    stats[0, 9], stats[1, 9], stats[3, 9], stats[4, 9] = 2.0, 4.0, 1.0, 1.0  # one world: no SE
    assert mean_se(stats, 9) == (2.0, -1.0)


def test_weighing_the_worlds_changes_the_play_and_keeps_it_deterministic():
    rules = PRESETS["parlett"]
    eng = get_engine("numba")
    plain = eng.columns(rules, ["search:worlds=4", "tuned", "tuned", "tuned"], seed=8, first_match=0, n_matches=4)
    for setting in ("search:worlds=4,infer=rollout,tau=0.5", "search:worlds=4,infer=rollout,pool=1"):
        seats = [setting, "tuned", "tuned", "tuned"]
        one = eng.columns(rules, seats, seed=8, first_match=0, n_matches=4)
        two = eng.columns(rules, seats, seed=8, first_match=0, n_matches=4, threads=1)
        np.testing.assert_array_equal(one["fish"], two["fish"])
        assert not np.array_equal(one["fish"], plain["fish"])


def test_a_search_is_deterministic_by_key_and_differs_from_its_rollout():
    rules = PRESETS["parlett"]
    eng = get_engine("numba")
    one = eng.columns(rules, ["search:worlds=4", "tuned", "tuned", "tuned"], seed=8, first_match=0, n_matches=4)
    two = eng.columns(rules, ["search:worlds=4", "tuned", "tuned", "tuned"], seed=8, first_match=0, n_matches=4,
                      threads=1)
    base = eng.columns(rules, ["tuned"] * 4, seed=8, first_match=0, n_matches=4)
    np.testing.assert_array_equal(one["fish"], two["fish"])
    assert not np.array_equal(one["fish"], base["fish"])


class _Both(Watching):
    """Plays ``tuned``; at each card decision, also asks a search what it would play (kept in ``asked``)."""

    def __init__(self, spec):
        super().__init__("tuned")
        self.search, self.asked = make_policy(spec), []

    def watch(self, view, legal, card):
        self.asked.append((view.trick_index, card, self.search.play(view, legal)))


def test_a_search_plays_its_rollout_policys_card_before_its_start_trick_and_searches_from_it():
    rules = PRESETS["parlett"]
    asked = []
    for deal in range(6):
        seats = [_Both("search:worlds=4,margin=0,start=5,rollout=tuned") for _ in range(4)]
        reference.play_deal_outcome(rules, seats, seed=3, deal=deal, dealer=deal % 4)
        asked += [a for s in seats for a in s.asked]
    before = [(own, searched) for t, own, searched in asked if t < 5]
    after = [(own, searched) for t, own, searched in asked if t >= 5]
    assert len(before) > 100 and all(own == searched for own, searched in before)
    assert sum(own != searched for own, searched in after) >= 5  # plain PIMC on 4 worlds often plays another card


class _Twice(Watching):
    """A search seat that also plays each decision again from its :meth:`search_args` (``bench_decisions.py``)."""

    def __init__(self, spec):
        super().__init__(spec)
        self.pairs = []

    def watch(self, view, legal, card):
        self.pairs.append((card, int(decide_nb.play(*self.inner.search_args(view, legal)))))


def test_a_decisions_search_arguments_play_the_card_the_seat_plays():
    seat = _Twice("search:worlds=3")
    table = [seat] + [make_policy("tuned") for _ in range(3)]
    reference.play_deal_outcome(PRESETS["modern"], table, seed=4, deal=0, dealer=0)
    assert len(seat.pairs) >= 10 and all(a == b for a, b in seat.pairs)
    with pytest.raises(ValueError, match="is not a search"):
        make_policy("tuned").search_args(None, ())


def test_a_search_that_starts_after_the_last_trick_is_its_rollout_policy():
    rules = PRESETS["parlett"]
    eng = get_engine("numba")
    never = eng.columns(rules, ["search:start=12", "tuned", "tuned", "tuned"], seed=8, first_match=0, n_matches=3)
    base = eng.columns(rules, [search.DEFAULT_ROLLOUT] + ["tuned"] * 3, seed=8, first_match=0, n_matches=3)
    a, b = never.arrays(), base.arrays()
    for k in a:
        np.testing.assert_array_equal(a[k], b[k], err_msg=k)


# ---------------------------------------------------------------------------------------------------------------
# The command line
# ---------------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("seat,message", [
    ("search:worlds=0", "worlds=0 is out of range"),
    ("search:infer=rollout,tau=0", "tau=0 is out of range"),
    ("search:infer=bayes", "infer='bayes' is not one of none, rollout"),
    ("search:infer=rollout,rollout=search", "a search cannot roll out with a search"),
    ("search:rollout=search", "a search cannot roll out with a search"),
    ("search:speed=2", "search has no parameter 'speed'"),
])
def test_bad_search_seats_exit_2_in_one_sentence(seat, message):
    from click.testing import CliRunner

    from reversis_sim.cli import main

    r = CliRunner().invoke(main, ["compare", "--candidate", seat, "--baseline", "tuned", "--deals", "12"])
    assert r.exit_code == 2 and message in r.output and "Traceback" not in r.output, r.output


def test_bench_measures_search_settings_beside_the_field(tmp_path):
    from click.testing import CliRunner

    from reversis_sim.cli import main

    r = CliRunner().invoke(main, ["bench", "--search", "search:worlds=2", "--deals", "24", "--format", "json"])
    assert r.exit_code == 0, r.output
    import json

    out = json.loads(r.stdout)
    (row,) = out["rows"]
    assert row["setting"] == "search:worlds=2" and row["deals_per_s_1_thread"] > 0
    assert row["cards_per_s_1_thread"] == row["deals_per_s_1_thread"] * PRESETS["parlett"].n_tricks
    assert out["field"].startswith("avoid:") and row["x_field"] > 1


def test_a_sweep_or_a_tuning_of_a_search_keeps_its_rollout():
    from reversis_sim.compare.sweep import grid_specs
    from reversis_sim.tune.space import SpaceError, build_space

    base = parse_spec("search:rollout=(avoid:take=0)")
    for _, spec in grid_specs(base, {"worlds": [4, 8]}):
        assert spec.rollout == base.rollout and spec.values()[0] in (4, 8)
    assert build_space(base, ["worlds=2,4"]).spec({"worlds": 4}).rollout == base.rollout
    inferring = parse_spec("search:infer=rollout,rollout=(avoid:take=0)")  # tau is tuned like any real
    tuned = build_space(inferring, ["tau=0.25..2"]).spec({"tau": 0.5})
    assert str(tuned) == "search:infer=rollout,tau=0.5,rollout=avoid:take=0"
    (infer,) = build_space("search", ["infer=none,rollout"]).dims  # a choice is tuned by its names
    assert infer.choices == (0.0, 1.0) and build_space("search", ["infer=1,0"]).dims == (infer,)
    assert str(build_space("search", ["infer=none,rollout"]).spec({"infer": 1.0})) == "search:infer=rollout"
    with pytest.raises(SpaceError, match=r"infer=none,bayes: bayes is not one of none, rollout; write"):
        build_space("search", ["infer=none,bayes"])


def test_tuning_a_search_without_values_is_refused_in_one_sentence():
    from click.testing import CliRunner

    from reversis_sim.cli import main

    r = CliRunner().invoke(main, ["tune", "--base", "search", "--baseline", "tuned", "--budget-deals", "1000"])
    assert r.exit_code == 2 and "tuning a search needs --param" in r.output and "Traceback" not in r.output, r.output
