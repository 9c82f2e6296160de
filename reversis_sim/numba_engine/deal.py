"""The engine's deal: the cards dealt by key, then the deal played by the one deal skeleton.

:func:`play_deal` shuffles and deals by the deal's key (R11, R12; again while a ``--where`` condition rejects the
hands), draws the seats' policy streams, starts the deal (:func:`reversis_sim.policies.deal_nb.begin`) and plays it
with the skeleton (:data:`reversis_sim.policies.deal_nb.PLAY_FROM`, received as an argument: it is compiled once for
every kernel), asking the search (or whatever ``search`` is) for a searching seat's cards. Read it beside the
reference engine (``reference/deal.py``): every random choice is drawn from the same keyed stream with the same
decision index, so the deal is the same card for card and chip for chip.

Hands are ``uint64`` masks (card c = bit c, see :mod:`reversis_sim.cards`); the kernel records everything as it
goes, into arrays the caller provides (:mod:`reversis_sim.kernel.layout` describes them).
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np

from ..constraints import MAX_ATTEMPTS, TALON
from ..kernel.bits import bit, count
from ..kernel.compiled import N_ACTIVE, P_DEALER_EXTRA, P_ESP_GOAL, P_HAND_SIZE, P_N_DECK, P_TALON, TALON_NONE
from ..kernel.jit import njit_nrt_free_inline
from ..kernel.keys_nb import PURPOSE_POLICY, PURPOSE_SHUFFLE, below, draw, extend, fill_draws
from ..kernel.layout import (
    AT_CHOICE,
    AT_SEAT,
    COL_ERROR,
    COL_POOL_AFTER,
    COL_SHUFFLES,
    ERR_WHERE,
    H_DEALT,
    H_NOW,
    PAUSED,
    PD_DECK,
    PD_PLACED,
    SWAPS,
)
from ..kernel.payments import position, round_origin, seat_of, sitting_out
from ..kernel.tricks import dealer_of, eldest_of
from ..kernel.where import accepts
from ..policies.deal_nb import begin
from ..policies.dispatch import uses_draws

_ZERO = np.uint64(0)
_ONE = np.uint64(1)

Play = namedtuple("Play", "play_from search")
"""The units a deal is played with (:mod:`reversis_sim.kernel.units`): the deal skeleton
(:data:`reversis_sim.policies.deal_nb.PLAY_FROM`) and the search's card (:data:`reversis_sim.search.decide_nb.play`,
or ``NO_SEARCH`` at a table without a search: nothing of the search is compiled for it)."""


# ----------------------------------------------------------------------------------------------------------------
# The steps of a deal
# ----------------------------------------------------------------------------------------------------------------


@njit_nrt_free_inline
def deal_cards(P, n, deck, cards, shuffle_key, dealer, hands, offered, predeal):
    """R11, R12: shuffle by key (Fisher-Yates, as ``keys.shuffled``), deal each hand in playing order from the
    eldest (the dealer one card more; a dealer who sits out none, F1.6), then one talon card before each
    non-dealer.

    ``predeal`` (``uint64 (PREDEAL_SIZE,)``, the deals' constraints): the cards placed in each seat's hand before
    the deal (``predeal[PD_PLACED]`` all of them); only the other cards are shuffled, and a seat's hand is its
    predealt cards and as many shuffled ones as it lacks. With nothing predealt this is the deal of an unconstrained
    run."""
    n_deck = P[P_N_DECK]
    placed = predeal[PD_PLACED]
    m = 0
    for i in range(n_deck):
        c = deck[i]
        if placed == _ZERO or (placed >> np.uint64(c)) & _ONE == _ZERO:
            cards[m] = c
            # the swap partner of position m, drawn for every m first (independent draws: a vectorised loop)
            cards[SWAPS + m] = below(draw(shuffle_key, m), m + 1)
            m += 1
    for i in range(m - 1, 0, -1):
        j = cards[SWAPS + i]
        c = cards[i]
        cards[i] = cards[j]
        cards[j] = c
    origin = round_origin(n, dealer)
    size = P[P_HAND_SIZE]
    sit = sitting_out(n, dealer)
    if sit >= 0:
        hands[H_DEALT, sit] = _ZERO
        hands[H_NOW, sit] = _ZERO
    p_eldest = position(eldest_of(n, dealer), origin, n)
    pos = 0
    for k in range(N_ACTIVE):
        seat = seat_of(p_eldest + k, origin, n)
        hand = predeal[seat]
        end = pos + size + (1 if (seat == dealer and P[P_DEALER_EXTRA]) else 0) - count(hand)
        for i in range(pos, end):
            hand |= bit(cards[i])
        hands[H_DEALT, seat] = hand
        hands[H_NOW, seat] = hand
        pos = end
    for s in range(n):
        offered[s] = -1
    if P[P_TALON] != TALON_NONE:
        for k in range(N_ACTIVE):
            seat = seat_of(p_eldest + k, origin, n)  # the non-dealers, in playing order
            if seat != dealer:
                offered[seat] = cards[pos]
                pos += 1


@njit_nrt_free_inline
def deal_constrained(P, n, deck, deal, h_deal, dealer, dealing):
    """The deal's cards (:func:`deal_cards`), drawn again while the dealt hands miss the ``where`` program of
    ``dealing`` (an ``int64`` program of :mod:`reversis_sim.constraints`; empty: every deal passes), attempt ``k``
    shuffling with the key (..., deal, PURPOSE_SHUFFLE, k), as the reference does. Returns the number of shuffles
    drawn, or 0 when none of :data:`MAX_ATTEMPTS` passed."""
    for attempt in range(MAX_ATTEMPTS):
        deal_attempt(P, n, deck, deal, h_deal, dealer, dealing, attempt)
        if len(dealing.where) == 0 or meets(n, deal, dealing):
            return attempt + 1
    return 0


@njit_nrt_free_inline
def deal_attempt(P, n, deck, deal, h_deal, dealer, dealing, attempt):
    """Shuffle ``attempt`` of the deal whose key prefix is ``h_deal``, keyed (..., deal, PURPOSE_SHUFFLE, attempt),
    dealt into ``deal`` around the predealt cards of ``dealing`` (:func:`deal_cards`)."""
    deal_cards(P, n, deck, deal.cards, extend(extend(h_deal, PURPOSE_SHUFFLE), attempt), dealer, deal.hands,
               deal.offered, dealing.predeal)


@njit_nrt_free_inline
def meets(n, deal, dealing):
    """Whether the hands dealt in ``deal`` meet the ``where`` program of ``dealing``: it reads each seat's hand
    (the slots of absent seats empty), then the talon, every card no hand was dealt."""
    dealt = dealing.dealt
    cards = _ZERO
    for s in range(TALON):
        dealt[s] = deal.hands[H_DEALT, s] if s < n else _ZERO
        cards |= dealt[s]
    dealt[TALON] = dealing.predeal[PD_DECK] & ~cards
    return accepts(dealing.where, dealt, dealing.stack)


@njit_nrt_free_inline
def play_deal(rules, n, seats, h_match, h_pmatch, d, pool_before, double_ante, deal, ws, dealing, play):
    """Play deal ``d`` of the match whose key prefix is ``h_match`` (``keys.extend(seed_hash(seed), match)``),
    with seat ``s``'s policy stream prefix ``h_pmatch[s]`` (the same with its policy seed), the rules' arrays
    ``rules`` (:class:`reversis_sim.kernel.compiled.RulesArrays`) at a table of ``n`` seats (4, or 5 where the
    dealer sits out) whose policies are ``seats`` (:class:`reversis_sim.kernel.layout.Seats`), and fill the deal's
    arrays ``deal`` (:class:`reversis_sim.kernel.layout.Deal`; ``ws``: a searching seat's workspace,
    :func:`reversis_sim.search.rollout_nb.workspace`; ``dealing``: the deal's constraints and their scratch,
    :func:`deal_constrained`). ``double_ante``: ``serbian``, the previous deal had a J♥ placement (F3.3).
    ``play``: the units it is played with (:class:`Play`, or any named tuple with those two). Returns the pool after
    the deal."""
    if start_deal(rules, n, seats, h_match, h_pmatch, d, pool_before, double_ante, deal, dealing):
        play_on(rules.P, n, rules.tables, seats, deal, ws, play)
    return deal.row[COL_POOL_AFTER]


@njit_nrt_free_inline
def start_deal(rules, n, seats, h_match, h_pmatch, d, pool_before, double_ante, deal, dealing):
    """Deal ``d``'s cards by its key and start it (:func:`play_deal`'s arguments); False where no shuffle met the
    deals' ``where`` condition (the deal's error set)."""
    P, deck = rules.P, rules.deck
    dealer = dealer_of(P, d)
    # Every draw of a deal is keyed by (seed, match, deal, purpose, seat), never by a running stream, so that a deal
    # is the same card for card whatever was played before it, on whatever thread, in either engine.
    h_deal = extend(h_match, d)
    # Each seat's policy stream is keyed by its own policy seed (``h_pmatch[s]`` = extend(seed_hash(policy seed),
    # match)); by default every policy seed is the run seed, and then this is extend(h_deal, PURPOSE_POLICY), s.
    # A seat whose family never reads them (``avoid``, ``lowest``) is not drawn for: 60 hashes a deal at a table of
    # four.
    for s in range(n):
        if uses_draws(seats.family[s]):
            fill_draws(extend(extend(extend(h_pmatch[s], d), PURPOSE_POLICY), s), P[P_HAND_SIZE], P[P_ESP_GOAL],
                       deal.draws[s])
    shuffles = deal_constrained(P, n, deck, deal, h_deal, dealer, dealing)
    begin(P, n, deal, dealer, pool_before, double_ante)
    deal.row[COL_SHUFFLES] = shuffles
    if shuffles == 0:
        deal.row[COL_ERROR] = ERR_WHERE
        deal.row[COL_POOL_AFTER] = pool_before
        return False
    return True


@njit_nrt_free_inline
def play_on(P, n, tables, seats, deal, ws, play):
    """Play a started deal to its end with the skeleton ``play.play_from``, asking ``play.search`` for the cards of
    a searching seat wherever the skeleton pauses (with ``ws``, the searching seat's workspace)."""
    while play.play_from(P, n, tables, seats, deal) == PAUSED:
        seat = deal.at[AT_SEAT]
        deal.at[AT_CHOICE] = play.search(seats.params[seat], deal.draws[seat], deal.seat_view, tables, P, n,
                                         deal.tricks, ws, play.play_from)
