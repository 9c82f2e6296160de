"""Every headline table of a run folder in one pass over its part files, with pyarrow and numpy (issue 16).

The polars path (:mod:`.headline` over :class:`.batches.Batches`) runs a lazy query per table and batch: several
scans of the run, each hashing (group, match) pairs. This module reads each part file once, only the columns the
tables need, and adds up everything in O(rows) numpy that leans on the run table's layout (``docs/schema.md``):

- rows come in (match, deal, seat) order, one row per seat and deal, so a column is a (deals, seats) array and a
  per-deal value (the J♥'s holder, the reversis seat, the pool) is seat 0's entry;
- a part holds whole matches, so the per-match totals every mean needs (the match is the sampling unit) are
  ``np.add.reduceat`` at the match boundaries of one part (matches may differ in length: simple scoring);
- the policy of a row is the manifest's policy of its seat (the writer builds the ``policy`` column so).

Each part is reduced to sums: per group, the moments of its per-match totals that :class:`.tables.UnitMoments`
keeps (so the intervals are those of the polars path up to rounding), and event counts for the rate tables. Parts
are reduced in threads (pyarrow's decoding and numpy's loops release the GIL) and their sums added in run order;
memory is a few parts' columns whatever the run's size. :class:`RunScan` turns the sums into the frames of
:func:`.headline.fish_by`, :func:`.headline.quinola_risk`, :func:`.headline.reversis_rates` and
:func:`.payments.fish_by_reason`, through the same table-building code the polars path uses.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import polars as pl
import pyarrow as pa
import pyarrow.parquet as pq

from ..game import FATES, REASONS
from ..record import (
    RunError,
    completed_chunks,
    identity_of,
    part_files,
    part_path,
    payments_path,
    read_manifest,
    verify_part,
)
from .headline import quinola_tables, reversis_table
from .tables import _MOMENTS, UnitMoments

__all__ = ["RunScan", "scan_run"]

_FISH = ("match", "seat", "position", "fish")
_POOL = ("pool_before", "pool_after")
_QUINOLA = ("quinola_holder", "quinola_fate", "quinola_net", "hearts_at_lead")
_REVERSIS = ("reversis_seat", "reversis_made", "espagnolette_eligible", "espagnolette_seat", "espagnolette_made")
_PAYMENTS = ("match", "seat", "reason", "amount")
_DIRECTIONS = ("paid", "received")
_N_FATES, _N_REASONS = len(FATES), len(REASONS)

# ---------------------------------------------------------------------------------------------------------------
# sums of one part, and adding them up


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
        for m in (*_MOMENTS, "shift"):
            setattr(part, m, getattr(self, m)[index])
        return part

    def sums(self) -> dict[str, np.ndarray]:
        return {m: getattr(self, m) for m in _MOMENTS}


def _add(a, b):
    """Sum of two parts' entries: :class:`Moments` in place, count arrays (padded to the larger shape)."""
    if isinstance(a, Moments):
        a.add(b)
        return a
    if np.ndim(a) and a.shape != b.shape:
        shape = np.maximum(a.shape, b.shape)
        a, b = (np.pad(x, [(0, s - n) for s, n in zip(shape, x.shape)]) for x in (a, b))
    return a + b


def _column(table: pa.Table, name: str, vocabulary: Sequence[str] | None = None, step: int = 1) -> np.ndarray:
    """Every ``step``-th value of a column as a numpy array; a dictionary column as codes into ``vocabulary``
    (:data:`FATES`, :data:`REASONS`) whatever the file's own dictionary."""
    col = table.column(name)
    if vocabulary is None:
        values = col.to_numpy()
        return values[::step] if step > 1 else values
    if not pa.types.is_dictionary(col.type):
        col = col.dictionary_encode()
    codes = []
    for chunk in col.chunks:
        words = chunk.dictionary.to_pylist()
        unknown = sorted(set(words) - set(vocabulary))
        if unknown:
            raise RunError(f"column {name!r} holds {unknown}, unknown to this reversis_sim; upgrade it to read the run")
        codes.append((np.array([vocabulary.index(w) for w in words] or [0], np.intp),
                      chunk.indices.to_numpy(zero_copy_only=False)))
    if len(codes) == 1:  # one chunk (a part is one row group): map only the values wanted
        lut, indices = codes[0]
        return lut[indices[::step]]
    values = np.concatenate([lut[indices] for lut, indices in codes]) if codes else np.zeros(0, np.intp)
    return values[::step]


