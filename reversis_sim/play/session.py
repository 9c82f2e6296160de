"""A person plays deals against the bots: one deal or a whole match (the pool carried, the dealer
turning), each deal shown as it is played, kept as its record, and set beside the duplicate deal (the same cards,
the person's seat played by ``tuned``).

The deal is the reference engine's (:class:`reversis_sim.reference.DealState`): the bots are its seat policies, keyed
by (seed, match, deal, seat) as in every run, so the same seed deals the same cards and the bots answer the same
cards the same way; the person's seat is a :class:`.human.HumanSeat`. Each finished deal's record (RULES.md
Appendix A, the person's seat named ``human``) is appended to ``games.jsonl`` as soon as it is settled, so an
interrupted session loses only the deal in progress.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from .. import cards as C
from ..game import FATE_DUMPED, deal_record, dealer_of, quinola_fate
from ..game.diagram import REASON_WORDS
from ..policies import NAMED, PolicySpec, SeatView, parse_spec
from ..reference import DealState, deal_cards, make_policy
from ..reference.settle import settle
from ..rules import Rules
from .human import HumanSeat, Screen

HUMAN = "human"
"""The name of the person's seat in a record's ``seats``."""
GAMES = "games.jsonl"
"""The file of a games folder: one deal record per line, in the order played."""
DUPLICATE = "tuned"
"""The bot that plays the person's seat in the duplicate deal."""


@dataclass
class Game:
    """What a session is asked: the rules, the table (one spec per seat; the person's is ignored), the person's
    seat ``you``, the deals' keys (``seed``, ``match``), how many deals (``n_deals``, at most a match)."""

    rules: Rules
    seats: list[PolicySpec]
    you: int
    seed: int
    match: int = 0
    n_deals: int = 1
    names: list[str] = field(init=False)

    def __post_init__(self):
        self.names = [HUMAN if s == self.you else str(p) for s, p in enumerate(self.seats)]


class Table:
    """The deal as the person sees it while it is played: each bot's card, each finished trick and what it moved."""

    def __init__(self, screen: Screen, you: int):
        self.screen, self.you, self.shown = screen, you, 0

    def catch_up(self, tricks, payments) -> None:
        """Show the tricks finished since the last shown (``TrickRecord``s, or a record's trick dicts)."""
        s = self.screen
        while self.shown < len(tricks):
            tr = tricks[self.shown]
            self.shown += 1
            winner = tr.winner if hasattr(tr, "winner") else tr["winner"]
            who = "you win" if winner == self.you else f"S{winner} wins"
            moved = [p for p in payments if _get(p, "trick") == self.shown]
            text = " · ".join(f"{REASON_WORDS.get(_get(p, 'reason'), _get(p, 'reason'))} {_party(_get(p, 'payer'))}"
                              f"→{_party(_get(p, 'payee'))} {_get(p, 'amount')}" for p in moved)
            s.say(f"  → {who} trick {self.shown}" + (f"   {text}" if text else ""))


def _get(p, name):
    """A payment's field, from a :class:`~reversis_sim.game.Payment` or a record's dict."""
    if isinstance(p, dict):
        return p[{"payer": "from", "payee": "to"}.get(name, name)]
    return getattr(p, name)


def _party(p) -> str:
    return "pool" if p == "pool" else f"S{p}"


class ShownBot:
    """A bot's seat policy whose decisions are shown on the screen at the session's pace."""

    def __init__(self, policy, seat: int, table: Table):
        self.policy, self.seat, self.table = policy, seat, table

    def exchange(self, view: SeatView) -> int | None:
        card = self.policy.exchange(view)
        what = ("discards" if view.seat == view.dealer or view.rules.talon_mode == "take_then_discard" else
                ("keeps its hand" if card is None else "discards and takes its talon card"))
        self.table.screen.say(f"  S{self.seat} {what}")
        return card

    def declare_espagnolette(self, view: SeatView) -> bool:
        yes = self.policy.declare_espagnolette(view)
        if yes:
            self.table.screen.say(f"  S{self.seat} declares the espagnolette (R38)")
        return yes

    def espagnolette_goal(self, view: SeatView) -> str:
        goal = self.policy.espagnolette_goal(view)
        self.table.screen.say(f"  S{self.seat}'s goal: {goal.replace('_', ' ')}")
        return goal

    def play(self, view: SeatView, legal: tuple[int, ...]) -> int:
        self.table.catch_up(view.tricks, view.payments)
        card = self.policy.play(view, legal)
        lead = "leads" if not view.current else "plays"
        self.table.screen.say(f"  S{self.seat} {lead} {self.table.screen.card(card)}")
        self.table.screen.pause()
        return card


def live_record(g: DealState, view=None) -> dict:
    """The part of a deal record a review of the deal in progress reads (:func:`.verdict.card_verdict`): the deal
    so far, and the trick in progress (``view``: the deciding seat's, its cards before the seat's)."""
    esp = None if g.declarer is None else ({"seat": g.declarer} | ({"goal": g.goal} if g.goal else {}))
    tricks = [{"leader": t.leader, "cards": C.names(t.cards), "winner": t.winner} for t in g.tricks]
    if view is not None and len(g.tricks) < g.rules.n_tricks:
        leader = view.seat if view.leader is None else view.leader
        tricks.append({"leader": leader, "cards": C.names(view.current), "winner": None})
    return {"run_seed": g.seed, "match": g.match, "deal": g.deal, "dealer": g.dealer, "pool_before": g.pool_before,
            "double_ante": bool(g.double_ante), "espagnolette": esp,
            "dealt": [C.names(h) for h in g.layout.dealt],
            "hands": [C.names(h) for h in g.hands_at_lead],
            "talon": C.names(g.talon), "talon_offered": [None if c is None else C.name(c) for c in
                                                         g.layout.talon_offered],
            "exchanges": [{"seat": e.seat, "discard": None if e.discard is None else C.name(e.discard)}
                          for e in g.exchanges],
            "tricks": tricks}


