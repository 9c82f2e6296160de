#!/usr/bin/env python
"""Write results/README.md from the run folders made by scripts/headline_run.sh (their summary tables)."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1] / "results"
HEADLINE = "parlett_avoid"
PRESET_RUNS = ["parlett_avoid", "parlett_penguin_avoid", "parlett_52_avoid", "pierer_avoid", "modern_avoid",
               "modern_five_avoid", "serbian_avoid"]
TUNED_PAIRS = [("parlett_avoid", "parlett_tuned"), ("modern_avoid", "modern_tuned"), ("serbian_avoid", "serbian_tuned")]
"""(avoid run, tuned run) of one rule set: the tuned players beside the default heuristic."""
STRONG_PAIRS = [("parlett_tuned", "parlett_strong"), ("serbian_tuned", "serbian_strong")]
"""(tuned run, strong run) of one rule set: the strong preset beside the tuned one it changes (under modern
strong_modern is tuned_modern, so there is no pair)."""
SEARCH_PAIRS = [("parlett_strong", "parlett_search"), ("modern_strong", "modern_search")]
"""(strong run, search run) of one rule set: the search beside the strongest heuristic."""
LEARNED_PAIRS = [("parlett_strong", "parlett_learned"), ("modern_strong", "modern_learned"),
                 ("serbian_strong", "serbian_learned")]
"""(strong run, learned run) of one rule set: the rule set's learned player beside its strongest heuristic."""


def ci(row: dict, digits: int = 2) -> str:
    return f"{row['mean']:+.{digits}f} [{row['ci_low']:+.{digits}f}, {row['ci_high']:+.{digits}f}]"


def rate(row: dict) -> str:
    if row["trials"] == 0:
        return "no events"
    return f"{row['rate']:.2%} [{row['ci_low']:.2%}, {row['ci_high']:.2%}] ({row['successes']:,}/{row['trials']:,})"


def _load(name: str):
    path = ROOT / name / "tables" / "all.json"
    if not path.exists():
        return None, None
    return json.loads(path.read_text()), json.loads((ROOT / name / "manifest.json").read_text())


TUNED_INTRO = ("Four copies of the tuned preset of each rule set (`docs/strength.md`: found by self-play with "
               "`reversis-sim tune`, confirmed on fresh deals) against four copies of `avoid`, the same seed and "
               "deal count. Fish per deal by position, the Quinola's fate and its holder's balance, reversis and "
               "espagnolette rates.")
STRONG_INTRO = ("Four copies of the strong preset of the rule family (`docs/strength.md`: `tuned` with a bare J♥ "
                "discarded at the talon before any Ace, +6.93 fish a deal over `tuned` in one seat under parlett) "
                "beside four copies of the tuned preset, the same seed (the deal counts are in each heading). Under "
                "`modern`, which has no talon, `strong_modern` is `tuned_modern` itself: its table is "
                "`results/modern_strong` (10,000,008 deals), shown beside the search below.")
LEARNED_INTRO = ("Four copies of the learned player of the rule set (`docs/strength.md`: the review's option values "
                 "learned by a linear model of the cards and of the talon decision, played in the kernel: `learned` "
                 "gains +6.46 fish a deal over `strong` in one seat under parlett) beside four copies of the "
                 "strong preset, the same seed and deal count.")
SEARCH_INTRO = ("Four copies of the search player as it was before 0.2.0 (`search:worlds=16,race=0,first=4,start=0,"
                "rollout=tuned`, docs/search.md: 16 worlds per card, rollouts by the tuned preset) beside four copies of the strong heuristic, the same seed; the "
                "search costs more, so it plays fewer deals (the intervals say how many were enough).")


def pairs_section(pairs, label_a: str, label_b: str, title: str, intro: str) -> list[str]:
    """A section of runs side by side, one pair of runs per rule set (none found: no section)."""
    body = [line for a, b in pairs for line in side_by_side(a, b, label_a, label_b)]
    return [f"## {title}", "", intro, "", *body] if body else []


