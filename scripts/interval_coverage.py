"""Coverage of the toolkit's 95% intervals where Reversis is wild: truth runs against many small runs.

    python scripts/interval_coverage.py compare     # compare's intervals, 4 pairs x sizes x methods (~40 min cold)
    python scripts/interval_coverage.py runs        # every interval of simulate's summary and of analyze (~30 min cold)
    python scripts/interval_coverage.py claims      # tournament and sweep claims after Holm (~30 min cold)
    python scripts/interval_coverage.py gsprt       # the sequential test's two error rates (seconds, compare cached)
    python scripts/interval_coverage.py quick       # ~20 s: the seeded check of tests/test_coverage.py
    python scripts/interval_coverage.py path        # the pool-path estimator against the plain t (~10 min cold)
    python scripts/interval_coverage.py tournament  # a default tournament's payoffs and ranking, both estimators
    python scripts/interval_coverage.py skew        # skewness-corrected pool-path intervals of the Quinola's cost
                                                    # and fish by reason against the t interval, on path's runs

As a user measures it: for each configuration one large *truth* run on seed 1001, then K small runs of N matches on
another seed; an interval *holds* when the truth lies inside it. Matches of one seed are independent (every draw is
keyed by (seed, match, deal, ...)), so the K small runs are K disjoint blocks of one K * N-match simulation on
seed 2002, which the truth never uses, and every method is judged on the same blocks. The simulations are cached
under ``--cache`` (default ``.coverage-cache/``), so a second run of the harness costs seconds.

Reported per configuration, size and method: the intervals judged (K), how many held the truth (coverage) with the
central 95% band of Binomial(K, 0.95) / K, the misses above (truth above the interval) and below, each against the
upper end of the band of Binomial(K, 0.025), and the mean width. Verdicts: ``holds`` (coverage not below its band,
neither side above its band), ``holds*`` (it holds, and covers more than the band: conservative), or what fails.
``printed`` says whether the toolkit prints the interval at that size (:mod:`reversis_sim.analysis.intervals`).
docs/statistics.md §9 has the tables of record.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
# this file is "coverage", the name of the package numba asks for when it loads: keep its folder off the path
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != HERE]
sys.path.insert(0, str(HERE / "coverage_parts"))

import cov_common  # noqa: E402, F401  (puts the repository on the path)


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("part", choices=("compare", "runs", "claims", "gsprt", "quick", "path", "tournament", "skew"))
    p.add_argument("--cache", type=Path, default=Path(".coverage-cache"))
    p.add_argument("--json", type=Path, default=None, help="also write the rows as JSON here")
    p.add_argument("--xl", action="store_true", help="runs: the largest sizes only (64,000 and 128,000 matches)")
    p.add_argument("--block-seeds", default=None,
                   help="path, skew: the seeds of the block runs, comma-separated (default 2002,2003); tournament: "
                        "the seed of its blocks (default 2002)")
    p.add_argument("--sizes", default=None,
                   help="path, skew: the block sizes judged in matches, comma-separated (default "
                        "1000,2000,10000,100000); tournament: one size (default 4000)")
    p.add_argument("--blocks", type=int, default=None, help="tournament: how many blocks (default 100)")
    p.add_argument("--pooled-truth", action="store_true",
                   help="path: judge each block run's blocks against the truth run and the other block runs pooled "
                        "(leave one out), not the truth run alone")
    p.add_argument("--seating", default=None,
                   help="path, skew: one seating only ('avoid', 'random|avoid|tuned|saver')")
    args = p.parse_args(argv)
    log = lambda m: print(m, flush=True)  # noqa: E731
    if args.part in ("compare", "gsprt", "quick"):
        import cov_compare

        rows = {"compare": cov_compare.compare_rows, "gsprt": cov_compare.gsprt_rows,
                "quick": cov_compare.quick}[args.part](args.cache, log=log)
    elif args.part == "path":
        import cov_path

        if args.block_seeds:
            cov_path.BLOCK_SEEDS = tuple(int(x) for x in args.block_seeds.split(","))
        cov_path.POOLED_TRUTH = args.pooled_truth
        seatings = cov_path.SEATINGS if args.seating is None else {args.seating: cov_path.SEATINGS[args.seating]}
        sizes = cov_path.SIZES if args.sizes is None else tuple(int(x) for x in args.sizes.split(","))
        rows = cov_path.path_rows(args.cache, seatings=seatings, sizes=sizes, log=log)
    elif args.part == "skew":
        import cov_skew

        seeds = cov_skew.BLOCK_SEEDS if args.block_seeds is None else tuple(int(x) for x in args.block_seeds.split(","))
        seatings = cov_skew.SEATINGS if args.seating is None else {args.seating: cov_skew.SEATINGS[args.seating]}
        sizes = cov_skew.SIZES if args.sizes is None else tuple(int(x) for x in args.sizes.split(","))
        rows = cov_skew.skew_rows(args.cache, seatings=seatings, seeds=seeds, sizes=sizes, log=log)
    elif args.part == "tournament":
        import cov_tournament

        if args.block_seeds:
            cov_tournament.BLOCK_SEED = int(args.block_seeds)
        if args.sizes:
            cov_tournament.SIZE = int(args.sizes)
        if args.blocks:
            cov_tournament.N_BLOCKS = args.blocks
        rows = cov_tournament.tournament_rows(args.cache, log=log)
    else:
        import cov_report

        if args.part == "runs" and args.xl:
            rows = cov_report.run_rows(args.cache, cov_report.XL_TABLES, cov_report.XL_FOLDERS, log=log)
        else:
            rows = {"runs": cov_report.run_rows, "claims": cov_report.claim_rows}[args.part](args.cache, log=log)
    if args.json:
        args.json.write_text(json.dumps(rows, indent=1, default=str))
    return 0


if __name__ == "__main__":
    sys.exit(main())
