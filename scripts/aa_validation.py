"""A/A validation of the duplicate comparison: a policy against itself, many times, must be "significant" at
``alpha`` in about ``alpha`` of the comparisons, and the 95% intervals must cover the true difference 0 about 95%
of the time.

    python scripts/aa_validation.py                                  # 200 comparisons, numba engine
    python scripts/aa_validation.py --engine reference --n-matches 30
    python scripts/aa_validation.py --quick --format json            # seconds; what the test suite runs

Comparison ``i`` runs :func:`reversis_sim.compare.compare` of ``--policy`` against itself on run seed
``--seed0 + i`` (a fresh set of matches each time, so the comparisons are independent). Two modes:

- ``paired`` (the real A/A, the default): both arms play the SAME cards, but the seat under test draws its policy
  randomness from its own seed (``policy_seed_offsets = (10**6, 2 * 10**6)``), so the arms are two independent
  realisations of the same policy, exactly as a candidate and a baseline differ in a real comparison. Both engines
  key a seat's policy stream by a seed of its own (``policy_seeds``, see docs/statistics.md, "A/A validation").
- ``unpaired``: the baseline arm plays run seed ``seed + 10**6`` (other cards AND other policy randomness).
  It validates the t-test and intervals on match-level data, but not the pairing.

Reported: the false-positive rate (p < alpha) with its Wilson interval and the central 95% band of
Binomial(n, alpha) / n (the range an honest test lands in 95% of the time), the coverage of the intervals of 0
with the same band around ``level`` (for the t-test, coverage = 1 - false-positive rate when alpha = 1 - level,
so they pass or fail together), and a Kolmogorov-Smirnov test of the p-values against the uniform distribution.
Exit code 1 when the false-positive rate or the coverage falls outside its band.
"""

from __future__ import annotations

import argparse
import json
import sys
import time

import numpy as np
from scipy import stats as st

from reversis_sim.analysis.stats import wilson_interval
from reversis_sim.compare import compare
from reversis_sim.rules import get_preset

OFFSETS = (10**6, 2 * 10**6)
"""Policy-seed offsets of the seat under test (candidate arm, baseline arm) in paired mode."""
UNPAIRED_OFFSET = 10**6
"""Run-seed offset of the baseline arm in unpaired mode."""
QUICK = {"n_comparisons": 100, "n_matches": 20, "match_deals": 4}
"""``--quick`` settings (seconds on the numba engine)."""


def band(n: int, p: float, level: float = 0.95) -> tuple[float, float]:
    """Central ``level`` band of Binomial(n, p) / n."""
    low, high = st.binom.interval(level, n, p)
    return float(low) / n, float(high) / n


