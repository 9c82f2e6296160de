"""One deal's rows of the run table, written by the match kernel straight into the chunk's blocks
(:class:`reversis_sim.columns.Chunk`): the seat rows from the deal's result row, and the payment rows from its
ledger, summed by (seat, reason, direction). Nothing per deal is kept beyond what the tables hold.

Payments go first to slots (:data:`PAY_SLOTS` per deal, the most a deal can have) with each deal's count, since the
matches are played in parallel and a deal's rows are only counted once it is played: each parallel block of matches
writes its deals' rows one after the other from its first deal's slots on, and :func:`compact_payments` then packs
the counted rows in deal order. Slots are never zeroed: only the counted ones are read.
"""

from __future__ import annotations

import numpy as np

from .. import columns
from ..game import QUINOLA_PAID, QUINOLA_RECEIVED, REASONS
from ..kernel.bits import lowest
from ..kernel.compiled import MAX_LEDGER, MAX_SEATS, POOL
from ..kernel.jit import njit, njit_nrt_free_inline
from ..kernel.layout import (
    COL_DEAL,
    COL_DEALER,
    COL_ESP_ELIGIBLE,
    COL_ESP_MADE,
    COL_ESP_SEAT,
    COL_FISH,
    COL_FROM_POOL,
    COL_HEARTS,
    COL_MATCH,
    COL_N_PAYMENTS,
    COL_PARTY_LOSER,
    COL_PARTY_VALUE,
    COL_PARTY_WINNER,
    COL_POINTS,
    COL_POOL_AFTER,
    COL_POOL_BEFORE,
    COL_Q_FATE,
    COL_Q_HOLDER,
    COL_Q_TRICK,
    COL_REV_BREAKER,
    COL_REV_MADE,
    COL_REV_SEAT,
    COL_TO_POOL,
    COL_WON,
    LG_AMOUNT,
    LG_PAYEE,
    LG_PAYER,
    LG_REASON,
)

ONE = np.uint64(1)
PAID, RECEIVED = 0, 1
"""The two directions of a party's sums by reason (the first axis of :func:`payment_rows`' ``scratch``)."""
assert len(REASONS) <= 64  # a seat's reasons are one bit each of a uint64

PAY_SLOTS = 2 * MAX_LEDGER + 1
"""Payment slots a deal needs, at most: each ledger row names at most two seats (its payer and payee), and
:func:`payment_rows` may write one slot past its last row."""

# the blocks' rows (reversis_sim.columns.I8, I16, I64), frozen into the kernel as constants
_I8, _I16, _I64 = ({name: k for k, name in enumerate(block)} for block in (columns.I8, columns.I16, columns.I64))
I8_SEAT, I8_DEALER, I8_POSITION, I8_WON, I8_HEARTS = (_I8[n] for n in ("seat", "dealer", "position", "tricks_won",
                                                                        "hearts_at_lead"))
I8_Q_HOLDER, I8_Q_FATE, I8_Q_TRICK = _I8["quinola_holder"], _I8["quinola_fate"], _I8["quinola_trick"]
I8_PARTY_WINNER, I8_PARTY_LOSER = _I8["party_winner"], _I8["party_loser"]
I8_REV_SEAT, I8_REV_MADE, I8_REV_BREAKER = _I8["reversis_seat"], _I8["reversis_made"], _I8["reversis_breaker"]
I8_ESP_ELIGIBLE, I8_ESP_SEAT, I8_ESP_MADE = (_I8[n] for n in ("espagnolette_eligible", "espagnolette_seat",
                                                              "espagnolette_made"))
I16_DEAL, I16_POINTS, I16_PARTY_VALUE = _I16["deal"], _I16["card_points"], _I16["party_value"]
I64_FISH, I64_TO_POOL, I64_FROM_POOL, I64_Q_NET, I64_POOL_BEFORE, I64_POOL_AFTER, I64_HAND = (
    _I64[n] for n in ("fish", "to_pool", "from_pool", "quinola_net", "pool_before", "pool_after", "hand"))

QUINOLA_PAID_BITS = np.uint64(sum(1 << REASONS.index(r) for r in QUINOLA_PAID))
"""The reasons of a payment that counts against its payer's ``quinola_net`` (:data:`reversis_sim.game.QUINOLA_PAID`),
one bit each."""
QUINOLA_RECEIVED_BITS = np.uint64(sum(1 << REASONS.index(r) for r in QUINOLA_RECEIVED))
"""The reasons of a payment that counts for its payee (:data:`reversis_sim.game.QUINOLA_RECEIVED`)."""


