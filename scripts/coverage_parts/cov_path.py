"""The ``path`` part of ``scripts/interval_coverage.py``: the pool-path estimator
(:mod:`reversis_sim.analysis.pool_path`) against the plain t interval, on the same blocks, for every mean table of
``analyze`` and the summary.

One truth folder per seating (seed 1001) and block folders (seeds 2002 and 2003, parts of 1,000 matches), read part by
part
with the toolkit's own reductions (:func:`reversis_sim.analysis.scan_part.part_sums`,
:func:`reversis_sim.analysis.scan_pool.path_part`), the parts of a block added as ``scan_run`` adds a run's, and its
tables made by :class:`reversis_sim.analysis.scan.RunScan`. The truth of a row is its pool-path estimate on the
truth run; the plain mean of the truth run is reported beside it (their difference in the plain standard errors),
so that an estimator that drifted from the plain mean would show here rather than pass its own test.
"""

from __future__ import annotations

import copy
import time
from pathlib import Path

import cov_runs as runs  # noqa: E402
import numpy as np
import polars as pl
import pyarrow.parquet as pq
from cov_common import BLOCK_SEED, TRUTH_SEED, judge, judge_blocks, line, line_blocks  # noqa: E402
from scipy import stats as st

from reversis_sim.analysis.hands import N_VALUES, hand_features, pool_path_by_hand  # noqa: E402
from reversis_sim.analysis.intervals import MIN_MATCHES  # noqa: E402
from reversis_sim.analysis.pool_path import ROW_MATCHES, ROW_PAYMENTS, reason_kind  # noqa: E402
from reversis_sim.analysis.pool_path import path_rows as pool_path_rows  # noqa: E402
from reversis_sim.analysis.scan import RunScan, scan_run  # noqa: E402
from reversis_sim.analysis.scan_part import Moments, add_sums, part_sums, read_columns  # noqa: E402
from reversis_sim.analysis.scan_pool import POOL_REASONS, group_part, path_part  # noqa: E402
from reversis_sim.analysis.stats import ratio_mean_ci_moments  # noqa: E402
from reversis_sim.record import RunSpec, completed_chunks, part_path, payments_path, read_manifest  # noqa: E402

SEATINGS = {"avoid": 1_000_000, "random|avoid|tuned|saver": 1_000_000}
"""The seatings judged, and the matches of their truth runs (at 100,000 matches a block's standard error is only
3.2 times the truth's: the truth's own error then takes about 1% off the coverage; at 10,000, 0.1%)."""
BLOCK_SEEDS, BLOCK_MATCHES = (BLOCK_SEED, BLOCK_SEED + 1), 1_000_000
"""The block runs of each seating: their seeds and their matches each."""
CHUNK, SIZES, MIN_UNITS = 1_000, (1_000, 2_000, 10_000, 100_000), ROW_MATCHES
"""Matches per part of the block runs, the block sizes judged (matches), and the fewest of a block's matches that
must hold a row for it to be judged (a rare hand: the floor of an interval counts the matches holding its row; a
reason that moves the pool counts the matches holding a payment of it, and needs ``ROW_PAYMENTS``, as ``analyze``)."""

TABLES = {"fish_by_seat": ["seat"], "fish_by_seat_zero_sum": ["seat"], "fish_by_position": ["position"],
          "fish_by_policy": ["policy"], "fish_by_reason": ["policy", "reason"], "quinola_cost": ["fate"],
          "holder_fish": ["who"], "fish_by_hearts": ["hearts"], "quinola_cost_by_guards": ["guards"]}
HANDS = {"fish_by_hearts": ("hearts", "fish", False), "quinola_cost_by_guards": ("guards", "quinola_net", True)}
"""The tables by the hand dealt judged: (feature, value, the seats dealt the J♥ alone)."""


def _row_floor(name: str, est: str, keys: list, n: int) -> np.ndarray:
    """The matches a block of ``n`` matches must hold of each row for it to be judged (the toolkit's floor of the
    row: a reason's row, through the pool's path, counts the matches holding a payment of it), and none where a row
    has a kind of its own (:func:`reason_kind`: the return of a rolled-back doubling) whose floor is above ``n``:
    the toolkit does not print it there, and judging it would judge an interval nobody is shown. (The table's own
    kind is judged at every size: measuring it below its floor is what the harness is for.)"""
    floor = np.full(len(keys), ROW_PAYMENTS if name == "fish_by_reason" and est != "plain" else MIN_UNITS)
    if name == "fish_by_reason" and est != "plain":
        own = [reason_kind(k[-1]) for k in keys]
        floor[[kind != "pool_path_reason" and n < MIN_MATCHES[kind] for kind in own]] = np.iinfo(np.int64).max
    return floor


