#!/usr/bin/env python
"""The strength table of the policies, written to docs/strength.md.

For every named policy: its mean fish per deal ± 95% CI in one seat (each seat in turn, duplicate deals) against
(a) three `random` players and (b) three copies of the best default heuristic (`avoid`), at least 1,000,000 deals
per line; the paired difference to the field's own policy; head-to-head checks that `avoid` beats `random` and
the naive baseline; the effect of moving each `avoid` parameter off its default; and the engine's deals/s with
heuristic policies.

    python scripts/strength_table.py                    # full size (a few minutes with the numba engine)
    python scripts/strength_table.py --deals 24000      # quick look
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from reversis_sim.analysis import stats
from reversis_sim.compare import compare
from reversis_sim.policies import FAMILIES, NAMED, parse_spec
from reversis_sim.rules import get_preset

POLICIES = ["random", "naive", "avoid", "cautious", "hunter", "saver", "bold", "tuned"]
FIELDS = ["random", "avoid"]
ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "docs" / "strength.md"
PRESETS_JSON = ROOT / "results" / "tuning" / "presets.json"  # written by studies/tune_presets/tune_presets.py
HAND = ("<!-- written by hand: scripts/strength_table.py keeps what lies between these two lines -->",
        "<!-- end of what is written by hand -->")
"""The sections of docs/strength.md written by hand (the studies of issues 27 and 28), kept where they are when
the tables are computed again."""



NOTES = (
    "Notes: `opposite` shows exactly 0 because at the default `save_dumps=0` an Ace is dumped at once anyway; the\n"
    "switch only acts together with `save_dumps=1`. `take=0` (always exchange with the talon) beats the default by\n"
    "about 5.6 fish per deal: see docs/findings.md for its explore/confirm test. `tuned` is the end of the self-play\n"
    "above; it differs from `avoid` in `take`, `declare`, `reversis`, `break`, `unload`, `opposite` and `rev_top`.\n"
    "The search player (docs/search.md) is stronger than every heuristic here: the default `search` (0.2.0) beats\n"
    "`tuned` by +8.67 [+7.72, +9.63] fish per deal on fresh deals (48,000, seed 505), at 1/14 to 1/25 of its speed."
)

def kept_by_hand(path: Path) -> list[str]:
    """The lines between the two :data:`HAND` markers of the file at ``path``, the markers with them (none when the
    file or the markers are missing)."""
    lines = path.read_text().splitlines() if path.exists() else []
    if HAND[0] not in lines or HAND[1] not in lines:
        return []
    return lines[lines.index(HAND[0]):lines.index(HAND[1]) + 1]


def fmt_ci(mean: float, low: float, high: float) -> str:
    return f"{mean:+.3f} [{low:+.3f}, {high:+.3f}]"


def _ci(r: dict, mean: str = "confirmed_gain") -> str:
    return f"{r[mean]:+.2f} [{r['ci_low']:+.2f}, {r['ci_high']:+.2f}]"


def tuned_section(path: Path) -> list[str]:
    """The tuned presets, their self-play rounds and the exploitability table, from
    studies/tune_presets/tune_presets.py's report (not recomputed here: that script is what measured them)."""
    if not path.exists():
        return ["", f"(No tuned presets: run `python studies/tune_presets/tune_presets.py` to write {path.name}.)"]
    report = json.loads(path.read_text())
    named = {}
    for k, v in NAMED.items():  # the first name of a spec (strong_modern is tuned_modern's spec)
        named.setdefault(v, k)
    out = ["", "## Tuned presets", "",
           "Iterated best responses (`reversis-sim tune --self-play`, docs/tuning.md): round 0 tunes every parameter "
           "of `avoid` in one seat against three `avoid`; each later round tunes against three copies of the "
           "previous round's result, on its own explore and confirm seeds "
           f"({report['budget_deals']:,} deals of search, {report['confirm_deals']:,} fresh deals of confirmation "
           "per round). A round's *confirmed gain* is its best response's gain over the field's own policy on the "
           "fresh deals: the field's exploitability by the family (a lower bound: the search may miss better "
           "responses). The rounds stop when that interval contains 0. Made by "
           "`python studies/tune_presets/tune_presets.py`; the numbers are in `results/tuning/presets.json`.", "",
           "| rules | preset | setting | stopped | rounds | exploitability (last round) | gain over `avoid` [95% CI] |",
           "|---|---|---|---|---|---|---|"]
    for rules, r in report["rules"].items():
        last, g = r["rounds"][-1], r["gain_over_avoid"]
        exploit = (_ci(last) if r["stopped"] == "converged" else
                   _ci(min(r["rounds"], key=lambda x: x["confirmed_gain"])))
        out.append(f"| `{rules}` | `{named.get(r['final'], '(unnamed)')}` | `{r['final']}` | {r['stopped']} | "
                   f"{len(r['rounds'])} | {exploit} | {_ci(g, 'mean_difference')} |")
    for rules, r in report["rules"].items():
        out += ["", f"### Self-play under `{rules}`", "",
                "| round | field | best response | confirmed gain over the field [95% CI] |", "|---|---|---|---|"]
        for x in r["rounds"]:
            out.append(f"| {x['round']} | `{x['field']}` | `{x['best']}` | {_ci(x)} |")
    if report.get("cross"):
        out += ["", "### Does the best setting differ between rule families?", "",
                "Each tuned preset in one seat against three copies of another, under each rule set (the row's "
                "preset minus the column's, on the same deals): a positive entry means the row's setting is the "
                "better one there.", "",
                "| rules | candidate | baseline (and field) | difference [95% CI] |", "|---|---|---|---|"]
        for x in report["cross"]:
            out.append(f"| `{x['rules']}` | `{named.get(x['candidate'], x['candidate'])}` | "
                       f"`{named.get(x['baseline'], x['baseline'])}` | {_ci(x, 'mean_difference')} |")
    if report.get("exploitability"):
        out += ["", "### Exploitability by the `avoid` family (parlett)", "",
                "For each policy, `reversis-sim best-response --field POLICY`: the best setting of `avoid` found in "
                "one seat against three copies of the policy, and its confirmed gain over the policy itself in that "
                "seat on fresh deals. 0 means the family found nothing better than the policy against itself.", "",
                "| policy | best response found | confirmed gain [95% CI] |", "|---|---|---|"]
        for x in report["exploitability"]:
            name = named.get(x["policy"], x["policy"])
            out.append(f"| `{name}` | `{x['best']}` | {_ci(x)} |")
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rules", default="parlett")
    ap.add_argument("--deals", type=int, default=1_000_000, help="deals per line (whole matches)")
    ap.add_argument("--param-deals", type=int, default=240_000, help="deals per parameter line")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--out", type=Path, default=OUT)
    args = ap.parse_args()
    rules = get_preset(args.rules)
    n_matches = -(-args.deals // rules.match_deals)
    t_start = time.perf_counter()
    lines = [
        "# Policy strength",
        "",
        f"Rules `{rules.name}`, seed {args.seed}, {n_matches * rules.match_deals:,} deals per line (whole matches of "
        f"{rules.match_deals}), numba engine. Regenerate with:",
        "",
        "```bash",
        f"python scripts/strength_table.py --rules {rules.name} --deals {args.deals} --param-deals "
        f"{args.param_deals} --seed {args.seed}",
        "```",
        "",
        "Each line seats the policy in one seat and the field's policy in the other three, every seat in turn, "
        "on the same deals (duplicate design, common random numbers). *Fish per deal* is the policy's mean in its "
        "seat with a 95% interval over matches (the match is the sampling unit). *vs field* is the paired "
        "difference from the field's own policy in that seat on the same deals; *VR* is how many times fewer "
        "deals the paired design needs than an unpaired comparison. Means are in raw fish: every seat also loses "
        "its share of the chips left in the pool at the end of a match, so the field's own policy is below 0.",
        "",
    ]
    for k, field in enumerate(FIELDS):
        lines += [f"## ({'ab'[k]}) Against three `{field}`", "",
                  "| policy | spec | fish per deal [95% CI] | vs field [95% CI] | p | VR |",
                  "|---|---|---|---|---|---|"]
        for name in POLICIES:
            r = compare(rules, name, field, field, n_matches=n_matches, seed=args.seed)
            c = stats.mean_ci(r.per_match["candidate"].to_numpy())
            lines.append(f"| `{name}` | `{parse_spec(name)}` | {fmt_ci(c.mean, c.ci_low, c.ci_high)} | "
                         f"{fmt_ci(r.mean_difference, r.ci_low, r.ci_high)} | {r.p_value:.2g} | "
                         f"{r.variance_reduction:.1f} |")
            print(lines[-1], flush=True)
        lines.append("")
    lines += ["## Head to head", "",
              "The best default heuristic against the baselines, each field in turn (candidate minus baseline):", "",
              "| candidate | baseline | field | difference [95% CI] | p |", "|---|---|---|---|---|"]
    for base in ("random", "naive"):
        for field in ("random", "avoid", "naive"):
            r = compare(rules, "avoid", base, field, n_matches=n_matches, seed=args.seed)
            lines.append(f"| `avoid` | `{base}` | `{field}` | {fmt_ci(r.mean_difference, r.ci_low, r.ci_high)} | "
                         f"{r.p_value:.2g} |")
            print(lines[-1], flush=True)
    n_param = -(-args.param_deals // rules.match_deals)
    lines += ["", "## Each `avoid` parameter moved off its default", "",
              f"{n_param * rules.match_deals:,} deals per line, field `avoid`, paired against `avoid` itself: a "
              "parameter matters when its interval excludes 0.", "",
              "| parameter | value (default) | idea | difference [95% CI] | p |", "|---|---|---|---|---|"]
    for p in FAMILIES["avoid"].params:
        value = (1 - p.default) if p.high == 1 else (p.low if p.default != p.low else p.high)
        if p.name == "reversis":
            value = 9
        if p.name == "rev_top":
            value = 6  # 0 would commit every seat from the first card
        spec = f"avoid:{p.name}={value:g}"
        r = compare(rules, spec, "avoid", "avoid", n_matches=n_param, seed=args.seed)
        lines.append(f"| `{p.name}` | {value:g} ({p.default:g}) | {p.doc} | "
                     f"{fmt_ci(r.mean_difference, r.ci_low, r.ci_high)} | {r.p_value:.2g} |")
        print(lines[-1], flush=True)
    lines += tuned_section(PRESETS_JSON)
    lines += [""] + kept_by_hand(args.out)
    from reversis_sim.bench import measure

    lines += ["", "## Engine speed with heuristic policies", "",
              "| seats | reference deals/s | kernel 1 thread | kernel all threads | threads |", "|---|---|---|---|---|"]
    for seats in (["random"], ["avoid"], ["naive"]):
        m = measure(rules, seats, 120_000, reference_deals=1_200, repeat=3)
        lines.append(f"| `{seats[0]}` ×4 | {m['reference_deals_per_s']:,.0f} | "
                     f"{m['kernel_deals_per_s_1_thread']:,.0f} | {m['kernel_deals_per_s_all_threads']:,.0f} | "
                     f"{m['threads']} |")
        print(lines[-1], flush=True)
    lines += ["", NOTES, "", f"Computed in {time.perf_counter() - t_start:,.0f} s on a 2-core machine.", ""]
    args.out.write_text("\n".join(lines))
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
