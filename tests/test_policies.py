"""Policies: the spec parser and registry, the named presets, and the information discipline."""

import random

import pytest

from reversis_sim import cards as C
from reversis_sim import reference
from reversis_sim.policies import FAMILIES, NAMED, PolicySpecError, parse_seats, parse_spec
from reversis_sim.reference import make_policy
from reversis_sim.rules import PRESETS


def test_specs_fill_defaults_and_print_canonically():
    spec = parse_spec("avoid:duck=0, take=7")
    params = dict(spec.params)
    assert params["duck"] == 0 and params["take"] == 7 and params["shed"] == 1
    assert len(spec.params) == len(FAMILIES["avoid"].params)
    assert str(spec) == "avoid:duck=0,take=7"
    assert str(parse_spec("avoid:duck=1")) == "avoid"  # defaults are not written


def test_named_presets_resolve_to_family_specs():
    for name, text in NAMED.items():
        assert parse_spec(name) == parse_spec(text)
    assert str(parse_spec("cautious")) == "avoid:hunt=0,take=20"


@pytest.mark.parametrize("text,message", [
    ("duck", "unknown policy family 'duck'; valid families: avoid, learned, lowest, random, search (named presets: "),
    ("avoid:speed=1", "avoid has no parameter 'speed' (parameters: duck, unload, shed"),
    ("avoid:duck=2", "duck=2 is out of range [0, 1]"),
    ("avoid:take=x", "take='x' is not a number"),
    ("avoid:duck", "'duck' is not key=value"),
    ("avoid:duck=0.5", "duck=0.5 is an on/off switch: write 0 or 1"),
    ("avoid:duck=1,duck=0", "duck is given twice"),
    ("avoid:guard=2.5", "guard=2.5 must be a whole number"),
    ("", "empty seat policy"),
])
def test_bad_specs_are_refused_with_the_valid_choices(text, message):
    with pytest.raises(PolicySpecError) as err:
        parse_spec(text)
    assert message in str(err.value)


def test_a_family_is_declared_once_and_its_positions_follow_from_the_names():
    """The kernel's positions are the declaration order; ids are unique; every heuristic has the four decisions in
    its numba module, a search its play and a default rollout policy (which takes its other decisions)."""
    from reversis_sim.policies import avoid, dispatch

    fam = FAMILIES["avoid"]
    assert [fam.position(p.name) for p in fam.params] == list(range(len(fam.params)))
    assert (avoid.A_TAKE, avoid.A_COUNT) == (fam.position("take"), fam.position("count"))
    assert len({f.family_id for f in FAMILIES.values()}) == len(FAMILIES)
    assert {p.kind for p in fam.params} == {"switch", "int", "real"}
    for f in FAMILIES.values():
        decisions = ("play",) if f.searches else ("exchange", "declare", "goal", "play")
        assert all(callable(getattr(f.kernel(), d)) for d in decisions), f.decisions
        assert not f.searches or not FAMILIES[parse_spec(f.rollout).family].searches
    assert dispatch.UNKNOWN_FAMILY < -1  # never a card, never "keep the hand" (-1)


def test_wrong_number_of_seats():
    with pytest.raises(PolicySpecError, match="got 3 seat policies; give one .* or 4"):
        parse_seats(["avoid"] * 3)
    assert len(parse_seats(["avoid"] * 5, 5)) == 5


# ---------------------------------------------------------------------------------------------------------------
# Information discipline: a decision depends only on what the seat may know
# ---------------------------------------------------------------------------------------------------------------


class _Decided(Exception):
    def __init__(self, card):
        self.card = card


class _Probe:
    """Replays a seat's recorded cards before the probed decision, then asks the real policy once."""

    def __init__(self, inner, cards, probe_trick):
        self.inner, self.cards, self.probe_trick = inner, cards, probe_trick

    def exchange(self, view):
        return self.inner.exchange(view)

    def declare_espagnolette(self, view):
        return False

    def espagnolette_goal(self, view):
        return "lose_all"

    def play(self, view, legal):
        if view.trick_index < self.probe_trick:
            return self.cards[view.trick_index]
        raise _Decided(self.inner.play(view, legal))


class _Script:
    def __init__(self, cards):
        self.cards = cards

    def exchange(self, view):
        return None

    def declare_espagnolette(self, view):
        return False

    def espagnolette_goal(self, view):
        return "lose_all"

    def play(self, view, legal):
        return self.cards[view.trick_index]


