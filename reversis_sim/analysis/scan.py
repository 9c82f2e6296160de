"""Every headline table of a run folder in one pass over its part files.

The toolkit's one analysis path. The polars queries of :mod:`.headline` (the documented examples, and
the tests' oracle, ``tests/polars_oracle.py``) run a lazy query per table and batch: several scans of the run, each
hashing (group, match) pairs. :func:`scan_run` reads each part file once, only the columns
the tables need, and reduces it to sums in numpy (:mod:`.scan_part`), leaning on the run table's layout
(``docs/schema.md``) and checking it: rows in (match, deal, seat) order, whole matches in a part, per-deal values
repeated on every seat's row, a row's policy its seat's in the manifest.

A part's sums are, per group, the moments of its per-match totals that :class:`.tables.UnitMoments` keeps (so the
intervals are those of the polars path up to rounding), and event counts for the rate tables. Tasks of consecutive
parts are reduced by workers (threads for a small run, spawned processes for a large one: numpy holds the GIL in
much of it) and their sums added in run order; memory is a few parts' columns per worker whatever the run's size.
:class:`RunScan` turns the sums into the frames of :func:`.headline.fish_by`, :func:`.headline.quinola_risk`,
:func:`.headline.reversis_rates` and :func:`.payments.fish_by_reason`, through the same table-building code the
polars path uses. ``bench/bench_analysis.py`` measures it against the polars path.
"""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import polars as pl

from ..game import FATES, REASONS
from ..policies import parse_spec
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
from .pool_path import ROW_MATCHES, ROW_PAYMENTS, path_rows, rare_reasons, reason_kind
from .scan_part import N_REASONS, Layout, add_sums, part_sums
from .scan_pool import POOL_REASONS, path_blocks, path_part
from .tables import UnitMoments, kind_of

__all__ = ["RunScan", "scan_run"]

_DIRECTIONS = ("paid", "received")

# ---------------------------------------------------------------------------------------------------------------
# the run


TASK_PARTS = 32
"""Consecutive parts a worker adds up before handing their sums back (the sums of a run do not depend on how many
workers there are: tasks are added in run order, parts in a task too)."""
PROCESS_DEALS = 10_000_000
"""From this many deals on, the workers are processes: numpy's fancy indexing, ``bincount`` and ``reduceat`` hold
the GIL, so two threads reduce parts hardly faster than one (measured: 300 parts, 3.85 s on one thread, 3.58 s on
two); a spawned process costs 2-3 s to start (imports), worth it from some 10M deals (10-20 s of work)."""


def _task_sums(out: Path, chunks: Sequence[int], identity: dict, lay: Layout) -> dict:
    """The sums of some consecutive parts, each verified against the manifest before any of its rows is read."""
    total: dict = {}
    for chunk in chunks:
        path = part_path(out, chunk)
        verify_part(path, chunk, identity)  # its footer and its payments' against the manifest
        sums = part_sums(path, payments_path(out, chunk), lay)
        if sums and lay.pool_path:
            sums["path"] = path_part(path, payments_path(out, chunk), lay)
        if sums:  # an empty part adds nothing
            total = sums if not total else {k: add_sums(total[k], v) for k, v in sums.items()}
    return total


