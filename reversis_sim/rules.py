"""Rules as data: one frozen, validated dataclass and the named presets (RULES.md §2.2, §3).

Every rule difference between the seed documents is a field of :class:`Rules`; a preset is a named instance. The
field defaults are the ``parlett`` values (RULES.md §1, the classic game). Fields that only other presets use have a
neutral default ("rule absent") and say which preset needs them.

Engines never read the dataclass in a hot loop: :meth:`Rules.tables` precomputes the per-card tables.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property

from . import cards as C

TALON_MODES = ("none", "optional_blind_exchange", "take_then_discard")
SCORINGS = ("party", "penalty", "bank", "simple")
POINT_TABLES = ("card_points", "trick_point_overrides", "talon_point_overrides")  # (key, points) pairs
PARTY_PAYERS = ("each_other", "loser_only", "none")
ESPAGNOLETTE_HANDS = ("four_aces", "JH_plus_three_aces", "four_aces_plus_JH", "three_aces_plus_king")
ROLLBACK_PARTS = ("side_payments", "pool", "led_claims")


MAX_AMOUNT, MAX_FACTOR = 10**6, 4
"""The largest amount of fish (a stake, payment or score) and the largest multiplier a rule may name: with the pool
refused past the kernel's ``MAX_POOL`` (2**56), no deal can overflow the engines' 64-bit chips (a payment is at
most 4 x 4 x 2 x 2**56 = 2**61: a doubled pool between opposite seats in the last tricks)."""
FACTORS = ("opposite_factor", "last_tricks_factor", "party_opposite_factor", "espagnolette_return_factor",
           "espagnolette_pool_return_factor")
NOT_AMOUNTS = ("n_seats", "dealer_step", "hand_size", "reversis_commit_after", "espagnolette_renounce_tricks",
               "last_tricks_count", "match_deals", "start_chips")  # counts, places, reported only: the rest is fish


class RulesError(ValueError):
    """A rule set that cannot be played; the message names the field and the valid values."""


@dataclass(frozen=True)
class Rules:
    """A complete Reversis rule set. Defaults = preset ``parlett`` (RULES.md §1 / §2.2)."""

    name: str = "parlett"
    """Preset name as written in the deal record's ``rules`` field."""
    source: str = "seed 004 (Parlett's account), RULES.md §1"
    """Where the rule set comes from."""

    scoring: str = "party"
    """How a deal is settled: ``party`` (R28-R33: parlett, pierer), ``penalty`` (F1.4: the ``modern`` family's
    penalty fiches, bête and pot), ``bank`` (F3.7: ``serbian``) or ``simple`` (F4.3: running card points)."""

    # --- table and cards (R1-R8) -----------------------------------------------------------------------
    n_seats: int = 4
    """Seats at the table, numbered in playing order (R3). 5 only in ``modern_five``."""
    ranks: str = "AKQJ98765432"
    """Ranks in the deck, high to low in play (R5, R6). ``T`` adds the tens (52-card presets)."""
    special_rank: str | None = None
    """``"JH_top_of_hearts"``: the J♥ beats every heart (``serbian``, A26). None otherwise."""
    dealer_step: int = 1
    """Next dealer = dealer + step (R4: +1, to the right; ``modern`` -1)."""
    dealer_sits_out: bool = False
    """The dealer is dealt no cards and does not play (``modern_five``)."""

    # --- deal and talon (R11-R15) ----------------------------------------------------------------------
    hand_size: int = 11
    """Cards dealt to each player (R11); also the number of tricks."""
    dealer_extra_card: bool = True
    """The dealer gets one more card and discards one to the talon (R11, R13)."""
    talon_mode: str = "optional_blind_exchange"
    """``none`` | ``optional_blind_exchange`` (R14) | ``take_then_discard`` (``serbian``, F3.2)."""
    first_lead_rule: str = "any"
    """``any`` (R20) | ``heart_if_able`` (Encyclopédie option)."""

    # --- points (R7, R31) ------------------------------------------------------------------------------
    card_points: tuple[tuple[str, int], ...] = (("A", 4), ("K", 3), ("Q", 2), ("J", 1))
    """Points of each rank taken in tricks (R7); ranks not named score 0."""
    trick_point_overrides: tuple[tuple[str, int], ...] = ()
    """Cards that score differently in tricks, e.g. ``(("AD", 5), ("JH", 4))`` in ``serbian``."""
    talon_point_overrides: tuple[tuple[str, int], ...] = ()
    """Cards that score differently in the talon, e.g. ``(("AD", 5), ("JH", 3))`` in ``pierer``."""

    # --- stakes and the pool (R9, R10, F0.6) -----------------------------------------------------------
    restake_below: int = 1
    """A new pool is staked when the pool before the deal is below this (1: when empty; 0: never)."""
    restake_each: int = 5
    """Paid into a new pool by each non-dealer (R9)."""
    restake_dealer: int = 5
    """Paid into a new pool by the dealer, instead of ``restake_each``."""
    every_each: int = 0
    """Paid into the pool by each non-dealer on every deal."""
    every_dealer: int = 5
    """Paid into the pool by the dealer on every deal (R9: "the dealer adds 5 more for each deal")."""
    double_ante_after_placement: bool = False
    """``serbian`` (F3.3): every-deal antes doubled after a deal with a J♥ placement."""
    pool_persists: bool = True
    """The pool carries over to the next deal until won (R10)."""

    # --- side payments (§1.7, R22-R24) -----------------------------------------------------------------
    ace_dumped: int = 1
    """Trick winner pays the dumper of an Ace (not A♦)."""
    ace_forced: int = 1
    """Holder of a forced Ace pays the leader."""
    ace_led: int = 1
    """Holder of a led Ace pays the party winner (R22)."""
    ace_diamond_dumped: int = 2
    ace_diamond_forced: int = 2
    ace_diamond_led: int = 2
    quinola_dumped: int = 5
    """Trick winner pays the dumper of the J♥."""
    quinola_forced_holder: int = 10
    """Holder of a forced J♥ pays the leader (R23)."""
    quinola_forced_each_other: int = 5
    """Each player who is neither leader nor holder also pays the leader (R23, A5)."""
    quinola_led_holder: int = 10
    """Holder of a led J♥ pays the party winner (R22, A4)."""
    quinola_forced_plus_pool: bool = False
    """``serbian`` (F3.4): a forced J♥'s holder pays the leader (pool + ``quinola_forced_holder``) x factors."""
    quinola_pool_dumped: str = "win_pool"
    """What a dumped J♥ does to the pool: ``win_pool`` (R26) | ``none``."""
    quinola_pool_forced: str = "double_pool"
    """What a forced J♥ does to the pool: ``double_pool`` (R25: holder pays the pool's amount) | ``none``."""
    quinola_pool_led: str = "double_pool"
    """What a led J♥ does to the pool (R25)."""
    opposite_factor: int = 2
    """Side payments between opposite seats are multiplied by this (R2, R24)."""
    last_tricks_count: int = 2
    """Side payments in the last this-many tricks are multiplied by ``last_tricks_factor`` (R24)."""
    last_tricks_factor: int = 2

    # --- the party (R28-R33) ---------------------------------------------------------------------------
    party_bonus: int = 4
    """Party value = this + the card points of the talon (R31)."""
    party_payers: str = "each_other"
    """``each_other`` (R32: every other player pays) | ``loser_only`` (PEN) | ``none``."""
    party_opposite_factor: int = 2
    """The party paid between opposite seats is multiplied by this (R32)."""
    tie_order: tuple[int, ...] = (0, 1, 2, 3)
    """After fewest tricks, ties go to dealer + k for k in this order (R29: d, d+1, d+2, d+3)."""

    # --- the reversis (R34-R37) ------------------------------------------------------------------------
    reversis_enabled: bool = True
    reversis_commit_after: int = 9
    """Winning tricks 1..this commits a player to the reversis (R34)."""
    reversis_rollback: tuple[str, ...] = ROLLBACK_PARTS
    """What the commitment returns from tricks 1..commit (R35, A10)."""
    reversis_neighbour: int = 16
    """Paid by each neighbour on a made reversis (R36)."""
    reversis_opposite: int = 32
    """Paid by the opposite seat on a made reversis (R36)."""
    reversis_each_opponent: int = 0
    """``modern`` family: paid by each opponent instead of neighbour/opposite amounts."""
    reversis_plus_pool: bool = False
    """A made reversis also takes the pool (``modern``, ``serbian``)."""
    reversis_to_breaker: int = 64
    """A broken reversis pays this to the breaker (R37; G9)."""
    reversis_broken_each_opponent: int = 0
    """``modern``: a broken reversis pays this to each opponent instead."""
    reversis_broken_pays_pool: bool = False
    """``pierer`` (F2.1): a broken reversis pays the pool's amount into the pool instead."""
    declarer_can_commit: bool = True
    """An espagnolette declarer can be committed to a reversis (``modern``: never, F1.4)."""
    cancel_party_on_success: bool = True
    """A made reversis cancels the party (R36)."""

    # --- the espagnolette (R38-R42) --------------------------------------------------------------------
    espagnolette_enabled: bool = True
    espagnolette_hands: tuple[str, ...] = ("four_aces", "JH_plus_three_aces")
    """Hands that may declare (R38)."""
    espagnolette_renounce_tricks: int = 9
    """The declarer may refuse to follow suit in tricks 1..this (R39); 0 = never."""
    espagnolette_success: str = "zero_tricks"
    """``zero_tricks`` (R40) | ``is_deal_winner`` (``serbian``, A29)."""
    espagnolette_return_factor: int = 2
    """A failed declarer returns each standing dump payment times this (R41)."""
    espagnolette_pool_return_factor: int = 2
    """A failed declarer puts back the pool he won times this (R41)."""
    espagnolette_each_opponent: int = 0
    """``modern``: a made espagnolette is paid this by each opponent (and takes the pot); a failed one pays it."""
    espagnolette_reversis_extra: int = 0
    """``serbian`` (F3.7 step 1): a declarer who is not the maker of a made reversis pays the maker this more."""

    # --- the penalty and bank families (F1, F3) ----------------------------------------------------------
    penalty_to_pool: bool = False
    """``modern``: card points are paid into the pot as penalty fiches (A18)."""
    bete_payment: int = 0
    """``modern``/``serbian``: the bête (worst key) pays the deal winner this (0 = no bête)."""
    bete_dealer_share: int = 0
    """``modern_five`` (F1.6): of the bête payment, this much goes to the sitting-out dealer."""
    winner_takes_pool: bool = False
    """``modern``/``serbian``: the deal winner takes what is left of the pot (A23, A27)."""
    quinola_capture_surcharge: int = 0
    """``modern``: capturing the J♥ other than by placement costs the pot + this, into the pot (A22)."""
    placement_is_capture: bool = False
    """``modern_simple``: a placed J♥ counts as captured (F1.3)."""
    espagnolette_goal_choice: bool = False
    """``modern``: the declarer chooses ``lose_all`` or ``win_all``."""

    # --- simple scoring (V1, F4.3) ---------------------------------------------------------------------
    simple_quinola_extra: int = 5
    """``parlett_simple``: taking the J♥ in a trick scores this on top of its point."""
    target_total: int = 100
    """``parlett_simple``: the match ends after the deal in which a running total reaches this."""

    # --- the match (F0.8) ------------------------------------------------------------------------------
    match_deals: int = 12
    """Deals per match by default (a multiple of the seat count, A35)."""
    start_chips: int = 400
    """Starting chips of each player (reported, never used to stop play)."""

    def __post_init__(self) -> None:
        def need(ok: bool, what: str) -> None:
            if not ok:
                raise RulesError(f"rules {self.name!r}: {what}")

        need(self.scoring in SCORINGS, f"scoring must be one of {', '.join(SCORINGS)}")
        need(self.n_seats in (4, 5), f"n_seats must be 4 or 5, not {self.n_seats}")
        need(self.n_seats == 4 or self.dealer_sits_out, "a table of 5 needs dealer_sits_out (modern_five)")
        need(len(set(self.ranks)) == len(self.ranks) and set(self.ranks) <= set(C.RANKS),
             f"ranks must be distinct characters of {C.RANKS!r}, got {self.ranks!r}")
        need("A" in self.ranks and "J" in self.ranks, "ranks must include the Ace and the Jack")
        need(self.special_rank in (None, "JH_top_of_hearts"), "special_rank must be None or 'JH_top_of_hearts'")
        need(self.dealer_step in (1, -1), "dealer_step must be +1 or -1")
        need(self.talon_mode in TALON_MODES, f"talon_mode must be one of {', '.join(TALON_MODES)}")
        need(self.first_lead_rule in ("any", "heart_if_able"), "first_lead_rule must be 'any' or 'heart_if_able'")
        need(self.party_payers in PARTY_PAYERS, f"party_payers must be one of {', '.join(PARTY_PAYERS)}")
        need(self.quinola_pool_dumped in ("win_pool", "none"), "quinola_pool_dumped must be win_pool or none")
        for f in ("quinola_pool_forced", "quinola_pool_led"):
            need(getattr(self, f) in ("double_pool", "none"), f"{f} must be double_pool or none")
        need(set(self.espagnolette_hands) <= set(ESPAGNOLETTE_HANDS),
             f"espagnolette_hands must be among {', '.join(ESPAGNOLETTE_HANDS)}")
        need(set(self.reversis_rollback) <= set(ROLLBACK_PARTS),
             f"reversis_rollback must be among {', '.join(ROLLBACK_PARTS)}")
        need(self.espagnolette_success in ("zero_tricks", "is_deal_winner"),
             "espagnolette_success must be zero_tricks or is_deal_winner")
        need((self.espagnolette_success == "is_deal_winner") == (self.scoring == "bank"),
             "espagnolette_success is_deal_winner goes with bank scoring (serbian, A29), zero_tricks with the others")
        need(not self.penalty_to_pool or self.scoring == "penalty",
             "penalty_to_pool (card points paid into the pot, A18) needs penalty scoring")
        need(not (self.dealer_sits_out and self.talon_mode != "none"),
             "a dealer who sits out cannot discard to a talon; use talon_mode 'none' (as modern_five does)")
        n_ranked = self.n_seats - (1 if self.dealer_sits_out else 0)
        offsets = sorted(k % self.n_seats for k in self.tie_order)
        need(len(offsets) == n_ranked and len(set(offsets)) == n_ranked
             and (not self.dealer_sits_out or 0 not in offsets),
             f"tie_order must name every playing seat's offset from the dealer once (got {self.tie_order})")
        for table in (self.card_points, self.trick_point_overrides, self.talon_point_overrides):
            for key, points in table:
                need(key in C.RANKS if table is self.card_points else C.parse(key) >= 0, f"unknown rank {key!r}")
                need(isinstance(points, int) and 0 <= points <= MAX_AMOUNT,
                     f"the points of {key} must be a whole number 0 to {MAX_AMOUNT:,} (got {points})")
        n_active = self.n_seats - (1 if self.dealer_sits_out else 0)
        n_dealt = n_active * self.hand_size + (1 if self.dealer_extra_card else 0)
        n_talon = (n_active - 1) if self.talon_mode != "none" else 0
        need(n_dealt + n_talon <= 4 * len(self.ranks),
             f"{n_active} hands of {self.hand_size} and a talon of {n_talon} need more than the "
             f"{4 * len(self.ranks)} cards in the deck")
        need(0 <= self.reversis_commit_after <= self.hand_size, "reversis_commit_after must be 0..hand_size")
        need(0 <= self.espagnolette_renounce_tricks <= self.hand_size,
             "espagnolette_renounce_tricks must be 0..hand_size")
        need(0 <= self.last_tricks_count <= self.hand_size, "last_tricks_count must be 0..hand_size")
        for f in dataclasses.fields(self):
            v = getattr(self, f.name)
            if isinstance(v, int) and not isinstance(v, bool) and f.name not in ("dealer_step",):
                need(v >= 0, f"{f.name} must not be negative (got {v})")
                top, what = (MAX_FACTOR, "a multiplier") if f.name in FACTORS else (MAX_AMOUNT, "a stake or payment")
                need(f.name in NOT_AMOUNTS or v <= top, f"{f.name} is {v:,}: {what} is at most {top:,}"
                     f"{'' if top == MAX_FACTOR else ' fish'} (larger ones could overflow the engines' 64-bit chips)")
        need(self.match_deals >= 1, "match_deals must be at least 1")

    # ------------------------------------------------------------------------------------------------------
    @property
    def n_tricks(self) -> int:
        """Tricks per deal (R21): every card is played."""
        return self.hand_size

    @property
    def tie_offsets(self) -> tuple[int, ...]:
        """``tie_order`` as offsets 0..n-1 from the dealer (``-1`` becomes ``n-1``)."""
        return tuple(k % self.n_seats for k in self.tie_order)

    def opposite(self, a: int, b: int) -> bool:
        """Seats a and b sit opposite each other (F0.2: only at a four-seat table)."""
        return self.n_seats == 4 and (a - b) % 4 == 2

    def replace(self, **changes) -> Rules:
        """A copy with some fields changed (validated)."""
        return dataclasses.replace(self, **changes)

    def to_params(self) -> dict:
        """The fully resolved parameter values, as JSON-ready data (the deal record's ``rules_params``)."""
        out = {}
        for f in dataclasses.fields(self):
            if f.name in ("name", "source"):
                continue
            v = getattr(self, f.name)
            if f.name in POINT_TABLES:
                v = dict(v)
            elif isinstance(v, tuple):
                v = list(v)
            out[f.name] = v
        return out

    @classmethod
    def from_params(cls, name: str, params: Mapping, source: str | None = None) -> Rules:
        """The rule set whose resolved parameters are ``params`` (what :meth:`to_params` wrote, e.g. a manifest's
        ``rules_params``), named ``name``; validated like any other. A parameter that ``params`` lacks (a field
        added since they were written) takes the value of the preset called ``name``, or the default."""
        base = PRESETS.get(name, PARLETT)
        names = {f.name for f in dataclasses.fields(cls)} - {"name", "source"}
        unknown = sorted(set(params) - names)
        if unknown:
            raise RulesError(f"rules {name!r}: unknown parameter(s) {', '.join(unknown)}")
        values = {}
        for f in dataclasses.fields(cls):
            if f.name in ("name", "source"):
                continue
            v = params[f.name] if f.name in params else getattr(base, f.name)
            if f.name in POINT_TABLES and isinstance(v, Mapping):
                v = tuple((k, int(x)) for k, x in v.items())
            elif isinstance(v, list):
                v = tuple(v)
            values[f.name] = v
        return cls(name=name, source=source or base.source, **values)

    def differences(self, other: Rules | None = None) -> dict:
        """Parameters whose resolved value differs from ``other`` (default ``parlett``): {name: [this, other]}."""
        mine, theirs = self.to_params(), (other or PARLETT).to_params()
        return {k: [v, theirs[k]] for k, v in mine.items() if v != theirs[k]}

    @cached_property
    def tables(self) -> RuleTables:
        return RuleTables.build(self)


