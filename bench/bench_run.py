"""End-to-end benchmarks of a run folder: simulate-and-write rate against the engine's own rate, peak
memory for growing runs, and the time of the three headline summaries over a large run.

    python bench/bench_run.py                              # 1M and 20M deals, queries over the 20M run (minutes)
    python bench/bench_run.py --sizes 240000 1200000 --query-size 1200000

Each simulation runs in a child process (``reversis-sim simulate``), so its peak resident memory is measured
alone (``getrusage`` of the children, a running maximum: sizes go in increasing order, and the engine-alone rate
is measured last, in this process, so that its arrays are not counted in a forked child). Not part of the suite.
"""

from __future__ import annotations

import argparse
import json
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def simulate(out: Path, deals: int, seat: str, seed: int) -> dict:
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    t0 = time.perf_counter()
    subprocess.run([sys.executable, "-m", "reversis_sim", "simulate", "--seat", seat, "--deals", str(deals),
                    "--seed", str(seed), "--out", str(out), "--force", "--quiet", "--no-figures", "--format", "json"],
                   check=True, capture_output=True)
    wall = time.perf_counter() - t0
    peak_kb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    return {"deals": deals, "wall_s": wall, "end_to_end_deals_per_s": deals / wall,
            "peak_rss_mb": peak_kb / 1024, "peak_rss_grew": peak_kb > before}


def engine_rate(deals: int, seat: str) -> float:
    from reversis_sim.engines import get_engine
    from reversis_sim.policies import parse_seats
    from reversis_sim.rules import PARLETT

    seats = parse_seats([seat])
    fast = get_engine("numba")
    fast.columns(PARLETT, seats, seed=0, first_match=0, n_matches=10)
    n = -(-min(deals, 1_200_000) // 12)
    t0 = time.perf_counter()
    fast.columns(PARLETT, seats, seed=0, first_match=0, n_matches=n)
    return n * 12 / (time.perf_counter() - t0)


def queries(out: Path) -> dict:
    from reversis_sim.analysis import fish_by, load_run, quinola_risk, reversis_rates

    timings = {}
    _, lf = load_run(out, batched=True)  # as `reversis-sim analyze` reads it
    for name, fn in (("fish_per_seat_position_policy", lambda: [fish_by(lf, k) for k in ("seat", "position",
                                                                                         "policy")]),
                     ("quinola_risk", lambda: quinola_risk(lf)),
                     ("reversis_rates", lambda: reversis_rates(lf))):
        t0 = time.perf_counter()
        fn()
        timings[name + "_s"] = time.perf_counter() - t0
    timings["all_three_s"] = sum(timings.values())
    return timings


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sizes", type=int, nargs="+", default=[1_000_000, 20_000_000])
    ap.add_argument("--query-size", type=int, default=10_000_000)
    ap.add_argument("--seat", default="avoid")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    result = {"seat": args.seat, "runs": []}
    tmp = Path(tempfile.mkdtemp(prefix="reversis-bench-"))
    try:
        for deals in args.sizes:
            out = tmp / f"run{deals}"
            result["runs"].append(simulate(out, deals, args.seat, 1))
            if deals == args.query_size:
                result["queries"] = {"deals": deals, **queries(out)}
            shutil.rmtree(out)
        if "queries" not in result:
            out = tmp / "query"
            simulate(out, args.query_size, args.seat, 2)
            result["queries"] = {"deals": args.query_size, **queries(out)}
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    # last: the parent's own big arrays would otherwise be counted in the forked children's peak RSS
    result["engine_deals_per_s"] = engine_rate(max(args.sizes), args.seat)
    if args.json:
        print(json.dumps(result, indent=2))
        return 0
    print(f"engine alone ({args.seat}, all threads): {result['engine_deals_per_s']:,.0f} deals/s")
    for r in result["runs"]:
        print(f"{r['deals']:>12,} deals: {r['wall_s']:7.1f} s end to end = {r['end_to_end_deals_per_s']:,.0f} "
              f"deals/s; peak RSS {r['peak_rss_mb']:,.0f} MB")
    q = result["queries"]
    print(f"queries over {q['deals']:,} deals: fish by seat/position/policy {q['fish_per_seat_position_policy_s']:.2f}"
          f" s, Quinola risk {q['quinola_risk_s']:.2f} s, reversis rates {q['reversis_rates_s']:.2f} s; "
          f"all three {q['all_three_s']:.2f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
