"""The ``path`` part of ``scripts/interval_coverage.py``: the pool-path estimator
(:mod:`reversis_sim.analysis.pool_path`) against the plain t interval, on the same blocks, for every mean table of
``analyze`` and the summary.

One truth folder per seating (seed 1001) and one block folder (seed 2002, parts of 1,000 matches), read part by part
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
from cov_common import BLOCK_SEED, TRUTH_SEED, judge, line  # noqa: E402
from scipy import stats as st

from reversis_sim.analysis.scan import RunScan, scan_run  # noqa: E402
from reversis_sim.analysis.scan_part import add_sums, part_sums  # noqa: E402
from reversis_sim.analysis.scan_pool import path_part  # noqa: E402
from reversis_sim.record import completed_chunks, part_path, payments_path, read_manifest  # noqa: E402

SEATINGS = {"avoid": 1_000_000, "random|avoid|tuned|saver": 1_000_000}
"""The seatings judged, and the matches of their truth runs and of their block runs."""
CHUNK, SIZES = 1_000, (1_000, 2_000, 10_000, 100_000)
"""Matches per part of the block runs, and the block sizes judged (matches)."""
TABLES = {"fish_by_seat": ["seat"], "fish_by_seat_zero_sum": ["seat"], "fish_by_position": ["position"],
          "fish_by_policy": ["policy"], "fish_by_reason": ["policy", "reason"], "quinola_cost": ["fate"],
          "holder_fish": ["who"]}


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
    sums = []
    for c in sorted(completed_chunks(manifest)):
        s = part_sums(part_path(out, c), payments_path(out, c), lay)
        s["path"] = path_part(part_path(out, c), payments_path(out, c), lay)
        sums.append(s)
    log(f"  read {len(sums)} parts of {out.name} in {time.perf_counter() - started:.0f}s")
    return manifest, seats, policies, lay, sums


def _blocks(manifest, seats, policies, lay, sums, per_block):
    for k in range(len(sums) // per_block):
        total = copy.deepcopy(sums[k * per_block])
        for s in sums[k * per_block + 1:(k + 1) * per_block]:
            total = {key: add_sums(total[key], copy.deepcopy(v) if key == "path" else v) for key, v in s.items()}
        scan = RunScan(manifest, seats, policies, lay, total)
        yield {"plain": path_tables(scan, "plain"), "pool_path": path_tables(scan, "pool_path")}


def path_rows(cache: Path, seatings=SEATINGS, sizes=SIZES, log=print) -> list[dict]:
    rows = []
    root = Path(cache) / "runs"
    for seating, n_matches in seatings.items():
        truth_out = runs.run_folder(root, seating, TRUTH_SEED, n_matches, 20_000, log)
        scan = scan_run(truth_out, reasons_by="policy", pool_path=True)
        truth = path_tables(scan, "pool_path")
        plain_truth = path_tables(scan, "plain")
        for name, keys in TABLES.items():
            t, p = _keyed(truth[name], keys), _keyed(plain_truth[name], keys)
            z = [(k, (t[k]["mean"] - p[k]["mean"]) / p[k]["se"]) for k in t if k in p and p[k]["se"] > 0]
            worst = max(z, key=lambda kz: abs(kz[1]), default=None)
            log(f"  truth {seating[:14]} {name}: pool-path minus plain mean, in plain se: max |z| "
                f"{abs(worst[1]) if worst else float('nan'):.2f} ({'/'.join(worst[0]) if worst else ''}), "
                f"pool-path se / plain se {np.median([t[k]['se'] / p[k]['se'] for k, _ in z]):.2f}")
        out = runs.run_folder(root, seating, BLOCK_SEED, n_matches, CHUNK, log)
        everything = _parts(out, log)
        for n in sizes:
            per_block = n // CHUNK
            blocks = list(_blocks(*everything, per_block))
            for name, keys in TABLES.items():
                t = _keyed(truth[name], keys)
                keys_t = [k for k in t if np.isfinite(t[k]["mean"])]
                truth_v = np.array([t[k]["mean"] for k in keys_t])
                for est in ("plain", "pool_path"):
                    per = [_keyed(b[est][name], keys) for b in blocks]
                    got = {f: np.array([[b[k][f] if k in b and b[k][f] is not None else np.nan for k in keys_t]
                                        for b in per], float) for f in ("mean", "se", "n_units", "ci_low")}
                    q = st.t.ppf(0.975, np.maximum(got["n_units"] - 1, 1))
                    low, high = got["mean"] - q * got["se"], got["mean"] + q * got["se"]
                    r = judge(low, high, truth_v[None, :], np.isfinite(got["se"]))
                    printed = float(np.isfinite(got["ci_low"]).mean())
                    per_row = [judge(low[:, j], high[:, j], truth_v[j], np.isfinite(got["se"][:, j]))
                               for j in range(len(keys_t))]
                    bad = [f"{'/'.join(keys_t[j])}: {p['verdict']} ({p['above']}+{p['below']} of {p['K']})"
                           for j, p in enumerate(per_row) if p["K"] and not p["holds"]]
                    rows.append({"part": "path", "seating": seating, "size": n, "table": name, "estimator": est,
                                 "rows": len(keys_t), "printed_share": printed, **r, "failing_rows": bad})
                    log(line(f"  {seating[:14]} n={n} {name} {est}", r) + (f"  rows failing: {bad}" if bad else ""))
    return rows