def scan_run(out: str | Path, *, zero_sum: bool = True, quinola: bool = True, reversis: bool = True,
             reasons_by: str | None = None, direction: bool = False, workers: int | None = None,
             processes: bool | None = None, allow_partial: bool = False,
             chunks: Sequence[int] | None = None, pool_path: bool = False) -> RunScan:
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
    workers : int, optional
        Tasks of :data:`TASK_PARTS` parts reduced at once (default: the cores).
    processes : bool, optional
        Workers are processes (spawned) rather than threads; by default for a run of :data:`PROCESS_DEALS` deals
        or more.
    chunks : sequence of int, optional
        Only these completed chunks (a sample of the run: a benchmark's).
    pool_path : bool
        Also add up the sums of the pool-path estimator (:mod:`.pool_path`), for the ``estimator="pool_path"``
        tables of :class:`RunScan` (reads the payments table too).
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
    lay = Layout(len(seats), np.array([policies.index(s) for s in seats], np.intp), len(policies), zero_sum, quinola,
                 reversis, reasons_by, direction, pool_path)
    identity = identity_of(manifest)
    chunks = list(done) if chunks is None else [c for c in chunks if c in done]
    tasks = [chunks[i:i + TASK_PARTS] for i in range(0, len(chunks), TASK_PARTS)]
    workers = max(1, workers or os.cpu_count() or 1)
    if processes is None:
        processes = workers > 1 and len(chunks) * manifest["chunk_matches"] * manifest["match_deals"] >= PROCESS_DEALS
    pool = (ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn")) if processes
            else ThreadPoolExecutor(workers))
    total: dict = {}
    try:
        with pool:
            # in run order, the sums of every task added as they arrive
            for sums in pool.map(_task_sums, [out] * len(tasks), tasks, [identity] * len(tasks), [lay] * len(tasks)):
                if sums:
                    total = sums if not total else {k: add_sums(total[k], v) for k, v in sums.items()}
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
    layout: Layout
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

    # -- the pool-path estimator (:mod:`.pool_path`)

    def path_status(self) -> str | None:
        """None where the pool-path estimator holds for this run, else a sentence saying why it does not."""
        if not self.layout.pool_path or "path" not in self.sums:
            return "the scan did not add up the pool-path sums (scan_run(..., pool_path=True))"
        if self.sums["path"].broken:
            return f"this run's pool does not follow the law the estimator needs: {self.sums['path'].broken}"
        readers = [s for s in self.seats if parse_spec(s).rollout is not None]
        if readers:
            return f"{readers[0]} decides by the pool it sees, so a deal's play depends on the pool carried into it"
        return None

    def _path_table(self, block: str, keys: pl.DataFrame, kind: str | list[str] = "pool_path",
                    row_matches: int = ROW_MATCHES) -> pl.DataFrame:
        """The rows of a block of the pool-path sums, keyed by ``keys`` (one row per group; groups without a row of
        data left out), with an ``estimator`` column; a row's interval needs ``row_matches`` matches holding it."""
        widths = path_blocks(self.layout)
        names = list(widths)
        start = sum(widths[name] for name in names[:names.index(block)])
        part = self.sums["path"]
        rows = path_rows(part.sums[start:start + widths[block]], part.dealers, *part.ante(), kind=kind,
                         row_matches=row_matches)
        frame = pl.concat([keys, pl.DataFrame(rows, schema_overrides={"n_units": pl.Int64, "n_deals": pl.Int64,
                                                                      "n_needed": pl.Int64})], how="horizontal")
        return frame.filter(pl.col("n_deals") > 0).with_columns(pl.lit("pool_path").alias("estimator"))

    def _use_path(self, estimator: str) -> bool:
        if estimator not in ("plain", "pool_path"):
            raise ValueError(f"estimator must be 'plain' or 'pool_path', not {estimator!r}")
        return estimator == "pool_path" and self.path_status() is None

    def fish_by(self, by: str | Sequence[str] = "seat", value: str = "fish", estimator: str = "plain"
                ) -> pl.DataFrame:
        """:func:`.headline.fish_by` of ``value`` by ``seat``, ``position``, ``policy`` or ``["seat", "policy"]``:
        ``fish``, or by seat ``fish_zero_sum`` (:func:`.headline.with_pool_share`).

        ``estimator="pool_path"``: the same means estimated through the pool's expected size (:mod:`.pool_path`)
        where the run allows it (:meth:`path_status`), with an ``estimator`` column saying which one each table
        used (``plain`` where the run does not allow it)."""
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
        if self._use_path(estimator):
            return self._path_table(block, keys)
        table = self._means(block, keys).table(kind=kind_of(value, by))
        return table.with_columns(pl.lit("plain").alias("estimator")) if estimator == "pool_path" else table

    def quinola_risk(self, estimator: str = "plain") -> dict[str, pl.DataFrame]:
        """:func:`.headline.quinola_risk`; with ``estimator="pool_path"`` its ``cost`` and ``holder_fish`` estimated
        through the pool's expected size where the run allows it (:meth:`fish_by`)."""
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
        tables = quinola_tables(deals, holders, self._means("cost_fate", pl.DataFrame([fates])),
                                self._means("cost_all", pl.DataFrame({"quinola_fate": ["all"]})),
                                self._means("holder_fish", pl.DataFrame({"who": ["holder"]})),
                                self._means("others", pl.DataFrame([seats])),
                                pays.filter(pl.Series(others.n_units > 0)))
        if self._use_path(estimator):
            cost = pl.concat([self._path_table("cost_all", pl.DataFrame({"fate": ["all"]}), "pool_path_cost"),
                              self._path_table("cost_fate", pl.DataFrame({"fate": list(FATES)}), "pool_path_cost")])
            tables.update(cost=cost, holder_fish=self._path_table("holder_fish", pl.DataFrame({"who": ["holder"]})))
        elif estimator == "pool_path":
            tables.update({k: tables[k].with_columns(pl.lit("plain").alias("estimator"))
                           for k in ("cost", "holder_fish")})
        return tables

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

    def fish_by_reason(self, estimator: str = "plain") -> pl.DataFrame:
        """:func:`.payments.fish_by_reason` by the key and direction of :func:`scan_run`'s ``reasons_by``; with
        ``estimator="pool_path"`` (and no ``direction``) the reasons that move the pool (``pool_double``,
        ``pool_won``, ``return``) estimated through the pool's expected size where the run allows it, every row
        with the pool-path floor of reasons (the return of a rolled-back doubling, a rare payment, with its own:
        ``pool_path_return``), and every row only where :data:`.pool_path.ROW_PAYMENTS` of the run's matches hold
        a payment of it (its ``n_units``; :func:`.pool_path.rare_reasons`)."""
        lay = self.layout
        if lay.reasons_by is None:
            raise ValueError("this scan did not read the payments: scan_run(..., reasons_by='policy')")
        by = lay.reasons_by
        keys = [by, "reason", "direction"] if lay.direction else [by, "reason"]
        present = self.sums["reason_rows"] > 0
        if not present.any():
            return pl.DataFrame(schema={k: pl.String for k in keys})
        per_key = 2 * N_REASONS if lay.direction else N_REASONS
        key_frame = self._keys(by)
        K = key_frame.height
        # (key, reason[, direction]) in the order of the sums: key-major, then reason, then paid before received
        grid = key_frame.select(pl.col(by).gather(np.repeat(np.arange(K), per_key))).with_columns(
            pl.Series("reason", np.tile(np.repeat(np.array(REASONS), per_key // N_REASONS), K), pl.String))
        if lay.direction:
            grid = grid.with_columns(pl.Series("direction", np.tile(_DIRECTIONS, K * N_REASONS), pl.String))
        m = self.sums["reasons"]
        keep = np.tile(present, K) & (m.n_units > 0)
        path = not lay.direction and self._use_path(estimator)
        rows = grid.filter(pl.Series(keep))
        plain = UnitMoments.from_sums(rows, m[keep].sums(), m[keep].shift).table(
            kind="pool_path_reason" if path else "pool").sort(keys)
        if estimator != "pool_path":
            return plain
        if not path:
            return plain.with_columns(pl.lit("plain").alias("estimator"))
        pooled = key_frame.select(pl.col(by).gather(np.repeat(np.arange(K), len(POOL_REASONS)))).with_columns(
            pl.Series("reason", np.tile(POOL_REASONS, K), pl.String))
        kinds = [reason_kind(r) for r in pooled["reason"]]
        moved = self._path_table("reasons", pooled, kind=kinds, row_matches=ROW_PAYMENTS)
        held = rows.with_columns(pl.Series("held", self.sums["reason_held"][keep]))
        plain = rare_reasons(plain.join(moved.select(keys), on=keys, how="anti").join(held, on=keys, how="left"))
        plain = plain.with_columns(pl.lit("plain").alias("estimator"))
        return pl.concat([plain, moved.select(plain.columns)]).sort(keys)

    def summary_counts(self) -> dict:
        """The counts of :func:`.run.summarize_run`: events, rows and the pool left per match."""
        s = self.sums
        rev = s["reversis"].sum(axis=1)
        return {"reversis_committed": int(rev[1]), "reversis_made": int(rev[2]), "espagnolette_declared": int(rev[4]),
                "espagnolette_made": int(rev[5]), "n_deals": int(s["rows"]),
                "pool_left_per_match": float(s["pool_left"]) / int(s["matches"])}
