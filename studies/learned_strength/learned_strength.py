"""The learned player measured (docs/strength.md, "`learned`"): its gain over `strong` at a table of `strong`
(duplicate, every seat in turn) on the seed that chose the shipped weights and on a seed that chose nothing; the
speed of a table of four of it beside a table of `strong` (the kernel's core, one thread, in turns and rounds, the
best round of each); and the search with it as its rollout policy beside the search that was the default before
0.3.0 (spelled out: `search` is the new one now).

    python studies/learned_strength/learned_strength.py               # about 10 minutes on a loaded 2-core machine
    python studies/learned_strength/learned_strength.py --only speed  # one part

Writes results/learned/strength.json (each part's numbers under its own key, the other keys kept).
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from reversis_sim.bench import tables_in_turn
from reversis_sim.compare import compare
from reversis_sim.rules import get_preset

ROOT = Path(__file__).resolve().parents[2]

OUT = ROOT / "results" / "learned" / "strength.json"
EXPLORE_SEED, CONFIRM_SEED = 4302, 4303
"""The seed the shipped weights were chosen on (among the rounds of learning), and the seed that chose nothing."""
PREVIOUS_SEARCH = "search:worlds=16,start=5,rollout=strong"
"""The default search of 0.2.0, which the search rolling out with the learned player replaced in 0.3.0."""


def gain(rules, cand, base, field, seed, deals):
    r = compare(rules, cand, base, field, n_matches=deals // rules.match_deals, seed=seed, threads=1)
    p = r.paired
    return {"candidate": cand, "baseline": base, "field": field, "seed": seed, "deals": deals,
            "mean": p.mean_difference, "ci95": [p.ci_low, p.ci_high], "p": p.p_value}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", choices=("explore", "confirm", "speed", "search"), default=None)
    ap.add_argument("--player", default="learned", help="the learned player measured (a spec)")
    ap.add_argument("--deals", type=int, default=480_000, help="deals of a comparison (whole matches)")
    ap.add_argument("--search-deals", type=int, default=48_000, help="deals of the search's comparison")
    ap.add_argument("--search-spec", default="search:worlds=8,start=6,rollout={player}",
                    help="the search setting compared with the default search of 0.2.0 ({player}: the learned player)")
    ap.add_argument("--speed-deals", type=int, default=120_000, help="deals of a table per speed round")
    ap.add_argument("--rounds", type=int, default=5, help="speed rounds")
    a = ap.parse_args()
    rules = get_preset("parlett")
    report = json.loads(OUT.read_text()) if OUT.exists() else {}
    t0 = time.time()
    if a.only in (None, "explore"):
        report["explore"] = gain(rules, a.player, "strong", "strong", EXPLORE_SEED, a.deals)
        print("explore", report["explore"], flush=True)
    if a.only in (None, "confirm"):
        report["confirm"] = gain(rules, a.player, "strong", "strong", CONFIRM_SEED, a.deals)
        print("confirm", report["confirm"], flush=True)
    if a.only in (None, "speed"):
        best = tables_in_turn(rules, {"strong": a.speed_deals, a.player: a.speed_deals}, rounds=a.rounds)
        report["speed"] = {"deals_per_s": best, "ratio": best[a.player] / best["strong"], "rounds": a.rounds,
                           "threads": 1}
        print("speed", report["speed"], flush=True)
    if a.only in (None, "search"):
        report["search"] = gain(rules, a.search_spec.format(player=a.player), PREVIOUS_SEARCH, "strong", CONFIRM_SEED,
                                a.search_deals)
        print("search", report["search"], flush=True)
    report["seconds"] = round(time.time() - t0)
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps(report, indent=1) + "\n")


if __name__ == "__main__":
    main()
