#!/usr/bin/env python
"""The tuned presets and the exploitability table, reproducibly.

For each rule set: self-play from `avoid` (each round tunes one seat against copies of the previous round's best,
on its own explore and confirm seeds, until a round's confirmed gain holds 0), then the final setting's gain over
`avoid` on fresh deals. Then, for every named policy and the tuned ones, a best response of the `avoid` family on
fresh seeds: how much the family exploits it. Writes results/tuning/presets.json and prints markdown tables.

    python studies/tune_presets/tune_presets.py                      # about 40 minutes on 2 cores
    python studies/tune_presets/tune_presets.py --rules parlett --budget 5000000 --rounds 2 --no-table
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from reversis_sim.compare import compare
from reversis_sim.tune import best_response, self_play

ROOT = Path(__file__).resolve().parents[2]

TABLE = ["random", "lowest", "avoid", "cautious", "hunter", "saver", "bold"]


def ci(r) -> str:
    return f"{r['confirmed_gain']:+.2f} [{r['ci_low']:+.2f}, {r['ci_high']:+.2f}]"


def cross(report: dict, confirm_deals: int) -> list[dict]:
    """Each rule set's final setting against every other's, under that rule set (one seat against three copies of
    the other, on fresh deals): whether one preset per rule family is needed."""
    finals = {rules: r["final"] for rules, r in report["rules"].items()}
    rows = []
    for i, (rules, mine) in enumerate(finals.items()):
        for other_rules, other in finals.items():
            if other_rules == rules or other == mine:
                continue
            r = compare(rules, mine, other, n_matches=confirm_deals // 12, seed=9000 + i)
            rows.append({"rules": rules, "candidate": mine, "baseline": other, **r.summary()})
            print(f"{rules}: {mine} over {other}: {r.mean_difference:+.2f} [{r.ci_low:+.2f}, {r.ci_high:+.2f}]",
                  file=sys.stderr, flush=True)
    return rows


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--rules", default="parlett,modern,serbian")
    p.add_argument("--budget", type=int, default=20_000_000)
    p.add_argument("--rounds", type=int, default=6)
    p.add_argument("--confirm-deals", type=int, default=480_000)
    p.add_argument("--no-table", action="store_true", help="skip the exploitability table")
    p.add_argument("--out", default=str(ROOT / "results" / "tuning" / "presets.json"))
    p.add_argument("--only-cross", action="store_true",
                   help="only (re)compute the cross table of an existing report: each final setting against the others")
    args = p.parse_args(argv)
    kw = dict(budget_deals=args.budget, confirm_deals=args.confirm_deals)
    if args.only_cross:
        report = json.loads(Path(args.out).read_text())
        report["cross"] = cross(report, args.confirm_deals)
        Path(args.out).write_text(json.dumps(report, indent=1, default=str) + "\n")
        return 0
    report = {"budget_deals": args.budget, "confirm_deals": args.confirm_deals, "rules": {}, "exploitability": []}
    for k, rules in enumerate(args.rules.split(",")):
        seed = 1000 * (k + 1)

        def show(rnd, rules=rules):
            print(f"{rules} round {rnd.number}: against {rnd.field}: {rnd.result.best.spec}: "
                  f"{ci(rnd.result.summary())}", file=sys.stderr, flush=True)

        played = self_play(rules, "avoid", rounds=args.rounds, seed=seed, confirm_seed=seed + 1, on_round=show, **kw)
        final = played.final
        over_avoid = compare(rules, final, "avoid", n_matches=args.confirm_deals // 12, seed=seed + 500)
        report["rules"][rules] = {
            "final": final, "stopped": played.stopped,
            "rounds": [{"round": r.number, "field": r.field, **r.result.summary()} for r in played.rounds],
            "gain_over_avoid": over_avoid.summary()}
        print(f"{rules}: {final} ({played.stopped}); over avoid {over_avoid.mean_difference:+.2f} "
              f"[{over_avoid.ci_low:+.2f}, {over_avoid.ci_high:+.2f}]", file=sys.stderr, flush=True)
        Path(args.out).parent.mkdir(parents=True, exist_ok=True)
        Path(args.out).write_text(json.dumps(report, indent=1, default=str) + "\n")
    if not args.no_table:
        tuned = [report["rules"]["parlett"]["final"]] if "parlett" in report["rules"] else []
        for i, policy in enumerate(TABLE + tuned):
            r = best_response("parlett", policy, seed=7000 + 2 * i, confirm_seed=7001 + 2 * i, **kw).summary()
            report["exploitability"].append({"policy": policy, **r})
            print(f"exploitability of {policy}: {ci(r)} by {r['best']}", file=sys.stderr, flush=True)
            Path(args.out).write_text(json.dumps(report, indent=1, default=str) + "\n")
    report["cross"] = cross(report, args.confirm_deals)
    Path(args.out).write_text(json.dumps(report, indent=1, default=str) + "\n")
    for rules, r in report["rules"].items():
        print(f"\n### {rules}: self-play from avoid ({r['stopped']})\n")
        print("| round | field | best response | confirmed gain over the field [95% CI] |\n|---|---|---|---|")
        for x in r["rounds"]:
            print(f"| {x['round']} | `{x['field']}` | `{x['best']}` | {ci(x)} |")
        g = r["gain_over_avoid"]
        print(f"\nfinal: `{r['final']}`; over avoid (field avoid, {g['n_deals_compared']:,} fresh deals): "
              f"{g['mean_difference']:+.2f} [{g['ci_low']:+.2f}, {g['ci_high']:+.2f}]")
    if report["exploitability"]:
        print("\n### exploitability by the avoid family (parlett)\n")
        print("| policy | best response found | confirmed gain [95% CI] |\n|---|---|---|")
        for x in report["exploitability"]:
            print(f"| `{x['policy']}` | `{x['best']}` | {ci(x)} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
