"""Constrained deals: cards placed in a seat's hand before the deal (``--predeal SEAT=CARDS``) and a
condition on the dealt hands (``--where EXPR``), parsed once into a small program both engines run.

The ``--where`` language (docs/constraints.md) is a Python-like expression over the dealt hands and the talon:

- seats are numbers (``0``, ``1``...) or ``talon`` (the cards left after the hands are dealt);
- ``hearts(s)``, ``spades(s)``, ``diamonds(s)``, ``clubs(s)``: cards of a suit; ``cards(s)``: all cards;
- ``has(s, JH)``: 1 if the seat holds the card, else 0; ``void(s, H)``: 1 if it holds no card of the suit;
- ``aces(s)``, ``kings(s)``, ``queens(s)``, ``jacks(s)``: cards of a rank; ``hcp(s)``: high-card points (A 4,
  K 3, Q 2, J 1); ``guards(s)``: hearts below the J♥ (what protects the Quinola);
- integers, ``+`` and ``-``, comparisons ``== != < <= > >=`` (chains allowed: ``2 <= hearts(0) <= 4``), ``and``,
  ``or``, ``not``, parentheses.

A program is an ``int64`` array of (opcode, a, b) triples for a stack machine (:func:`evaluate` here, the numba
twin in :mod:`reversis_sim.kernel.where`). The kernel freezes the opcodes, so this file is watched by the kernel
cache (:mod:`reversis_sim.kernel.jit`).
"""

from __future__ import annotations

import ast
from collections.abc import Sequence
from dataclasses import dataclass

from . import cards as C

TALON = 5
"""The talon's slot in the hands a program reads (seats are 0..4)."""
MAX_STACK = 32

# opcodes: (op, a, b)
OP_PUSH, OP_SUIT, OP_HAS, OP_RANK, OP_HCP, OP_CARDS, OP_GUARDS, OP_VOID = range(8)
OP_EQ, OP_NE, OP_LT, OP_LE, OP_GT, OP_GE, OP_AND, OP_OR, OP_NOT, OP_ADD, OP_SUB = range(8, 19)

_SUITS = {"spades": C.SPADES, "hearts": C.HEARTS, "diamonds": C.DIAMONDS, "clubs": C.CLUBS}
_RANKS = {"aces": C.RANK_ACE, "kings": C.RANK_KING, "queens": C.RANK_QUEEN, "jacks": C.RANK_JACK}
FUNCTIONS = {**{k: 1 for k in _SUITS}, **{k: 1 for k in _RANKS}, "hcp": 1, "cards": 1, "guards": 1, "has": 2,
             "void": 2}
_COMPARE = {ast.Eq: OP_EQ, ast.NotEq: OP_NE, ast.Lt: OP_LT, ast.LtE: OP_LE, ast.Gt: OP_GT, ast.GtE: OP_GE}


class ConstraintError(ValueError):
    """A predeal or an expression that cannot be used, in one sentence."""


@dataclass(frozen=True)
class Where:
    """A parsed ``--where`` expression: its canonical text and its program."""

    text: str
    program: tuple[int, ...]

    def evaluate(self, hands: Sequence[int]) -> bool:
        """The condition on ``hands`` (uint64 masks: the seats, then the talon at :data:`TALON`)."""
        return evaluate(self.program, hands)


def parse_where(text: str, n_seats: int) -> Where:
    """The program of an expression; :class:`ConstraintError` naming what is wrong."""
    source = text.strip()
    if not source:
        raise ConstraintError("--where is empty: give a condition such as 'hearts(0) == 2 and has(0, JH)'")
    try:
        tree = ast.parse(source, mode="eval")
    except SyntaxError as e:
        where = f" at column {e.offset}" if e.offset else ""
        raise ConstraintError(f"--where {text!r} does not parse{where}: write e.g. 'hearts(0) >= 3 and not "
                              f"void(1, S)'") from None
    program: list[int] = []
    depth = _compile(tree.body, program, n_seats, text)
    if depth > MAX_STACK:
        raise ConstraintError(f"--where {text!r} is too deeply nested (at most {MAX_STACK} pending values)")
    return Where(ast.unparse(tree.body), tuple(program))


def _emit(program: list[int], op: int, a: int = 0, b: int = 0) -> None:
    program.extend((op, a, b))