def side_by_side(base_name: str, other_name: str, label_a: str, label_b: str) -> list[str]:
    """The headline tables of two runs of one rule set side by side, and what changed."""
    (a, ma), (t, mt) = _load(base_name), _load(other_name)
    if a is None or t is None:
        return []
    da, dt = (m["n_matches"] * m["match_deals"] for m in (ma, mt))
    deals = f"{da:,} deals each" if da == dt else f"{da:,} and {dt:,} deals"
    out = [f"### `{ma['rules']}`: `{ma['seats'][0]}` and `{mt['seats'][0]}` ({deals})", "",
           f"| measure | {label_a} | {label_b} |", "|---|---|---|"]
    for ra, rt in zip(a["fish_by_position"], t["fish_by_position"]):
        out.append(f"| fish per deal, position {ra['position']} | {ci(ra)} | {ci(rt)} |")
    fa, ft = ({r["quinola_fate"]: r for r in x["quinola_fate"]} for x in (a, t))
    for fate in ("dumped", "forced", "led", "talon"):
        if fate in fa or fate in ft:
            out.append(f"| J♥ {fate} | {rate(fa[fate]) if fate in fa else 'no events'} | "
                       f"{rate(ft[fate]) if fate in ft else 'no events'} |")
    ca, ct = ({r["fate"]: r for r in x["quinola_cost"]} for x in (a, t))
    if "all" in ca and "all" in ct:
        out.append(f"| J♥ holder's balance | {ci(ca['all'])} | {ci(ct['all'])} |")
    ea, et = ({r["event"]: r for r in x["reversis_rates"]} for x in (a, t))
    for event in ea:
        out.append(f"| {event.replace('_', ' ')} | {rate(ea[event])} | {rate(et.get(event, ea[event]))} |")
    return out + ["", what_changed(a, t, fa, ft, ea, et), ""]


def what_changed(a: dict, t: dict, fa: dict, ft: dict, ea: dict, et: dict) -> str:
    """One generated sentence: the measures whose intervals do not overlap between the two tables."""
    def moved(x: dict | None, y: dict | None, key: str = "rate") -> bool:
        return bool(x and y and (y["ci_low"] > x["ci_high"] or y["ci_high"] < x["ci_low"]))

    def share(row: dict | None) -> str:
        return f"{row['rate']:.2%}" if row and row.get("trials") else "none"

    parts = []
    pa, pt = a["fish_by_policy"][0], t["fish_by_policy"][0]
    if moved(pa, pt):
        parts.append(f"a seat's raw fish per deal moves from {pa['mean']:+.2f} to {pt['mean']:+.2f} (the pool "
                     f"stranded at the end of a match is what equal players lose)")
    else:
        parts.append(f"a seat's raw fish per deal stays at {pt['mean']:+.2f}")
    for fate in ("talon", "forced", "dumped", "led"):
        if moved(fa.get(fate), ft.get(fate)):
            parts.append(f"the J♥ is {fate} in {share(ft[fate])} of deals instead of {share(fa[fate])}")
    for event, what in (("reversis_committed", "a seat commits to the reversis"),
                        ("reversis_made", "a committed reversis is made"),
                        ("espagnolette_declared", "an eligible hand declares the espagnolette"),
                        ("espagnolette_made", "a declared espagnolette is made")):
        if event in ea and (event.startswith("reversis") or moved(ea.get(event), et.get(event))):
            parts.append(f"{what} in {share(et.get(event))} of the cases instead of {share(ea.get(event))}")
    return "What changed: " + "; ".join(parts) + "."


