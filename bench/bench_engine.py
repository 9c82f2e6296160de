"""Deals per second of the reference engine and of the numba kernel (1 thread, all threads), in one run.

    python bench/bench_engine.py                      # parlett, random policy, table
    python bench/bench_engine.py --deals 1200000 --json

Not part of the test suite. The first kernel call (one match) compiles the kernel or loads it from the on-disk
cache; it is timed apart (``first_call_s``) and excluded from the rates, which are the best of ``--repeat`` calls.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from reversis_sim.bench import measure  # noqa: E402
from reversis_sim.rules import get_preset  # noqa: E402


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rules", default="parlett", help="preset (default parlett)")
    ap.add_argument("--seats", nargs="*", default=["random"], help="seat policies (default random)")
    ap.add_argument("--deals", type=int, default=240_000, help="deals per kernel call (default 240000)")
    ap.add_argument("--reference-deals", type=int, default=2_400, help="deals for the reference (default 2400)")
    ap.add_argument("--repeat", type=int, default=5, help="timed calls per kernel rate, best kept (default 5)")
    ap.add_argument("--threads", type=int, default=None, help="'all threads' count (default NUMBA_NUM_THREADS)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--json", action="store_true", help="print the result as JSON")
    args = ap.parse_args(argv)
    r = measure(get_preset(args.rules), args.seats, args.deals, reference_deals=args.reference_deals,
                repeat=args.repeat, threads=args.threads, seed=args.seed)
    if args.json:
        print(json.dumps(r, indent=2))
        return 0
    ref = r["reference_deals_per_s"]
    rows = [
        ("reference (pure Python)", ref),
        ("kernel, 1 thread (play_matches)", r["kernel_deals_per_s_1_thread"]),
        (f"kernel, {r['threads']} threads (play_matches)", r["kernel_deals_per_s_all_threads"]),
        ("kernel core, 1 thread (warm buffers)", r["kernel_core_deals_per_s_1_thread"]),
        (f"kernel core, {r['threads']} threads (warm buffers)", r["kernel_core_deals_per_s_all_threads"]),
    ]
    print(f"{r['rules']}, seats {' '.join(r['seats'])}; {r['n_deals']} deals per kernel call, "
          f"{r['reference_deals']} for the reference; first call (kernel compiled or loaded) {r['first_call_s']:.2f} s")
    print(f"{'engine':<44}{'deals/s':>14}{'x reference':>14}")
    for name, rate in rows:
        print(f"{name:<44}{rate:>14,.0f}{rate / ref:>14,.0f}")
    print(f"all threads vs 1 thread: x{r['speedup_all_threads_vs_1_thread']:.2f}")
    print(f"end to end (simulate --no-figures, {r['end_to_end_deals']:,} deals): {r['end_to_end_deals_per_s']:,.0f} "
          f"deals/s, x{r['end_to_end_vs_kernel']:.2f} of the kernel on {r['threads']} threads "
          f"(x{r['end_to_end_vs_kernel_core']:.2f} of the kernel core)")
    print(f"writer, 1 thread: {r['writer_deals_per_s_1_thread']:,.0f} deals/s encoded "
          f"({r['writer_vs_kernel_1_thread']:.2f} cores of writing per core of play); tables built in "
          f"{r['table_build_ns_per_deal']:.0f} ns a deal")
    print(f"bytes per deal: Arrow {r['arrow_bytes_per_deal']:.0f} (seats {r['arrow_seat_bytes_per_deal']:.0f}, "
          f"payments {r['arrow_payment_bytes_per_deal']:.0f}); disk {r['disk_bytes_per_deal']:.1f} "
          f"(seats {r['disk_seat_bytes_per_deal']:.1f}, payments {r['disk_payment_bytes_per_deal']:.1f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
