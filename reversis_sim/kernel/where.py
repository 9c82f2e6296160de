"""The numba twin of :func:`reversis_sim.constraints.evaluate`: a ``--where`` program run on a deal's hands inside
the kernel (rejection sampling of constrained deals)."""

from __future__ import annotations

import numpy as np

from ..cards import HEARTS, RANK_ACE, RANK_JACK, RANK_KING, RANK_QUEEN
from ..constraints import (
    MAX_STACK,
    OP_ADD,
    OP_AND,
    OP_CARDS,
    OP_EQ,
    OP_GE,
    OP_GT,
    OP_GUARDS,
    OP_HAS,
    OP_HCP,
    OP_LE,
    OP_LT,
    OP_NE,
    OP_NOT,
    OP_OR,
    OP_PUSH,
    OP_RANK,
    OP_SUB,
    OP_SUIT,
    OP_VOID,
)
from .bits import count
from .jit import njit_nrt_free

_LANE = np.uint64(0xFFFF)
_ONE = np.uint64(1)
_GUARDS = np.uint64((1 << RANK_JACK) - 1) << np.uint64(16 * HEARTS)


@njit_nrt_free
def _rank_count(h, rank):
    n = 0
    for s in range(4):
        n += (h >> np.uint64(16 * s + rank)) & _ONE
    return np.int64(n)


@njit_nrt_free
def accepts(program, hands, stack) -> bool:
    """Whether the deal whose hands are ``hands`` (``uint64``: the seats, then the talon at
    :data:`reversis_sim.constraints.TALON`) satisfies ``program`` (``int64`` (op, a, b) triples); ``stack``:
    ``int64 (MAX_STACK,)`` scratch. An empty program accepts every deal."""
    if len(program) == 0:
        return True
    top = 0
    for i in range(0, len(program), 3):
        op = program[i]
        a = program[i + 1]
        b = program[i + 2]
        if op == OP_PUSH:
            stack[top] = a
            top += 1
        elif op <= OP_VOID:
            h = hands[a]
            if op == OP_SUIT:
                v = count((h >> np.uint64(16 * b)) & _LANE)
            elif op == OP_HAS:
                v = np.int64((h >> np.uint64(b)) & _ONE)
            elif op == OP_RANK:
                v = _rank_count(h, b)
            elif op == OP_HCP:
                v = (4 * _rank_count(h, RANK_ACE) + 3 * _rank_count(h, RANK_KING) + 2 * _rank_count(h, RANK_QUEEN)
                     + _rank_count(h, RANK_JACK))
            elif op == OP_CARDS:
                v = count(h)
            elif op == OP_GUARDS:
                v = count(h & _GUARDS)
            else:
                v = np.int64(((h >> np.uint64(16 * b)) & _LANE) == 0)
            stack[top] = v
            top += 1
        elif op == OP_NOT:
            stack[top - 1] = np.int64(stack[top - 1] == 0)
        else:
            y = stack[top - 1]
            x = stack[top - 2]
            top -= 1
            if op == OP_EQ:
                r = np.int64(x == y)
            elif op == OP_NE:
                r = np.int64(x != y)
            elif op == OP_LT:
                r = np.int64(x < y)
            elif op == OP_LE:
                r = np.int64(x <= y)
            elif op == OP_GT:
                r = np.int64(x > y)
            elif op == OP_GE:
                r = np.int64(x >= y)
            elif op == OP_AND:
                r = np.int64(x != 0 and y != 0)
            elif op == OP_OR:
                r = np.int64(x != 0 or y != 0)
            elif op == OP_ADD:
                r = x + y
            elif op == OP_SUB:
                r = x - y
            else:
                r = np.int64(0)
            stack[top - 1] = r
    return stack[top - 1] != 0


assert MAX_STACK >= 1
