"""Comparison folders: a comparison, tournament or sweep written as Parquet tables and a manifest.

Each table is written under a temporary name and renamed when complete, its owner in its footer (the kind, a
fingerprint of the settings, its name: :func:`reversis_sim.record.write_owned`), then the manifest (``format``
:data:`COMPARE_FORMAT`, ``kind`` compare | tournament | sweep | tune | best-response, the settings, the versions and
the files). An existing folder is replaced only when asked (``force``) and only if it is a comparison folder of the
same kind; ``resume`` recomputes a folder of the same settings one of whose tables is truncated, missing or foreign
(:func:`prepare`), and refuses a whole one.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import polars as pl

from .. import __version__
from ..record import (
    LOCK,
    FolderLock,
    RunError,
    fingerprint,
    git_commit,
    json_ready,
    owned_problem,
    versions,
    write_json_atomic,
    write_owned,
)
from ..rules import Rules

if TYPE_CHECKING:
    from .duplicate import CompareResult, Duplicate

COMPARE_FORMAT = "reversis-compare/1"
"""``format`` of the manifest of a comparison folder (``kind`` says which: compare, tournament, sweep)."""
COMPARE_TABLE = "comparison.parquet"


def check_out(out: Path, force: bool, kind: str) -> None:
    """Refuse a folder we may not write (before any simulation, so nothing is lost): an existing, non-empty folder
    unless ``force``, and even then anything but a comparison folder of the same ``kind``."""
    if out.exists() and not out.is_dir():
        raise RunError(f"{out} is a file, not a folder; choose another --out folder")
    if out.exists() and any(p.name != LOCK for p in out.iterdir()):
        if not force:
            raise RunError(f"{out} already exists and is not empty; give --force to overwrite it, or choose another "
                           f"--out folder")
        try:
            manifest = json.loads((out / "manifest.json").read_text())
        except (OSError, ValueError):
            manifest = {}
        if not isinstance(manifest, dict) or manifest.get("format") != COMPARE_FORMAT:
            raise RunError(f"{out} is not a comparison folder (no manifest.json of format {COMPARE_FORMAT}); "
                           f"refusing to overwrite it even with --force: choose another --out folder")
        if manifest.get("kind") != kind:
            raise RunError(f"{out} holds a {manifest.get('kind')}, not a {kind}; --force replaces only a folder of "
                           f"the same kind: choose another --out folder")


def _plain(settings: Mapping) -> dict:
    """``settings`` as a manifest reads it back (JSON's types, non-finite floats as None)."""
    return json.loads(json.dumps(json_ready(dict(settings))))


def _owner(kind: str, settings: Mapping, name: str) -> dict:
    return {"folder": kind, "settings": fingerprint(_plain(settings)), "table": name}


def folder_problems(out: Path, kind: str, settings: Mapping, manifest: Mapping) -> list[str]:
    """What is wrong with the tables of the comparison folder ``out`` (``file: problem``), whose manifest is
    ``manifest``: every table it lists checked against its owner (:func:`reversis_sim.record.owned_problem`)."""
    files = manifest.get("files")
    if not isinstance(files, list) or not files:
        return ["manifest.json: lists no table"]
    problems = []
    for name in files:
        why = owned_problem(out / str(name), _owner(kind, settings, str(name)))
        if why:
            problems.append(f"{name}: {why}")
    return problems


def prepare(out: Path, kind: str, settings: Mapping, *, force: bool, resume: bool) -> list[str]:
    """Before anything is simulated: refuse a folder the ``kind`` with ``settings`` may not write (:func:`check_out`),
    or with ``resume`` anything but a folder of that kind and those settings some of whose tables are damaged. Returns
    what is damaged (empty without ``resume``); :class:`RunError` in one sentence otherwise."""
    out = Path(out)
    if not resume:
        check_out(out, force, kind)
        return []
    if force:
        raise RunError("--resume keeps a comparison folder and recomputes what is damaged, --force replaces it: "
                       "give one of the two")
    try:
        manifest = json.loads((out / "manifest.json").read_text())
    except (OSError, ValueError):
        manifest = None
    if not isinstance(manifest, dict) or manifest.get("format") != COMPARE_FORMAT:
        raise RunError(f"there is no {kind} to resume in {out} (no manifest.json of format {COMPARE_FORMAT}); run "
                       f"it without --resume")
    if manifest.get("kind") != kind:
        raise RunError(f"{out} holds a {manifest.get('kind')}, not a {kind}; nothing to resume there")
    if "settings" not in manifest:
        raise RunError(f"{out} holds a {kind} written before comparison folders kept their settings, so --resume "
                       f"cannot tell it is this one; give --force to compute it again")
    theirs, mine = manifest.get("settings") or {}, _plain(settings)
    if theirs != mine:
        differ = sorted(k for k in set(theirs) | set(mine) if theirs.get(k) != mine.get(k))
        raise RunError(f"{out} holds a {kind} of other settings ({', '.join(differ[:4])} differ): --resume "
                       f"recomputes only the same {kind}; give its settings, or --force to replace it")
    problems = folder_problems(out, kind, settings, manifest)
    if not problems:
        reader = " (reversis_sim.compare.read_compare reads them)" if kind == "compare" else ""
        raise RunError(f"{out} holds this {kind}, whole: nothing to resume; its tables are the parquet files "
                       f"there{reader}; give --force instead of --resume to run it again")
    return problems


def write_folder(out: Path, kind: str, tables: Mapping[str, pl.DataFrame], manifest: dict, *, force: bool,
                 settings: Mapping | None = None) -> None:
    """Write ``tables`` (file name -> frame) durably, each naming its owner (``kind`` and ``settings``: what a
    ``--resume`` checks), then the manifest (kind, settings, versions, files), holding the folder's lock (one writer
    at a time)."""
    check_out(out, force, kind)
    out.mkdir(parents=True, exist_ok=True)
    settings = {} if settings is None else settings
    with FolderLock(out):
        for old in list(out.glob("*.parquet")) + list(out.glob("*.parquet.tmp")):
            old.unlink()
        for name, frame in tables.items():
            write_owned(out / name, frame, _owner(kind, settings, name))
        full = {"format": COMPARE_FORMAT, "kind": kind, **manifest, "settings": _plain(settings),
                "files": sorted(tables), "package_version": __version__, "git_commit": git_commit(),
                "versions": versions()}
        write_json_atomic(out / "manifest.json", json_ready(full))


def compare_rows(result: CompareResult, dup: Duplicate, n_seats: int) -> pl.DataFrame:
    """One row per (match, rotation, arm): the seat under test's fish and fish per deal, and every seat's fish."""
    parts = []
    match = np.arange(result.first_match, result.first_match + result.n_matches, dtype=np.int64)
    for (arm, s), t in sorted(dup.tables.items(), key=lambda kv: (kv[0][1], kv[0][0] != "candidate")):
        cols = {"match": match, "rotation": np.full(len(match), s, np.int8),
                "arm": [arm] * len(match),
                "policy": [result.candidate if arm == "candidate" else result.baseline] * len(match),
                "n_deals": t.deals.astype(np.int16), "fish": t.fish[:, s], "fish_per_deal": t.per_deal(s)}
        for k in range(n_seats):
            cols[f"fish_seat_{k}"] = t.fish[:, k]
        parts.append(pl.DataFrame(cols))
    return pl.concat(parts).sort(["match", "rotation", "arm"], descending=[False, False, True])


def write_compare(out: Path, rules: Rules, result: CompareResult, dup: Duplicate, *, force: bool,
                  settings: Mapping | None = None) -> None:
    layout = {
        "table": COMPARE_TABLE,
        "row": "one per (match, rotation, arm)",
        "rotation": "the seat under test (candidate or baseline there, the field in every other seat)",
        "arm": "candidate | baseline",
        "fish": "the seat under test's fish in the match; fish_per_deal = fish / n_deals",
        "fish_seat_k": "every seat's fish in the match (k = 0 .. n_seats - 1)",
        "difference": "per match: mean over rotations of fish_per_deal, candidate minus baseline",
    }
    manifest = {"rules": rules.name, "rules_params": rules.to_params(), "candidate": result.candidate,
                "baseline": result.baseline, "field": result.field, "seed": result.seed,
                "baseline_seed": result.baseline_seed, "policy_seed_offsets": list(result.policy_seed_offsets),
                "first_match": result.first_match, "n_matches": result.n_matches, "match_deals": result.match_deals,
                "n_rotations": result.n_rotations, "engine": result.engine, "layout": layout,
                "summary": result.summary()}
    write_folder(out, "compare", {COMPARE_TABLE: compare_rows(result, dup, rules.n_seats)}, manifest, force=force,
                 settings=settings)


def read_compare(out: str | Path) -> tuple[dict, pl.DataFrame]:
    """(manifest, rows) of a folder written by :func:`compare` with ``out``; :class:`RunError` otherwise.

    The per-match differences follow from the rows alone::

        rows.group_by("match", "arm").agg(pl.col("fish_per_deal").mean())  # then candidate minus baseline
    """
    out = Path(out)
    try:
        manifest = json.loads((out / "manifest.json").read_text())
    except (OSError, json.JSONDecodeError):
        raise RunError(f"{out} is not a comparison folder (no readable manifest.json)") from None
    if manifest.get("format") != COMPARE_FORMAT or manifest.get("kind") != "compare":
        raise RunError(f"{out} is not a compare folder (format {manifest.get('format')!r}, kind "
                       f"{manifest.get('kind')!r})")
    return manifest, pl.read_parquet(out / COMPARE_TABLE)


