"""Reading a run folder, verified: the manifest's shape, and every part against the manifest, from the part's own
footer (its run description, chunk, row count and match range) before any row is used. A part from another run, a
part copied over another, a truncated part or an edited manifest is one sentence naming the file and the fix, never
a wrong number. :func:`repair_manifest` rebuilds a lost manifest from the parts' own descriptions."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pyarrow.parquet as pq

from .chunks import ChunkSet
from .files import RunError
from .schema import META_KEY, SCHEMA_VERSION

FORMAT = "reversis-run/2"
"""The manifest's format: completed chunks as ``[start, stop)`` ranges. ``reversis-run/1`` (a list of chunk
numbers) is still read."""
FORMATS = ("reversis-run/1", FORMAT)
MANIFEST = "manifest.json"
PART = re.compile(r"^part-(\d+)\.parquet$")
PAYMENTS = "payments"
"""The ``table`` a payments file's footer names (a seat part's footer names none)."""

_MANIFEST_FIELDS = {"format": str, "schema_version": int, "rules": str, "rules_params": dict, "seats": list,
                    "seed": int, "n_matches": int, "match_deals": int, "chunk_matches": int, "n_chunks": int,
                    "completed_chunks": list}
_IDENTITY = ("rules", "rules_params", "seats", "seed", "n_matches", "match_deals", "chunk_matches", "schema_version",
             "deals")


def part_path(out: Path, chunk: int) -> Path:
    """The chunk's seat table."""
    return Path(out) / f"part-{chunk:05d}.parquet"


def payments_path(out: Path, chunk: int) -> Path:
    """The chunk's payments table, written beside its seat table (before it: a seat part's presence means both)."""
    return Path(out) / f"payments-{chunk:05d}.parquet"


def part_files_present(out: Path) -> dict[int, Path]:
    """The part files in a folder by chunk number (whatever their content)."""
    found = {}
    for path in Path(out).glob("part-*.parquet"):
        m = PART.match(path.name)
        if m:
            found[int(m.group(1))] = path
    return found


def tables_only(out: Path) -> str:
    """Why a folder with a manifest but no part file (a run's summary and tables, as results/ ships them) cannot be
    read or upgraded: the sentence both say."""
    return (f"{out} keeps no part files, only what a run left beside them (its summary.json and tables, as the "
            f"folders under results/ are shipped): there are no deals to analyze or upgrade; read those files, or "
            f"run the command that wrote it again")


def identity_of(manifest: dict) -> dict:
    """The run description a manifest records (what every part of the run carries; ``deals`` only where the deals
    are constrained)."""
    return {k: manifest.get(k) for k in _IDENTITY if k != "deals" or manifest.get("deals") is not None}


def completed_chunks(manifest: dict) -> ChunkSet:
    """The chunks a manifest lists as complete."""
    return ChunkSet.from_json(manifest["completed_chunks"])


def read_manifest(out: str | Path) -> dict:
    """The manifest of a run folder, validated; :class:`RunError` with a clear sentence otherwise."""
    out = Path(out)
    path = out / MANIFEST
    if not out.is_dir():
        raise RunError(f"{out} is not a folder; give the --out folder of a simulate run")
    if not path.exists():
        if (out / "games.jsonl").is_file():
            raise RunError(f"{out} is a games folder of 'play', not a run folder: 'reversis-sim play --summary --out "
                           f"{out}' reads it")
        if part_files_present(out):
            hint = f"its part files can rebuild it: reversis-sim repair {out}"
        elif any(out.iterdir()):  # someone else's folder: simulate would refuse it too
            hint = "give the --out folder of a simulate run"
        else:
            hint = f"run 'reversis-sim simulate --out {out}'"
        raise RunError(f"{out} is not a run folder: it has no {MANIFEST} ({hint})")
    try:
        manifest = json.loads(path.read_text())
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as e:
        raise RunError(f"{path} is not readable JSON ({e}); the run folder is damaged: reversis-sim repair {out} "
                       f"rebuilds the manifest from the part files") from None
    if isinstance(manifest, dict) and str(manifest.get("format", "")).startswith("reversis-compare/"):
        raise RunError(f"{out} is a comparison folder (kind {manifest.get('kind')!r}), not a run folder: its "
                       f"tables are the parquet files there (reversis_sim.compare.read_compare reads a compare's)")
    if isinstance(manifest, dict) and str(manifest.get("format", "")).startswith("reversis-review/"):
        raise RunError(f"{out} is a review folder (a player's reviewed decisions), not a run folder: the review "
                       f"command that wrote it prints its summary and draws its figure again when given --resume "
                       f"(reversis-sim review --policy ... --out {out} --resume)")
    if not isinstance(manifest, dict) or manifest.get("format") not in FORMATS:
        what = manifest.get("format") if isinstance(manifest, dict) else type(manifest).__name__
        raise RunError(f"{path} is not a reversis_sim run manifest (format {what!r})")
    version = manifest.get("schema_version")
    if isinstance(version, int) and version > SCHEMA_VERSION:
        raise RunError(f"{out} was written with schema version {version}, newer than this reversis_sim "
                       f"({SCHEMA_VERSION}); upgrade reversis_sim to read it")
    if isinstance(version, int) and version < SCHEMA_VERSION:
        if not part_files_present(out):
            raise RunError(tables_only(out))
        raise RunError(f"{out} was written with schema version {version}; this reversis_sim reads version "
                       f"{SCHEMA_VERSION} (a lean seat table with each seat's dealt hand, and a payments table): "
                       f"'reversis-sim upgrade {out}' rewrites it in place, row for row")
    for key, kind in _MANIFEST_FIELDS.items():
        value = manifest.get(key)
        if not isinstance(value, kind) or isinstance(value, bool) and kind is int:
            problem = "missing" if key not in manifest else f"not a {kind.__name__}"
            raise RunError(f"{path} is damaged: {key!r} is {problem}; reversis-sim repair {out} rebuilds the "
                           f"manifest from the part files")
    return manifest


