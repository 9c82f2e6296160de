#!/usr/bin/env python
"""What a reversis attempt is worth by the hand dealt, `avoid` against the tuned preset, from the
headline runs' part files: results/parlett_tuned/figures/attempt_value.png and results/tuning/attempts.json.

    python scripts/attempt_chart.py        # after scripts/headline_run.sh
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from reversis_sim.analysis.hands import by_hand
from reversis_sim.plot import attempt_value, run_caption
from reversis_sim.record import read_manifest

ROOT = Path(__file__).resolve().parents[1]

RUNS = {"avoid": ROOT / "results" / "parlett_avoid", "tuned": ROOT / "results" / "parlett_tuned"}


def main() -> int:
    argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter).parse_args()
    tables = {name: by_hand(path, "top_cards") for name, path in RUNS.items()}
    out = ROOT / "results" / "tuning" / "attempts.json"
    out.write_text(json.dumps({k: v.to_dicts() for k, v in tables.items()}, indent=1) + "\n")
    caption = run_caption(read_manifest(RUNS["tuned"])) + " · beside the same deals with avoid in every seat"
    fig = attempt_value(tables, "top_cards", caption=caption)
    path = RUNS["tuned"] / "figures" / "attempt_value.png"
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=150)
    for name, t in tables.items():
        rows = [r for r in t.to_dicts() if r["committed"]]
        committed = sum(r["committed"] for r in rows)
        made = sum(r["made_rate"] * r["committed"] for r in rows)
        print(f"{name}: {committed:,} seats committed to the reversis, {made / max(committed, 1):.1%} made",
              file=sys.stderr)
    print(f"wrote {path} and {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
