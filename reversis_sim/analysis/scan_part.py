"""One part of a run reduced to sums, in numpy (:mod:`.scan`): its columns read, its per-match totals, their moments.

A part file holds whole matches, rows in (match, deal, seat) order (``docs/schema.md``), so a column is a (deals,
seats) array; a per-deal value (the J♥'s holder, the reversis seat, the pool) is read on seat 0's row (``[::S]``),
a seat's own value on its row (``deal * S + seat``). Per-match totals are ``np.add.reduceat`` at the match
boundaries (matches may differ in length: simple scoring), or ``np.bincount`` on (match, group) for the groups of
some rows only (the J♥'s holder by fate). The layout is checked on the way: a part that breaks it is refused.

Measured per 98,304-row part (CPU, 2 shared cores): reading the 13 headline columns ~4.2 ms, these sums ~6-8 ms. A
numba loop did the same sums in ~1.5 ms (the three headline tables over 100M deals in 34.6 s instead of ~45 s), but
jitted code belongs in the kernel cache's watched files (``jit.py``, ``tests/test_architecture.py``), not here.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import polars as pl
import pyarrow as pa
import pyarrow.parquet as pq

from ..game import FATES, REASONS
from ..record import RunError
from .tables import MOMENTS

__all__ = ["Layout", "Moments", "add_sums", "part_sums", "read_columns"]

FISH = ("match", "seat", "position", "fish")
POOL = ("pool_before", "pool_after")
QUINOLA = ("quinola_holder", "quinola_fate", "quinola_net", "hearts_at_lead")
REVERSIS = ("reversis_seat", "reversis_made", "espagnolette_eligible", "espagnolette_seat", "espagnolette_made")
PAYMENTS = ("match", "seat", "reason", "amount")
N_FATES, N_REASONS = len(FATES), len(REASONS)


class Moments:
    """Per group, the sums over units (matches) of :func:`.stats.ratio_mean_ci_moments`: ``n_units``, ``n_obs``,
    ``sum_t``, and ``sum_uu``, ``sum_un``, ``sum_nn`` of ``u = T - shift * n`` about a ``shift`` per group (the
    group's mean in the first part it appears in, as :class:`.tables.UnitMoments` takes its first batch's). Arrays
    of shape (groups,)."""

    def __init__(self, totals: np.ndarray, sizes: np.ndarray):
        """The moments of one part from its per-unit ``totals`` and ``sizes`` (shape (units, groups), or (units, 1)
        for sizes shared by every group; a unit of size 0 is no unit of its group, and its total must be 0). A
        group whose totals are all 0 (a payment reason absent from this part) costs no pass over its units."""
        totals = np.asarray(totals, np.float64)
        sizes = np.broadcast_to(np.asarray(sizes, np.float64), totals.shape)
        self.n_units = np.count_nonzero(sizes, axis=0).astype(np.int64)
        self.n_obs = sizes.sum(axis=0)
        self.sum_nn = np.einsum("ug,ug->g", sizes, sizes)
        self.sum_t = totals.sum(axis=0)
        self.shift = np.zeros_like(self.sum_t)
        self.sum_uu = np.zeros_like(self.sum_t)
        self.sum_un = np.zeros_like(self.sum_t)
        live = np.flatnonzero(np.any(totals, axis=0))
        if live.size:
            t, n = (totals, sizes) if live.size == totals.shape[1] else (totals[:, live], sizes[:, live])
            shift = np.divide(self.sum_t[live], self.n_obs[live], out=np.zeros(live.size), where=self.n_obs[live] > 0)
            u = t - shift * n
            self.shift[live] = shift
            self.sum_uu[live] = np.einsum("ug,ug->g", u, u)
            self.sum_un[live] = np.einsum("ug,ug->g", u, n)

    def add(self, other: Moments) -> None:
        """Add the sums of ``other`` (later parts), moved to this shift: with ``d = s_other - s``,
        ``u = u_other + d n``."""
        shift = np.where(self.n_units > 0, self.shift, other.shift)
        d = other.shift - shift
        self.sum_uu = self.sum_uu + other.sum_uu + 2.0 * d * other.sum_un + d * d * other.sum_nn
        self.sum_un = self.sum_un + other.sum_un + d * other.sum_nn
        self.sum_nn = self.sum_nn + other.sum_nn
        self.n_units = self.n_units + other.n_units
        self.n_obs = self.n_obs + other.n_obs
        self.sum_t = self.sum_t + other.sum_t
        # the shift of a group first seen in ``other``; sums so far are 0 for it, and stay exact about either
        self.shift = shift

    def __getitem__(self, index) -> Moments:
        """The moments of some groups (a slice, or a boolean or integer index)."""
        part = object.__new__(Moments)
        for m in (*MOMENTS, "shift"):
            setattr(part, m, getattr(self, m)[index])
        return part

    def sums(self) -> dict[str, np.ndarray]:
        return {m: getattr(self, m) for m in MOMENTS}


def add_sums(a, b):
    """Sum of two parts' entries: :class:`Moments` in place, an object with its own ``add``, count arrays (padded to
    the larger shape)."""
    if isinstance(a, Moments):
        a.add(b)
        return a
    if hasattr(a, "add"):  # the pool-path sums (:class:`.scan_pool.PathPart`)
        return a.add(b)
    if np.ndim(a) and a.shape != b.shape:
        shape = np.maximum(a.shape, b.shape)
        a, b = (np.pad(x, [(0, s - n) for s, n in zip(shape, x.shape)]) for x in (a, b))
    return a + b


_VOCABULARIES = {"quinola_fate": FATES, "reason": REASONS}
"""The dictionary columns read as codes: a value's code is its index here."""


