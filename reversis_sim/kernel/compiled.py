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

Every preset is one parameter vector of the same kernels (a rule difference is a parameter, never a fork of the deal
loop). The differences that choose a branch rather than an amount:

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

TALON_NONE, TALON_BLIND, TALON_TAKE = 0, 1, 2  # rules.TALON_MODES: none, optional_blind_exchange, take_then_discard
PAYERS_EACH_OTHER, PAYERS_LOSER_ONLY, PAYERS_NONE = 0, 1, 2
SCORING_PARTY, SCORING_PENALTY, SCORING_BANK, SCORING_SIMPLE = 0, 1, 2, 3  # the index in rules.SCORINGS
NOT_RANKED = 99  # tie position of the sitting-out dealer (never ranked)

# --- the params slots: each declared once, its index and how the compiler fills it from the rules ---------------
_PARAMS: list = []
"""How the compiler fills every slot of ``params``, in index order: ``(width, value)``; ``value(r)`` gives the
slot's value (a sequence of ``width`` values for a wider slot) from the :class:`~reversis_sim.rules.Rules` ``r``."""


def _slot(value, width: int = 1) -> int:
    """Declare the next slot of ``params`` and how the compiler fills it; its index is returned, a plain ``int``
    that numba freezes into the kernels where a module-level ``P_*`` holds it (numba reads globals when it
    compiles). A new rule parameter is one such line, and the kernel code that reads it."""
    _PARAMS.append((width, value))
    return sum(w for w, _ in _PARAMS) - width


def _four(r: Rules) -> bool:
    """F0.2: seats sit opposite only at a four-seat table; elsewhere every opposite factor is 1."""
    return r.n_seats == 4


P_HAND_SIZE = _slot(lambda r: r.hand_size)  # also the number of tricks
P_DEALER_EXTRA = _slot(lambda r: r.dealer_extra_card)
P_TALON = _slot(lambda r: TALON_MODES.index(r.talon_mode))  # TALON_NONE | TALON_BLIND | TALON_TAKE
P_FIRST_LEAD_HEART = _slot(lambda r: r.first_lead_rule == "heart_if_able")
P_RESTAKE_BELOW = _slot(lambda r: r.restake_below)
P_RESTAKE_EACH = _slot(lambda r: r.restake_each)
P_RESTAKE_DEALER = _slot(lambda r: r.restake_dealer)
P_EVERY_EACH = _slot(lambda r: r.every_each)
P_EVERY_DEALER = _slot(lambda r: r.every_dealer)
# the three amounts of each kind: dumped, forced, led (kind = K_ACE, K_ACE_D, K_QUINOLA)
P_ACE_DUMPED = _slot(lambda r: r.ace_dumped)
P_ACE_FORCED = _slot(lambda r: r.ace_forced)
P_ACE_LED = _slot(lambda r: r.ace_led)
P_ACE_D_DUMPED = _slot(lambda r: r.ace_diamond_dumped)
P_ACE_D_FORCED = _slot(lambda r: r.ace_diamond_forced)
P_ACE_D_LED = _slot(lambda r: r.ace_diamond_led)
P_Q_DUMPED = _slot(lambda r: r.quinola_dumped)
P_Q_FORCED = _slot(lambda r: r.quinola_forced_holder)
P_Q_LED = _slot(lambda r: r.quinola_led_holder)
P_Q_FORCED_EACH_OTHER = _slot(lambda r: r.quinola_forced_each_other)
P_Q_POOL_DUMPED_WINS = _slot(lambda r: r.quinola_pool_dumped == "win_pool")
P_Q_POOL_FORCED_DOUBLES = _slot(lambda r: r.quinola_pool_forced == "double_pool")
P_Q_POOL_LED_DOUBLES = _slot(lambda r: r.quinola_pool_led == "double_pool")
P_OPPOSITE_FACTOR = _slot(lambda r: r.opposite_factor if _four(r) else 1)
P_LAST_TRICKS_COUNT = _slot(lambda r: r.last_tricks_count)
P_LAST_TRICKS_FACTOR = _slot(lambda r: r.last_tricks_factor)
P_PARTY_BONUS = _slot(lambda r: r.party_bonus)
P_PARTY_PAYERS = _slot(# PAYERS_EACH_OTHER | PAYERS_LOSER_ONLY | PAYERS_NONE
                       lambda r: ("each_other", "loser_only", "none").index(r.party_payers))
