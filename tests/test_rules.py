import dataclasses
import functools

import numpy as np
import pytest

from reversis_sim import cards as C
from reversis_sim.overrides import label, with_overrides
from reversis_sim.rules import PARLETT, PRESETS, Rules, RulesError, get_preset


def test_parlett_tables_follow_r6_r7():
    t = PARLETT.tables
    assert len(t.deck) == 48
    assert sum(t.trick_points[c] for c in t.deck) == 40  # R7: 40 points in the pack
    spades = sorted((c for c in t.deck if C.suit_of(c) == C.SPADES), key=lambda c: -t.strength[c])
    assert C.names(spades) == ["AS", "KS", "QS", "JS", "9S", "8S", "7S", "6S", "5S", "4S", "3S", "2S"]  # R6
    assert t.trick_points[C.QUINOLA] == 1 and t.trick_points[C.ACE_OF_DIAMONDS] == 4


def test_every_field_is_documented_and_in_the_record_params():
    params = PARLETT.to_params()
    for f in dataclasses.fields(Rules):
        if f.name not in ("name", "source"):
            assert f.name in params


@pytest.mark.parametrize("change,message", [
    ({"n_seats": 3}, "n_seats"),
    ({"talon_mode": "magic"}, "talon_mode"),
    ({"party_payers": "nobody"}, "party_payers"),
    ({"tie_order": (0, 1, 1, 3)}, "tie_order"),
    ({"ranks": "AKQ"}, "ranks must include"),
    ({"hand_size": 13}, "need more than"),
    ({"ace_dumped": -1}, "must not be negative"),
    ({"espagnolette_hands": ("five_aces",)}, "espagnolette_hands"),
])
def test_invalid_rules_are_rejected_with_the_field_named(change, message):
    with pytest.raises(RulesError, match=message):
        PARLETT.replace(**change)


def test_unknown_preset_lists_the_valid_ones():
    with pytest.raises(RulesError, match="valid presets: .*parlett"):
        get_preset("hoyle")


def test_presets_are_parlett_plus_their_documented_differences():
    assert PRESETS["parlett_penguin"].party_payers == "loser_only"
    assert PRESETS["parlett_penguin"].tie_offsets == (0, 3, 2, 1)
    assert not PRESETS["parlett_no_espagnolette"].espagnolette_enabled
    p52 = PRESETS["parlett_52"]
    assert (p52.hand_size, p52.talon_mode, p52.reversis_commit_after, len(p52.tables.deck)) == (13, "none", 11, 52)


# ----------------------------------------------------------------------------------------------------------------
# Rules travel whole: every field reaches the kernels, overrides, manifests


class _Recorder:
    """A stand-in for a Rules value that records every field read (properties and methods run on the recorder)."""

    def __init__(self, rules):
        object.__setattr__(self, "_rules", rules)
        object.__setattr__(self, "read", set())

    def __getattr__(self, name):
        attr = getattr(type(self._rules), name, None)
        if isinstance(attr, property):
            return attr.fget(self)
        if isinstance(attr, functools.cached_property):
            return attr.func(self)
        if callable(attr):
            return functools.partial(attr, self)
        self.read.add(name)
        return getattr(self._rules, name)


def test_every_rules_field_is_read_by_the_kernel_compiler_or_marked_as_not_used_by_it():
    from reversis_sim.kernel.compiled import NOT_COMPILED, compile_rules

    fields = {f.name for f in dataclasses.fields(Rules)}
    read = set()
    for rules in PRESETS.values():
        recorder = _Recorder(rules)
        compile_rules(recorder)
        read |= recorder.read
    assert set(NOT_COMPILED) <= fields, set(NOT_COMPILED) - fields
    assert not read & set(NOT_COMPILED), f"marked as not compiled but read: {read & set(NOT_COMPILED)}"
    assert read | set(NOT_COMPILED) == fields, f"neither compiled nor marked: {fields - read - set(NOT_COMPILED)}"


def test_a_changed_field_changes_the_compiled_rules():
    """A field the compiler reads moves its arrays (so a --rule override reaches the kernels)."""
    from reversis_sim.kernel.compiled import compile_rules

    base = compile_rules(PARLETT)
    for change in ({"party_bonus": 40}, {"espagnolette_reversis_extra": 3}, {"reversis_plus_pool": True},
                   {"trick_point_overrides": (("AD", 5),)}, {"tie_order": (0, -1, -2, -3)}):
        other = compile_rules(PARLETT.replace(**change))
        assert not (np.array_equal(base.params, other.params) and np.array_equal(base.tables, other.tables)), change