@dataclass(frozen=True)
class RuleTables:
    """Per-card lookup tables derived from a :class:`Rules` (index = card code, see :mod:`cards`)."""

    deck: tuple[int, ...]
    strength: tuple[int, ...] = field(repr=False)
    """Playing strength within a suit (higher wins); -1 for cards not in the deck."""
    trick_points: tuple[int, ...] = field(repr=False)
    talon_points: tuple[int, ...] = field(repr=False)

    @staticmethod
    def build(rules: Rules) -> RuleTables:
        deck = tuple(C.deck(rules.ranks))
        strength = [-1] * C.N_CARD_CODES
        n = len(rules.ranks)
        for card in deck:
            strength[card] = n - rules.ranks.index(C.RANKS[C.rank_of(card)])
        if rules.special_rank == "JH_top_of_hearts":
            strength[C.QUINOLA] = n + 1
        base = dict(rules.card_points)
        trick = [0] * C.N_CARD_CODES
        for card in deck:
            trick[card] = base.get(C.RANKS[C.rank_of(card)], 0)
        talon = list(trick)
        for card, pts in rules.trick_point_overrides:
            trick[C.parse(card)] = pts
        for card, pts in rules.talon_point_overrides:
            talon[C.parse(card)] = pts
        return RuleTables(deck, tuple(strength), tuple(trick), tuple(talon))


