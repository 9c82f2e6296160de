"""The search's cost per decision, the engine left out: the same recorded card decisions timed for each search
setting, the settings interleaved within each pass and the best of ``--repeat`` passes kept, with the ratio to the
first setting. Steadier than ``bench --search`` on a shared machine, where a whole run's rate drifts by a third
within minutes; this is how docs/search.md compares two versions of the code (run it in each tree).

    python bench/bench_decisions.py                                  # parlett, the search before 0.2.0 against today's
    python bench/bench_decisions.py --setting search --setting search:start=2 --from-trick 6

Not part of the test suite. The decisions are those of seat 0 of a `tuned` table (reference engine), with more
than one legal card; the first pass compiles or loads the kernels, untimed.
"""

from __future__ import annotations

import argparse
import sys
import time

from reversis_sim import reference
from reversis_sim.reference import Watching, make_policy
from reversis_sim.rules import get_preset
from reversis_sim.search import decide_nb

SETTINGS = ["search:worlds=16,race=0,first=4,start=0,rollout=tuned", "search"]


class _Recorder(Watching):
    """Plays ``tuned``; at each card decision with a choice, keeps every setting's arguments of the search."""

    def __init__(self, searches, from_trick):
        super().__init__("tuned")
        self.searches, self.from_trick = searches, from_trick
        self.args = [[] for _ in searches]

    def watch(self, view, legal, card):
        if len(legal) > 1 and view.trick_index >= self.from_trick:
            for kept, s in zip(self.args, self.searches):
                kept.append(s.search_args(view, legal))


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rules", default="parlett", help="preset (default parlett)")
    ap.add_argument("--setting", action="append", help=f"a search spec (repeatable; default {' '.join(SETTINGS)})")
    ap.add_argument("--deals", type=int, default=60, help="deals whose decisions are recorded (default 60)")
    ap.add_argument("--from-trick", type=int, default=0, help="only the decisions from this trick on (default 0)")
    ap.add_argument("--repeat", type=int, default=7, help="timed passes, best kept (default 7)")
    ap.add_argument("--seed", type=int, default=7)
    args = ap.parse_args(argv)
    rules, settings = get_preset(args.rules), args.setting or SETTINGS
    searches = [make_policy(s) for s in settings]
    recorder = _Recorder(searches, args.from_trick)
    for deal in range(args.deals):
        seats = [recorder] + [make_policy("tuned") for _ in range(rules.n_seats - 1)]
        reference.play_deal_outcome(rules, seats, seed=args.seed, deal=deal, dealer=deal % rules.n_seats)
    n = len(recorder.args[0])
    if n == 0:
        print("no decision recorded", file=sys.stderr)
        return 1
    best = [float("inf")] * len(settings)
    for rep in range(args.repeat + 1):
        for i, kept in enumerate(recorder.args):
            started = time.perf_counter()
            for a in kept:
                decide_nb.play(*a)
            if rep > 0:  # the first pass compiles or loads
                best[i] = min(best[i], time.perf_counter() - started)
    print(f"{args.rules}: {n} decisions of seat 0 of a tuned table ({args.deals} deals, from trick {args.from_trick}), "
          f"best of {args.repeat} passes")
    print(f"{'setting':<40}{'us/decision':>13}{'x first':>9}")
    for s, b in zip(settings, best):
        print(f"{s:<40}{b / n * 1e6:>13.1f}{b / best[0]:>9.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
