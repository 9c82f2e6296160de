"""A person's seat at the terminal: the three decisions of a deal asked on the screen, every answer checked, every
refusal one sentence naming the rule (RULES.md) and why, never a traceback.

:class:`HumanSeat` answers the reference engine's policy interface (:class:`reversis_sim.policies.Policy`) by asking
its :class:`Screen`; ``?`` lists the legal cards, ``hint`` asks for advice (its ``hint`` callback), at the talon as
at a card; an empty line decides nothing (the question is asked again). ``quit`` (:class:`Quit`), the end of input
(``EOFError``) and Ctrl-C (``KeyboardInterrupt``) pass through to the session, which keeps the finished deals.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence

from .. import cards as C
from ..game.diagram import SUIT_SYMBOLS, hand_rows
from ..policies import SeatView
from ..rules import Rules

SUIT_INPUT = {"S": 0, "H": 1, "D": 2, "C": 3, "♠": 0, "♥": 1, "♦": 2, "♣": 3}
ASCII = str.maketrans({"→": "->", "·": "|", "±": "+-", "ê": "e", "♠": "S", "♥": "H", "♦": "D", "♣": "C"})
"""The non-ASCII characters of the screen and their plain replacements."""
CARD_HELP = "type a rank (2-9, 10 or T, J, Q, K, A) and a suit (S H D C), e.g. JH or QS"


QUIT = ("quit", "exit")
"""What a person types to stop the session (the finished deals are kept), as Ctrl-C and Ctrl-D do."""


class CardError(ValueError):
    """An answer that is not a card of the game, in one sentence."""


class Quit(Exception):
    """The person typed ``quit``: the session ends, keeping the finished deals."""


class Screen:
    """Where the game is shown and answers are read: ``say`` writes a line, ``ask`` reads one (``input`` by
    default), ``ascii`` draws the suits as S H D C, ``speed``: the seconds a bot's card stays before the next."""

    def __init__(self, say: Callable[[str], None] = print, ask: Callable[[str], str] = input, ascii: bool = False,
                 speed: float = 0.0):
        self.out, self.ask, self.ascii, self.speed = say, ask, ascii, float(speed)

    def say(self, text: str) -> None:
        """Write a line (in ASCII where asked: the arrows, the dots and ± too, as ``replay --ascii`` writes them)."""
        self.out(text.translate(ASCII) if self.ascii else text)

    def card(self, card: int) -> str:
        """A card as shown: ``J♥``, or ``JH`` in ASCII; a ten is written 10."""
        name = C.name(card)
        rank = "10" if name[0] == "T" else name[0]
        return rank + (name[1] if self.ascii else SUIT_SYMBOLS[C.SUITS.index(name[1])])

    def cards(self, cards: Sequence[int]) -> str:
        return " ".join(self.card(c) for c in cards)

    def hand(self, cards: Sequence[int], rules: Rules) -> str:
        """A hand by suit, strongest first, the Aces and the J♥ marked (the deal diagram's rows)."""
        return hand_rows(C.names(cards), rules.ranks, self.ascii)

    def pause(self) -> None:
        if self.speed > 0:
            time.sleep(self.speed)


def parse_card(text: str, rules: Rules) -> int:
    """The card typed (``JH``, ``jh``, ``10S``, ``TS``, ``J♥``), or :class:`CardError` in one sentence: not a card,
    or (R5) a card the preset's deck does not have (the tens of a 48-card deck)."""
    raw = text.strip().upper().replace(" ", "")
    if len(raw) < 2 or raw[-1] not in SUIT_INPUT:
        raise CardError(f"{text.strip()!r} is not a card: {CARD_HELP}")
    rank = raw[:-1]
    rank = "T" if rank == "10" else ("A" if rank == "1" else rank)
    if len(rank) != 1 or rank not in C.RANKS:
        raise CardError(f"{text.strip()!r} is not a card: {CARD_HELP}")
    if rank not in rules.ranks:
        if rank == "T":
            raise CardError(f"there are no tens in {rules.name}: it plays with {len(rules.tables.deck)} cards, the "
                            f"pack without its four tens (R5)")
        raise CardError(f"{rules.name} plays with {len(rules.tables.deck)} cards and has no {rank}s (R5)")
    return C.make(C.RANKS.index(rank), SUIT_INPUT[raw[-1]])


def refusal(card: int, hand: Sequence[int], legal: Sequence[int], rules: Rules, trick_index: int,
            current: Sequence[int], screen: Screen) -> str | None:
    """Why ``card`` may not be played now, in one sentence naming the rule, or None where it may."""
    if card in legal:
        return None
    if card not in hand:
        return f"you do not hold {screen.card(card)}"
    if not current:  # R20: only the first lead can be restricted (a preset's option)
        return (f"R20 ({rules.name}): the first lead must be a heart when you hold one; lead one of "
                f"{screen.cards(legal)}")
    led = C.suit_of(current[0])
    suit = C.SUITS[led] if screen.ascii else SUIT_SYMBOLS[led]
    return (f"R18: you must follow suit: {screen.card(current[0])} was led and you hold {suit} "
            f"({screen.cards(legal)})")


