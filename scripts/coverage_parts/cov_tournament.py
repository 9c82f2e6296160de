"""The ``tournament`` part of ``scripts/interval_coverage.py``: a tournament's payoffs and ranking at its default
size (48,000 deals = 4,000 matches), the pool-path estimator against the plain t interval on the same blocks.

The truth is the pool-path estimate of a large tournament on seed 1001, played as consecutive tournaments of
``TRUTH_STEP`` matches (their estimates averaged: each is the estimate of the same quantity, and the memory of one
stays bounded); the blocks are tournaments of ``size`` matches on seed 2002, block ``b`` playing matches
``b * size ..``. Cached as JSON under ``--cache``.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

import numpy as np
from cov_common import BLOCK_SEED, TRUTH_SEED, judge, line  # noqa: E402
from scipy import stats as st

from reversis_sim.compare.tournament import tournament  # noqa: E402

POLICIES = ("avoid", "tuned")
"""The pair whose differences are the most skewed (tuned vs avoid, docs/statistics.md §9)."""
TRUTH_MATCHES, TRUTH_STEP = 400_000, 50_000
SIZE, N_BLOCKS = 4_000, 100


def _estimates(t) -> dict:
    """Per row (payoff cells, then the ranking's rows): the plain and the pool-path (mean, se, n)."""
    k = len(t.policies)
    out = {}
    for est, vals in (("plain", t.values), ("pool_path", t.adjusted)):
        rows = {f"{t.policies[i]} v {t.policies[j]}": vals[i, j] for i in range(k) for j in range(k)}
        rows.update({f"rank {t.policies[i]}": vals[i].mean(axis=0) for i in range(k)})
        out[est] = {r: (float(v.mean()), float(v.std(ddof=1) / np.sqrt(v.size)), int(v.size)) for r, v in rows.items()}
    return out


def _cached(path: Path, make):
    if path.exists():
        return json.loads(path.read_text())
    value = make()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(value))
    return value


def tournament_rows(cache: Path, log=print) -> list[dict]:
    root = Path(cache) / "tournament"

    def play(seed, first, n):
        started = time.perf_counter()
        t = tournament("parlett", list(POLICIES), n_matches=n, seed=seed, first_match=first, threads=1)
        if t.adjusted is None:
            raise RuntimeError(f"the pool-path estimator does not hold here: {t.pool_path_note}")
        log(f"  tournament seed {seed} matches {first:,}+{n:,} in {time.perf_counter() - started:.0f}s")
        return _estimates(t)

    steps = [_cached(root / f"truth_{TRUTH_SEED}_{s}_{TRUTH_STEP}.json", lambda s=s: play(TRUTH_SEED, s, TRUTH_STEP))
             for s in range(0, TRUTH_MATCHES, TRUTH_STEP)]
    truth = {r: float(np.mean([s["pool_path"][r][0] for s in steps])) for r in steps[0]["pool_path"]}
    truth_se = {r: float(np.std([s["pool_path"][r][0] for s in steps], ddof=1) / np.sqrt(len(steps))) for r in truth}
    plain_truth = {r: float(np.mean([s["plain"][r][0] for s in steps])) for r in truth}
    for r in truth:
        log(f"  truth {r}: pool-path {truth[r]:+.4f} (se {truth_se[r]:.4f}), plain {plain_truth[r]:+.4f}")
    blocks = [_cached(root / f"block_{BLOCK_SEED}_{b}_{SIZE}.json", lambda b=b: play(BLOCK_SEED, b * SIZE, SIZE))
              for b in range(N_BLOCKS)]
    rows = []
    names = list(truth)
    for est in ("plain", "pool_path"):
        mean = np.array([[b[est][r][0] for r in names] for b in blocks])
        se = np.array([[b[est][r][1] for r in names] for b in blocks])
        q = st.t.ppf(0.975, SIZE - 1)
        low, high = mean - q * se, mean + q * se
        tv = np.array([truth[r] for r in names])
        for label, cols in (("payoff", [i for i, r in enumerate(names) if not r.startswith("rank")]),
                            ("ranking", [i for i, r in enumerate(names) if r.startswith("rank")])):
            r = judge(low[:, cols], high[:, cols], tv[None, cols])
            bad = [f"{names[c]}: {p['verdict']} ({p['above']}+{p['below']} of {p['K']})"
                   for c in cols for p in [judge(low[:, c], high[:, c], tv[c])] if not p["holds"]]
            rows.append({"part": "tournament", "policies": list(POLICIES), "size": SIZE, "table": label,
                         "estimator": est, **r, "failing_rows": bad})
            log(line(f"  {'/'.join(POLICIES)} n={SIZE} {label} {est}", r) + (f"  rows failing: {bad}" if bad else ""))
    return rows
