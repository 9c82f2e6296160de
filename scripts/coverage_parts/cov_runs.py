"""The run tables of the coverage harness (``scripts/interval_coverage.py runs``):
every interval ``simulate`` and ``analyze``
print, judged as a user gets it, from run folders read by the toolkit's own one-pass scan.

One run folder plays the truth (a seed of its own); another, of many small parts, plays the K small runs as K
disjoint blocks of its parts: the sums of each part (:func:`reversis_sim.analysis.scan_part.part_sums`) are added
block by block exactly as :func:`reversis_sim.analysis.scan.scan_run` adds a run's, and the block's tables are made
by the same :class:`reversis_sim.analysis.scan.RunScan` (the code behind ``analyze`` and the summary).
"""

from __future__ import annotations

import copy
import shutil
import time
from pathlib import Path

import cov_common  # noqa: F401  (the repository on the path)
import numpy as np
import polars as pl

from reversis_sim.analysis.scan import RunScan, scan_run
from reversis_sim.analysis.scan_part import Layout, add_sums, part_sums
from reversis_sim.analysis.stats import clopper_pearson_interval, wilson_interval
from reversis_sim.record import RunSpec, completed_chunks, part_path, payments_path, read_manifest
from reversis_sim.rules import get_preset

MEAN_TABLES = {"fish_by_seat": ["seat"], "fish_by_seat_zero_sum": ["seat"], "fish_by_position": ["position"],
               "fish_by_policy": ["policy"], "fish_by_reason": ["policy", "reason"], "quinola_cost": ["fate"]}
"""The tables of means ``analyze`` prints (the summary prints the first two), and the columns naming a row."""
RATE_TABLES = {"quinola_fate": ["quinola_fate"], "quinola_fate_by_position": ["position", "quinola_fate"],
               "reversis_rates": ["policy", "event"]}
"""The tables of rates (``quinola_fate_by_hearts`` too: its rows are the same kind, by heart length)."""
RATE_METHODS = {"wilson": wilson_interval, "clopper_pearson": clopper_pearson_interval}


def run_folder(root: Path, seats: str, seed: int, n_matches: int, chunk_matches: int, log=print) -> Path:
    """A complete run folder of ``n_matches`` matches (``seats``: a policy, or one per seat separated by ``|``),
    simulated on first use and kept under ``root``."""
    from reversis_sim.simulate import run

    name = f"{seats.replace('|', '+').replace(':', '_')}_seed{seed}_{n_matches}m_c{chunk_matches}"
    out = Path(root) / name
    if (out / "manifest.json").exists():
        manifest = read_manifest(out)
        if len(completed_chunks(manifest)) == manifest["n_chunks"]:
            return out
    rules = get_preset("parlett")
    specs = seats.split("|") if "|" in seats else [seats]
    spec = RunSpec.for_deals(rules, specs, deals=n_matches * rules.match_deals, seed=seed,
                             chunk_matches=chunk_matches)
    started = time.perf_counter()
    if out.exists():
        shutil.rmtree(out)
    run(spec, out)
    log(f"  simulated {out.name} in {time.perf_counter() - started:.0f}s")
    return out


def layout_of(manifest: dict) -> tuple[list[str], list[str], Layout]:
    """The seats, the policies and the scan layout of ``analyze``'s tables (as :func:`scan_run` builds them)."""
    seats = [str(s) for s in manifest["seats"]]
    policies = sorted(set(seats))
    lay = Layout(len(seats), np.array([policies.index(s) for s in seats], np.intp), len(policies), True, True,
                 True, "policy", False)
    return seats, policies, lay


def tables_of(scan: RunScan) -> dict[str, pl.DataFrame]:
    """The tables of ``reversis-sim analyze`` from one scan (:func:`reversis_sim.analysis.run.analysis_tables`)."""
    q = scan.quinola_risk()
    return {"fish_by_seat": scan.fish_by("seat"), "fish_by_seat_zero_sum": scan.fish_by("seat", "fish_zero_sum"),
            "fish_by_position": scan.fish_by("position"), "fish_by_policy": scan.fish_by("policy"),
            "fish_by_reason": scan.fish_by_reason(), "quinola_fate": q["fate"],
            "quinola_fate_by_position": q["fate_by_position"], "quinola_cost": q["cost"],
            "reversis_rates": scan.reversis_rates("policy")}


def truth_tables(out: Path) -> dict[str, pl.DataFrame]:
    return tables_of(scan_run(out, reasons_by="policy"))


def block_tables(out: Path, parts_per_block: int, n_blocks: int, log=print):
    """The tables of ``n_blocks`` disjoint blocks of ``parts_per_block`` consecutive parts each, as a run of just
    those matches would print them."""
    manifest = read_manifest(out)
    seats, policies, lay = layout_of(manifest)
    chunks = sorted(completed_chunks(manifest))
    started = time.perf_counter()
    for k in range(n_blocks):
        total: dict = {}
        for chunk in chunks[k * parts_per_block:(k + 1) * parts_per_block]:
            sums = part_sums(part_path(out, chunk), payments_path(out, chunk), lay)
            total = sums if not total else {key: add_sums(total[key], v) for key, v in sums.items()}
        yield tables_of(RunScan(manifest, seats, policies, lay, copy.deepcopy(total)))
    log(f"  {n_blocks} blocks of {parts_per_block} parts read in {time.perf_counter() - started:.0f}s")


def _keyed(frame: pl.DataFrame, keys: list[str]) -> dict:
    return {tuple(str(r[k]) for k in keys): r for r in frame.to_dicts()}


def collect(truth: dict, blocks, min_trials: int = 1) -> dict[str, dict]:
    """Per table: the truth of each row, and the blocks' bounds of every row (NaN where the block printed none).

    Returns ``{table: {"truth": (R,), "low": (K, R), "high": (K, R), "printed": (K, R) bool, "rows": [keys],
    "k", "n": (K, R) counts for the rate tables}}``."""
    out: dict[str, dict] = {}
    keys_of = {**MEAN_TABLES, **RATE_TABLES}
    per_table: dict[str, list] = {name: [] for name in keys_of}
    for tables in blocks:
        for name in keys_of:
            per_table[name].append(_keyed(tables[name], keys_of[name]))
    for name, keys in keys_of.items():
        t = _keyed(truth[name], keys)
        value = "rate" if name in RATE_TABLES else "mean"
        rows = [r for r in t if np.isfinite(t[r][value])]
        res = {"rows": rows, "truth": np.array([t[r][value] for r in rows])}
        for field in ("ci_low", "ci_high"):
            res[field] = np.array([[b[r][field] if r in b and b[r][field] is not None else np.nan for r in rows]
                                   for b in per_table[name]], dtype=float)
        res["printed"] = np.isfinite(res["ci_low"]) & np.isfinite(res["ci_high"])
        if name in MEAN_TABLES:
            for field in ("mean", "se", "n_units"):
                res[field] = np.array([[b[r][field] if r in b and b[r][field] is not None else np.nan
                                        for r in rows] for b in per_table[name]], dtype=float)
        if name in RATE_TABLES:
            for field, col in (("k", "successes"), ("n", "trials")):
                res[field] = np.array([[b[r][col] if r in b else 0 for r in rows] for b in per_table[name]], float)
            res["printed"] &= res["n"] >= min_trials
        out[name] = res
    return out
