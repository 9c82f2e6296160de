"""The run folder: one schema, Arrow tables, crash-safe Parquet part files and a manifest (DESIGN.md decision 6).

A run folder holds ``manifest.json`` (the run description, versions, and the completed chunks) and one
``part-NNNNN.parquet`` per chunk of matches. A part is written under a temporary name and renamed when complete, then
the manifest is rewritten (also via rename). A killed run therefore leaves only whole parts; ``--resume`` recomputes
exactly the missing chunks, and because a chunk is a pure function of (run description, chunk id) the result equals
an uninterrupted run row for row.

The table has one row per (deal, seat); ``docs/schema.md`` documents every column.
"""

from __future__ import annotations

import json
import os
import platform
import subprocess
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from . import __version__
from .columns import N_REASONS
from .game import FATES, REASONS
from .rules import Rules

FORMAT = "reversis-run/1"
SCHEMA_VERSION = 1
META_KEY = b"reversis_sim.run"
MANIFEST = "manifest.json"


class RunError(Exception):
    """A run folder that cannot be used as asked; the message says what is wrong and what to do."""


# ----------------------------------------------------------------------------------------------------------------
# The schema (declared once)
# ----------------------------------------------------------------------------------------------------------------

_FIXED = [
    ("match", pa.int64()), ("deal", pa.int16()), ("seat", pa.int8()), ("dealer", pa.int8()),
    ("position", pa.int8()), ("policy", pa.dictionary(pa.int8(), pa.string())),
    ("fish", pa.int64()), ("card_points", pa.int16()), ("tricks_won", pa.int16()),
    ("hearts_at_lead", pa.int8()), ("to_pool", pa.int64()), ("from_pool", pa.int64()),
    ("pool_before", pa.int64()), ("pool_after", pa.int64()),
    ("quinola_holder", pa.int8()), ("quinola_fate", pa.dictionary(pa.int8(), pa.string())),
    ("quinola_trick", pa.int8()),
    ("party_winner", pa.int8()), ("party_loser", pa.int8()), ("party_value", pa.int16()),
    ("reversis_seat", pa.int8()), ("reversis_made", pa.bool_()), ("reversis_breaker", pa.int8()),
    ("espagnolette_eligible", pa.int8()), ("espagnolette_seat", pa.int8()), ("espagnolette_made", pa.bool_()),
]
_MONEY = [(f"{way}_{reason}", pa.int64()) for reason in REASONS for way in ("paid", "received")]
SCHEMA = pa.schema(_FIXED + _MONEY)
"""One row per (deal, seat). Money columns: ``paid_<reason>`` / ``received_<reason>`` for every payment reason."""


def seat_table(cols: dict[str, np.ndarray], seats: list[str], meta: dict | None = None) -> pa.Table:
    """Per-deal columns (:mod:`reversis_sim.columns`) -> the long (deal, seat) Arrow table of :data:`SCHEMA`."""
    n_deals, n_seats = cols["fish"].shape
    seat = np.tile(np.arange(n_seats, dtype=np.int8), n_deals)

    def per_deal(name: str) -> np.ndarray:
        return np.repeat(cols[name], n_seats)

    def per_seat(name: str) -> np.ndarray:
        return cols[name][:, :n_seats].reshape(-1)

    dealer = per_deal("dealer")
    data: dict[str, pa.Array] = {
        "match": per_deal("match"), "deal": per_deal("deal"), "seat": seat, "dealer": dealer,
        "position": ((seat.astype(np.int16) - dealer) % n_seats).astype(np.int8),
        "policy": pa.DictionaryArray.from_arrays(pa.array(seat, pa.int8()), pa.array(list(seats), pa.string())),
    }
    for name in ("fish", "card_points", "tricks_won", "hearts_at_lead", "to_pool", "from_pool"):
        data[name] = per_seat(name)
    for name in ("pool_before", "pool_after", "quinola_holder", "quinola_trick", "party_winner", "party_loser",
                 "party_value", "reversis_seat", "reversis_made", "reversis_breaker", "espagnolette_eligible",
                 "espagnolette_seat", "espagnolette_made"):
        data[name] = per_deal(name)
    data["quinola_fate"] = pa.DictionaryArray.from_arrays(pa.array(per_deal("quinola_fate"), pa.int8()),
                                                          pa.array(FATES, pa.string()))
    assert cols["paid"].shape[2] == N_REASONS
    for k, reason in enumerate(REASONS):
        data[f"paid_{reason}"] = cols["paid"][:, :n_seats, k].reshape(-1)
        data[f"received_{reason}"] = cols["received"][:, :n_seats, k].reshape(-1)
    arrays = [data[f.name] if isinstance(data[f.name], pa.Array) else pa.array(data[f.name], f.type)
              for f in SCHEMA]
    schema = SCHEMA.with_metadata({META_KEY: json.dumps(meta).encode()}) if meta else SCHEMA
    return pa.Table.from_arrays(arrays, schema=schema)


