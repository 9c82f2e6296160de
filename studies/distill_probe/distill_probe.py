"""Route (b) to a strong fast player, probed offline: can a small learned evaluator of a card decision's options,
distilled from the review's option values, choose better than `strong` (route (a))? Measured before any policy family is
built.

Data. Self-play of `strong` in all four seats under `parlett`. Every card decision with two or more distinct options
is reviewed by the machinery of `reversis-sim review` (review.reviewing.review_matches): each option played
out in 16 worlds consistent with what the seat knew, by `strong` in every seat; the first 8 worlds choose the
review's best option, the other 8 measure every option's value (review/evaluate_nb.summarize). The exchange and
the declaration stay the heuristic's and are not modelled. Seeds: train 301, validation 302, test 303.

Features see only what the deciding seat may know. Each position is rebuilt from the deal's record
(numba_engine.trace.trace_match: the same deal, card for card, checked on every decision) from the seat's own hand,
the talon card it knows (its discard, or the card it looked at), the cards played so far and by whom (hence the
voids shown, each seat's tricks and points, the reversis streak), the trick in progress and the pool carried in.
No other seat's hand and no other talon card is read. Per option, the option facts O (rank, points, Ace/J♥/A♦, does
it take the trick as it stands, unseen cards above and below it in its suit, voids shown in its suit, its suit in
the hand, ...) and the decision facts D (lead/follow/discard, trick, position, points and J♥/Ace in the trick, the
J♥ held or gone, streaks, party standing, the pool, ...); `*_s` variants add `strong`'s own card as an option fact
(the heuristic run beside the model: a residual on route (a)).

Models. Target: each option's measured value minus the decision's mean. `ridge`: least squares on O x [1, D] (each
option fact and its product with each decision fact), centred within the decision, penalty chosen on validation.
`mlp`: one hidden ReLU layer on [O, D], the loss on outputs centred within the decision, plain numpy Adam; width
and epoch chosen on validation. The test split is used once, for the table below.

Measure (test). Regret of a choice = the value of the review's best (chosen on worlds 1-8) minus the value of the
option chosen, both measured on worlds 9-16 (so unbiased by the choice; it can be negative). Mean per decision with
a 95% bootstrap interval over deals, for each model's argmax, `strong`'s card (= `tuned`'s: the two differ only in
the exchange parameter q_bare) and a uniformly random distinct option; paired differences model - strong. A check
independent of the review's worlds: the hindsight value (each option played out once in the true deal) of the
model's card minus strong's.

Play and speed. The model chosen on validation, and the best ridge (the cheap one), play the cards of one seat (the
exchange stays strong's) against three `strong` in duplicate matches of the reference engine (seed 304), beside
`strong` in that seat on the same cards: fish a deal, the match the unit. Each model's choices are made by its numba
forward pass, timed on the test decisions (features given).

    NUMBA_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 python studies/distill_probe/distill_probe.py  # ~15 min, one core
    python studies/distill_probe/distill_probe.py --train 40 --val 10 --test 20 --play 40 --out /tmp/d.json  # a look

Writes results/strong/distill.json.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import numpy as np
from numba import njit

from reversis_sim import cards as C
from reversis_sim.game import dealer_of
from reversis_sim.numba_engine.trace import trace_match
from reversis_sim.policies import NAMED, parse_spec
from reversis_sim.reference import make_policy
from reversis_sim.reference.match import play_deal
from reversis_sim.review.reviewing import review_matches
from reversis_sim.rules import get_preset

ROOT = Path(__file__).resolve().parents[2]

OUT = ROOT / "results" / "strong" / "distill.json"
SEEDS = {"train": 301, "val": 302, "test": 303}
PLAY_SEED = 304
WORLDS, CHUNK = 16, 50
O_NAMES = ("rank", "points", "ace", "jh", "ad", "heart", "diamond", "takes_now", "takes_points", "unseen_above",
           "unseen_below", "unseen_suit", "master", "voids_shown_suit", "voids_after_suit", "suit_len", "top_of_suit",
           "bottom_of_suit", "singleton")
D_NAMES = ("lead", "follow", "discard", "position", "trick", "last_two", "trick_points", "trick_has_jh",
           "trick_has_ace", "hold_jh", "jh_gone", "jh_in_my_talon", "streak_me", "streak_other", "my_points",
           "party_margin", "my_tricks", "leader_opposite", "winner_opposite", "pool", "aces_unseen", "best_in_trick")
SUIT = [0x1FFF << (16 * s) for s in range(4)]
KINDS = {"lead": 2, "follow": 3, "discard": 4}


def decision_features(n, seat, hand, known, done, leader, cur, pool_before, opts, pts, deck):
    """The decision facts (one tuple) and the option facts (one tuple per card of ``opts``) of seat ``seat`` from
    what it may know only: its hand and known talon cards (masks), the finished tricks ``done`` ((leader, cards,
    winner) each), the trick in progress (``leader``, ``cur``), the pool carried in."""
    played, taken, won, voids, streak = 0, [0] * n, [0] * n, [0] * n, -1
    for t, (lead, cards, winner) in enumerate(list(done) + [(leader, cur, None)]):
        for i, c in enumerate(cards):
            played |= 1 << c
            if i and (c >> 4) != (cards[0] >> 4):
                voids[(lead + i) % n] |= 1 << (cards[0] >> 4)
        if winner is not None:
            taken[winner] += sum(pts[c] for c in cards)
            won[winner] += 1
            streak = winner if t == 0 or streak == winner else -1
    t, k = len(done), len(cur)
    unseen = deck & ~hand & ~played & ~known
    led = cur[0] >> 4 if k else -1
    best_c = max((c for c in cur if c >> 4 == led), default=-1)
    cur_win = (leader + cur.index(best_c)) % n if k else seat
    opp = (seat + 2) % n
    others = [s for s in range(n) if s != seat]
    after = [(seat + i) % n for i in range(1, n - k)]
    t_pts = sum(pts[c] for c in cur)
    follow = k > 0 and (hand & SUIT[led]) != 0
    d = (k == 0, follow, k > 0 and not follow, k / 3, t / 10, t >= 9, t_pts / 10, C.QUINOLA in cur,
         any((c & 15) == C.RANK_ACE for c in cur), (hand >> C.QUINOLA) & 1, (played >> C.QUINOLA) & 1,
         (known >> C.QUINOLA) & 1, t > 0 and streak == seat, t > 0 and streak not in (-1, seat), taken[seat] / 20,
         (taken[seat] - min(taken[s] for s in others)) / 20, won[seat] / 11, leader == opp, k > 0 and cur_win == opp,
         pool_before / 100, sum((unseen >> a) & 1 for a in C.ACES) / 4, (best_c & 15) / 12 if k else 0.0)
    o = []
    for c in opts:
        s, r = c >> 4, c & 15
        uns, mine = unseen & SUIT[s], hand & SUIT[s]
        above, below = (uns >> (c + 1)).bit_count(), (uns & ((1 << c) - 1)).bit_count()
        takes = k == 0 or (s == led and c > best_c)
        o.append((r / 12, pts[c] / 4, r == C.RANK_ACE, c == C.QUINOLA, c == C.ACE_OF_DIAMONDS, s == C.HEARTS,
                  s == C.DIAMONDS, takes, takes * (t_pts + pts[c]) / 10, above / 11, below / 11,
                  uns.bit_count() / 11, above == 0, sum((voids[x] >> s) & 1 for x in others) / 3,
                  sum((voids[x] >> s) & 1 for x in after) / 3, mine.bit_count() / 11, (mine >> (c + 1)) == 0,
                  (mine & ((1 << c) - 1)) == 0, mine.bit_count() == 1))
    return d, o


def deal_features(rec, rows, pts, deck):
    """O rows (one per option) and D rows (one per decision) of one deal's reviewed card decisions ``rows``
    ((trick, position, seat, card played, options) each), the position rebuilt from the record ``rec``."""
    n = len(rec["hands"])
    hands = [C.mask(C.parse(c) for c in h) for h in rec["hands"]]
    tricks = [(t["leader"], [C.parse(c) for c in t["cards"]], t["winner"]) for t in rec["tricks"]]
    o_out, d_out = [], []
    for t, k, seat, card, opts in rows:
        leader, cards, _ = tricks[t]
        if (leader + k) % n != seat or cards[k] != card or card not in opts:
            raise AssertionError(f"record and review disagree: {rec['match']}/{rec['deal']} trick {t} pos {k}")
        hand = hands[seat] & ~C.mask(tr[1][(seat - tr[0]) % n] for tr in tricks[:t])
        if any(not (hand >> c) & 1 for c in opts):
            raise AssertionError("an option not in the rebuilt hand")
        e = next((e for e in rec["exchanges"] if e["seat"] == seat), None)
        mine = None if e is None else e["discard"] if e["discard"] is not None else rec["talon_offered"][seat]
        known = 0 if mine is None else 1 << C.parse(mine)
        d, o = decision_features(n, seat, hand, known, tricks[:t], leader, cards[:k], rec["pool_before"], opts, pts,
                                 deck)
        d_out.append(d)
        o_out += o
    return o_out, d_out


def split_data(rules, strong, seed, n_matches, log):
    """Review ``n_matches`` matches of self-play and rebuild every card decision's features: a dict of arrays."""
    pts, deck = rules.tables.trick_points, sum(1 << c for c in rules.tables.deck)
    opt_rows, D, ops, meta = [], [], [], []
    n_deals, t_review, t_feat = 0, 0.0, 0.0
    for first in range(0, n_matches, CHUNK):
        m = min(CHUNK, n_matches - first)
        t0 = time.perf_counter()
        out = review_matches(rules, [strong] * 4, seed=seed, first_match=first, n_matches=m, reviewed=range(4),
                             worlds=WORLDS, rollout=strong, keep_options=True, luck_samples=0, threads=1)
        t1 = time.perf_counter()
        d = out.decisions
        records = {(r["match"], r["deal"]): r for mm in range(first, first + m)
                   for r in trace_match(rules, [strong] * 4, seed=seed, match=mm)}
        keyed = {}
        for i in np.flatnonzero(d["kind"] >= 2):
            keyed.setdefault((int(d["match"][i]), int(d["deal"][i])), []).append(i)
        for key, idx in keyed.items():
            rows = [(int(d["trick"][i]), int(d["position"][i]), int(d["seat"][i]), int(d["played"][i]),
                     [int(c) for c in out.options[i][:, 0]]) for i in idx]
            o, dd = deal_features(records[key], rows, pts, deck)
            opt_rows += o
            D += dd
            ops += [out.options[i] for i in idx]
            meta += [(d["best"][i], d["played"][i], n_deals, d["kind"][i], d["loss"][i]) for i in idx]
            n_deals += 1
        n_deals += len(out.deals["deal"]) - len(keyed)  # deals without a reviewed card decision
        t_review += t1 - t0
        t_feat += time.perf_counter() - t1
    log(f"  seed {seed}: {n_matches} matches, {n_deals} deals, {len(D)} decisions, {len(opt_rows)} options; "
        f"review {t_review:.0f}s, features {t_feat:.0f}s")
    lens = np.array([len(x) for x in ops])
    g, op, meta = np.repeat(np.arange(len(ops)), lens), np.concatenate(ops), np.array(meta)
    return {"O": np.asarray(opt_rows, np.float32), "D": np.asarray(D, np.float32), "g": g,
            "starts": np.r_[0, np.cumsum(lens)[:-1]], "v": op[:, 1], "h": op[:, 3], "best": op[:, 0] == meta[g, 0],
            "strong": op[:, 0] == meta[g, 1], "deal": meta[:, 2].astype(np.int64), "kind": meta[:, 3].astype(int),
            "loss": meta[:, 4], "n_deals": n_deals, "n_matches": n_matches,
            "seconds": {"review": t_review, "features": t_feat}}


