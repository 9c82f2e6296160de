"""Check that the numba engine's deal records equal the reference engine's, deal for deal.

    python scripts/check_agreement.py --deals 20000 --rules parlett_penguin --seed 7

Plays whole matches (of the random policy by default) through both engines (``numba_engine.trace_match`` and
``reference.play_match``) and compares the complete deal records (cards, decisions, tricks, payments, result).
Prints progress, the first differing field of each mismatch (at most ``--show``), and a summary with the count per
rule set; exits 1 on any mismatch. ``--rules all`` cycles through every preset the engine plays (all of them),
``--rules stress`` through the stress variants of :mod:`reversis_sim.numba_engine.stress` (rare events made common),
``--rules every`` through both; a comma-separated list names several. ``--seats`` takes one spec for every seat or a
table that is repeated to fill the seats (four specs fill ``modern_five``'s five seats as 0 1 2 3 0). Matches have
each preset's own length unless ``--match-deals`` is given (``parlett_simple`` matches end at the target).
``--json`` prints the summary as JSON.
"""

from __future__ import annotations

import argparse
import json
import sys
import time

from reversis_sim import reference
from reversis_sim.game import first_difference
from reversis_sim.kernel.compiled import check_engine_supported, engine_plays
from reversis_sim.numba_engine.stress import STRESS
from reversis_sim.numba_engine.trace import trace_match
from reversis_sim.policies import parse_seats
from reversis_sim.rules import PRESETS, RulesError

ENGINE_PRESETS = tuple(name for name, r in PRESETS.items() if engine_plays(r))


def table(seats_text: list[str], n_seats: int) -> list[str]:
    """One spec per seat: a shorter table is repeated (``modern_five`` has five seats)."""
    return [seats_text[i % len(seats_text)] for i in range(n_seats)]


def check(rules_names, n_deals: int, seed: int, seats_text: list[str], match_deals: int | None, show: int,
          quiet: bool = False) -> dict:
    checked = mismatches = 0
    per_rules = {name: 0 for name in rules_names}
    shown: list[str] = []
    t0 = time.perf_counter()
    match = 0
    while checked < n_deals:
        for name in rules_names:
            if checked >= n_deals:
                break
            rules = PRESETS.get(name) or STRESS[name]
            seats = parse_seats(table(seats_text, rules.n_seats), rules.n_seats)
            n = min(match_deals or rules.match_deals, n_deals - checked)
            kernel = trace_match(rules, seats, seed=seed, match=match, n_deals=n)
            ref = list(reference.play_match(rules, seats, seed=seed, match=match, n_deals=n))
            if len(kernel) != len(ref):
                mismatches += 1
                line = f"MISMATCH rules={name} seed={seed} match={match}: {len(kernel)} deals vs {len(ref)}"
                shown.append(line)
                print(line, flush=True)
            for k, r in zip(kernel, ref):
                checked += 1
                per_rules[name] += 1
                if k != r:
                    mismatches += 1
                    if len(shown) < show:
                        line = (f"MISMATCH rules={name} seed={seed} match={match} deal={r['deal']}: "
                                f"{first_difference(k, r)}")
                        shown.append(line)
                        print(line, flush=True)
        match += 1
        if not quiet and match % 50 == 0:
            rate = checked / (time.perf_counter() - t0)
            print(f"  {checked}/{n_deals} deals checked, {mismatches} mismatches ({rate:.0f} deals/s)", flush=True)
    return {"deals_checked": checked, "mismatches": mismatches, "rules": list(rules_names), "seed": seed,
            "seats": list(seats_text), "deals_per_rules": per_rules, "seconds": round(time.perf_counter() - t0, 2),
            "first_mismatches": shown}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--deals", type=int, default=5000, help="number of deals to check (default 5000)")
    ap.add_argument("--rules", default="all",
                    help=f"a preset or stress variant (or several, comma-separated), or 'all' "
                         f"({', '.join(ENGINE_PRESETS)}), 'stress' or 'every'")
    ap.add_argument("--seed", type=int, default=0, help="run seed (default 0)")
    ap.add_argument("--seats", nargs="*", default=["random"],
                    help="seat policies: one for every seat, or a table repeated to fill the seats (default: random)")
    ap.add_argument("--match-deals", type=int, default=None,
                    help="deals per match (default: each preset's match_deals)")
    ap.add_argument("--show", type=int, default=10, help="print at most this many mismatches (default 10)")
    ap.add_argument("--json", action="store_true", help="print the summary as JSON")
    args = ap.parse_args(argv)
    groups = {"all": ENGINE_PRESETS, "stress": tuple(STRESS), "every": ENGINE_PRESETS + tuple(STRESS)}
    names = groups.get(args.rules, tuple(args.rules.split(",")))
    for name in names:
        if name not in PRESETS and name not in STRESS:
            ap.error(f"unknown rules {name!r}; valid: all, stress, every, {', '.join(ENGINE_PRESETS + tuple(STRESS))}")
        try:
            check_engine_supported(PRESETS.get(name) or STRESS[name])
        except RulesError as e:
            ap.error(str(e))
    summary = check(names, args.deals, args.seed, args.seats, args.match_deals, args.show, quiet=args.json)
    if args.json:
        print(json.dumps(summary))
    else:
        print(f"checked {summary['deals_checked']} deals ({', '.join(names)}; seats {' '.join(args.seats)}; seed "
              f"{args.seed}) in {summary['seconds']} s: {summary['mismatches']} mismatches")
        print("  " + ", ".join(f"{k} {v}" for k, v in summary["deals_per_rules"].items()))
    return 1 if summary["mismatches"] else 0


if __name__ == "__main__":
    sys.exit(main())
