"""The decisions before the first lead, reviewed: the exchange (which card to discard, and whether to
take at all) and the declaration of the espagnolette (with its goal where the preset names one).

Each option is played out from the moment of the decision in worlds consistent with what the seat knew then, as
:mod:`reversis_sim.review.evaluate_nb` plays out the cards: the same worlds and the same rollout policy for every
option (common random numbers), half the worlds choosing the best and half measuring (its ``summarize``), and once
in the true deal (hindsight). A rollout plays the rest of the exchange, the declaration and every trick with the
reviewer's rollout policy in every seat, then settles (:func:`play_out`).

What the seat knows. At its exchange step: its own hand (with the card it took where it must take first, F3.2);
how many cards each seat holds and how many lie in the talon. Every other card is unseen: each world deals the
unseen cards uniformly into the other seats' hands, the face-down cards still to be exchanged (its own among them,
which it takes unseen, R14) and the talon so far, each of whose cards the seat that put it there knows (A17).
At the declaration: its hand at the first lead and the talon card it knows; the other hands and the rest of the
talon are dealt uniformly. The public fact of who exchanged and who kept is not used (worlds are not weighted by
what the others chose): the review never uses what the seat did not know, and uses what it knew as the search
does, by the cards alone.
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np
from numba import typeof, types

from ..kernel.bits import bit, count, lowest
from ..kernel.compiled import (
    MAX_SEATS,
    N_ACTIVE,
    P_DECK_MASK,
    P_ESP_GOAL,
    P_PARTY_BONUS,
    P_SCORING,
    P_TALON,
    SCORING_SIMPLE,
    T_TALON_POINTS,
    TALON_NONE,
    TALON_TAKE,
)
from ..kernel.jit import njit_nrt_free
from ..kernel.keys_nb import below, draw, extend
from ..kernel.layout import (
    AT_CHOICE,
    AT_PHASE,
    AT_STEP,
    AT_TALON_POINTS,
    COL_DEALER,
    COL_DOUBLE_ANTE,
    COL_FISH,
    COL_PARTY_VALUE,
    COL_POOL_BEFORE,
    COL_SCORE,
    EX_CARD,
    EX_SEAT,
    H_NOW,
    PH_DECLARE,
    alloc,
)
from ..kernel.payments import position, round_origin
from ..kernel.tricks import eldest_of
from ..kernel.units import I64, P_TYPE, TABLES_TYPE, Unit, deal_type
from ..policies.deal_nb import PLAY_FROM, begin, exchange_seat
from ..policies.view import DECLARE_LOSE_ALL, DECLARE_PASS, DECLARE_WIN_ALL
from ..search.options_nb import distinct
from .evaluate_nb import COUNT_OPTIONS, MAX_OPTIONS, MAX_WORLDS, review_scratch

DECLARATION = N_ACTIVE
"""The step of the declaration, after the exchange's ``N_ACTIVE`` steps."""

Before = namedtuple("Before", "deal cards hands offered known none")
"""A reviewer's scratch for the decisions before the first lead (one per thread): ``deal``, the
:class:`~reversis_sim.kernel.layout.Deal` a rollout is played in; ``cards`` int64 ``(64,)``: the unseen cards,
shuffled; a world: ``hands`` (uint64 ``(MAX_SEATS,)``, each seat's hand at the step), ``offered`` (int64, each
face-down card still to be exchanged, -1 none), ``known`` (uint64, the talon card each seat knows); ``none`` uint64
``(MAX_SEATS,)`` of zeros (no card played yet, for :func:`~reversis_sim.search.options_nb.distinct`)."""


def before_scratch() -> Before:
    """A :class:`Before` to fill (numpy)."""
    return Before(alloc(), np.zeros(64, np.int64), np.zeros(MAX_SEATS, np.uint64), np.full(MAX_SEATS, -1, np.int64),
                  np.zeros(MAX_SEATS, np.uint64), np.zeros(MAX_SEATS, np.uint64))