@njit_nrt_free_inline
def payment_rows(row, ledger, scratch, used, q_net, n_seats, seat, reason, amount, first) -> int:
    """Sum the deal's ledger by (party, reason, direction) and write its non-zero seat rows at slots ``first``,
    ``first + 1``... of ``seat``, ``reason``, ``amount`` (paid: negative); return how many. Also fills ``q_net``
    (``int64 (MAX_SEATS,)``) with each seat's ``quinola_net``.

    Rows come in the order of :func:`reversis_sim.columns.payment_rows`: by seat, then reason code, what was paid
    before what was received. ``scratch`` (``int64 (2, POOL + 1, n_reasons)``) and ``used`` (``uint64 (POOL + 1,)``,
    the reasons each party paid or received with, one bit each) are zero on entry and on return; the pool sums
    into its own row of both, never read, so that the loop over the ledger has no branch. A row is written whether
    or not its amount is zero and kept by counting it, so the slot after the last row may be overwritten
    (:data:`PAY_SLOTS` leaves room for it)."""
    for i in range(row[COL_N_PAYMENTS]):
        a = ledger[i, LG_AMOUNT]
        r = ledger[i, LG_REASON]
        payer = ledger[i, LG_PAYER]
        payee = ledger[i, LG_PAYEE]
        scratch[PAID, payer, r] += a
        scratch[RECEIVED, payee, r] += a
        used[payer] |= ONE << np.uint64(r)
        used[payee] |= ONE << np.uint64(r)
    k = first
    for s in range(MAX_SEATS):
        q_net[s] = 0
    for s in range(n_seats):
        m = used[s]
        net = 0
        while m:
            r = lowest(m)
            m &= m - ONE
            paid = scratch[PAID, s, r]
            got = scratch[RECEIVED, s, r]
            scratch[PAID, s, r] = 0
            scratch[RECEIVED, s, r] = 0
            net += got * np.int64((QUINOLA_RECEIVED_BITS >> np.uint64(r)) & ONE)
            net -= paid * np.int64((QUINOLA_PAID_BITS >> np.uint64(r)) & ONE)
            seat[k] = s
            reason[k] = r
            amount[k] = -paid
            k += paid != 0
            seat[k] = s
            reason[k] = r
            amount[k] = got
            k += got != 0
        used[s] = 0
        q_net[s] = net
    m = used[POOL]
    while m:
        r = lowest(m)
        m &= m - ONE
        scratch[PAID, POOL, r] = 0
        scratch[RECEIVED, POOL, r] = 0
    used[POOL] = 0
    return k - first


@njit_nrt_free_inline
def seat_rows(row, q_net, dealt, n_seats, base, match, i8, i16, i64):
    """Write the deal's ``n_seats`` seat rows, rows ``base .. base + n_seats - 1`` of the blocks, from its result
    row, its ``q_net`` and the hands as dealt (``dealt``, uint64 masks)."""
    dealer = row[COL_DEALER]
    for s in range(n_seats):
        j = base + s
        match[j] = row[COL_MATCH]
        i8[I8_SEAT, j] = s
        i8[I8_DEALER, j] = dealer
        i8[I8_POSITION, j] = (s - dealer + n_seats) % n_seats
        i8[I8_WON, j] = row[COL_WON + s]
        i8[I8_HEARTS, j] = row[COL_HEARTS + s]
        i8[I8_Q_HOLDER, j] = row[COL_Q_HOLDER]
        i8[I8_Q_FATE, j] = row[COL_Q_FATE]
        i8[I8_Q_TRICK, j] = row[COL_Q_TRICK]
        i8[I8_PARTY_WINNER, j] = row[COL_PARTY_WINNER]
        i8[I8_PARTY_LOSER, j] = row[COL_PARTY_LOSER]
        i8[I8_REV_SEAT, j] = row[COL_REV_SEAT]
        i8[I8_REV_MADE, j] = row[COL_REV_MADE]
        i8[I8_REV_BREAKER, j] = row[COL_REV_BREAKER]
        i8[I8_ESP_ELIGIBLE, j] = row[COL_ESP_ELIGIBLE]
        i8[I8_ESP_SEAT, j] = row[COL_ESP_SEAT]
        i8[I8_ESP_MADE, j] = row[COL_ESP_MADE]
        i16[I16_DEAL, j] = row[COL_DEAL]
        i16[I16_POINTS, j] = row[COL_POINTS + s]
        i16[I16_PARTY_VALUE, j] = row[COL_PARTY_VALUE]
        i64[I64_FISH, j] = row[COL_FISH + s]
        i64[I64_TO_POOL, j] = row[COL_TO_POOL + s]
        i64[I64_FROM_POOL, j] = row[COL_FROM_POOL + s]
        i64[I64_Q_NET, j] = q_net[s]
        i64[I64_POOL_BEFORE, j] = row[COL_POOL_BEFORE]
        i64[I64_POOL_AFTER, j] = row[COL_POOL_AFTER]
        i64[I64_HAND, j] = np.int64(dealt[s])


@njit
def compact_payments(count, block_deals, slots, n_seats, match, deal, out):
    """Pack the counted payment slots of every deal (``slots``: the slots' seat, reason and amount) into the ``out``
    arrays (match, deal, seat, reason, amount), in deal order: the deals come in blocks of ``block_deals`` (the match
    kernel's parallel blocks), whose rows start at slot ``PAY_SLOTS`` times the block's first deal, ``count[d]``
    rows for deal ``d`` after those of the block's earlier deals. The deal's ``match`` and ``deal`` come from its
    first seat row."""
    seat, reason, amount = slots
    out_match, out_deal, out_seat, out_reason, out_amount = out
    k = 0
    src = 0
    for d in range(len(count)):
        if d % block_deals == 0:
            src = d * PAY_SLOTS
        for i in range(src, src + count[d]):
            out_match[k] = match[d * n_seats]
            out_deal[k] = deal[d * n_seats]
            out_seat[k] = seat[i]
            out_reason[k] = reason[i]
            out_amount[k] = amount[i]
            k += 1
        src += count[d]