def _compile(node: ast.AST, program: list[int], n_seats: int, text: str) -> int:
    """Append the code of ``node``; return the deepest stack it needs."""
    if isinstance(node, ast.BoolOp):
        op = OP_AND if isinstance(node.op, ast.And) else OP_OR
        depth = _compile(node.values[0], program, n_seats, text)
        for value in node.values[1:]:
            depth = max(depth, 1 + _compile(value, program, n_seats, text))
            _emit(program, op)
        return depth
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        depth = _compile(node.operand, program, n_seats, text)
        _emit(program, OP_NOT)
        return depth
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub) and isinstance(node.operand, ast.Constant):
        return _compile(ast.Constant(-node.operand.value), program, n_seats, text)
    if isinstance(node, ast.Compare):
        if len(node.ops) > 1:  # a < b < c is (a < b) and (b < c): b is a function of the hands, computed twice
            operands = [node.left, *node.comparators]
            pairs = [ast.Compare(operands[k], [op], [operands[k + 1]]) for k, op in enumerate(node.ops)]
            return _compile(ast.BoolOp(ast.And(), pairs), program, n_seats, text)
        op = node.ops[0]
        if type(op) not in _COMPARE:
            raise ConstraintError(f"--where {text!r}: {ast.unparse(node)} uses an operator other than "
                                  f"== != < <= > >=")
        depth = _compile(node.left, program, n_seats, text)
        depth = max(depth, 1 + _compile(node.comparators[0], program, n_seats, text))
        _emit(program, _COMPARE[type(op)])
        return depth
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add | ast.Sub):
        depth = _compile(node.left, program, n_seats, text)
        depth = max(depth, 1 + _compile(node.right, program, n_seats, text))
        _emit(program, OP_ADD if isinstance(node.op, ast.Add) else OP_SUB)
        return depth
    if isinstance(node, ast.Constant) and type(node.value) is int:
        _emit(program, OP_PUSH, node.value)
        return 1
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
        name = node.func.id
        if name not in FUNCTIONS:
            raise ConstraintError(f"--where {text!r}: unknown function {name}(); known: "
                                  f"{', '.join(sorted(FUNCTIONS))}")
        if len(node.args) != FUNCTIONS[name] or node.keywords:
            wanted = {"has": "a seat and a card", "void": "a seat and a suit"}.get(name, "a seat")
            raise ConstraintError(f"--where {text!r}: {name}() takes {wanted}")
        seat = _seat(node.args[0], n_seats, text)
        if name in _SUITS:
            _emit(program, OP_SUIT, seat, _SUITS[name])
        elif name in _RANKS:
            _emit(program, OP_RANK, seat, _RANKS[name])
        elif name == "hcp":
            _emit(program, OP_HCP, seat)
        elif name == "cards":
            _emit(program, OP_CARDS, seat)
        elif name == "guards":
            _emit(program, OP_GUARDS, seat)
        elif name == "has":
            _emit(program, OP_HAS, seat, _card(node.args[1], text))
        else:
            _emit(program, OP_VOID, seat, _suit(node.args[1], text))
        return 1
    raise ConstraintError(f"--where {text!r}: {ast.unparse(node)!r} is not part of the language (functions of a "
                          f"seat, integers, + -, comparisons, and, or, not)")


def _seat(node: ast.AST, n_seats: int, text: str) -> int:
    if isinstance(node, ast.Name) and node.id == "talon":
        return TALON
    if isinstance(node, ast.Constant) and type(node.value) is int and 0 <= node.value < n_seats:
        return node.value
    raise ConstraintError(f"--where {text!r}: {ast.unparse(node)!r} is not a seat (0 to {n_seats - 1}, or talon)")


def _card(node: ast.AST, text: str) -> int:
    word = ast.unparse(node)
    try:
        return C.parse(word)
    except ValueError:
        raise ConstraintError(f"--where {text!r}: {word!r} is not a card (rank then suit: JH, AS, 7C)") from None


def _suit(node: ast.AST, text: str) -> int:
    word = ast.unparse(node).upper()
    if word in ("S", "H", "D", "C"):
        return C.SUITS.index(word)
    if word.lower() in _SUITS:
        return _SUITS[word.lower()]
    raise ConstraintError(f"--where {text!r}: {ast.unparse(node)!r} is not a suit (S, H, D or C)")


