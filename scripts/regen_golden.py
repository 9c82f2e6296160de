#!/usr/bin/env python
"""Regenerate the golden match records in tests/golden/ ON PURPOSE (after a deliberate rule or format change).

Each file holds every deal of one match, one deal record per line, exactly as `reversis-sim replay` prints it.
The tests replay the same (rules, seats, seed, match) and compare line by line, so any change in the engine's
behaviour shows up as a diff of these files that a reviewer can read.

    python scripts/regen_golden.py            # rewrite all
    python scripts/regen_golden.py --check    # exit 1 if any file would change
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from reversis_sim import reference
from reversis_sim.policies import parse_seats
from reversis_sim.rules import get_preset

GOLDEN_DIR = Path(__file__).resolve().parents[1] / "tests" / "golden"

#: (file stem, rules preset, seat specs, seed, match)
MATCHES = [
    ("parlett_random_s7_m0", "parlett", ["random"], 7, 0),
    ("parlett_random_s2026_m3", "parlett", ["random"], 2026, 3),
    ("parlett_penguin_random_s11_m1", "parlett_penguin", ["random"], 11, 1),
    ("parlett_52_random_s5_m2", "parlett_52", ["random"], 5, 2),
    ("parlett_simple_random_s3_m0", "parlett_simple", ["random"], 3, 0),
    ("modern_random_s4_m1", "modern", ["random"], 4, 1),
    ("modern_five_random_s6_m0", "modern_five", ["random"], 6, 0),
    ("pierer_random_s8_m2", "pierer", ["random"], 8, 2),
    ("serbian_random_s9_m3", "serbian", ["random"], 9, 3),
    ("parlett_no_espagnolette_random_s12_m1", "parlett_no_espagnolette", ["random"], 12, 1),
    ("modern_partie_random_s13_m0", "modern_partie", ["random"], 13, 0),
    ("modern_simple_random_s14_m2", "modern_simple", ["random"], 14, 2),
    ("modern_52_random_s15_m1", "modern_52", ["random"], 15, 1),
    ("parlett_mixed_s16_m0", "parlett", ["avoid", "random", "lowest", "cautious"], 16, 0),
    ("modern_mixed_s17_m0", "modern", ["bold", "hunter", "avoid:take=0", "saver"], 17, 0),
]
"""Every preset at least once (random play), and two tables of heuristics."""


def match_lines(rules_name: str, seats: list[str], seed: int, match: int) -> list[str]:
    rules = get_preset(rules_name)
    specs = parse_seats(seats, rules.n_seats)
    return [json.dumps(r) for r in reference.play_match(rules, specs, seed=seed, match=match)]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true", help="only report files that would change")
    args = ap.parse_args()
    changed = 0
    for stem, rules_name, seats, seed, match in MATCHES:
        path = GOLDEN_DIR / f"{stem}.jsonl"
        text = "\n".join(match_lines(rules_name, seats, seed, match)) + "\n"
        if path.exists() and path.read_text() == text:
            continue
        changed += 1
        print(f"{'would change' if args.check else 'wrote'} {path}")
        if not args.check:
            path.write_text(text)
    return 1 if (args.check and changed) else 0


if __name__ == "__main__":
    sys.exit(main())
