"""Worlds a seat cannot tell apart: the hidden cards dealt again, consistently with everything the seat knows.

A searching seat (:mod:`reversis_sim.policies.search`) knows its own hand, the talon cards it has seen (its discard, or
the card it looked at), every card played and by whom, and the suits each seat has shown it lacks (it did not follow the
suit led). Every other card, the *unseen* cards, lies in the other seats' hands or in the talon, in numbers the seat
knows (each hand holds one card per trick still to play). A *world* gives each of those holders a set of unseen
cards of the right size, no seat a card of a suit it has shown it lacks, and the espagnolette declarer a hand that
was eligible (R38). :func:`sample_world` draws one world uniformly among all consistent worlds:

1. by rejection: deal the unseen cards uniformly (a Fisher-Yates shuffle cut into the holders' sizes) and keep the
   deal if it is consistent; uniform over the consistent worlds, because every deal is equally likely. Fast when
   the constraints are loose (the usual case), but the acceptance rate can be tiny late in a deal with many voids;
2. so after :data:`TRIES` rejected deals, exactly: count the consistent ways of giving each suit's unseen cards to
   the holders (a dynamic programme over the suits whose state is what each holder still needs), draw how many
   cards of each suit each holder gets in proportion to those counts, then which cards, uniformly. The count is a
   product of multinomials, so the draw is exactly uniform over worlds and never loops. The declarer's
   eligibility, which the programme does not encode, is then checked by rejection among those draws; a hand that
   could not be eligible at all is reported (the sampler returns False).

Holders are numbered ``0 .. n_holders - 1``; numba functions without allocation: every array is the caller's.
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np

from ..cards import N_SUITS
from ..kernel.bits import bit, count, select
from ..kernel.jit import njit_nrt_free
from ..kernel.keys_nb import below, draw
from ..kernel.tricks import espagnolette_eligible

TRIES = 64
"""Rejected uniform deals before the exact dynamic programme takes over."""
MAX_NEED = 13  # a holder needs at most 12 cards (hand size) plus a spare state
I_X, I_CAP, I_ALLOWED, I_REST, I_SPARE, I_LEN = range(6)
"""The rows of the sampler's ``ints`` scratch (int64 ``(I_LEN, MAX_HOLDERS)``): per holder, the cards given, the
cap, the cards allowed, the cards still needed, a spare row."""
NOT_COUNTED, COUNTED, NONE_CONSISTENT = 0, 1, 2
"""``Scratch.state[0]``: whether the counts of this decision's worlds are in ``Scratch.table``."""
MAX_HOLDERS = 4  # the three other seats taking part, and the talon (a seat that sits out holds nothing)
N_KEYS = MAX_NEED ** (MAX_HOLDERS - 1)
_SUIT = np.uint64(0xFFFF)
_ZERO = np.uint64(0)
_INV53 = 1.0 / 9007199254740992.0  # 2**-53


@njit_nrt_free
def uniform(key, index):
    """A float in [0, 1) from draw ``index`` of stream ``key``."""
    return np.float64(draw(key, index) >> np.uint64(11)) * _INV53


@njit_nrt_free
def suit_of_mask(m, suit):
    return m & (_SUIT << np.uint64(16 * suit))


@njit_nrt_free
def consistent(out, n_holders, voids):
    """No holder holds a card of a suit it has shown it lacks (``voids[h]``: bit ``s`` set for suit ``s``)."""
    for h in range(n_holders):
        v = voids[h]
        if v == 0:
            continue
        for s in range(4):
            if (v >> s) & 1 and suit_of_mask(out[h], s) != _ZERO:
                return False
    return True


@njit_nrt_free
def shuffle(key, index, mask, cards):
    """The cards of ``mask`` into ``cards[:count(mask)]`` in a uniformly random order (Fisher-Yates, draws ``index
    ..`` of stream ``key``); returns the next unused draw index."""
    n = count(mask)
    for i in range(n):
        cards[i] = select(mask, i)
    for i in range(n - 1, 0, -1):
        j = below(draw(key, index), i + 1)
        index += 1
        c = cards[i]
        cards[i] = cards[j]
        cards[j] = c
    return index


