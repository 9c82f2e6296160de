"""Rare events made common: reversis and espagnolette success by hand strength, from runs whose seat 0 is
dealt the hands that make them possible, with the weighting that turns the conditional rates back into
unconditional ones.

    python studies/rare_events/rare_events.py                 # 240,000 deals per study, seed 2026, tuned seats
    python studies/rare_events/rare_events.py --deals 24000 --markdown

For each study, a constrained run (``--where`` on seat 0's dealt hand) gives the rate of the event *among the deals
that meet the constraint* (seat 0's rows, Wilson 95% interval); the constraint's acceptance (the share of all
deals whose seat 0 holds such a hand, measured by the run's own shuffles) times that rate is the event's
unconditional frequency per seat-deal coming from such hands, printed beside the rate of the unconstrained run of
the same seats (where the event is often too rare to measure at all).
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

import polars as pl

from reversis_sim.analysis import load_run
from reversis_sim.analysis.hands import conditioning
from reversis_sim.analysis.tables import rate_table
from reversis_sim.constraints import deals_of
from reversis_sim.record import RunSpec
from reversis_sim.rules import get_preset
from reversis_sim.simulate import run

STUDIES = [
    ("espagnolette: seat 0 eligible (four Aces, or the J♥ and three)", "aces(0) == 4 or (has(0, JH) and aces(0) >= 3)",
     "espagnolette_made", "espagnolette_seat"),
    ("reversis: seat 0 holds five or more Aces and Kings", "aces(0) + kings(0) >= 5", "reversis_made",
     "reversis_seat"),
]


def seat0_rates(out: Path, seat_col: str, made_col: str) -> dict:
    """Seat 0's rate of (seat_col == 0) and of (seat_col == 0 and made), per deal."""
    _, lf = load_run(out)
    f = lf.filter(pl.col("seat") == 0).select((pl.col(seat_col) == 0).alias("tried"),
                                              ((pl.col(seat_col) == 0) & pl.col(made_col)).alias("made")).collect()
    n = f.height
    counts = pl.DataFrame({"event": ["tried", "made"], "k": [int(f["tried"].sum()), int(f["made"].sum())],
                           "n": [n, n]})
    return {r["event"]: r for r in rate_table(counts, "event", "k", "n").iter_rows(named=True)}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--deals", type=int, default=240_000)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--seat", default="tuned")
    ap.add_argument("--rules", default="parlett")
    ap.add_argument("--markdown", action="store_true")
    args = ap.parse_args(argv)
    rules = get_preset(args.rules)
    rows = []
    with tempfile.TemporaryDirectory(prefix="reversis-rare-") as tmp:
        plain = RunSpec.for_deals(rules, [args.seat], deals=args.deals, seed=args.seed)
        run(plain, Path(tmp) / "plain")
        for title, where, made_col, seat_col in STUDIES:
            spec = RunSpec.for_deals(rules, [args.seat], deals=args.deals, seed=args.seed,
                                     constraints=deals_of(rules, [], where))
            out = Path(tmp) / made_col
            run(spec, out)
            weight = conditioning(out)["acceptance"]
            cond = seat0_rates(out, seat_col, made_col)
            base = seat0_rates(Path(tmp) / "plain", seat_col, made_col)
            rows.append({"study": title, "where": where, "deals": spec.n_matches * spec.match_deals,
                         "acceptance": weight, "tried": cond["tried"], "made": cond["made"],
                         "made_unconditional_from_these_hands": cond["made"]["rate"] * weight,
                         "made_in_unconstrained_run": base["made"]})
    if args.markdown:
        print(f"`{args.rules}`, four `{args.seat}` seats, seed {args.seed}, {args.deals:,} deals per run; rates of "
              "seat 0 per deal.\n")
        print("| study | share of deals with such a hand (weight) | tried, among those deals | made, among those "
              "deals | made per deal from such hands (rate × weight) | made per deal, unconstrained run |")
        print("|---|---|---|---|---|---|")

        def r(x):
            return f"{x['rate']:.2%} [{x['ci_low']:.2%}, {x['ci_high']:.2%}] ({x['successes']:,})"

        for row in rows:
            print(f"| {row['study']} (`--where \"{row['where']}\"`) | {row['acceptance']:.3%} | {r(row['tried'])} | "
                  f"{r(row['made'])} | {row['made_unconditional_from_these_hands']:.4%} | "
                  f"{r(row['made_in_unconstrained_run'])} |")
    else:
        print(json.dumps(rows, indent=2, default=str))
    return 0


if __name__ == "__main__":
    sys.exit(main())