@njit_nrt_free
def play_out(P, n, tables, seats, real, b, seat, step, option, talon_points, play_from):
    """The deal ``real`` played out from ``seat``'s decision at ``step`` (an exchange step, or
    :data:`DECLARATION`) in the world of ``b`` (its hands, face-down cards and known talon cards; ``talon_points``:
    the card points in the talon so far) with ``option`` taken there and the rollout ``seats`` everywhere else, by
    the deal skeleton ``play_from``: the rest of the exchange, the declaration, the tricks, the settlement. Returns
    the seat's result: its fish (minus its score under simple scoring)."""
    row0 = real.row
    deal = b.deal
    row, at = deal.row, deal.at
    begin(P, n, deal, row0[COL_DEALER], row0[COL_POOL_BEFORE], row0[COL_DOUBLE_ANTE])
    for s in range(MAX_SEATS):
        deal.hands[H_NOW, s] = b.hands[s]
        deal.offered[s] = b.offered[s]
        deal.known[s] = b.known[s]
    at[AT_TALON_POINTS] = talon_points
    if step < DECLARATION:
        at[AT_STEP] = step
    else:
        row[COL_PARTY_VALUE] = P[P_PARTY_BONUS] + talon_points  # R31
        at[AT_PHASE] = PH_DECLARE
    at[AT_CHOICE] = option
    play_from(P, n, tables, seats, deal)
    if P[P_SCORING] == SCORING_SIMPLE:
        return -row[COL_SCORE + seat]
    return row[COL_FISH + seat]


@njit_nrt_free
def _shuffled(unseen, key, cards):
    """The cards of ``unseen`` into ``cards``, shuffled by ``key`` (Fisher-Yates); returns how many."""
    m = 0
    u = unseen
    while u:
        cards[m] = lowest(u)
        u &= u - np.uint64(1)
        m += 1
    for i in range(m - 1, 0, -1):
        j = below(draw(key, i), i + 1)
        c = cards[i]
        cards[i] = cards[j]
        cards[j] = c
    return m


@njit_nrt_free
def exchange_world(P, n, tables, real, b, seat, step, own, key, truth):
    """A world of ``seat``'s exchange at ``step`` (``own``: its hand, with the card it took where it must take
    first) into ``b``: the other seats' hands, the face-down cards still to be exchanged and the talon so far
    (module docstring), dealt by ``key``; ``truth``: the true deal instead. Returns the talon's points so far, or -1
    where the counts do not add up (never in a deal of the rules)."""
    hands, offered, exch = real.hands, real.offered, real.exch
    take = P[P_TALON] == TALON_TAKE
    dealer = real.row[COL_DEALER]
    origin = round_origin(n, dealer)
    p_eldest = position(eldest_of(n, dealer), origin, n)
    points = 0
    if truth:
        for s in range(MAX_SEATS):
            b.hands[s] = hands[H_NOW, s] if s < n else np.uint64(0)
            b.offered[s] = offered[s] if s < n else -1
            b.known[s] = real.known[s] if s < n else np.uint64(0)
        for j in range(step):  # the talon so far: each earlier step's discard, or the card its seat kept out
            c = exch[j, EX_CARD] if exch[j, EX_CARD] >= 0 else offered[exch[j, EX_SEAT]]
            points += tables[T_TALON_POINTS, c]
        return points
    cards = b.cards
    m = _shuffled(np.uint64(P[P_DECK_MASK]) & ~own, key, cards)
    pos = 0
    for s in range(MAX_SEATS):
        b.hands[s] = np.uint64(0)
        b.offered[s] = -1
        b.known[s] = np.uint64(0)
    for s in range(n):
        if s == seat:
            b.hands[s] = hands[H_NOW, s]
            continue
        for _ in range(count(hands[H_NOW, s])):
            if pos < m:
                b.hands[s] |= bit(cards[pos])
            pos += 1
    for j in range(1, N_ACTIVE):  # the face-down cards still to be exchanged (the dealer's step, 0, has none)
        t = exchange_seat(n, dealer, origin, p_eldest, j)
        if j < step:
            continue
        if t == seat and take:
            b.offered[t] = offered[t]  # F3.2: taken already, in its hand
        else:
            b.offered[t] = cards[pos] if pos < m else -1
            pos += 1
    for j in range(step):  # the talon so far, each card known to the seat that put it there (A17)
        t = exchange_seat(n, dealer, origin, p_eldest, j)
        if pos < m:
            b.known[t] = bit(cards[pos])
            points += tables[T_TALON_POINTS, cards[pos]]
        pos += 1
    return points if pos == m else -1


