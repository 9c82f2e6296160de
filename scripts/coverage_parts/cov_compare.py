"""The ``compare``, ``gsprt`` and ``quick`` parts of ``scripts/interval_coverage.py``: compare's intervals by pair,
size and method, the sequential test's error rates, and the seeded check of the test suite."""

from __future__ import annotations

from pathlib import Path

import cov_data as data
import cov_methods as methods
import numpy as np
from cov_common import BLOCK_SEED, TRUTH_SEED, band, judge, line
from scipy import stats as st

from reversis_sim.analysis.intervals import n_needed
from reversis_sim.analysis.sequential import MARGIN, MIN_UNITS, gsprt_bounds, gsprt_llr

PAIRS = {"tuned/avoid": (1_000_000, 1_600_000), "saver/avoid": (1_000_000, 1_600_000),
         "random/avoid": (1_000_000, 1_600_000),
         "search:worlds=4,race=0,first=4,start=0,rollout=tuned/tuned": (30_000, 20_000)}  # the search before 0.2.0
"""candidate/baseline (the field is the baseline) -> (truth matches, block matches)."""
SIZES = (50, 200, 1000, 2000, 4000, 8000)
SEARCH_SIZES = (50, 200, 500)


# ---------------------------------------------------------------------------------------------------------------
# compare


def differences(cache: Path, pair: str, seed: int, n_matches: int, log=print) -> tuple[np.ndarray, np.ndarray]:
    """Per-match differences of a pair: the compare's (mean over rotations), float64 (n,), and each rotation's,
    (S, n)."""
    d = data.load(cache, "pair", pair, seed, n_matches, log=log)
    return d["a"].mean(axis=0) - d["b"].mean(axis=0), d["a"] - d["b"]


def compare_rows(cache: Path, pairs=PAIRS, sizes=SIZES, names=tuple(methods.METHODS), boot_samples: int = 200,
                 log=print) -> list[dict]:
    rows = []
    for pair, (n_truth, n_blocks) in pairs.items():
        truth_d, truth_rot = differences(cache, pair, TRUTH_SEED, n_truth, log)
        d, rot = differences(cache, pair, BLOCK_SEED, n_blocks, log)
        truth = float(truth_d.mean())
        log(f"{pair}: truth {truth:+.3f} (se {truth_d.std(ddof=1) / np.sqrt(truth_d.size):.3f}, skewness "
            f"{st.skew(truth_d):.1f}, excess kurtosis {st.kurtosis(truth_d):.0f}) from {n_truth:,} matches")
        for n in (SEARCH_SIZES if pair.startswith("search") else sizes):
            K = d.size // n
            if K < 20:
                continue
            x = d[:K * n].reshape(K, n)
            for name in names:
                sample = x[:boot_samples] if name in methods.BOOTSTRAPS else x
                low, high = methods.METHODS[name](sample)
                r = judge(low, high, truth)
                rows.append({"part": "compare", "pair": pair, "size": n, "method": name,
                             "printed": n_needed(n, "difference") == 0, **r})
                log(line(f"  {pair} n={n} {name}", r))
            xs = rot[:, :K * n].reshape(rot.shape[0], K, n)  # by_rotation: one seat under test at a time
            bounds = [methods.t(xs[s]) for s in range(rot.shape[0])]
            r = judge(np.stack([b[0] for b in bounds]), np.stack([b[1] for b in bounds]),
                      truth_rot.mean(axis=1)[:, None])
            rows.append({"part": "compare", "pair": pair, "size": n, "method": "t by rotation",
                         "printed": n_needed(n, "difference") == 0, **r})
            log(line(f"  {pair} n={n} t, one rotation", r))
    return rows


# ---------------------------------------------------------------------------------------------------------------
# the sequential test


def gsprt_runs(pool: np.ndarray, delta: float, R: int, rng, *, batch: int, max_matches: int, min_units: int,
               margin: float, alpha: float = 0.05, beta: float = 0.05) -> tuple[np.ndarray, np.ndarray]:
    """``R`` sequential tests as ``sprt_compare`` runs them (batches of ``batch`` matches, no decision before
    ``min_units``, Wald's bounds for ``margin`` times ``alpha`` and ``beta``: :class:`~reversis_sim.analysis.
    sequential.GSPRT`'s arithmetic, vectorised over the tests), each on matches drawn from ``pool``: decisions (+1
    accept H1, -1 accept H0, 0 inconclusive) and matches used."""
    lower, upper = gsprt_bounds(margin * alpha, margin * beta)
    decision, used = np.zeros(R, int), np.full(R, max_matches)
    s1, s2 = np.zeros(R), np.zeros(R)
    live = np.ones(R, bool)
    n = 0
    while n < max_matches and live.any():
        k = min(batch, max_matches - n)
        idx = np.flatnonzero(live)
        x = pool[rng.integers(0, pool.size, (idx.size, k))]
        s1[idx] += x.sum(axis=1)
        s2[idx] += (x * x).sum(axis=1)
        n += k
        if n < min_units:
            continue
        mean = s1 / n
        llr = gsprt_llr(n, mean, (s2 - n * mean * mean) / (n - 1), delta)
        for sign, hit in ((1, llr >= upper), (-1, llr <= lower)):
            hit &= live
            decision[hit], used[hit] = sign, n
            live &= ~hit
    return decision, used


