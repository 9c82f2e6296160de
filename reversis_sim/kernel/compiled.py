"""A :class:`~reversis_sim.rules.Rules` turned into flat numpy arrays for the kernels.

Kernels never see the dataclass: :func:`compile_rules` gives

- ``params``: an ``int64`` vector, one entry per rule value, indexed by the constants below (``P_*``); choices
  given as strings in :class:`Rules` become small integer codes (``TALON_*``, ``PAYERS_*``, ``SCORING_*``) or 0/1
  flags;
- ``tables``: an ``int64`` array ``(4, 64)`` indexed by card code: ``T_STRENGTH`` (playing strength within a suit,
  -1 for cards not in the deck), ``T_TRICK_POINTS``, ``T_TALON_POINTS``, ``T_ABOVE`` (the mask of the cards of the
  deck in the card's suit that beat it: a learned player counts the unseen ones with one popcount);
- ``deck``: the ``int64`` card codes of the deck in ascending order (what :func:`reversis_sim.keys.shuffled`
  shuffles).

The constants are module globals, so numba freezes them into the compiled code.

Every preset is one parameter vector of the same kernels (DESIGN.md decision 3). The differences that choose a
branch rather than an amount:

- ``P_SCORING`` picks the settlement (:mod:`.payments`): ``party`` (the parlett family, ``pierer``), ``penalty``
  (the ``modern`` family: penalty fiches, the Quinola surcharge, the bête, the pot), ``bank`` (``serbian``), ``simple``
  (``parlett_simple``: running scores; the match stops at ``P_TARGET_TOTAL``, :mod:`.match`);
- ``P_N_SEATS``: five seats with the dealer sitting out (``modern_five``; ``P_SIT_OUT`` records it, and
  :func:`check_engine_supported` makes it the only five-seat table); a deal always has four seats taking part, so
  a trick always has four cards (:func:`.payments.seat_of` skips the dealer). The wrappers also pass the table
  (``n_seats``, ``sit_out``) to the match kernels as literal constants: one compiled specialization per table
  (:func:`.match.play_matches_nb`, :func:`.deal.play_deal`);
- ``P_TALON``: none (``modern``, ``*_52``), the optional blind exchange (parlett family), or take-then-discard
  (``serbian``, every seat must discard);
- ``P_POOL_PERSISTS``, ``P_DOUBLE_ANTE``: what the match loop carries from one deal to the next;
- ``P_ESP_GOAL``: the declarer names a goal (``modern``), drawn at decision index ``GOAL``;
- the strength table carries the rank orders (ace low in ``modern``, the J♥ top of hearts in ``serbian``), the point
  tables the card values (``serbian``'s A♦ 5, J♥ 4; ``pierer``'s talon values).
"""

from __future__ import annotations

from collections import namedtuple
from dataclasses import dataclass

import numpy as np

from .. import cards as C
from ..game import REASONS
from ..rules import SCORINGS, TALON_MODES, Rules, RulesError

MAX_SEATS = 5  # seats at the largest table (``modern_five``): the length of every per-seat array of the kernels
N_ACTIVE = 4  # seats taking part in a deal: every trick has four cards (the fifth seat, the dealer, sits out)
POOL = MAX_SEATS  # payer/payee code of the pool in ledger rows (never a seat number)
MAX_TRICKS = 13
MAX_LEDGER = 96  # payment rows per deal; no preset writes more than 45 (see layout.py)
MAX_CLAIMS = 8  # led Aces and Quinola claims per deal (at most 5)

