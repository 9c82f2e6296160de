"""The cost of the search policy: deals per second per core (one thread) and on all threads, and the searching
seat's cards per second, at each documented setting, beside the heuristic table measured in the same run.

    python bench/bench_search.py                        # parlett, one search seat among three tuned
    python bench/bench_search.py --rules modern --field tuned_modern --json

Not part of the test suite. The first call of each setting (one match) compiles or loads the kernels, untimed.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from reversis_sim.bench import measure_search  # noqa: E402
from reversis_sim.rules import get_preset  # noqa: E402

SETTINGS = ["search:worlds=4", "search:worlds=16", "search:worlds=64",
            "search:worlds=16,race=0,first=4,start=0,rollout=tuned"]  # the last: the default before 0.2.0


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rules", default="parlett", help="preset (default parlett)")
    ap.add_argument("--field", default="tuned", help="the other seats' policy (default tuned)")
    ap.add_argument("--setting", action="append", help=f"a search spec (repeatable; default {' '.join(SETTINGS)})")
    ap.add_argument("--deals", type=int, default=1_200, help="deals per measurement (default 1200)")
    ap.add_argument("--repeat", type=int, default=3, help="timed calls per rate, best kept (default 3)")
    ap.add_argument("--json", action="store_true", help="print the result as JSON")
    args = ap.parse_args(argv)
    r = measure_search(get_preset(args.rules), args.setting or SETTINGS, args.field, args.deals, repeat=args.repeat)
    if args.json:
        print(json.dumps(r, indent=2))
        return 0
    print(f"{r['rules']}: one search seat among three {r['field']}, {r['n_deals']:,} deals per measurement; "
          f"{r['field']} in every seat: {r['field_deals_per_s_1_thread']:,.0f} deals/s on one thread")
    print(f"{'setting':<24}{'deals/s/core':>14}{'deals/s ' + str(r['threads']) + ' thr':>16}{'cards/s/core':>14}"
          f"{'x slower':>10}")
    for row in r["rows"]:
        print(f"{row['setting']:<24}{row['deals_per_s_1_thread']:>14,.0f}{row['deals_per_s_all_threads']:>16,.0f}"
              f"{row['cards_per_s_1_thread']:>14,.0f}{row['x_field']:>10,.0f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
