"""Is the review's advice worth its fish?: a player that takes the reviewer's best option at some kinds of
decision and its own elsewhere, against the player itself, on the same deals (duplicate: same cards, same seats).

Seat 0 plays ``--policy`` at a table of ``--field``; ``--follow before`` lets it take the reviewer's best exchange
and declaration (its cards its own), ``--follow cards`` the reviewer's best card (its exchange its own). The
difference of seat 0's fish per deal between that table and the same deals played without the review is the gain
of the advice, with its 95% interval (the match the unit; printed from the matches at which a difference's
interval holds, :data:`reversis_sim.analysis.intervals.MIN_MATCHES`). The dealer rotates, so seat 0 plays every
position.

    python studies/review_follow/review_follow.py --follow before --matches 4000 --seed 909
"""

from __future__ import annotations

import argparse
import json
import time

import numpy as np

from reversis_sim.analysis.stats import mean_ci
from reversis_sim.numba_engine import play_matches
from reversis_sim.policies import parse_seats
from reversis_sim.review.reviewing import review_matches
from reversis_sim.rules import PRESETS


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rules", default="parlett")
    ap.add_argument("--policy", default="tuned")
    ap.add_argument("--field", default="tuned")
    ap.add_argument("--follow", choices=["before", "cards"], default="before")
    ap.add_argument("--worlds", type=int, default=16)
    ap.add_argument("--rollout", default="tuned")
    ap.add_argument("--matches", type=int, default=4000)
    ap.add_argument("--seed", type=int, default=909)
    ap.add_argument("--out", default=None, help="write the result as JSON here")
    a = ap.parse_args()
    rules = PRESETS[a.rules]
    seats = parse_seats([a.policy] + [a.field] * (rules.n_seats - 1), rules.n_seats)
    start = time.perf_counter()
    advised = review_matches(rules, seats, seed=a.seed, first_match=0, n_matches=a.matches, reviewed=[0],
                             worlds=a.worlds, rollout=a.rollout, follow_best=a.follow)
    own = play_matches(rules, seats, seed=a.seed, first_match=0, n_matches=a.matches)
    fish_own = own.column("fish").reshape(-1, rules.n_seats)[:, 0]
    d = advised.deals
    # the same deals (a match may end early, so both sides keep the deals both played)
    n = rules.n_seats
    key_own = {(m, k): f for m, k, f in zip(own.column("match").reshape(-1, n)[:, 0],
                                            own.column("deal").reshape(-1, n)[:, 0], fish_own)}
    pairs = [(m, f[0] - key_own[m, k]) for m, k, f in zip(d["match"], d["deal"], d["fish"]) if (m, k) in key_own]
    matches = np.array([m for m, _ in pairs])
    diff = np.array([x for _, x in pairs], float)
    ci = mean_ci(diff, matches, kind="difference")
    changed = advised.decisions["best"] != advised.decisions["played"]
    result = {"rules": a.rules, "policy": a.policy, "field": a.field, "follow": a.follow, "worlds": a.worlds,
              "rollout": a.rollout, "matches": a.matches, "seed": a.seed, "deals": int(diff.size),
              "gain_per_deal": ci.as_dict(), "seconds": time.perf_counter() - start}
    print(f"{a.policy} taking the reviewer's best {a.follow} decisions, seat 0 of {a.field}, {a.rules}, "
          f"{diff.size:,} deals (seed {a.seed}): {ci.mean:+.2f} fish a deal "
          + (f"[{ci.ci_low:+.2f}, {ci.ci_high:+.2f}]" if ci.n_needed == 0 else f"(interval: {ci.n_needed:,} "
             "matches needed)") + f"; {result['seconds']:.0f} s; decisions reviewed {changed.size:,}")
    if a.out:
        with open(a.out, "w") as f:
            json.dump(result, f, indent=1, default=float)


if __name__ == "__main__":
    main()
