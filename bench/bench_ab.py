"""Interleaved A/B of the kernel core between two versions of the code: is a change faster, on a noisy machine?

    python bench/bench_ab.py --base HEAD~1                       # the working tree against its parent
    python bench/bench_ab.py --base v1 --head v2 --seat random --seat avoid --rounds 7

Each version runs from its own git worktree (a temporary one for a revision; ``--head`` defaults to the working
tree as it is) in its own process, so each keeps its own numba cache; an untimed first call compiles. Then every
round measures each version in turn (A, B, A, B...): deals per CPU-second of one thread of the kernel core
(``numba_engine.batch.core_runner``, ``parlett`` unless ``--rules``; with ``--threads N``, deals per second of wall time
on N threads), the median of ``--reps`` timed stretches. A shared
machine swings by ±20% from minute to minute, which a single pair of runs cannot tell from a change; the ratio of
the two versions within each round, and its median over the rounds, can. Not part of the test suite.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

MEASURE = """
import json, statistics, sys, time
try:
    from reversis_sim.numba_engine.batch import core_runner
except ImportError:  # a revision from before the numba engine's package was named so
    from reversis_sim.engine.batch import core_runner
from reversis_sim.policies import parse_seats
from reversis_sim.rules import get_preset
rules, seats, reps, secs = sys.argv[1], sys.argv[2].split(","), int(sys.argv[3]), float(sys.argv[4])
threads = int(sys.argv[5])
cores = {s: core_runner(get_preset(rules), parse_seats([s], get_preset(rules).n_seats), seed=0, n_matches=2000)
         for s in seats}
for run in cores.values():
    run(threads)
out = {}
for s, run in cores.items():
    rates = []
    for _ in range(reps):
        t, c, n = time.perf_counter(), time.thread_time(), 0
        while time.perf_counter() - t < secs:
            n += run(threads)
        rates.append(n / ((time.thread_time() - c) if threads == 1 else (time.perf_counter() - t)))
    out[s] = statistics.median(rates)
print(json.dumps(out))
"""


def measure(tree: Path, args) -> dict[str, float]:
    r = subprocess.run([sys.executable, "-c", MEASURE, args.rules, ",".join(args.seat), str(args.reps),
                        str(args.secs), str(args.threads)], cwd=tree, capture_output=True, text=True,
                       env={**os.environ, "PYTHONPATH": str(tree)})
    if r.returncode:
        sys.exit(f"measuring {tree} failed (a revision older than engine.batch.core_runner cannot be measured):\n"
                 f"{r.stderr.strip()[-2000:]}")
    return json.loads(r.stdout.strip().splitlines()[-1])


def worktree(rev: str, into: Path) -> Path:
    path = into / rev.replace("/", "_").replace("~", "-").replace("^", "-")
    r = subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", "-q", str(path), rev],
                       capture_output=True, text=True)
    if r.returncode:
        sys.exit(f"cannot check out {rev!r}: {r.stderr.strip()}")
    return path


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--base", required=True, help="revision A (e.g. HEAD~1, a branch, a commit)")
    ap.add_argument("--head", default=None, help="revision B (default: the working tree as it is)")
    ap.add_argument("--seat", action="append", default=None, help="policy of all four seats (repeatable; "
                                                                  "default random and avoid)")
    ap.add_argument("--rules", default="parlett")
    ap.add_argument("--rounds", type=int, default=5, help="interleaved rounds (default 5)")
    ap.add_argument("--reps", type=int, default=3, help="timed stretches per measurement (default 3)")
    ap.add_argument("--secs", type=float, default=2.0, help="seconds per stretch (default 2)")
    ap.add_argument("--threads", type=int, default=1, help="threads of the kernel (default 1: deals per CPU-second "
                                                           "of the thread; more: deals per second of wall time)")
    args = ap.parse_args(argv)
    args.seat = args.seat or ["random", "avoid"]
    with tempfile.TemporaryDirectory(prefix="bench_ab_") as tmp:
        trees = {"A": worktree(args.base, Path(tmp)),
                 "B": worktree(args.head, Path(tmp)) if args.head else ROOT}
        try:
            for name, tree in trees.items():  # compile (or load) each version's kernels, untimed
                print(f"{name}: {args.base if name == 'A' else (args.head or 'working tree')} ({tree}) ...",
                      file=sys.stderr, flush=True)
                measure(tree, argparse.Namespace(**{**vars(args), "reps": 1, "secs": 0.2}))
            rates = {name: [] for name in trees}
            for k in range(args.rounds):
                for name, tree in trees.items():
                    rates[name].append(measure(tree, args))
                print(f"round {k + 1}/{args.rounds}: " + ", ".join(
                    f"{s} B/A {rates['B'][-1][s] / rates['A'][-1][s]:.2f}" for s in args.seat), file=sys.stderr,
                      flush=True)
        finally:
            for tree in trees.values():
                if tree != ROOT:
                    subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(tree)],
                                   capture_output=True)
    what = "one thread, deals per CPU-second" if args.threads == 1 else f"{args.threads} threads, deals per second"
    print(f"{args.rules}, kernel core, {what}; {args.rounds} interleaved rounds")
    print(f"{'seats':<10}{'A median':>12}{'B median':>12}{'B/A median':>12}   B/A by round")
    for s in args.seat:
        a = [r[s] for r in rates["A"]]
        b = [r[s] for r in rates["B"]]
        ratios = [y / x for x, y in zip(a, b)]
        print(f"{s:<10}{statistics.median(a):>12,.0f}{statistics.median(b):>12,.0f}"
              f"{statistics.median(ratios):>12.3f}   {' '.join(f'{x:.2f}' for x in ratios)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