P_PARTY_OPPOSITE_FACTOR = _slot(lambda r: r.party_opposite_factor if _four(r) else 1)
# SCORING_PARTY | SCORING_PENALTY | SCORING_BANK | SCORING_SIMPLE: which settlement runs
P_SCORING = _slot(lambda r: SCORINGS.index(r.scoring))
P_N_SEATS = _slot(lambda r: r.n_seats)  # 4, or 5 (then the dealer sits out: check_engine_supported)
# the dealer sits out (modern_five; implied by P_N_SEATS == 5, which the kernels use)
P_SIT_OUT = _slot(lambda r: r.dealer_sits_out)
# the pool carries to the next deal (else every deal starts at 0, F0.7)
P_POOL_PERSISTS = _slot(lambda r: r.pool_persists)
P_REVERSIS = _slot(lambda r: r.reversis_enabled)
P_COMMIT_AFTER = _slot(lambda r: r.reversis_commit_after)
P_ROLLBACK_SIDE = _slot(lambda r: "side_payments" in r.reversis_rollback)
P_ROLLBACK_POOL = _slot(lambda r: "pool" in r.reversis_rollback)
P_ROLLBACK_CLAIMS = _slot(lambda r: "led_claims" in r.reversis_rollback)
P_REV_NEIGHBOUR = _slot(lambda r: r.reversis_neighbour)
# = P_REV_NEIGHBOUR at a five-seat table
P_REV_OPPOSITE = _slot(lambda r: r.reversis_opposite if _four(r) else r.reversis_neighbour)
# penalty scoring (modern family): made reversis, from each opponent
P_REV_EACH_OPPONENT = _slot(lambda r: r.reversis_each_opponent)
P_REV_TO_BREAKER = _slot(lambda r: r.reversis_to_breaker)
P_CANCEL_PARTY = _slot(lambda r: r.cancel_party_on_success)
P_ESP = _slot(lambda r: r.espagnolette_enabled)
P_ESP_FOUR_ACES = _slot(lambda r: "four_aces" in r.espagnolette_hands)
P_ESP_JH_THREE_ACES = _slot(lambda r: "JH_plus_three_aces" in r.espagnolette_hands)
P_ESP_FOUR_ACES_JH = _slot(lambda r: "four_aces_plus_JH" in r.espagnolette_hands)
P_ESP_THREE_ACES_KING = _slot(lambda r: "three_aces_plus_king" in r.espagnolette_hands)
P_ESP_RENOUNCE = _slot(lambda r: r.espagnolette_renounce_tricks)
P_ESP_RETURN_FACTOR = _slot(lambda r: r.espagnolette_return_factor)
P_ESP_POOL_RETURN_FACTOR = _slot(lambda r: r.espagnolette_pool_return_factor)
P_DEALER_STEP = _slot(lambda r: r.dealer_step)
P_N_DECK = _slot(lambda r: len(r.tables.deck))
P_REV_BROKEN_PAYS_POOL = _slot(lambda r: r.reversis_broken_pays_pool)
P_DECLARER_CAN_COMMIT = _slot(lambda r: r.declarer_can_commit)
P_Q_FORCED_PLUS_POOL = _slot(lambda r: r.quinola_forced_plus_pool)
# every card of the deck as a mask (card codes stay below 61, so it fits an int64)
P_DECK_MASK = _slot(lambda r: C.mask(r.tables.deck))
# serbian (F3.3): every-deal antes doubled after a deal with a J♥ placement
P_DOUBLE_ANTE = _slot(lambda r: r.double_ante_after_placement)
# penalty scoring: a broken reversis pays each opponent
P_REV_BROKEN_EACH_OPPONENT = _slot(lambda r: r.reversis_broken_each_opponent)
# penalty scoring: made/failed espagnolette, from/to each opponent
P_ESP_EACH_OPPONENT = _slot(lambda r: r.espagnolette_each_opponent)
# the declarer names a goal, lose_all or win_all (modern family)
P_ESP_GOAL = _slot(lambda r: r.espagnolette_goal_choice)
P_BETE = _slot(lambda r: r.bete_payment)  # penalty and bank scoring: the bête pays the deal winner this
# of which this goes to the sitting-out dealer (0 unless the dealer sits out, F1.6)
P_BETE_SHARE = _slot(lambda r: r.bete_dealer_share if r.dealer_sits_out else 0)
# penalty scoring: the deal winner takes the pot (not modern_partie)
P_WINNER_TAKES_POOL = _slot(lambda r: r.winner_takes_pool)
# penalty scoring: the J♥ captured costs its taker the pot + this, into the pot
P_Q_CAPTURE_SURCHARGE = _slot(lambda r: r.quinola_capture_surcharge)
# modern_simple: a placed J♥ counts as captured
P_PLACEMENT_IS_CAPTURE = _slot(lambda r: r.placement_is_capture)
# simple scoring: taking the J♥ scores this on top of its point
P_SIMPLE_Q_EXTRA = _slot(lambda r: r.simple_quinola_extra)
# simple scoring: the match ends after the deal in which a running total reaches this
P_TARGET_TOTAL = _slot(lambda r: r.target_total)
# P_TIE_POS + k, k < MAX_SEATS: position in the tie order of the seat at offset k from the dealer (smaller wins)
P_TIE_POS = _slot(lambda r: [r.tie_offsets.index(k) if k in r.tie_offsets else NOT_RANKED
                                        for k in range(MAX_SEATS)], width=MAX_SEATS)
P_REV_PLUS_POOL = _slot(lambda r: r.reversis_plus_pool)  # a made reversis also takes the pool
# penalty scoring: card points are paid into the pot as penalty fiches (A18)
P_PENALTY_TO_POOL = _slot(lambda r: r.penalty_to_pool)
# bank scoring: a declarer pays the maker of a made reversis this more (F3.7)
P_ESP_REVERSIS_EXTRA = _slot(lambda r: r.espagnolette_reversis_extra)
N_PARAMS = sum(width for width, _ in _PARAMS)

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
    p = np.zeros(N_PARAMS, dtype=np.int64)
    index = 0
    for width, value in _PARAMS:
        p[index:index + width] = value(rules)
        index += width
    t = rules.tables
    above = [sum(1 << x for x in t.deck if x >> 4 == c >> 4 and t.strength[x] > t.strength[c]) if c in t.deck else 0
             for c in range(C.N_CARD_CODES)]
    tables = np.array([t.strength, t.trick_points, t.talon_points, above], dtype=np.int64)
    deck = np.array(t.deck, dtype=np.int64)
    assert tables.shape == (4, C.N_CARD_CODES)
    return CompiledRules(rules.name, p, tables, deck)
