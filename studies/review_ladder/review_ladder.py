"""The review's ladder: every player's error rate at one table, beside its duplicate gain at that table.

Each player sits in seat 0 of a table of ``--field`` and is reviewed over ``--matches`` matches (seed
``--seed``: the same deals for every player) by ``--worlds`` worlds of ``--rollout``, into a review folder under
``--out`` (resumable: a player already reviewed there is read back). Its duplicate gain is the comparison of the
player against ``--field`` itself in that field (``compare``, seed ``--compare-seed``: other deals than the
review's), in fish per deal. Then the rank correlation of the two orders (Spearman, Kendall) and, for every pair
of players whose error rates differ by more than twice the standard error of their difference, whether the one with
the lower error rate has the higher duplicate gain.

    python studies/review_ladder/review_ladder.py --matches 1000 --out results/ladder
"""

from __future__ import annotations

import argparse
import json
import time
from itertools import combinations
from pathlib import Path

import numpy as np
from scipy import stats as sps

from reversis_sim.compare import compare
from reversis_sim.policies import parse_seats
from reversis_sim.review.batch import PlayerReview, read_review, run_review
from reversis_sim.review.settings import DEFAULT_WORLDS, review_settings
from reversis_sim.review.summary import summarize_review
from reversis_sim.rules import PRESETS

LADDER = ["random", "naive", "lowest", "avoid", "cautious", "hunter", "saver", "bold", "tuned", "tuned_modern",
          "tuned_serbian", "strong", "learned", "search:worlds=4,race=0,first=4,start=0,rollout=tuned",
          "search:worlds=16,race=0,first=4,start=0,rollout=tuned", "search:worlds=16,start=5,rollout=strong", "search"]
"""The players of the ladder: the baselines, the family's defaults, every named preset, strong, learned, the search;
the searches as they were before 0.2.0 and from 0.2.0 to 0.3.0, spelled out, then today's default (docs/search.md)."""


def reviewed(rules, player: str, a, out: Path) -> dict:
    table = parse_seats([player] + [a.field] * (rules.n_seats - 1), rules.n_seats)
    settings = review_settings(rules.n_seats, table, [0], a.worlds, a.rollout, 0)
    job = PlayerReview(rules, player, a.field, a.matches, a.seed, settings, chunk_matches=a.chunk_matches)
    folder = out / player.replace(":", "_").replace("=", "")
    manifest = folder / "manifest.json"
    done = manifest.exists()
    if not done or len(json.loads(manifest.read_text())["chunks_done"]) < job.n_chunks:
        run_review(job, folder, resume=done)  # a folder reviewed whole is read as it is (an older version's too)
    s = summarize_review(*read_review(folder))
    return {k: s[k] for k in ("error_rate", "ci_low", "ci_high", "decisions", "matches", "hindsight_loss")}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rules", default="parlett")
    ap.add_argument("--field", default="tuned")
    ap.add_argument("--players", default=",".join(LADDER), help="comma-separated (a spec with commas: use ';')")
    ap.add_argument("--worlds", type=int, default=DEFAULT_WORLDS)
    ap.add_argument("--rollout", default="tuned")
    ap.add_argument("--matches", type=int, default=1000)
    ap.add_argument("--compare-matches", type=int, default=None, help="default: --matches")
    ap.add_argument("--seed", type=int, default=101)
    ap.add_argument("--compare-seed", type=int, default=202)
    ap.add_argument("--chunk-matches", type=int, default=64)
    ap.add_argument("--out", default="results/ladder")
    a = ap.parse_args()
    rules = PRESETS[a.rules]
    out = Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    players = a.players.split(";") if ";" in a.players else a.players.split(",")
    rows = []
    t0 = time.time()
    before = _rows_before(out / "ladder.json", a)
    for p in players:
        r = {"player": p, **reviewed(rules, p, a, out)}
        if p in before:  # its duplicate gain, measured on the same deals by an earlier run of these settings
            r |= {k: before[p][k] for k in ("gain", "gain_low", "gain_high", "gain_se")}
        else:
            c = compare(rules, p, a.field, a.field, n_matches=a.compare_matches or a.matches, seed=a.compare_seed)
            r |= {"gain": c.mean_difference, "gain_low": c.ci_low, "gain_high": c.ci_high, "gain_se": c.paired.se}
        rows.append(r)
        ci = f"[{r['ci_low']:.2f}, {r['ci_high']:.2f}]" if r["ci_low"] is not None else "(no interval)"
        print(f"{p:<18} error rate {r['error_rate']:6.2f} {ci}  duplicate gain "
              f"{r['gain']:+7.2f} [{r['gain_low']:+.2f}, {r['gain_high']:+.2f}]  ({time.time() - t0:.0f} s)",
              flush=True)
    err = np.array([r["error_rate"] for r in rows])
    gain = np.array([r["gain"] for r in rows])
    se = np.array([(r["ci_high"] - r["ci_low"]) / (2 * 1.96) if r["ci_low"] is not None else np.nan for r in rows])
    rho = sps.spearmanr(err, gain)
    tau = sps.kendalltau(err, gain)
    pairs = []
    for i, j in combinations(range(len(rows)), 2):
        d, d_se = err[i] - err[j], float(np.hypot(se[i], se[j]))
        if np.isfinite(d_se) and abs(d) > 2 * d_se:
            pairs.append({"lower_error": rows[i if d < 0 else j]["player"], "higher_error": rows[j if d < 0 else i]
                          ["player"], "agrees": bool((gain[i] - gain[j]) * d < 0)})
    result = {"settings": vars(a), "rows": rows, "spearman": float(rho.statistic), "spearman_p": float(rho.pvalue),
              "kendall": float(tau.statistic), "significant_pairs": len(pairs),
              "pairs_agreeing": sum(p["agrees"] for p in pairs), "pairs": pairs}
    print(f"Spearman {rho.statistic:+.3f} (p {rho.pvalue:.2g}), Kendall {tau.statistic:+.3f}; of {len(pairs)} pairs "
          f"whose error rates differ significantly, {result['pairs_agreeing']} order the duplicate gains the same way")
    (out / "ladder.json").write_text(json.dumps(result, indent=2))


def _rows_before(path: Path, a) -> dict[str, dict]:
    """The rows of an earlier ladder in ``path`` measured with the same rules, field, seeds and sizes, by player
    (a search named by its default then is not today's: those rows are left out)."""
    if not path.exists():
        return {}
    old = json.loads(path.read_text())
    same = ("rules", "field", "worlds", "rollout", "matches", "compare_matches", "seed", "compare_seed")
    if any(old["settings"].get(k) != vars(a).get(k) for k in same):
        return {}
    return {r["player"]: r for r in old["rows"] if r["player"] != "search"}


if __name__ == "__main__":
    main()
