"""Match kernels: the deals of a match in order, the dealer rotating and the pool carried over (R4, R10), the
antes doubled after a placement (``serbian``), the running scores kept until the target (``parlett_simple``).

- :func:`play_blocks` plays blocks of matches and writes one result row per deal. A match is a pure function of
  (rules, seats, seed, match), so the rows are the same whatever the thread count or the split of the matches into
  calls; the wrapper (:mod:`.batch`) runs blocks on several threads (the kernel releases the GIL).
- :func:`trace_match_nb` plays one match and keeps every array of every deal, for :mod:`.trace`.

Both play each deal with :func:`.deal.play_deal`, the deal skeleton and the search's card passed in as units
(:class:`.deal.Play`, :mod:`reversis_sim.kernel.units`): compiled once, whatever calls them.
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np

from ..columns import N_REASONS
from ..kernel.compiled import (
    MAX_SEATS,
    P_DOUBLE_ANTE,
    P_POOL_PERSISTS,
    P_SCORING,
    P_TARGET_TOTAL,
    POOL,
    SCORING_SIMPLE,
)
from ..kernel.jit import njit_nrt_free, njit_nrt_free_inline
from ..kernel.keys_nb import extend, seed_hash
from ..kernel.layout import (
    COL_DEAL,
    COL_ERROR,
    COL_MATCH,
    COL_Q_FATE,
    COL_SCORE,
    COL_SHUFFLES,
    ERR_POOL,
    H_DEALT,
    MAX_POOL,
    Q_DUMPED,
    Deal,
    alloc,
    dealing,
)
from ..search.rollout_nb import workspace
from .deal import play_deal
from .rows import PAY_SLOTS, payment_rows, seat_rows

BLOCK = 16  # matches per block: each block packs its payment rows from its own first slot on


@njit_nrt_free_inline
def next_deal(P, row, pool, score):
    """What the match carries from the deal just played (in ``row``) to the next: (pool, double ante, over).

    R10, F0.7: the pool carries over where it persists, otherwise every deal starts at 0. F3.3: ``serbian`` doubles
    the antes after a deal with a J♥ placement. F4.3, G14: under simple scoring the running totals ``score``
    (``int64 (MAX_SEATS,)``) grow, and no deal follows one in which a total reached the target (``over``)."""
    if not P[P_POOL_PERSISTS]:
        pool = 0
    double_ante = 1 if (P[P_DOUBLE_ANTE] and row[COL_Q_FATE] == Q_DUMPED) else 0
    over = False
    if P[P_SCORING] == SCORING_SIMPLE:
        for s in range(len(score)):
            score[s] += row[COL_SCORE + s]
            if score[s] >= P[P_TARGET_TOTAL]:
                over = True
    return pool, double_ante, over


Out = namedtuple("Out", "match i8 i16 i64 pay_seat pay_reason pay_amount pay_count err n_played shuffles")
"""What the match kernel writes (:func:`play_blocks`): the seat rows' blocks (``match``, ``i8``, ``i16``,
``i64``: :class:`reversis_sim.columns.Chunk`), the payment slots and their counts per deal, each deal's error,
each match's deals played and shuffles drawn."""

Matches = namedtuple("Matches", "first count deals")
"""Which matches a call plays: the first, how many, the deals of each."""

Traced = namedtuple("Traced", "rows hands offered exch tricks ledger")
"""Every array of every deal of a traced match (:func:`trace_match_nb`), stacked on a first axis of its deals."""

Scratch = namedtuple("Scratch", "deal ws sums used q_net dealing h_pmatch score")
"""One thread's scratch for :func:`play_blocks` (:func:`scratch`): the deal's arrays, a searching seat's workspace,
the sums of a deal's payments by (direction, party, reason) and the parties it names, each seat's Quinola net, the
deals' constraints, the seats' policy stream prefixes, the running scores."""


def scratch(n_seats: int, searching: bool, constraint) -> Scratch:
    """A :class:`Scratch` (numpy) for a table of ``n_seats`` (``searching``: a search sits at it) under the deals'
    constraints ``constraint`` (``predeal``, ``where``)."""
    return Scratch(alloc(), workspace(searching), np.zeros((2, POOL + 1, N_REASONS), np.int64),
                   np.zeros(POOL + 1, np.uint64), np.zeros(MAX_SEATS, np.int64), dealing(*constraint),
                   np.zeros(MAX_SEATS, np.uint64), np.zeros(n_seats, np.int64))


