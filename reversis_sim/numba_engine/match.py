"""Match kernels: the deals of a match in order, the dealer rotating and the pool carried over (R4, R10), the
antes doubled after a placement (``serbian``), the running scores kept until the target (``parlett_simple``).

- :func:`play_matches_nb` plays many matches in parallel (``prange`` over blocks of matches; each block allocates
  its own scratch) and writes one result row per deal. A match is a pure function of (rules, seats, seed, match),
  so the rows are the same whatever the thread count or the split of the matches into calls.
- :func:`trace_match_nb` plays one match and keeps every array of every deal, for :mod:`.trace`.
- :func:`match_kernels` gives the wrappers the two kernels of a table (four seats, or five with the dealer sitting
  out), each compiled with the table as literal constants, on first use.
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np
from numba import prange

from ..columns import N_REASONS
from ..constraints import MAX_STACK, TALON
from ..kernel.compiled import (
    MAX_LEDGER,
    MAX_SEATS,
    MAX_TRICKS,
    P_DOUBLE_ANTE,
    P_N_SEATS,
    P_POOL_PERSISTS,
    P_SCORING,
    P_TARGET_TOTAL,
    POOL,
    SCORING_SIMPLE,
)
from ..kernel.jit import njit, njit_nrt_free_inline, njit_parallel
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
    N_COLS,
    Q_DUMPED,
    Deal,
    Dealing,
    alloc,
)
from ..policies.rollout_nb import workspace
from ..policies.search_nb import searching
from .deal import play_deal
from .rows import PAY_SLOTS, payment_rows, seat_rows

BLOCK = 16  # matches per parallel work item


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
        for s in range(P[P_N_SEATS]):
            score[s] += row[COL_SCORE + s]
            if score[s] >= P[P_TARGET_TOTAL]:
                over = True
    return pool, double_ante, over


Out = namedtuple("Out", "match i8 i16 i64 pay_seat pay_reason pay_amount pay_count err n_played shuffles")
"""What the match kernel writes (:func:`play_matches_nb`): the seat rows' blocks (``match``, ``i8``, ``i16``,
``i64``: :class:`reversis_sim.columns.Chunk`), the payment slots and their counts per deal, each deal's error,
each match's deals played and shuffles drawn."""


@njit_parallel
def play_matches_nb(rules, n_seats, sit_out, seats, seed, policy_seeds, first_match, n_matches, n_deals, constraint,
                    out):
    """Play matches ``first_match .. first_match + n_matches - 1`` into a chunk's arrays ``out`` (:class:`Out`):
    deal ``d`` of match ``first_match + i`` is deal slot ``r = i * n_deals + d``, whose seat rows ``r * n_seats ..``
    of ``out.match``, ``out.i8``, ``out.i16``, ``out.i64`` (the blocks of :class:`reversis_sim.columns.Chunk`) are
    written, and its ``pay_count[r]`` payment rows (zero on entry) go to the payment slots ``pay_seat``,
    ``pay_reason``, ``pay_amount`` (:mod:`.rows`): each block of :data:`BLOCK` matches owns the slots from
    ``PAY_SLOTS`` times its first deal slot on and writes its deals' rows there one after the other
    (:func:`.rows.compact_payments` finds them again from the counts), with ``err[r]`` (0, or the deal's
    ``COL_ERROR``) and ``n_played[i]``: ``n_deals`` unless the match ended early at its target total (simple
    scoring) or on an error; the slots after it are left as they were; ``shuffles[i]``: the shuffles the
    match's deals drew (its deals, unless a ``where`` condition rejected some). ``rules``: the
    :class:`~reversis_sim.kernel.compiled.RulesArrays`; ``seats``: the :class:`~reversis_sim.kernel.layout.Seats`;
    ``seed`` is the run seed and ``policy_seeds`` (``uint64 (MAX_SEATS,)``) each seat's policy seed, modulo 2**64;
    ``constraint``: (``predeal``, ``where``), the constraints of the deals (:func:`.deal.deal_constrained`).

    ``n_seats`` and ``sit_out`` (``P[P_N_SEATS]``, ``P[P_SIT_OUT]``: 4 and False, or 5 and True) are the table;
    :func:`play_matches_four` and :func:`play_matches_five` pass them as literal constants, so that numba compiles
    one specialization per table, in which the four-seat deal does its seat arithmetic as a four-seat engine would
    (:func:`.deal.play_deal`), and a process that plays only four-seat presets compiles only that one."""
    P = rules.P
    # the outputs by name, outside the parallel loop: numba's parfors lose a write into an array read off a tuple
    # inside the loop (measured: the payment counts stayed 0)
    match_col, i8, i16, i64, pay_seat, pay_reason, pay_amount, pay_count, err, n_played, shuffles = out
    h_seed = seed_hash(seed)
    h_pseed = np.empty(MAX_SEATS, np.uint64)
    for s in range(MAX_SEATS):
        h_pseed[s] = seed_hash(policy_seeds[s])
    n_blocks = (n_matches + BLOCK - 1) // BLOCK
    for b in prange(n_blocks):
        deal = alloc()
        row = deal.row
        ws = workspace(searching(seats.family, n_seats))
        scratch = np.zeros((2, POOL + 1, N_REASONS), np.int64)
        q_net = np.zeros(MAX_SEATS, np.int64)
        used = np.zeros(POOL + 1, np.uint64)
        dealing = Dealing(constraint[0], constraint[1], np.zeros(MAX_STACK, np.int64), np.zeros(TALON + 1, np.uint64))
        h_pmatch = np.empty(MAX_SEATS, np.uint64)
        score = np.zeros(MAX_SEATS, np.int64)
        # the block's payment rows, packed deal after deal: a deal writes ~16 rows where a fixed window of PAY_SLOTS
        # per deal would spread them over ~6 cache lines (measured: 25% faster random play than per-deal windows)
        k = b * BLOCK * n_deals * PAY_SLOTS
        for i in range(b * BLOCK, min(n_matches, (b + 1) * BLOCK)):
            match = first_match + i
            h_match = extend(h_seed, match)
            for s in range(MAX_SEATS):
                h_pmatch[s] = extend(h_pseed[s], match)
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
                pool = play_deal(rules, n_seats, sit_out, seats, h_match, h_pmatch, d, pool, double_ante, deal, ws,
                                 dealing)
                err[r] = row[COL_ERROR]
                drawn += row[COL_SHUFFLES]
                pay_count[r] = payment_rows(row, deal.ledger, scratch, used, q_net, n_seats, pay_seat,
                                                pay_reason, pay_amount, k)
                k += pay_count[r]
                seat_rows(row, q_net, deal.hands[H_DEALT], n_seats, r * n_seats, match_col, i8, i16, i64)
                pool, double_ante, over = next_deal(P, row, pool, score)
                if over or row[COL_ERROR]:
                    played = d + 1
                    break
            n_played[i] = played
            shuffles[i] = drawn


