"""The ``runs`` and ``claims`` parts of ``scripts/interval_coverage.py``: their
configurations, and their rows judged."""

from __future__ import annotations

import copy
import time
from pathlib import Path

import cov_claims as claims
import cov_runs as runs
import numpy as np
from cov_common import BLOCK_SEED, TRUTH_SEED, judge, line
from scipy import stats as st

from reversis_sim.analysis.scan import RunScan
from reversis_sim.analysis.scan_part import add_sums, part_sums
from reversis_sim.record import completed_chunks, part_path, payments_path, read_manifest

TABLES = {"avoid": {"truth": 2_000_000, "tiny": 4_000, "small": 400_000, "large": 3_200_000},
          "random|avoid|tuned|saver": {"truth": 1_000_000, "tiny": 4_000, "small": 200_000, "large": 1_600_000}}
"""Seatings of the runs judged, and the matches of each of their run folders."""
FOLDERS = {"tiny": (BLOCK_SEED, 2, (2, 10)), "small": (BLOCK_SEED + 1, 50, (50, 200, 1000, 2000)),
           "large": (BLOCK_SEED + 2, 1000, (4000, 8000, 16000, 32000))}
"""The block folders: (seed, matches per part, block sizes in matches)."""
XL_TABLES = {"avoid": {"truth": 8_000_000, "xl": 6_400_000}}
XL_FOLDERS = {"xl": (BLOCK_SEED + 3, 4000, (64000, 128000))}
"""``runs --xl``: the sizes where the means made of the pool's flows hold (a truth of 8M matches: at 128,000
matches a block's standard error is only 2.8 times the truth's)."""


def _all_sums(out: Path, log) -> tuple[dict, list, list, object, list[dict]]:
    manifest = read_manifest(out)
    seats, policies, lay = runs.layout_of(manifest)
    started = time.perf_counter()
    sums = [part_sums(part_path(out, c), payments_path(out, c), lay) for c in sorted(completed_chunks(manifest))]
    log(f"  read {len(sums)} parts of {out.name} in {time.perf_counter() - started:.0f}s")
    return manifest, seats, policies, lay, sums


def _blocks(manifest, seats, policies, lay, sums, per_block: int):
    for k in range(len(sums) // per_block):
        total = copy.deepcopy(sums[k * per_block])
        for s in sums[k * per_block + 1:(k + 1) * per_block]:
            total = {key: add_sums(total[key], v) for key, v in s.items()}
        yield runs.tables_of(RunScan(manifest, seats, policies, lay, total))


def run_rows(cache: Path, tables=TABLES, folders=FOLDERS, log=print) -> list[dict]:
    """Every interval of the summary and of ``analyze``, for each seating, block size and table: pooled over the
    table's rows (its seats, reasons, fates...), and the worst row."""
    rows = []
    root = Path(cache) / "runs"
    for seating, sizes in tables.items():
        truth_out = runs.run_folder(root, seating, TRUTH_SEED, sizes["truth"], 2048, log)
        truth = runs.truth_tables(truth_out)
        for folder, (seed, chunk, block_sizes) in folders.items():
            out = runs.run_folder(root, seating, seed, sizes[folder], chunk, log)
            everything = _all_sums(out, log)
            for n in block_sizes:
                per_block = n // chunk
                if len(everything[4]) // per_block < 20:
                    continue
                got = runs.collect(truth, _blocks(*everything, per_block))
                for name, res in got.items():
                    rows.extend(_judged(seating, n, name, res, log))
    return rows


def _judged(seating: str, n: int, name: str, res: dict, log) -> list[dict]:
    out = []
    printed = res["printed"]
    judged = {"as printed": judge(res["ci_low"], res["ci_high"], res["truth"][None, :], printed)}
    if "se" in res:  # the t interval of every block, printed or not (mean -/+ t * se)
        q = st.t.ppf(0.975, np.maximum(res["n_units"] - 1, 1))
        judged["t, every block"] = judge(res["mean"] - q * res["se"], res["mean"] + q * res["se"],
                                         res["truth"][None, :], np.isfinite(res["se"]))
    if "k" in res:
        for method, f in runs.RATE_METHODS.items():
            ok = res["n"] > 0
            low, high = f(res["k"].astype(np.int64), res["n"].astype(np.int64))
            judged[method] = judge(low, high, res["truth"][None, :], ok)
    for label, r in judged.items():
        worst = None
        if label == "as printed" and r["K"]:
            per_row = [judge(res["ci_low"][:, j], res["ci_high"][:, j], res["truth"][j], printed[:, j])
                       for j in range(len(res["rows"]))]
            bad = [(res["rows"][j], p) for j, p in enumerate(per_row) if p["K"] and not p["holds"]]
            worst = [f"{'/'.join(k)}: {p['verdict']} ({p['above']}+{p['below']} of {p['K']})" for k, p in bad]
        out.append({"part": "runs", "seating": seating, "size": n, "table": name, "method": label,
                    "rows": len(res["rows"]), "printed_share": float(printed.mean()), **r, "failing_rows": worst})
        log(line(f"  {seating[:14]} n={n} {name} {label}", r) + (f"  rows failing: {worst}" if worst else ""))
    return out


def claim_rows(cache: Path, sizes=(1000, 4000), n_families=(200, 50), truth_matches=100_000, log=print) -> list[dict]:
    """The family-wise error rate of tournament and sweep claims (every Holm rejection, and those printed)."""
    rows = []
    root = Path(cache) / "claims"
    for kind in claims.KINDS:
        truth = claims.families(root, kind, truth_matches, [TRUTH_SEED], log)[0]
        log(f"  {kind} truth ({truth_matches:,} matches): " + ", ".join(
            f"{r['key']} {r['mean_difference']:+.3f}" for r in truth))
        for n, K in zip(sizes, n_families):
            fams = claims.families(root, kind, n, [BLOCK_SEED * 1000 + k for k in range(K)], log)
            for printed in (False, True):
                r = claims.judge_claims(truth, fams, printed=printed)
                label = "claims printed" if printed else "every Holm rejection"
                rows.append({"part": "claims", "kind": kind, "size": n, "method": label, **r})
                log(f"  {kind} n={n} {label:<21}: {r['claims_per_family']:.2f} claims a family, "
                    f"{r['families_with_a_wrong_claim']} of {r['families']} families with a wrong claim "
                    f"(FWER {r['fwer']:.3f} <= {r['fwer_band_high']:.3f}): {'holds' if r['holds'] else 'FAILS'}")
    return rows
