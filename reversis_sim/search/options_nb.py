"""The options a searching seat plays out, and how it judges them (:mod:`reversis_sim.policies.search`,
:mod:`.decide_nb`): the distinct legal cards (:func:`distinct`), each card's mean gain over the rollout policy's card
and its standard error from weighted sums (:func:`mean_se`), the race (:func:`raced`) and the margin rule
(:func:`best`)."""

from __future__ import annotations

import numpy as np

from ..kernel.bits import bit, lowest, suit_mask
from ..kernel.compiled import T_STRENGTH, T_TRICK_POINTS
from ..kernel.jit import njit_nrt_free
from ..kernel.tricks import PAYMENT_CARDS

ST_GAIN, ST_GAIN_SQ, ST_LAST, ST_WEIGHT, ST_WEIGHT_SQ, ST_LEN = range(6)
"""The rows of a search's ``stats`` (float64 ``(ST_LEN, 64)``, one column per card): the weighted sum of a card's
gains over the own card and of their squares, its last rollout's result, the sum of its worlds' weights and of
their squares."""

_ZERO = np.uint64(0)


@njit_nrt_free
def mean_se(stats, c):
    """The mean gain of card ``c`` over the own card, and its standard error, from its weighted sums (``stats``):
    with weights w, mean = sum(w d) / sum(w), variance = sum(w (d - mean)^2) / (sum(w) - sum(w^2) / sum(w)) and
    SE^2 = variance / (sum(w)^2 / sum(w^2)), the effective number of worlds: with every weight 1, the usual mean,
    sample variance and SE on n worlds, to the last bit. SE is -1 where it is not defined (fewer than 2 worlds, or
    one carries all the weight)."""
    v1, v2 = stats[ST_WEIGHT, c], stats[ST_WEIGHT_SQ, c]
    if v1 <= 0.0:
        return 0.0, -1.0
    mean = stats[ST_GAIN, c] / v1
    dof = v1 - v2 / v1
    if dof <= 0.0:
        return mean, -1.0
    var = max(stats[ST_GAIN_SQ, c] - v1 * mean * mean, 0.0) / dof
    return mean, np.sqrt(var / (v1 * v1 / v2))


@njit_nrt_free
def raced(candidates, own, stats, race):
    """The candidates still in the race (``own`` always): those whose mean gain over ``own`` plus ``race`` standard
    errors of it is above 0."""
    out = bit(own)
    m = candidates & ~bit(own)
    while m:
        c = lowest(m)
        m &= m - np.uint64(1)
        mean, se = mean_se(stats, c)
        if se < 0.0 or mean + race * se > 0.0:
            out |= bit(c)
    return out


@njit_nrt_free
def distinct(legal, hand, played_by, n, own, tables):
    """The legal cards worth playing out: one of each set of equivalent cards, ``own`` for its own set.

    Two cards of a suit are equivalent when every card of the suit ranked between them has been played or is in
    the hand, and they take the same points and neither is an Ace or the J♥ (which carry payments of their own):
    whichever is played, every trick goes the same way and scores the same."""
    seen = _ZERO
    for s in range(n):
        seen |= played_by[s]
    gone = seen | hand
    out = _ZERO
    for suit in range(4):
        cards = legal & suit_mask(suit)
        prev = -1
        while cards:
            # the cards of the suit in hand from the weakest up
            c = _weakest(cards, tables)
            cards &= ~bit(c)
            same = prev >= 0 and (bit(c) & PAYMENT_CARDS) == _ZERO and (bit(prev) & PAYMENT_CARDS) == _ZERO \
                and tables[T_TRICK_POINTS, c] == tables[T_TRICK_POINTS, prev] \
                and _nothing_between(suit, prev, c, gone, tables)
            if not same:
                out |= bit(c)  # a new set, represented by its weakest card
            elif c == own:
                out = (out & ~_set_of(out, suit, c, tables)) | bit(c)  # the set is represented by own
            prev = c
    return out


@njit_nrt_free
def _weakest(cards, tables):
    best, best_s = -1, 1 << 30
    m = cards
    while m:
        c = lowest(m)
        m &= m - np.uint64(1)
        if tables[T_STRENGTH, c] < best_s:
            best, best_s = c, tables[T_STRENGTH, c]
    return best


@njit_nrt_free
def _nothing_between(suit, a, b, gone, tables):
    """Every card of ``suit`` strictly between ``a`` and ``b`` in strength is in ``gone``."""
    lo, hi = tables[T_STRENGTH, a], tables[T_STRENGTH, b]
    m = suit_mask(suit) & ~gone
    while m:
        c = lowest(m)
        m &= m - np.uint64(1)
        st = tables[T_STRENGTH, c]
        if st >= 0 and lo < st < hi:
            return False
    return True


@njit_nrt_free
def _set_of(chosen, suit, c, tables):
    """The representative in ``chosen`` of the set ``c`` joins: the strongest chosen card of the suit below it."""
    best, best_s = _ZERO, -1
    m = chosen & suit_mask(suit)
    while m:
        x = lowest(m)
        m &= m - np.uint64(1)
        st = tables[T_STRENGTH, x]
        if best_s < st < tables[T_STRENGTH, c]:
            best, best_s = bit(x), st
    return best


@njit_nrt_free
def best(legal, own, stats, margin):
    """The card whose mean gain over ``own`` is largest and above ``margin`` standard errors; else ``own``."""
    best, best_mean = own, 0.0
    m = legal
    while m:
        c = lowest(m)
        m &= m - np.uint64(1)
        if stats[ST_WEIGHT, c] <= 0.0:
            continue
        mean, se = mean_se(stats, c)
        if mean <= best_mean:
            continue
        if margin > 0.0 and (se < 0.0 or mean <= margin * se):
            continue
        best, best_mean = c, mean
    return best
