#!/usr/bin/env python
"""The strength table of the policies (issue 4), written to docs/strength.md.

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
import time
from pathlib import Path

from reversis_sim.analysis import stats
from reversis_sim.compare import compare
from reversis_sim.policies import FAMILIES, parse_spec
from reversis_sim.rules import get_preset

POLICIES = ["random", "naive", "avoid", "cautious", "hunter", "saver", "bold"]
FIELDS = ["random", "avoid"]
OUT = Path(__file__).resolve().parents[1] / "docs" / "strength.md"


def fmt_ci(mean: float, low: float, high: float) -> str:
    return f"{mean:+.3f} [{low:+.3f}, {high:+.3f}]"


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
        spec = f"avoid:{p.name}={value:g}"
        r = compare(rules, spec, "avoid", "avoid", n_matches=n_param, seed=args.seed)
        lines.append(f"| `{p.name}` | {value:g} ({p.default:g}) | {p.doc} | "
                     f"{fmt_ci(r.mean_difference, r.ci_low, r.ci_high)} | {r.p_value:.2g} |")
        print(lines[-1], flush=True)
    from reversis_sim.bench import measure

    lines += ["", "## Engine speed with heuristic policies", "",
              "| seats | reference deals/s | kernel 1 thread | kernel all threads | threads |", "|---|---|---|---|---|"]
    for seats in (["random"], ["avoid"], ["naive"]):
        m = measure(rules, seats, 120_000, reference_deals=1_200, repeat=3)
        lines.append(f"| `{seats[0]}` ×4 | {m['reference_deals_per_s']:,.0f} | "
                     f"{m['kernel_deals_per_s_1_thread']:,.0f} | {m['kernel_deals_per_s_all_threads']:,.0f} | "
                     f"{m['threads']} |")
        print(lines[-1], flush=True)
    lines += ["", f"Computed in {time.perf_counter() - t_start:,.0f} s on a 2-core machine.", ""]
    args.out.write_text("\n".join(lines))
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