def centred(x, starts, g):
    """``x`` minus its decision's mean, row by row (decision ``g``, starting at rows ``starts``)."""
    n = np.diff(np.r_[starts, len(g)])
    return x - (np.add.reduceat(x, starts, axis=0) / (n if x.ndim == 1 else n[:, None]))[g]


def inputs(S, residual, lo, hi):
    """Option facts (with strong's pick where ``residual``) and each row's decision facts, rows lo..hi."""
    o = S["O"][lo:hi]
    return (np.c_[o, S["strong"][lo:hi]] if residual else o), S["D"][S["g"][lo:hi]]


def pairs(o, d):
    """O x [1, D] per row, float64: the ridge's features."""
    d = np.c_[np.ones(len(d)), d]
    return (o[:, :, None].astype(np.float64) * d[:, None, :]).reshape(len(o), -1)


def mlp_forward(p, x):
    h = np.maximum(x @ p["W1"] + p["b1"], 0)
    return h, h @ p["w2"]


def fit_ridge(tr, va, residual, log):
    """Normal equations of the within-decision centred pair features (chunks cut at decisions), the penalty
    (on standardised features) chosen by the validation regret."""
    t0 = time.perf_counter()
    y = centred(tr["v"], tr["starts"], tr["g"])
    cuts = list(tr["starts"][:: 20_000]) + [len(tr["g"])]
    xtx = xty = 0.0
    for lo, hi in zip(cuts[:-1], cuts[1:]):
        st = tr["starts"][(tr["starts"] >= lo) & (tr["starts"] < hi)] - lo
        x = centred(pairs(*inputs(tr, residual, lo, hi)), st, tr["g"][lo:hi] - tr["g"][lo])
        xtx, xty = xtx + x.T @ x, xty + x.T @ y[lo:hi]
    scale = np.sqrt(np.maximum(np.diag(xtx), 1e-12) / len(y))
    best = None
    for alpha in (1e-1, 1, 10, 100, 1000, 1e4, 1e5):
        w = np.linalg.solve(xtx / np.outer(scale, scale) + alpha * np.eye(len(scale)), xty / scale) / scale
        model = {"kind": "ridge", "residual": residual, "w": w, "alpha": alpha, "features": len(scale)}
        r = regret(va, picks(model, va)).mean()
        log(f"    ridge{'_s' if residual else ''} alpha {alpha:g}: validation regret {r:.4f}")
        if best is None or r < best["val_regret"]:
            best = model | {"val_regret": r}
    return best | {"fit_s": time.perf_counter() - t0}