def part_description(path: Path) -> tuple[dict, int]:
    """(the part's own metadata: run, chunk, rows, and the number of rows in its footer); :class:`RunError` if the
    file is missing, unreadable or not a reversis_sim part."""
    try:
        meta = pq.read_metadata(path)
    except FileNotFoundError:
        raise RunError(f"{path.name} is listed in the manifest but missing from {path.parent}; resume the run "
                       f"(the same simulate command with --resume) to recompute it") from None
    except Exception:  # noqa: BLE001 - any unreadable file is the same problem for the user
        raise RunError(f"{path} is not a readable Parquet file (truncated, or not ours); delete it and resume the "
                       f"run with --resume to recompute it") from None
    raw = (meta.metadata or {}).get(META_KEY)
    try:
        info = json.loads(raw) if raw is not None else None
    except ValueError:
        info = None
    if not isinstance(info, dict) or not isinstance(info.get("run"), dict):
        raise RunError(f"{path} is not a reversis_sim part file (foreign Parquet); move it out of the folder")
    return info, meta


def _match_range(meta) -> tuple[int, int] | None:
    """(smallest, largest) match number from the footer's column statistics, or None where they are missing."""
    try:
        col = meta.schema.names.index("match")
    except ValueError:
        return None
    lows, highs = [], []
    for g in range(meta.num_row_groups):
        stats = meta.row_group(g).column(col).statistics
        if stats is None or not stats.has_min_max:
            return None
        lows.append(stats.min)
        highs.append(stats.max)
    return (min(lows), max(highs)) if lows else None


def _first_difference(a: dict, b: dict) -> str:
    for k in _IDENTITY:
        if a.get(k) != b.get(k):
            if k == "rules_params" and isinstance(a.get(k), dict) and isinstance(b.get(k), dict):
                sub = sorted(x for x in a[k].keys() | b[k].keys() if a[k].get(x) != b[k].get(x))[0]
                return f"rule {sub}: {a[k].get(sub)!r} against {b[k].get(sub)!r}"
            return f"{k}: {a.get(k)!r} against {b.get(k)!r}"
    return "no difference"


def verify_part(path: Path, chunk: int, identity: dict) -> None:
    """:class:`RunError` in one sentence unless ``path`` is the complete part of chunk ``chunk`` of the run
    ``identity`` describes: its run description, chunk number, row count and match range, read from its footer."""
    from .spec import RunSpec

    info, meta = part_description(path)
    if info["run"] != identity:
        raise RunError(f"{path} belongs to another run ({_first_difference(info['run'], identity)}, the part "
                       f"against the run); move it out and resume the run to recompute chunk {chunk}")
    if info.get("chunk") != chunk:
        raise RunError(f"{path} holds chunk {info.get('chunk')}, not {chunk} (a copied or renamed file); delete it "
                       f"and resume the run to recompute it")
    spec = RunSpec.from_identity(identity)
    low, high = spec.row_bounds(chunk)
    if meta.num_rows != info.get("rows") or not low <= meta.num_rows <= high:
        raise RunError(f"{path} has {meta.num_rows} rows where chunk {chunk} has "
                       f"{low if low == high else f'{low} to {high}'}; delete it and resume the run to recompute it")
    first, n = spec.chunk_range(chunk)
    seen = _match_range(meta)
    if seen is not None and seen != (first, first + n - 1):
        raise RunError(f"{path} holds matches {seen[0]}..{seen[1]} where chunk {chunk} is matches {first}.."
                       f"{first + n - 1}; delete it and resume the run to recompute it")
    if info.get("table") is not None:
        raise RunError(f"{path} is a {info['table']} table, not a seat part; delete it and resume the run")
    verify_payments(payments_path(path.parent, chunk), chunk, identity, (first, first + n - 1))


