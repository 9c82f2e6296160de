"""Coverage of the review's error-rate interval (print only an interval that holds).

A truth: the error rate of ``--policy`` in seat 0 at a table of ``--field``, from ``--truth-matches`` matches
(seed ``--seed``). Then ``--reps`` reviews of each size in ``--sizes`` (matches) on other seeds, each with its t
interval on per-match values (the match the unit: :func:`reversis_sim.analysis.stats.ratio_mean_ci`), counting how
often the interval holds the truth, and on which side it misses.

``--measure luck``: the interval of the luck-adjusted fish per deal of seat 0 (fish minus the luck of the hand,
:func:`reversis_sim.review.table_nb._luck`), against the truth of the plain fish per deal of that seat (the
luck has mean 0, so both estimate the same number) from ``--truth-matches`` matches played by the engine. With the
player equal to its field this is the A/A check; with another field, players that really differ.

    python scripts/review_coverage.py --policy avoid --field tuned --truth-matches 10000 --sizes 250,1000 --reps 100
    python scripts/review_coverage.py --measure luck --policy tuned --field tuned --truth-matches 100000 --sizes 250
"""

from __future__ import annotations

import argparse
import json
import time

import numpy as np

from reversis_sim.analysis.stats import mean_ci, ratio_mean_ci
from reversis_sim.numba_engine.batch import play_matches
from reversis_sim.policies import parse_seats
from reversis_sim.review.reviewing import review_matches
from reversis_sim.rules import PRESETS


def per_match(rules, seats, seed, first, n, worlds, rollout):
    out = review_matches(rules, seats, seed=seed, first_match=first, n_matches=n, reviewed=[0], worlds=worlds,
                         rollout=rollout)
    m = out.decisions["match"] - first
    totals = np.bincount(m, weights=out.decisions["loss"], minlength=n)
    sizes = np.bincount(m, minlength=n).astype(float)
    return totals, sizes


def luck_adjusted(rules, seats, seed, first, n, luck_samples, rollout):
    """The luck-adjusted fish per deal of seat 0 and its interval (the match the unit)."""
    out = review_matches(rules, seats, seed=seed, first_match=first, n_matches=n, reviewed=[0], worlds=1,
                         rollout=rollout, luck_samples=luck_samples)
    d = out.deals
    return mean_ci(d["fish"][:, 0] - d["luck"][:, 0], d["match"], kind="seat"), \
        mean_ci(d["fish"][:, 0].astype(float), d["match"], kind="seat")


def plain_truth(rules, seats, seed, n_matches):
    """Seat 0's fish per deal over ``n_matches`` matches played by the engine, in blocks."""
    total, deals, block = 0.0, 0, 5_000
    per_match = []
    for first in range(0, n_matches, block):
        chunk = play_matches(rules, seats, seed=seed, first_match=first, n_matches=min(block, n_matches - first))
        seat0 = chunk.column("seat") == 0
        fish = chunk.column("fish")[seat0].astype(float)
        per_match.append(np.bincount(chunk.column("match")[seat0] - first, weights=fish))
        total += fish.sum()
        deals += fish.size
    m = np.concatenate(per_match)
    return ratio_mean_ci(m, np.full(m.size, deals / m.size))


def main_luck(a, rules, seats) -> None:
    t0 = time.time()
    truth = plain_truth(rules, seats, a.seed, a.truth_matches)
    print(f"truth (plain fish per deal of seat 0) {truth.mean:.4f} ± {truth.se:.4f} (se) from {a.truth_matches} "
          f"matches, {time.time() - t0:.0f} s", flush=True)
    result = {"settings": vars(a), "truth": truth.as_dict(), "sizes": {}}
    for size in (int(x) for x in a.sizes.split(",")):
        held = low = high = held_plain = 0
        width = width_plain = 0.0
        for rep in range(a.reps):
            ci, plain = luck_adjusted(rules, seats, a.seed + 1 + rep, 0, size, a.luck_samples, a.rollout)
            held += ci.ci_low <= truth.mean <= ci.ci_high
            low += truth.mean < ci.ci_low
            high += truth.mean > ci.ci_high
            held_plain += plain.ci_low <= truth.mean <= plain.ci_high
            width += (ci.ci_high - ci.ci_low) / a.reps
            width_plain += (plain.ci_high - plain.ci_low) / a.reps
        result["sizes"][size] = {"held": held, "truth_below": low, "truth_above": high, "reps": a.reps,
                                 "held_plain": held_plain, "mean_width": width, "mean_width_plain": width_plain}
        print(f"{size} matches: luck-adjusted held {held}/{a.reps} (truth below {low}, above {high}), mean width "
              f"{width:.2f} fish; plain held {held_plain}/{a.reps}, width {width_plain:.2f}; "
              f"{time.time() - t0:.0f} s", flush=True)
    if a.out:
        with open(a.out, "w") as f:
            json.dump(result, f, indent=2)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rules", default="parlett")
    ap.add_argument("--policy", default="avoid")
    ap.add_argument("--field", default="tuned")
    ap.add_argument("--worlds", type=int, default=16)
    ap.add_argument("--rollout", default="tuned")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--truth-matches", type=int, default=10_000)
    ap.add_argument("--sizes", default="250,1000")
    ap.add_argument("--reps", type=int, default=100)
    ap.add_argument("--measure", choices=["error_rate", "luck"], default="error_rate")
    ap.add_argument("--luck-samples", type=int, default=16)
    ap.add_argument("--out", default=None, help="write the results as JSON here")
    a = ap.parse_args()
    rules = PRESETS[a.rules]
    seats = parse_seats([a.policy] + [a.field] * (rules.n_seats - 1), rules.n_seats)
    if a.measure == "luck":
        return main_luck(a, rules, seats)
    t0 = time.time()
    totals, sizes = per_match(rules, seats, a.seed, 0, a.truth_matches, a.worlds, a.rollout)
    truth = ratio_mean_ci(totals, sizes)
    print(f"truth {truth.mean:.4f} ± {truth.se:.4f} (se) from {a.truth_matches} matches, {time.time() - t0:.0f} s",
          flush=True)
    result = {"settings": vars(a), "truth": truth.as_dict(), "sizes": {}}
    for size in (int(x) for x in a.sizes.split(",")):
        held = low = high = 0
        for rep in range(a.reps):
            tt, ss = per_match(rules, seats, a.seed + 1 + rep, 0, size, a.worlds, a.rollout)
            ci = ratio_mean_ci(tt, ss)
            held += ci.ci_low <= truth.mean <= ci.ci_high
            low += truth.mean < ci.ci_low
            high += truth.mean > ci.ci_high
        result["sizes"][size] = {"held": held, "truth_below": low, "truth_above": high, "reps": a.reps}
        print(f"{size} matches: held {held}/{a.reps} (truth below the interval {low}, above {high}), "
              f"{time.time() - t0:.0f} s", flush=True)
    if a.out:
        with open(a.out, "w") as f:
            json.dump(result, f, indent=2)


if __name__ == "__main__":
    main()
