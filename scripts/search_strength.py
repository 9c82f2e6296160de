"""The search player's strength and cost (docs/search.md): the documented setting against the best tuned heuristic
on fresh deals under parlett and modern, the curve of strength against worlds per card with the cost of each, and
the exploitability of the documented setting by the heuristic family's best response.

    python scripts/search_strength.py                 # about 40 minutes on 2 cores
    python scripts/search_strength.py --only curve    # one part

The explore seed (101) chose the setting (worlds=16, margin=1: docs/search.md); every number here is on other
seeds. Writes results/search/strength.json.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from reversis_sim.bench import measure_search  # noqa: E402
from reversis_sim.compare import compare  # noqa: E402
from reversis_sim.rules import get_preset  # noqa: E402
from reversis_sim.tune import best_response  # noqa: E402

OUT = ROOT / "results" / "search" / "strength.json"
CONFIRM_SEED, CURVE_SEED, EXPLOIT_SEED = 202, 303, 404
SETTINGS = {"parlett": ("search", "tuned"), "modern": ("search:rollout=tuned_modern", "tuned_modern")}
WORLDS = (1, 2, 4, 8, 16, 32, 64)


def _row(res) -> dict:
    s = res.summary()
    return {"gain": s["mean_difference"], **{k: s[k] for k in ("ci_low", "ci_high", "p_value", "n_deals_compared",
                                                                  "variance_reduction")}}


def _compare(rules: str, cand: str, base: str, deals: int, seed: int):
    r = get_preset(rules)
    return compare(r, cand, base, n_matches=-(-deals // r.match_deals), seed=seed)


def confirm(deals: int) -> dict:
    out = {}
    for rules, (cand, base) in SETTINGS.items():
        t = time.perf_counter()
        res = _compare(rules, cand, base, deals, CONFIRM_SEED)
        out[rules] = {"candidate": cand, "baseline": base, **_row(res), "seconds": time.perf_counter() - t}
        print(rules, out[rules], flush=True)
    return out


def curve(deals: int) -> dict:
    out = {}
    for rules, (cand, base) in SETTINGS.items():
        rows = []
        for w in WORLDS:
            spec = cand.replace("search", f"search:worlds={w}", 1) if ":" not in cand else \
                cand.replace("search:", f"search:worlds={w},", 1)
            t = time.perf_counter()
            res = _compare(rules, spec, base, deals, CURVE_SEED)
            rows.append({"worlds": w, "candidate": spec, **_row(res), "seconds": time.perf_counter() - t})
            print(rules, rows[-1], flush=True)
        cost = measure_search(get_preset(rules), [r["candidate"] for r in rows], base, 600, repeat=2)
        for r, c in zip(rows, cost["rows"]):
            r.update({k: c[k] for k in ("deals_per_s_1_thread", "deals_per_s_all_threads", "cards_per_s_1_thread",
                                        "x_field")})
        out[rules] = {"baseline": base, "field_deals_per_s_1_thread": cost["field_deals_per_s_1_thread"],
                      "rows": rows}
    return out


def exploit(budget: int, confirm_deals: int) -> dict:
    t = time.perf_counter()
    res = best_response(get_preset("parlett"), "search", budget_deals=budget, eval_deals=2_400, seed=EXPLOIT_SEED,
                        confirm_seed=EXPLOIT_SEED + 1, confirm_deals=confirm_deals)
    s = res.summary()
    out = {"field": "search", **{k: s[k] for k in ("best", "confirmed_gain", "ci_low", "ci_high") if k in s},
           "budget_deals": budget, "confirm_deals": confirm_deals, "seconds": time.perf_counter() - t}
    print(out, flush=True)
    return out


def markdown(result: dict) -> str:
    """The tables of docs/search.md from the results."""
    out = ["| rules | search | baseline (and field) | gain over the baseline [95% CI] | deals (seed) |",
           "|---|---|---|---|---|"]
    for rules, r in result.get("confirm", {}).items():
        out.append(f"| `{rules}` | `{r['candidate']}` | `{r['baseline']}` | {r['gain']:+.2f} [{r['ci_low']:+.2f}, "
                   f"{r['ci_high']:+.2f}] | {r.get('n_deals_compared', r.get('n_deals')):,} ({CONFIRM_SEED}) |")
    for rules, c in result.get("curve", {}).items():
        out += ["", f"`{rules}`, against `{c['baseline']}` (seed {CURVE_SEED}); cost with one searching seat among "
                f"three `{c['baseline']}`, whose own table plays {c['field_deals_per_s_1_thread']:,.0f} deals/s per "
                "core:", "",
                "| worlds | gain [95% CI] | deals/s per core | deals/s, all threads | its cards/s per core | "
                "x slower |", "|---|---|---|---|---|---|"]
        for r in c["rows"]:
            out.append(f"| {r['worlds']} | {r['gain']:+.2f} [{r['ci_low']:+.2f}, {r['ci_high']:+.2f}] | "
                       f"{r.get('deals_per_s_1_thread', 0):,.0f} | {r.get('deals_per_s_all_threads', 0):,.0f} | "
                       f"{r.get('cards_per_s_1_thread', 0):,.0f} | {r.get('x_field', 0):,.0f} |")
    e = result.get("exploit")
    if e:
        out += ["", f"Best response of the `avoid` family to three `{e['field']}` (parlett, seed {EXPLOIT_SEED}, "
                f"{e['budget_deals']:,} deals of search, {e['confirm_deals']:,} of confirmation on seed "
                f"{EXPLOIT_SEED + 1}): `{e['best']}`, confirmed gain over `{e['field']}` in that seat "
                f"{e['confirmed_gain']:+.2f} [{e['ci_low']:+.2f}, {e['ci_high']:+.2f}] fish per deal."]
    return "\n".join(out)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--only", choices=["confirm", "curve", "exploit"], action="append")
    ap.add_argument("--markdown", action="store_true", help="print the tables of the saved results and stop")
    ap.add_argument("--confirm-deals", type=int, default=24_000)
    ap.add_argument("--curve-deals", type=int, default=4_800)
    ap.add_argument("--exploit-budget", type=int, default=120_000)
    ap.add_argument("--exploit-confirm", type=int, default=48_000)  # the tuner refuses less (docs/statistics.md §9)
    args = ap.parse_args(argv)
    parts = args.only or ["confirm", "curve", "exploit"]
    result = json.loads(OUT.read_text()) if OUT.exists() else {}
    if args.markdown:
        print(markdown(result))
        return 0
    if "confirm" in parts:
        result["confirm"] = confirm(args.confirm_deals)
    if "curve" in parts:
        result["curve"] = curve(args.curve_deals)
    if "exploit" in parts:
        result["exploit"] = exploit(args.exploit_budget, args.exploit_confirm)
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps(result, indent=2) + "\n")
    print(f"wrote {OUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
