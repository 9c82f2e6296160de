"""The cost of the review: reviewed decisions per second per core (one thread) and on all threads, at
each number of worlds, beside the same table played without a review in the same run (deals per second, and how
many times longer a reviewed deal takes).

    python bench/bench_review.py                       # parlett, avoid reviewed in seat 0 of tuned
    python bench/bench_review.py --policy tuned --worlds 32 --luck-samples 16 --json

Not part of the test suite. The first call of each setting (one match) compiles or loads the kernels, untimed.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time

from reversis_sim.numba_engine import play_matches
from reversis_sim.policies import parse_seats
from reversis_sim.review.reviewing import review_matches
from reversis_sim.rules import get_preset


def _best(repeat: int, call) -> tuple[float, object]:
    best, out = float("inf"), None
    for _ in range(repeat):
        t0 = time.perf_counter()
        out = call()
        best = min(best, time.perf_counter() - t0)
    return best, out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rules", default="parlett")
    ap.add_argument("--policy", default="avoid", help="the reviewed player, seat 0 (default avoid)")
    ap.add_argument("--field", default="tuned", help="the other seats (default tuned)")
    ap.add_argument("--worlds", type=int, action="append", help="worlds a decision (repeatable; default 16 32)")
    ap.add_argument("--luck-samples", type=int, default=0)
    ap.add_argument("--matches", type=int, default=40, help="matches per measurement (default 40)")
    ap.add_argument("--repeat", type=int, default=3, help="timed calls per rate, best kept (default 3)")
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args(argv)
    rules = get_preset(a.rules)
    seats = parse_seats([a.policy] + [a.field] * (rules.n_seats - 1), rules.n_seats)
    threads = os.cpu_count() or 1
    play = lambda t, n=a.matches: play_matches(rules, seats, seed=1, first_match=0, n_matches=n, threads=t)  # noqa: E731
    play(1, 1)
    t_play, chunk = _best(a.repeat, lambda: play(1))
    result = {"rules": rules.name, "policy": a.policy, "field": a.field, "matches": a.matches, "threads": threads,
              "luck_samples": a.luck_samples, "plain_deals_per_s_1_thread": chunk.n_deals / t_play, "rows": []}
    for worlds in a.worlds or [16, 32]:
        def review(t, n=a.matches, worlds=worlds):
            return review_matches(rules, seats, seed=1, first_match=0, n_matches=n, reviewed=[0], worlds=worlds,
                                  rollout="tuned", luck_samples=a.luck_samples, threads=t)

        review(1, 1)
        t1, out = _best(a.repeat, lambda: review(1))
        tn, _ = _best(a.repeat, lambda: review(threads))
        n_dec, n_deals = len(out.decisions["loss"]), len(out.deals["fish"])
        result["rows"].append({"worlds": worlds, "decisions": n_dec, "decisions_per_s_1_thread": n_dec / t1,
                               "decisions_per_s_all_threads": n_dec / tn, "deals_per_s_1_thread": n_deals / t1,
                               "x_plain": (t1 / n_deals) / (t_play / chunk.n_deals)})
    if a.json:
        print(json.dumps(result, indent=2))
        return 0
    print(f"{rules.name}: {a.policy} reviewed in seat 0 of {a.field}, {a.matches} matches per measurement, "
          f"{a.luck_samples} luck samples; the table unreviewed: {result['plain_deals_per_s_1_thread']:,.0f} "
          f"deals/s on one thread")
    print(f"{'worlds':>8}{'decisions/s/core':>18}{'decisions/s ' + str(threads) + ' thr':>20}{'deals/s/core':>14}"
          f"{'x slower':>10}")
    for r in result["rows"]:
        print(f"{r['worlds']:>8}{r['decisions_per_s_1_thread']:>18,.0f}{r['decisions_per_s_all_threads']:>20,.0f}"
              f"{r['deals_per_s_1_thread']:>14,.0f}{r['x_plain']:>10,.0f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