# ----------------------------------------------------------------------------------------------------------------
# The run description and the manifest
# ----------------------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class RunSpec:
    """What defines a run's rows: two runs with equal specs have identical Parquet rows."""

    rules: str
    rules_params: dict
    seats: list[str]
    seed: int
    n_matches: int
    match_deals: int
    chunk_matches: int

    @classmethod
    def for_deals(cls, rules, seats, *, deals: int, seed: int, match_deals: int | None = None,
                  chunk_matches: int = 2048) -> RunSpec:
        """The spec of a run of at least ``deals`` deals (whole matches) of ``rules`` (a :class:`Rules`) with
        ``seats`` (policy specs, one or one per seat)."""
        from .policies import parse_seats

        per_match = match_deals or rules.match_deals
        specs = parse_seats([str(s) for s in seats], rules.n_seats)
        return cls(rules=rules.name, rules_params=rules.to_params(), seats=[str(s) for s in specs], seed=seed,
                   n_matches=-(-deals // per_match), match_deals=per_match, chunk_matches=chunk_matches)

    def resolved_rules(self) -> Rules:
        """The rules this run plays: exactly those its description records (``rules_params``)."""
        return Rules.from_params(self.rules, self.rules_params)

    @property
    def n_chunks(self) -> int:
        return -(-self.n_matches // self.chunk_matches)

    def chunk_range(self, chunk: int) -> tuple[int, int]:
        """(first match, number of matches) of a chunk."""
        first = chunk * self.chunk_matches
        return first, min(self.chunk_matches, self.n_matches - first)

    def identity(self) -> dict:
        return {**asdict(self), "schema_version": SCHEMA_VERSION}


def git_commit() -> str | None:
    try:
        out = subprocess.run(["git", "rev-parse", "HEAD"], capture_output=True, text=True, timeout=5,
                             cwd=Path(__file__).resolve().parent)
        return out.stdout.strip() or None
    except (OSError, subprocess.SubprocessError):
        return None


def versions() -> dict:
    import numba
    import polars

    return {"python": platform.python_version(), "numpy": np.__version__, "numba": numba.__version__,
            "pyarrow": pa.__version__, "polars": polars.__version__}


def write_json_atomic(path: Path, data: dict) -> None:
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(data, indent=2) + "\n")
    os.replace(tmp, path)


def _difference(key: str, old, new) -> str:
    """One setting that differs between a run's manifest and a resume, in words (rule parameters one by one)."""
    if key == "rules_params" and isinstance(old, dict) and isinstance(new, dict):
        names = sorted(k for k in set(old) | set(new) if old.get(k) != new.get(k))
        return "; ".join(f"rule {k}: run has {old.get(k)!r}, asked {new.get(k)!r}" for k in names[:3])
    return f"{key}: run has {old!r}, asked {new!r}"


def part_path(out: Path, chunk: int) -> Path:
    return out / f"part-{chunk:05d}.parquet"


class RunFolder:
    """A run folder being written. Use :meth:`create` (new or ``force``) or :meth:`resume`."""

    def __init__(self, out: Path, spec: RunSpec, manifest: dict):
        self.out, self.spec, self.manifest = out, spec, manifest

    @classmethod
    def create(cls, out: str | Path, spec: RunSpec, *, force: bool = False) -> RunFolder:
        out = Path(out)
        if out.exists() and any(out.iterdir()):
            if not force:
                raise RunError(f"{out} already exists and is not empty; use --resume to continue the run there, "
                               f"--force to overwrite it, or choose another --out")
            if not (out / MANIFEST).exists():
                raise RunError(f"{out} is not a run folder (no {MANIFEST}); refusing to overwrite it even with "
                               f"--force: choose another --out")
            for p in out.glob("part-*.parquet*"):
                p.unlink()
        out.mkdir(parents=True, exist_ok=True)
        manifest = {"format": FORMAT, **spec.identity(), "n_chunks": spec.n_chunks,
                    "package_version": __version__, "git_commit": git_commit(), "versions": versions(),
                    "completed_chunks": []}
        folder = cls(out, spec, manifest)
        write_json_atomic(out / MANIFEST, manifest)
        return folder

    @classmethod
    def resume(cls, out: str | Path, spec: RunSpec) -> RunFolder:
        out = Path(out)
        manifest = read_manifest(out)
        old = {k: manifest.get(k) for k in spec.identity()}
        new = spec.identity()
        diff = [k for k in new if old[k] != new[k]]
        if diff:
            shown = "; ".join(_difference(k, old[k], new[k]) for k in diff[:3])
            raise RunError(f"cannot resume {out}: the settings differ from its manifest ({shown}); "
                           f"repeat the original settings, or use --force to start over")
        folder = cls(out, spec, manifest)
        for tmp in out.glob("part-*.parquet.tmp"):
            tmp.unlink()  # a part that was being written when the run died
        done = [c for c in range(spec.n_chunks) if folder.chunk_is_valid(c)]
        manifest["completed_chunks"] = done
        write_json_atomic(out / MANIFEST, manifest)
        return folder

    def row_bounds(self, chunk: int) -> tuple[int, int]:
        """(fewest, most) rows a chunk may have: every match has ``match_deals`` deals, except under simple
        scoring (``parlett_simple``, F4.3/G14), where a match stops after the deal a running total reaches the
        target and so has 1 to ``match_deals`` deals."""
        n_matches = self.spec.chunk_range(chunk)[1]
        seats = len(self.spec.seats)
        most = n_matches * self.spec.match_deals * seats
        return (n_matches * seats if self.spec.rules_params.get("scoring") == "simple" else most), most

    def chunk_is_valid(self, chunk: int) -> bool:
        """A part file exists, is readable Parquet of our schema and run, and has every row of its chunk (the
        row count written into its metadata when it was complete)."""
        path = part_path(self.out, chunk)
        if not path.exists():
            return False
        try:
            meta = pq.read_metadata(path)
            kv = meta.metadata or {}
            info = json.loads(kv.get(META_KEY, b"{}"))
        except Exception:  # noqa: BLE001 - any unreadable file is recomputed
            return False
        low, high = self.row_bounds(chunk)
        return (meta.num_rows == info.get("rows") and low <= meta.num_rows <= high and info.get("chunk") == chunk
                and info.get("run") == self.spec.identity())

    def missing_chunks(self) -> list[int]:
        done = set(self.manifest["completed_chunks"])
        return [c for c in range(self.spec.n_chunks) if c not in done]

    def write_chunk(self, chunk: int, cols: dict[str, np.ndarray]) -> None:
        """Write one chunk's part file atomically, then record it in the manifest."""
        rows = len(cols["match"]) * len(self.spec.seats)
        low, high = self.row_bounds(chunk)
        first, n = self.spec.chunk_range(chunk)
        if not low <= rows <= high or sorted(set(cols["match"].tolist())) != list(range(first, first + n)):
            raise RunError(f"chunk {chunk} has {rows} rows for matches {first}..{first + n - 1}, expected "
                           f"{low if low == high else f'{low} to {high}'}: the engine returned an incomplete chunk")
        table = seat_table(cols, self.spec.seats, {"run": self.spec.identity(), "chunk": chunk, "rows": rows})
        final = part_path(self.out, chunk)
        tmp = final.with_name(final.name + ".tmp")
        pq.write_table(table, tmp, compression="zstd")
        os.replace(tmp, final)
        self.manifest["completed_chunks"] = sorted(set(self.manifest["completed_chunks"]) | {chunk})
        write_json_atomic(self.out / MANIFEST, self.manifest)


# ----------------------------------------------------------------------------------------------------------------
# Reading
# ----------------------------------------------------------------------------------------------------------------


def read_manifest(out: str | Path) -> dict:
    """The manifest of a run folder, validated; :class:`RunError` with a clear sentence otherwise."""
    out = Path(out)
    path = out / MANIFEST
    if not out.is_dir():
        raise RunError(f"{out} is not a folder; give the --out folder of a simulate run")
    if not path.exists():
        raise RunError(f"{out} is not a run folder: it has no {MANIFEST} (run 'reversis-sim simulate --out {out}')")
    try:
        manifest = json.loads(path.read_text())
    except (OSError, json.JSONDecodeError) as e:
        raise RunError(f"{path} is not readable JSON ({e}); the run folder is damaged") from None
    if manifest.get("format") != FORMAT:
        raise RunError(f"{path} is not a reversis_sim run manifest (format {manifest.get('format')!r})")
    if manifest.get("schema_version", 0) > SCHEMA_VERSION:
        raise RunError(f"{out} was written with schema version {manifest['schema_version']}, newer than this "
                       f"reversis_sim ({SCHEMA_VERSION}); upgrade reversis_sim to read it")
    return manifest


def part_files(out: str | Path, manifest: dict | None = None, *, allow_partial: bool = False) -> list[Path]:
    """The part files of a run, checked to be ours; :class:`RunError` on a foreign, truncated or missing part."""
    out = Path(out)
    manifest = manifest or read_manifest(out)
    done = manifest["completed_chunks"]
    if len(done) < manifest["n_chunks"] and not allow_partial:
        raise RunError(f"{out} is incomplete ({len(done)} of {manifest['n_chunks']} chunks); finish it with "
                       f"'reversis-sim simulate ... --out {out} --resume'")
    paths = []
    for chunk in done:
        path = part_path(out, chunk)
        try:
            schema = pq.read_schema(path)
            meta = pq.read_metadata(path)
        except FileNotFoundError:
            raise RunError(f"{path.name} is listed in the manifest but missing; rerun with --resume") from None
        except Exception:  # noqa: BLE001
            raise RunError(f"{path} is not a readable Parquet file (truncated or foreign); delete it and rerun "
                           f"with --resume") from None
        if (schema.metadata or {}).get(META_KEY) is None or meta.num_rows == 0:
            raise RunError(f"{path} is not a reversis_sim part file (foreign Parquet); remove it from the folder")
        paths.append(path)
    return paths
