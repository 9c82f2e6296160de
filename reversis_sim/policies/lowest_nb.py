"""The numba decisions of the ``lowest`` family (declared in :mod:`.lowest`), each a function of the seat's view
(:mod:`reversis_sim.kernel.view`)."""

from __future__ import annotations

from ..kernel.compiled import T_STRENGTH
from ..kernel.jit import njit_nrt_free
from ..kernel.view import V_DECK, V_HAND, V_IS_DEALER, V_LEGAL, V_MUST_DISCARD, mask
from .cardsense import bottom, top, win_all_goal


@njit_nrt_free
def exchange(params, draws, view, tables):
    if not (view[V_IS_DEALER] or view[V_MUST_DISCARD]):
        return -1
    return top(mask(view, V_HAND), tables[T_STRENGTH])


@njit_nrt_free
def declare(params, draws, view, tables):
    return False


@njit_nrt_free
def goal(params, draws, view, tables):
    return win_all_goal(mask(view, V_HAND), mask(view, V_DECK), tables[T_STRENGTH])


@njit_nrt_free
def play(params, draws, view, tables):
    return bottom(mask(view, V_LEGAL), tables[T_STRENGTH])
