"""The kernel of :mod:`.scan`: one part's sums in one pass over its rows (numba, the GIL released).

Measured on a 100M-deal ``parlett`` run (98,304 rows a part): the same sums as some thirty numpy passes took about
8 ms of CPU a part, about as much as decoding the columns from Parquet; this loop takes well under 1 ms.
"""

from __future__ import annotations

import numpy as np

from ..jit import njit

OK, BAD_SEAT, BAD_MATCH, BAD_POSITION, BAD_VALUE = range(5)
"""What :func:`part_sums_nb` returns: the part is sound, or the first thing it found wrong."""


@njit
def part_sums_nb(match, seat, position, fish, pool_before, pool_after, holder, fate, net, hearts, rev_seat, rev_made,
                 esp_eligible, esp_seat, esp_made, starts, n_seats, zero_sum, quinola, reversis,
                 by_seat, by_position, pool_change, pool_left, cost, cost_n, holder_fish, others, others_n,
                 others_pays, fate_deals, holders, rev):
    """Add up one part, rows in (match, deal, seat) order, matches beginning at the deals ``starts``.

    Per match ``u`` (arrays of shape (matches, ...), int64): ``by_seat[u, s]`` and ``by_position[u, p]`` the fish;
    with ``zero_sum``, ``pool_change[u]`` the pool's change and ``pool_left[0]`` (float) the sum over matches of
    the pool after their last deal; with ``quinola``, ``cost[u, f]`` / ``cost_n[u, f]`` the holder's
    ``quinola_net`` and deals by fate, ``holder_fish[u]``, ``others[u, s]`` / ``others_n[u, s]`` what seat ``s``
    paid for another's J♥ and in how many deals, and the counts ``others_pays[s]`` (deals in which it paid),
    ``fate_deals[f]``, ``holders[hearts, position, fate]``; with ``reversis``, ``rev[1:, s]``: commitments, made
    reversis, eligible hands, declarations, made espagnolettes. A per-deal column is read on seat 0's row, a
    seat's own value (the holder's hearts, a made flag) on that seat's row. Returns :data:`OK` or the first fault.
    """
    S = n_seats
    n_deals = fish.size // S
    n_matches = starts.size
    n_fates = fate_deals.size
    n_hearts = holders.shape[0]
    for u in range(n_matches):
        d_end = starts[u + 1] if u + 1 < n_matches else n_deals
        m = match[starts[u] * S]
        for d in range(starts[u], d_end):
            base = d * S
            seen = 0
            for s in range(S):
                r = base + s
                if seat[r] != s:
                    return BAD_SEAT
                if match[r] != m:
                    return BAD_MATCH
                p = position[r]
                if p < 0 or p >= S or (seen >> p) & 1:
                    return BAD_POSITION
                seen |= 1 << p
                by_seat[u, s] += fish[r]
                by_position[u, p] += fish[r]
            if zero_sum:
                pool_change[u] += pool_after[base] - pool_before[base]
            if quinola:
                h = holder[base]
                f = fate[base]
                if h < -1 or h >= S or f < 0 or f >= n_fates:
                    return BAD_VALUE
                fate_deals[f] += 1
                if h >= 0:
                    hr = base + h
                    k = hearts[hr]
                    if k < 0 or k >= n_hearts:
                        return BAD_VALUE
                    cost[u, f] += net[hr]
                    cost_n[u, f] += 1
                    holder_fish[u] += fish[hr]
                    holders[k, position[hr], f] += 1
                    for s in range(S):
                        if s != h:
                            others_n[u, s] += 1
                            paid = -net[base + s]
                            if paid > 0:
                                others[u, s] += paid
                                others_pays[s] += 1
            if reversis:
                c, e, x = rev_seat[base], esp_eligible[base], esp_seat[base]
                if c < -1 or c >= S or e < -1 or e >= S or x < -1 or x >= S:
                    return BAD_VALUE
                if c >= 0:
                    rev[1, c] += 1
                    if rev_made[base + c]:
                        rev[2, c] += 1
                if e >= 0:
                    rev[3, e] += 1
                if x >= 0:
                    rev[4, x] += 1
                    if esp_made[base + x]:
                        rev[5, x] += 1
        if zero_sum:
            pool_left[0] += float(pool_after[(d_end - 1) * S])
    return OK


@njit
def payment_sums_nb(match, seat, reason, amount, first_match, direction, totals, rows):
    """Add up a part's payments: ``totals[u, s, g]`` (float64, shape (matches, seats, groups)) the amounts of seat
    ``s`` in match ``first_match + u`` with group ``g`` (the reason, or ``2 * reason + received`` with
    ``direction``), ``rows[g]`` the rows of each group. Returns :data:`OK`, or :data:`BAD_MATCH` /
    :data:`BAD_VALUE` for a row outside the part's matches, seats or groups."""
    n_matches, n_seats, n_groups = totals.shape
    for i in range(match.size):
        u = np.int64(match[i]) - first_match
        s = seat[i]
        g = np.int64(reason[i])
        if direction:
            g = 2 * g + (1 if amount[i] > 0 else 0)
        if u < 0 or u >= n_matches:
            return BAD_MATCH
        if s < 0 or s >= n_seats or g < 0 or g >= n_groups:
            return BAD_VALUE
        totals[u, s, g] += amount[i]
        rows[g] += 1
    return OK
