"""The exchange model of ``learned`` (:mod:`.learned`): the facts of a talon decision read from the seat's view
(its hand), and the model's choice, the same bilinear form as the card model's (:mod:`.learned_nb`, whose
``exchange`` calls :func:`choose` where the seat's vector carries an exchange model).

:func:`exchange_decision_facts` and :func:`exchange_option_facts` are also what ``reversis-sim learn`` fits the
exchange weights on (:func:`exchange_facts_of`, called on the views of the reviewed talon decisions).
"""

from __future__ import annotations

import numpy as np

from .. import cards as C
from ..kernel.bits import ONE, bit, count, lowest, suit_mask
from ..kernel.compiled import T_ABOVE, T_STRENGTH, T_TRICK_POINTS, compile_rules
from ..kernel.jit import njit_nrt_free, njit_nrt_free_inline
from ..kernel.tricks import ACES_MASK
from ..kernel.view import V_HAND, V_IS_DEALER, V_MUST_DISCARD, mask
from .learned import AT_XWEIGHTS, EXCHANGE_DECISION_FACTS, EXCHANGE_OPTION_FACTS, N_XD, N_XO

_ELEVENTH, _TWELFTH, _QUARTER, _TWENTIETH = 1 / 11, 1 / 12, 1 / 4, 1 / 20
"""The scales of the facts, as factors (as in :mod:`.learned_nb`)."""

_LOW_HEARTS = np.uint64(C.mask(C.make(r, C.HEARTS) for r in range(C.RANK_JACK)))
"""The hearts below the J♥ (its guards). (A mask built in Python: a jitted function called at import would be
loaded from numba's cache, or compiled, by every process that imports this module.)"""


(XD_DEALER, XD_MUST, XD_ACES, XD_HOLD_QUINOLA, XD_HEARTS, XD_LOW_HEARTS, XD_SHORT, XD_VOIDS, XD_POINTS,
 XD_HIGH) = (EXCHANGE_DECISION_FACTS.index(f) for f in ("dealer", "must_discard", "aces", "hold_quinola", "hearts",
                                                        "low_hearts", "short_suits", "voids", "hand_points",
                                                        "high_cards"))
(XO_KEEP, XO_STRENGTH, XO_POINTS, XO_ACE, XO_QUINOLA, XO_ACE_OF_DIAMONDS, XO_HEART, XO_SUIT_LENGTH, XO_MINE_ABOVE,
 XO_MINE_BELOW, XO_SINGLETON, XO_DOUBLETON, XO_TOP) = (EXCHANGE_OPTION_FACTS.index(f) for f in (
     "keep", "strength", "points", "ace", "quinola", "ace_of_diamonds", "heart", "suit_length", "mine_above",
     "mine_below", "singleton", "doubleton", "top_of_suit"))
"""Where each fact of the exchange model is in its arrays (:data:`.learned.EXCHANGE_DECISION_FACTS`,
:data:`.learned.EXCHANGE_OPTION_FACTS`)."""


@njit_nrt_free_inline
def exchange_decision_facts(view, tables, d):
    """Fill ``d`` (``float64 (N_XD,)``, :data:`.learned.EXCHANGE_DECISION_FACTS`) for the talon decision in
    ``view``: facts of the hand."""
    hand, points = mask(view, V_HAND), tables[T_TRICK_POINTS]
    short, voids, pts, high = 0, 0, 0, 0
    for s in range(4):
        n = count(hand & suit_mask(s))
        if n == 0:
            voids += 1
        elif n <= 2:
            short += 1
    m = hand
    while m:
        c = lowest(m)
        m &= m - ONE
        pts += points[c]
        r = c & 15
        if r != C.RANK_ACE and c != C.QUINOLA and r >= C.RANK_JACK:
            high += 1
    d[XD_DEALER] = 1.0 if view[V_IS_DEALER] else 0.0
    d[XD_MUST] = 1.0 if view[V_MUST_DISCARD] else 0.0
    d[XD_ACES] = count(hand & ACES_MASK) * _QUARTER
    d[XD_HOLD_QUINOLA] = 1.0 if hand & bit(C.QUINOLA) else 0.0
    d[XD_HEARTS] = count(hand & suit_mask(C.HEARTS)) * _ELEVENTH
    d[XD_LOW_HEARTS] = count(hand & _LOW_HEARTS) * _ELEVENTH
    d[XD_SHORT] = short * _QUARTER
    d[XD_VOIDS] = voids * _QUARTER
    d[XD_POINTS] = pts * _TWENTIETH
    d[XD_HIGH] = high * _ELEVENTH