def run(args: argparse.Namespace, log=print) -> dict:
    if args.n_comparisons >= OFFSETS[0]:
        raise SystemExit(f"--n-comparisons must stay below {OFFSETS[0]} (the seed offsets would overlap)")
    rules = get_preset(args.preset)
    mode = args.mode
    level = 1.0 - args.alpha
    p_values, lows, highs, diffs, vrs = [], [], [], [], []
    n_deals = 0
    start = time.perf_counter()
    for i in range(args.n_comparisons):
        seed = args.seed0 + i
        kw = ({"policy_seed_offsets": OFFSETS} if mode == "paired" else {"baseline_seed": seed + UNPAIRED_OFFSET})
        r = compare(rules, args.policy, args.policy, n_matches=args.n_matches, match_deals=args.match_deals,
                    seed=seed, engine=args.engine, threads=args.threads, level=level, **kw)
        p_values.append(r.p_value)
        lows.append(r.ci_low)
        highs.append(r.ci_high)
        diffs.append(r.mean_difference)
        vrs.append(r.variance_reduction)
        n_deals += r.n_deals
        if args.progress and (i + 1) % max(1, args.n_comparisons // 10) == 0:
            log(f"  {i + 1}/{args.n_comparisons} comparisons, {time.perf_counter() - start:.1f}s", file=sys.stderr)
    p = np.asarray(p_values)
    n = p.size
    k_fp = int(np.sum(p < args.alpha))
    covered = int(np.sum((np.asarray(lows) <= 0.0) & (np.asarray(highs) >= 0.0)))
    fp_band, cov_band = band(n, args.alpha), band(n, level)
    fp_low, fp_high = wilson_interval(k_fp, n)
    cov_low, cov_high = wilson_interval(covered, n)
    fpr, coverage = k_fp / n, covered / n
    fpr_ok = fp_band[0] <= fpr <= fp_band[1]
    coverage_ok = cov_band[0] <= coverage <= cov_band[1]
    finite_vr = np.asarray([v for v in vrs if np.isfinite(v)])
    return {
        "mode": mode, "engine": args.engine, "preset": rules.name, "policy": args.policy,
        "n_comparisons": n, "n_matches": args.n_matches, "match_deals": args.match_deals or rules.match_deals,
        "n_deals": n_deals, "seconds": time.perf_counter() - start, "alpha": args.alpha, "level": level,
        "false_positives": k_fp, "false_positive_rate": fpr, "false_positive_rate_ci": [float(fp_low), float(fp_high)],
        "false_positive_band": list(fp_band), "false_positive_rate_ok": fpr_ok,
        "covered": covered, "coverage": coverage, "coverage_ci": [float(cov_low), float(cov_high)],
        "coverage_band": list(cov_band), "coverage_ok": coverage_ok,
        "ks_uniform_p_value": float(st.kstest(p, "uniform").pvalue),
        "p_value_deciles": np.histogram(p, bins=10, range=(0.0, 1.0))[0].tolist(),
        "mean_difference_mean": float(np.mean(diffs)), "mean_difference_sd": float(np.std(diffs, ddof=1)),
        "variance_reduction_median": float(np.median(finite_vr)) if finite_vr.size else None,
        "pass": bool(fpr_ok and coverage_ok),
    }


def text(s: dict) -> str:
    lines = [
        f"A/A validation ({s['mode']}): {s['policy']} vs itself, {s['preset']}, engine {s['engine']}",
        f"  {s['n_comparisons']} comparisons x {s['n_matches']} matches x {s['match_deals']} deals "
        f"({s['n_deals']} deals simulated, {s['seconds']:.1f}s)",
        f"  false positives at alpha={s['alpha']}: {s['false_positives']}/{s['n_comparisons']} = "
        f"{s['false_positive_rate']:.3f} (Wilson 95% {s['false_positive_rate_ci'][0]:.3f}-"
        f"{s['false_positive_rate_ci'][1]:.3f}); an honest test lands in {s['false_positive_band'][0]:.3f}-"
        f"{s['false_positive_band'][1]:.3f} 95% of the time: {'OK' if s['false_positive_rate_ok'] else 'OUT'}",
        f"  coverage of 0 by the {s['level']:.0%} intervals: {s['covered']}/{s['n_comparisons']} = "
        f"{s['coverage']:.3f} (band {s['coverage_band'][0]:.3f}-{s['coverage_band'][1]:.3f}): "
        f"{'OK' if s['coverage_ok'] else 'OUT'}",
        f"  p-values vs uniform: KS p = {s['ks_uniform_p_value']:.3f}, counts by decile {s['p_value_deciles']}",
        f"  median variance reduction (unpaired / paired variance): {s['variance_reduction_median']}",
        f"  verdict: {'PASS' if s['pass'] else 'FAIL'}",
    ]
    return "\n".join(lines)


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--preset", default="parlett")
    p.add_argument("--policy", default="random", help="policy spec compared with itself")
    p.add_argument("--n-comparisons", type=int, default=200)
    p.add_argument("--n-matches", type=int, default=100, help="matches per comparison")
    p.add_argument("--match-deals", type=int, default=None, help="deals per match (default: the preset's)")
    p.add_argument("--engine", choices=("numba", "reference"), default="numba")
    p.add_argument("--threads", type=int, default=None)
    p.add_argument("--mode", choices=("paired", "unpaired"), default="paired")
    p.add_argument("--alpha", type=float, default=0.05)
    p.add_argument("--seed0", type=int, default=0, help="run seed of the first comparison")
    p.add_argument("--quick", action="store_true",
                   help=f"small and fast (test suite): {', '.join(f'{k}={v}' for k, v in QUICK.items())}")
    p.add_argument("--format", choices=("text", "json"), default="text")
    p.add_argument("--progress", action="store_true", help="print progress to stderr")
    return p


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    if args.quick:
        for k, v in QUICK.items():
            setattr(args, k, v)
    summary = run(args)
    print(json.dumps(summary, indent=2) if args.format == "json" else text(summary))
    return 0 if summary["pass"] else 1


if __name__ == "__main__":
    sys.exit(main())
