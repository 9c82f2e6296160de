"""What a review over many deals says: the error rate (mean fish lost per non-forced decision) with its 95%
interval, the match the sampling unit; by decision kind, by trick, by situation; the marks; the costliest
decisions with their replay coordinates; the luck of the hands dealt and the luck-adjusted result."""

from __future__ import annotations

import numpy as np
import polars as pl

from ..analysis.intervals import MIN_MATCHES, n_needed
from ..analysis.stats import mean_ci, ratio_mean_ci_moments
from ..policies import parse_spec
from .marks import CARD_KINDS, KINDS, SITUATIONS, THRESHOLDS, option_name, rating
from .settings import DEFAULT_ROLLOUT, DEFAULT_WORLDS

LADDER_WORLDS = DEFAULT_WORLDS
"""The worlds the ladder behind the rating bands was reviewed with (:data:`.marks.RATING_BANDS`)."""
KIND = "error_rate"
"""The kind of quantity of an error rate's interval (:data:`reversis_sim.analysis.intervals.MIN_MATCHES`)."""


def error_rate_of(frame: pl.DataFrame, matches: pl.DataFrame) -> dict:
    """The error rate of ``frame``'s decisions, the review's ``matches`` (one column, ``match``) the units: mean
    loss per decision, interval, counts. A match without such a decision is a unit too (no loss in no decision):
    the sample is the matches reviewed, whatever part of them a breakdown keeps."""
    per = (matches.join(frame.group_by("match").agg(pl.col("loss").sum().alias("t"), pl.len().alias("n")),
                        on="match", how="left").fill_null(0))
    n = per["n"].to_numpy().astype(float)
    if n.sum() == 0:
        return {"decisions": 0, "matches": per.height, "error_rate": None, "ci_low": None, "ci_high": None,
                "matches_needed": 0}
    t = per["t"].to_numpy().astype(float)
    ci = ratio_mean_ci_moments(per.height, n.sum(), t.sum(), 0.0, (t * t).sum(), (t * n).sum(), (n * n).sum(),
                               kind=KIND)  # the moments take a match without such decisions (n = 0) as a unit
    # the interval holds from MIN_MATCHES matches that hold such decisions (measured on all of a player's): a rare
    # situation needs that many matches in which it occurs, and so more matches reviewed
    seen = int((n > 0).sum())
    needed = 0 if n_needed(seen, KIND) == 0 else -(-MIN_MATCHES[KIND] * per.height // seen)
    ok = needed == 0 and seen > 1
    return {"decisions": int(n.sum()), "matches": per.height, "error_rate": ci.mean,
            "ci_low": ci.ci_low if ok else None, "ci_high": ci.ci_high if ok else None,
            "matches_needed": needed}


def summarize_review(manifest: dict, decisions: pl.DataFrame, deals: pl.DataFrame, *, top: int = 10) -> dict:
    """The summary of a review folder's rows (:func:`.batch.read_review`)."""
    ident = manifest["identity"]
    names = manifest.get("names", {})
    policy, field = names.get("policy", ident["policy"]), names.get("field", ident["field"])
    n_seats = int(ident["rules_params"]["n_seats"])
    seats = " ".join(f"--seat '{p}'" if ("," in p or ":" in p) else f"--seat {p}"
                     for p in [policy] + [field] * (n_seats - 1))
    seats += f" --worlds {ident['worlds']}" if ident["worlds"] != DEFAULT_WORLDS else ""
    seats += f" --rollout '{ident['rollout']}'" if parse_spec(ident["rollout"]) != parse_spec(DEFAULT_ROLLOUT) else ""
    out: dict = {"policy": policy, "field": field, "rules": ident["rules"],
                 "worlds": ident["worlds"], "rollout": names.get("rollout", ident["rollout"]), "seed": ident["seed"],
                 "deals": deals.height, "matches": deals["match"].n_unique()}
    matches = deals.select(pl.col("match").unique().sort())
    out |= error_rate_of(decisions, matches)
    out["rating"] = rating(out["error_rate"])  # the band of docs/review.md's ladder
    out["hindsight_loss"] = float(decisions["hindsight_loss"].mean()) if decisions.height else None

    def rate(where: pl.Expr) -> dict:
        return error_rate_of(decisions.filter(where), matches)

    tricks = sorted(t for t in decisions["trick"].unique().to_list() if t > 0)  # 0: before the first lead
    out["by_kind"] = {name: rate(pl.col("kind") == code) for code, name in KINDS.items()}
    out["by_trick"] = {int(t): rate(pl.col("trick") == t) for t in tricks}
    out["by_trick_kind"] = [{"trick": 0, "kind": name, **rate(pl.col("kind") == code)}
                            for code, name in KINDS.items() if name not in CARD_KINDS]
    out["by_trick_kind"] += [{"trick": int(t), "kind": name,
                              **rate((pl.col("trick") == t) & (pl.col("kind") == code))}
                             for t in tricks for code, name in KINDS.items() if name in CARD_KINDS]
    out["by_situation"] = {name: rate((pl.col("flags") & bit) != 0) for bit, name in SITUATIONS.items()}
    sig = decisions.filter(pl.col("loss") > 2 * pl.col("loss_se"))
    out["marks_per_100_decisions"] = {
        m: 100.0 * sig.filter(pl.col("loss") >= t).height / max(decisions.height, 1) for m, t in THRESHOLDS.items()}
    worst = sig.sort("loss", descending=True).head(top)
    goal = bool(ident["rules_params"].get("espagnolette_goal_choice", False))
    out["costliest"] = [
        {"match": int(r["match"]), "deal": int(r["deal"]), "trick": int(r["trick"]), "seat": int(r["seat"]),
         "kind": KINDS[int(r["kind"])], "played": option_name(int(r["kind"]), int(r["played"]), goal),
         "best": option_name(int(r["kind"]), int(r["best"]), goal), "loss": float(r["loss"]),
         "loss_se": float(r["loss_se"]),
         "replay": f"reversis-sim review --rules {ident['rules']} --seed {ident['seed']} --match {int(r['match'])} "
                   f"--deal {int(r['deal'])} {seats} --review-seat 0"}
        for r in worst.iter_rows(named=True)]
    fish = deals["fish"].to_numpy().astype(float)
    m = deals["match"].to_numpy()
    out["fish_per_deal"] = mean_ci(fish, m, kind="seat").as_dict()
    luck = deals["luck"].to_numpy()
    if np.isfinite(luck).all() and luck.size:
        out["luck"] = mean_ci(luck, m, kind="seat").as_dict()
        out["luck_adjusted_fish_per_deal"] = mean_ci(fish - luck, m, kind="seat").as_dict()
    return out


def _mean(r: dict) -> str:
    """A mean with its interval, or the matches its interval needs."""
    if r["n_needed"]:
        return f"{r['mean']:+.2f} (interval: {r['n_needed']:,} matches needed)"
    return f"{r['mean']:+.2f} [{r['ci_low']:+.2f}, {r['ci_high']:+.2f}]"


def summary_rows(summary: dict) -> pl.DataFrame:
    """The breakdowns as one table (the CSV): group, key, decisions, error rate and its interval."""
    rows = [{"group": "all", "key": "all", **{k: summary[k] for k in ("decisions", "error_rate", "ci_low",
                                                                        "ci_high")}}]
    for group in ("by_kind", "by_trick", "by_situation"):
        for key, r in summary[group].items():
            rows.append({"group": group.removeprefix("by_"), "key": str(key),
                         **{k: r[k] for k in ("decisions", "error_rate", "ci_low", "ci_high")}})
    return pl.DataFrame(rows, schema={"group": pl.String, "key": pl.String, "decisions": pl.Int64,
                                      "error_rate": pl.Float64, "ci_low": pl.Float64, "ci_high": pl.Float64})


def summary_text(summary: dict) -> str:
    """The summary as a reader sees it."""
    def rate(r: dict) -> str:
        if r["error_rate"] is None:
            return "no decision"
        ci = (f"[{r['ci_low']:.2f}, {r['ci_high']:.2f}]" if r["ci_low"] is not None
              else f"(interval: {r['matches_needed']:,} matches needed)")
        return f"{r['error_rate']:6.2f} {ci}  ({r['decisions']:,} decisions)"

    s = summary
    lines = [f"{s['policy']} in seat 0 of {s['field']}, {s['rules']}, {s['deals']:,} deals ({s['matches']:,} matches); "
             f"each option played out in {s['worlds']} worlds by {s['rollout']}",
             f"error rate (fish lost per non-forced decision): {rate(s)}",
             f"  rating: {s['rating']} (bands anchored on the ladder of docs/review.md, there measured at "
             f"{LADDER_WORLDS} worlds at a table of tuned)" if s.get("rating") else "",
             f"  knowing every card (hindsight): {s['hindsight_loss']:.2f}" if s["hindsight_loss"] is not None else "",
             "by kind:"]
    lines += [f"  {k:<20} {rate(r)}" for k, r in s["by_kind"].items()]
    lines.append("by situation:")
    lines += [f"  {k:<20} {rate(r)}" for k, r in s["by_situation"].items()]
    lines.append("by trick:")
    lines += [f"  {k:<20} {rate(r)}" for k, r in s["by_trick"].items()]
    marks = ", ".join(f"{m} {v:.1f}" for m, v in s["marks_per_100_decisions"].items())
    lines.append(f"marks per 100 decisions: {marks}")
    if s["costliest"]:
        lines.append("costliest decisions:")
        lines += [f"  {c['loss']:7.1f} ± {c['loss_se']:.1f}  "
                  + (f"trick {c['trick']:>2}" if c["trick"] > 0 else f"{c['kind']:<8}")
                  + f" played {c['played']} best {c['best']}   {c['replay']}" for c in s["costliest"]]
    lines.append(f"fish per deal: {_mean(s['fish_per_deal'])}")
    if "luck" in s:
        lines.append(f"luck of the hands: {_mean(s['luck'])}; luck-adjusted fish per deal "
                     f"{_mean(s['luck_adjusted_fish_per_deal'])}")
    return "\n".join(x for x in lines if x != "")