@njit_nrt_free
def deal_uniform(key, index, unseen, need, n_holders, out, cards):
    """Deal the unseen cards uniformly: a Fisher-Yates shuffle of ``unseen`` cut into ``need[h]`` cards per holder.
    Uses draws ``index ..``; returns the next unused draw index. ``cards``: int64 scratch of 48+ slots."""
    index = shuffle(key, index, unseen, cards)
    pos = 0
    for h in range(n_holders):
        m = _ZERO
        for i in range(pos, pos + need[h]):
            m |= bit(cards[i])
        out[h] = m
        pos += need[h]
    return index


@njit_nrt_free
def _key(rest, n_holders):
    """The flat index of the needs ``rest[0 .. n_holders - 2]`` (the last holder's need follows from the total)."""
    k = 0
    for h in range(n_holders - 1):
        k = k * MAX_NEED + rest[h]
    return k


@njit_nrt_free
def _ways(fact, c, x, n_holders):
    w = fact[c]
    for h in range(n_holders):
        w /= fact[x[h]]
    return w


@njit_nrt_free
def _next_split(x, c, cap, allowed, n_holders):
    """The next way of splitting ``c`` cards as ``x[0..H-2]`` (the last holder takes the rest), each ``x[h] <=
    cap[h]`` and 0 where not allowed; lexicographic, starting from all zeros. Returns False when exhausted. The
    caller checks the last holder's share."""
    for h in range(n_holders - 2, -1, -1):
        if allowed[h] and x[h] < cap[h]:
            x[h] += 1
            for g in range(h + 1, n_holders - 1):
                x[g] = 0
            return True
    return False


@njit_nrt_free
def count_worlds(unseen, need, n_holders, voids, table, fact, x, cap, allowed, rest):
    """Fill ``table[j, key(rest)]``: the number of ways to give the unseen cards of suits ``j..3`` to holders still
    needing ``rest`` (all four levels, every reachable ``rest``), and return the total number of consistent worlds
    (ignoring the declarer's eligibility). ``table``: float64 ``(5, N_KEYS)``."""
    table[:, :] = 0.0
    # level 4: nothing left to give; only the all-zero need is complete
    table[N_SUITS, 0] = 1.0  # no suit left: one way
    total_after = 0  # cards of the suits after j
    for j in range(3, -1, -1):
        c = count(suit_of_mask(unseen, j))
        for h in range(n_holders):
            allowed[h] = 0 if (voids[h] >> j) & 1 else 1
        # every rest with sum(rest over all holders) == c + total_after and rest[h] <= need[h]
        for h in range(n_holders - 1):
            rest[h] = 0
        while True:
            s = 0
            for h in range(n_holders - 1):
                s += rest[h]
            last = c + total_after - s
            if 0 <= last <= need[n_holders - 1]:
                kk = _key(rest, n_holders)
                acc = 0.0
                for h in range(n_holders - 1):
                    x[h] = 0
                    cap[h] = min(rest[h], c)
                while True:
                    sx = 0
                    for h in range(n_holders - 1):
                        sx += x[h]
                    xl = c - sx
                    if 0 <= xl <= last and (allowed[n_holders - 1] or xl == 0):
                        x[n_holders - 1] = xl
                        for h in range(n_holders - 1):
                            rest[h] -= x[h]
                        sub = table[j + 1, _key(rest, n_holders)]
                        for h in range(n_holders - 1):
                            rest[h] += x[h]
                        if sub > 0.0:
                            acc += _ways(fact, c, x, n_holders) * sub
                    if not _next_split(x, c, cap, allowed, n_holders):
                        break
                table[j, kk] = acc
            # next rest (odometer over rest[h] <= need[h])
            h = n_holders - 2
            while h >= 0 and rest[h] == need[h]:
                rest[h] = 0
                h -= 1
            if h < 0:
                break
            rest[h] += 1
        total_after += c
    for h in range(n_holders - 1):
        rest[h] = need[h]
    return table[0, _key(rest, n_holders)]