PARLETT = Rules()

NO_SIDE_PAYMENTS = dict(
    ace_dumped=0, ace_forced=0, ace_led=0, ace_diamond_dumped=0, ace_diamond_forced=0, ace_diamond_led=0,
    quinola_dumped=0, quinola_forced_holder=0, quinola_forced_each_other=0, quinola_led_holder=0,
    quinola_pool_dumped="none", quinola_pool_forced="none", quinola_pool_led="none",
    opposite_factor=1, last_tricks_count=0, last_tricks_factor=1,
)

# F1.1: seeds 000/001. Everything not named is absent (F0.1).
MODERN = Rules(
    name="modern", source="seeds 000 (German) and 001 (French), RULES.md §2.2 and F1",
    scoring="penalty", ranks="KQJ9876543A2", dealer_step=-1, hand_size=12, dealer_extra_card=False,
    talon_mode="none", restake_below=0, restake_each=0, restake_dealer=0, every_each=5, every_dealer=5,
    pool_persists=False, **{**NO_SIDE_PAYMENTS, "quinola_dumped": 4, "quinola_pool_dumped": "win_pool"},
    party_bonus=0, party_payers="none", party_opposite_factor=1, tie_order=(0, 1, 2, 3),
    reversis_rollback=(), reversis_neighbour=0, reversis_opposite=0, reversis_each_opponent=16,
    reversis_plus_pool=True, reversis_to_breaker=0, reversis_broken_each_opponent=16, declarer_can_commit=False,
    espagnolette_hands=("four_aces", "three_aces_plus_king"), espagnolette_renounce_tricks=0,
    espagnolette_return_factor=0, espagnolette_pool_return_factor=0, espagnolette_each_opponent=16,
    espagnolette_goal_choice=True, penalty_to_pool=True, bete_payment=4, winner_takes_pool=True,
    quinola_capture_surcharge=4,
)