def verify_payments(path: Path, chunk: int, identity: dict, matches: tuple[int, int]) -> None:
    """:class:`RunError` unless ``path`` is the complete payments table of chunk ``chunk`` of the run ``identity``
    describes, its matches within ``matches`` (from its footer, as :func:`verify_part`)."""
    info, meta = part_description(path)
    if info["run"] != identity or info.get("chunk") != chunk or info.get("table") != PAYMENTS:
        raise RunError(f"{path} is not the payments table of chunk {chunk} of this run (a copied or foreign file); "
                       f"delete it and resume the run to recompute the chunk")
    if meta.num_rows != info.get("rows"):
        raise RunError(f"{path} has {meta.num_rows} rows where its footer says {info.get('rows')}; delete it and "
                       f"resume the run to recompute chunk {chunk}")
    seen = _match_range(meta)
    if seen is not None and not matches[0] <= seen[0] <= seen[1] <= matches[1]:
        raise RunError(f"{path} holds matches {seen[0]}..{seen[1]} where chunk {chunk} is matches {matches[0]}.."
                       f"{matches[1]}; delete it and resume the run to recompute it")


def part_files(out: str | Path, manifest: dict | None = None, *, allow_partial: bool = False) -> list[Path]:
    """The part files of a run, each verified against the manifest (:func:`verify_part`); :class:`RunError` on a
    missing, foreign, copied, truncated or incomplete part, or on a manifest its parts contradict."""
    out = Path(out)
    manifest = manifest or read_manifest(out)
    done = completed_chunks(manifest)
    if len(done) < manifest["n_chunks"] and not allow_partial:
        raise RunError(f"{out} is incomplete ({len(done):,} of {manifest['n_chunks']:,} chunks); finish it with "
                       f"'reversis-sim simulate ... --out {out} --resume'")
    identity = identity_of(manifest)
    paths = []
    for chunk in done:
        path = part_path(out, chunk)
        try:
            verify_part(path, chunk, identity)
        except RunError:
            _blame_the_manifest(out, identity)
            raise
        paths.append(path)
    return paths


def _blame_the_manifest(out: Path, identity: dict) -> None:
    """Raise if every part agrees on one run description the manifest contradicts (an edited manifest)."""
    described = []
    for path in part_files_present(out).values():
        try:
            described.append(json.dumps(part_description(path)[0]["run"], sort_keys=True))
        except RunError:
            continue
    if not described or len(set(described)) != 1 or json.loads(described[0]) == identity:
        return
    parts = json.loads(described[0])
    difference = _first_difference(identity, parts)
    if len(described) == 1:  # one part against the manifest: either may be the stranger
        raise RunError(f"the manifest and the only part file of {out} describe different runs ({difference}, the "
                       f"manifest against the part): if the manifest was edited, reversis-sim repair {out} rebuilds "
                       f"it from the part; if the part came from another run, move it out and resume the run")
    raise RunError(f"the manifest of {out} disagrees with all {len(described)} of its part files ({difference}, the "
                   f"manifest against the parts): it was edited or replaced; reversis-sim repair {out} rebuilds it "
                   f"from the parts")


def run_description_of_parts(out: Path) -> tuple[dict, dict[int, Path]]:
    """(the one run description the folder's part files carry, their paths by chunk); :class:`RunError` if there
    are none, or parts of several runs."""
    present = part_files_present(out)
    groups: dict[str, list[str]] = {}
    for path in present.values():
        try:
            groups.setdefault(json.dumps(part_description(path)[0]["run"], sort_keys=True), []).append(path.name)
        except RunError:
            continue  # unreadable: left out (resume recomputes it)
    if not groups:
        raise RunError(f"{out} has no readable part files to rebuild a manifest from")
    if len(groups) > 1:
        names = "; ".join(", ".join(sorted(v)[:3]) for v in groups.values())
        raise RunError(f"{out} holds parts of {len(groups)} different runs ({names}); move the foreign ones out and "
                       f"repair again")
    return json.loads(next(iter(groups))), present
