"""The declaration model of ``learned`` (:mod:`.learned`): the facts of an espagnolette declaration read from the
seat's view (its hand at the first lead, its place, the pool), and the model's declaration and goal
(:mod:`.learned_nb`'s ``declare`` and ``goal`` call them where the seat's vector carries a declaration model).

The model weighs the option facts (:data:`.learned.DECLARATION_OPTION_FACTS`) by the decision's: ``v = WD' [1, D]``;
passing scores 0, declaring ``v[declare]``, declaring to win every trick ``v[declare] + v[win_all]``.
:func:`declaration_facts` is also what ``reversis-sim learn`` fits the weights on (:func:`declaration_facts_of`,
called on the views of the reviewed declarations).
"""

from __future__ import annotations

import numpy as np

from .. import cards as C
from ..kernel.bits import ONE, bit, count, lowest, suit_mask
from ..kernel.compiled import T_STRENGTH, compile_rules
from ..kernel.jit import njit_nrt_free, njit_nrt_free_inline
from ..kernel.tricks import ACES_MASK, KINGS_MASK, eldest_of
from ..kernel.view import V_DEALER, V_HAND, V_N_SEATS, V_POOL_BEFORE, V_SEAT, mask
from .learned import (
    AT_DWEIGHTS,
    DD_ACES,
    DD_ELDEST,
    DD_HEARTS,
    DD_HIGH_CARDS,
    DD_HOLD_QUINOLA,
    DD_KINGS,
    DD_LONGEST_SUIT,
    DD_LOW_CARDS,
    DD_LOWEST,
    DD_POOL,
    DD_SHORT_SUITS,
    DD_VOIDS,
    DO_DECLARE,
    DO_WIN_ALL,
    N_DD,
    N_DO,
)
from .view import DECLARE_LOSE_ALL, DECLARE_PASS, DECLARE_WIN_ALL

LOW = 3
"""A low card: of strength at most this in its suit (the rules' strength, 0 the weakest)."""
_ELEVENTH, _TWELFTH, _QUARTER, _HUNDREDTH = 1 / 11, 1 / 12, 1 / 4, 1 / 100


@njit_nrt_free_inline
def declaration_facts(view, tables, d):
    """Fill ``d`` (``float64 (N_DD,)``, :data:`.learned.DECLARATION_FACTS`) for the declaration in ``view``."""
    hand, strength = mask(view, V_HAND), tables[T_STRENGTH]
    high, low, weakest = 0, 0, 99
    m = hand
    while m:
        c = lowest(m)
        m &= m - ONE
        r, sc = c & 15, strength[c]
        if r != C.RANK_ACE and c != C.QUINOLA and r >= C.RANK_JACK:
            high += 1  # as avoid's H12 counts them
        if sc <= LOW:
            low += 1
        weakest = min(weakest, sc)
    longest, voids, short = 0, 0, 0
    for s in range(4):
        n = count(hand & suit_mask(s))
        longest = max(longest, n)
        if n == 0:
            voids += 1
        elif n <= 2:
            short += 1
    d[DD_ACES] = count(hand & ACES_MASK) * _QUARTER
    d[DD_HOLD_QUINOLA] = 1.0 if hand & bit(C.QUINOLA) else 0.0
    d[DD_HIGH_CARDS] = high * _ELEVENTH
    d[DD_KINGS] = count(hand & KINGS_MASK) * _QUARTER
    d[DD_LOW_CARDS] = low * _ELEVENTH
    d[DD_LOWEST] = weakest * _TWELFTH if hand else 0.0
    d[DD_HEARTS] = count(hand & suit_mask(C.HEARTS)) * _ELEVENTH
    d[DD_LONGEST_SUIT] = longest * _ELEVENTH
    d[DD_VOIDS] = voids * _QUARTER
    d[DD_SHORT_SUITS] = short * _QUARTER
    d[DD_ELDEST] = 1.0 if eldest_of(view[V_N_SEATS], view[V_DEALER]) == view[V_SEAT] else 0.0
    d[DD_POOL] = view[V_POOL_BEFORE] * _HUNDREDTH


@njit_nrt_free
def choice(params, view, tables, d):
    """The declaration model's option (:data:`~reversis_sim.policies.view.DECLARE_PASS`, ``DECLARE_LOSE_ALL`` or
    ``DECLARE_WIN_ALL``: the highest score, passing then losing every trick among equal scores); ``d``: the
    caller's scratch (``float64 (N_DD,)``)."""
    declaration_facts(view, tables, d)
    lose, win = params[AT_DWEIGHTS + DO_DECLARE], params[AT_DWEIGHTS + DO_WIN_ALL]
    for i in range(N_DD):
        row = AT_DWEIGHTS + (i + 1) * N_DO
        lose += d[i] * params[row + DO_DECLARE]
        win += d[i] * params[row + DO_WIN_ALL]
    win += lose
    if lose <= 0.0 and win <= 0.0:
        return DECLARE_PASS
    return DECLARE_WIN_ALL if win > lose else DECLARE_LOSE_ALL


@njit_nrt_free
def declaration_facts_many(views, tables, d_out):
    """The facts of many declarations, for fitting: ``views[i]``'s into ``d_out[i]``."""
    for i in range(views.shape[0]):
        declaration_facts(views[i], tables, d_out[i])


def declaration_facts_of(rules, views: np.ndarray, options: np.ndarray,
                         decision: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The option facts ``float64 (len(options), N_DO)`` of declaration options ``options`` (``DECLARE_*`` codes)
    and the decision facts ``float64 (len(views), N_DD)``, as :func:`.learned_nb.facts_of`."""
    options = np.asarray(options, np.int64)
    opt = np.zeros((len(options), N_DO))
    opt[:, DO_DECLARE] = options >= DECLARE_LOSE_ALL
    opt[:, DO_WIN_ALL] = options == DECLARE_WIN_ALL
    dec = np.zeros((len(views), N_DD))
    if len(views):
        declaration_facts_many(np.ascontiguousarray(views, np.int64), compile_rules(rules).tables, dec)
    return opt, dec
