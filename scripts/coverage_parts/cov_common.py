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
    fails = [w for w, bad in (("too narrow", K - above - below < cov_low), ("misses above", above > side_high),
                              ("misses below", below > side_high)) if bad]
    verdict = ", ".join(fails) if fails else ("holds*" if K - above - below > cov_high else "holds")
    return {"K": K, "coverage": coverage, "band": [cov_low / K, cov_high / K], "above": above, "below": below,
            "side_band_high": side_high, "width": float(np.mean(high - low)), "verdict": verdict,
            "holds": not fails}


def line(label: str, r: dict) -> str:
    if not r["K"]:
        return f"{label:<46} {'none printed':>12}"
    return (f"{label:<46} K={r['K']:>5} cov {r['coverage']:.3f} [{r['band'][0]:.3f}-{r['band'][1]:.3f}] "
            f"above {r['above']:>4} below {r['below']:>4} (<= {r['side_band_high']:.0f}) width {r['width']:9.3f}  "
            f"{r['verdict']}")
