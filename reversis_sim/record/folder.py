"""A run folder being written (crash-safe, and every writer locks): one writer at a time, holding the folder's lock;
parts written durably under temporary names, then the manifest; a new folder, a replaced one (``--force``, only a
run folder, its old figures removed), or a resumed one (a lost manifest rebuilt from the parts)."""

from __future__ import annotations

import platform
import shutil
import subprocess
import threading
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from .. import __version__
from ..columns import Chunk
from ..policies import changed_meaning
from .chunks import ChunkSet
from .files import LOCK, FolderLock, RunError, write_durably, write_json_atomic
from .read import (
    FORMAT,
    MANIFEST,
    PAYMENTS,
    completed_chunks,
    identity_of,
    part_files_present,
    part_path,
    payments_path,
    read_manifest,
    run_description_of_parts,
    verify_part,
)
from .schema import WRITE_OPTIONS, payment_table, seat_table
from .spec import RunSpec


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


def new_manifest(spec: RunSpec, completed: ChunkSet | None = None) -> dict:
    """A manifest for ``spec``: the run description, its size, the versions, the completed chunks."""
    return {"format": FORMAT, **spec.identity(), "n_chunks": spec.n_chunks, "package_version": __version__,
            "git_commit": git_commit(), "versions": versions(),
            "completed_chunks": (completed or ChunkSet()).to_json()}


def _difference(key: str, old, new) -> str:
    """One setting that differs between a run's manifest and a resume, in words (rule parameters one by one)."""
    if key == "rules_params" and isinstance(old, dict) and isinstance(new, dict):
        names = sorted(k for k in set(old) | set(new) if old.get(k) != new.get(k))
        return "; ".join(f"rule {k}: run has {old.get(k)!r}, asked {new.get(k)!r}" for k in names[:3])
    return f"{key}: run has {old!r}, asked {new!r}"


def _kind(out: Path) -> str:
    """What a non-empty folder is: ``run`` (a run manifest, or only parts of ours), ``compare`` or ``foreign``."""
    try:
        read_manifest(out)
        return "run"
    except RunError as e:
        if "comparison folder" in str(e):
            return "compare"
    try:
        run_description_of_parts(out)
        return "run"
    except RunError:
        return "foreign"


class RunFolder:
    """A run folder being written, holding its lock until :meth:`close` (or the end of a ``with`` block). Use
    :meth:`create` (new, or ``force`` to replace a run) or :meth:`resume`. Several threads may write chunks at
    once (:meth:`write_chunk`): each chunk has its own files, and the manifest is rewritten under a thread lock."""

    def __init__(self, out: Path, spec: RunSpec, manifest: dict, lock: FolderLock, repaired: bool = False):
        self.out, self.spec, self.manifest, self.lock = out, spec, manifest, lock
        self.done = completed_chunks(manifest)
        self.repaired = repaired  # the manifest was rebuilt from the parts
        self._recording = threading.Lock()  # one manifest update at a time

    def __enter__(self) -> RunFolder:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def close(self) -> None:
        self.lock.release()

    @classmethod
    def create(cls, out: str | Path, spec: RunSpec, *, force: bool = False) -> RunFolder:
        out = Path(out)
        if out.exists() and not out.is_dir():
            raise RunError(f"{out} is a file, not a folder; choose another --out")
        if out.is_dir() and any(p.name != LOCK for p in out.iterdir()):
            if not force:
                raise RunError(f"{out} already exists and is not empty; use --resume to continue the run there, "
                               f"--force to overwrite it, or choose another --out")
            kind = _kind(out)
            if kind != "run":
                what = "a comparison folder" if kind == "compare" else f"not a run folder (no {MANIFEST} of a run)"
                raise RunError(f"{out} is {what}; --force replaces only a run folder: choose another --out")
        out.mkdir(parents=True, exist_ok=True)
        lock = FolderLock(out).acquire()
        try:
            if force:
                for p in [*out.glob("part-*.parquet*"), *out.glob("payments-*.parquet*")]:
                    p.unlink()
                shutil.rmtree(out / "figures", ignore_errors=True)  # the old run's figures
            manifest = new_manifest(spec)
            write_json_atomic(out / MANIFEST, manifest)
        except BaseException:
            lock.release()
            raise
        return cls(out, spec, manifest, lock)

    @classmethod
    def resume(cls, out: str | Path, spec: RunSpec) -> RunFolder:
        out = Path(out)
        if not out.is_dir():
            raise RunError(f"nothing to resume: {out} does not exist; run without --resume to start it")
        lock = FolderLock(out).acquire()
        try:
            repaired = not (out / MANIFEST).exists() and bool(part_files_present(out))
            if repaired:
                manifest, old = new_manifest(spec), run_description_of_parts(out)[0]
                manifest["repaired_from_parts"] = True
            else:
                manifest = read_manifest(out)
                old = identity_of(manifest)
            stale = None if repaired else changed_meaning(old.get("seats", ()), manifest.get("package_version"))
            if stale:
                raise RunError(f"cannot resume {out}: {stale}")
            new = spec.identity()
            diff = [k for k in {**new, **old} if old.get(k) != new.get(k)]  # a constraint added or dropped too
            if diff:
                shown = "; ".join(_difference(k, old.get(k), new.get(k)) for k in diff[:3])
                raise RunError(f"cannot resume {out}: the settings differ from its "
                               f"{'parts' if repaired else 'manifest'} ({shown}); repeat the original settings, or "
                               f"use --force to start over")
            for tmp in out.glob("part-*.parquet.tmp"):
                tmp.unlink()  # a part that was being written when the run died
            manifest["format"] = FORMAT  # a folder begun by an older version is carried on in the current format
            folder = cls(out, spec, manifest, lock, repaired=repaired)
            folder.done = ChunkSet(c for c in part_files_present(out) if folder.chunk_is_valid(c))
            folder.manifest["completed_chunks"] = folder.done.to_json()
            write_json_atomic(out / MANIFEST, folder.manifest)
        except BaseException:
            lock.release()
            raise
        return folder

    def chunk_is_valid(self, chunk: int) -> bool:
        """A complete part of this run's chunk ``chunk`` is on disk (:func:`.read.verify_part`)."""
        if not 0 <= chunk < self.spec.n_chunks:
            return False
        try:
            verify_part(part_path(self.out, chunk), chunk, self.spec.identity())
        except RunError:
            return False
        return True

    def missing_chunks(self) -> Iterator[int]:
        """The chunks still to write, in order, generated one at a time."""
        return self.done.missing(self.spec.n_chunks)

    def n_missing(self) -> int:
        return self.spec.n_chunks - len(self.done)

    def write_chunk(self, chunk: int, data: Chunk) -> None:
        """Write one chunk durably (:func:`write_chunk_files`), then record it in the manifest."""
        write_chunk_files(self.out, self.spec, chunk, data)
        self.record(chunk)

    def record(self, chunk: int) -> None:
        """Record a chunk whose files are complete in the manifest (thread-safe)."""
        with self._recording:
            self.done.add(chunk)
            self.manifest["completed_chunks"] = self.done.to_json()
            write_json_atomic(self.out / MANIFEST, self.manifest)