# --- params indices --------------------------------------------------------------------------------------------
P_HAND_SIZE = 0  # also the number of tricks
P_DEALER_EXTRA = 1
P_TALON = 2  # TALON_NONE | TALON_BLIND | TALON_TAKE
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
P_OPPOSITE_FACTOR = 22  # 1 at a five-seat table (nobody sits opposite, F0.2)
P_LAST_TRICKS_COUNT = 23
P_LAST_TRICKS_FACTOR = 24
P_PARTY_BONUS = 25
P_PARTY_PAYERS = 26  # PAYERS_EACH_OTHER | PAYERS_LOSER_ONLY | PAYERS_NONE
P_PARTY_OPPOSITE_FACTOR = 27  # 1 at a five-seat table
P_SCORING = 28  # SCORING_PARTY | SCORING_PENALTY | SCORING_BANK | SCORING_SIMPLE: which settlement runs
P_N_SEATS = 29  # 4, or 5 (then the dealer sits out: check_engine_supported)
P_SIT_OUT = 30  # the dealer sits out (modern_five; implied by P_N_SEATS == 5, which the kernels use)
P_POOL_PERSISTS = 31  # the pool carries to the next deal (else every deal starts at 0, F0.7)
P_REVERSIS = 32
P_COMMIT_AFTER = 33
P_ROLLBACK_SIDE = 34
P_ROLLBACK_POOL = 35
P_ROLLBACK_CLAIMS = 36
P_REV_NEIGHBOUR = 37
P_REV_OPPOSITE = 38  # = P_REV_NEIGHBOUR at a five-seat table
P_REV_EACH_OPPONENT = 39  # penalty scoring (modern family): made reversis, from each opponent
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
P_DOUBLE_ANTE = 56  # serbian (F3.3): every-deal antes doubled after a deal with a J♥ placement
P_REV_BROKEN_EACH_OPPONENT = 57  # penalty scoring: a broken reversis pays each opponent
P_ESP_EACH_OPPONENT = 58  # penalty scoring: made/failed espagnolette, from/to each opponent
P_ESP_GOAL = 59  # the declarer names a goal, lose_all or win_all (modern family)
P_BETE = 60  # penalty and bank scoring: the bête pays the deal winner this
P_BETE_SHARE = 61  # of which this goes to the sitting-out dealer (0 unless the dealer sits out, F1.6)
P_WINNER_TAKES_POOL = 62  # penalty scoring: the deal winner takes the pot (not modern_partie)
P_Q_CAPTURE_SURCHARGE = 63  # penalty scoring: the J♥ captured costs its taker the pot + this, into the pot
P_PLACEMENT_IS_CAPTURE = 64  # modern_simple: a placed J♥ counts as captured
P_SIMPLE_Q_EXTRA = 65  # simple scoring: taking the J♥ scores this on top of its point
P_TARGET_TOTAL = 66  # simple scoring: the match ends after the deal in which a running total reaches this
P_TIE_POS = 67  # 67..71: position in the tie order of the seat at offset k from the dealer (smaller wins)
P_REV_PLUS_POOL = 72  # a made reversis also takes the pool (modern, serbian)
P_PENALTY_TO_POOL = 73  # penalty scoring: card points are paid into the pot as penalty fiches (A18)
P_ESP_REVERSIS_EXTRA = 74  # bank scoring: a declarer pays the maker of a made reversis this more (F3.7)
N_PARAMS = P_ESP_REVERSIS_EXTRA + 1

TALON_NONE, TALON_BLIND, TALON_TAKE = 0, 1, 2  # rules.TALON_MODES: none, optional_blind_exchange, take_then_discard
PAYERS_EACH_OTHER, PAYERS_LOSER_ONLY, PAYERS_NONE = 0, 1, 2
SCORING_PARTY, SCORING_PENALTY, SCORING_BANK, SCORING_SIMPLE = 0, 1, 2, 3  # the index in rules.SCORINGS
NOT_RANKED = 99  # tie position of the sitting-out dealer (never ranked)

T_STRENGTH, T_TRICK_POINTS, T_TALON_POINTS, T_ABOVE = 0, 1, 2, 3

#: payment reason codes: the index in reversis_sim.game.REASONS
R_ANTE = REASONS.index("ante")
R_ACE_DUMPED = REASONS.index("ace_dumped")
R_ACE_FORCED = REASONS.index("ace_forced")
R_ACE_LED = REASONS.index("ace_led")
R_Q_DUMPED = REASONS.index("quinola_dumped")
R_Q_FORCED = REASONS.index("quinola_forced")
R_Q_LED = REASONS.index("quinola_led")
R_POOL_DOUBLE = REASONS.index("pool_double")
R_POOL_WON = REASONS.index("pool_won")
R_PARTY = REASONS.index("party")
R_REVERSIS_MADE = REASONS.index("reversis_made")
R_REVERSIS_BROKEN = REASONS.index("reversis_broken")
R_RETURN = REASONS.index("return")
R_Q_CAPTURED = REASONS.index("quinola_captured")
R_PENALTY = REASONS.index("penalty")
R_BETE = REASONS.index("bete")
R_BETE_SHARE = REASONS.index("bete_share")
R_POOL_TO_WINNER = REASONS.index("pool_to_winner")
R_REVERSIS_POOL = REASONS.index("reversis_pool")
R_ESP_MADE = REASONS.index("espagnolette_made")
R_ESP_POOL = REASONS.index("espagnolette_pool")
R_ESP_FAILED = REASONS.index("espagnolette_failed")
R_ESP_REVERSIS = REASONS.index("espagnolette_reversis")
R_BANK_DOUBLE = REASONS.index("bank_double")


NOT_COMPILED = {
    "source": "where the rule set comes from: a description",
    "match_deals": "the length of a match is an argument of the match kernels (play_matches' match_deals)",
    "start_chips": "reported only; play never stops for lack of chips",
    "espagnolette_success": "implied by the scoring family (validated in Rules): zero tricks (R40), the declared "
                            "goal (F1.4), or being the deal winner under bank scoring (A29)",
}
"""The :class:`~reversis_sim.rules.Rules` fields :func:`compile_rules` does not read, and why; every other field is
read (``tests/test_rules.py`` checks both ways)."""


@dataclass(frozen=True)
class CompiledRules:
    """The kernel form of a rule set (see the module docstring)."""

    name: str
    params: np.ndarray  # int64 (N_PARAMS,)
    tables: np.ndarray  # int64 (4, 64)
    deck: np.ndarray  # int64 (n_deck,)

    @property
    def arrays(self) -> RulesArrays:
        """The three arrays as the kernels take them, one argument."""
        return RulesArrays(self.params, self.tables, self.deck)