class HumanSeat:
    """The person's seat: every decision asked on ``screen``. ``hint(view, legal)`` returns the lines of the advice
    (``legal`` None at the talon; no ``hint``: no hint at this table). ``before(view)``: called before each decision
    (the session shows the tricks finished since the last one)."""

    def __init__(self, screen: Screen, hint: Callable[[SeatView, tuple[int, ...]], list[str]] | None = None,
                 before: Callable[[SeatView], None] | None = None):
        self.screen, self.hint, self.before = screen, hint, before

    def _ask(self, prompt: str) -> str:
        """The answer typed, stripped; :class:`Quit` for ``quit``."""
        answer = self.screen.ask(prompt).strip()
        if answer.lower() in QUIT:
            raise Quit()
        return answer

    def _hint(self, view: SeatView, legal: tuple[int, ...] | None) -> None:
        for line in (self.hint(view, legal) if self.hint else ["No hint at this table."]):
            self.screen.say(line)

    def _card(self, answer: str, rules) -> int | None:
        """The card ``answer`` names, or None once the screen has said why it names none."""
        try:
            return parse_card(answer, rules)
        except CardError as e:
            self.screen.say(f"  {e}.")
            return None

    def exchange(self, view: SeatView) -> int | None:
        """R13-R14 (F3.2 under ``take_then_discard``): the card to discard, or None to keep the hand."""
        s, r = self.screen, view.rules
        if self.before:
            self.before(view)
        must = view.seat == view.dealer or r.talon_mode == "take_then_discard"
        s.say(f"Your hand   {s.hand(view.hand, r)}")
        if view.seat == view.dealer:
            s.say("You deal: discard one card face down to the talon (R13).")
        elif r.talon_mode == "take_then_discard":
            s.say(f"You took {s.card(view.talon_known[-1]) if view.talon_known else 'your talon card'}; now "
                  "discard one card (F3.2).")
        else:
            s.say("Talon: discard one card and take the face-down card in front of you without seeing it, or type "
                  "'keep' to keep your hand and only look at that card (R14).")
        while True:
            answer = self._ask("Discard (a card, or keep): " if not must else "Discard: ")
            if not answer:  # an empty line decides nothing
                s.say("  Type the card to discard" + ("" if must else ", or keep") + " ('?' lists your hand, 'hint' "
                      "advises).")
                continue
            if not must and answer.lower() in ("keep", "k", "-"):
                return None
            if answer in ("?", "help"):
                s.say("Any card of your hand: " + s.cards(view.hand) + ("" if must else "; or keep"))
                continue
            if answer.lower() == "hint":
                self._hint(view, None)
                continue
            card = self._card(answer, r)
            if card is None:
                continue
            if card not in view.hand:
                s.say(f"  You do not hold {s.card(card)}: discard a card of your hand ({'R13' if must else 'R14'}).")
                continue
            return card

    def declare_espagnolette(self, view: SeatView) -> bool:
        """R38: the person's hand may declare the espagnolette; ask."""
        s = self.screen
        s.say(f"Your hand   {s.hand(view.hand, view.rules)}")
        s.say("Your hand may declare the espagnolette (R38): you then win the deal by taking no trick (R40), and "
              f"may refuse to follow suit in the first {view.rules.espagnolette_renounce_tricks} tricks (R39).")
        while True:
            answer = self._ask("Declare the espagnolette? (y/n): ").lower()
            if answer in ("y", "yes", "n", "no"):
                return answer.startswith("y")
            s.say("  Answer y or n.")

    def espagnolette_goal(self, view: SeatView) -> str:
        """F1.4: the declarer's goal, where the preset lets him name one."""
        while True:
            answer = self._ask("Your goal: lose all the tricks or win them all? (lose/win): ").lower()
            if answer in ("lose", "l", "win", "w"):
                return "win_all" if answer.startswith("w") else "lose_all"
            self.screen.say("  Answer lose or win (F1.4).")

    def play(self, view: SeatView, legal: tuple[int, ...]) -> int:
        """The card the person types; ``?`` lists the legal cards, ``hint`` asks the search."""
        s, r = self.screen, view.rules
        if self.before:
            self.before(view)
        s.say(f"Your hand   {s.hand(view.hand, r)}")
        if view.current:
            s.say(f"Trick {view.trick_index + 1}: " + "  ".join(
                f"S{seat} {s.card(c)}" for seat, c in zip(_order(view), view.current)) + "  ·  your turn")
        else:
            s.say(f"Trick {view.trick_index + 1}: you lead")
        while True:
            answer = self._ask("Your card (? legal cards, hint): ")
            if not answer:  # an empty line decides nothing
                s.say("  Type the card to play ('?' lists your legal cards, 'hint' advises).")
                continue
            if answer == "?":
                s.say("Legal: " + s.cards(legal))
                continue
            if answer.lower() == "hint":
                self._hint(view, legal)
                continue
            card = self._card(answer, r)
            if card is None:
                continue
            why = refusal(card, view.hand, legal, r, view.trick_index, view.current, s)
            if why:
                s.say(f"  Refused: {why}.")
                continue
            return card


def _order(view: SeatView) -> list[int]:
    """The seats that played the trick in progress so far, from its leader."""
    seats, seat = [], view.leader
    for _ in view.current:
        seats.append(seat)
        seat = view.next_seat(seat)
    return seats