def test_from_params_inverts_to_params_for_every_preset_and_override():
    for name, rules in PRESETS.items():
        assert Rules.from_params(name, rules.to_params()) == rules
    changed = with_overrides(PARLETT, ["party_bonus=40", "tie_order=0,-1,-2,-3", "trick_point_overrides=AD:5,JH:4"])
    assert Rules.from_params("parlett", changed.to_params()) == changed
    old = PRESETS["serbian"].to_params()
    del old["espagnolette_reversis_extra"]  # a manifest written before the field existed: the preset's value
    assert Rules.from_params("serbian", old).espagnolette_reversis_extra == 2
    with pytest.raises(RulesError, match="unknown parameter"):
        Rules.from_params("parlett", {**PARLETT.to_params(), "bogus": 1})


@pytest.mark.parametrize("overrides,check", [
    (["party_bonus=40"], lambda r: r.party_bonus == 40),
    (["espagnolette_enabled=false", "tie_order=0,-1,-2,-3"], lambda r: not r.espagnolette_enabled
     and r.tie_order == (0, -1, -2, -3)),
    (["trick_point_overrides=AD:5,JH:4"], lambda r: r.tables.trick_points[C.ACE_OF_DIAMONDS] == 5),
    (["espagnolette_hands=four_aces"], lambda r: r.espagnolette_hands == ("four_aces",)),
    (["special_rank=JH_top_of_hearts"], lambda r: r.tables.strength[C.QUINOLA] > r.tables.strength[C.parse("AH")]),
])
def test_overrides_set_fields_of_their_type(overrides, check):
    rules = with_overrides(PARLETT, overrides)
    assert check(rules) and rules.name == "parlett"
    assert label("parlett", rules.to_params()).startswith("parlett with ")


@pytest.mark.parametrize("overrides,message", [
    (["party_bonus"], "is not NAME=VALUE"),
    (["party_bonu=40"], "no rule parameter 'party_bonu'; did you mean party_bonus"),
    (["party_bonus=forty"], "'forty' is not a whole number"),
    (["party_bonus=-1"], "party_bonus must not be negative"),
    (["party_bonus=1", "party_bonus=2"], "party_bonus is given twice"),
    (["espagnolette_enabled=maybe"], "expected true or false"),
    (["scoring=bank"], "espagnolette_success is_deal_winner goes with bank scoring"),
    (["name=mine"], "no rule parameter 'name'"),
    (["quinola_dumped=4611686018427387904"], "quinola_dumped is 4,611,686,018,427,387,904: a stake or payment is at "
                                             "most 1,000,000 fish"),
    (["opposite_factor=5"], "opposite_factor is 5: a multiplier is at most 4"),
    (["talon_point_overrides=AD:2000000"], "the points of AD must be a whole number 0 to 1,000,000"),
])
def test_bad_overrides_are_refused_in_one_sentence(overrides, message):
    with pytest.raises(RulesError, match=message):
        with_overrides(PARLETT, overrides)


def test_every_whole_number_rule_is_bounded_so_that_no_deal_can_overflow():
    """Every int field of the rules is a counted thing (NOT_AMOUNTS), a multiplier (FACTORS) or an amount of fish,
    and the bounds hold at their largest: the largest amount and multiplier are accepted, one more is refused."""
    import dataclasses

    from reversis_sim.rules import FACTORS, MAX_AMOUNT, MAX_FACTOR, NOT_AMOUNTS

    ints = [f.name for f in dataclasses.fields(PARLETT) if f.type == "int"]
    assert set(FACTORS) <= set(ints) and set(NOT_AMOUNTS) <= set(ints)
    amounts = [n for n in ints if n not in FACTORS and n not in NOT_AMOUNTS]
    assert {"quinola_dumped", "reversis_to_breaker", "party_bonus", "bete_payment"} <= set(amounts)
    for name in amounts:
        PARLETT.replace(**{name: MAX_AMOUNT})
        with pytest.raises(RulesError, match=f"{name} is {MAX_AMOUNT + 1:,}"):
            PARLETT.replace(**{name: MAX_AMOUNT + 1})
    for name in FACTORS:
        PARLETT.replace(**{name: MAX_FACTOR})
        with pytest.raises(RulesError, match="a multiplier is at most"):
            PARLETT.replace(**{name: MAX_FACTOR + 1})
