"""The reference engine: pure Python, slow and obviously correct.

Read it beside RULES.md: every rule is a commented block citing its number (``# R26``). It plays whole deals and
matches from a run seed (or settles a given deal card by card, which is how a user audits a real game), and writes
each deal as a deal record (RULES.md Appendix A, ``reversis-deal/1``). It is the test oracle of the numba engine.

Implemented here: the ``parlett`` family (RULES.md §1, §3 A; the preset options ``party_payers``, ``tie_order``,
talon point values, 52 cards, espagnolette on/off). Rule sets of the other families are refused with a clear
error until their issue lands.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from . import cards as C
from . import keys
from .policies import Payment, Policy, PolicySpec, SeatView, TrickRecord, make_policy
from .rules import Rules, RulesError

FORMAT = "reversis-deal/1"

#: Payment reasons of the parlett family (Appendix A); the numba engine numbers them in this order.
REASONS = ("ante", "ace_dumped", "ace_forced", "ace_led", "quinola_dumped", "quinola_forced", "quinola_led",
           "pool_double", "pool_won", "party", "reversis_made", "reversis_broken", "return", "espagnolette")
DUMP_REASONS = ("ace_dumped", "quinola_dumped")  # what a failed espagnolette returns (R41) ...
POOL = "pool"


class IllegalPlay(ValueError):
    """A policy (or a scripted deal) chose a card or discard the rules do not allow."""


def check_supported(rules: Rules) -> None:
    """Refuse, in one sentence, a rule set whose family this engine does not play yet."""
    missing = [what for what, on in (
        ("simple scoring", rules.simple_scoring),
        ("a sitting-out dealer", rules.dealer_sits_out),
        ("talon_mode take_then_discard", rules.talon_mode == "take_then_discard"),
        ("penalty fiches", rules.penalty_to_pool),
        ("the bête payment", rules.bete_payment > 0),
        ("the winner taking the pot", rules.winner_takes_pool),
        ("the Quinola capture surcharge", rules.quinola_capture_surcharge > 0),
        ("espagnolette goal choice", rules.espagnolette_goal_choice),
        ("espagnolette success by deal winner", rules.espagnolette_success != "zero_tricks"),
        ("double antes", rules.double_ante_after_placement),
        ("a non-persistent pool", not rules.pool_persists),
    ) if on]
    if missing:
        raise RulesError(f"rules {rules.name!r} need {', '.join(missing)}, which this engine does not play yet")


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
                 dealer: int, pool_before: int, layout: Layout):
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
        self.streams = [keys.stream(seed, match, deal, keys.PURPOSE_POLICY, s) for s in range(self.n)]

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
        """R9, F0.6: a new pool is staked when the pool is empty (5 each); the dealer adds 5 on every deal."""
        r, d = self.rules, self.dealer
        seats = [s for s in range(self.n) if not (r.dealer_sits_out and s == d)]
        if self.pool < r.restake_below:
            for s in seats:
                self.pay(None, s, POOL, r.restake_dealer if s == d else r.restake_each, "ante")
        for s in seats:
            self.pay(None, s, POOL, r.every_dealer if s == d else r.every_each, "ante")

    def exchange(self) -> None:
        """R13-R15: the dealer discards one card; then each non-dealer in playing order either discards one card
        and takes his face-down card unseen, or keeps his hand and only looks at it. The talon is always the four
        cards left out (R15), hidden until settlement (A17)."""
        r, d = self.rules, self.dealer
        if r.talon_mode == "none":
            return
        order = [d] + [s for s in _playing_order(r, d, _eldest(r, d)) if s != d]  # A: dealer discards first
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

    def declare(self) -> None:
        """R38, A13: after the exchange and before the first lead, an eligible player may declare."""
        r = self.rules
        if not r.espagnolette_enabled:
            return
        for seat in _playing_order(r, self.dealer, _eldest(r, self.dealer)):
            if espagnolette_eligible(r, self.hands[seat]):  # at most one seat can be eligible
                if self.policies[seat].declare_espagnolette(self.view(seat)):
                    self.declarer = seat
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

    # -- settlement (R33 order: reversis, espagnolette, led claims, party) -------------------------------------
    def settle(self) -> dict:
        r = self.rules
        n_won = [0] * self.n
        points = [0] * self.n
        for tr in self.tricks:
            n_won[tr.winner] += 1
            points[tr.winner] += sum(r.tables.trick_points[c] for c in tr.cards)  # R7, R28

        # R36, R37: the reversis.
        reversis = None
        made = False
        c = self.committed
        if c is not None:
            made = n_won[c] == self.n_tricks
            breaker = None
            if not made:  # G9: the winner of the first trick after the commitment that c lost
                breaker = next(tr.winner for tr in self.tricks[r.reversis_commit_after:] if tr.winner != c)
            reversis = {"seat": c, "made": made, "breaker": breaker}
            if made:  # R36: each neighbour 16, the opposite 32 (fixed amounts, A6)
                for s in sorted(self._active()):
                    if s != c:
                        amount = r.reversis_each_opponent or (
                            r.reversis_opposite if r.opposite(s, c) else r.reversis_neighbour)
                        self.pay(None, s, c, amount, "reversis_made")
            else:  # R37: a flat 64 to the breaker
                self.pay(None, c, breaker, r.reversis_to_breaker, "reversis_broken")

        # R40, R41, A16: the espagnolette.
        espagnolette = None
        esp_made = False
        d = self.declarer
        if d is not None:
            esp_made = (not made) and n_won[d] == 0  # a made reversis voids it (A16)
            espagnolette = {"seat": d, "made": esp_made}
            if not made and not esp_made:
                # R41, A14, G8: return every dump payment and pool win still standing, doubled.
                for idx, p in enumerate(list(self.ledger)):
                    if idx in self.rolled_back or p.payee != d:
                        continue
                    if p.reason in DUMP_REASONS:
                        self.pay(None, d, p.payer, p.amount * r.espagnolette_return_factor, "return")
                    elif p.reason == "pool_won":
                        self.pay(None, d, POOL, p.amount * r.espagnolette_pool_return_factor, "return")

        # R28-R32: the party (cancelled by a made reversis, R36).
        party_winner = party_loser = None
        if not (made and r.cancel_party_on_success):
            failed = d if (d is not None and not esp_made) else None
            key = {s: self._key(s, points, n_won) for s in self._active()}
            if esp_made:
                party_winner = d  # R30: a successful declarer wins ahead of everyone
            else:
                party_winner = min((s for s in key if s != failed), key=key.__getitem__)
            # R22, A3: led Aces and Quinola are paid to the party winner (nothing if he led it himself).
            for t, holder, base, reason in self.claims:
                if holder != party_winner:
                    self.pay(None, holder, party_winner, base * self.mult(t, holder, party_winner), reason)
            value = r.party_bonus + sum(r.tables.talon_points[x] for x in self.talon)  # R31
            if r.party_payers == "each_other":  # R32: every other player pays; opposite ×2
                payers = [s for s in sorted(key) if s != party_winner]
            elif r.party_payers == "loser_only":  # PEN; A14: a failed declarer pays in place of the loser
                party_loser = failed if failed is not None else max(
                    (s for s in key if s != party_winner), key=key.__getitem__)
                payers = [party_loser]
            else:
                payers = []
            for s in payers:
                factor = r.party_opposite_factor if r.opposite(s, party_winner) else 1
                self.pay(None, s, party_winner, value * factor, "party")

        fish = [0] * self.n
        for p in self.ledger:
            if p.payer != POOL:
                fish[p.payer] -= p.amount
            if p.payee != POOL:
                fish[p.payee] += p.amount
        result = {"fish": fish, "pool_after": self.pool, "card_points": points, "tricks_won": n_won,
                  "party_winner": party_winner}
        if r.party_payers == "loser_only":
            result["party_loser"] = party_loser
        result["reversis"] = reversis
        result["espagnolette"] = espagnolette
        return result

    def _active(self) -> list[int]:
        return [s for s in range(self.n) if not (self.rules.dealer_sits_out and s == self.dealer)]

    def _key(self, seat: int, points: list[int], n_won: list[int]) -> tuple[int, int, int]:
        """F0.4, R29: (points, tricks, position in the tie order counted from the dealer); smallest wins."""
        return points[seat], n_won[seat], self.rules.tie_offsets.index((seat - self.dealer) % self.n)


def _nm(card) -> str:
    return C.name(card) if isinstance(card, int) else repr(card)


def play_deal(rules: Rules, policies: Sequence[Policy], *, seed: int = 0, match: int = 0, deal: int = 0,
              dealer: int = 0, pool_before: int = 0, seat_names: Sequence[str] | None = None,
              layout: Layout | None = None) -> dict:
    """Play one deal and return its deal record (Appendix A) as JSON-ready data.

    Parameters
    ----------
    rules : the rule set; policies : one per seat; seed, match, deal : the deal's identifiers (they key the shuffle
    and the policies' randomness); dealer, pool_before : where the match stands; seat_names : the ``seats`` field;
    layout : fixed cards instead of the keyed shuffle (to settle a given deal).
    """
    check_supported(rules)
    if len(policies) != rules.n_seats:
        raise ValueError(f"{rules.name} needs {rules.n_seats} seat policies, got {len(policies)}")
    layout = layout or deal_cards(rules, seed, match, deal, dealer)
    g = _Deal(rules, policies, seed=seed, match=match, deal=deal, dealer=dealer, pool_before=pool_before,
              layout=layout)
    g.antes()
    g.exchange()
    g.declare()
    hands_at_lead = [sorted(h) for h in g.hands]  # Appendix A: each seat's cards at the first lead
    g.play_tricks()
    result = g.settle()
    return {
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
        "espagnolette": None if g.declarer is None else {"seat": g.declarer},
        "tricks": [{"leader": tr.leader, "cards": C.names(tr.cards), "winner": tr.winner} for tr in g.tricks],
        "payments": [p.to_json() for p in g.ledger],
        "result": result,
    }


# ----------------------------------------------------------------------------------------------------------------
# Matches
# ----------------------------------------------------------------------------------------------------------------


def dealer_of(rules: Rules, deal: int) -> int:
    """R4: deal 0 is dealt by seat 0; the deal then passes by ``dealer_step`` (to the right in ``parlett``)."""
    return (deal * rules.dealer_step) % rules.n_seats


def play_match(rules: Rules, seats: Sequence[PolicySpec], *, seed: int, match: int,
               n_deals: int | None = None) -> Iterator[dict]:
    """R4, R10: the deals of one match in order, the dealer rotating and the pool carried over (a won pool
    restarts, R9). Yields one deal record per deal."""
    check_supported(rules)
    policies = [make_policy(s) for s in seats]
    names = [str(s) for s in seats]
    pool = 0
    for deal in range(rules.match_deals if n_deals is None else n_deals):
        record = play_deal(rules, policies, seed=seed, match=match, deal=deal, dealer=dealer_of(rules, deal),
                           pool_before=pool, seat_names=names)
        pool = record["result"]["pool_after"]
        yield record


def replay(rules: Rules, seats: Sequence[PolicySpec], *, seed: int, match: int, deal: int) -> dict:
    """The record of deal ``deal`` of match ``match``: the match is played up to it (the pool carries)."""
    *_, record = play_match(rules, seats, seed=seed, match=match, n_deals=deal + 1)
    return record


# ----------------------------------------------------------------------------------------------------------------
# Settling a given deal (audit, golden records)
# ----------------------------------------------------------------------------------------------------------------


class ScriptedPolicy:
    """Plays the decisions written in a deal record: its exchange, its declaration and its cards in order."""

    def __init__(self, exchange: int | None, declares: bool, cards_by_trick: list[int | None]):
        self._exchange, self._declares, self._cards = exchange, declares, cards_by_trick

    def exchange(self, view: SeatView) -> int | None:
        return self._exchange

    def declare_espagnolette(self, view: SeatView) -> bool:
        return self._declares

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
    cards: list[list[int | None]] = [[None] * len(record["tricks"]) for _ in range(n)]
    for t, tr in enumerate(record["tricks"]):
        order = _playing_order(rules, record["dealer"], tr["leader"])
        for seat, card in zip(order, tr["cards"]):
            cards[seat][t] = C.parse(card)
    policies = [ScriptedPolicy(exchange[s], s == declarer, cards[s]) for s in range(n)]
    return play_deal(rules, policies, seed=record.get("run_seed", 0), match=record.get("match", 0),
                     deal=record.get("deal", 0), dealer=record["dealer"], pool_before=record["pool_before"],
                     seat_names=record.get("seats"), layout=layout)