def _hand_part(seat, pay, n_seats, rules) -> dict:
    """Per table by the hand dealt: the pool-path sums and the plain moments of one part."""
    feats = hand_features(pq.read_table(seat, columns=["hand"])["hand"].to_numpy(), rules)
    t = read_columns(seat, ("match", "fish", "quinola_net"))
    unit = np.unique(t["match"], return_inverse=True)[1]
    out = {}
    for name, (feature, value, holders) in HANDS.items():
        groups = feats[feature].astype(np.int64)
        if holders:
            groups = np.where(feats["quinola"] == 1, groups, -1)
        keep = groups >= 0
        cell = unit[keep] * N_VALUES + groups[keep]
        U = int(unit.max()) + 1
        totals = np.bincount(cell, weights=t[value][keep].astype(float), minlength=U * N_VALUES).reshape(U, -1)
        sizes = np.bincount(cell, minlength=U * N_VALUES).reshape(U, -1)
        out[name] = (group_part(seat, pay, n_seats, groups, N_VALUES, value), Moments(totals, sizes))
    return out


def _hand_tables(hands: dict, feature_of=HANDS) -> dict:
    """The plain and the pool-path rows of the tables by the hand dealt from a block's added sums."""
    out = {"plain": {}, "pool_path": {}}
    for name, (path, plain) in hands.items():
        feature = feature_of[name][0]
        rows = pool_path_rows(path.sums, path.dealers, *path.ante())
        live = [g for g in range(N_VALUES) if rows[g]["n_deals"] > 0]
        out["pool_path"][name] = pl.DataFrame([{feature: g, **rows[g]} for g in live])
        prow = []
        for g in range(N_VALUES):
            if plain.n_units[g] > 1:
                r = ratio_mean_ci_moments(int(plain.n_units[g]), plain.n_obs[g], plain.sum_t[g], plain.shift[g],
                                          plain.sum_uu[g], plain.sum_un[g], plain.sum_nn[g])
                prow.append({feature: g, "mean": r.mean, "se": r.se, "ci_low": r.ci_low, "n_units": r.n_units})
        out["plain"][name] = pl.DataFrame(prow)
    return out


def path_tables(scan: RunScan, estimator: str) -> dict:
    q = scan.quinola_risk(estimator)
    return {"fish_by_seat": scan.fish_by("seat", estimator=estimator),
            "fish_by_seat_zero_sum": scan.fish_by("seat", "fish_zero_sum", estimator=estimator),
            "fish_by_position": scan.fish_by("position", estimator=estimator),
            "fish_by_policy": scan.fish_by("policy", estimator=estimator),
            "fish_by_reason": scan.fish_by_reason(estimator), "quinola_cost": q["cost"],
            "holder_fish": q["holder_fish"]}


def _keyed(frame, keys):
    return {tuple(str(r[k]) for k in keys): r for r in frame.to_dicts()}


def _layout(manifest):
    seats, policies, lay = runs.layout_of(manifest)
    return seats, policies, type(lay)(*[getattr(lay, f) for f in lay.__dataclass_fields__][:-1], True)


def _parts(out: Path, log) -> tuple:
    manifest = read_manifest(out)
    seats, policies, lay = _layout(manifest)
    started = time.perf_counter()
    rules = RunSpec.from_identity(manifest).resolved_rules()
    sums = []
    for c in sorted(completed_chunks(manifest)):
        s = part_sums(part_path(out, c), payments_path(out, c), lay)
        s["path"] = path_part(part_path(out, c), payments_path(out, c), lay)
        s["hands"] = _hand_part(part_path(out, c), payments_path(out, c), lay.n_seats, rules)
        sums.append(s)
    log(f"  read {len(sums)} parts of {out.name} in {time.perf_counter() - started:.0f}s")
    return manifest, seats, policies, lay, sums