def play_one(game: Game, screen: Screen, deal: int, pool_before: int, double_ante: bool,
             score_before: Sequence[int] | None,
             hint: Callable[[DealState, SeatView, tuple[int, ...]], list[str]] | None = None) -> dict:
    """Play deal ``deal`` of the game's match with the person in seat ``game.you``; its deal record."""
    r, you = game.rules, game.you
    dealer = dealer_of(r, deal)
    table = Table(screen, you)
    state: list[DealState] = []
    human = HumanSeat(screen, None if hint is None else (lambda view, legal: hint(state[0], view, legal)),
                      before=lambda view: table.catch_up(view.tricks, view.payments))
    policies = [human if s == you else ShownBot(make_policy(p), s, table) for s, p in enumerate(game.seats)]
    g = DealState(r, policies, seed=game.seed, match=game.match, deal=deal, dealer=dealer, pool_before=pool_before,
                  layout=deal_cards(r, game.seed, game.match, deal, dealer), double_ante=double_ante)
    state.append(g)
    screen.say("")
    screen.say(f"== {r.name} · seed {game.seed} · match {game.match} · deal {deal} · dealer "
               f"{'you' if dealer == you else f'S{dealer}'} · pool {pool_before} · you are S{you}")
    screen.say("   " + "  ".join(f"S{s} {short_name(p) if s != you else 'you'}" for s, p in enumerate(game.seats)))
    if r.dealer_sits_out and dealer == you:
        screen.say("You deal and sit this deal out (F1.6).")
    else:
        screen.say(f"Dealt       {screen.hand(g.hands[you], r)}")
    g.antes()
    if r.talon_mode != "none":
        screen.say("Exchange")
    g.exchange()
    _exchanged(g, you, screen)
    g.declare()
    g.play_tricks()
    settle(g)
    names = game.names
    if r.scoring == "simple" and score_before is None:
        score_before = [0] * r.n_seats
    record = deal_record(g.outcome(names, score_before if r.scoring == "simple" else None))
    table.catch_up(record["tricks"], record["payments"])
    return record


def _exchanged(g: DealState, you: int, screen: Screen) -> None:
    """What the person's exchange gave: the card taken, or the talon card looked at (R14, A17)."""
    mine = next((e for e in g.exchanges if e.seat == you), None)
    if mine is None:
        return
    offered = g.layout.talon_offered[you]
    if mine.discard is None and offered is not None:
        screen.say(f"You keep your hand and look at the talon card: {screen.card(offered)}")
    elif mine.took and offered is not None:
        screen.say(f"You discard {screen.card(mine.discard)} and take {screen.card(offered)}")
    else:
        screen.say(f"You discard {screen.card(mine.discard)}")


def short_name(spec: PolicySpec) -> str:
    """A seat's policy as the table shows it: a named preset's name (``tuned``), else its spec."""
    for name, text in NAMED.items():
        if parse_spec(text) == spec:
            return name
    return spec.text


def duplicate(game: Game, record: dict, spec: str | PolicySpec = DUPLICATE) -> dict:
    """The same deal (cards, dealer, pool, the bots' keys) with the person's seat played by ``spec``: its record."""
    r = game.rules
    seats = [parse_spec(spec) if s == game.you else p for s, p in enumerate(game.seats)]
    g = DealState(r, [make_policy(p) for p in seats], seed=game.seed, match=game.match, deal=record["deal"],
                  dealer=record["dealer"], pool_before=record["pool_before"],
                  layout=deal_cards(r, game.seed, game.match, record["deal"], record["dealer"]),
                  double_ante=bool(record.get("double_ante", False)))
    g.antes()
    g.exchange()
    g.declare()
    g.play_tricks()
    settle(g)
    return deal_record(g.outcome([str(p) for p in seats], record.get("score_before")))


def next_deal(rules: Rules, record: dict) -> tuple[int, bool, list[int] | None, bool]:
    """What the next deal of the match starts from (R9, R10, F0.7, F3.3, F4.3): the pool, doubled antes, the
    running scores, and whether the match is over (a running total reached the target)."""
    pool = record["result"]["pool_after"] if rules.pool_persists else 0
    placed = quinola_fate(tuple(C.parse(c) for c in t["cards"]) for t in record["tricks"])[0] == FATE_DUMPED
    double_ante = rules.double_ante_after_placement and placed
    score = record["result"].get("score_after")
    over = rules.scoring == "simple" and max(score) >= rules.target_total
    return pool, double_ante, score, over


def append_record(folder: Path, record: dict) -> tuple[Path, str | None]:
    """Append ``record`` to the folder's games file, one JSON line synced to disk before returning
    (:func:`reversis_sim.record.append_line`: a torn last line a crash left is repaired or set aside first, so that
    no kept deal is lost); (the games file, what was done to a torn line or None)."""
    from ..record import append_line

    folder.mkdir(parents=True, exist_ok=True)
    path = folder / GAMES
    return path, append_line(path, json.dumps(record))


def human_seat(record: dict) -> int | None:
    """The person's seat in a record (None: the bots played every seat)."""
    return next((s for s, name in enumerate(record["seats"]) if name == HUMAN), None)