def fit_mlp(tr, va, residual, width, epochs, log, seed=0):
    """One hidden ReLU layer, Adam on the within-decision centred squared error (targets scaled to unit variance),
    minibatches of 512 decisions; the epoch with the best validation regret kept."""
    t0 = time.perf_counter()
    rng = np.random.default_rng(seed)
    o, d = inputs(tr, residual, 0, len(tr["g"]))
    x = np.c_[o, d]
    mu, sd = x.mean(0), x.std(0) + 1e-6
    x = ((x - mu) / sd).astype(np.float32)
    y = centred(tr["v"], tr["starts"], tr["g"])
    y = (y / y.std()).astype(np.float32)
    f = x.shape[1]
    p = {"W1": (rng.standard_normal((f, width)) * np.sqrt(2 / f)).astype(np.float32),
         "b1": np.zeros(width, np.float32), "w2": (rng.standard_normal(width) * np.sqrt(1 / width)).astype(np.float32)}
    m1, m2 = ({k: np.zeros_like(v) for k, v in p.items()} for _ in range(2))
    ends = np.r_[tr["starts"][1:], len(y)]
    n_dec, step, best = len(tr["starts"]), 0, None
    for ep in range(epochs):
        order, lr = rng.permutation(n_dec), 3e-3 * 0.8 ** ep
        for b in range(0, n_dec, 512):
            dec = order[b:b + 512]
            lens = ends[dec] - tr["starts"][dec]
            rows = np.repeat(tr["starts"][dec] - np.r_[0, np.cumsum(lens)[:-1]], lens) + np.arange(lens.sum())
            gl = np.repeat(np.arange(len(dec)), lens)
            h, out = mlp_forward(p, x[rows])
            e = (out - (np.bincount(gl, out) / lens)[gl] - y[rows]) / len(dec)
            e = (e - (np.bincount(gl, e) / lens)[gl]).astype(np.float32)
            dh = np.outer(e, p["w2"]) * (h > 0)
            step += 1
            for k, gk in {"w2": h.T @ e, "W1": x[rows].T @ dh, "b1": dh.sum(0)}.items():
                m1[k] = 0.9 * m1[k] + 0.1 * gk
                m2[k] = 0.999 * m2[k] + 0.001 * gk * gk
                p[k] -= lr * (m1[k] / (1 - 0.9 ** step)) / (np.sqrt(m2[k] / (1 - 0.999 ** step)) + 1e-8)
        model = {"kind": "mlp", "residual": residual, "p": {k: v.copy() for k, v in p.items()}, "mu": mu, "sd": sd,
                 "width": width, "epochs": ep + 1, "inputs": f}
        r = regret(va, picks(model, va)).mean()
        log(f"    mlp{'_s' if residual else ''} width {width} epoch {ep + 1}: validation regret {r:.4f}")
        if best is None or r < best["val_regret"]:
            best = model | {"val_regret": r}
    return best | {"fit_s": time.perf_counter() - t0}