@njit_nrt_free_inline
def exchange_option_facts(hand, tables, c, o):
    """Fill ``o`` (``float64 (N_XO,)``, :data:`.learned.EXCHANGE_OPTION_FACTS`) for discarding card ``c`` of
    ``hand`` to the talon (``c`` < 0: keeping the hand)."""
    for j in range(N_XO):
        o[j] = 0.0
    if c < 0:
        o[XO_KEEP] = 1.0
        return
    s = c >> 4
    n = count(hand & suit_mask(s))
    mine_above = count(hand & np.uint64(tables[T_ABOVE][c]))
    o[XO_STRENGTH] = tables[T_STRENGTH][c] * _TWELFTH
    o[XO_POINTS] = tables[T_TRICK_POINTS][c] * _QUARTER
    o[XO_ACE] = 1.0 if (c & 15) == C.RANK_ACE else 0.0
    o[XO_QUINOLA] = 1.0 if c == C.QUINOLA else 0.0
    o[XO_ACE_OF_DIAMONDS] = 1.0 if c == C.ACE_OF_DIAMONDS else 0.0
    o[XO_HEART] = 1.0 if s == C.HEARTS else 0.0
    o[XO_SUIT_LENGTH] = n * _ELEVENTH
    o[XO_MINE_ABOVE] = mine_above * _ELEVENTH
    o[XO_MINE_BELOW] = (n - 1 - mine_above) * _ELEVENTH
    o[XO_SINGLETON] = 1.0 if n == 1 else 0.0
    o[XO_DOUBLETON] = 1.0 if n == 2 else 0.0
    o[XO_TOP] = 1.0 if mine_above == 0 else 0.0


@njit_nrt_free_inline
def exchange_score(hand, strength, points, above, c, v):
    """The score of discarding card ``c`` of ``hand``: the facts of :func:`exchange_option_facts` weighed by ``v``
    (one weight per option fact), summed as each fact is computed, as :func:`score_in_context` sums a card's
    (``tests/test_learned.py`` checks the two against each other)."""
    s = c >> 4
    n = count(hand & suit_mask(s))
    mine_above = count(hand & np.uint64(above[c]))
    x = strength[c] * _TWELFTH * v[XO_STRENGTH] + points[c] * _QUARTER * v[XO_POINTS]
    y = n * _ELEVENTH * v[XO_SUIT_LENGTH] + mine_above * _ELEVENTH * v[XO_MINE_ABOVE]
    y += (n - 1 - mine_above) * _ELEVENTH * v[XO_MINE_BELOW]
    if (c & 15) == C.RANK_ACE:
        x += v[XO_ACE]
    if c == C.QUINOLA:
        x += v[XO_QUINOLA]
    if c == C.ACE_OF_DIAMONDS:
        x += v[XO_ACE_OF_DIAMONDS]
    if s == C.HEARTS:
        y += v[XO_HEART]
    if n == 1:
        x += v[XO_SINGLETON]
    elif n == 2:
        x += v[XO_DOUBLETON]
    if mine_above == 0:
        y += v[XO_TOP]
    return x + y


@njit_nrt_free
def exchange_option_score(view, tables, c, v):
    """:func:`exchange_score` of discarding card ``c`` in ``view`` (for tests)."""
    return exchange_score(mask(view, V_HAND), tables[T_STRENGTH], tables[T_TRICK_POINTS], tables[T_ABOVE], c, v)


@njit_nrt_free_inline
def choose(params, view, tables, d, v):
    """The exchange model's talon decision: its highest-scoring option (keeping first, then the lowest card code,
    among equal scores), the card to discard or -1 to keep the hand (never -1 when the seat is the dealer or must
    discard). ``d``, ``v``: the caller's scratch (``float64 (N_XD,)`` and ``(N_XO,)``)."""
    exchange_decision_facts(view, tables, d)
    for j in range(N_XO):
        v[j] = params[AT_XWEIGHTS + j]
    for i in range(N_XD):
        if d[i] != 0.0:
            row = AT_XWEIGHTS + (i + 1) * N_XO
            for j in range(N_XO):
                v[j] += d[i] * params[row + j]
    hand, strength, points, above = mask(view, V_HAND), tables[T_STRENGTH], tables[T_TRICK_POINTS], tables[T_ABOVE]
    best, best_score = -1, -1e300
    if not (view[V_IS_DEALER] or view[V_MUST_DISCARD]):
        best_score = v[XO_KEEP]
    m = hand
    while m:
        c = lowest(m)
        m &= m - ONE
        score = exchange_score(hand, strength, points, above, c, v)
        if score > best_score:
            best, best_score = c, score
    return best


@njit_nrt_free
def exchange_facts(views, tables, cards, decision, o_out, d_out):
    """The facts of many exchange options, for fitting, as :func:`.learned_nb.facts` (``cards[r]`` < 0: keeping the
    hand)."""
    for i in range(views.shape[0]):
        exchange_decision_facts(views[i], tables, d_out[i])
    for r in range(cards.shape[0]):
        exchange_option_facts(mask(views[decision[r]], V_HAND), tables, cards[r], o_out[r])


def exchange_facts_of(rules, views: np.ndarray, cards: np.ndarray,
                      decision: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The exchange option facts ``float64 (len(cards), N_XO)`` and decision facts ``float64 (len(views), N_XD)``,
    as :func:`.learned_nb.facts_of`."""
    opt, dec = np.zeros((len(cards), N_XO)), np.zeros((len(views), N_XD))
    if len(views):
        exchange_facts(np.ascontiguousarray(views, np.int64), compile_rules(rules).tables,
                       np.asarray(cards, np.int64), np.asarray(decision, np.int64), opt, dec)
    return opt, dec
