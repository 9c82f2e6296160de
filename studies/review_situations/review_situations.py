"""Where a player loses most against the search (docs/findings.md): its decisions reviewed in seat 0 of
a table of ``--field``, grouped into situations (the kind of decision crossed with holding the J♥, the last two
tricks and a reversis committed), ranked by the fish lost per deal in each.

The exploring review (``--seed``) only chooses the top situations; their fish lost per deal and error rates are
then measured on a review of other deals (``--confirm-seed``), each with its 95% interval (the match the unit),
and one replayable example of each (its costliest significant decision on the confirmation deals).

    python studies/review_situations/review_situations.py --policy tuned --field tuned --matches 4000 --worlds 32
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import numpy as np
import polars as pl

from reversis_sim import cards as C
from reversis_sim.analysis.stats import ratio_mean_ci
from reversis_sim.policies import parse_seats
from reversis_sim.review.batch import PlayerReview, read_review, run_review
from reversis_sim.review.marks import KINDS
from reversis_sim.review.settings import DEFAULT_WORLDS, review_settings
from reversis_sim.review.summary import error_rate_of
from reversis_sim.rules import PRESETS

KIND_NAMES = {2: "leading", 3: "following suit", 4: "discarding (void in the suit led)"}


def situation(kind: int, flags: int) -> str:
    parts = [KIND_NAMES[kind]]
    parts.append("holding the J♥" if flags & 1 else "not holding the J♥")
    if flags & 8:
        parts.append("in the last two tricks")
    if flags & 4:
        parts.append("a reversis committed")
    return ", ".join(parts)


def review(rules, a, seed: int, out: Path) -> tuple[pl.DataFrame, pl.DataFrame]:
    table = parse_seats([a.policy] + [a.field] * (rules.n_seats - 1), rules.n_seats)
    job = PlayerReview(rules, a.policy, a.field, a.matches, seed,
                       review_settings(rules.n_seats, table, [0], a.worlds, a.rollout, 0), chunk_matches=64)
    run_review(job, out, resume=(out / "manifest.json").exists())
    _, decisions, deals = read_review(out)
    labels = [situation(k, f) for k, f in zip(decisions["kind"].to_list(), decisions["flags"].to_list())]
    return decisions.with_columns(pl.Series("situation", labels)), deals


def per_deal(decisions: pl.DataFrame, n_matches: int, match_deals: int, which: str) -> dict:
    """Fish lost per deal in situation ``which`` and its error rate, each with its interval (matches as units)."""
    d = decisions.filter(pl.col("situation") == which)
    m = d["match"].to_numpy()
    loss = np.bincount(m, weights=d["loss"].to_numpy(), minlength=n_matches)
    count = np.bincount(m, minlength=n_matches).astype(float)
    fish = ratio_mean_ci(loss, np.full(n_matches, float(match_deals)), kind="error_rate")
    rate = error_rate_of(d, pl.DataFrame({"match": np.arange(n_matches)}))  # every match reviewed a unit
    return {"situation": which, "decisions_per_deal": count.sum() / (n_matches * match_deals),
            "fish_lost_per_deal": fish.mean, "fish_ci": [fish.ci_low, fish.ci_high],
            "error_rate": rate["error_rate"], "error_rate_ci": [rate["ci_low"], rate["ci_high"]]}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rules", default="parlett")
    ap.add_argument("--policy", default="tuned")
    ap.add_argument("--field", default="tuned")
    ap.add_argument("--worlds", type=int, default=DEFAULT_WORLDS)
    ap.add_argument("--rollout", default="tuned")
    ap.add_argument("--matches", type=int, default=4000)
    ap.add_argument("--seed", type=int, default=303, help="the exploring review: chooses the situations")
    ap.add_argument("--confirm-seed", type=int, default=404, help="the confirming review: measures them")
    ap.add_argument("--top", type=int, default=3)
    ap.add_argument("--out", default="results/review_situations")
    a = ap.parse_args()
    rules = PRESETS[a.rules]
    out = Path(a.out)
    t0 = time.time()
    explore, _ = review(rules, a, a.seed, out / f"explore_seed{a.seed}")
    ranked = (explore.group_by("situation").agg(pl.col("loss").sum().alias("lost"), pl.len().alias("n"))
              .sort("lost", descending=True))
    top = ranked["situation"].head(a.top).to_list()
    print(f"explored {explore.height:,} decisions ({time.time() - t0:.0f} s); the top situations by fish lost:")
    for r in ranked.head(a.top + 3).iter_rows(named=True):
        print(f"  {r['lost'] / (a.matches * rules.match_deals):7.3f} fish a deal  {r['n']:>8,} decisions  "
              f"{r['situation']}")
    confirm, _ = review(rules, a, a.confirm_seed, out / f"confirm_seed{a.confirm_seed}")
    total = per_deal(confirm.with_columns(pl.lit("all").alias("situation")), a.matches, rules.match_deals, "all")
    rows = []
    seats = " ".join(f"--seat {p}" for p in [a.policy] + [a.field] * (rules.n_seats - 1))
    for which in top:
        r = per_deal(confirm, a.matches, rules.match_deals, which)
        sig = confirm.filter((pl.col("situation") == which) & (pl.col("loss") > 2 * pl.col("loss_se")))
        # a typical example (the significant loss at the median of the situation's) and the costliest
        ordered = sig.sort("loss")
        examples = [ordered.row(ordered.height // 2, named=True), ordered.row(-1, named=True)] if sig.height else []
        for name, ex in zip(("example", "costliest"), examples):
            r[name] = {"loss": ex["loss"], "loss_se": ex["loss_se"], "trick": ex["trick"],
                       "played": C.name(ex["played"]), "best": C.name(ex["best"]),
                       "replay": f"reversis-sim review --rules {a.rules} --seed {a.confirm_seed} --match "
                                 f"{ex['match']} --deal {ex['deal']} {seats} --review-seat 0"
                                 + (f" --worlds {a.worlds}" if a.worlds != DEFAULT_WORLDS else "")}
        ex = r.get("example")
        rows.append(r)
        lo, hi = r["error_rate_ci"]
        rate_ci = f"[{lo:.2f}, {hi:.2f}]" if lo is not None else "(too few matches for its interval)"
        print(f"confirmed: {r['fish_lost_per_deal']:.3f} [{r['fish_ci'][0]:.3f}, {r['fish_ci'][1]:.3f}] fish a "
              f"deal, error rate {r['error_rate']:.2f} {rate_ci}, "
              f"{r['decisions_per_deal']:.2f} decisions a deal: {which}")
        for name in ("example", "costliest"):
            if name in r:
                e = r[name]
                print(f"    {name}: {e['played']} played, {e['best']} best, {e['loss']:.0f} ± {e['loss_se']:.0f} fish "
                      f"at trick {e['trick']}: {e['replay']}")
    print(f"all decisions: {total['fish_lost_per_deal']:.3f} [{total['fish_ci'][0]:.3f}, {total['fish_ci'][1]:.3f}]"
          f" fish a deal, error rate {total['error_rate']:.2f}; {time.time() - t0:.0f} s")
    (out / "situations.json").write_text(json.dumps({"settings": vars(a), "kinds": KINDS, "explore": ranked.to_dicts(),
                                                      "confirmed": rows, "all": total}, indent=2, default=str))


if __name__ == "__main__":
    main()