_LANE = 0xFFFF
_POINTS = {C.RANK_ACE: 4, C.RANK_KING: 3, C.RANK_QUEEN: 2, C.RANK_JACK: 1}


def evaluate(program: Sequence[int], hands: Sequence[int]) -> bool:
    """Run ``program`` on ``hands`` (the readable twin of :func:`reversis_sim.kernel.where.accepts`)."""
    stack: list[int] = []
    for i in range(0, len(program), 3):
        op, a, b = program[i], program[i + 1], program[i + 2]
        if op == OP_PUSH:
            stack.append(a)
        elif op in (OP_SUIT, OP_HAS, OP_RANK, OP_HCP, OP_CARDS, OP_GUARDS, OP_VOID):
            h = int(hands[a])
            if op == OP_SUIT:
                stack.append(bin((h >> (16 * b)) & _LANE).count("1"))
            elif op == OP_HAS:
                stack.append((h >> b) & 1)
            elif op == OP_RANK:
                stack.append(sum((h >> (16 * s + b)) & 1 for s in range(4)))
            elif op == OP_HCP:
                stack.append(sum(p * ((h >> (16 * s + r)) & 1) for s in range(4) for r, p in _POINTS.items()))
            elif op == OP_CARDS:
                stack.append(bin(h).count("1"))
            elif op == OP_GUARDS:
                stack.append(bin((h >> 16) & ((1 << C.RANK_JACK) - 1)).count("1"))
            else:
                stack.append(int((h >> (16 * b)) & _LANE == 0))
        elif op == OP_NOT:
            stack.append(int(not stack.pop()))
        else:
            y, x = stack.pop(), stack.pop()
            stack.append(_binary(op, x, y))
    return bool(stack[-1])


def _binary(op: int, x: int, y: int) -> int:
    if op == OP_ADD:
        return x + y
    if op == OP_SUB:
        return x - y
    return int({OP_EQ: x == y, OP_NE: x != y, OP_LT: x < y, OP_LE: x <= y, OP_GT: x > y, OP_GE: x >= y,
                OP_AND: bool(x) and bool(y), OP_OR: bool(x) or bool(y)}[op])


@dataclass(frozen=True)
class Predeal:
    """Cards placed in seats' hands before the rest is dealt: one ``uint64`` mask per seat (0: none)."""

    masks: tuple[int, ...]

    @property
    def text(self) -> list[str]:
        """The canonical ``SEAT=CARDS`` texts (seat order, cards in code order)."""
        return [f"{s}={','.join(C.names(C.from_mask(m)))}" for s, m in enumerate(self.masks) if m]

    @property
    def placed(self) -> int:
        """Every predealt card, one mask."""
        out = 0
        for m in self.masks:
            out |= m
        return out


def parse_predeal(items: Sequence[str], rules) -> Predeal:
    """``["0=JH,2H,AS", ...]`` -> :class:`Predeal`; :class:`ConstraintError` for an unknown seat or card, a card
    outside the rule set's deck or given twice, more cards than a hand holds, or a dealer who sits out."""
    n = rules.n_seats
    masks = [0] * n
    deck = C.mask(rules.tables.deck)
    seen: dict[int, int] = {}
    for item in items:
        seat_text, sep, cards_text = item.partition("=")
        if not sep or not cards_text.strip():
            raise ConstraintError(f"--predeal {item!r}: write SEAT=CARDS, e.g. 0=JH,2H,AS")
        try:
            seat = int(seat_text)
        except ValueError:
            seat = -1
        if not 0 <= seat < n:
            raise ConstraintError(f"--predeal {item!r}: {seat_text.strip()!r} is not a seat (0 to {n - 1})")
        for word in cards_text.replace(" ", ",").split(","):
            if not word:
                continue
            try:
                card = C.parse(word)
            except ValueError:
                raise ConstraintError(f"--predeal {item!r}: {word!r} is not a card (rank then suit: JH, AS, 7C)"
                                      ) from None
            if not deck >> card & 1:
                rank = C.RANKS[C.rank_of(card)]  # a deck lacks whole ranks: the tens of the 48-card packs
                raise ConstraintError(f"--predeal {item!r}: {word} is not in the {rules.name} deck (it has no "
                                      f"{'ten' if rank == 'T' else rank}s)")
            if card in seen:
                raise ConstraintError(f"--predeal: {C.name(card)} is given twice (seat {seen[card]} and seat "
                                      f"{seat})")
            seen[card] = seat
            masks[seat] |= 1 << card
    if any(masks) and rules.dealer_sits_out:
        raise ConstraintError(f"--predeal is not possible under {rules.name}: a seat holds no cards in the deals it "
                              f"deals (the dealer sits out)")
    for seat, m in enumerate(masks):
        if bin(m).count("1") > rules.hand_size:
            raise ConstraintError(f"--predeal: seat {seat} is given {bin(m).count('1')} cards; a hand holds "
                                  f"{rules.hand_size}")
    return Predeal(tuple(masks))


