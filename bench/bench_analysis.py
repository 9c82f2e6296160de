"""Analysis at scale: the three headline tables of a run folder (``fish_by`` seat, position and policy;
``quinola_risk``; ``reversis_rates``) by the one-pass scan (:mod:`reversis_sim.analysis.scan`), against the polars
path (lazy queries over batches of part files) on a sample of the same run.

    python bench/bench_analysis.py --deals 2000000            # simulate a run into a temporary folder, then time
    python bench/bench_analysis.py --run results/run100m --sample-chunks 400 --repeat 3

Every measurement runs in a child process, so its peak resident memory (``getrusage`` of that process) is its own;
the scan's worker processes (a run of 10M deals and more) report theirs apart (``workers``: the largest one; all of
them together hold at most ``--workers`` times that):
``headline`` (the three tables), its split (``fish`` alone, then with the Quinola sums, then with the reversis
counts: the scan reads them all in one pass, so a table's cost is what its columns add), ``analyze`` (every table
of ``reversis-sim analyze``, ``fish_by_reason`` included) and, on the first ``--sample-chunks`` parts, the polars
path table by table and the scan on the same parts. Timings on a shared machine are noisy: medians of
``--repeat`` runs, with the load average. Not part of the test suite.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

KINDS = ("headline", "fish", "fish+quinola", "fish+reversis", "analyze", "scan_sample", "polars_sample")


def child(kind: str, run: Path, sample_chunks: int, workers: int | None) -> dict:
    """One measurement in this process: wall seconds, deals covered, peak RSS."""
    import polars as pl

    from reversis_sim.analysis import analysis_tables, fish_by, quinola_risk, reversis_rates
    from reversis_sim.analysis.batches import Batches
    from reversis_sim.analysis.scan import scan_run
    from reversis_sim.record import completed_chunks, part_files, read_manifest

    manifest = read_manifest(run)
    chunks = list(completed_chunks(manifest))
    per_part = manifest["chunk_matches"] * manifest["match_deals"] * len(manifest["seats"])
    split, deals = {}, 0
    r0 = resource.getrusage(resource.RUSAGE_SELF)
    t0 = time.perf_counter()
    if kind == "polars_sample":
        paths = part_files(run, manifest)[:sample_chunks]
        lf = Batches.from_parts(paths, per_part).with_columns(pl.col("policy").cast(pl.String))
        for by in ("seat", "position", "policy"):
            t = time.perf_counter()
            table = fish_by(lf, by)
            split[f"fish_by_{by}"] = time.perf_counter() - t
            deals = int(table["n_deals"][0]) if by == "seat" else deals
        t = time.perf_counter()
        quinola_risk(lf)
        split["quinola_risk"] = time.perf_counter() - t
        t = time.perf_counter()
        reversis_rates(lf, "policy")
        split["reversis_rates"] = time.perf_counter() - t
    elif kind == "analyze":
        deals = int(analysis_tables(run)["fish_by_seat"]["n_deals"][0])
    else:
        sample = chunks[:sample_chunks] if kind == "scan_sample" else None
        quinola = kind in ("headline", "scan_sample", "fish+quinola")
        reversis = kind in ("headline", "scan_sample", "fish+reversis")
        scan = scan_run(run, zero_sum=False, quinola=quinola, reversis=reversis, workers=workers, chunks=sample)
        split["scan"] = time.perf_counter() - t0
        t = time.perf_counter()
        for by in ("seat", "position", "policy"):
            scan.fish_by(by)
        if quinola:
            scan.quinola_risk()
        if reversis:
            scan.reversis_rates("policy")
        split["frames"] = time.perf_counter() - t
        deals = int(scan.sums["rows"])
    wall = time.perf_counter() - t0
    r1 = resource.getrusage(resource.RUSAGE_SELF)
    cpu = r1.ru_utime - r0.ru_utime + r1.ru_stime - r0.ru_stime
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu += kids.ru_utime + kids.ru_stime
    return {"kind": kind, "wall_s": wall, "cpu_s": cpu, "deals": deals, "peak_rss_mb": r1.ru_maxrss / 1024,
            "worker_rss_mb": kids.ru_maxrss / 1024,
            "split": split, "load": os.getloadavg()[0]}


def measure(kind: str, args) -> dict:
    """Median of ``--repeat`` child runs of one measurement."""
    runs = []
    for _ in range(args.repeat):
        cmd = [sys.executable, __file__, "--child", kind, "--run", str(args.run),
               "--sample-chunks", str(args.sample_chunks)] + (["--workers", str(args.workers)] if args.workers else [])
        done = subprocess.run(cmd, check=True, capture_output=True, text=True)
        runs.append(json.loads(done.stdout.strip().splitlines()[-1]))
    best = sorted(runs, key=lambda r: r["wall_s"])[len(runs) // 2]
    return {**best, "walls": [round(r["wall_s"], 2) for r in runs], "median_s": statistics.median(
        r["wall_s"] for r in runs), "median_cpu_s": statistics.median(r["cpu_s"] for r in runs),
            "loads": [round(r["load"], 2) for r in runs], "peak_rss_mb": max(r["peak_rss_mb"] for r in runs),
            "worker_rss_mb": max(r["worker_rss_mb"] for r in runs)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--run", type=Path, help="an existing run folder (default: simulate one of --deals)")
    ap.add_argument("--deals", type=int, default=2_000_000)
    ap.add_argument("--seat", default="avoid")
    ap.add_argument("--sample-chunks", type=int, default=200, help="parts the polars path is timed on")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--workers", type=int)
    ap.add_argument("--kinds", nargs="+", choices=KINDS, default=list(KINDS))
    ap.add_argument("--child", choices=KINDS, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        print(json.dumps(child(args.child, args.run, args.sample_chunks, args.workers)))
        return
    tmp = None
    if args.run is None:
        tmp = tempfile.TemporaryDirectory(prefix="bench_analysis_")
        args.run = Path(tmp.name) / "run"
        subprocess.run([sys.executable, "-m", "reversis_sim", "simulate", "--deals", str(args.deals), "--seat",
                        args.seat, "--out", str(args.run), "--quiet", "--no-figures", "--format", "json"],
                       check=True, capture_output=True)
    results = {}
    for kind in args.kinds:
        r = results[kind] = measure(kind, args)
        per_100m = r["median_s"] / r["deals"] * 1e8
        print(f"{kind:>14}: {r['deals']:>12,} deals  median {r['median_s']:7.2f} s {r['walls']} "
              f"(CPU {r['median_cpu_s']:.1f} s)  {r['deals'] / r['median_s']:>12,.0f} deals/s  "
              f"{per_100m:7.1f} s per 100M  "
              f"peak RSS {r['peak_rss_mb']:4.0f} MB (workers {r['worker_rss_mb']:4.0f} MB each)  load {r['loads']}  "
              f"{ {k: round(v, 2) for k, v in r['split'].items()} }", flush=True)
    if "scan_sample" in results and "polars_sample" in results:
        ratio = results["polars_sample"]["median_s"] / results["scan_sample"]["median_s"]
        print(f"polars path / scan on the same {results['scan_sample']['deals']:,} deals: {ratio:.1f}x")
    if tmp is not None:
        tmp.cleanup()


if __name__ == "__main__":
    main()