def _decision(rules, hands, dealer, probe_seat, probe_trick, cards_by_seat, spec):
    policies = [_Probe(make_policy(spec), cards_by_seat[s], probe_trick) if s == probe_seat
                else _Script(cards_by_seat[s]) for s in range(rules.n_seats)]
    layout = reference.Layout([sorted(h) for h in hands], [None] * rules.n_seats)
    with pytest.raises(_Decided) as got:
        reference.play_deal(rules, policies, dealer=dealer, layout=layout)
    return got.value.card


@pytest.mark.parametrize("preset", ["parlett_52", "modern"])
@pytest.mark.parametrize("spec", ["avoid", "hunter", "bold", "lowest", "search:worlds=3,margin=0,start=0",
                                  "search:worlds=3,margin=0,start=0,infer=rollout,pool=2"])
def test_a_decision_ignores_how_the_hidden_cards_lie(preset, spec):
    """Reshuffle the other seats' unplayed cards among them, keeping each seat's count and every void it has
    shown: the probed seat's decision must not change (no-talon presets, so every card is in a hand)."""
    rules = PRESETS[preset]
    rng = random.Random(7)
    seats = parse_seats([spec])
    probes = 0
    for match in range(3):
        for rec in reference.play_match(rules, seats, seed=11, match=match, n_deals=4):
            if rec["espagnolette"] is not None:
                continue  # a declarer's renounces show no voids; keep the reshuffle simple
            hands = [[C.parse(c) for c in h] for h in rec["hands"]]
            order_cards = [[None] * rules.n_tricks for _ in range(rules.n_seats)]
            for t, trick in enumerate(rec["tricks"]):
                seat = trick["leader"]
                for card in trick["cards"]:
                    order_cards[seat][t] = C.parse(card)
                    seat = (seat + 1) % rules.n_seats
            for probe_trick, position in ((1, 0), (3, 1), (5, 2), (7, 3), (9, 0)):
                trick = rec["tricks"][probe_trick]
                probe_seat = (trick["leader"] + position) % rules.n_seats
                played_before = {order_cards[s][t] for s in range(rules.n_seats) for t in range(probe_trick)}
                played_before |= {C.parse(c) for c in trick["cards"][:position]}
                voids = [set() for _ in range(rules.n_seats)]
                for t in range(probe_trick + 1):  # the tricks before, and the cards of this one before the probe
                    tr = rec["tricks"][t]
                    led = C.suit_of(C.parse(tr["cards"][0]))
                    seat = tr["leader"]
                    for card in tr["cards"][: position if t == probe_trick else None]:
                        if C.suit_of(C.parse(card)) != led:
                            voids[seat].add(led)
                        seat = (seat + 1) % rules.n_seats
                others = [s for s in range(rules.n_seats) if s != probe_seat]
                want = _decision(rules, hands, rec["dealer"], probe_seat, probe_trick, order_cards, spec)
                for _ in range(3):
                    new_hands = _reshuffle(hands, others, played_before, voids, rng)
                    if new_hands is None:
                        continue
                    # the other seats still play the same cards before the probe (they are public)
                    assert _decision(rules, new_hands, rec["dealer"], probe_seat, probe_trick, order_cards,
                                     spec) == want
                    probes += 1
    assert probes >= 60


def _reshuffle(hands, others, public, voids, rng, tries=200):
    """The other seats' hidden cards dealt anew among them: same counts, no card of a suit a seat showed void."""
    hidden = [c for s in others for c in hands[s] if c not in public]
    for _ in range(tries):
        rng.shuffle(hidden)
        new = [list(h) for h in hands]
        pos, ok = 0, True
        for s in others:
            keep = [c for c in hands[s] if c in public]
            n = len(hands[s]) - len(keep)
            take = hidden[pos:pos + n]
            pos += n
            if any(C.suit_of(c) in voids[s] for c in take):
                ok = False
                break
            new[s] = keep + take
        if ok and new != hands:
            return new
    return None


def test_a_preset_is_shown_by_its_name_and_anything_else_by_its_spec():
    """What is printed and drawn names a preset as a person typed it (``tuned``, not its eleven parameters); a
    family's defaults by the family, another spec by itself; two presets that are one player by the first name."""
    from reversis_sim.policies import display_name

    for name in NAMED:
        shown = display_name(parse_spec(name).text)
        assert parse_spec(shown) == parse_spec(name), (name, shown)  # always the same player
        assert shown == name or shown in FAMILIES or list(NAMED).index(shown) < list(NAMED).index(name), name
    assert display_name(parse_spec("tuned").text) == "tuned" and display_name("lowest") == "lowest"
    assert display_name("avoid:take=3") == "avoid:take=3"
