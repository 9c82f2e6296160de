"""What a person's kept games say (``reversis-sim play --summary --out DIR``): every deal of the games
folder in which a person played, reviewed again from its record (:mod:`.verdict`: the review is a pure function
of the record, so nothing but the records is kept), the duplicate deal played again, and the totals: fish per
deal beside the same cards played by ``tuned``, the error rate (fish lost per non-forced decision) beside the
bot ladder of docs/review.md, with its rating band.

The error rate's interval is printed only where it holds (an interval is as good as its measured coverage; elsewhere the
words say so): its unit is the match (a session's deals of one seed and match), and the review's interval was measured
to cover from :data:`reversis_sim.analysis.intervals.MIN_MATCHES` ``["error_rate"]`` matches; with fewer, the summary
says how many are needed instead of printing a number that would not mean what it says.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..analysis.intervals import MIN_MATCHES, n_needed, too_few
from ..analysis.stats import ratio_mean_ci_moments
from ..policies import parse_spec
from ..review.marks import THRESHOLDS, rating
from ..review.record import review_record
from ..review.settings import default_rollout
from .records import rules_of
from .session import DUPLICATE, HUMAN, Game, duplicate, human_seat

KIND = "error_rate"
LADDER = (
    ("search", 0.22, 0.04, 0.39), ("learned", 0.43, 0.23, 0.64),
    ("search:worlds=16,start=5,rollout=strong", 0.58, 0.43, 0.74),
    ("search:worlds=16,race=0,first=4,start=0,rollout=tuned", 0.65, 0.38, 0.93), ("strong", 0.92, 0.76, 1.08),
    ("search:worlds=4,race=0,first=4,start=0,rollout=tuned", 1.32, 1.08, 1.56), ("tuned", 2.09, 1.69, 2.48),
    ("avoid", 2.82, 2.41, 3.24), ("bold", 2.84, 2.42, 3.26), ("saver", 2.85, 2.54, 3.15),
    ("cautious", 3.27, 2.85, 3.68), ("hunter", 3.51, 2.77, 4.26), ("tuned_modern", 4.94, 3.73, 6.15),
    ("random", 7.19, 5.66, 8.72), ("tuned_serbian", 7.36, 5.44, 9.28), ("lowest", 8.00, 6.73, 9.28),
)
"""The bot ladder of docs/review.md (parlett, each player in seat 0 of a table of ``tuned``, 1,000 matches
reviewed with 16 worlds of ``tuned`` rollouts, every decision graded; ``results/ladder/ladder.json``, whose
``naive`` is ``lowest``): player, error rate, 95% interval. The searches of earlier versions are spelled out
(``search`` is today's default)."""


def summarize_games(records: Sequence[dict], *, worlds: int = 16, rollout: str | None = None,
                    with_duplicate: bool = True) -> dict:
    """The summary of the deals a person played among ``records`` (JSON-ready): per deal its fish, the duplicate's,
    its reviewed decisions and loss; the totals; the error rate with its interval where it holds, its rating.
    ``rollout``: the reviewer's rollout policy, and the bot of the duplicate deal (default: each record's rules'
    own, :func:`reversis_sim.review.settings.default_rollout`)."""
    deals, used = [], []
    for rec in records:
        you = human_seat(rec)
        if you is None:
            continue
        rules = rules_of(rec)
        bot = rollout or default_rollout(rules)
        used.append(bot)
        review = review_record(rec, [you], worlds=worlds, rollout=bot, rules=rules)
        mine = review["seats"][0]
        row = {"rules": rec["rules"], "seed": rec["run_seed"], "match": rec["match"], "deal": rec["deal"],
               "seat": you, "fish": rec["result"]["fish"][you], "decisions": mine["non_forced"],
               "loss": mine["total_loss"], "marks": mine["marks"]}
        if with_duplicate:
            seats = [parse_spec(bot) if name == HUMAN else parse_spec(name) for name in rec["seats"]]
            game = Game(rules, seats, you, rec["run_seed"], rec["match"])
            row["duplicate"] = duplicate(game, rec, bot)["result"]["fish"][you]
        deals.append(row)
    out: dict = {"deals": deals, "n_deals": len(deals),
                 "review": {"worlds": worlds, "rollout": ", ".join(dict.fromkeys(used)) or rollout or DUPLICATE}}
    if not deals:
        return out
    units: dict[tuple, list[float]] = {}
    for d in deals:
        u = units.setdefault((d["rules"], d["seed"], d["match"]), [0.0, 0.0])
        u[0] += d["loss"]
        u[1] += d["decisions"]
    t = [u[0] for u in units.values()]
    n = [u[1] for u in units.values()]
    out["matches"] = len(units)
    out["fish_per_deal"] = sum(d["fish"] for d in deals) / len(deals)
    if with_duplicate:
        out["duplicate_per_deal"] = sum(d["duplicate"] for d in deals) / len(deals)
    out["decisions"] = int(sum(n))
    out["marks"] = {m: sum(d["marks"][m] for d in deals) for m in THRESHOLDS}
    if sum(n) == 0:
        out |= {"error_rate": None, "ci_low": None, "ci_high": None, "matches_needed": 0, "rating": None}
        return out
    ci = ratio_mean_ci_moments(len(t), sum(n), sum(t), 0.0, sum(x * x for x in t), sum(x * y for x, y in zip(t, n)),
                               sum(y * y for y in n), kind=KIND)
    needed = n_needed(len(t), KIND)
    ok = needed == 0
    out |= {"error_rate": ci.mean, "ci_low": ci.ci_low if ok else None, "ci_high": ci.ci_high if ok else None,
            "matches_needed": needed, "rating": rating(ci.mean)}
    return out


def summary_text(summary: dict, ascii: bool = False) -> str:
    """The summary as text: the totals, then the ladder with the person's line in its place."""
    if not summary["n_deals"]:
        return "No deal played by a person in these games yet (play one: reversis-sim play --out DIR)."
    s = summary
    lines = [f"Your games: {s['n_deals']} deal{'s' if s['n_deals'] != 1 else ''} in {s['matches']} "
             f"match{'es' if s['matches'] != 1 else ''}."]
    fish = f"Fish         {s['fish_per_deal']:+.2f} a deal"
    if "duplicate_per_deal" in s:
        diff = s["fish_per_deal"] - s["duplicate_per_deal"]
        fish += (f"; the same cards with {s['review']['rollout']} in your seat: {s['duplicate_per_deal']:+.2f} a "
                 f"deal (you {diff:+.2f} a deal against it)")
    lines.append(fish)
    marks = " ".join(f"{k}{m}" for m, k in s["marks"].items() if k) or "no marks"
    if s["error_rate"] is None:
        lines.append(f"Error rate   no decision with a choice yet ({marks})")
        return "\n".join(lines)
    band = (f"[{s['ci_low']:.2f}, {s['ci_high']:.2f}]" if s["ci_low"] is not None else
            too_few(s["matches_needed"]).replace("here", f"(you have {s['matches']})"))
    lines.append(f"Error rate   {s['error_rate']:.2f} fish per non-forced decision over {s['decisions']} decisions "
                 f"({marks}); rating: {s['rating']}")
    lines.append(f"             95% interval: {band}")
    lines.append("")
    lines.append(f"Beside the bot ladder (docs/review.md: parlett, a table of tuned, {MIN_MATCHES[KIND]:,} matches "
                 f"each, 16 worlds of tuned rollouts):")
    others = sorted({d["rules"] for d in s["deals"]} - {"parlett"})
    if others or s["review"]["worlds"] != 16 or s["review"]["rollout"] != DUPLICATE:
        lines.append(f"  (yours: {', '.join(sorted({d['rules'] for d in s['deals']}))}, {s['review']['worlds']} worlds "
                     f"of {s['review']['rollout']} rollouts: set beside it as a guide, not measured alike)")
    rows = [(name, rate, f"[{lo:+.2f}, {hi:+.2f}]", rating(rate)) for name, rate, lo, hi in LADDER]
    you = ("you", s["error_rate"], "" if s["ci_low"] is None else f"[{s['ci_low']:+.2f}, {s['ci_high']:+.2f}]",
           s["rating"])
    rows = sorted(rows + [you], key=lambda r: r[1])
    width = max(len(r[0]) for r in rows)
    for name, rate, ci, band_name in rows:
        mark = "  <- you" if name == "you" else ""
        lines.append(f"  {name:<{width}} {rate:+6.2f} {ci:<16} {band_name}{mark}")
    return "\n".join(lines)
