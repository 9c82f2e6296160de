"""The learned declaration measured (docs/strength.md, "`learned`"): for each rule family, a table of four of the
shipped learned player against a table of four of the same player without its declaration model (its ``avoid``
setting's declaration), on the same deals dealt so that seat 0 may declare (``learn``'s condition,
:func:`reversis_sim.learn.run.eligible_where`). No other seat can hold an espagnolette hand and both tables play the
same card and exchange weights, so the tables differ only by seat 0's declaration: its fish a deal, paired by match,
is the gain with its 95% interval; times the share of unconstrained deals whose seat 0 passes the condition, it is
the gain of a seat a deal. Also: how often a seat may declare in unconstrained deals, and the fit the file records.

    python studies/learned_strength/declaration_gain.py        # about 2 minutes on a loaded 2-core machine

Writes results/learned/declaration.json.
"""

from __future__ import annotations

import json
import tempfile
import time
from pathlib import Path

import numpy as np

from reversis_sim.constraints import deals_of, parse_where
from reversis_sim.learn.run import eligible_where
from reversis_sim.numba_engine.batch import play_matches
from reversis_sim.numba_engine.hands import dealt_hands
from reversis_sim.policies import weights as W
from reversis_sim.rules import get_preset

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "results" / "learned" / "declaration.json"
SEEDS = {"parlett": 4331, "serbian": 4631, "modern": 4531}
"""Seeds that chose nothing (the declaration models were learned on 4302, 4602 and 4502)."""
MATCHES = {"parlett": 40_000, "serbian": 40_000, "modern": 20_000}


def measure(name: str, base_dir: Path) -> dict:
    rules = get_preset(name)
    shipped = W.load(name)
    base = base_dir / f"{name}.npz"  # the same player, its declaration model set aside
    W.save(base, shipped.W, WX=shipped.WX, exchange=shipped.exchange, rules=rules, command=shipped.command,
           provenance=shipped.provenance)
    cand, plain = f"learned:weights={name}", f"learned:weights={base}"
    seed, n = SEEDS[name], MATCHES[name]
    where = eligible_where(rules)
    deals = deals_of(rules, (), where)
    t0 = time.time()
    a = play_matches(rules, [cand] * 4, seed=seed, first_match=0, n_matches=n, deals=deals, threads=1)
    b = play_matches(rules, [plain] * 4, seed=seed, first_match=0, n_matches=n, deals=deals, threads=1)
    per = rules.match_deals
    diff = (a["fish"][:, 0].astype(float) - b["fish"][:, 0].astype(float)).reshape(n, per).sum(1) / per
    m, se = float(diff.mean()), float(diff.std(ddof=1) / np.sqrt(n))
    declared_a, declared_b = a["espagnolette_seat"] == 0, b["espagnolette_seat"] == 0
    condition = parse_where(where, rules.n_seats)
    hands = dealt_hands(rules, seed=seed + 1, first_match=0, n_matches=10_000)
    passes = np.array([condition.evaluate([int(x) for x in h] + [0] * (6 - len(h))) for h in hands])
    p = float(passes.mean())
    free = play_matches(rules, [cand] * 4, seed=seed + 2, first_match=0, n_matches=3_000, threads=1)
    return {"rules": name, "seed": seed, "deals": n * per, "where": where, "candidate": "the shipped file",
            "baseline": "the same file without its declaration model (its avoid setting declares)",
            "seat0_eligible_share": float(np.mean(a["espagnolette_eligible"] == 0)),
            "seat0_declares_candidate": float(declared_a.mean()), "seat0_declares_baseline": float(declared_b.mean()),
            "deals_declared_differently": int(np.sum(declared_a != declared_b)),
            "gain_per_constrained_deal": m, "ci95": [m - 1.96 * se, m + 1.96 * se],
            "condition_share_of_deals": p, "condition_share_se": float(np.sqrt(p * (1 - p) / len(passes))),
            "condition_deals_sampled": len(passes),
            "gain_per_seat_and_deal": p * m, "gain_per_seat_and_deal_ci95": [p * (m - 1.96 * se), p * (m + 1.96 * se)],
            "eligible_share_of_deals_unconstrained": float(np.mean(free["espagnolette_eligible"] >= 0)),
            "unconstrained_deals": 3_000 * per, "fit": shipped.provenance["fit"]["declaration"],
            "command": shipped.command, "seconds": time.time() - t0}


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        out = {name: measure(name, Path(tmp)) for name in SEEDS}
    OUT.write_text(json.dumps(out, indent=1) + "\n")
    for name, r in out.items():
        print(f"{name}: {r['gain_per_constrained_deal']:+.3f} [{r['ci95'][0]:+.3f}, {r['ci95'][1]:+.3f}] fish a "
              f"constrained deal, {r['gain_per_seat_and_deal']:+.4f} a seat and deal")


if __name__ == "__main__":
    main()