MAX_ATTEMPTS = 1_000_000
"""Shuffles tried for one deal before ``--where`` is declared impossible there (the run stops with an error)."""
ACCEPTANCE_MATCH = 2**40
"""The first match number of the shuffles that estimate a ``--where``'s acceptance (both engines' ``acceptance``, which
must draw the same ones): apart from any run's matches."""
N_SEAT_SLOTS = 5
"""The hands a program reads before the talon (:data:`TALON`): the kernels' ``MAX_SEATS``."""


@dataclass(frozen=True)
class Deals:
    """How a run's deals are drawn: cards placed before the deal (``predeal``) and a condition the dealt hands must
    meet (``where``, by rejection: the shuffle is drawn again, keyed by the attempt, until a deal passes). The
    unconstrained deal (no predeal, first attempt) is today's deal, byte for byte."""

    predeal: Predeal
    where: Where | None = None

    @property
    def constrained(self) -> bool:
        return bool(self.predeal.placed) or self.where is not None

    def identity(self) -> dict:
        """What a run description records: ``{"predeal": [...], "where": "..."}`` (canonical texts), empty parts
        left out."""
        out: dict = {}
        if self.predeal.placed:
            out["predeal"] = self.predeal.text
        if self.where is not None:
            out["where"] = self.where.text
        return out

    def arrays(self):
        """(``uint64 (N_SEAT_SLOTS,)`` predealt masks, ``int64`` program) for the kernel."""
        import numpy as np

        masks = np.zeros(N_SEAT_SLOTS, np.uint64)
        masks[:len(self.predeal.masks)] = self.predeal.masks
        return masks, np.array(self.where.program if self.where else (), np.int64)

    def accepts(self, hands: Sequence[int]) -> bool:
        return self.where is None or self.where.evaluate(hands)


def deals_of(rules, predeal: Sequence[str] = (), where: str | None = None) -> Deals | None:
    """The :class:`Deals` of ``--predeal`` items and a ``--where`` text (None when neither is given)."""
    if not predeal and where is None:
        return None
    return Deals(parse_predeal(list(predeal), rules), None if where is None else parse_where(where, rules.n_seats))


def acceptance_rate(rules, deals: Deals, rates: Sequence[tuple[int, int]]) -> float:
    """The share of shuffles that met ``deals``' ``--where`` given ``rates``, ``[(passed, tried), ...]`` by dealer
    (either engine's ``acceptance``), or :class:`ConstraintError` in one sentence when no shuffle some seat dealt met
    it: impossible, or too rare to sample, or (a dealer who sits out, ``modern_five``) a condition an empty hand
    cannot meet."""
    for dealer, (passed, tried) in enumerate(rates):
        if passed:
            continue
        text = f"--where {deals.where.text!r}: no shuffle among {tried:,} dealt by seat {dealer} meets it"
        if rules.dealer_sits_out:
            raise ConstraintError(f"{text}: under {rules.name} the dealer sits out and is dealt no cards, so a "
                                  f"condition that needs cards in seat {dealer}'s hand fails in every deal seat "
                                  f"{dealer} deals (one in {rules.n_seats}); write it so that an empty hand meets it "
                                  f"too, or play a four-seat preset")
        raise ConstraintError(f"{text} (with the predealt cards): impossible, or too rare to sample (under 1 in "
                              f"{tried:,}); loosen it or predeal the cards it asks for")
    return sum(p for p, _ in rates) / sum(t for _, t in rates)