def regret(S, rows):
    """Per decision: the best option's measured value minus that of the option in ``rows``."""
    return S["v"][S["best"]] - S["v"][rows]


def interval(S, per_decision, reps=2000, seed=1):
    """Mean per decision and its 95% bootstrap interval, the deal the unit."""
    tot = np.bincount(S["deal"], per_decision, S["n_deals"])
    cnt = np.bincount(S["deal"], None, S["n_deals"])
    rng = np.random.default_rng(seed)
    boots = []
    for _ in range(reps // 200):
        w = rng.multinomial(S["n_deals"], np.full(S["n_deals"], 1 / S["n_deals"]), 200)
        boots.append((w @ tot) / (w @ cnt))
    lo, hi = np.percentile(np.concatenate(boots), [2.5, 97.5])
    return {"mean": float(tot.sum() / cnt.sum()), "ci95": [float(lo), float(hi)]}


class ModelSeat:
    """A reference-engine seat that plays the cards by ``model`` (every legal card an option) and leaves the
    exchange and the declaration to ``strong``, whose card it also asks (the residual models read it)."""

    def __init__(self, rules, strong, model):
        self.rules, self.model, self.h = rules, model, make_policy(strong)
        self.pts, self.deck = rules.tables.trick_points, C.mask(rules.tables.deck)
        self.exchange, self.declare_espagnolette = self.h.exchange, self.h.declare_espagnolette
        self.espagnolette_goal = self.h.espagnolette_goal

    def play(self, v, legal):
        pick = self.h.play(v, legal)
        if len(legal) < 2:
            return pick
        done = [(t.leader, t.cards, t.winner) for t in v.tricks]
        leader = v.leader if v.current else v.seat
        d, o = decision_features(self.rules.n_seats, v.seat, C.mask(v.hand), C.mask(v.talon_known), done, leader,
                                 list(v.current), v.pool_before, legal, self.pts, self.deck)
        S = {"O": np.asarray(o, np.float32), "D": np.asarray([d], np.float32), "g": np.zeros(len(o), np.int64),
             "starts": [0], "strong": np.asarray(legal) == pick}
        return legal[int(picks(self.model, S)[0])]


def play_test(rules, strong, model, seed, n_matches, log):
    """Duplicate matches in the reference engine: the model's seat (rotating by match) against three `strong`,
    and `strong` in that seat, on the same cards, each side carrying its own pool. Fish a deal, paired by match."""
    t0 = time.perf_counter()
    diff = np.zeros(n_matches)
    for m in range(n_matches):
        seat = m % 4
        for sign, pols in ((1, [ModelSeat(rules, strong, model) if s == seat else make_policy(strong)
                                for s in range(4)]), (-1, [make_policy(strong) for _ in range(4)])):
            pool = 0
            for d in range(rules.match_deals):
                rec = play_deal(rules, pols, seed=seed, match=m, deal=d, dealer=dealer_of(rules, d), pool_before=pool)
                pool = rec["result"]["pool_after"]
                diff[m] += sign * rec["result"]["fish"][seat] / rules.match_deals
    mean, half = diff.mean(), 1.96 * diff.std(ddof=1) / np.sqrt(n_matches)
    log(f"  play {model['kind']}: {n_matches} duplicate matches, model - strong {mean:+.2f} +- {half:.2f} fish a deal")
    return {"matches": n_matches, "deals": n_matches * rules.match_deals, "seed": seed,
            "fish_per_deal_model_minus_strong": float(mean), "ci95": [float(mean - half), float(mean + half)],
            "seconds": time.perf_counter() - t0}


@njit(cache=False, fastmath=True)
def _argmax_mlp(xo, xd, starts, w1o, w1d, b1, w2, out):
    """The MLP's choice in each decision as a numba policy would make it: the decision facts' share of the hidden
    layer once, then each option's (the multiply-adds counted in the report)."""
    hd = np.empty(len(b1))
    for i in range(len(starts) - 1):
        for u in range(len(b1)):
            hd[u] = b1[u]
            for j in range(xd.shape[1]):
                hd[u] += xd[i, j] * w1d[j, u]
        best, arg = -1e300, -1
        for r in range(starts[i], starts[i + 1]):
            y = 0.0
            for u in range(len(b1)):
                h = hd[u]
                for j in range(xo.shape[1]):
                    h += xo[r, j] * w1o[u, j]
                y += max(h, 0.0) * w2[u]
            if y > best:
                best, arg = y, r
        out[i] = arg


@njit(cache=False, fastmath=True)
def _argmax_ridge(xo, xd, starts, w, out):
    """The ridge's choice in each decision: o' W [1, d], with W [1, d] made once per decision (|O| x (|D| + 1)
    multiply-adds), then |O| per option."""
    wd = np.empty(w.shape[0])
    for i in range(len(starts) - 1):
        for u in range(w.shape[0]):
            wd[u] = w[u, 0]
            for j in range(xd.shape[1]):
                wd[u] += w[u, j + 1] * xd[i, j]
        best, arg = -1e300, -1
        for r in range(starts[i], starts[i + 1]):
            y = 0.0
            for u in range(w.shape[0]):
                y += xo[r, u] * wd[u]
            if y > best:
                best, arg = y, r
        out[i] = arg


def picks(model, S, timed=False):
    """The option row ``model`` picks in each decision of ``S``, by the numba forward pass a policy would run (the
    MLP's standardisation folded into its weights); ``timed``: and its nanoseconds a decision, best of 3 passes."""
    o, d = inputs(S, model["residual"], 0, len(S["g"]))
    o, d = np.ascontiguousarray(o, np.float64), S["D"].astype(np.float64)
    ends, out = np.r_[S["starts"], len(S["g"])], np.zeros(len(S["starts"]), np.int64)
    if model["kind"] == "ridge":
        fn, args = _argmax_ridge, (o, d, ends, model["w"].reshape(o.shape[1], -1), out)
    else:
        k, p = o.shape[1], model["p"]
        w1 = p["W1"].astype(np.float64) / model["sd"][:, None]
        b1 = (p["b1"] - (model["mu"] / model["sd"]) @ p["W1"]).astype(np.float64)
        fn, args = _argmax_mlp, (o, d, ends, np.ascontiguousarray(w1[:k].T), np.ascontiguousarray(w1[k:]), b1,
                                 p["w2"].astype(np.float64), out)
    times = []
    for _ in range(4 if timed else 1):
        t0 = time.perf_counter()
        fn(*args)
        times.append(time.perf_counter() - t0)
    return (out, 1e9 * min(times[1:]) / len(out)) if timed else out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--train", type=int, default=1500, help="train matches (12 deals each)")
    ap.add_argument("--val", type=int, default=300, help="validation matches")
    ap.add_argument("--test", type=int, default=1000, help="test matches")
    ap.add_argument("--epochs", type=int, default=12)
    ap.add_argument("--widths", default="32,64", help="hidden widths tried")
    ap.add_argument("--play", type=int, default=4000, help="duplicate matches played by the chosen model")
    ap.add_argument("--out", type=Path, default=OUT)
    a = ap.parse_args()
    t_start = time.perf_counter()

    def log(msg):
        print(f"[{time.perf_counter() - t_start:6.0f}s] {msg}", flush=True)

    rules, strong, tuned = get_preset("parlett"), parse_spec(NAMED["strong"]), parse_spec(NAMED["tuned"])
    same_play = [(k, v) for k, v in strong.params if k != "q_bare"] == [(k, v) for k, v in tuned.params
                                                                         if k != "q_bare"]
    data = {name: split_data(rules, strong, SEEDS[name], getattr(a, name), log) for name in SEEDS}
    tr, va, te = data["train"], data["val"], data["test"]
    models = {}
    for residual in (False, True):
        tag = "_s" if residual else ""
        models["ridge" + tag] = fit_ridge(tr, va, residual, log)
        fits = [fit_mlp(tr, va, residual, int(w), a.epochs, log) for w in a.widths.split(",")]
        models["mlp" + tag] = min(fits, key=lambda z: z["val_regret"]) | {"fit_s": sum(z["fit_s"] for z in fits)}
    n_opt = np.diff(np.r_[te["starts"], len(te["g"])])
    strong_r = regret(te, np.flatnonzero(te["strong"]))
    assert np.allclose(strong_r, te["loss"]), "strong's regret is not the review's loss"
    choice = {"strong": np.flatnonzero(te["strong"]), "random": None}
    choice |= {name: picks(m, te) for name, m in models.items()}
    summary = {}
    for name, rows in choice.items():
        if rows is None:  # a uniformly random distinct option: its expected regret and hindsight value
            r = te["v"][te["best"]] - np.add.reduceat(te["v"], te["starts"]) / n_opt
            h, agree = np.add.reduceat(te["h"], te["starts"]) / n_opt, np.mean(1 / n_opt)
        else:
            r, h, agree = te["v"][te["best"]] - te["v"][rows], te["h"][rows], np.mean(te["best"][rows])
        summary[name] = {"regret": interval(te, r), "agreement_with_best": float(agree),
                         "by_kind": {k: float(r[te["kind"] == v].mean()) for k, v in KINDS.items()}}
        if name != "strong":
            summary[name]["minus_strong"] = interval(te, r - strong_r)
            summary[name]["hindsight_gain_over_strong"] = interval(te, h - te["h"][choice["strong"]])
        log(f"  {name}: regret {summary[name]['regret']}, agreement {agree:.3f}")
    dpds = len(te["starts"]) / (te["n_deals"] * 4)
    best = min(models, key=lambda k: models[k]["val_regret"])
    ridge = min((k for k in models if k.startswith("ridge")), key=lambda k: models[k]["val_regret"])
    log(f"chosen on validation: {best} (of the ridges: {ridge})")
    play = {k: play_test(rules, strong, models[k], PLAY_SEED, a.play, log) for k in dict.fromkeys((best, ridge))
            if a.play}
    fits, max_opt, n_d = {}, 11, len(D_NAMES)
    for name, m in models.items():
        k = len(O_NAMES) + m["residual"]
        if m["kind"] == "ridge":  # o' W [1, d]: W [1, d] once a decision, then o' (W [1, d]) per option
            fits[name] = {"alpha": m["alpha"], "weights": m["features"], "multiply_adds_per_decision_max":
                          k * (n_d + 1) + max_opt * k}
        else:  # the decision facts' share of the hidden layer once, then per option its share, ReLU, output
            fits[name] = {"width": m["width"], "epochs": m["epochs"], "inputs": m["inputs"],
                          "multiply_adds_per_decision_max": n_d * m["width"] + max_opt * (k + 1) * m["width"]}
        fits[name] |= {"numba_forward_ns_per_decision": picks(m, te, timed=True)[1], "fit_s": m["fit_s"],
                       "validation_regret": float(m["val_regret"])}
    report = {
        "what": "route (b) probe: option evaluators distilled from the review's values, against strong's "
                "card (regret in fish on held-out decisions), then played against strong (duplicate matches)",
        "rules": "parlett", "self_play": "strong in all four seats",
        "review": {"worlds": WORLDS, "rollout": "strong", "choose_worlds": WORLDS // 2, "measure_worlds": WORLDS // 2},
        "seeds": SEEDS, "strong_card_is_tuned_card": same_play,
        "splits": {k: {"matches": S["n_matches"], "deals": S["n_deals"], "decisions": len(S["starts"]),
                       "options": len(S["g"]), "seconds": S["seconds"]} for k, S in data.items()},
        "features": {"option": list(O_NAMES), "decision": list(D_NAMES),
                     "residual_extra": "strong_pick: the card strong would play (an option fact in the *_s models)"},
        "models": fits, "chosen_on_validation": best,
        "regret_definition": "the value of the review's best option (chosen on worlds 1-8) minus the chosen "
                             "option's, both measured on worlds 9-16; mean per decision, 95% bootstrap over test "
                             "deals; hindsight gain: the option's value played out once in the true deal, minus "
                             "strong's card's",
        "test": summary, "decisions_per_deal_per_seat": dpds,
        "gain_fish_per_deal_estimate": {k: -summary[k]["minus_strong"]["mean"] * dpds for k in models},
        "play": play, "wall_s": time.perf_counter() - t_start,
    }
    a.out.parent.mkdir(parents=True, exist_ok=True)
    a.out.write_text(json.dumps(report, indent=1) + "\n")
    log(f"wrote {a.out}")


if __name__ == "__main__":
    main()
