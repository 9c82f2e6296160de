"""The search's inference at a fraction of its cost (docs/search.md, "Inference at a fraction of its cost"): what
weighing the worlds by the others' cards gains at equal worlds with the learned rollout policy, at a table of
`strong` (the model is not the field) and at a table of `learned` (the model is the field), with the whole history
and with a window of the last cards; and what uniform worlds buy for the same cost. Duplicate comparisons, one
searching seat against three of the field, on the exploring seed 4701 and the fresh seed 4703.

    python studies/infer_window/infer_window.py                  # every comparison, about an hour on 2 cores
    python studies/infer_window/infer_window.py --only confirm   # the fresh seed's

Writes results/search/infer_window.json (one entry per comparison, keyed by its name; the others kept). The cost
of each setting is measured apart, with bench/bench_decisions.py (the command is in docs/search.md).
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from reversis_sim.compare import compare
from reversis_sim.rules import get_preset

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "results" / "search" / "infer_window.json"
EXPLORE_SEED, CONFIRM_SEED = 4701, 4703
BASE = "search:worlds={w},start=6,rollout=learned"
INFER = BASE + ",infer=rollout"

COMPARISONS = {
    # name: (candidate, baseline, field, seed)
    "explore/strong/infer": (INFER.format(w=8), BASE.format(w=8), "strong", EXPLORE_SEED),
    "explore/strong/infer_tau2": (INFER.format(w=8) + ",tau=2", BASE.format(w=8), "strong", EXPLORE_SEED),
    "explore/strong/infer_tau0.5": (INFER.format(w=8) + ",tau=0.5", BASE.format(w=8), "strong", EXPLORE_SEED),
    "explore/strong/window3": (INFER.format(w=8) + ",window=3", BASE.format(w=8), "strong", EXPLORE_SEED),
    "explore/strong/window8": (INFER.format(w=8) + ",window=8", BASE.format(w=8), "strong", EXPLORE_SEED),
    "explore/strong/worlds16": (BASE.format(w=16), BASE.format(w=8), "strong", EXPLORE_SEED),
    "explore/learned/infer": (INFER.format(w=8), BASE.format(w=8), "learned", EXPLORE_SEED),
    "explore/learned/pool2_window3": (INFER.format(w=8) + ",pool=2,window=3", BASE.format(w=8), "learned",
                                      EXPLORE_SEED),
    "explore/learned/window3": (INFER.format(w=8) + ",window=3", BASE.format(w=8), "learned", EXPLORE_SEED),
    "explore/learned/worlds12": (BASE.format(w=12), BASE.format(w=8), "learned", EXPLORE_SEED),
    "explore/learned/worlds16": (BASE.format(w=16), BASE.format(w=8), "learned", EXPLORE_SEED),
    "explore/learned/pool1": (INFER.format(w=8) + ",pool=1", BASE.format(w=8), "learned", EXPLORE_SEED),
    "explore/learned/pool1_window3": (INFER.format(w=8) + ",pool=1,window=3", BASE.format(w=8), "learned",
                                      EXPLORE_SEED),
    # equal time: the cheapest window that gained, against uniform worlds that cost less (bench_decisions: 1.43 and
    # 1.18 times the 8 uniform worlds)
    "explore/learned/equal_time": (INFER.format(w=8) + ",pool=2,window=3", BASE.format(w=16), "learned",
                                   EXPLORE_SEED),
    "confirm/strong/infer": (INFER.format(w=8), BASE.format(w=8), "strong", CONFIRM_SEED),
    "confirm/learned/infer": (INFER.format(w=8), BASE.format(w=8), "learned", CONFIRM_SEED),
    "confirm/learned/pool2_window3": (INFER.format(w=8) + ",pool=2,window=3", BASE.format(w=8), "learned",
                                      CONFIRM_SEED),
    "confirm/learned/window3": (INFER.format(w=8) + ",window=3", BASE.format(w=8), "learned", CONFIRM_SEED),
    "confirm/learned/worlds16": (BASE.format(w=16), BASE.format(w=8), "learned", CONFIRM_SEED),
    "confirm/learned/equal_time": (INFER.format(w=8) + ",pool=2,window=3", BASE.format(w=16), "learned",
                                   CONFIRM_SEED),
}


def gain(rules, cand, base, field, seed, deals):
    r = compare(rules, cand, base, field, n_matches=deals // rules.match_deals, seed=seed, threads=1)
    p = r.paired
    return {"candidate": cand, "baseline": base, "field": field, "seed": seed, "deals": deals,
            "mean": p.mean_difference, "ci95": [p.ci_low, p.ci_high], "p": p.p_value}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", default="", help="only the comparisons whose name starts with this")
    ap.add_argument("--deals", type=int, default=48_000, help="deals of a comparison (whole matches)")
    a = ap.parse_args()
    rules = get_preset("parlett")
    report = json.loads(OUT.read_text()) if OUT.exists() else {}
    for name, (cand, base, field, seed) in COMPARISONS.items():
        if not name.startswith(a.only):
            continue
        t0 = time.time()
        report[name] = gain(rules, cand, base, field, seed, a.deals)
        r = report[name]
        print(f"{name}: {r['mean']:+.2f} [{r['ci95'][0]:+.2f}, {r['ci95'][1]:+.2f}] ({time.time() - t0:.0f} s)",
              flush=True)
        OUT.write_text(json.dumps(report, indent=2) + "\n")


if __name__ == "__main__":
    main()
