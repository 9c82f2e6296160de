"""A :class:`~reversis_sim.rules.Rules` turned into flat numpy arrays for the kernels.

Kernels never see the dataclass: :func:`compile_rules` gives

- ``params``: an ``int64`` vector, one entry per rule value, indexed by the constants below (``P_*``); choices
  given as strings in :class:`Rules` become small integer codes (``TALON_*``, ``PAYERS_*``) or 0/1 flags;
- ``tables``: an ``int64`` array ``(3, 64)`` indexed by card code: ``T_STRENGTH`` (playing strength within a suit,
  -1 for cards not in the deck), ``T_TRICK_POINTS``, ``T_TALON_POINTS``;
- ``deck``: the ``int64`` card codes of the deck in ascending order (what :func:`reversis_sim.keys.shuffled`
  shuffles).

The constants are module globals, so numba freezes them into the compiled code.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .. import cards as C
from .. import reference
from ..rules import Rules, RulesError

N_SEATS = 4  # the engine plays four-seat tables (every preset it accepts has four seats)
POOL = 4  # payer/payee code of the pool in ledger rows
MAX_TRICKS = 13
MAX_LEDGER = 96  # payment rows per deal; the parlett family writes at most 45 (see layout.py)
MAX_CLAIMS = 8  # led Aces and Quinola claims per deal (at most 5)

# --- params indices --------------------------------------------------------------------------------------------
P_HAND_SIZE = 0  # also the number of tricks
P_DEALER_EXTRA = 1
P_TALON = 2  # TALON_NONE | TALON_BLIND
P_FIRST_LEAD_HEART = 3
P_RESTAKE_BELOW = 4
P_RESTAKE_EACH = 5
P_RESTAKE_DEALER = 6
P_EVERY_EACH = 7
P_EVERY_DEALER = 8
P_ACE_DUMPED = 9  # the three amounts of each kind: dumped, forced, led (kind = K_ACE, K_ACE_D, K_QUINOLA)
P_ACE_FORCED = 10
P_ACE_LED = 11
P_ACE_D_DUMPED = 12
P_ACE_D_FORCED = 13
P_ACE_D_LED = 14
P_Q_DUMPED = 15
P_Q_FORCED = 16
P_Q_LED = 17
P_Q_FORCED_EACH_OTHER = 18
P_Q_POOL_DUMPED_WINS = 19
P_Q_POOL_FORCED_DOUBLES = 20
P_Q_POOL_LED_DOUBLES = 21
P_OPPOSITE_FACTOR = 22
P_LAST_TRICKS_COUNT = 23
P_LAST_TRICKS_FACTOR = 24
P_PARTY_BONUS = 25
P_PARTY_PAYERS = 26  # PAYERS_EACH_OTHER | PAYERS_LOSER_ONLY | PAYERS_NONE
P_PARTY_OPPOSITE_FACTOR = 27
P_TIE_POS = 28  # 28..31: position in the tie order of the seat at offset k from the dealer (smaller wins)
P_REVERSIS = 32
P_COMMIT_AFTER = 33
P_ROLLBACK_SIDE = 34
P_ROLLBACK_POOL = 35
P_ROLLBACK_CLAIMS = 36
P_REV_NEIGHBOUR = 37
P_REV_OPPOSITE = 38
P_REV_EACH_OPPONENT = 39  # the party scoring does not use it (modern family)
P_REV_TO_BREAKER = 40
P_CANCEL_PARTY = 41
P_ESP = 42
P_ESP_FOUR_ACES = 43
P_ESP_JH_THREE_ACES = 44
P_ESP_FOUR_ACES_JH = 45
P_ESP_THREE_ACES_KING = 46
P_ESP_RENOUNCE = 47
P_ESP_RETURN_FACTOR = 48
P_ESP_POOL_RETURN_FACTOR = 49
P_DEALER_STEP = 50
P_N_DECK = 51
P_REV_BROKEN_PAYS_POOL = 52
P_DECLARER_CAN_COMMIT = 53
P_Q_FORCED_PLUS_POOL = 54
P_DECK_MASK = 55  # every card of the deck as a mask (card codes stay below 61, so it fits an int64)
N_PARAMS = 56

TALON_NONE, TALON_BLIND = 0, 1
PAYERS_EACH_OTHER, PAYERS_LOSER_ONLY, PAYERS_NONE = 0, 1, 2

T_STRENGTH, T_TRICK_POINTS, T_TALON_POINTS = 0, 1, 2

#: payment reason codes: the index in reference.REASONS
R_ANTE = reference.REASONS.index("ante")
R_ACE_DUMPED = reference.REASONS.index("ace_dumped")
R_ACE_FORCED = reference.REASONS.index("ace_forced")
R_ACE_LED = reference.REASONS.index("ace_led")
R_Q_DUMPED = reference.REASONS.index("quinola_dumped")
R_Q_FORCED = reference.REASONS.index("quinola_forced")
R_Q_LED = reference.REASONS.index("quinola_led")
R_POOL_DOUBLE = reference.REASONS.index("pool_double")
R_POOL_WON = reference.REASONS.index("pool_won")
R_PARTY = reference.REASONS.index("party")
R_REVERSIS_MADE = reference.REASONS.index("reversis_made")
R_REVERSIS_BROKEN = reference.REASONS.index("reversis_broken")
R_RETURN = reference.REASONS.index("return")


@dataclass(frozen=True)
class CompiledRules:
    """The kernel form of a rule set (see the module docstring)."""

    name: str
    params: np.ndarray  # int64 (N_PARAMS,)
    tables: np.ndarray  # int64 (3, 64)
    deck: np.ndarray  # int64 (n_deck,)


def check_engine_supported(rules: Rules) -> None:
    """Refuse, in one sentence, a rule set the numba engine does not play (the reference's list, plus seats)."""
    reference.check_supported(rules)
    if rules.n_seats != N_SEATS:
        raise RulesError(f"rules {rules.name!r} have {rules.n_seats} seats; the numba engine plays 4")
    if rules.hand_size > MAX_TRICKS:
        raise RulesError(f"rules {rules.name!r}: hand_size {rules.hand_size} is over the engine's {MAX_TRICKS}")


def engine_plays(rules: Rules) -> bool:
    """Whether the numba engine plays ``rules`` (see :func:`check_engine_supported`)."""
    try:
        check_engine_supported(rules)
    except RulesError:
        return False
    return True


def compile_rules(rules: Rules) -> CompiledRules:
    """The flat arrays of ``rules`` (validated with :func:`check_engine_supported`)."""
    check_engine_supported(rules)
    r = rules
    p = np.zeros(N_PARAMS, dtype=np.int64)
    p[P_HAND_SIZE] = r.hand_size
    p[P_DEALER_EXTRA] = r.dealer_extra_card
    p[P_TALON] = TALON_NONE if r.talon_mode == "none" else TALON_BLIND
    p[P_FIRST_LEAD_HEART] = r.first_lead_rule == "heart_if_able"
    p[P_RESTAKE_BELOW] = r.restake_below
    p[P_RESTAKE_EACH] = r.restake_each
    p[P_RESTAKE_DEALER] = r.restake_dealer
    p[P_EVERY_EACH] = r.every_each
    p[P_EVERY_DEALER] = r.every_dealer
    p[P_ACE_DUMPED], p[P_ACE_FORCED], p[P_ACE_LED] = r.ace_dumped, r.ace_forced, r.ace_led
    p[P_ACE_D_DUMPED], p[P_ACE_D_FORCED], p[P_ACE_D_LED] = (r.ace_diamond_dumped, r.ace_diamond_forced,
                                                          r.ace_diamond_led)
    p[P_Q_DUMPED], p[P_Q_FORCED], p[P_Q_LED] = r.quinola_dumped, r.quinola_forced_holder, r.quinola_led_holder
    p[P_Q_FORCED_EACH_OTHER] = r.quinola_forced_each_other
    p[P_Q_POOL_DUMPED_WINS] = r.quinola_pool_dumped == "win_pool"
    p[P_Q_POOL_FORCED_DOUBLES] = r.quinola_pool_forced == "double_pool"
    p[P_Q_POOL_LED_DOUBLES] = r.quinola_pool_led == "double_pool"
    p[P_OPPOSITE_FACTOR] = r.opposite_factor
    p[P_LAST_TRICKS_COUNT] = r.last_tricks_count
    p[P_LAST_TRICKS_FACTOR] = r.last_tricks_factor
    p[P_PARTY_BONUS] = r.party_bonus
    p[P_PARTY_PAYERS] = ("each_other", "loser_only", "none").index(r.party_payers)
    p[P_PARTY_OPPOSITE_FACTOR] = r.party_opposite_factor
    for k in range(N_SEATS):
        p[P_TIE_POS + k] = r.tie_offsets.index(k)
    p[P_REVERSIS] = r.reversis_enabled
    p[P_COMMIT_AFTER] = r.reversis_commit_after
    p[P_ROLLBACK_SIDE] = "side_payments" in r.reversis_rollback
    p[P_ROLLBACK_POOL] = "pool" in r.reversis_rollback
    p[P_ROLLBACK_CLAIMS] = "led_claims" in r.reversis_rollback
    p[P_REV_NEIGHBOUR] = r.reversis_neighbour
    p[P_REV_OPPOSITE] = r.reversis_opposite
    p[P_REV_EACH_OPPONENT] = r.reversis_each_opponent
    p[P_REV_TO_BREAKER] = r.reversis_to_breaker
    p[P_CANCEL_PARTY] = r.cancel_party_on_success
    p[P_ESP] = r.espagnolette_enabled
    p[P_ESP_FOUR_ACES] = "four_aces" in r.espagnolette_hands
    p[P_ESP_JH_THREE_ACES] = "JH_plus_three_aces" in r.espagnolette_hands
    p[P_ESP_FOUR_ACES_JH] = "four_aces_plus_JH" in r.espagnolette_hands
    p[P_ESP_THREE_ACES_KING] = "three_aces_plus_king" in r.espagnolette_hands
    p[P_ESP_RENOUNCE] = r.espagnolette_renounce_tricks
    p[P_ESP_RETURN_FACTOR] = r.espagnolette_return_factor
    p[P_ESP_POOL_RETURN_FACTOR] = r.espagnolette_pool_return_factor
    p[P_DEALER_STEP] = r.dealer_step
    p[P_N_DECK] = len(r.tables.deck)
    p[P_DECK_MASK] = C.mask(r.tables.deck)
    p[P_REV_BROKEN_PAYS_POOL] = r.reversis_broken_pays_pool
    p[P_DECLARER_CAN_COMMIT] = r.declarer_can_commit
    p[P_Q_FORCED_PLUS_POOL] = r.quinola_forced_plus_pool

    t = r.tables
    tables = np.array([t.strength, t.trick_points, t.talon_points], dtype=np.int64)
    deck = np.array(t.deck, dtype=np.int64)
    assert tables.shape == (3, C.N_CARD_CODES)
    return CompiledRules(r.name, p, tables, deck)
