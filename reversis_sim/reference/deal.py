"""One deal in progress, step by step: antes, the talon exchange, the declaration, the tricks with their side
payments and the reversis commitment (RULES.md §1.3-§1.8, §3 F). The settlement is in :mod:`.settle`.

Read it beside RULES.md: every rule is a commented block citing its number (``# R26``).
"""

from __future__ import annotations

from collections.abc import Sequence

from .. import cards as C
from .. import keys
from ..game import POOL, DealOutcome, Exchange, IllegalPlay, Payment, Reversis, TrickRecord, espagnolette_eligible
from ..policies import Policy, SeatView
from ..rules import Rules
from .table import Layout, active_seats, eldest, legal_cards, playing_order, trick_winner


def card_name(card) -> str:
    """A card's name for an error message (anything else as its repr)."""
    return C.name(card) if isinstance(card, int) else repr(card)


class DealState:
    """The state of one deal in progress. Policies only ever see a :class:`SeatView` of it."""

    def __init__(self, rules: Rules, policies: Sequence[Policy], *, seed: int, match: int, deal: int,
                 dealer: int, pool_before: int, layout: Layout, double_ante: bool = False,
                 policy_seeds: Sequence[int] | None = None):
        self.rules, self.policies = rules, list(policies)
        self.seed, self.match, self.deal, self.dealer = seed, match, deal, dealer
        self.n = rules.n_seats
        self.n_tricks = rules.n_tricks
        self.pool_before = self.pool = pool_before
        self.layout = layout
        self.hands = [list(h) for h in layout.dealt]
        self.hands_at_lead: list[list[int]] = []
        self.ledger: list[Payment] = []
        self.rolled_back: set[int] = set()  # ledger rows given back by the reversis commitment (R35)
        self.claims: list[tuple[int, int, int, str]] = []  # led Ace/Quinola: (trick, holder, base, reason) (R22)
        self.tricks: list[TrickRecord] = []
        self.talon: list[int] = []
        self.talon_known: list[list[int]] = [[] for _ in range(self.n)]
        self.exchanges: list[Exchange] = []
        self.declarer: int | None = None
        self.committed: int | None = None  # the seat committed to the reversis (R34)
        self.goal: str | None = None  # modern family: the declarer's "lose_all" | "win_all" (F1.4)
        self.double_ante = double_ante  # serbian (F3.3)
        # the verdicts of the settlement (.settle)
        self.points: list[int] = []
        self.n_won: list[int] = []
        self.reversis_made = False
        self.breaker: int | None = None
        self.espagnolette_made = False
        self.party_winner: int | None = None
        self.party_loser: int | None = None
        self.bete: int | None = None
        seeds = [seed] * self.n if policy_seeds is None else list(policy_seeds)  # determinism by key
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

    def active(self) -> list[int]:
        """The seats taking part in this deal."""
        return active_seats(self.rules, self.dealer)

    def view(self, seat: int, leader: int | None = None, current: Sequence[int] = ()) -> SeatView:
        return SeatView(
            rules=self.rules, seat=seat, dealer=self.dealer, hand=tuple(sorted(self.hands[seat])),
            trick_index=len(self.tricks), leader=leader, current=tuple(current), tricks=tuple(self.tricks),
            talon_known=tuple(self.talon_known[seat]), pool=self.pool, payments=tuple(self.ledger),
            espagnolette=self.declarer, policy_stream=self.streams[seat], pool_before=self.pool_before,
            double_ante=bool(self.double_ante), goal=self.goal,
        )

    # -- the deal, step by step -------------------------------------------------------------------------------
    def antes(self) -> None:
        """R9, F0.6: a new pool is staked when the pool is empty (5 each); the dealer adds 5 on every deal.
        F3.3: ``serbian`` doubles the every-deal antes after a deal with a J♥ placement."""
        r, d = self.rules, self.dealer
        seats = self.active()
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
        order = [d] + [s for s in playing_order(r, d, eldest(r, d)) if s != d]  # A: dealer discards first
        if r.talon_mode == "take_then_discard":
            self._take_then_discard(order)
            return
        for seat in order:
            choice = self.policies[seat].exchange(self.view(seat))
            hand = self.hands[seat]
            if seat == d:  # R13: the dealer discards, never takes
                if choice not in hand:
                    raise IllegalPlay(f"dealer {seat} must discard a card of his hand, not {card_name(choice)}")
                hand.remove(choice)
                self.talon.append(choice)
                self.talon_known[seat].append(choice)
                self.exchanges.append(Exchange(seat, choice, False))
                continue
            offered = self.layout.talon_offered[seat]
            if choice is None:  # R14 (b): keep the hand and just look at the card
                self.talon.append(offered)
                self.talon_known[seat].append(offered)
                self.exchanges.append(Exchange(seat, None, False))
            else:  # R14 (a): discard one card, take the face-down card without looking first
                if choice not in hand:
                    raise IllegalPlay(f"seat {seat} must discard a card of his hand, not {card_name(choice)}")
                hand.remove(choice)
                hand.append(offered)
                self.talon.append(choice)
                self.talon_known[seat].append(choice)
                self.exchanges.append(Exchange(seat, choice, True))

    def _take_then_discard(self, order: list[int]) -> None:
        """F3.2 (``serbian``): each non-dealer must take his talon card; then the dealer and each non-dealer in
        playing order discard one card (perhaps the one just taken). The four discards are the talon."""
        for seat in order[1:]:
            self.hands[seat].append(self.layout.talon_offered[seat])
        for seat in order:
            choice = self.policies[seat].exchange(self.view(seat))
            if choice not in self.hands[seat]:
                raise IllegalPlay(f"seat {seat} must discard a card of his hand, not {card_name(choice)}")
            self.hands[seat].remove(choice)
            self.talon.append(choice)
            self.talon_known[seat].append(choice)
            self.exchanges.append(Exchange(seat, choice, seat != self.dealer))

    def declare(self) -> None:
        """R38, A13: after the exchange and before the first lead, an eligible player may declare. In the
        ``modern`` family he also names his goal, ``lose_all`` or ``win_all`` (F1.4)."""
        r = self.rules
        if not r.espagnolette_enabled:
            return
        for seat in playing_order(r, self.dealer, eldest(r, self.dealer)):
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
        self.hands_at_lead = [sorted(h) for h in self.hands]  # Appendix A: each seat's cards at the first lead
        leader = eldest(r, self.dealer)
        for t in range(1, self.n_tricks + 1):
            order = playing_order(r, self.dealer, leader)
            played: list[int] = []
            for seat in order:
                legal = legal_cards(r, self.hands[seat], t - 1, played, seat == self.declarer)
                card = self.policies[seat].play(self.view(seat, leader, played), legal)
                if card not in legal:
                    raise IllegalPlay(f"trick {t}: seat {seat} may not play {card_name(card)}; legal: "
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

    # -- after the settlement -----------------------------------------------------------------------------------
    def outcome(self, seat_names: Sequence[str], score_before: Sequence[int] | None) -> DealOutcome:
        """The finished deal, for :func:`reversis_sim.game.deal_record`."""
        c = self.committed
        return DealOutcome(
            rules=self.rules, seats=list(seat_names), seed=self.seed, match=self.match, deal=self.deal,
            dealer=self.dealer, pool_before=self.pool_before, dealt=self.layout.dealt,
            talon_offered=self.layout.talon_offered, exchanges=self.exchanges, talon=self.talon,
            hands=self.hands_at_lead, declarer=self.declarer, goal=self.goal, tricks=self.tricks,
            payments=self.ledger,
            reversis=None if c is None else Reversis(c, self.reversis_made, self.breaker),
            espagnolette_made=self.espagnolette_made, party_winner=self.party_winner, party_loser=self.party_loser,
            bete=self.bete, double_ante=self.double_ante, score_before=score_before)