def main() -> int:
    argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter).parse_args()
    run = ROOT / HEADLINE
    tables = json.loads((run / "tables" / "all.json").read_text())
    manifest = json.loads((run / "manifest.json").read_text())
    n_deals = manifest["n_matches"] * manifest["match_deals"]
    lines = [
        "# Headline results",
        "",
        f"`{manifest['rules']}` rules, {n_deals:,} deals ({manifest['n_matches']:,} matches of "
        f"{manifest['match_deals']}), seed {manifest['seed']}, four copies of the default heuristic "
        f"(`{manifest['seats'][0]}`). Made by `bash scripts/headline_run.sh` (the Parquet parts are not committed; "
        "rerun the script to get them). 95% intervals; the match is the sampling unit.",
        "",
        "## Expected fish per deal",
        "",
        "| seat | fish per deal | with the pool share (zero-sum) |",
        "|---|---|---|",
    ]
    zero = {r["seat"]: r for r in tables["fish_by_seat_zero_sum"]}
    for r in tables["fish_by_seat"]:
        lines.append(f"| {r['seat']} | {ci(r)} | {ci(zero[r['seat']])} |")
    lines += ["", "By position relative to the dealer (0 = dealer, 1 = eldest, who leads first):", "",
              "| position | fish per deal |", "|---|---|"]
    for r in tables["fish_by_position"]:
        lines.append(f"| {r['position']} | {ci(r)} |")
    lines += ["", "Raw fish are negative for everyone because chips accumulate in the Quinola pool during a match "
              "(the forced or led Quinola doubles it); the zero-sum column gives each seat an equal share of the "
              "pool left at the end (RULES.md A34).", "",
              "## Quinola risk", "", "| fate of the J♥ | share of deals |", "|---|---|"]
    for r in tables["quinola_fate"]:
        lines.append(f"| {r['quinola_fate']} | {rate(r)} |")
    lines += ["", "What the Quinola moves to or from its holder (side payments and pool), fish per deal:", "",
              "| fate | fish per deal | deals |", "|---|---|---|"]
    for r in tables["quinola_cost"]:
        lines.append(f"| {r['fate']} | {ci(r)} | {r['n_deals']:,} |")
    lines += ["", "## Reversis and espagnolette", "", "| event | rate |", "|---|---|"]
    for r in tables["reversis_rates"]:
        lines.append(f"| {r['event'].replace('_', ' ')} | {rate(r)} |")
    lines += ["", "## Figures", "",
              f"![fish by position]({HEADLINE}/figures/fish_by_position.png)", "",
              f"![Quinola fate by heart length]({HEADLINE}/figures/quinola_fate_by_hearts.png)", "",
              f"![distribution of fish per deal]({HEADLINE}/figures/fish_distribution.png)", ""]
    rows = []
    for name in PRESET_RUNS:
        path = ROOT / name / "tables" / "all.json"
        if not path.exists():
            continue
        t = json.loads(path.read_text())
        m = json.loads((ROOT / name / "manifest.json").read_text())
        fate = {r["quinola_fate"]: r for r in t["quinola_fate"]}
        cost = {r["fate"]: r for r in t["quinola_cost"]}
        rows.append(f"| `{m['rules']}` | {m['n_matches'] * m['match_deals']:,} | "
                    f"{fate.get('forced', {}).get('rate', 0):.1%} | {fate.get('dumped', {}).get('rate', 0):.1%} | "
                    f"{fate.get('led', {}).get('rate', 0):.1%} | {fate.get('talon', {}).get('rate', 0):.1%} | "
                    f"{ci(cost['all']) if 'all' in cost else 'n/a'} |")
    if rows:
        lines += ["## The Quinola's danger across rule sets", "",
                  "`avoid` in every seat under each preset (five seats for `modern_five`, where the dealer sits "
                  "out each deal; the heuristic reads point values and payments from the "
                  "rules). *Holder's balance* is what the J♥ moves to or from the seat that holds it at the first "
                  "lead, per deal, with its 95% interval.", "",
                  "| rules | deals | forced | dumped | led | talon | holder's balance (fish per deal) |",
                  "|---|---|---|---|---|---|---|", *rows, "",
                  "*talon*: the J♥ never reached a trick: left in the talon (parlett, pierer) or, in `serbian`, "
                  "discarded in the compulsory exchange (F3.2); the "
                  "`modern` family and `parlett_52` have no talon. Fish are not comparable in size across rule sets "
                  "(the `modern` family pays penalty counters and a pot that never carries over, hence balances near "
                  "zero).", ""]
    lines += pairs_section(TUNED_PAIRS, "avoid", "tuned", "Tuned players beside avoid", TUNED_INTRO)
    lines += pairs_section(STRONG_PAIRS, "tuned", "strong", "Strong play at scale: the strong preset in every seat",
                           STRONG_INTRO)
    lines += pairs_section(LEARNED_PAIRS, "strong", "learned", "Learned play at scale: the learned player in every "
                           "seat", LEARNED_INTRO)
    lines += pairs_section(SEARCH_PAIRS, "strong", "search", "Stronger still: the search player in every seat",
                           SEARCH_INTRO)
    (ROOT / "README.md").write_text("\n".join(lines))
    print(f"wrote {ROOT / 'README.md'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
