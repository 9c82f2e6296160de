"""A session at the table: the deals played one after the other (the pool carried), each kept, each followed by its
review, its duplicate deal and the running fish; ``hint`` during play; ``quit``, Ctrl-C and the end of input end it
with every finished deal kept, and say so.

The review and the hint load numba (:mod:`.verdict`); the deal itself is the reference engine's (:mod:`.session`).
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass
from pathlib import Path

from ..policies import SeatView, parse_spec
from ..record import TORN
from ..reference import DealState, make_policy
from .human import Quit, Screen
from .session import DUPLICATE, GAMES, Game, append_record, duplicate, live_record, next_deal, play_one

HINT_SEARCH = "search"
"""The search asked by ``hint``: the default search (:func:`hint_search` binds its rollout to the rules)."""
HINT_WORLDS = 256
"""The worlds ``hint`` values the options in: half choose, half measure, so 128 measure each value (at the review's
16, 8 measure, and a value's standard error, 10-20 fish, hides the differences a hint is asked for; 256 worlds of a
decision take a few milliseconds)."""


@dataclass(frozen=True)
class Reviewing:
    """How each deal is reviewed after it is played: ``worlds`` per decision, by ``rollout`` in every seat (the
    ``review`` command's defaults; under another family's rules its own strongest preset,
    :func:`reversis_sim.review.settings.default_rollout`), and whether the duplicate deal is played (with
    ``rollout`` in the person's seat)."""

    worlds: int = 16
    rollout: str = DUPLICATE
    duplicate: bool = True


def hint_search(rules) -> str:
    """The search ``hint`` asks under ``rules``: the default search, rolling out with the rules' own learned player
    (or their family's strongest heuristic where none was learned: :func:`reversis_sim.policies.registry.for_rules`),
    as its spec (``search:rollout=learned:weights=modern`` under ``modern``)."""
    from ..policies.registry import for_rules

    return str(for_rules(parse_spec(HINT_SEARCH), rules))


class SessionEnd(Exception):
    """The session ended early: ``code`` is the exit status (130 after Ctrl-C, 0 at the end of input)."""

    def __init__(self, code: int, kept: list[dict]):
        super().__init__(code)
        self.code, self.kept = code, kept


class Hint:
    """``hint``: one answer to "what should I play?". At a card: the best option in the worlds the review draws
    (:func:`.verdict.card_verdict`, the same numbers the review after the deal shows for this decision), with every
    option's value; the search player's card is named as such where it differs. At the talon: the search player's
    exchange (its rollout heuristic's), which the review after the deal values option by option."""

    def __init__(self, screen: Screen, worlds: int = HINT_WORLDS, rollout: str = "tuned", search: str = HINT_SEARCH,
                 working: Callable[[], AbstractContextManager] = nullcontext):
        self.screen, self.worlds, self.rollout, self.working = screen, worlds, rollout, working
        self.search = make_policy(search)
        self.search_name = search

    def __call__(self, g: DealState, view: SeatView, legal: tuple[int, ...] | None) -> list[str]:
        from ..review.record import card_verdict

        s = self.screen
        if legal is None:
            return self._exchange(view)
        if len(legal) == 1:
            return [f"Hint: {s.card(legal[0])} is your only legal card."]
        with self.working():
            card = self.search.play(view, legal)
            verdict = card_verdict(live_record(g, view), card, worlds=self.worlds, rollout=self.rollout,
                                   rules=g.rules)
        if verdict is None:
            return [f"Hint: play {s.card(card)} (the search player's card); every legal card comes to the same here."]
        best = _code(verdict["best"])
        lines = [f"Hint: play {s.card(best)}."]
        opts = sorted(verdict["options"], key=lambda o: -o["value"])
        lines.append(f"  Each option played out in {verdict['worlds']} worlds of what you know by {self.rollout} "
                     "(fish for you, ± one standard error):")
        lines.append("  " + "   ".join(f"{s.card(_code(o['card']))} {o['value']:+.1f} ± {o['se']:.1f}" for o in opts))
        if card != best:
            lines.append(f"  (The search player, {self.search_name}, would play {s.card(card)}.)")
        return lines

    def _exchange(self, view: SeatView) -> list[str]:
        """The talon: the search player's exchange, named as such."""
        s = self.screen
        with self.working():
            card = self.search.exchange(view)
        what = "keep your hand" if card is None else f"discard {s.card(card)}"
        return [f"Hint: {what} (the search player's exchange, {self.search_name}'s; the review after the deal "
                "values each option)."]


def _code(name: str) -> int:
    from .. import cards as C

    return C.parse(name)


def report(game: Game, record: dict, screen: Screen, reviewing: Reviewing) -> dict:
    """After a deal: the person's decisions reviewed (the deal's diagram with the marks, each decision, the loss),
    the duplicate deal and what it means in fish. Returns the deal's line of the session's summary."""
    from ..review.one_deal import review_text
    from ..review.record import review_record

    you = game.you
    review = review_record(record, [you], worlds=reviewing.worlds, rollout=reviewing.rollout, rules=game.rules)
    screen.say("")
    screen.say(review_text(review, ascii=screen.ascii))
    mine = review["seats"][0]
    fish = record["result"]["fish"][you]
    line = {"deal": record["deal"], "fish": fish, "decisions": mine["non_forced"], "loss": mine["total_loss"],
            "marks": mine["marks"]}
    if reviewing.duplicate:
        bot = reviewing.rollout
        dup = duplicate(game, record, bot)
        theirs = dup["result"]["fish"][you]
        diff = fish - theirs
        verdict = "the same as" if diff == 0 else (f"{diff} fish better than" if diff > 0 else
                                                  f"{-diff} fish worse than")
        screen.say(f"Duplicate   the same cards with {bot} in your seat: S{you} {theirs:+d} fish; you "
                   f"{fish:+d}: {verdict} {bot}.")
        line["duplicate"] = theirs
    return line


def run(game: Game, screen: Screen, out: Path | None, reviewing: Reviewing | None, hint: Hint | None,
        working: Callable[[], AbstractContextManager] = nullcontext) -> list[dict]:
    """Play the game's deals; each finished deal's record is appended to ``out`` (a games folder) before anything
    else. Ctrl-C or the end of input raise :class:`SessionEnd` after saying what was kept. ``working()``: the
    context the review after each deal runs in (the command line's notice of a first compilation)."""
    r = game.rules
    pool, double_ante = 0, False
    score = [0] * r.n_seats if r.scoring == "simple" else None
    totals = [0] * r.n_seats
    kept: list[dict] = []
    where = f"{out / GAMES}" if out is not None else None
    try:
        for deal in range(game.n_deals):
            record = play_one(game, screen, deal, pool, double_ante, score, hint)
            if out is not None:
                path, torn = append_record(out, record)
                if torn == "set aside":
                    screen.say(f"The last line of {path} was cut short by an earlier crash: it is kept apart in "
                               f"{path}{TORN}, and this deal is saved after the whole ones.")
            kept.append(record)
            fish = record["result"]["fish"]
            totals = [a + b for a, b in zip(totals, fish)]
            screen.say(f"Deal {deal} done  " + "  ".join(f"S{s} {f:+d}" for s, f in enumerate(fish)) +
                       f"   pool {record['pool_before']} → {record['result']['pool_after']}")
            if reviewing is not None:
                with working():
                    report(game, record, screen, reviewing)
            screen.say("Running fish  " + "  ".join(f"{'you' if s == game.you else f'S{s}'} {t:+d}"
                                                    for s, t in enumerate(totals)) +
                       f"   after {len(kept)} deal{'s' if len(kept) > 1 else ''}")
            pool, double_ante, score, over = next_deal(r, record)
            if over:
                screen.say(f"A running total reached {r.target_total}: the match is over (F4.3).")
                break
    except KeyboardInterrupt:
        screen.say("")
        screen.say(f"Interrupted: {_kept(kept, where)}; the deal in progress is not kept.")
        raise SessionEnd(130, kept) from None
    except Quit:
        screen.say(f"You quit: {_kept(kept, where)}; the deal in progress is not kept.")
        raise SessionEnd(0, kept) from None
    except EOFError:
        screen.say("")
        screen.say(f"End of input: {_kept(kept, where)}; the deal in progress is not kept.")
        raise SessionEnd(0, kept) from None
    if where:
        screen.say(f"Saved {len(kept)} deal{'s' if len(kept) != 1 else ''} to {where}.")
    return kept


def _kept(kept: list[dict], where: str | None) -> str:
    n = len(kept)
    deals = f"{n} finished deal{'s' if n != 1 else ''}"
    if where is None:
        return f"{deals} played (no --out, nothing saved)"
    return f"{deals} saved to {where}"