def write_chunk_files(out: Path, spec: RunSpec, chunk: int, data: Chunk) -> None:
    """Write chunk ``chunk`` of the run ``spec`` into the folder ``out`` durably: its payments table, then its seat
    table, whose presence marks a complete chunk (the manifest is the caller's: :meth:`RunFolder.record`). Also what
    a cluster's worker calls when it writes into a shared folder."""
    table, payments = chunk_tables(spec, chunk, data)
    write_durably(payments_path(out, chunk), lambda tmp: pq.write_table(payments, tmp, **WRITE_OPTIONS))
    write_durably(part_path(out, chunk), lambda tmp: pq.write_table(table, tmp, **WRITE_OPTIONS))


def chunk_tables(spec: RunSpec, chunk: int, data: Chunk) -> tuple[pa.Table, pa.Table]:
    """(seat table, payments table) of chunk ``chunk``, each with its footer metadata, after checking that the
    engine returned exactly the chunk's matches (:class:`RunError` otherwise)."""
    rows = data.n_rows
    low, high = spec.row_bounds(chunk)
    first, n = spec.chunk_range(chunk)
    per_deal = data.match[::data.n_seats]
    steps = np.diff(per_deal)
    if (not low <= rows <= high or data.n_seats != len(spec.seats) or not len(per_deal)
            or per_deal[0] != first or per_deal[-1] != first + n - 1 or (steps > 1).any() or (steps < 0).any()):
        raise RunError(f"chunk {chunk} has {rows} rows for matches {first}..{first + n - 1}, expected "
                       f"{low if low == high else f'{low} to {high}'}: the engine returned an incomplete chunk")
    meta = {"run": spec.identity(), "chunk": chunk, "rows": rows, "matches": [first, first + n - 1]}
    if spec.deals is not None:
        meta["shuffles"] = int(data.shuffles)  # the shuffles its constrained deals drew (analysis.hands.conditioning)
    pay_meta = {**meta, "rows": len(data.payments["match"]), "table": PAYMENTS}
    return seat_table(data, spec.seats, meta), payment_table(data, spec.seats, pay_meta)


def repair_manifest(out: str | Path) -> dict:
    """Rebuild a run folder's manifest from its parts' own run descriptions (every part carries one), listing the
    complete parts; holds the folder's lock while it writes. :class:`RunError` without readable parts of one run."""
    out = Path(out)
    if not out.is_dir():
        raise RunError(f"{out} is not a folder")
    run_description_of_parts(out)  # a folder that holds no run is refused before it gets a lock file
    with FolderLock(out):
        identity, present = run_description_of_parts(out)
        spec = RunSpec.from_identity(identity)
        done = []
        for chunk, path in present.items():
            try:
                verify_part(path, chunk, identity)
                done.append(chunk)
            except RunError:
                continue
        manifest = new_manifest(spec, ChunkSet(done))
        manifest["repaired_from_parts"] = True
        write_json_atomic(out / MANIFEST, manifest)
    return manifest