def _codes(path: Path, name: str) -> np.ndarray:
    """A dictionary column as int8 codes into its vocabulary (:data:`_VOCABULARIES`), whatever the file's own
    dictionary (pyarrow hands over the indices of the stored dictionary)."""
    vocabulary = _VOCABULARIES[name]
    col = pq.ParquetFile(path, pre_buffer=False).read(columns=[name], use_threads=False).column(0)
    if not pa.types.is_dictionary(col.type):
        col = col.dictionary_encode()
    codes = []
    for chunk in col.chunks:
        words = chunk.dictionary.to_pylist()
        unknown = sorted(set(words) - set(vocabulary))
        if unknown:
            raise RunError(f"{path}: column {name!r} holds {unknown}, unknown to this reversis_sim; upgrade it to "
                           f"read the run")
        lut = np.array([vocabulary.index(w) for w in words] or [0], np.int8)
        indices = chunk.indices.to_numpy(zero_copy_only=False)
        codes.append(indices if np.array_equal(lut, np.arange(lut.size)) else lut[indices])
    if len(codes) == 1:
        return codes[0]
    return np.concatenate(codes) if codes else np.zeros(0, np.int8)


def read_columns(path: Path, columns: Sequence[str]) -> dict[str, np.ndarray]:
    """Some columns of a Parquet file as numpy arrays, dictionary columns as codes (:data:`_VOCABULARIES`).

    The numeric columns are read by polars' own Parquet reader, one file per thread (``parallel="none"``; it
    releases the GIL), the dictionary columns by pyarrow: measured on the 13 headline columns of a 98,304-row part,
    4.2 ms of CPU, against 5.6-7.7 ms for pyarrow alone and 5.7-6.3 ms for polars alone (whose categoricals decode
    slowly); numeric columns come to numpy without a copy."""
    numeric = [c for c in columns if c not in _VOCABULARIES]
    out = {s.name: s.to_numpy() for s in pl.read_parquet(path, columns=numeric, parallel="none").get_columns()}
    out.update({c: _codes(path, c) for c in columns if c in _VOCABULARIES})
    return out


@dataclass(frozen=True)
class Layout:
    """What a part's reduction needs to know of the run, and the groups of its match-unit means."""

    n_seats: int
    seat_policy: np.ndarray  # (seats,) intp: the policy code (index into the sorted distinct policies) of each seat
    n_policies: int
    zero_sum: bool
    quinola: bool
    reversis: bool
    reasons_by: str | None  # None, "policy" or "seat"
    direction: bool
    pool_path: bool = False  # also the sums of the pool-path estimator (:mod:`.scan_pool`)

    def blocks(self) -> dict[str, slice]:
        """The match-unit means of a part, as slices of one :class:`Moments` (one pass over them all)."""
        S, F = self.n_seats, N_FATES
        widths = {"seat": S, "position": S, "policy": self.n_policies}
        if self.zero_sum:
            widths["seat_zero_sum"] = S
        if self.quinola:
            widths.update({"cost_fate": F, "cost_all": 1, "holder_fish": 1, "others": S})
        ends = np.cumsum(list(widths.values()))
        return {name: slice(end - w, end) for (name, w), end in zip(widths.items(), ends)}


def _refuse(path: Path, what: str) -> RunError:
    return RunError(f"{path} {what}; it is not a reversis_sim part file (delete it and resume the run)")


