"""Throughput of a run on a dask.distributed cluster against the threaded local run, measured in one process.

    python bench/bench_cluster.py                    # parlett, avoid, 480,000 deals; local:1 and local:2
    python bench/bench_cluster.py --deals 2400000 --seat random --workers 1 2 4

For each setting, a whole run is written to a temporary folder (``simulate --no-figures``): the local run on all
threads, then the same run with ``--scheduler local:N`` (the cluster started and its workers warmed beforehand,
not timed). Prints deals per second, the ratio to the local run, and the scheduler's overhead per chunk: a run of
chunks of a single match (almost no work) timed on the cluster, per chunk. Not part of the test suite.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

from reversis_sim.cluster import connect
from reversis_sim.engines import get_engine
from reversis_sim.policies import parse_seats
from reversis_sim.record import RunSpec
from reversis_sim.rules import get_preset
from reversis_sim.simulate import run


def timed_run(spec: RunSpec, cluster=None) -> float:
    with tempfile.TemporaryDirectory(prefix="reversis-bench-") as tmp:
        t0 = time.perf_counter()
        report = run(spec, Path(tmp) / "run", cluster=cluster)
        return report.n_deals_run / (time.perf_counter() - t0)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rules", default="parlett")
    ap.add_argument("--seat", default="avoid")
    ap.add_argument("--deals", type=int, default=480_000)
    ap.add_argument("--chunk-matches", type=int, default=2048)
    ap.add_argument("--workers", type=int, nargs="*", default=[1, 2])
    args = ap.parse_args(argv)
    rules = get_preset(args.rules)
    get_engine("numba").columns(rules, parse_seats([args.seat], rules.n_seats), seed=0, first_match=0, n_matches=1)
    spec = RunSpec.for_deals(rules, [args.seat], deals=args.deals, seed=0, chunk_matches=args.chunk_matches)
    local = timed_run(spec)
    print(f"{rules.name}, {args.seat}, {spec.n_matches * spec.match_deals:,} deals in {spec.n_chunks} chunks")
    print(f"{'run':<28}{'deals/s':>12}{'x local':>10}{'overhead/chunk':>18}")
    print(f"{'local, all threads':<28}{local:>12,.0f}{1:>10.2f}")
    for n in args.workers:
        with connect(f"local:{n}") as cluster:
            rate = timed_run(spec, cluster)
            tiny = RunSpec.for_deals(rules, [args.seat], deals=200 * rules.match_deals, seed=0, chunk_matches=1)
            t0 = time.perf_counter()
            with tempfile.TemporaryDirectory(prefix="reversis-bench-") as tmp:
                run(tiny, Path(tmp) / "run", cluster=cluster)
            per_chunk = (time.perf_counter() - t0) / tiny.n_chunks
        print(f"{f'cluster, local:{n}':<28}{rate:>12,.0f}{rate / local:>10.2f}{per_chunk * 1e3:>15.1f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