@njit
def trace_match_nb(rules, n_seats, sit_out, seats, seed, policy_seeds, match, n_deals, constraint):
    """Play deals 0..n_deals-1 of one match (fewer if it ends at its target total); return every deal's arrays,
    stacked on a first axis of n_deals, and the number of deals played: (rows, hands, offered, exch, tricks,
    ledger, n_played). ``n_seats``, ``sit_out``: the table, literal constants from :func:`trace_match_four` and
    :func:`trace_match_five` (as in :func:`play_matches_nb`)."""
    P = rules.P
    rows = np.zeros((n_deals, N_COLS), np.int64)
    hands = np.zeros((n_deals, 3, MAX_SEATS), np.uint64)
    offered = np.zeros((n_deals, MAX_SEATS), np.int64)
    exch = np.zeros((n_deals, 4, 3), np.int64)
    tricks = np.zeros((n_deals, MAX_TRICKS, 6), np.int64)
    ledger = np.zeros((n_deals, MAX_LEDGER, 6), np.int64)
    scratch = alloc()
    ws = workspace(searching(seats.family, n_seats))
    dealing = Dealing(constraint[0], constraint[1], np.zeros(MAX_STACK, np.int64), np.zeros(TALON + 1, np.uint64))
    h_match = extend(seed_hash(seed), match)
    h_pmatch = np.empty(MAX_SEATS, np.uint64)
    for s in range(MAX_SEATS):
        h_pmatch[s] = extend(seed_hash(policy_seeds[s]), match)
    score = np.zeros(MAX_SEATS, np.int64)
    pool = 0
    double_ante = 0
    played = n_deals
    for d in range(n_deals):
        rows[d, COL_MATCH] = match
        rows[d, COL_DEAL] = d
        if pool > MAX_POOL:
            rows[d, COL_ERROR] = ERR_POOL
            played = d + 1
            break
        deal = Deal(rows[d], hands[d], offered[d], exch[d], tricks[d], ledger[d], scratch.claims, scratch.cards,
                    scratch.draws, scratch.known, scratch.seat_view)
        pool = play_deal(rules, n_seats, sit_out, seats, h_match, h_pmatch, d, pool, double_ante, deal, ws, dealing)
        pool, double_ante, over = next_deal(P, rows[d], pool, score)
        if over:
            played = d + 1
            break
    return rows, hands, offered, exch, tricks, ledger, played


# The kernels of each table: the table as literal constants (one compiled specialization each, compiled on first use).


@njit
def play_matches_four(rules, seats, seed, policy_seeds, first_match, n_matches, n_deals, constraint, out):
    """:func:`play_matches_nb` at a four-seat table."""
    play_matches_nb(rules, 4, False, seats, seed, policy_seeds, first_match, n_matches, n_deals, constraint, out)


@njit
def play_matches_five(rules, seats, seed, policy_seeds, first_match, n_matches, n_deals, constraint, out):
    """:func:`play_matches_nb` at a five-seat table whose dealer sits out (``modern_five``)."""
    play_matches_nb(rules, MAX_SEATS, True, seats, seed, policy_seeds, first_match, n_matches, n_deals, constraint,
                    out)


@njit
def trace_match_four(rules, seats, seed, policy_seeds, match, n_deals, constraint):
    """:func:`trace_match_nb` at a four-seat table."""
    return trace_match_nb(rules, 4, False, seats, seed, policy_seeds, match, n_deals, constraint)


@njit
def trace_match_five(rules, seats, seed, policy_seeds, match, n_deals, constraint):
    """:func:`trace_match_nb` at a five-seat table whose dealer sits out (``modern_five``)."""
    return trace_match_nb(rules, MAX_SEATS, True, seats, seed, policy_seeds, match, n_deals, constraint)


def match_kernels(n_seats: int):
    """(play_matches, trace_match) kernels of a table of ``n_seats`` (4, or 5 with the dealer sitting out)."""
    return (play_matches_four, trace_match_four) if n_seats == 4 else (play_matches_five, trace_match_five)
