"""Every headline table of a run folder in one pass over its part files (issue 16).

The polars path (:mod:`.headline` over :class:`.batches.Batches`) runs a lazy query per table and batch: several
scans of the run, each hashing (group, match) pairs. This module reads each part file once, only the columns the
tables need (integers by polars' Parquet reader, dictionary columns as their codes by pyarrow), and adds up
everything in one loop over the rows (:func:`.scan_nb.part_sums_nb`) that leans on the run table's layout
(``docs/schema.md``), checking it as it goes:

- rows come in (match, deal, seat) order, one row per seat and deal, so a per-deal value (the J♥'s holder, the
  reversis seat, the pool) is read on seat 0's row and a seat's own value on its row;
- a part holds whole matches, so the per-match totals every mean needs (the match is the sampling unit) lie in one
  part (matches may differ in length: simple scoring);
- the policy of a row is the manifest's policy of its seat (the writer builds the ``policy`` column so).

Each part is reduced to sums: per group, the moments of its per-match totals that :class:`.tables.UnitMoments`
keeps (so the intervals are those of the polars path up to rounding), and event counts for the rate tables. Parts
are reduced in threads (the Parquet readers and the kernel release the GIL) and their sums added in run order;
memory is a few parts' columns whatever the run's size. :class:`RunScan` turns the sums into the frames of
:func:`.headline.fish_by`, :func:`.headline.quinola_risk`, :func:`.headline.reversis_rates` and
:func:`.payments.fish_by_reason`, through the same table-building code the polars path uses.

Measured on a 100M-deal ``parlett`` run (4,070 parts, 2 cores shared with other jobs): the three headline tables
in about 40 s and 0.4 GB (the polars path: about 130 s per 100M deals on an idle machine, in 1 GB batches).
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
from .scan_nb import BAD_MATCH, BAD_POSITION, BAD_SEAT, BAD_VALUE, OK, part_sums_nb, payment_sums_nb
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


def _read(path: Path, columns: Sequence[str]) -> dict[str, np.ndarray]:
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


_DTYPES = {"match": np.uint32, "seat": np.int8, "position": np.int8, "fish": np.int64, "pool_before": np.int64,
           "pool_after": np.int64, "quinola_holder": np.int8, "quinola_fate": np.int8, "quinola_net": np.int64,
           "hearts_at_lead": np.int8, "reversis_seat": np.int8, "reversis_made": np.bool_,
           "espagnolette_eligible": np.int8, "espagnolette_seat": np.int8, "espagnolette_made": np.bool_}
"""The dtype the kernel takes each column in (the run table's own: no copy)."""
_MAX_HEARTS = 13
_FAULTS = {BAD_SEAT: "does not hold one row per seat for each deal, in seat order",
           BAD_MATCH: "does not hold its matches in order",
           BAD_POSITION: "has a deal whose positions are not one per seat",
           BAD_VALUE: "holds a seat, fate or heart count out of range"}


def _part_sums(seat_path: Path, pay_path: Path, lay: _Layout) -> dict:
    """Every sum of one part (a seat table and its payments table)."""
    S, F = lay.n_seats, _N_FATES
    groups = {"zero_sum": _POOL, "quinola": _QUINOLA, "reversis": _REVERSIS}
    t = _read(seat_path, _FISH + tuple(c for g, cols in groups.items() if getattr(lay, g) for c in cols))
    n = t["match"].size
    D = n // S
    if n % S:
        raise RunError(f"{seat_path} {_FAULTS[BAD_SEAT]}; it is not a reversis_sim part file")
    if D == 0:
        return {}
    col = {name: np.zeros(0, dtype) for name, dtype in _DTYPES.items()}  # the columns not read: never touched
    for name, values in t.items():
        col[name] = np.asarray(values, _DTYPES[name])
    match_d = col["match"][::S]
    first = np.empty(D, bool)
    first[0] = True
    np.not_equal(match_d[1:], match_d[:-1], out=first[1:])
    starts = np.flatnonzero(first)  # each match's first deal
    if np.any(match_d[starts[1:]] < match_d[starts[:-1]]):
        raise RunError(f"{seat_path} {_FAULTS[BAD_MATCH]}; it is not a reversis_sim part file")
    U = starts.size
    out = {"by_seat": np.zeros((U, S), np.int64), "by_position": np.zeros((U, S), np.int64),
           "pool_change": np.zeros(U, np.int64), "pool_left": np.zeros(1), "cost": np.zeros((U, F), np.int64),
           "cost_n": np.zeros((U, F), np.int64), "holder_fish": np.zeros(U, np.int64),
           "others": np.zeros((U, S), np.int64), "others_n": np.zeros((U, S), np.int64),
           "others_pays": np.zeros(S, np.int64), "fate_deals": np.zeros(F, np.int64),
           "holders": np.zeros((_MAX_HEARTS + 1, S, F), np.int64), "reversis": np.zeros((6, S), np.int64)}
    fault = part_sums_nb(*(col[name] for name in _DTYPES), starts, S, lay.zero_sum, lay.quinola, lay.reversis,
                         *out.values())
    if fault != OK:
        raise RunError(f"{seat_path} {_FAULTS[fault]}; it is not a reversis_sim part file")
    out["reversis"][0] = D
    deals = np.diff(np.append(starts, D)).astype(np.float64)[:, None]  # (U, 1) deals per match
    by_seat = out["by_seat"]
    policy_of = np.zeros((S, lay.n_policies))
    policy_of[np.arange(S), lay.seat_policy] = 1.0
    means = {"seat": (by_seat, deals), "position": (out["by_position"], deals),
             "policy": (by_seat @ policy_of, deals * policy_of.sum(axis=0))}
    if lay.zero_sum:
        means["seat_zero_sum"] = (by_seat + out["pool_change"][:, None] / S, deals)
    if lay.quinola:
        holds = out["cost_n"].sum(axis=1, keepdims=True)  # deals with a holder per match
        means.update({"cost_fate": (out["cost"], out["cost_n"]),
                      "cost_all": (out["cost"].sum(axis=1, keepdims=True), holds),
                      "holder_fish": (out["holder_fish"][:, None], holds), "others": (out["others"], out["others_n"])})
    blocks = lay.blocks()
    assert list(blocks) == list(means)
    totals = np.concatenate([np.asarray(m[0], np.float64) for m in means.values()], axis=1)
    sizes = np.concatenate([np.broadcast_to(m[1], m[0].shape) for m in means.values()], axis=1)
    sums = {"means": Moments(totals, sizes), "rows": np.array(D, np.int64), "matches": np.array(U, np.int64),
            "pool_left": out["pool_left"][0], "fate_deals": out["fate_deals"], "holders": out["holders"],
            "others_pays": out["others_pays"], "reversis": out["reversis"]}
    if lay.reasons_by is not None:
        sums.update(_payment_sums(pay_path, lay, match_d[starts], deals))
    return sums


def _payment_sums(path: Path, lay: _Layout, matches: np.ndarray, deals: np.ndarray) -> dict:
    """Per (key, reason[, direction]) and match: the amounts received minus paid, with a zero for a match of a key
    without a row (every (key, match) of the seat table is a unit of every group)."""
    S, U = lay.n_seats, matches.size
    G = _N_REASONS * (2 if lay.direction else 1)
    if int(matches[-1]) - int(matches[0]) != U - 1:
        raise RunError(f"{path}: its seat table's matches are not consecutive numbers; it is not a reversis_sim part")
    t = _read(path, _PAYMENTS)
    totals, rows = np.zeros((U, S, G)), np.zeros(G, np.int64)
    fault = payment_sums_nb(np.asarray(t["match"], np.uint32), np.asarray(t["seat"], np.int8),
                            np.asarray(t["reason"], np.int8), np.asarray(t["amount"], np.int64), int(matches[0]),
                            lay.direction, totals, rows)
    if fault != OK:
        raise RunError(f"{path} holds payments of matches or seats its seat table lacks; delete the chunk's files "
                       f"and resume the run to recompute it")
    if lay.reasons_by == "policy":
        policy_of = np.zeros((S, lay.n_policies))
        policy_of[np.arange(S), lay.seat_policy] = 1.0
        totals, per_key = np.einsum("usg,sk->ukg", totals, policy_of), policy_of.sum(axis=0)
    else:
        per_key = np.ones(S)
    sizes = np.repeat(deals * per_key, G, axis=1)  # (U, K * G): every group of a key, a unit in every match
    return {"reasons": Moments(totals.reshape(U, -1), sizes), "reason_rows": rows}


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