PRESETS: dict[str, Rules] = {
    "parlett": PARLETT,
    # F4.1: what Parlett's Penguin page says where it differs from S004.
    "parlett_penguin": PARLETT.replace(
        name="parlett_penguin", source="Parlett, Penguin Book of Card Games (RULES.md §2.2, F4.1)",
        party_payers="loser_only", tie_order=(0, -1, -2, -3)),
    # F4.2: no declaration possible; eligible hands play normally.
    "parlett_no_espagnolette": PARLETT.replace(
        name="parlett_no_espagnolette", source="seed 004 without its optional rule (F4.2)",
        espagnolette_enabled=False),
    # F4.3 / V1: no fish; running card points, the J♥ 5 extra; first to 100 ends the match.
    "parlett_simple": PARLETT.replace(
        name="parlett_simple", source="seed 004 variant 'Simple Scoring' (V1, F4.3)", scoring="simple",
        restake_below=0, restake_each=0, restake_dealer=0, every_each=0, every_dealer=0, **NO_SIDE_PAYMENTS,
        party_bonus=0, party_payers="none", reversis_enabled=False, espagnolette_enabled=False, start_chips=0),
    # F4.4 / V2: the full pack, 13 tricks, no talon; commitment after 11, renounce in 1..11.
    "parlett_52": PARLETT.replace(
        name="parlett_52", source="seed 004 variant 'Fifty-Two Cards' (V2, F4.4)",
        ranks="AKQJT98765432", hand_size=13, dealer_extra_card=False, talon_mode="none",
        reversis_commit_after=11, espagnolette_renounce_tricks=11),
    "modern": MODERN,
    # F1.2: the pot carries over, emptied only by a placement, a made reversis or a made espagnolette.
    "modern_partie": MODERN.replace(name="modern_partie", source="seed 000/001 variant Partie-Reversis (F1.2)",
                                    pool_persists=True, winner_takes_pool=False),
    # F1.2/F1.3: no espagnolette, and a placed J♥ counts as captured.
    "modern_simple": MODERN.replace(name="modern_simple", source="seed 000/001 simple variant (F1.2)",
                                    espagnolette_enabled=False, quinola_dumped=0, quinola_pool_dumped="none",
                                    placement_is_capture=True),
    # F1.6: five seats, the dealer sits out and takes half the bête payment.
    "modern_five": MODERN.replace(name="modern_five", source="seed 000/001 five-player variant (F1.6)",
                                  n_seats=5, dealer_sits_out=True, tie_order=(1, 2, 3, 4), bete_dealer_share=2,
                                  match_deals=10),
    # F1.2: 52 cards, tens worth nothing, 13 tricks; commitment still after trick 9.
    "modern_52": MODERN.replace(name="modern_52", source="seed 000/001 52-card variant (F1.2)",
                                ranks="KQJT9876543A2", hand_size=13),
    # F2: seed 003, Pierer's Universal-Lexikon (1857).
    "pierer": PARLETT.replace(
        name="pierer", source="seed 003, Pierer Universal-Lexikon 1857 (RULES.md §2.2, F2)",
        talon_point_overrides=(("AD", 5), ("JH", 3)), restake_below=9, restake_each=2, restake_dealer=3,
        every_each=0, every_dealer=1, **{**NO_SIDE_PAYMENTS, "quinola_pool_dumped": "win_pool",
                                        "quinola_pool_forced": "double_pool", "quinola_pool_led": "double_pool"},
        party_payers="loser_only", party_opposite_factor=1, tie_order=(0, -1, -2, -3),
        reversis_rollback=("pool",), reversis_neighbour=17, reversis_opposite=32, reversis_to_breaker=0,
        reversis_broken_pays_pool=True, espagnolette_renounce_tricks=11),
    # F3: seed 002, the Serbian text.
    "serbian": Rules(
        name="serbian", source="seed 002 (Serbian), RULES.md §2.2 and F3", scoring="bank",
        special_rank="JH_top_of_hearts", talon_mode="take_then_discard",
        trick_point_overrides=(("AD", 5), ("JH", 4)), restake_below=0, restake_each=0, restake_dealer=0,
        every_each=2, every_dealer=4, double_ante_after_placement=True, pool_persists=False,
        ace_dumped=1, ace_forced=2, ace_led=0, ace_diamond_dumped=2, ace_diamond_forced=4, ace_diamond_led=0,
        quinola_dumped=4, quinola_forced_holder=4, quinola_forced_each_other=0, quinola_led_holder=0,
        quinola_forced_plus_pool=True, quinola_pool_dumped="win_pool", quinola_pool_forced="none",
        quinola_pool_led="none", opposite_factor=1, last_tricks_count=1, last_tricks_factor=2,
        party_bonus=0, party_payers="none", party_opposite_factor=1, tie_order=(1, 2, 3, 0),
        reversis_rollback=(), reversis_neighbour=0, reversis_opposite=0, reversis_plus_pool=True,
        reversis_to_breaker=0, espagnolette_success="is_deal_winner", espagnolette_return_factor=2,
        espagnolette_pool_return_factor=0, espagnolette_reversis_extra=2, bete_payment=4, winner_takes_pool=True,
        start_chips=1110),
}
"""Every preset by name. Later presets are added here as data (RULES.md §2.2, §3 F)."""


def get_preset(name: str) -> Rules:
    """The preset called ``name``; a :class:`RulesError` naming the valid choices otherwise."""
    try:
        return PRESETS[name]
    except KeyError:
        raise RulesError(f"unknown rules preset {name!r}; valid presets: {', '.join(sorted(PRESETS))}") from None