def _read(path: Path, columns: Sequence[str]) -> pa.Table:
    return pq.ParquetFile(path).read(columns=list(columns), use_threads=False)


@dataclass(frozen=True)
class _Layout:
    """What a part's reduction needs to know of the run, and the groups of its match-unit means."""

    n_seats: int
    seat_policy: np.ndarray  # (seats,) intp: the policy code (index into the sorted distinct policies) of each seat
    n_policies: int
    zero_sum: bool
    quinola: bool
    reversis: bool
    reasons_by: str | None  # None, "policy" or "seat"
    direction: bool

    def blocks(self) -> dict[str, slice]:
        """The match-unit means of a part, as slices of one :class:`Moments` (one pass over them all)."""
        S, F = self.n_seats, _N_FATES
        widths = {"seat": S, "position": S, "policy": self.n_policies}
        if self.zero_sum:
            widths["seat_zero_sum"] = S
        if self.quinola:
            widths.update({"cost_fate": F, "cost_all": 1, "holder_fish": 1, "others": S})
        ends = np.cumsum(list(widths.values()))
        return {name: slice(end - w, end) for (name, w), end in zip(widths.items(), ends)}


def _part_sums(seat_path: Path, pay_path: Path, lay: _Layout) -> dict:
    """Every sum of one part (a seat table and its payments table)."""
    S = lay.n_seats
    names = (_FISH + (_POOL if lay.zero_sum else ()) + (_QUINOLA if lay.quinola else ())
             + (_REVERSIS if lay.reversis else ()))
    t = _read(seat_path, names)
    n = t.num_rows
    D = n // S
    seat = _column(t, "seat")
    if n % S or not np.array_equal(seat.reshape(D, S), np.broadcast_to(np.arange(S, dtype=seat.dtype), (D, S))):
        raise RunError(f"{seat_path} does not hold one row per seat for each deal, in seat order; it is not a "
                       f"reversis_sim part file")
    if D == 0:
        return {}
    match_d = _column(t, "match", step=S)
    first = np.empty(D, bool)
    first[0] = True
    np.greater(match_d[1:], match_d[:-1], out=first[1:])
    starts = np.flatnonzero(first)  # each match's first deal
    ends = np.append(starts[1:], D)
    if np.any(match_d[ends - 1] != match_d[starts]):
        raise RunError(f"{seat_path} does not hold its matches in order; it is not a reversis_sim part file")
    U = starts.size
    deals = np.diff(np.append(starts, D)).astype(np.float64)[:, None]  # (U, 1) deals per match

    fish = _column(t, "fish")
    fish2 = fish.reshape(D, S)
    pos = _column(t, "position")
    by_seat = np.add.reduceat(fish2, starts, axis=0)
    by_position = np.full(n, -1, np.intp)  # the row of each (deal, position): positions permute a deal's seats
    by_position[np.arange(0, n, S).repeat(S) + pos] = np.arange(n)
    if by_position.min() < 0:
        raise RunError(f"{seat_path} has a deal whose positions are not one per seat; it is not a reversis_sim part "
                       f"file")
    fish_pos = fish[by_position]
    policy_of = np.zeros((S, lay.n_policies))
    policy_of[np.arange(S), lay.seat_policy] = 1.0
    means = {"seat": (by_seat, deals), "position": (np.add.reduceat(fish_pos.reshape(D, S), starts, axis=0), deals),
             "policy": (by_seat @ policy_of, deals * policy_of.sum(axis=0))}
    out = {"rows": np.array(D, np.int64), "matches": np.array(U, np.int64)}
    if lay.zero_sum:
        pool_before, pool_after = _column(t, "pool_before", step=S), _column(t, "pool_after", step=S)
        pool_change = np.add.reduceat(pool_after - pool_before, starts)
        means["seat_zero_sum"] = (by_seat + pool_change[:, None] / S, deals)
        out["pool_left"] = np.array(pool_after[ends - 1].astype(np.float64).sum())
    if lay.quinola:
        quinola_means, counts = _quinola_sums(t, S, D, starts, np.cumsum(first) - 1, fish, pos)
        means.update(quinola_means)
        out.update(counts)
    if lay.reversis:
        out.update(_reversis_sums(t, S, D))
    blocks = lay.blocks()
    assert list(blocks) == list(means)
    totals = np.concatenate([np.asarray(m[0], np.float64) for m in means.values()], axis=1)
    sizes = np.concatenate([np.broadcast_to(m[1], m[0].shape) for m in means.values()], axis=1)
    out["means"] = Moments(totals, sizes)
    if lay.reasons_by is not None:
        out.update(_payment_sums(pay_path, lay, match_d[starts], deals))
    return out


