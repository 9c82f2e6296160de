"""What every part of the coverage harness shares: the seeds, and an interval judged against a truth."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from scipy import stats as st

ROOT = Path(__file__).resolve().parents[2]

TRUTH_SEED, BLOCK_SEED = 1001, 2002
"""The truth runs' seed, and the seed of the small runs (blocks), which the truth never uses."""


def band(K: int, p: float) -> tuple[float, float]:
    """Central 95% band of Binomial(K, p): (low, high) counts."""
    low, high = st.binom.interval(0.95, K, p)
    return float(low), float(high)


def judge(low, high, truth, printed=None) -> dict:
    """The coverage of intervals ``[low, high]`` (arrays, the same shape) of ``truth`` (broadcast), counting only
    the ``printed`` ones (all by default)."""
    low, high = np.asarray(low, float), np.asarray(high, float)
    truth = np.broadcast_to(np.asarray(truth, float), low.shape)
    keep = np.ones(low.shape, bool) if printed is None else np.asarray(printed, bool)
    low, high, truth = low[keep], high[keep], truth[keep]
    K = int(low.size)
    if K == 0:
        return {"K": 0, "verdict": "none printed"}
    above, below = int(np.sum(truth > high)), int(np.sum(truth < low))
    coverage = (K - above - below) / K
    cov_low, cov_high = band(K, 0.95)
    side_high = band(K, 0.025)[1]
    fails = _fails(K, above, below, cov_low, side_high)
    verdict = ", ".join(fails) if fails else ("holds*" if K - above - below > cov_high else "holds")
    return {"K": K, "coverage": coverage, "band": [cov_low / K, cov_high / K], "above": above, "below": below,
            "side_band_high": side_high, "width": float(np.mean(high - low)), "verdict": verdict,
            "holds": not fails}


def _fails(K: int, above: int, below: int, cov_low: float, side_high: float) -> list[str]:
    """What a count of misses fails of its bands: the coverage's lower bound (in rows covered) and a side's upper."""
    return [w for w, bad in (("too narrow", K - above - below < cov_low), ("misses above", above > side_high),
                             ("misses below", below > side_high)) if bad]


def judge_blocks(low, high, truth, judged) -> dict:
    """:func:`judge` for intervals of several rows of the same blocks (arrays (blocks, rows)), with bands that allow
    for the rows of a block being correlated (views of the same deals: a block whose estimates came out low misses
    on several rows at once), so that the count of misses spreads more than a binomial of independent rows. Each
    side's design effect is the variance of the blocks' counts of misses over the binomial variance of their judged
    rows (at least 1); the bands are the binomial bands of ``K / deff`` trials, scaled back by ``deff``."""
    low, high = np.asarray(low, float), np.asarray(high, float)
    truth = np.broadcast_to(np.asarray(truth, float), low.shape)
    keep = np.asarray(judged, bool)
    rows = keep.sum(axis=1)
    above = ((truth > high) & keep).sum(axis=1)
    below = ((truth < low) & keep).sum(axis=1)
    K = int(rows.sum())
    if K == 0 or len(rows) < 2:
        return {"K": K, "verdict": "none judged", "holds": True}

    def deff(counts, p):
        return max(float(np.var(counts, ddof=1)) / float(np.mean(rows * p * (1 - p))), 1.0)

    d_side, d_all = max(deff(above, 0.025), deff(below, 0.025)), deff(above + below, 0.05)
    side_high = st.binom.interval(0.95, max(int(round(K / d_side)), 1), 0.025)[1] * d_side
    cov_low = K - st.binom.interval(0.95, max(int(round(K / d_all)), 1), 0.05)[1] * d_all
    n_above, n_below = int(above.sum()), int(below.sum())
    fails = _fails(K, n_above, n_below, cov_low, side_high)
    return {"K": K, "blocks": len(rows), "deff_side": d_side, "deff_both": d_all, "side_band_high": side_high,
            "coverage_band_low": cov_low / K, "above": n_above, "below": n_below,
            "verdict": ", ".join(fails) if fails else "holds", "holds": not fails}


def line_blocks(label: str, r: dict) -> str:
    if r["K"] == 0 or "deff_side" not in r:
        return f"{label:<46} {r['verdict']:>12}"
    return (f"{label:<46} {r['blocks']} blocks, design effect {r['deff_side']:.2f} a side, {r['deff_both']:.2f} "
            f"both: above {r['above']} below {r['below']} (<= {r['side_band_high']:.0f}), coverage band from "
            f"{r['coverage_band_low']:.3f}  {r['verdict']}")


def line(label: str, r: dict) -> str:
    if not r["K"]:
        return f"{label:<46} {'none printed':>12}"
    return (f"{label:<46} K={r['K']:>5} cov {r['coverage']:.3f} [{r['band'][0]:.3f}-{r['band'][1]:.3f}] "
            f"above {r['above']:>4} below {r['below']:>4} (<= {r['side_band_high']:.0f}) width {r['width']:9.3f}  "
            f"{r['verdict']}")