GSPRT_SETTINGS = ((30, 1.0), (1000, 1.0), (2000, 1.0), (MIN_UNITS, MARGIN))
"""(warm-up, margin) of the sequential tests judged: the old default (30 matches, Wald's bounds), longer warm-ups,
and the default now (:data:`~reversis_sim.analysis.sequential.MIN_UNITS`, :data:`~reversis_sim.analysis.
sequential.MARGIN`)."""


def gsprt_rows(cache: Path, pairs=("tuned/avoid", "saver/avoid", "random/avoid"), deltas=(0.015, 0.03, 0.05, 0.1),
               settings=GSPRT_SETTINGS, runs: int = 2000, batch: int = 500, max_matches: int = 150_000,
               log=print) -> list[dict]:
    """Both wrong-decision rates of the GSPRT (alpha = beta = 0.05) on each pair's real per-match differences:
    the tests draw their matches from every match of the truth and block runs, shifted so that their mean (the
    truth) is 0 (H0 holds: accepting H1 is wrong) or ``delta`` (H1 holds: accepting H0 is wrong). ``delta`` is in
    standard deviations of a match's difference. A right skew inflates the rate of accepting H0 wrongly; a left
    skew (the same pair with candidate and baseline swapped) gives the same two rates the other way round."""
    rows = []
    rng = np.random.default_rng(2024)
    for pair in pairs:
        n_truth, n_blocks = PAIRS[pair]
        pool = np.concatenate([differences(cache, pair, TRUTH_SEED, n_truth, log)[0],
                               differences(cache, pair, BLOCK_SEED, n_blocks, log)[0]])
        pool -= pool.mean()
        sd = float(pool.std())
        for rel in deltas:
            delta = rel * sd
            for floor, margin in settings:
                h0, n0 = gsprt_runs(pool, delta, runs, rng, batch=batch, max_matches=max_matches,
                                    min_units=floor, margin=margin)
                h1, n1 = gsprt_runs(pool + delta, delta, runs, rng, batch=batch, max_matches=max_matches,
                                    min_units=floor, margin=margin)
                high = band(runs, 0.05)[1]
                wrong_h1, wrong_h0 = int(np.sum(h0 == 1)), int(np.sum(h1 == -1))
                r = {"part": "gsprt", "pair": pair, "delta_sd": rel, "delta": delta, "min_units": floor,
                     "margin": margin, "batch": batch, "runs": runs, "wrong_h1": wrong_h1 / runs,
                     "wrong_h0": wrong_h0 / runs, "band_high": high / runs, "matches_h0": float(n0.mean()),
                     "matches_h1": float(n1.mean()), "inconclusive": float(np.mean(np.r_[h0, h1] == 0)),
                     "within_nominal": bool(wrong_h1 <= 0.05 * runs and wrong_h0 <= 0.05 * runs),
                     "holds": bool(wrong_h1 <= high and wrong_h0 <= high)}
                rows.append(r)
                log(f"  {pair} delta {rel} sd ({delta:5.2f}) warm-up {floor:>5} margin {margin}: wrong H1 "
                    f"{r['wrong_h1']:.3f}, wrong H0 {r['wrong_h0']:.3f} of {runs} (nominal 0.05, band <= "
                    f"{r['band_high']:.3f}); {r['matches_h0']:6.0f} / {r['matches_h1']:6.0f} matches  "
                    f"{'within 5%' if r['within_nominal'] else ('in band' if r['holds'] else 'FAILS')}")
    return rows


# ---------------------------------------------------------------------------------------------------------------
# the quick, seeded version (tests/test_coverage.py)


def quick(cache: Path | None = None, pair: str = "tuned/avoid", seed: int = 77, n_matches: int = 48_000,
          sizes=(50, 4000), log=print) -> dict:
    """One skewed pair, one seeded simulation of ``n_matches`` matches cut into blocks of each size; the truth of a
    block is the mean of every *other* block (independent of it). Returns the t interval's :func:`judge` by size,
    with whether the toolkit prints it there."""
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        d = differences(Path(cache or tmp), pair, seed, n_matches, log)[0]
    out = {}
    for n in sizes:
        K = d.size // n
        x = d[:K * n].reshape(K, n)
        sums = x.sum(axis=1)
        truth = (sums.sum() - sums) / (K * n - n)  # leave-one-block-out
        low, high = methods.t(x)
        out[n] = {**judge(low, high, truth), "printed": n_needed(n, "difference") == 0}
        log(line(f"{pair} n={n} t (seed {seed})", out[n]))
    return out