@njit_nrt_free
def deal_exact(key, index, unseen, need, n_holders, voids, table, fact, ints, out, cards):
    """One world drawn exactly uniformly with :func:`count_worlds`'s table (filled before). Returns the next draw
    index. ``ints``: int64 scratch ``(I_LEN, MAX_HOLDERS)``."""
    x, cap, allowed, rest, spare = ints[I_X], ints[I_CAP], ints[I_ALLOWED], ints[I_REST], ints[I_SPARE]
    for h in range(n_holders):
        out[h] = _ZERO
    for h in range(n_holders - 1):
        rest[h] = need[h]
    for j in range(4):
        suit = suit_of_mask(unseen, j)
        c = count(suit)
        for h in range(n_holders):
            allowed[h] = 0 if (voids[h] >> j) & 1 else 1
        s = 0
        for h in range(n_holders - 1):
            s += rest[h]
        # what the last holder still needs: the cards of suits j..3 minus the others' needs
        remaining = 0
        for g in range(j, 4):
            remaining += count(suit_of_mask(unseen, g))
        last = remaining - s
        target = uniform(key, index) * table[j, _key(rest, n_holders)]
        index += 1
        for h in range(n_holders - 1):
            x[h] = 0
            cap[h] = min(rest[h], c)
        acc = 0.0
        chosen = False
        for h in range(n_holders):
            spare[h] = -1
        while True:
            sx = 0
            for h in range(n_holders - 1):
                sx += x[h]
            xl = c - sx
            if 0 <= xl <= last and (allowed[n_holders - 1] or xl == 0):
                x[n_holders - 1] = xl
                for h in range(n_holders - 1):
                    rest[h] -= x[h]
                sub = table[j + 1, _key(rest, n_holders)]
                if sub > 0.0:
                    acc += _ways(fact, c, x, n_holders) * sub
                    if acc > target:
                        chosen = True
                        break
                    for h in range(n_holders):
                        spare[h] = x[h]
                for h in range(n_holders - 1):
                    rest[h] += x[h]
            if not _next_split(x, c, cap, allowed, n_holders):
                break
        if not chosen:  # rounding at the very end of the range: the last feasible split
            for h in range(n_holders):
                x[h] = spare[h]
            for h in range(n_holders - 1):
                rest[h] -= x[h]
        # which cards: a uniform shuffle of the suit's unseen cards, cut into the chosen counts
        index = shuffle(key, index, suit, cards)
        pos = 0
        for h in range(n_holders):
            for i in range(pos, pos + x[h]):
                out[h] |= bit(cards[i])
            pos += x[h]
    return index


@njit_nrt_free
def _eligible(P, out, decl, decl_played):
    return decl < 0 or espagnolette_eligible(P, out[decl] | decl_played)


Scratch = namedtuple("Scratch", "ints table fact out cards state")
"""The sampler's arrays (the caller's: it allocates nothing): ``ints`` int64 ``(I_LEN, MAX_HOLDERS)``, ``table``
float64 ``(5, N_KEYS)`` (the counts), ``fact`` float64 ``(64,)`` (factorials), ``out`` uint64 ``(MAX_HOLDERS,)``
(the world: each holder's cards), ``cards`` int64 ``(64,)`` (a shuffle), ``state`` int64 ``(1,)`` (a cell:
:data:`NOT_COUNTED`, :data:`COUNTED` or :data:`NONE_CONSISTENT`, see :func:`sample`)."""


@njit_nrt_free
def sample(P, key, index, unseen, need, n_holders, voids, decl, decl_played, scratch):
    """Draw one consistent world into ``scratch.out[:n_holders]`` from draw ``index`` of stream ``key``; return the
    next draw index, or -1 if no world is consistent (then ``out`` is meaningless).

    ``decl`` (-1: none) is the holder who declared the espagnolette: his hand at the first lead (his cards in the
    world and ``decl_played``) must have been eligible (R38), a constraint the counting does not encode.
    ``scratch.state[0]`` says whether ``scratch.table`` already holds this decision's counts (``COUNTED``), none is
    consistent (``NONE_CONSISTENT``), or not counted yet (``NOT_COUNTED``), so that a decision that draws many worlds
    counts once.
    """
    ints, table, fact, out, cards, state = scratch
    for _ in range(TRIES):
        index = deal_uniform(key, index, unseen, need, n_holders, out, cards)
        if consistent(out, n_holders, voids) and _eligible(P, out, decl, decl_played):
            return index
    if state[0] == NOT_COUNTED:
        total = count_worlds(unseen, need, n_holders, voids, table, fact, ints[I_X], ints[I_CAP], ints[I_ALLOWED],
                             ints[I_REST])
        state[0] = COUNTED if total > 0.0 else NONE_CONSISTENT
    if state[0] == NONE_CONSISTENT:
        return -1
    for _ in range(TRIES * TRIES):
        index = deal_exact(key, index, unseen, need, n_holders, voids, table, fact, ints, out, cards)
        if _eligible(P, out, decl, decl_played):
            return index
    return -1
