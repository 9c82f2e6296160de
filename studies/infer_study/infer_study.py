"""The search's inference: do worlds weighed by what the other seats played put more probability on the true deal's
hidden cards than uniform worlds?

Deals of the reference engine with `tuned` (or --table) in every seat; at each card decision of every seat with a
hidden card left, the searching seat's sampler draws K worlds consistent with what it knows (uniformly: the same
worlds for both arms), and `search:infer=rollout,tau=T` weighs them (`SeatPolicy.pool_worlds`, the very code the
search runs). Per decision, for each hidden card c (not in the seat's hand, not played, not a talon card it knows):
p(c) = the weighted share of the worlds that give c to its true holder (a seat, or the talon), smoothed as
0.99 p + 0.01 / holders; the decision's score is the mean of log p(c) over its hidden cards. Uniform = the same
worlds with equal weights. Reported per tau: the mean log-likelihood per hidden card, uniform and weighted, their
paired difference with a 95% interval over deals (the deal is the unit: its decisions are not independent), the
mean probability put on the truth, and the effective sample size of the weights (Kish: (sum w)^2 / sum w^2) as a
share of K.

    python studies/infer_study/infer_study.py                      # parlett, 120 deals, K=256, seed 101 (exploring)
    python studies/infer_study/infer_study.py --seed 202 --tau 1   # a confirmation seed, the chosen tau only
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from pathlib import Path

import numpy as np

from reversis_sim import cards as C
from reversis_sim import reference
from reversis_sim.reference import Watching, make_policy
from reversis_sim.rules import PRESETS


class _Weigher(Watching):
    """Plays the table's policy; at each card decision, the worlds a search with inference would weigh."""

    def __init__(self, table, searchers, k):
        super().__init__(table)
        self.searchers, self.k = searchers, k
        self.seen = []  # (view, {tau: (worlds, logw)})

    def watch(self, view, legal, card):
        if len(legal) > 1:
            self.seen.append((view, {tau: s.pool_worlds(view, legal, self.k) for tau, s in self.searchers.items()}))


def _scores(rules, view, truth, worlds, logw):
    """(uniform, weighted) mean log-probability of the true holder of each hidden card; the (uniform, weighted)
    mean probability of the truth; the ESS share; or None if no card is hidden."""
    n = rules.n_seats
    deck = C.mask(rules.tables.deck)
    played = 0
    for t in view.tricks:
        played |= C.mask(t.cards)
    played |= C.mask(view.current)
    hidden = deck & ~C.mask(view.hand) & ~played & ~C.mask(view.talon_known)
    if not hidden:
        return None
    true_mask = [C.mask(h) for h in truth]
    w = np.exp(logw - logw.max())
    w /= w.sum()
    holders = len({s for s in range(n) if s != view.seat and true_mask[s] & hidden}) + (
        1 if hidden & ~np.bitwise_or.reduce(np.array(true_mask, dtype=np.uint64)).item() else 0)
    u_sum = g_sum = p_sum = q_sum = 0.0
    cards = C.from_mask(hidden)
    for c in cards:
        b = 1 << c
        holder = next((s for s in range(n) if true_mask[s] & b), -1)
        if holder >= 0:
            hit = (worlds[:, holder] & np.uint64(b)) != 0
        else:  # the talon: no seat holds it in the world
            hit = np.all((worlds[:, :n] & np.uint64(b)) == 0, axis=1)
        pu, pw = hit.mean(), float(w[hit].sum())
        u_sum += math.log(0.99 * pu + 0.01 / holders)
        g_sum += math.log(0.99 * pw + 0.01 / holders)
        p_sum += pw
        q_sum += pu
    ess = 1.0 / float((w * w).sum()) / len(w)
    return u_sum / len(cards), g_sum / len(cards), q_sum / len(cards), p_sum / len(cards), ess


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rules", default="parlett")
    ap.add_argument("--table", default="tuned", help="the policy of every seat (and the search's rollout)")
    ap.add_argument("--deals", type=int, default=120)
    ap.add_argument("--k", type=int, default=256, help="worlds weighed per decision")
    ap.add_argument("--tau", type=float, nargs="+", default=[0.25, 0.5, 1.0, 2.0])
    ap.add_argument("--seed", type=int, default=101)
    ap.add_argument("--out", type=Path, default=None)
    args = ap.parse_args(argv)
    rules = PRESETS[args.rules]
    started = time.perf_counter()
    per_deal = {tau: [] for tau in args.tau}  # per deal: (log p uniform, weighted, p uniform, weighted, ess, n)
    for deal in range(args.deals):
        seats = [_Weigher(args.table, {tau: make_policy(f"search:infer=rollout,tau={tau},rollout=({args.table})")
                                       for tau in args.tau}, args.k) for _ in range(rules.n_seats)]
        outcome = reference.play_deal_outcome(rules, seats, seed=args.seed, deal=deal, dealer=deal % rules.n_seats)
        for tau in args.tau:
            rows = [r for s in seats for view, got in s.seen
                    if (r := _scores(rules, view, outcome.hands, *got[tau])) is not None]
            if rows:
                per_deal[tau].append(np.mean(np.array(rows), axis=0).tolist() + [len(rows)])
        if (deal + 1) % 20 == 0:
            print(f"{deal + 1}/{args.deals} deals, {time.perf_counter() - started:.0f} s", file=sys.stderr)
    out = {"rules": args.rules, "table": args.table, "deals": args.deals, "k": args.k, "seed": args.seed,
           "by_tau": {}}
    print(f"{args.rules}, table {args.table}, {args.deals} deals (seed {args.seed}), {args.k} worlds a decision")
    print("log-likelihood of the true holder, per hidden card; p(truth): the probability put on it")
    print("tau    uniform   weighted   gain [95% CI over deals]      p(truth) uniform, weighted   ESS/K")
    for tau in args.tau:
        a = np.array(per_deal[tau])
        d = a[:, 1] - a[:, 0]
        half = 1.96 * d.std(ddof=1) / math.sqrt(len(d))
        row = {"uniform": a[:, 0].mean(), "weighted": a[:, 1].mean(), "gain": d.mean(),
               "ci": [d.mean() - half, d.mean() + half], "p_truth_uniform": a[:, 2].mean(), "p_truth": a[:, 3].mean(),
               "ess_share": a[:, 4].mean(), "decisions": int(a[:, 5].sum())}
        out["by_tau"][str(tau)] = row
        print(f"{tau:<5}  {row['uniform']:+.4f}   {row['weighted']:+.4f}   {row['gain']:+.4f} [{row['ci'][0]:+.4f}, "
              f"{row['ci'][1]:+.4f}]   {row['p_truth_uniform']:.3f}, {row['p_truth']:.3f}             "
              f"{row['ess_share']:.2f}")
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(json.dumps(out, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
