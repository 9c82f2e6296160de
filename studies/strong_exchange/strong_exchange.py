"""The `strong` preset (route (a): a heuristic change): `tuned` with the one exchange the review found it losing most
on, chosen on one seed and measured on another.

The review (docs/review.md) put 9.2 fish of `tuned`'s loss on each exchange, 7.3 of them on the exchanges where it
held the J♥: its discard score (avoid_nb._discard_score) never let a J♥ go while it held an Ace. The avoid family
gained two parameters for it, the J♥'s discard bonus when at most `guard` low hearts guard it (`q_bare`, 8 in
`tuned`) and when more do (`q_guarded`, -4). This script sweeps both in one seat against three `tuned` on the
exploring seed (101), then measures the chosen setting on the confirmation seed (202), which chose nothing, under
parlett and serbian (modern has no talon: the parameters cannot act there), and the speed of a table of it beside
`tuned` in the same run (in alternating rounds).

    python studies/strong_exchange/strong_exchange.py             # about 6 minutes on 2 cores (warm)

Writes results/strong/exchange.json.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from reversis_sim.bench import tables_in_turn
from reversis_sim.compare import compare
from reversis_sim.policies import NAMED, parse_spec
from reversis_sim.rules import get_preset

ROOT = Path(__file__).resolve().parents[2]

OUT = ROOT / "results" / "strong" / "exchange.json"
EXPLORE_SEED, CONFIRM_SEED = 101, 202
GRID = {"q_bare": (8, 12, 16, 24, 40), "q_guarded": (-20, -4, 0, 4, 8, 16)}
BASE = {"parlett": "tuned", "serbian": "tuned_serbian"}


def _row(res) -> dict:
    s = res.summary()
    return {"gain": s["mean_difference"], **{k: s[k] for k in ("ci_low", "ci_high", "p_value", "n_deals_compared")}}


def _vs(rules: str, spec: str, deals: int, seed: int) -> dict:
    base = BASE[rules]
    r = get_preset(rules)
    return _row(compare(r, spec, base, base, n_matches=deals // r.match_deals, seed=seed))


def _speed(names, deals: int = 480_000, rounds: int = 5) -> dict:
    """Deals per second of a table of four of each player on one thread, in alternating rounds (bench)."""
    best = tables_in_turn(get_preset("parlett"), dict.fromkeys(names, deals), rounds=rounds)
    for name in names:
        print(f"speed {name}: {best[name]:,.0f} deals/s on one thread", flush=True)
    return best


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--explore-deals", type=int, default=120_000)
    ap.add_argument("--confirm-deals", type=int, default=480_000)
    args = ap.parse_args()
    t0 = time.time()
    tuned = NAMED["tuned"]
    sweep = []
    for qb in GRID["q_bare"]:
        for qg in GRID["q_guarded"]:
            row = {"q_bare": qb, "q_guarded": qg, **_vs("parlett", f"{tuned},q_bare={qb},q_guarded={qg}",
                                                         args.explore_deals, EXPLORE_SEED)}
            sweep.append(row)
            print(f"explore q_bare={qb} q_guarded={qg}: {row['gain']:+.2f} [{row['ci_low']:+.2f}, "
                  f"{row['ci_high']:+.2f}]", flush=True)
    now = dict(parse_spec(tuned).params)
    best = max(sweep, key=lambda x: (round(x["gain"], 6), -sum(abs(x[k] - now[k]) for k in GRID)))  # ties: nearest
    chosen = {k: best[k] for k in GRID}
    changes = ",".join(f"{k}={v}" for k, v in chosen.items() if v != now[k])
    confirm = {}
    for rules, base in BASE.items():
        spec = f"{NAMED[base]},{changes}" if changes else NAMED[base]
        confirm[rules] = {"spec": spec, "baseline": base, **_vs(rules, spec, args.confirm_deals, CONFIRM_SEED)}
        c = confirm[rules]
        print(f"confirm {rules}: {c['gain']:+.2f} [{c['ci_low']:+.2f}, {c['ci_high']:+.2f}] over {base}", flush=True)
    speed = _speed(("tuned", "strong"))
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps({"explore_seed": EXPLORE_SEED, "confirm_seed": CONFIRM_SEED,
                               "explore_deals": args.explore_deals, "confirm_deals": args.confirm_deals,
                               "sweep": sweep, "chosen": chosen, "confirm": confirm,
                               "kernel_deals_per_s_one_thread": speed, "strong": NAMED["strong"],
                               "seconds": round(time.time() - t0)}, indent=1) + "\n")
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
