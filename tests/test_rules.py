import dataclasses

import pytest

from reversis_sim import cards as C
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