def _blocks(manifest, seats, policies, lay, sums, per_block):
    for k in range(len(sums) // per_block):
        total = copy.deepcopy(sums[k * per_block])
        for s in sums[k * per_block + 1:(k + 1) * per_block]:
            for key, v in s.items():
                if key == "hands":
                    for name, (path, plain) in v.items():
                        a, b = total["hands"][name]
                        plain_sum = copy.deepcopy(plain)
                        b.add(plain_sum)
                        total["hands"][name] = (a.add(copy.deepcopy(path)), b)
                else:
                    total[key] = add_sums(total[key], copy.deepcopy(v) if key == "path" else v)
        hands = _hand_tables(total.pop("hands"))
        scan = RunScan(manifest, seats, policies, lay, total)
        yield {est: {**path_tables(scan, est), **hands[est]} for est in ("plain", "pool_path")}


POOLED_TRUTH = False
"""Judge the blocks of each block run against a truth pooled from the truth run and the *other* block runs (their
estimates averaged, their standard errors combined), instead of the truth run alone: with seven block runs the truth
has a third of the truth run's error, and it never contains the block it judges. (At 10,000 matches a truth of
1,000,000 has a tenth of a block's standard error: a truth off by one of its own errors moves every block's miss
rate on one side from 2.5% to about 2.9% and on the other to about 2.1%.)"""


def _pooled(truth: dict, others: list[dict], keys: list) -> tuple[np.ndarray, np.ndarray]:
    """Per row: the mean of the truth run's estimate and the other runs' (equal numbers of matches each), and its
    standard error (theirs combined); a run without the row is left out of its mean."""
    mean, se = [], []
    for k in keys:
        got = [(r[k]["mean"], r[k]["se"]) for r in [truth, *others]
               if k in r and r[k]["mean"] is not None and np.isfinite(r[k]["mean"])]
        m = np.array([g[0] for g in got], float)
        e = np.array([g[1] if g[1] is not None else np.nan for g in got], float)
        mean.append(m.mean())
        se.append(np.sqrt(np.nansum(e ** 2)) / len(got))
    return np.array(mean), np.array(se)


def path_rows(cache: Path, seatings=SEATINGS, sizes=SIZES, log=print) -> list[dict]:
    rows = []
    root = Path(cache) / "runs"
    for seating, n_matches in seatings.items():
        truth_out = runs.run_folder(root, seating, TRUTH_SEED, n_matches, 20_000, log)
        scan = scan_run(truth_out, reasons_by="policy", pool_path=True)
        truth = path_tables(scan, "pool_path")
        plain_truth = path_tables(scan, "plain")
        for name, (feature, value, holders) in HANDS.items():
            truth[name] = pool_path_by_hand(truth_out, feature, value, holders)
            plain_truth[name] = truth[name].with_columns(pl.lit(np.nan).alias("se"))  # no plain truth is needed
        for name, keys in TABLES.items():
            t, p = _keyed(truth[name], keys), _keyed(plain_truth[name], keys)
            z = [(k, (t[k]["mean"] - p[k]["mean"]) / p[k]["se"]) for k in t if k in p and p[k]["se"] > 0]
            worst = max(z, key=lambda kz: abs(kz[1]), default=None)
            log(f"  truth {seating[:14]} {name}: pool-path minus plain mean, in plain se: max |z| "
                f"{abs(worst[1]) if worst else float('nan'):.2f} ({'/'.join(worst[0]) if worst else ''}), "
                f"pool-path se / plain se {np.median([t[k]['se'] / p[k]['se'] for k, _ in z]):.2f}")
        everything = [_parts(runs.run_folder(root, seating, seed, BLOCK_MATCHES, CHUNK, log), log)
                      for seed in BLOCK_SEEDS]
        pooled = POOLED_TRUTH and len(everything) > 1
        if pooled:  # each block run's own estimate, the run read whole as one block
            whole = [next(_blocks(*e, len(e[4])))["pool_path"] for e in everything]
            log(f"  truth of each block run's blocks: seed {TRUTH_SEED} and the other {len(everything) - 1} block "
                f"runs, pooled ({(len(everything)) * BLOCK_MATCHES:,} matches)")
        for n in sizes:
            per_block = n // CHUNK
            by_run = [list(_blocks(*e, per_block)) for e in everything]
            blocks = [b for bs in by_run for b in bs]
            for name, keys in TABLES.items():
                t = _keyed(truth[name], keys)
                keys_t = [k for k in t if np.isfinite(t[k]["mean"])]
                # the truth of every block, row by row: the truth run's, or (pooled) the runs other than the block's
                runs_truth = ([_pooled(t, [_keyed(whole[j][name], keys) for j in range(len(everything)) if j != i],
                                       keys_t) for i in range(len(everything))] if pooled else
                              [(np.array([t[k]["mean"] for k in keys_t]), np.array([t[k]["se"] for k in keys_t], float))
                               ] * len(everything))
                truth_v = np.concatenate([np.tile(runs_truth[i][0], (len(bs), 1)) for i, bs in enumerate(by_run)])
                truth_se = np.concatenate([np.tile(runs_truth[i][1], (len(bs), 1)) for i, bs in enumerate(by_run)])
                at = np.cumsum([0] + [len(bs) for bs in by_run])  # where each block run's blocks start
                for est in ("plain", "pool_path", "pool_path, the truth's error added"):
                    per = [_keyed(b[est.split(",")[0]][name], keys) for b in blocks]
                    got = {f: np.array([[b[k][f] if k in b and b[k][f] is not None else np.nan for k in keys_t]
                                        for b in per], float) for f in ("mean", "se", "n_units", "ci_low")}
                    # the toolkit's degrees of freedom: a plain row's matches holding it, a pool-path row's every
                    # match of the block (its n_units counts the matches holding the row, or a payment of it)
                    q = st.t.ppf(0.975, np.maximum(got["n_units"] - 1, 1) if est == "plain" else n - 1)
                    # judged against a truth that has its own error: the block's and the truth's variances added
                    se = np.hypot(got["se"], np.nan_to_num(truth_se)) if "truth" in est else got["se"]
                    low, high = got["mean"] - q * se, got["mean"] + q * se
                    # a row is judged where at least 1,000 of the block's matches hold it (its floor counts those)
                    # and it varies: a row that is 0 in every match (in a table of one player every reason but the
                    # ante and the pool's nets to 0) has the interval [0, 0], which covers it and says nothing
                    varies = np.isfinite(got["se"]) & (got["se"] > 0)
                    judged = varies & (got["n_units"] >= _row_floor(name, est, keys_t, n)[None, :])
                    r = judge(low, high, truth_v, judged)
                    printed = float(np.isfinite(got["ci_low"]).mean())
                    per_row = [judge(low[:, j], high[:, j], truth_v[:, j], judged[:, j]) for j in range(len(keys_t))]
                    bad = [f"{'/'.join(keys_t[j])}: {p['verdict']} ({p['above']}+{p['below']} of {p['K']})"
                           for j, p in enumerate(per_row) if p["K"] and not p["holds"]]
                    together = judge_blocks(low, high, truth_v, judged) if len(keys_t) > 1 else None
                    rows.append({"part": "path", "seating": seating, "size": n, "table": name, "estimator": est,
                                 "rows": len(keys_t), "printed_share": printed, **r, "failing_rows": bad,
                                 "rows_together": together})
                    log(line(f"  {seating[:14]} n={n} {name} {est}", r) + (f"  rows failing: {bad}" if bad else ""))
                    if together is not None and est != "plain":
                        log(line_blocks("    the rows of a block together", together))
                    if name == "fish_by_reason" and est == "pool_path":  # the pool's and rare reasons, unfloored
                        for j, k in enumerate(keys_t):
                            held = np.nanmedian(got["n_units"][:, j])
                            if k[-1] in POOL_REASONS or held < MIN_UNITS:
                                rj = judge(low[:, j], high[:, j], truth_v[:, j], varies[:, j])
                                if rj["K"]:
                                    log(line(f"    {k[0][:12]}/{k[-1]}, held by {held:.0f}", rj))
                    if len(everything) > 1 and est != "plain":  # and each block run's blocks by themselves
                        for i, seed in enumerate(BLOCK_SEEDS):
                            cut = slice(at[i], at[i + 1])
                            ri = judge(low[cut], high[cut], truth_v[cut], judged[cut])
                            if ri["K"]:
                                log(line(f"    seed {seed}", ri))
    return rows