def _quinola_sums(t: pa.Table, S: int, D: int, starts: np.ndarray, unit_d: np.ndarray, fish: np.ndarray,
                  pos: np.ndarray) -> tuple[dict, dict]:
    """The J♥: its fate per deal, its holder's row (heart length, position, quinola_net, fish) and the other seats'
    payments for it, per match: (match-unit means, counts)."""
    F, U = _N_FATES, starts.size
    holder = _column(t, "quinola_holder", step=S).astype(np.intp)
    fate = _column(t, "quinola_fate", FATES, step=S)
    net = _column(t, "quinola_net")
    held = np.flatnonzero(holder >= 0)
    holder_h = holder[held]
    rows = held * S + holder_h  # the holder's row of each deal in which a seat holds the J♥
    fate_h = fate[held]
    unit_h = unit_d[held]
    hearts_h = _column(t, "hearts_at_lead")[rows].astype(np.intp)
    pos_h = pos[rows].astype(np.intp)
    by_fate = unit_h * F + fate_h
    cost = np.bincount(by_fate, weights=net[rows], minlength=U * F).reshape(U, F)
    size = np.bincount(by_fate, minlength=U * F).reshape(U, F)
    holds = size.sum(axis=1, keepdims=True)  # deals with a holder per match
    h_max = int(hearts_h.max()) + 1 if held.size else 1
    holders = np.bincount((hearts_h * S + pos_h) * F + fate_h, minlength=h_max * S * F).reshape(h_max, S, F)

    # what every seat but the holder pays for the J♥, in deals with a holder (a unit per match and seat)
    paid = np.maximum(-net, 0).reshape(D, S)
    paid *= (holder >= 0)[:, None]
    paid[held, holder_h] = 0
    held_by = np.bincount(unit_h * S + holder_h, minlength=U * S).reshape(U, S)
    means = {
        "cost_fate": (cost, size),
        "cost_all": (cost.sum(axis=1, keepdims=True), holds),
        "holder_fish": (np.bincount(unit_h, weights=fish[rows], minlength=U)[:, None], holds),
        "others": (np.add.reduceat(paid, starts, axis=0), holds - held_by),
    }
    counts = {"fate_deals": np.bincount(fate, minlength=F), "holders": holders,
              "others_pays": np.bincount(np.flatnonzero(paid) % S, minlength=S)}
    return means, counts


def _reversis_sums(t: pa.Table, S: int, D: int) -> dict:
    """Per seat: rows, reversis commitments and makes, espagnolette-eligible hands, declarations and makes."""

    def seat_count(seat_d: np.ndarray, made: str | None = None) -> np.ndarray:
        deal = np.flatnonzero(seat_d >= 0)
        who = seat_d[deal].astype(np.intp)
        if made is not None:
            who = who[_column(t, made)[deal * S + who]]  # the flag on the seat's own row
        return np.bincount(who, minlength=S)

    committed = _column(t, "reversis_seat", step=S)
    declared = _column(t, "espagnolette_seat", step=S)
    return {"reversis": np.stack([np.full(S, D), seat_count(committed), seat_count(committed, "reversis_made"),
                                  seat_count(_column(t, "espagnolette_eligible", step=S)), seat_count(declared),
                                  seat_count(declared, "espagnolette_made")]).astype(np.int64)}


