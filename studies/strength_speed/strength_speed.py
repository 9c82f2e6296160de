"""What strength costs: every player of the review ladder, its duplicate gain over `tuned` (from
results/ladder/ladder.json, seed 202, a seat of the player against three `tuned`) against its speed (a table of
four of the player, the kernel's core on one thread, measured here, every player in turn and in rounds, so that
a load on the machine falls on all of them; the best round counts, as `bench` does).

    python studies/strength_speed/strength_speed.py          # about 2 minutes (the searches' tables are slow)

Writes results/strong/strength_speed.json and results/strong/strength_speed.png (docs/strength.md).
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import polars as pl

from reversis_sim.bench import tables_in_turn
from reversis_sim.plot import strength_speed
from reversis_sim.rules import get_preset

ROOT = Path(__file__).resolve().parents[2]

LADDER = ROOT / "results" / "ladder" / "ladder.json"
OUT = ROOT / "results" / "strong" / "strength_speed.json"
ROUTES = {"random": "baseline", "naive": "baseline", "lowest": "baseline", "avoid": "hand-set heuristic",
          "cautious": "hand-set heuristic", "hunter": "hand-set heuristic", "saver": "hand-set heuristic",
          "bold": "hand-set heuristic", "tuned": "self-play tuned", "tuned_modern": "self-play tuned",
          "tuned_serbian": "self-play tuned", "strong": "route (a): the review's finding",
          "learned": "route (b): the review's values learned"}
"""How each player was made (the chart's colours); a search is a search."""
SHORT = {"search": "search (0.3.0)", "search:worlds=16,start=5,rollout=strong": "search (0.2.0)",
         "search:worlds=16,race=0,first=4,start=0,rollout=tuned": "search, 16 worlds (before 0.2.0)",
         "search:worlds=4,race=0,first=4,start=0,rollout=tuned": "search, 4 worlds (before 0.2.0)"}
"""The chart's names of the searches, each the default of a version or the one before (the JSON keeps their specs)."""


def route(player: str) -> str:
    return "search (PIMC)" if player.startswith("search") else ROUTES.get(player, "other")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=240_000, help="deals of a heuristic's table per round")
    ap.add_argument("--search-deals", type=int, default=480, help="deals of a search's table per round")
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()
    t0 = time.time()
    ladder = json.loads(LADDER.read_text())
    rules = get_preset(ladder["settings"]["rules"])
    rows = [r for r in ladder["rows"] if r["player"] != "lowest"]  # lowest is naive (the same policy)
    deals = {r["player"]: args.search_deals if r["player"].startswith("search") else args.deals for r in rows}
    best = tables_in_turn(rules, deals, rounds=args.rounds, progress=lambda k, b: print(
        f"round {k}: " + ", ".join(f"{p} {v:,.0f}" for p, v in b.items()), flush=True))
    out = [{"player": r["player"], "route": route(r["player"]), "deals_per_s": best[r["player"]],
            **{k: r[k] for k in ("gain", "gain_low", "gain_high", "error_rate")}} for r in rows]
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps({"rules": rules.name, "field": ladder["settings"]["field"],
                               "gain_seed": ladder["settings"]["compare_seed"],
                               "gain_matches": ladder["settings"]["compare_matches"], "rounds": args.rounds,
                               "rows": out, "seconds": round(time.time() - t0)}, indent=1) + "\n")
    caption = (f"{rules.name} · gain: one seat against three {ladder['settings']['field']}, duplicate, "
               f"{ladder['settings']['compare_matches'] * rules.match_deals:,} deals, seed "
               f"{ladder['settings']['compare_seed']} · speed: a table of four of the player, kernel core, one thread, "
               f"best of {args.rounds} rounds")
    shown = [{**r, "player": SHORT.get(r["player"], r["player"])} for r in out]
    fig = strength_speed(pl.DataFrame(shown), baseline=ladder["settings"]["field"], caption=caption)
    fig.savefig(OUT.with_suffix(".png"), dpi=110)
    print(f"wrote {OUT} and {OUT.with_suffix('.png')}")


if __name__ == "__main__":
    main()