def part_sums(seat_path: Path, pay_path: Path, lay: Layout) -> dict:
    """Every sum of one part (a seat table and, with ``lay.reasons_by``, its payments table); ``{}`` if empty."""
    S = lay.n_seats
    groups = {"zero_sum": POOL, "quinola": QUINOLA, "reversis": REVERSIS}
    t = read_columns(seat_path, FISH + tuple(c for g, cols in groups.items() if getattr(lay, g) for c in cols))
    n = t["match"].size
    D = n // S
    seat = t["seat"]
    if n % S or not np.array_equal(seat.reshape(D, S), np.broadcast_to(np.arange(S, dtype=seat.dtype), (D, S))):
        raise _refuse(seat_path, "does not hold one row per seat for each deal, in seat order")
    if D == 0:
        return {}
    match = t["match"]
    match_d = match[::S]
    first = np.empty(D, bool)
    first[0] = True
    np.not_equal(match_d[1:], match_d[:-1], out=first[1:])
    starts = np.flatnonzero(first)  # each match's first deal
    ends = np.append(starts[1:], D)
    if np.any(match_d[starts[1:]] < match_d[starts[:-1]]) or not np.array_equal(
            match.reshape(D, S), np.broadcast_to(match_d[:, None], (D, S))):
        raise _refuse(seat_path, "does not hold its matches in order")
    U = starts.size
    deals = (ends - starts).astype(np.float64)[:, None]  # (U, 1) deals per match

    fish, pos = t["fish"], t["position"]
    by_seat = np.add.reduceat(fish.reshape(D, S), starts, axis=0)
    row_of = np.full(n, -1, np.intp)  # the row of each (deal, position): positions permute a deal's seats
    row_of[np.arange(0, n, S).repeat(S) + pos] = np.arange(n)
    if row_of.min() < 0:
        raise _refuse(seat_path, "has a deal whose positions are not one per seat")
    policy_of = np.zeros((S, lay.n_policies))
    policy_of[np.arange(S), lay.seat_policy] = 1.0
    means = {"seat": (by_seat, deals), "position": (np.add.reduceat(fish[row_of].reshape(D, S), starts, axis=0), deals),
             "policy": (by_seat @ policy_of, deals * policy_of.sum(axis=0))}
    out = {"rows": np.array(D, np.int64), "matches": np.array(U, np.int64)}
    if lay.zero_sum:
        pool_before, pool_after = t["pool_before"][::S], t["pool_after"][::S]
        means["seat_zero_sum"] = (by_seat + np.add.reduceat(pool_after - pool_before, starts)[:, None] / S, deals)
        out["pool_left"] = pool_after[ends - 1].astype(np.float64).sum()
    if lay.quinola:
        quinola_means, counts = _quinola_sums(seat_path, t, S, starts, np.cumsum(first) - 1)
        means.update(quinola_means)
        out.update(counts)
    if lay.reversis:
        out.update(_reversis_sums(seat_path, t, S, D))
    assert list(lay.blocks()) == list(means)
    totals = np.concatenate([np.asarray(m[0], np.float64) for m in means.values()], axis=1)
    sizes = np.concatenate([np.broadcast_to(m[1], m[0].shape) for m in means.values()], axis=1)
    out["means"] = Moments(totals, sizes)
    if lay.reasons_by is not None:
        out.update(_payment_sums(pay_path, lay, match_d[starts], deals))
    return out