def _payment_sums(path: Path, lay: _Layout, matches: np.ndarray, deals: np.ndarray) -> dict:
    """Per (key, reason[, direction]) and match: the amounts received minus paid, with a zero for a match of a key
    without a row (every (key, match) of the seat table is a unit of every group)."""
    S = lay.n_seats
    key_of = lay.seat_policy if lay.reasons_by == "policy" else np.arange(S)
    K = lay.n_policies if lay.reasons_by == "policy" else S
    R = _N_REASONS * (2 if lay.direction else 1)
    t = _read(path, _PAYMENTS)
    U = matches.size
    match = _column(t, "match")
    if int(matches[-1]) - int(matches[0]) == U - 1:  # a chunk's matches are consecutive numbers
        unit = match.astype(np.intp)
        unit -= int(matches[0])
        foreign = unit.size and (unit.min() < 0 or unit.max() >= U)
    else:
        unit = np.minimum(np.searchsorted(matches, match), U - 1)
        foreign = unit.size and np.any(matches[unit] != match)
    if foreign:
        raise RunError(f"{path} holds payments of matches its seat table lacks; delete the chunk's files and resume "
                       f"the run to recompute it")
    amount = _column(t, "amount")
    reason = _column(t, "reason", REASONS)
    group_of = (key_of[:, None] * R + np.arange(R)[None, :]).ravel()  # (seat, reason[, direction]) -> column
    cell = _column(t, "seat").astype(np.intp) * R
    cell += reason * 2 + (amount > 0) if lay.direction else reason
    unit *= K * R
    unit += group_of[cell]
    totals = np.bincount(unit, weights=amount, minlength=U * K * R).reshape(U, K * R)
    sizes = np.repeat(deals * np.bincount(key_of, minlength=K), R, axis=1)  # (U, K * R): every group of a key
    return {"reasons": Moments(totals, sizes), "reason_rows": np.bincount(cell % R, minlength=R)}


# ---------------------------------------------------------------------------------------------------------------
# the run


def _verified_sums(out: Path, chunk: int, identity: dict, lay: _Layout) -> dict:
    path = part_path(out, chunk)
    verify_part(path, chunk, identity)  # its footer and its payments' against the manifest, before any row is read
    return _part_sums(path, payments_path(out, chunk), lay)


def scan_run(out: str | Path, *, zero_sum: bool = True, quinola: bool = True, reversis: bool = True,
             reasons_by: str | None = None,
             direction: bool = False, threads: int | None = None, allow_partial: bool = False,
             chunks: Sequence[int] | None = None) -> RunScan:
    """Read a run folder once and add up what its headline tables need (:class:`RunScan`).

    Parameters
    ----------
    out : path
        A complete run folder; :class:`~reversis_sim.record.RunError` in one sentence otherwise. Every part is
        verified against the manifest (:func:`~reversis_sim.record.verify_part`) before its rows are read.
    zero_sum, quinola, reversis : bool
        Add up the sums of ``fish_zero_sum`` (and the pool left per match), of :meth:`RunScan.quinola_risk` and of
        :meth:`RunScan.reversis_rates` (each reads more columns).
    reasons_by : {None, "policy", "seat"}
        Also read the payments table, for :meth:`RunScan.fish_by_reason` by this key; ``direction`` keeps paid and
        received apart.
    threads : int, optional
        Parts reduced at once (default: the cores, at most 4).
    chunks : sequence of int, optional
        Only these completed chunks (a sample of the run: a benchmark's).
    """
    if reasons_by not in (None, "policy", "seat"):
        raise ValueError(f"reasons_by must be None, 'policy' or 'seat', got {reasons_by!r}")
    out = Path(out)
    manifest = read_manifest(out)
    done = completed_chunks(manifest)
    if len(done) < manifest["n_chunks"] and not allow_partial:
        part_files(out, manifest)  # raises the one sentence naming the resume command
    seats = [str(s) for s in manifest["seats"]]
    policies = sorted(set(seats))
    lay = _Layout(len(seats), np.array([policies.index(s) for s in seats], np.intp), len(policies), zero_sum, quinola,
                  reversis, reasons_by, direction)
    identity = identity_of(manifest)
    workers = threads or min(os.cpu_count() or 1, 4)
    total: dict = {}
    try:
        with ThreadPoolExecutor(workers) as pool:
            # in run order, a few parts ahead: the sums of every part are added as they arrive
            chunks = list(done) if chunks is None else [c for c in chunks if c in done]
            pending = [pool.submit(_verified_sums, out, c, identity, lay) for c in chunks[:2 * workers]]
            for i in range(len(chunks)):
                sums = pending[i].result()
                pending[i] = None
                if i + 2 * workers < len(chunks):
                    pending.append(pool.submit(_verified_sums, out, chunks[i + 2 * workers], identity, lay))
                if sums:  # an empty part adds nothing
                    total = sums if not total else {k: _add(total[k], v) for k, v in sums.items()}
    except RunError:
        # the reader's own sentence (it also blames an edited manifest)
        part_files(out, manifest, allow_partial=allow_partial)
        raise
    if not total:
        raise RunError(f"{out} has no completed chunk to analyse")
    return RunScan(manifest, seats, policies, lay, total)