RulesArrays = namedtuple("RulesArrays", "P tables deck")
"""A rule set as the kernels take it: ``P`` (the parameters, ``P_*``), ``tables`` (``T_*`` by card code) and
``deck`` (the card codes of the deck), :class:`CompiledRules`'s arrays."""


def check_engine_supported(rules: Rules) -> None:
    """Refuse, in one sentence, a rule set the numba engine cannot play.

    Every preset plays (each rule difference is a parameter, :func:`compile_rules`). What remains refused are
    shapes the kernels' fixed arrays do not hold: a deal must have exactly four seats taking part (four seats, or
    five with the dealer sitting out), and at most ``MAX_TRICKS`` tricks.
    """
    n_active = rules.n_seats - (1 if rules.dealer_sits_out else 0)
    if rules.n_seats > MAX_SEATS or n_active != N_ACTIVE:
        raise RulesError(f"rules {rules.name!r} have {rules.n_seats} seats with {n_active} taking part in a deal; "
                         f"the numba engine plays deals of four (five seats only with the dealer sitting out)")
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
    four = r.n_seats == 4  # F0.2: seats sit opposite only at a four-seat table; elsewhere every factor is 1
    p = np.zeros(N_PARAMS, dtype=np.int64)
    p[P_HAND_SIZE] = r.hand_size
    p[P_DEALER_EXTRA] = r.dealer_extra_card
    p[P_TALON] = TALON_MODES.index(r.talon_mode)
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
    p[P_OPPOSITE_FACTOR] = r.opposite_factor if four else 1
    p[P_LAST_TRICKS_COUNT] = r.last_tricks_count
    p[P_LAST_TRICKS_FACTOR] = r.last_tricks_factor
    p[P_PARTY_BONUS] = r.party_bonus
    p[P_PARTY_PAYERS] = ("each_other", "loser_only", "none").index(r.party_payers)
    p[P_PARTY_OPPOSITE_FACTOR] = r.party_opposite_factor if four else 1
    p[P_SCORING] = SCORINGS.index(r.scoring)
    p[P_N_SEATS] = r.n_seats
    p[P_SIT_OUT] = r.dealer_sits_out
    p[P_POOL_PERSISTS] = r.pool_persists
    for k in range(MAX_SEATS):
        p[P_TIE_POS + k] = r.tie_offsets.index(k) if k in r.tie_offsets else NOT_RANKED
    p[P_REVERSIS] = r.reversis_enabled
    p[P_COMMIT_AFTER] = r.reversis_commit_after
    p[P_ROLLBACK_SIDE] = "side_payments" in r.reversis_rollback
    p[P_ROLLBACK_POOL] = "pool" in r.reversis_rollback
    p[P_ROLLBACK_CLAIMS] = "led_claims" in r.reversis_rollback
    p[P_REV_NEIGHBOUR] = r.reversis_neighbour
    p[P_REV_OPPOSITE] = r.reversis_opposite if four else r.reversis_neighbour
    p[P_REV_EACH_OPPONENT] = r.reversis_each_opponent
    p[P_REV_BROKEN_EACH_OPPONENT] = r.reversis_broken_each_opponent
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
    p[P_ESP_EACH_OPPONENT] = r.espagnolette_each_opponent
    p[P_ESP_GOAL] = r.espagnolette_goal_choice
    p[P_DEALER_STEP] = r.dealer_step
    p[P_N_DECK] = len(r.tables.deck)
    p[P_DECK_MASK] = C.mask(r.tables.deck)
    p[P_REV_BROKEN_PAYS_POOL] = r.reversis_broken_pays_pool
    p[P_DECLARER_CAN_COMMIT] = r.declarer_can_commit
    p[P_Q_FORCED_PLUS_POOL] = r.quinola_forced_plus_pool
    p[P_DOUBLE_ANTE] = r.double_ante_after_placement
    p[P_BETE] = r.bete_payment
    p[P_BETE_SHARE] = r.bete_dealer_share if r.dealer_sits_out else 0
    p[P_WINNER_TAKES_POOL] = r.winner_takes_pool
    p[P_Q_CAPTURE_SURCHARGE] = r.quinola_capture_surcharge
    p[P_PLACEMENT_IS_CAPTURE] = r.placement_is_capture
    p[P_SIMPLE_Q_EXTRA] = r.simple_quinola_extra
    p[P_TARGET_TOTAL] = r.target_total
    p[P_REV_PLUS_POOL] = r.reversis_plus_pool
    p[P_PENALTY_TO_POOL] = r.penalty_to_pool
    p[P_ESP_REVERSIS_EXTRA] = r.espagnolette_reversis_extra

    t = r.tables
    above = [sum(1 << x for x in t.deck if x >> 4 == c >> 4 and t.strength[x] > t.strength[c]) if c in t.deck else 0
             for c in range(C.N_CARD_CODES)]
    tables = np.array([t.strength, t.trick_points, t.talon_points, above], dtype=np.int64)
    deck = np.array(t.deck, dtype=np.int64)
    assert tables.shape == (4, C.N_CARD_CODES)
    return CompiledRules(r.name, p, tables, deck)
