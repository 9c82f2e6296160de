"""The per-match data of the coverage harness (``scripts/interval_coverage.py``): seatings
played by the numba engine and
reduced to per-match arrays, cached on disk in blocks so that every interval method is judged on the same matches.

A *pair* ``candidate/baseline`` is played as :func:`reversis_sim.compare.compare` plays it (the field is the
baseline): the all-baseline table and one table per seat rotation with the candidate in that seat, on the same
cards. A *table* ``policy`` is one seating (``policy`` in every seat), as ``simulate`` plays it. Matches of one seed
are independent (every draw is keyed by (seed, match, deal, ...)), so the K small runs of N matches of the harness
are K disjoint blocks of one K * N-match simulation on a seed the truth run never uses.
"""

from __future__ import annotations

import re
import time
from pathlib import Path

import cov_common  # noqa: F401  (the repository on the path)
import numpy as np

from reversis_sim.engines import get_engine
from reversis_sim.game import FATES
from reversis_sim.policies import parse_spec
from reversis_sim.rules import get_preset

BLOCK = 50_000
"""Matches per cached file (an interrupted harness resumes from its last complete file)."""


def _seating(rules, seats, seed, first_match, n_matches, threads=None) -> dict:
    """One seating's per-match sums: ``fish`` and ``pool_flow`` (from_pool - to_pool) int64 (n, S), ``deals``
    (n,), ``pool_end`` and ``pool_max`` (n,), and the event counts of the rate tables: ``committed``, ``made``
    (reversis, per seat), ``fate`` (n, 4) deals by the Quinola's fate."""
    S = rules.n_seats
    eng = get_engine("numba")
    cols = eng.columns(rules, [parse_spec(s) for s in seats], seed=seed, first_match=first_match,
                       n_matches=n_matches, match_deals=rules.match_deals, threads=threads)
    match = np.asarray(cols.column("match"), np.int64)[::S] - first_match
    deals = np.bincount(match, minlength=n_matches).astype(np.int64)
    if np.any(deals == 0):
        raise RuntimeError("a match without a deal")

    def per_seat(name):
        v = np.asarray(cols.column(name), np.float64).reshape(-1, S)
        return np.stack([np.rint(np.bincount(match, weights=v[:, s], minlength=n_matches)) for s in range(S)],
                        axis=1).astype(np.int64)

    fish = per_seat("fish")
    flow = per_seat("from_pool") - per_seat("to_pool")
    pool_after = np.asarray(cols.column("pool_after"), np.int64)[::S]
    ends = np.cumsum(deals) - 1
    pool_max = np.maximum.reduceat(pool_after, np.concatenate([[0], ends[:-1] + 1]))
    rev = np.asarray(cols.column("reversis_seat"), np.int64)[::S]
    made = np.asarray(cols.column("reversis_made"), np.int64)[::S]
    committed = np.zeros((n_matches, S), np.int64)
    made_by = np.zeros((n_matches, S), np.int64)
    on = rev >= 0
    np.add.at(committed, (match[on], rev[on]), 1)
    np.add.at(made_by, (match[on], rev[on]), made[on])
    fate = np.asarray(cols.column("quinola_fate"), np.int64)[::S]
    fates = np.zeros((n_matches, len(FATES)), np.int64)
    np.add.at(fates, (match, fate), 1)
    return {"fish": fish, "pool_flow": flow, "deals": deals, "pool_end": pool_after[ends], "pool_max": pool_max,
            "committed": committed, "made": made_by, "fate": fates}


def _pair_block(rules, candidate, baseline, seed, first_match, n_matches, threads=None) -> dict:
    """The duplicate design over one block (field = baseline): ``a``, ``b`` float64 (S, n) the seat under test's
    fish per deal in rotation ``s`` (candidate arm, baseline arm), ``a_pool``, ``b_pool`` its pool flows per deal,
    ``pool_max`` (n,) the largest pool of any seating of the match."""
    S = rules.n_seats
    base = _seating(rules, [baseline] * S, seed, first_match, n_matches, threads)
    a, ap = np.empty((S, n_matches)), np.empty((S, n_matches))
    pool_max = base["pool_max"].copy()
    for s in range(S):
        seats = [baseline] * S
        seats[s] = candidate
        t = _seating(rules, seats, seed, first_match, n_matches, threads)
        a[s] = t["fish"][:, s] / t["deals"]
        ap[s] = t["pool_flow"][:, s] / t["deals"]
        np.maximum(pool_max, t["pool_max"], out=pool_max)
    b = (base["fish"] / base["deals"][:, None]).T.copy()
    bp = (base["pool_flow"] / base["deals"][:, None]).T.copy()
    return {"a": a, "b": b, "a_pool": ap, "b_pool": bp, "pool_max": pool_max}


def _table_block(rules, seats, seed, first_match, n_matches, threads=None) -> dict:
    """One seating: ``seats`` a policy in every seat, or one per seat separated by ``|``."""
    specs = seats.split("|") if "|" in seats else [seats] * rules.n_seats
    return _seating(rules, specs, seed, first_match, n_matches, threads)


def _name(*parts) -> str:
    return re.sub(r"[^A-Za-z0-9_.=-]+", "_", "_".join(str(p) for p in parts))


def load(cache: Path, kind: str, spec: str, seed: int, n_matches: int, preset: str = "parlett",
         threads: int | None = None, log=None) -> dict:
    """The per-match arrays of ``n_matches`` matches (from match 0) of seed ``seed``: ``kind`` is ``"pair"``
    (``spec`` = ``candidate/baseline``) or ``"table"`` (``spec`` = a policy in every seat). Simulated block by
    block (:data:`BLOCK` matches) on first use and cached under ``cache``; later calls read the cache."""
    rules = get_preset(preset)
    cache = Path(cache)
    cache.mkdir(parents=True, exist_ok=True)
    blocks = []
    for first in range(0, n_matches, BLOCK):
        n = min(BLOCK, n_matches - first)
        path = cache / (_name(kind, preset, spec, f"seed{seed}", f"m{first}", n) + ".npz")
        if not path.exists():
            started = time.perf_counter()
            if kind == "pair":
                candidate, baseline = spec.split("/")
                data = _pair_block(rules, candidate, baseline, seed, first, n, threads)
            elif kind == "table":
                data = _table_block(rules, spec, seed, first, n, threads)
            else:
                raise ValueError(kind)
            tmp = path.with_suffix(".tmp.npz")
            np.savez(tmp, **data)
            tmp.rename(path)
            if log:
                log(f"  simulated {kind} {spec} seed {seed} matches {first}..{first + n - 1} "
                    f"in {time.perf_counter() - started:.0f}s")
        with np.load(path) as f:
            blocks.append({k: f[k] for k in f.files})
    axis = {k: (1 if blocks[0][k].ndim == 2 and kind == "pair" and k != "pool_max" else 0) for k in blocks[0]}
    return {k: np.concatenate([b[k] for b in blocks], axis=axis[k]) for k in blocks[0]}