def _quinola_sums(path: Path, t: dict, S: int, starts: np.ndarray, unit_d: np.ndarray) -> tuple[dict, dict]:
    """The J♥: its fate per deal, its holder's row (heart length, position, quinola_net, fish) and the other
    seats' payments for it, per match: (match-unit means, counts)."""
    F, U = N_FATES, starts.size
    holder = t["quinola_holder"][::S].astype(np.intp)
    fate = t["quinola_fate"][::S].astype(np.intp)
    if holder.min() < -1 or holder.max() >= S:
        raise _refuse(path, "names a J♥ holder who is not a seat")
    net = t["quinola_net"]
    held = np.flatnonzero(holder >= 0)
    holder_h = holder[held]
    rows = held * S + holder_h  # the holder's row of each deal in which a seat holds the J♥
    fate_h, unit_h = fate[held], unit_d[held]
    hearts_h = t["hearts_at_lead"][rows].astype(np.intp)
    by_fate = unit_h * F + fate_h
    cost = np.bincount(by_fate, weights=net[rows], minlength=U * F).reshape(U, F)
    size = np.bincount(by_fate, minlength=U * F).reshape(U, F)
    holds = size.sum(axis=1, keepdims=True)  # deals with a holder per match
    h_max = int(hearts_h.max()) + 1 if held.size else 1
    holders = np.bincount((hearts_h * S + t["position"][rows]) * F + fate_h,
                          minlength=h_max * S * F).reshape(h_max, S, F)

    # what every seat but the holder pays for the J♥, in deals with a holder (a unit per match and seat): found
    # among the few rows with a negative quinola_net, not by a pass over every (deal, seat)
    paying = np.flatnonzero(net < 0)
    deal_p, seat_p = np.divmod(paying, S)
    other = holder[deal_p] >= 0
    other &= seat_p != holder[deal_p]
    paying, deal_p, seat_p = paying[other], deal_p[other], seat_p[other]
    held_by = np.bincount(unit_h * S + holder_h, minlength=U * S).reshape(U, S)
    means = {
        "cost_fate": (cost, size),
        "cost_all": (cost.sum(axis=1, keepdims=True), holds),
        "holder_fish": (np.bincount(unit_h, weights=t["fish"][rows], minlength=U)[:, None], holds),
        "others": (np.bincount(unit_d[deal_p] * S + seat_p, weights=-net[paying], minlength=U * S).reshape(U, S),
                   holds - held_by),
    }
    counts = {"fate_deals": np.bincount(fate, minlength=F), "holders": holders,
              "others_pays": np.bincount(seat_p, minlength=S)}
    return means, counts


def _reversis_sums(path: Path, t: dict, S: int, D: int) -> dict:
    """Per seat: rows, reversis commitments and makes, espagnolette-eligible hands, declarations and makes."""

    def seat_count(column: str, made: str | None = None) -> np.ndarray:
        seat_d = t[column][::S]
        deal = np.flatnonzero(seat_d >= 0)
        who = seat_d[deal].astype(np.intp)
        if who.size and who.max() >= S:
            raise _refuse(path, f"has a {column} that is not a seat")
        if made is not None:
            who = who[t[made][deal * S + who]]  # the flag on the seat's own row
        return np.bincount(who, minlength=S)

    return {"reversis": np.stack([np.full(S, D), seat_count("reversis_seat"),
                                  seat_count("reversis_seat", "reversis_made"), seat_count("espagnolette_eligible"),
                                  seat_count("espagnolette_seat"), seat_count("espagnolette_seat", "espagnolette_made")]
                                 ).astype(np.int64)}


def _payment_sums(path: Path, lay: Layout, matches: np.ndarray, deals: np.ndarray) -> dict:
    """Per (key, reason[, direction]) and match: the amounts received minus paid, with a zero for a match of a key
    without a row (every (key, match) of the seat table is a unit of every group)."""
    S, U = lay.n_seats, matches.size
    G = N_REASONS * (2 if lay.direction else 1)
    if int(matches[-1]) - int(matches[0]) != U - 1:
        raise _refuse(path, "belongs to a seat table whose matches are not consecutive numbers")
    t = read_columns(path, PAYMENTS)
    unit = t["match"] - t["match"].dtype.type(matches[0])  # below the first match: wraps past U, refused below
    index, dims = (unit, t["seat"], t["reason"]), (U, S, N_REASONS)
    if lay.direction:
        index, dims = (*index, t["amount"] > 0), (*dims, 2)
    try:
        cell = np.ravel_multi_index(index, dims)
    except ValueError:
        raise _refuse(path, "holds payments of matches, seats or reasons its seat table lacks") from None
    totals = np.bincount(cell, weights=t["amount"], minlength=U * S * G).reshape(U, S, G)
    if lay.reasons_by == "policy":
        policy_of = np.zeros((S, lay.n_policies))
        policy_of[np.arange(S), lay.seat_policy] = 1.0
        totals, per_key = np.einsum("usg,sk->ukg", totals, policy_of), policy_of.sum(axis=0)
    else:
        per_key = np.ones(S)
    sizes = np.repeat(deals * per_key, G, axis=1)  # (U, K * G): every group of a key, a unit in every match
    rows = np.bincount(cell % G if lay.direction else t["reason"], minlength=G)
    totals = totals.reshape(U, -1)
    # per group, the matches holding a payment of it (a rare reason's floor counts these)
    return {"reasons": Moments(totals, sizes), "reason_rows": rows,
            "reason_held": np.count_nonzero(totals, axis=0).astype(np.int64)}
