"""The search player's strength and cost (docs/search.md): the default `search` against the best tuned
heuristic of the rules and against the search it replaced (`search:worlds=16` with the `tuned` rollout and
neither race nor start, the default before 0.2.0), under parlett, modern and serbian, on a fresh seed; the curve of
strength against cost for worlds 1..64, old and new; the exploitability of the default by the heuristic family's
best response.

    python studies/search_strength/search_strength.py               # about 45 minutes on 2 cores
    python studies/search_strength/search_strength.py --only curve  # one part
    python studies/search_strength/search_strength.py --markdown    # docs/search.md's tables, from the saved results
    python studies/search_strength/search_strength.py --figure      # the curve's figure, from the saved results

The exploring seed (101) chose the setting (docs/search.md); every number here is on other seeds. Writes
results/search/strength.json and results/search/curve.png. The numbers of the search before 0.2.0, measured the
same way then, are in results/search/strength_worlds16.json.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import polars as pl

from reversis_sim.bench import measure_search
from reversis_sim.compare import compare
from reversis_sim.plot import strength_speed
from reversis_sim.plot.files import save_figure
from reversis_sim.rules import get_preset
from reversis_sim.tune import best_response

ROOT = Path(__file__).resolve().parents[2]

OUT = ROOT / "results" / "search" / "strength.json"
CONFIRM_SEED, CURVE_SEED, EXPLOIT_SEED = 505, 606, 707
OLD = "search:worlds=16,race=0,first=4,start=0,rollout={}"
"""The default search before 0.2.0, spelled out (its rollout policy given per rules)."""
SETTINGS = {"parlett": ("search", "tuned", OLD.format("tuned")),
            "modern": ("search:rollout=strong_modern", "tuned_modern", OLD.format("tuned_modern")),
            "serbian": ("search:rollout=strong_serbian", "tuned_serbian", OLD.format("tuned_serbian"))}
"""Per rules: the default search (its rollout policy the rules' `strong`), the rules' tuned heuristic (the field
and the first baseline), and the old search (the second baseline)."""
WORLDS = (1, 2, 4, 8, 16, 32, 64)


def _row(res) -> dict:
    s = res.summary()
    return {"gain": s["mean_difference"], **{k: s[k] for k in ("ci_low", "ci_high", "p_value", "n_deals_compared",
                                                                  "variance_reduction")}}


def _compare(rules: str, cand: str, base: str, field: str, deals: int, seed: int) -> dict:
    r = get_preset(rules)
    t = time.perf_counter()
    res = compare(r, cand, base, field=field, n_matches=-(-deals // r.match_deals), seed=seed)
    out = {"candidate": cand, "baseline": base, "field": field, **_row(res), "seconds": time.perf_counter() - t}
    print(rules, out, flush=True)
    return out


def confirm(deals: int) -> dict:
    """Per rules: the default against the tuned heuristic and against the old search, a tuned field."""
    return {rules: {"against_tuned": _compare(rules, new, tuned, tuned, deals, CONFIRM_SEED),
                    "against_old": _compare(rules, new, old, tuned, deals, CONFIRM_SEED)}
            for rules, (new, tuned, old) in SETTINGS.items()}


def _with_worlds(spec: str, worlds: int) -> str:
    """``spec`` (a search without a rollout in parentheses) with ``worlds`` worlds per card."""
    name, _, params = spec.partition(":")
    return f"{name}:" + ",".join([f"worlds={worlds}"] + [p for p in params.split(",") if p and
                                                          not p.startswith("worlds=")])


def curve(deals: int) -> dict:
    """Parlett: the gain over `tuned` and the cost of the old search and of the default, by worlds."""
    new, tuned, old = SETTINGS["parlett"]
    rows = [{"kind": kind, "worlds": w, **_compare("parlett", _with_worlds(spec, w), tuned, tuned, deals,
                                                    CURVE_SEED)}
            for kind, spec in (("new", new), ("old", old)) for w in WORLDS]
    cost = measure_search(get_preset("parlett"), [r["candidate"] for r in rows], tuned, 600, repeat=2)
    for r, c in zip(rows, cost["rows"]):
        r.update({k: c[k] for k in ("deals_per_s_1_thread", "deals_per_s_all_threads", "x_field")})
    return {"baseline": tuned, "field_deals_per_s_1_thread": cost["field_deals_per_s_1_thread"], "rows": rows}


def speed(deals: int, rounds: int) -> dict:
    """`bench --search` of the default and of the old search against a `tuned` table (parlett), ``rounds`` times:
    the machine is shared and noisy, so each round measures both and gives a ratio, and the median round counts."""
    new, tuned, old = SETTINGS["parlett"]
    out = []
    for _ in range(rounds):
        cost = measure_search(get_preset("parlett"), [old, new], tuned, deals, repeat=3)
        o, n = cost["rows"]
        out.append({"old_deals_per_s": o["deals_per_s_1_thread"], "new_deals_per_s": n["deals_per_s_1_thread"],
                    "old_x_tuned": o["x_field"], "new_x_tuned": n["x_field"],
                    "speedup": n["deals_per_s_1_thread"] / o["deals_per_s_1_thread"]})
        print(out[-1], flush=True)
    ups = sorted(r["speedup"] for r in out)
    return {"old": old, "new": new, "field": tuned, "deals": deals, "rounds": out, "median_speedup":
            ups[len(ups) // 2]}


def exploit(budget: int, confirm_deals: int) -> dict:
    t = time.perf_counter()
    res = best_response(get_preset("parlett"), "search", budget_deals=budget, eval_deals=2_400, seed=EXPLOIT_SEED,
                        confirm_seed=EXPLOIT_SEED + 1, confirm_deals=confirm_deals)
    s = res.summary()
    out = {"field": "search", **{k: s[k] for k in ("best", "confirmed_gain", "ci_low", "ci_high") if k in s},
           "budget_deals": budget, "confirm_deals": confirm_deals, "seconds": time.perf_counter() - t}
    print(out, flush=True)
    return out


def figure(result: dict) -> Path:
    """The curve: gain over `tuned` against deals per second (one searching seat among three `tuned`)."""
    c = result["curve"]
    names = {"new": "search since 0.2.0 (rollout strong, raced, from the sixth trick)", "old": "search before 0.2.0 "
             "(rollout tuned, every card in every world, from the first trick)"}
    players = pl.DataFrame([{"player": f"{r['worlds']}", "route": names[r["kind"]], "deals_per_s":
                             r["deals_per_s_1_thread"], "gain": r["gain"], "gain_low": r["ci_low"],
                             "gain_high": r["ci_high"]} for r in c["rows"]])
    drawn = all(r["ci_low"] == r["ci_low"] for r in c["rows"])  # NaN: too few matches for an interval
    fig = strength_speed(players, baseline="tuned", connect=True,
                         title="The search's strength against its cost, by worlds per card (parlett)",
                         caption=f"each point: worlds per card; duplicate, one seat against three tuned, "
                                 f"{c['rows'][0]['n_deals_compared']:,} deals, seed {CURVE_SEED} "
                                 + ("(bars: 95% intervals)" if drawn else "(too few matches for an interval the "
                                    "compare vouches for: none drawn)")
                                 + f"; deals per second with one searching seat, one thread (tuned's own table: "
                                 f"{c['field_deals_per_s_1_thread']:,.0f})")
    return save_figure(fig, OUT.parent / "curve.png", dpi=110)


def markdown(result: dict) -> str:
    """The tables of docs/search.md from the results."""
    out = []
    sp = result.get("speed")
    if sp:
        out += [f"Speed (`bench --search`, parlett, one searching seat among three `{sp['field']}`, {sp['deals']:,} "
                f"deals, one thread, {len(sp['rounds'])} rounds): the default plays "
                + ", ".join(f"{r['speedup']:.1f}" for r in sp["rounds"]) + f" times as many deals a second as the old "
                f"search (median {sp['median_speedup']:.1f}); "
                + ", ".join(f"{r['new_x_tuned']:.0f}" for r in sp["rounds"]) + " times slower than `tuned`'s table "
                "(the old: " + ", ".join(f"{r['old_x_tuned']:.0f}" for r in sp["rounds"]) + ").", ""]
    out += ["| rules | search | against | gain [95% CI] | deals (seed) |", "|---|---|---|---|---|"]
    for rules, r in result.get("confirm", {}).items():
        for x in (r["against_tuned"], r["against_old"]):
            out.append(f"| `{rules}` | `{x['candidate']}` | `{x['baseline']}` | {x['gain']:+.2f} "
                       f"[{x['ci_low']:+.2f}, {x['ci_high']:+.2f}] | {x['n_deals_compared']:,} ({CONFIRM_SEED}) |")
    c = result.get("curve")
    if c:
        out += ["", f"`parlett`, against `tuned` (seed {CURVE_SEED}); cost with one searching seat among three "
                f"`tuned`, whose own table plays {c['field_deals_per_s_1_thread']:,.0f} deals/s on one thread:", "",
                "| worlds | old: gain | old: deals/s | old: x slower | new: gain | new: deals/s | "
                "new: x slower |", "|---|---|---|---|---|---|---|"]
        by = {(r["kind"], r["worlds"]): r for r in c["rows"]}
        for w in WORLDS:
            cells = []
            for kind in ("old", "new"):
                r = by[(kind, w)]
                ci = "" if r["ci_low"] != r["ci_low"] else f" [{r['ci_low']:+.2f}, {r['ci_high']:+.2f}]"  # NaN: none
                cells += [f"{r['gain']:+.2f}{ci}",
                          f"{r['deals_per_s_1_thread']:,.0f}", f"{r['x_field']:,.0f}"]
            out.append(f"| {w} | " + " | ".join(cells) + " |")
    e = result.get("exploit")
    if e:
        out += ["", f"Best response of the `avoid` family to three `{e['field']}` (parlett, seed {EXPLOIT_SEED}, "
                f"{e['budget_deals']:,} deals of search, {e['confirm_deals']:,} of confirmation on seed "
                f"{EXPLOIT_SEED + 1}): `{e['best']}`, confirmed gain over `{e['field']}` in that seat "
                f"{e['confirmed_gain']:+.2f} [{e['ci_low']:+.2f}, {e['ci_high']:+.2f}] fish per deal."]
    return "\n".join(out)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--only", choices=["speed", "confirm", "curve", "exploit"], action="append")
    ap.add_argument("--markdown", action="store_true", help="print the tables of the saved results and stop")
    ap.add_argument("--figure", action="store_true", help="draw the curve from the saved results and stop")
    ap.add_argument("--confirm-deals", type=int, default=48_000)
    ap.add_argument("--curve-deals", type=int, default=48_000)  # 4,000 matches: an interval
    ap.add_argument("--speed-deals", type=int, default=4_800)
    ap.add_argument("--speed-rounds", type=int, default=5)
    ap.add_argument("--exploit-budget", type=int, default=960_000)
    ap.add_argument("--exploit-confirm", type=int, default=48_000)  # the tuner refuses less (docs/statistics.md §9)
    args = ap.parse_args(argv)
    parts = args.only or ["speed", "confirm", "curve", "exploit"]
    result = json.loads(OUT.read_text()) if OUT.exists() else {}
    if args.markdown:
        print(markdown(result))
        return 0
    if args.figure:
        print(f"wrote {figure(result)}")
        return 0
    run = {"speed": lambda: speed(args.speed_deals, args.speed_rounds), "confirm": lambda: confirm(args.confirm_deals),
           "curve": lambda: curve(args.curve_deals), "exploit": lambda: exploit(args.exploit_budget,
                                                                              args.exploit_confirm)}
    for part in ("speed", "confirm", "curve", "exploit"):
        if part in parts:
            result[part] = run[part]()
            OUT.parent.mkdir(parents=True, exist_ok=True)
            OUT.write_text(json.dumps(result, indent=2) + "\n")  # each part kept as soon as it is measured
    if "curve" in result:
        print(f"wrote {figure(result)}")
    print(f"wrote {OUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