@njit_nrt_free
def declaration_world(P, n, tables, real, b, seat, key, truth):
    """A world of ``seat``'s declaration into ``b``: the other hands at the first lead and the talon cards it does
    not know, dealt by ``key`` (each seat knowing one card of the talon, A17); ``truth``: the true deal. Returns the
    talon's points, or -1 where the counts do not add up."""
    hands, known = real.hands, real.known
    if truth:
        for s in range(MAX_SEATS):
            b.hands[s] = hands[H_NOW, s] if s < n else np.uint64(0)
            b.known[s] = known[s] if s < n else np.uint64(0)
            b.offered[s] = -1
        return real.row[COL_PARTY_VALUE] - P[P_PARTY_BONUS]
    own = hands[H_NOW, seat]
    cards = b.cards
    m = _shuffled(np.uint64(P[P_DECK_MASK]) & ~own & ~known[seat], key, cards)
    dealer = real.row[COL_DEALER]
    origin = round_origin(n, dealer)
    p_eldest = position(eldest_of(n, dealer), origin, n)
    pos = 0
    points = 0
    for s in range(MAX_SEATS):
        b.hands[s] = np.uint64(0)
        b.offered[s] = -1
        b.known[s] = np.uint64(0)
    b.hands[seat] = own
    b.known[seat] = known[seat]
    c = lowest(known[seat]) if known[seat] else -1
    if c >= 0:
        points += tables[T_TALON_POINTS, c]
    for s in range(n):
        if s == seat:
            continue
        for _ in range(count(hands[H_NOW, s])):
            if pos < m:
                b.hands[s] |= bit(cards[pos])
            pos += 1
    if P[P_TALON] != TALON_NONE:
        for j in range(N_ACTIVE):
            t = exchange_seat(n, dealer, origin, p_eldest, j)
            if t == seat:
                continue
            if pos < m:
                b.known[t] = bit(cards[pos])
                points += tables[T_TALON_POINTS, cards[pos]]
            pos += 1
    while pos < m:  # the talon's other cards (none in a deal of the rules)
        points += tables[T_TALON_POINTS, cards[pos]]
        pos += 1
    return points if pos == m else -1


@njit_nrt_free
def exchange_options(hand, must, played, cards, b, n, tables):
    """The options of an exchange into ``cards``: keeping the hand (-1) where the seat may, then one card of each
    set of equivalent cards to discard (:func:`~reversis_sim.search.options_nb.distinct`, nothing played yet;
    ``played`` for its own set). Returns how many."""
    n_opt = 0
    if not must:
        cards[0] = -1
        n_opt = 1
    m = distinct(hand, hand, b.none, n, played if played >= 0 else lowest(hand), tables)
    while m and n_opt < MAX_OPTIONS:
        cards[n_opt] = lowest(m)
        m &= m - np.uint64(1)
        n_opt += 1
    return n_opt


@njit_nrt_free
def declaration_options(P, cards):
    """The options of a declaration into ``cards``; returns how many."""
    n_opt = 0
    for option in (DECLARE_PASS, DECLARE_LOSE_ALL, DECLARE_WIN_ALL):
        if option != DECLARE_WIN_ALL or P[P_ESP_GOAL]:
            cards[n_opt] = option
            n_opt += 1
    return n_opt


@njit_nrt_free
def evaluate_before(P, n, tables, real, b, r, seat, step, own, key, n_worlds, play_from):
    """Play out each of the ``r.count[COUNT_OPTIONS]`` options in ``r.cards`` (a
    :class:`~reversis_sim.review.evaluate_nb.Review`) of ``seat``'s decision at ``step`` (``own``: its hand) in
    ``n_worlds`` worlds drawn with ``key`` and in the true deal, into ``r.values`` (the rows of
    :func:`~reversis_sim.review.evaluate_nb.summarize`), the rollout policy ``r.ws.seats`` in every seat, by the
    deal skeleton ``play_from``. Returns the worlds drawn."""
    values, seats, n_opt = r.values, r.ws.seats, r.count[COUNT_OPTIONS]
    nw = 0
    for w in range(min(n_worlds, MAX_WORLDS) + 1):
        truth = w == min(n_worlds, MAX_WORLDS)
        k = extend(key, w)
        if step < DECLARATION:
            points = exchange_world(P, n, tables, real, b, seat, step, own, k, truth)
        else:
            points = declaration_world(P, n, tables, real, b, seat, k, truth)
        if points < 0:
            return 0
        i = MAX_WORLDS if truth else nw
        for j in range(n_opt):
            values[i, j] = play_out(P, n, tables, seats, real, b, seat, step, r.cards[j], points, play_from)
        if not truth:
            nw += 1
    return nw


EVALUATE_BEFORE = Unit(evaluate_before, lambda: I64(P_TYPE, I64, TABLES_TYPE, deal_type(), typeof(before_scratch()),
                                                    typeof(review_scratch()), I64, I64, types.uint64, types.uint64,
                                                    I64, PLAY_FROM.type))
"""The valuation of an exchange or a declaration as a unit (:mod:`reversis_sim.kernel.units`), compiled once for
the reviewing table and a record's review."""
