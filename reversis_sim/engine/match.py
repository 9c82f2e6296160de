"""Match kernels: the deals of a match in order, the dealer rotating and the pool carried over (R4, R10).

- :func:`play_matches_nb` plays many matches in parallel (``prange`` over blocks of matches; each block allocates
  its own scratch) and writes one result row per deal. A match is a pure function of (rules, seats, seed, match),
  so the rows are the same whatever the thread count or the split of the matches into calls.
- :func:`trace_match_nb` plays one match and keeps every array of every deal, for :mod:`.trace`.
"""

from __future__ import annotations

import numpy as np
from numba import prange

from ..jit import njit, njit_nrt_free, njit_parallel
from .compiled import MAX_LEDGER, MAX_TRICKS
from .deal import dealer_of, play_deal
from .keys import extend, seed_hash
from .layout import COL_DEAL, COL_MATCH, COL_N_PAYMENTS, N_COLS, alloc

BLOCK = 16  # matches per parallel work item


@njit_parallel
def play_matches_nb(P, tables, deck, family, pparams, seed, policy_seeds, first_match, n_matches, n_deals, out, paid,
                    received):
    """Fill ``out`` (``int64 (N_COLS, n_matches * n_deals)``, column-major so that each column is contiguous for
    the wrapper) and ``paid``, ``received`` (``int64 (n_matches * n_deals, 5, n_reasons)``, zero on entry): row
    ``r = i * n_deals + d`` (``out[:, r]``) is deal ``d`` of match ``first_match + i``. ``seed`` is the run seed
    and ``policy_seeds`` (``uint64 (4,)``) each seat's policy seed, modulo 2**64."""
    h_seed = seed_hash(seed)
    h_pseed = np.empty(4, np.uint64)
    for s in range(4):
        h_pseed[s] = seed_hash(policy_seeds[s])
    n_blocks = (n_matches + BLOCK - 1) // BLOCK
    for b in prange(n_blocks):
        row, hands, offered, exch, tricks, ledger, claims, cards, draws = alloc()
        scratch = np.zeros((2, paid.shape[1], paid.shape[2]), np.int64)
        h_pmatch = np.empty(4, np.uint64)
        for i in range(b * BLOCK, min(n_matches, (b + 1) * BLOCK)):
            match = first_match + i
            h_match = extend(h_seed, match)
            for s in range(4):
                h_pmatch[s] = extend(h_pseed[s], match)
            pool = 0  # R9: a match starts with an empty pool
            for d in range(n_deals):
                r = i * n_deals + d
                row[COL_MATCH] = match
                row[COL_DEAL] = d
                pool = play_deal(P, tables, deck, family, pparams, h_match, h_pmatch, d, dealer_of(P, d), pool,
                                 row, hands, offered, exch, tricks, ledger, claims, cards, draws)
                for c in range(N_COLS):
                    out[c, r] = row[c]
                money(row, ledger, scratch, paid[r], received[r])


@njit
def trace_match_nb(P, tables, deck, family, pparams, seed, policy_seeds, match, n_deals):
    """Play deals 0..n_deals-1 of one match; return every deal's arrays, stacked on a first axis of n_deals:
    (rows, hands, offered, exch, tricks, ledger)."""
    rows = np.zeros((n_deals, N_COLS), np.int64)
    hands = np.zeros((n_deals, 3, 4), np.uint64)
    offered = np.zeros((n_deals, 4), np.int64)
    exch = np.zeros((n_deals, 4, 3), np.int64)
    tricks = np.zeros((n_deals, MAX_TRICKS, 6), np.int64)
    ledger = np.zeros((n_deals, MAX_LEDGER, 6), np.int64)
    _, _, _, _, _, _, claims, cards, draws = alloc()
    h_match = extend(seed_hash(seed), match)
    h_pmatch = np.empty(4, np.uint64)
    for s in range(4):
        h_pmatch[s] = extend(seed_hash(policy_seeds[s]), match)
    pool = 0
    for d in range(n_deals):
        rows[d, COL_MATCH] = match
        rows[d, COL_DEAL] = d
        pool = play_deal(P, tables, deck, family, pparams, h_match, h_pmatch, d, dealer_of(P, d), pool, rows[d],
                         hands[d],
                         offered[d], exch[d], tricks[d], ledger[d], claims, cards, draws)
    return rows, hands, offered, exch, tricks, ledger


@njit_nrt_free
def money(row, ledger, scratch, paid, received):
    """Chips moved in the deal by party and reason, ``paid[party, reason]`` and ``received[party, reason]``
    (``int64 (5, n_reasons)``, zero on entry; party 4 = the pool), from the ledger.

    Summed in the small ``scratch`` (``int64 (2, 5, n_reasons)``, zero on entry and on return), then each non-zero
    sum is stored once: the output rows are cold memory (2 kB a deal), where a read-modify-write per payment, or a
    copy of the whole block, costs several times more."""
    n = row[COL_N_PAYMENTS]
    for i in range(n):
        amount = ledger[i, 3]
        reason = ledger[i, 4]
        scratch[0, ledger[i, 1], reason] += amount
        scratch[1, ledger[i, 2], reason] += amount
    for i in range(n):
        reason = ledger[i, 4]
        payer = ledger[i, 1]
        payee = ledger[i, 2]
        if scratch[0, payer, reason]:
            paid[payer, reason] = scratch[0, payer, reason]
            scratch[0, payer, reason] = 0
        if scratch[1, payee, reason]:
            received[payee, reason] = scratch[1, payee, reason]
            scratch[1, payee, reason] = 0