@dataclass
class RunScan:
    """The sums of one pass over a run (:func:`scan_run`), and the headline frames made from them: the frames of
    the polars path on the run's lazy frame with ``policy`` and ``quinola_fate`` as strings, to rounding."""

    manifest: dict
    seats: list[str]
    policies: list[str]
    layout: _Layout
    sums: dict

    # -- keys of the groups, in the dtypes of the run table

    def _keys(self, by: str) -> pl.DataFrame:
        S = self.layout.n_seats
        if by in ("seat", "position"):
            return pl.DataFrame({by: pl.Series(np.arange(S), dtype=pl.Int8)})
        if by == "policy":
            return pl.DataFrame({"policy": pl.Series(self.policies, dtype=pl.String)})
        raise ValueError(f"fish_by over a run folder groups by seat, position, policy or [seat, policy]; not {by!r}")

    def _means(self, block: str, keys: pl.DataFrame) -> UnitMoments:
        """The match-unit moments of a block of groups, keyed by ``keys`` (one row per group; groups without a unit
        left out)."""
        if block not in self.layout.blocks():
            raise ValueError(f"this scan did not add up {block!r}: scan_run(...) with its table's option")
        m = self.sums["means"][self.layout.blocks()[block]]
        keep = m.n_units > 0
        return UnitMoments.from_sums(keys.filter(pl.Series(keep)), m[keep].sums(), m[keep].shift)

    def fish_by(self, by: str | Sequence[str] = "seat", value: str = "fish") -> pl.DataFrame:
        """:func:`.headline.fish_by` of ``value`` by ``seat``, ``position``, ``policy`` or ``["seat", "policy"]``:
        ``fish``, or by seat ``fish_zero_sum`` (:func:`.headline.with_pool_share`)."""
        by = [by] if isinstance(by, str) else list(by)
        if value not in ("fish", "fish_zero_sum"):
            raise ValueError(f"fish_by over a run folder means fish or fish_zero_sum, not {value!r}")
        if by not in (["seat"], ["position"], ["policy"], ["seat", "policy"]) or (
                value == "fish_zero_sum" and by[0] != "seat"):
            raise ValueError(f"fish_by over a run folder groups {value} by seat"
                             f"{', position, policy' if value == 'fish' else ''} or [seat, policy], not {by}")
        keys = self._keys(by[0])
        if by == ["seat", "policy"]:
            keys = keys.with_columns(pl.Series("policy", self.seats, dtype=pl.String))
        block = "seat_zero_sum" if value == "fish_zero_sum" else by[0]
        return self._means(block, keys).table()

    def quinola_risk(self) -> dict[str, pl.DataFrame]:
        """:func:`.headline.quinola_risk`."""
        s, S = self.sums, self.layout.n_seats
        if not self.layout.quinola:
            raise ValueError("this scan did not add up the Quinola's sums: scan_run(..., quinola=True)")
        fates = pl.Series("quinola_fate", FATES, pl.String)
        deals = pl.DataFrame([fates, pl.Series("k", s["fate_deals"], pl.Int64)]).filter(pl.col("k") > 0)
        h, p, f = np.nonzero(s["holders"])
        holders = pl.DataFrame([pl.Series("hearts_at_lead", h, pl.Int8), pl.Series("position", p, pl.Int8),
                                pl.Series("quinola_fate", np.array(FATES)[f], pl.String),
                                pl.Series("k", s["holders"][h, p, f], pl.Int64)])
        others = s["means"][self.layout.blocks()["others"]]
        seats = pl.Series("seat", np.arange(S), pl.Int8)
        pays = pl.DataFrame([seats, pl.Series("pays", s["others_pays"], pl.Int64),
                             pl.Series("size", others.n_obs.round().astype(np.int64), pl.Int64)])
        return quinola_tables(deals, holders, self._means("cost_fate", pl.DataFrame([fates])),
                              self._means("cost_all", pl.DataFrame({"quinola_fate": ["all"]})),
                              self._means("holder_fish", pl.DataFrame({"who": ["holder"]})),
                              self._means("others", pl.DataFrame([seats])),
                              pays.filter(pl.Series(others.n_units > 0)))

    def reversis_rates(self, by: str = "policy") -> pl.DataFrame:
        """:func:`.headline.reversis_rates` by ``policy`` or ``seat``."""
        if not self.layout.reversis:
            raise ValueError("this scan did not add up the reversis counts: scan_run(..., reversis=True)")
        per_seat = self.sums["reversis"]  # (counts, seats)
        if by == "policy":
            per = np.zeros((per_seat.shape[0], len(self.policies)), np.int64)
            np.add.at(per.T, self.layout.seat_policy, per_seat.T)
        elif by == "seat":
            per = per_seat
        else:
            raise ValueError(f"reversis_rates over a run folder is by policy or seat, not {by!r}")
        keys = self._keys(by)
        counts = keys.with_columns(pl.Series(name, row, pl.Int64) for name, row in zip(
            ("rows", "committed", "made", "eligible", "declared", "esp_made"), per))
        return reversis_table(counts, by)

    def fish_by_reason(self) -> pl.DataFrame:
        """:func:`.payments.fish_by_reason` by the key and direction of :func:`scan_run`'s ``reasons_by``."""
        lay = self.layout
        if lay.reasons_by is None:
            raise ValueError("this scan did not read the payments: scan_run(..., reasons_by='policy')")
        by = lay.reasons_by
        keys = [by, "reason", "direction"] if lay.direction else [by, "reason"]
        present = self.sums["reason_rows"] > 0
        if not present.any():
            return pl.DataFrame(schema={k: pl.String for k in keys})
        per_key = 2 * _N_REASONS if lay.direction else _N_REASONS
        key_frame = self._keys(by)
        K = key_frame.height
        # (key, reason[, direction]) in the order of the sums: key-major, then reason, then paid before received
        grid = key_frame.select(pl.col(by).gather(np.repeat(np.arange(K), per_key))).with_columns(
            pl.Series("reason", np.tile(np.repeat(np.array(REASONS), per_key // _N_REASONS), K), pl.String))
        if lay.direction:
            grid = grid.with_columns(pl.Series("direction", np.tile(_DIRECTIONS, K * _N_REASONS), pl.String))
        m = self.sums["reasons"]
        keep = np.tile(present, K) & (m.n_units > 0)
        return UnitMoments.from_sums(grid.filter(pl.Series(keep)), m[keep].sums(), m[keep].shift).table().sort(keys)

    def summary_counts(self) -> dict:
        """The counts of :func:`.run.summarize_run`: events, rows and the pool left per match."""
        s = self.sums
        rev = s["reversis"].sum(axis=1)
        return {"reversis_committed": int(rev[1]), "reversis_made": int(rev[2]), "espagnolette_declared": int(rev[4]),
                "espagnolette_made": int(rev[5]), "n_deals": int(s["rows"]),
                "pool_left_per_match": float(s["pool_left"]) / int(s["matches"])}
