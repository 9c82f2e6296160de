"""One part of a run reduced to the sums of the pool-path estimator (:mod:`.pool_path`), in numpy.

Every (deal, seat) row's pool flow other than its ante is split off as ``c · P`` (``P`` the pool at the deal's
Quinola event: the pool carried in plus the deal's antes, ``c`` a small integer) and the rest of its value kept as
the light part; the split is checked exactly on every row (``c`` an integer, the pool after the deal 0, 1 or 2 times
``P``, a match starting from an empty pool, the antes of a new and of a carried pool the same in every deal). A part
that breaks the law (a preset whose payments scale with the pool, ``serbian``'s doubled antes) yields a
:class:`PathPart` that says why, and the run's tables keep the plain means.

The groups are those of the run's mean tables: seats, positions, policies, seats with the pool share, the J♥'s
holder by fate and overall (its ``quinola_net``), the holder's fish, and with the payments by key the reasons that
move the pool (``pool_double``, ``pool_won``, and ``return``, whose pool part is a rolled-back doubling or win or a
failed espagnolette's repayment).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from ..game import FATES, REASONS
from .pool_path import N_OUTCOMES, PathSums
from .scan_part import Layout, read_columns

__all__ = ["POOL_REASONS", "PathPart", "group_part", "path_blocks", "path_part", "path_terms", "seat_terms",
           "split_pool"]

POOL_REASONS = ("pool_double", "pool_won", "return")
"""The payment reasons with a part proportional to the pool."""
SEAT_COLUMNS = ("match", "deal", "dealer", "seat", "position", "fish", "to_pool", "from_pool", "pool_before",
                "pool_after", "quinola_holder", "quinola_fate", "quinola_net")
PAY_COLUMNS = ("match", "deal", "seat", "reason", "amount")
_R = {name: REASONS.index(name) for name in ("ante", *POOL_REASONS)}
MAX_MATCH_DEALS = 64
"""The longest match the estimator takes: its sums hold, per group, the outer product of a vector with a term per
deal of a match (27 numbers for 12 deals; a match of 10,000 deals would need 10^8 per group)."""


def path_blocks(lay: Layout) -> dict[str, int]:
    """The groups of the pool-path sums, block by block, and their widths (in this order in the sums)."""
    S, P = lay.n_seats, lay.n_policies
    widths = {"seat": S, "position": S, "policy": P, "seat_zero_sum": S, "cost_fate": len(FATES), "cost_all": 1,
              "holder_fish": 1}
    if lay.reasons_by is not None:
        widths["reasons"] = (P if lay.reasons_by == "policy" else S) * len(POOL_REASONS)
    return widths


class PathPart:
    """The pool-path sums of some parts, or why they cannot be had (``broken``: a sentence, or None).

    ``dealers`` (K,): the dealer of each deal of a match; ``antes``: the distinct (ante of a new pool, ante of a
    carried pool) seen, as a set of pairs of which each may be None where no such deal was seen."""

    def __init__(self, sums: PathSums | None, dealers: np.ndarray | None, antes: set, broken: str | None):
        self.sums, self.dealers, self.antes, self.broken = sums, dealers, antes, broken

    def add(self, other: PathPart) -> PathPart:
        if self.broken or other.broken:
            return self if self.broken else other
        if not np.array_equal(self.dealers, other.dealers):
            return PathPart(None, None, set(), "its matches are not dealt in the same order")
        news = {a for a, _ in self.antes | other.antes if a is not None}
        carries = {c for _, c in self.antes | other.antes if c is not None}
        if len(news) > 1 or len(carries) > 1:
            return PathPart(None, None, set(), "its antes are not the same in every deal")
        return PathPart(self.sums.add(other.sums), self.dealers, {(min(news, default=None),
                                                                   min(carries, default=None))}, None)

    def ante(self) -> tuple[float, float]:
        """(ante of a new pool, ante of a carried pool); one never seen is taken as the other (it then never
        matters to the estimate)."""
        (new, carry), = self.antes
        new = carry if new is None else new
        carry = new if carry is None else carry
        return float(new), float(carry)


def _broken(why: str) -> PathPart:
    return PathPart(None, None, set(), why)


def split_pool(t: dict, p: dict, S: int) -> dict | str:
    """The pool's part of every row of some whole matches, or a sentence saying why it cannot be split off.

    ``t``: the seat table's columns (``SEAT_COLUMNS``, one row per (deal, seat) in (match, deal, seat) order),
    ``p``: the payments table's (``PAY_COLUMNS``, ``reason`` as codes into ``REASONS``). Returns ``U``, ``K`` (the
    matches and their deals), ``dealers`` (K,), ``antes`` (a set of one (new pool, carried pool) pair), ``pot``
    (D,) the pool at each deal's Quinola event, ``grow`` (D,) the pool after it in ``pot``s (0, 1, 2), ``c_net``
    (D, S) each seat's pool flow other than its ante in ``pot``s, ``c_of`` those of ``pool_double``, ``pool_won``
    and ``return`` (D, S), and ``per_row`` (a reason code -> its amounts (D, S))."""
    n = t["match"].size
    D = n // S
    match_d, deal_d, dealer_d = t["match"][::S].astype(np.int64), t["deal"][::S].astype(np.intp), t["dealer"][::S]
    starts = np.flatnonzero(np.r_[True, match_d[1:] != match_d[:-1]])
    U = starts.size
    K = D // U if U else 0
    if U == 0 or D != U * K or not np.array_equal(deal_d, np.tile(np.arange(K), U)):
        return "its matches are not all of the same length"
    if K > MAX_MATCH_DEALS:
        return f"its matches are longer than {MAX_MATCH_DEALS} deals (the estimator keeps a term per deal of a match)"
    dealers = dealer_d[:K].astype(np.intp)
    if not np.array_equal(dealer_d.reshape(U, K), np.broadcast_to(dealers, (U, K))):
        return "its matches are not dealt in the same order"
    row = (p["match"].astype(np.int64) - match_d[0]) * K + p["deal"].astype(np.int64)
    if row.size and (row.min() < 0 or row.max() >= D):
        return "its payments name deals its seat table lacks"
    cell = row * S + p["seat"].astype(np.int64)
    amount, reason = p["amount"].astype(np.int64), p["reason"]

    def per_row(code: int) -> np.ndarray:
        pick = reason == code
        return np.bincount(cell[pick], weights=amount[pick], minlength=D * S).round().astype(np.int64).reshape(D, S)

    ante = -per_row(_R["ante"])
    pool_before, pool_after = t["pool_before"][::S].astype(np.int64), t["pool_after"][::S].astype(np.int64)
    pot = pool_before + ante.sum(axis=1)  # P_k: the pool at the deal's Quinola event
    if np.any(pot <= 0) or np.any(pool_before[starts] != 0):
        return "a match does not start from an empty pool, or a deal has no pool"
    flow = (t["from_pool"] - t["to_pool"]).astype(np.int64).reshape(D, S) + ante
    c_net, rest = np.divmod(flow, pot[:, None])
    grow = 1 - c_net.sum(axis=1)
    if np.any(rest) or np.any((grow < 0) | (grow >= N_OUTCOMES)) or not np.array_equal(pool_after, grow * pot):
        return "a deal's pool flows are not multiples of its pool"
    c_of = {}
    for name in ("pool_double", "pool_won"):
        c_of[name], rest = np.divmod(per_row(_R[name]), pot[:, None])
        if np.any(rest):
            return f"a deal's {name} is not a multiple of its pool"
    c_of["return"] = c_net - c_of["pool_double"] - c_of["pool_won"]
    new, carried = ante.sum(axis=1)[pool_before == 0], ante.sum(axis=1)[pool_before > 0]
    if (new.size and np.ptp(new)) or (carried.size and np.ptp(carried)):
        return "its antes are not the same in every deal"
    antes = {(int(new[0]) if new.size else None, int(carried[0]) if carried.size else None)}
    return {"U": U, "K": K, "dealers": dealers, "antes": antes, "pot": pot, "grow": grow, "c_net": c_net,
            "c_of": c_of, "per_row": per_row, "dealer_d": dealer_d.astype(np.intp)}


def outcome_counts(split: dict, S: int) -> np.ndarray:
    """(U, S * 3): per match, the deals each seat dealt that left 0, 1 or 2 times their pool."""
    U, K = split["U"], split["K"]
    outcomes = np.zeros((U, S, N_OUTCOMES))
    np.add.at(outcomes, (np.repeat(np.arange(U), K), split["dealer_d"], split["grow"]), 1.0)
    return outcomes.reshape(U, -1)


def seat_terms(t: dict, p: dict, S: int) -> tuple | str:
    """The pool-path terms of every seat's fish over some whole matches (the tables of a comparison): ``light``
    (U, S), ``events`` (U, S, K), ``outcomes`` (U, S * 3), ``dealers`` (K,) and ``antes``; or a sentence saying
    why the pool cannot be split off (:func:`split_pool`)."""
    split = split_pool(t, p, S)
    if isinstance(split, str):
        return split
    U, K = split["U"], split["K"]
    cn = split["c_net"].astype(np.float64)
    light = t["fish"].astype(np.float64).reshape(-1, S) - cn * split["pot"][:, None]
    return (light.reshape(U, K, S).sum(axis=1), cn.reshape(U, K, S).transpose(0, 2, 1), outcome_counts(split, S),
            split["dealers"], split["antes"])


def path_part(seat_path: Path, pay_path: Path, lay: Layout) -> PathPart:
    """The pool-path sums of one part (its seat table and its payments table)."""
    terms = path_terms(seat_path, pay_path, lay)
    if isinstance(terms, str):
        return _broken(terms)
    blocks, outcomes = terms["blocks"], terms["outcomes"]
    light = np.concatenate([b[0] for b in blocks.values()], axis=1)
    sizes = np.concatenate([np.broadcast_to(b[1], b[0].shape) for b in blocks.values()], axis=1)
    events = np.concatenate([b[2] for b in blocks.values()], axis=1)
    held = np.concatenate([b[3] if len(b) > 3 else np.broadcast_to(b[1], b[0].shape) > 0 for b in blocks.values()],
                          axis=1)
    return PathPart(PathSums.of(sizes, light, events, outcomes, held), terms["dealers"], terms["antes"], None)


def path_terms(seat_path: Path, pay_path: Path, lay: Layout) -> dict | str:
    """The per-match terms of the pool-path sums of one part, or a sentence saying why the pool cannot be split off
    (:func:`split_pool`): ``blocks`` (a group block of :func:`path_blocks` -> (light totals (U, G), sizes (U, G)
    or broadcastable, events (U, G, K)[, held (U, G): whether a match holds the row, where that is not having a
    row of it])), ``outcomes`` (U, S * 3), ``dealers`` (K,) and ``antes``."""
    S = lay.n_seats
    t = read_columns(seat_path, SEAT_COLUMNS)
    split = split_pool(t, read_columns(pay_path, PAY_COLUMNS), S)
    if isinstance(split, str):
        return split
    U, K, D = split["U"], split["K"], t["match"].size // S
    pot, c_net, c_of, per_row = split["pot"], split["c_net"], split["c_of"], split["per_row"]
    pool_before, pool_after = t["pool_before"][::S].astype(np.int64), t["pool_after"][::S].astype(np.int64)
    c_q = c_of["pool_double"] + c_of["pool_won"]
    dealers, antes = split["dealers"], split["antes"]

    # the blocks: (light totals (U, G), sizes (U, G), events (U, G, K))
    potf = pot.astype(np.float64)[:, None]
    fish = t["fish"].astype(np.float64).reshape(D, S)
    cn = c_net.astype(np.float64)

    def by_match(values: np.ndarray) -> np.ndarray:  # (D, G) -> (U, G)
        return values.reshape(U, K, -1).sum(axis=1)

    def per_deal(c: np.ndarray) -> np.ndarray:  # (D, G) -> (U, G, K)
        return c.reshape(U, K, -1).transpose(0, 2, 1)

    full = np.full((U, S), float(K))
    blocks = {"seat": (by_match(fish - cn * potf), full, per_deal(cn))}
    pos = t["position"].reshape(D, S).astype(np.intp)
    order = np.argsort(pos, axis=1)  # the seat at each position
    fish_p, cn_p = np.take_along_axis(fish, order, 1), np.take_along_axis(cn, order, 1)
    blocks["position"] = (by_match(fish_p - cn_p * potf), full, per_deal(cn_p))
    policy_of = np.zeros((S, lay.n_policies))
    policy_of[np.arange(S), lay.seat_policy] = 1.0
    light_s, _, ev_s = blocks["seat"]
    blocks["policy"] = (light_s @ policy_of, np.float64(K) * policy_of.sum(axis=0)[None, :].repeat(U, 0),
                        np.einsum("usk,sp->upk", ev_s, policy_of))
    zs = fish + (pool_after - pool_before).astype(np.float64)[:, None] / S
    c_zs = cn - cn.sum(axis=1, keepdims=True) / S
    blocks["seat_zero_sum"] = (by_match(zs - c_zs * potf), full, per_deal(c_zs))

    holder = t["quinola_holder"][::S].astype(np.intp)
    fate = t["quinola_fate"][::S].astype(np.intp)
    F = len(FATES)
    held = holder >= 0
    h = np.where(held, holder, 0)
    take = np.arange(D) * S + h
    net = np.where(held, t["quinola_net"].astype(np.float64)[take], 0.0)
    cq = np.where(held, c_q.reshape(-1)[take], 0).astype(np.float64)
    hold_fish = np.where(held, fish.reshape(-1)[take], 0.0)
    hold_cn = np.where(held, cn.reshape(-1)[take], 0.0)
    onehot = (fate[:, None] == np.arange(F)[None, :]) & held[:, None]  # (D, F)
    light_q = (net - cq * pot)[:, None] * onehot
    blocks["cost_fate"] = (by_match(light_q), by_match(onehot.astype(np.float64)), per_deal(cq[:, None] * onehot))
    heldf = held.astype(np.float64)[:, None]
    blocks["cost_all"] = (by_match((net - cq * pot)[:, None]), by_match(heldf), per_deal(cq[:, None]))
    blocks["holder_fish"] = (by_match((hold_fish - hold_cn * pot)[:, None]), by_match(heldf),
                             per_deal(hold_cn[:, None]))

    if lay.reasons_by is not None:
        keyed = policy_of if lay.reasons_by == "policy" else np.eye(S)
        lights, events = [], []
        for name in POOL_REASONS:
            c = c_of[name].astype(np.float64)
            value = per_row(_R[name]).astype(np.float64)
            lights.append(by_match(value - c * potf) @ keyed)
            events.append(np.einsum("usk,sp->upk", per_deal(c), keyed))
        # key-major, then reason, as the plain reason table's groups
        light_r = np.stack(lights, axis=2).reshape(U, -1)
        ev_r = np.stack(events, axis=2).reshape(U, -1, K)
        sizes_r = np.repeat(np.float64(K) * keyed.sum(axis=0)[None, :].repeat(U, 0), len(POOL_REASONS), axis=1)
        # a match holds a reason's row where it holds a payment of it (every match has a row of every reason)
        blocks["reasons"] = (light_r, sizes_r, ev_r, (light_r != 0) | (ev_r != 0).any(axis=2))

    assert list(blocks) == list(path_blocks(lay))
    return {"blocks": blocks, "outcomes": outcome_counts(split, S), "dealers": dealers, "antes": antes}


def group_part(seat_path: Path, pay_path: Path, n_seats: int, group_of: np.ndarray, n_groups: int,
               value: str = "fish") -> PathPart:
    """The pool-path sums of one part for rows grouped by ``group_of`` (int (rows,), a group in ``0 ..
    n_groups - 1``, or -1 for a row in no group: the tables by the hand dealt), of ``value``: ``fish`` (its pool
    part the seat's net pool flow) or ``quinola_net`` (its pool part the pool won and the doubling paid)."""
    S = n_seats
    t = read_columns(seat_path, SEAT_COLUMNS)
    split = split_pool(t, read_columns(pay_path, PAY_COLUMNS), S)
    if isinstance(split, str):
        return _broken(split)
    U, K = split["U"], split["K"]
    c_of = split["c_of"]
    c = split["c_net"] if value == "fish" else c_of["pool_double"] + c_of["pool_won"]
    c = c.reshape(-1).astype(np.float64)
    light = t[value].astype(np.float64) - c * np.repeat(split["pot"], S)
    group_of = np.asarray(group_of, np.int64)
    keep = group_of >= 0
    row = np.flatnonzero(keep)
    unit, k = row // S // K, (row // S) % K
    g = group_of[keep]
    sums = np.bincount(unit * n_groups + g, weights=light[keep], minlength=U * n_groups).reshape(U, n_groups)
    sizes = np.bincount(unit * n_groups + g, minlength=U * n_groups).reshape(U, n_groups).astype(np.float64)
    events = np.bincount((unit * n_groups + g) * K + k, weights=c[keep], minlength=U * n_groups * K
                         ).reshape(U, n_groups, K)
    return PathPart(PathSums.of(sizes, sums, events, outcome_counts(split, S)), split["dealers"], split["antes"],
                    None)
