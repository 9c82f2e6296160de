"""The reference engine: pure Python, slow and obviously correct.

Read it beside RULES.md: every rule is a commented block citing its number (``# R26``). It plays whole deals and
matches from a run seed (or settles a given deal card by card, which is how a user audits a real game), and writes
each deal as a deal record (RULES.md Appendix A, ``reversis-deal/1``). It is the test oracle of the numba engine.

Implemented here: every preset of :data:`reversis_sim.rules.PRESETS` (RULES.md §1, §3 A and F: the ``parlett``
family, ``pierer``, the ``modern`` family, ``serbian``), each scoring family a settlement method.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from . import cards as C
from . import keys
from .policies import Payment, Policy, PolicySpec, SeatView, TrickRecord, make_policy
from .rules import Rules

FORMAT = "reversis-deal/1"

#: Payment reasons (Appendix A, F5); the numba engine numbers them in this order (new ones go at the end).
REASONS = ("ante", "ace_dumped", "ace_forced", "ace_led", "quinola_dumped", "quinola_forced", "quinola_led",
           "pool_double", "pool_won", "party", "reversis_made", "reversis_broken", "return", "espagnolette",
           "quinola_captured", "penalty", "bete", "bete_share", "pool_to_winner", "reversis_pool",
           "espagnolette_made", "espagnolette_pool", "espagnolette_failed", "espagnolette_reversis", "bank_double")
DUMP_REASONS = ("ace_dumped", "quinola_dumped")  # what a failed espagnolette returns (R41) ...
POOL = "pool"


class IllegalPlay(ValueError):
    """A policy (or a scripted deal) chose a card or discard the rules do not allow."""


# ----------------------------------------------------------------------------------------------------------------
# Small rule helpers, each the literal reading of its rule
# ----------------------------------------------------------------------------------------------------------------


def trick_winner(rules: Rules, leader: int, played: Sequence[int], order: Sequence[int]) -> int:
    """R19: the highest card of the suit led wins (strength from the preset's rank order).

    ``order`` is the seats in playing order from the leader, ``played`` their cards.
    """
    strength = rules.tables.strength
    led = C.suit_of(played[0])
    best = 0
    for i, card in enumerate(played):
        if C.suit_of(card) == led and strength[card] > strength[played[best]]:
            best = i
    return order[best]


def legal_cards(rules: Rules, hand: Sequence[int], trick_index: int, current: Sequence[int],
                is_declarer: bool) -> tuple[int, ...]:
    """R18, R20, R39: the cards a seat may play, sorted by card code."""
    hand = sorted(hand)
    if not current:
        # R20: no restriction on leads, except the Encyclopédie's option for the first lead.
        if rules.first_lead_rule == "heart_if_able" and trick_index == 0:
            hearts = [c for c in hand if C.suit_of(c) == C.HEARTS]
            if hearts:
                return tuple(hearts)
        return tuple(hand)
    # R39: the espagnolette declarer may refuse to follow in the first tricks.
    if is_declarer and trick_index < rules.espagnolette_renounce_tricks:
        return tuple(hand)
    # R18: follow suit if able, otherwise any card.
    led = C.suit_of(current[0])
    follow = [c for c in hand if C.suit_of(c) == led]
    return tuple(follow or hand)


def espagnolette_eligible(rules: Rules, hand: Sequence[int]) -> bool:
    """R38: four Aces, or the Quinola and three Aces (other presets add their own hands)."""
    n_aces = sum(1 for c in hand if C.rank_of(c) == C.RANK_ACE)
    has_quinola = C.QUINOLA in hand
    n_kings = sum(1 for c in hand if C.rank_of(c) == C.RANK_KING)
    tests = {
        "four_aces": n_aces == 4,
        "JH_plus_three_aces": has_quinola and n_aces >= 3,
        "four_aces_plus_JH": has_quinola and n_aces == 4,
        "three_aces_plus_king": n_aces == 3 and n_kings >= 1,
    }
    return any(tests[h] for h in rules.espagnolette_hands)


# ----------------------------------------------------------------------------------------------------------------
# One deal
# ----------------------------------------------------------------------------------------------------------------


@dataclass
class Layout:
    """The cards of a deal before any decision: each seat's dealt hand, and the talon card before each seat."""

    dealt: list[list[int]]
    talon_offered: list[int | None]


def deal_cards(rules: Rules, seed: int, match: int, deal: int, dealer: int) -> Layout:
    """R11, R12: shuffle by key, then deal each hand in playing order from the eldest, then the talon cards."""
    deck = keys.shuffled(list(rules.tables.deck), seed, match, deal)
    order = _playing_order(rules, dealer, _eldest(rules, dealer))
    dealt: list[list[int]] = [[] for _ in range(rules.n_seats)]
    pos = 0
    for seat in order:
        size = rules.hand_size + (1 if seat == dealer and rules.dealer_extra_card else 0)
        dealt[seat] = sorted(deck[pos:pos + size])
        pos += size
    offered: list[int | None] = [None] * rules.n_seats
    if rules.talon_mode != "none":
        for seat in order:
            if seat != dealer:
                offered[seat] = deck[pos]
                pos += 1
    return Layout(dealt, offered)


def _eldest(rules: Rules, dealer: int) -> int:
    """R3, R17: the eldest is the dealer's right-hand neighbour, d+1 (skipping nobody at a four-seat table)."""
    return (dealer + 1) % rules.n_seats


def _playing_order(rules: Rules, dealer: int, first: int) -> list[int]:
    """Seats taking part, in playing order starting with ``first`` (F0.2)."""
    seats = [(first + k) % rules.n_seats for k in range(rules.n_seats)]
    return [s for s in seats if not (rules.dealer_sits_out and s == dealer)]


class _Deal:
    """The state of one deal in progress. Private: policies only ever see a :class:`SeatView`."""

    def __init__(self, rules: Rules, policies: Sequence[Policy], *, seed: int, match: int, deal: int,
                 dealer: int, pool_before: int, layout: Layout, double_ante: bool = False,
                 policy_seeds: Sequence[int] | None = None):
        self.rules, self.policies = rules, list(policies)
        self.seed, self.match, self.deal, self.dealer = seed, match, deal, dealer
        self.n = rules.n_seats
        self.n_tricks = rules.n_tricks
        self.pool = pool_before
        self.layout = layout
        self.hands = [list(h) for h in layout.dealt]
        self.ledger: list[Payment] = []
        self.rolled_back: set[int] = set()  # ledger rows given back by the reversis commitment (R35)
        self.claims: list[tuple[int, int, int, str]] = []  # led Ace/Quinola: (trick, holder, base, reason) (R22)
        self.tricks: list[TrickRecord] = []
        self.talon: list[int] = []
        self.talon_known: list[list[int]] = [[] for _ in range(self.n)]
        self.exchanges: list[dict] = []
        self.declarer: int | None = None
        self.committed: int | None = None  # the seat committed to the reversis (R34)
        self.goal: str | None = None  # modern family: the declarer's "lose_all" | "win_all" (F1.4)
        self.double_ante = double_ante  # serbian (F3.3)
        self.placed = False  # the J♥ was placed (dumped) this deal
        self.quinola_taken: int | None = None  # 1-based trick whose winner took the J♥, if it was not placed
        seeds = [seed] * self.n if policy_seeds is None else list(policy_seeds)  # DESIGN decision 1
        self.streams = [keys.stream(seeds[s], match, deal, keys.PURPOSE_POLICY, s) for s in range(self.n)]

    # -- bookkeeping ------------------------------------------------------------------------------------------
    def pay(self, trick: int | None, payer: int | str, payee: int | str, amount: int, reason: str) -> None:
        """Record a movement of chips; a payment of 0 is not written (F0.5)."""
        if amount <= 0:
            return
        if payer == POOL:
            self.pool -= amount
        if payee == POOL:
            self.pool += amount
        self.ledger.append(Payment(trick, payer, payee, amount, reason))

    def mult(self, trick: int, a: int, b: int) -> int:
        """R24, A6: ×2 between opposite seats, ×2 in the last two tricks; the factors multiply."""
        r = self.rules
        m = r.opposite_factor if r.opposite(a, b) else 1
        if trick > self.n_tricks - r.last_tricks_count:
            m *= r.last_tricks_factor
        return m

    def view(self, seat: int, leader: int | None = None, current: Sequence[int] = ()) -> SeatView:
        return SeatView(
            rules=self.rules, seat=seat, dealer=self.dealer, hand=tuple(sorted(self.hands[seat])),
            trick_index=len(self.tricks), leader=leader, current=tuple(current), tricks=tuple(self.tricks),
            talon_known=tuple(self.talon_known[seat]), pool=self.pool, payments=tuple(self.ledger),
            espagnolette=self.declarer, policy_stream=self.streams[seat],
        )

    # -- the deal, step by step -------------------------------------------------------------------------------
    def antes(self) -> None:
        """R9, F0.6: a new pool is staked when the pool is empty (5 each); the dealer adds 5 on every deal.
        F3.3: ``serbian`` doubles the every-deal antes after a deal with a J♥ placement."""
        r, d = self.rules, self.dealer
        seats = self._active()
        if self.pool < r.restake_below:
            for s in seats:
                self.pay(None, s, POOL, r.restake_dealer if s == d else r.restake_each, "ante")
        factor = 2 if self.double_ante else 1
        for s in seats:
            self.pay(None, s, POOL, factor * (r.every_dealer if s == d else r.every_each), "ante")

    def exchange(self) -> None:
        """R13-R15: the dealer discards one card; then each non-dealer in playing order either discards one card
        and takes his face-down card unseen, or keeps his hand and only looks at it. The talon is always the four
        cards left out (R15), hidden until settlement (A17)."""
        r, d = self.rules, self.dealer
        if r.talon_mode == "none":
            return
        order = [d] + [s for s in _playing_order(r, d, _eldest(r, d)) if s != d]  # A: dealer discards first
        if r.talon_mode == "take_then_discard":
            self._take_then_discard(order)
            return
        for seat in order:
            choice = self.policies[seat].exchange(self.view(seat))
            hand = self.hands[seat]
            if seat == d:  # R13: the dealer discards, never takes
                if choice not in hand:
                    raise IllegalPlay(f"dealer {seat} must discard a card of his hand, not {_nm(choice)}")
                hand.remove(choice)
                self.talon.append(choice)
                self.talon_known[seat].append(choice)
                self.exchanges.append({"seat": seat, "discard": C.name(choice), "took": False})
                continue
            offered = self.layout.talon_offered[seat]
            if choice is None:  # R14 (b): keep the hand and just look at the card
                self.talon.append(offered)
                self.talon_known[seat].append(offered)
                self.exchanges.append({"seat": seat, "discard": None, "took": False})
            else:  # R14 (a): discard one card, take the face-down card without looking first
                if choice not in hand:
                    raise IllegalPlay(f"seat {seat} must discard a card of his hand, not {_nm(choice)}")
                hand.remove(choice)
                hand.append(offered)
                self.talon.append(choice)
                self.talon_known[seat].append(choice)
                self.exchanges.append({"seat": seat, "discard": C.name(choice), "took": True})

    def _take_then_discard(self, order: list[int]) -> None:
        """F3.2 (``serbian``): each non-dealer must take his talon card; then the dealer and each non-dealer in
        playing order discard one card (perhaps the one just taken). The four discards are the talon."""
        for seat in order[1:]:
            self.hands[seat].append(self.layout.talon_offered[seat])
        for seat in order:
            choice = self.policies[seat].exchange(self.view(seat))
            if choice not in self.hands[seat]:
                raise IllegalPlay(f"seat {seat} must discard a card of his hand, not {_nm(choice)}")
            self.hands[seat].remove(choice)
            self.talon.append(choice)
            self.talon_known[seat].append(choice)
            self.exchanges.append({"seat": seat, "discard": C.name(choice), "took": seat != self.dealer})

    def declare(self) -> None:
        """R38, A13: after the exchange and before the first lead, an eligible player may declare. In the
        ``modern`` family he also names his goal, ``lose_all`` or ``win_all`` (F1.4)."""
        r = self.rules
        if not r.espagnolette_enabled:
            return
        for seat in _playing_order(r, self.dealer, _eldest(r, self.dealer)):
            if espagnolette_eligible(r, self.hands[seat]):  # at most one seat can be eligible
                if self.policies[seat].declare_espagnolette(self.view(seat)):
                    self.declarer = seat
                    if r.espagnolette_goal_choice:
                        self.goal = self.policies[seat].espagnolette_goal(self.view(seat))
                        if self.goal not in ("lose_all", "win_all"):
                            raise IllegalPlay(f"seat {seat}: the goal must be lose_all or win_all, not "
                                              f"{self.goal!r}")
                return

    def play_tricks(self) -> None:
        """R17-R21: the eldest leads; follow suit if able; the highest card of the suit led wins and leads next."""
        r = self.rules
        leader = _eldest(r, self.dealer)
        for t in range(1, self.n_tricks + 1):
            order = _playing_order(r, self.dealer, leader)
            played: list[int] = []
            for seat in order:
                legal = legal_cards(r, self.hands[seat], t - 1, played, seat == self.declarer)
                card = self.policies[seat].play(self.view(seat, leader, played), legal)
                if card not in legal:
                    raise IllegalPlay(f"trick {t}: seat {seat} may not play {_nm(card)}; legal: "
                                      f"{' '.join(C.names(legal))}")
                self.hands[seat].remove(card)
                played.append(card)
            winner = trick_winner(r, leader, played, order)
            self.tricks.append(TrickRecord(leader, tuple(played), winner))
            self.side_payments(t, order, played, winner)
            if r.reversis_enabled and t == r.reversis_commit_after:
                self.check_commitment(t)
            leader = winner

    def side_payments(self, t: int, order: list[int], played: list[int], winner: int) -> None:
        """§1.7, R22-R27: Ace and Quinola payments of trick ``t``, card by card in playing order."""
        r = self.rules
        leader = order[0]
        led_suit = C.suit_of(played[0])
        for i, (seat, card) in enumerate(zip(order, played)):
            if card == C.QUINOLA:
                kind, dumped, forced, led = "quinola", r.quinola_dumped, r.quinola_forced_holder, r.quinola_led_holder
            elif card == C.ACE_OF_DIAMONDS:
                kind, dumped, forced, led = "ace", r.ace_diamond_dumped, r.ace_diamond_forced, r.ace_diamond_led
            elif C.rank_of(card) == C.RANK_ACE:
                kind, dumped, forced, led = "ace", r.ace_dumped, r.ace_forced, r.ace_led
            else:
                continue
            if i == 0:
                # R22, A3, A4: a led card is claimed by the party winner at settlement (holder's amount only).
                if led:
                    self.claims.append((t, seat, led, f"{kind}_led"))
                # R25: a led Quinola doubles the pool (holder pays the pool's amount).
                if kind == "quinola" and r.quinola_pool_led == "double_pool":
                    self.pay(t, seat, POOL, self.pool, "pool_double")
            elif C.suit_of(card) == led_suit:
                # A7: forced = any play by a non-leader to a lead of its own suit; the holder pays the leader.
                if kind == "quinola" and r.quinola_forced_plus_pool:
                    forced += self.pool  # F3.4 (serbian): the bank + 4, at that moment
                self.pay(t, seat, leader, forced * self.mult(t, seat, leader), f"{kind}_forced")
                if kind == "quinola":
                    # R23, A5: each player who is neither leader nor holder also pays the leader 5.
                    for other in sorted(order):
                        if other not in (leader, seat):
                            self.pay(t, other, leader, r.quinola_forced_each_other * self.mult(t, other, leader),
                                     "quinola_forced")
                    # R25: the holder doubles the pool.
                    if r.quinola_pool_forced == "double_pool":
                        self.pay(t, seat, POOL, self.pool, "pool_double")
            else:
                # Dumped (placed): the trick winner pays the dumper.
                if kind == "quinola":
                    self.placed = True
                self.pay(t, winner, seat, dumped * self.mult(t, winner, seat), f"{kind}_dumped")
                # R26: a dumped Quinola wins the whole pool.
                if kind == "quinola" and r.quinola_pool_dumped == "win_pool":
                    self.pay(t, POOL, seat, self.pool, "pool_won")

    def check_commitment(self, t: int) -> None:
        """R34, R35, A10: one player won tricks 1..t: he is committed to the reversis, and every side payment, pool
        movement and led claim of tricks 1..t is returned (as new rows in the opposite direction)."""
        winners = {tr.winner for tr in self.tricks}
        if len(winners) != 1:
            return
        if winners == {self.declarer} and not self.rules.declarer_can_commit:
            return  # F1.4: in the modern family the declarer is never committed
        self.committed = winners.pop()
        parts = self.rules.reversis_rollback
        for idx, p in enumerate(list(self.ledger)):
            if p.trick is None or p.trick > t or p.reason == "return":
                continue
            is_pool = POOL in (p.payer, p.payee)
            if (is_pool and "pool" in parts) or (not is_pool and "side_payments" in parts):
                self.pay(t, p.payee, p.payer, p.amount, "return")
                self.rolled_back.add(idx)
        if "led_claims" in parts:
            self.claims = [c for c in self.claims if c[0] > t]

    # -- settlement ---------------------------------------------------------------------------------------------
    def settle(self) -> dict:
        """Count points and tricks, then settle by the preset's scoring family; returns the record's ``result``."""
        r = self.rules
        self.n_won = [0] * self.n
        self.points = [0] * self.n
        for tr in self.tricks:
            self.n_won[tr.winner] += 1
            self.points[tr.winner] += sum(r.tables.trick_points[c] for c in tr.cards)  # R7, R28
        c = self.committed
        self.reversis_made = c is not None and self.n_won[c] == self.n_tricks
        self.breaker = None
        if c is not None and not self.reversis_made:  # G9: the first trick after the commitment that c lost
            self.breaker = next(tr.winner for tr in self.tricks[r.reversis_commit_after:] if tr.winner != c)
        result = {"fish": None, "pool_after": None, "card_points": self.points, "tricks_won": self.n_won,
                  "party_winner": None}
        extra = {"party": self.settle_party, "penalty": self.settle_penalty, "bank": self.settle_bank,
                 "simple": self.settle_simple}[r.scoring]()
        result["reversis"] = None if c is None else {"seat": c, "made": self.reversis_made, "breaker": self.breaker}
        result.update(extra)
        fish = [0] * self.n
        for p in self.ledger:
            if p.payer != POOL:
                fish[p.payer] -= p.amount
            if p.payee != POOL:
                fish[p.payee] += p.amount
        result["fish"] = fish
        result["pool_after"] = self.pool
        return result

    def _espagnolette_result(self, made: bool) -> dict | None:
        if self.declarer is None:
            return None
        out = {"seat": self.declarer}
        if self.goal is not None:
            out["goal"] = self.goal
        out["made"] = made
        return out

    def settle_party(self) -> dict:
        """R33 order: reversis (R36, R37), espagnolette (R40, R41), led claims (R22), party (R28-R32)."""
        r = self.rules
        c, made, d = self.committed, self.reversis_made, self.declarer
        if c is not None:
            if made:  # R36: each neighbour 16, the opposite 32 (fixed amounts, A6)
                for s in self._active():
                    if s != c:
                        self.pay(None, s, c, r.reversis_opposite if r.opposite(s, c) else r.reversis_neighbour,
                                 "reversis_made")
            elif r.reversis_broken_pays_pool:  # F2.1 (pierer, A31): the maker pays the basket's amount into it
                self.pay(None, c, POOL, self.pool, "reversis_broken")
            else:  # R37: a flat 64 to the breaker
                self.pay(None, c, self.breaker, r.reversis_to_breaker, "reversis_broken")

        # R40, R41, A16: the espagnolette.
        esp_made = d is not None and not made and self.n_won[d] == 0  # a made reversis voids it (A16)
        if d is not None and not made and not esp_made:
            # R41, A14, G8: return every dump payment and pool win still standing, doubled.
            for idx, p in enumerate(list(self.ledger)):
                if idx in self.rolled_back or p.payee != d:
                    continue
                if p.reason in DUMP_REASONS:
                    self.pay(None, d, p.payer, p.amount * r.espagnolette_return_factor, "return")
                elif p.reason == "pool_won":
                    self.pay(None, d, POOL, p.amount * r.espagnolette_pool_return_factor, "return")
        out: dict = {"espagnolette": self._espagnolette_result(esp_made)}
        if r.party_payers == "loser_only":
            out["party_loser"] = None
        if made and r.cancel_party_on_success:
            return out  # R36: no party after a made reversis (and so no led claims, A3)

        # R28-R32: the party.
        failed = d if (d is not None and not esp_made) else None
        key = {s: self._key(s, self.points) for s in self._active()}
        if esp_made:
            winner = d  # R30: a successful declarer wins ahead of everyone
        else:
            winner = min((s for s in key if s != failed), key=key.__getitem__)
        out["party_winner"] = winner
        # R22, A3: led Aces and Quinola are paid to the party winner (nothing if he led it himself).
        for t, holder, base, reason in self.claims:
            if holder != winner:
                self.pay(None, holder, winner, base * self.mult(t, holder, winner), reason)
        value = r.party_bonus + sum(r.tables.talon_points[x] for x in self.talon)  # R31
        if r.party_payers == "each_other":  # R32: every other player pays; opposite ×2
            payers = [s for s in sorted(key) if s != winner]
        elif r.party_payers == "loser_only":  # PEN, F2.3; A14: a failed declarer pays in place of the loser
            loser = failed if failed is not None else max((s for s in key if s != winner), key=key.__getitem__)
            out["party_loser"] = loser
            payers = [loser]
        else:
            payers = []
        for s in payers:
            factor = r.party_opposite_factor if r.opposite(s, winner) else 1
            self.pay(None, s, winner, value * factor, "party")
        return out

    def settle_penalty(self) -> dict:
        """F1.4, the ``modern`` family: reversis, espagnolette, the Quinola surcharge, penalty fiches, the bête and
        the pot. Every amount is flat (F1.5); the opponents are the other seats taking part."""
        r = self.rules
        c, made, d = self.committed, self.reversis_made, self.declarer
        surcharge = [0] * self.n
        out: dict = {"espagnolette": None, "bete": None, "penalty": surcharge}

        def opponents(seat: int) -> list[int]:
            return [s for s in self._active() if s != seat]

        # Step 1: the reversis.
        if c is not None:
            if made:
                for s in opponents(c):
                    self.pay(None, s, c, r.reversis_each_opponent, "reversis_made")
                self.pay(None, POOL, c, self.pool, "reversis_pool")
                out["espagnolette"] = self._espagnolette_result(False)  # void (G13)
                out["penalty"] = list(self.points)  # G10
                return out
            for s in opponents(c):
                self.pay(None, c, s, r.reversis_broken_each_opponent, "reversis_broken")
        # Step 2: the espagnolette, made by losing (or winning) every trick as declared.
        if d is not None:
            want = 0 if self.goal == "lose_all" else self.n_tricks
            esp_made = self.n_won[d] == want
            out["espagnolette"] = self._espagnolette_result(esp_made)
            if esp_made:
                for s in opponents(d):
                    self.pay(None, s, d, r.espagnolette_each_opponent, "espagnolette_made")
                self.pay(None, POOL, d, self.pool, "espagnolette_pool")
                out["penalty"] = list(self.points)  # G10
                return out
            for s in opponents(d):  # G3: he is still ranked in step 5
                self.pay(None, d, s, r.espagnolette_each_opponent, "espagnolette_failed")
        # Step 3: the J♥ captured other than by placement costs its taker the pot + 4, into the pot (A22).
        for tr in self.tricks:
            if C.QUINOLA in tr.cards:
                i = tr.cards.index(C.QUINOLA)
                placed = i > 0 and C.suit_of(tr.cards[0]) != C.HEARTS
                if not placed or r.placement_is_capture:
                    surcharge[tr.winner] = self.pool + r.quinola_capture_surcharge
                    self.pay(None, tr.winner, POOL, surcharge[tr.winner], "quinola_captured")
        # Step 4: penalty fiches: each seat pays its card points into the pot (A18).
        for s in self._active():
            self.pay(None, s, POOL, self.points[s], "penalty")
        # Step 5: the deal winner (fewest penalty) and the bête (most) pays him (F0.4).
        penalty = [self.points[s] + surcharge[s] for s in range(self.n)]
        out["penalty"] = penalty
        key = {s: self._key(s, penalty) for s in self._active()}
        winner = min(key, key=key.__getitem__)
        bete = max(key, key=key.__getitem__)
        out["party_winner"], out["bete"] = winner, bete
        share = r.bete_dealer_share if r.dealer_sits_out else 0
        self.pay(None, bete, self.dealer, share, "bete_share")  # F1.6: the sitting-out dealer's share
        self.pay(None, bete, winner, r.bete_payment - share, "bete")
        # Step 6: the winner takes the pot, unless it carries over (modern_partie).
        if r.winner_takes_pool:
            self.pay(None, POOL, winner, self.pool, "pool_to_winner")
        return out

    def settle_bank(self) -> dict:
        """F3.7, ``serbian``: a made reversis takes everything; a failed espagnolette returns its takings doubled
        and doubles the bank; the deal winner takes the bank and the bête pays him 4."""
        r = self.rules
        c, made, d = self.committed, self.reversis_made, self.declarer
        key = {s: self._key(s, self.points) for s in self._active()}
        winner = min(key, key=key.__getitem__)
        bete = max(key, key=key.__getitem__)
        out: dict = {"espagnolette": None, "bete": None}
        if made:
            # Step 1 (G1): every other seat hands the maker everything it received in tricks 1-11 (gross).
            for s in self._active():
                if s != c:
                    got = sum(p.amount for p in self.ledger if p.trick is not None and p.payee == s)
                    self.pay(None, s, c, got, "reversis_made")
            self.pay(None, POOL, c, self.pool, "reversis_pool")
            if d is not None and d != c:
                self.pay(None, d, c, 2, "espagnolette_reversis")
            out["espagnolette"] = self._espagnolette_result(False)
            return out
        if d is not None:
            esp_made = winner == d  # A29: made = being the deal winner
            out["espagnolette"] = self._espagnolette_result(esp_made)
            if not esp_made:
                # Step 2 (G2): everything he received in tricks 1-11 goes back doubled; then he doubles the bank.
                for p in list(self.ledger):
                    if p.trick is not None and p.payee == d:
                        self.pay(None, d, p.payer, p.amount * r.espagnolette_return_factor, "return")
                self.pay(None, d, POOL, self.pool, "bank_double")
        # Step 3: the bank to the winner, and the bête pays him 4.
        out["party_winner"], out["bete"] = winner, bete
        self.pay(None, POOL, winner, self.pool, "pool_to_winner")
        self.pay(None, bete, winner, r.bete_payment, "bete")
        return out

    def settle_simple(self) -> dict:
        """F4.3, ``parlett_simple``: no chips; each seat scores its card points, +5 for taking the J♥."""
        score = list(self.points)
        for tr in self.tricks:
            if C.QUINOLA in tr.cards:
                score[tr.winner] += self.rules.simple_quinola_extra
        return {"espagnolette": None, "score": score}

    def _active(self) -> list[int]:
        return [s for s in range(self.n) if not (self.rules.dealer_sits_out and s == self.dealer)]

    def _key(self, seat: int, points: list[int]) -> tuple[int, int, int]:
        """F0.4, R29: (points, tricks, position in the tie order counted from the dealer); smallest wins."""
        return points[seat], self.n_won[seat], self.rules.tie_offsets.index((seat - self.dealer) % self.n)


def _nm(card) -> str:
    return C.name(card) if isinstance(card, int) else repr(card)


def play_deal(rules: Rules, policies: Sequence[Policy], *, seed: int = 0, match: int = 0, deal: int = 0,
              dealer: int = 0, pool_before: int = 0, seat_names: Sequence[str] | None = None,
              layout: Layout | None = None, double_ante: bool = False,
              score_before: Sequence[int] | None = None, policy_seeds: Sequence[int] | None = None) -> dict:
    """Play one deal and return its deal record (Appendix A) as JSON-ready data.

    Parameters
    ----------
    rules : the rule set; policies : one per seat; seed, match, deal : the deal's identifiers (they key the shuffle
    and the policies' randomness); dealer, pool_before : where the match stands; seat_names : the ``seats`` field;
    layout : fixed cards instead of the keyed shuffle (to settle a given deal); double_ante : ``serbian``, the
    previous deal had a J♥ placement (F3.3); score_before : ``parlett_simple``, the running totals (F4.3);
    policy_seeds : one seed per seat for its policy's randomness (default: ``seed``; the cards follow ``seed``).
    """
    if len(policies) != rules.n_seats:
        raise ValueError(f"{rules.name} needs {rules.n_seats} seat policies, got {len(policies)}")
    layout = layout or deal_cards(rules, seed, match, deal, dealer)
    g = _Deal(rules, policies, seed=seed, match=match, deal=deal, dealer=dealer, pool_before=pool_before,
              layout=layout, double_ante=double_ante, policy_seeds=policy_seeds)
    g.antes()
    g.exchange()
    g.declare()
    hands_at_lead = [sorted(h) for h in g.hands]  # Appendix A: each seat's cards at the first lead
    g.play_tricks()
    result = g.settle()
    espagnolette = None if g.declarer is None else {"seat": g.declarer}
    if espagnolette is not None and g.goal is not None:
        espagnolette["goal"] = g.goal  # F0.10
    record = {
        "format": FORMAT,
        "rules": rules.name,
        "rules_params": rules.to_params(),
        "run_seed": seed, "match": match, "deal": deal,
        "dealer": dealer,
        "seats": list(seat_names) if seat_names is not None else ["?"] * rules.n_seats,
        "pool_before": pool_before,
        "dealt": [C.names(sorted(h)) for h in layout.dealt],
        "talon_offered": [None if c is None else C.name(c) for c in layout.talon_offered],
        "exchanges": g.exchanges,
        "talon": C.names(g.talon),
        "hands": [C.names(h) for h in hands_at_lead],
        "espagnolette": espagnolette,
        "tricks": [{"leader": tr.leader, "cards": C.names(tr.cards), "winner": tr.winner} for tr in g.tricks],
        "payments": [p.to_json() for p in g.ledger],
        "result": result,
    }
    if rules.double_ante_after_placement:
        record["double_ante"] = bool(double_ante)  # F5
    if rules.scoring == "simple":
        before = list(score_before) if score_before is not None else [0] * rules.n_seats
        record["score_before"] = before
        result["score_after"] = [b + x for b, x in zip(before, result["score"])]
    return record


def quinola_placed(record: dict) -> bool:
    """The J♥ was placed (dumped) in this deal: played by a non-leader to a trick led in another suit."""
    for trick in record["tricks"]:
        if "JH" in trick["cards"]:
            return trick["cards"].index("JH") > 0 and trick["cards"][0][1] != "H"
    return False


# ----------------------------------------------------------------------------------------------------------------
# Matches
# ----------------------------------------------------------------------------------------------------------------


def dealer_of(rules: Rules, deal: int) -> int:
    """R4: deal 0 is dealt by seat 0; the deal then passes by ``dealer_step`` (to the right in ``parlett``)."""
    return (deal * rules.dealer_step) % rules.n_seats


def play_match(rules: Rules, seats: Sequence[PolicySpec], *, seed: int, match: int,
               n_deals: int | None = None, policy_seeds: Sequence[int] | None = None) -> Iterator[dict]:
    """R4, R10: the deals of one match in order, the dealer rotating and the pool carried over (a won pool
    restarts, R9). Yields one deal record per deal.

    The match has ``n_deals`` deals (default the preset's ``match_deals``). F0.7: a pool that does not persist
    starts every deal at 0. F3.3: ``serbian`` doubles the antes after a placement. F4.3, G14: in
    ``parlett_simple`` no deal follows one in which a running total reached the target.
    """
    policies = [make_policy(s) for s in seats]
    names = [str(s) for s in seats]
    pool, double_ante, score = 0, False, [0] * rules.n_seats
    for deal in range(rules.match_deals if n_deals is None else n_deals):
        record = play_deal(rules, policies, seed=seed, match=match, deal=deal, dealer=dealer_of(rules, deal),
                           pool_before=pool, seat_names=names, double_ante=double_ante, score_before=score,
                           policy_seeds=policy_seeds)
        pool = record["result"]["pool_after"] if rules.pool_persists else 0
        double_ante = rules.double_ante_after_placement and quinola_placed(record)
        yield record
        if rules.scoring == "simple":
            score = record["result"]["score_after"]
            if max(score) >= rules.target_total:
                return


def replay(rules: Rules, seats: Sequence[PolicySpec], *, seed: int, match: int, deal: int,
           policy_seeds: Sequence[int] | None = None) -> dict:
    """The record of deal ``deal`` of match ``match``: the match is played up to it (the pool carries)."""
    *_, record = play_match(rules, seats, seed=seed, match=match, n_deals=deal + 1, policy_seeds=policy_seeds)
    if record["deal"] != deal:
        raise ValueError(f"match {match} ended after deal {record['deal']} (a running total reached "
                         f"{rules.target_total}); there is no deal {deal}")
    return record


# ----------------------------------------------------------------------------------------------------------------
# Settling a given deal (audit, golden records)
# ----------------------------------------------------------------------------------------------------------------


class ScriptedPolicy:
    """Plays the decisions written in a deal record: its exchange, its declaration and its cards in order."""

    def __init__(self, exchange: int | None, declares: bool, goal: str | None, cards_by_trick: list[int | None]):
        self._exchange, self._declares, self._goal, self._cards = exchange, declares, goal, cards_by_trick

    def exchange(self, view: SeatView) -> int | None:
        return self._exchange

    def declare_espagnolette(self, view: SeatView) -> bool:
        return self._declares

    def espagnolette_goal(self, view: SeatView) -> str | None:
        return self._goal

    def play(self, view: SeatView, legal: tuple[int, ...]) -> int:
        card = self._cards[view.trick_index]
        if card is None:
            raise IllegalPlay(f"trick {view.trick_index + 1}: the record has no card for seat {view.seat}")
        return card


def settle_record(record: dict, rules: Rules) -> dict:
    """Re-play a deal record's cards and decisions through the engine and return the engine's own record.

    Uses ``dealt``, ``talon_offered``, ``exchanges``, ``espagnolette`` and the cards of each trick (each seat's card
    in trick t is read with the record's leaders); the engine decides legality, winners and every payment.
    """
    n = rules.n_seats
    parse = lambda x: None if x is None else C.parse(x)  # noqa: E731
    layout = Layout([[C.parse(x) for x in h] for h in record["dealt"]],
                    [parse(x) for x in record["talon_offered"]])
    exchange: list[int | None] = [None] * n
    for e in record["exchanges"]:
        exchange[e["seat"]] = parse(e["discard"])
    esp = record.get("espagnolette")
    declarer = esp if isinstance(esp, int) or esp is None else esp["seat"]
    goal = esp.get("goal") if isinstance(esp, dict) else None
    cards: list[list[int | None]] = [[None] * len(record["tricks"]) for _ in range(n)]
    for t, tr in enumerate(record["tricks"]):
        order = _playing_order(rules, record["dealer"], tr["leader"])
        for seat, card in zip(order, tr["cards"]):
            cards[seat][t] = C.parse(card)
    policies = [ScriptedPolicy(exchange[s], s == declarer, goal, cards[s]) for s in range(n)]
    out = play_deal(rules, policies, seed=record.get("run_seed", 0), match=record.get("match", 0),
                     deal=record.get("deal", 0), dealer=record["dealer"], pool_before=record["pool_before"],
                     seat_names=record.get("seats"), layout=layout, double_ante=record.get("double_ante", False),
                     score_before=record.get("score_before"))
    if declarer is not None and out["espagnolette"] is None:  # R38: only an eligible hand may declare
        raise IllegalPlay(f"seat {declarer} may not declare the espagnolette: its hand at the first lead "
                          f"({' '.join(out['hands'][declarer])}) is not one of {', '.join(rules.espagnolette_hands)}"
                          + ("" if rules.espagnolette_enabled else f" (and {rules.name} has no espagnolette)"))
    return out