@njit_nrt_free
def play_blocks(rules, n, seats, seed, policy_seeds, matches, b0, b1, out, scratch, play):
    """Play the matches of blocks ``b0 .. b1 - 1`` (:data:`BLOCK` matches each) of the :class:`Matches`
    ``matches`` (``first_match`` .. ``first_match + n_matches - 1`` below) into a chunk's arrays ``out``
    (:class:`Out`): deal ``d`` of match
    ``first_match + i`` is deal slot ``r = i * n_deals + d``, whose seat rows ``r * n ..`` of ``out.match``,
    ``out.i8``, ``out.i16``, ``out.i64`` (the blocks of :class:`reversis_sim.columns.Chunk`) are written, and its
    ``pay_count[r]`` payment rows (zero on entry) go to the payment slots ``pay_seat``, ``pay_reason``,
    ``pay_amount`` (:mod:`.rows`): each block owns the slots from ``PAY_SLOTS`` times its first deal slot on and
    writes its deals' rows there one after the other (:func:`.rows.compact_payments` finds them again from the
    counts), with ``err[r]`` (0, or the deal's ``COL_ERROR``) and ``n_played[i]``: ``n_deals`` unless the match
    ended early at its target total (simple scoring) or on an error; the slots after it are left as they were;
    ``shuffles[i]``: the shuffles the match's deals drew (its deals, unless a ``where`` condition rejected some).

    ``rules``: the :class:`~reversis_sim.kernel.compiled.RulesArrays`; ``n``: the seats (4, or 5 with the dealer
    sitting out); ``seats``: the :class:`~reversis_sim.kernel.layout.Seats`; ``seed`` the run seed and
    ``policy_seeds`` (``uint64 (MAX_SEATS,)``) each seat's policy seed, modulo 2**64; ``scratch``: this thread's
    :class:`Scratch`; ``play``: the units a deal is played with (:class:`.deal.Play`)."""
    P = rules.P
    first_match, n_matches, n_deals = matches
    match_col, i8, i16, i64, pay_seat, pay_reason, pay_amount, pay_count, err, n_played, shuffles = out
    deal, ws, h_pmatch, score = scratch.deal, scratch.ws, scratch.h_pmatch, scratch.score
    row = deal.row
    h_seed = seed_hash(seed)
    for b in range(b0, b1):
        # the block's payment rows, packed deal after deal: a deal writes ~16 rows where a fixed window of PAY_SLOTS
        # per deal would spread them over ~6 cache lines (measured: 25% faster random play than per-deal windows)
        k = b * BLOCK * n_deals * PAY_SLOTS
        for i in range(b * BLOCK, min(n_matches, (b + 1) * BLOCK)):
            match = first_match + i
            h_match = extend(h_seed, match)
            for s in range(MAX_SEATS):
                h_pmatch[s] = extend(seed_hash(policy_seeds[s]), match)
            for s in range(n):
                score[s] = 0
            pool = 0  # R9: a match starts with an empty pool
            double_ante = 0
            played = n_deals
            drawn = 0
            for d in range(n_deals):
                r = i * n_deals + d
                row[COL_MATCH] = match
                row[COL_DEAL] = d
                if pool > MAX_POOL:  # a doubling of this pool could overflow the chips' 64 bits
                    err[r] = ERR_POOL
                    played = d + 1
                    break
                pool = play_deal(rules, n, seats, h_match, h_pmatch, d, pool, double_ante, deal, ws, scratch.dealing,
                                 play)
                err[r] = row[COL_ERROR]
                drawn += row[COL_SHUFFLES]
                pay_count[r] = payment_rows(row, deal.ledger, scratch.sums, scratch.used, scratch.q_net, n, pay_seat,
                                            pay_reason, pay_amount, k)
                k += pay_count[r]
                seat_rows(row, scratch.q_net, deal.hands[H_DEALT], n, r * n, match_col, i8, i16, i64)
                pool, double_ante, over = next_deal(P, row, pool, score)
                if over or row[COL_ERROR]:
                    played = d + 1
                    break
            n_played[i] = played
            shuffles[i] = drawn


@njit_nrt_free
def trace_match_nb(rules, n, seats, seed, policy_seeds, match, n_deals, traced, scratch, play):
    """Play deals 0..n_deals-1 of one match (fewer if it ends at its target total) keeping every deal's arrays in
    ``traced`` (:class:`Traced`); returns the number of deals played. The other arguments as :func:`play_blocks`'s."""
    P = rules.P
    rows, hands, offered, exch, tricks, ledger = traced
    s0 = scratch.deal
    h_match = extend(seed_hash(seed), match)
    h_pmatch, score = scratch.h_pmatch, scratch.score
    for s in range(MAX_SEATS):
        h_pmatch[s] = extend(seed_hash(policy_seeds[s]), match)
    for s in range(n):
        score[s] = 0
    pool = 0
    double_ante = 0
    for d in range(n_deals):
        if pool > MAX_POOL:
            rows[d, COL_MATCH] = match
            rows[d, COL_DEAL] = d
            rows[d, COL_ERROR] = ERR_POOL
            return d + 1
        rows[d, COL_MATCH] = match
        rows[d, COL_DEAL] = d
        deal = Deal(rows[d], hands[d], offered[d], exch[d], tricks[d], ledger[d], s0.claims, s0.cards, s0.draws,
                    s0.known, s0.seat_view, s0.at)
        pool = play_deal(rules, n, seats, h_match, h_pmatch, d, pool, double_ante, deal, scratch.ws, scratch.dealing,
                         play)
        pool, double_ante, over = next_deal(P, rows[d], pool, score)
        if over:
            return d + 1
    return n_deals
