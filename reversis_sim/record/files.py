"""Files that survive a crash, and one writer per run folder.

- :func:`write_durably`: write under a temporary name, ``fsync`` the file, rename it into place, ``fsync`` the
  folder; a power cut leaves the old file or the new one, never an empty file under the final name.
- :func:`append_line`: one line appended to an append-only file (a games file, a tuning's journal) whole and synced,
  after a torn last line left by a crash is repaired or set aside: a record never joins a fragment, and no earlier
  record is lost.
- :class:`FolderLock`: an exclusive OS lock (``flock``) on ``.lock`` in the run folder, held by the one process
  writing it and released by the kernel when that process ends, however it ends (a ``kill -9`` never leaves a stale
  lock). A second writer is refused in one sentence naming the first one's process id.
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Callable
from pathlib import Path

try:
    import fcntl
except ImportError:  # pragma: no cover - not POSIX: no OS lock, one writer is then the user's business
    fcntl = None

LOCK = ".lock"


class RunError(Exception):
    """A run folder that cannot be used as asked; the message says what is wrong and what to do."""


def _fsync_dir(folder: Path) -> None:
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:  # pragma: no cover - a platform without directory fds
        return
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def write_durably(path: Path, write: Callable[[Path], None]) -> None:
    """``write(tmp)`` writes the content under ``<path>.tmp``; then fsync, rename to ``path``, fsync the folder."""
    tmp = path.with_name(path.name + ".tmp")
    write(tmp)
    fd = os.open(tmp, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
    os.replace(tmp, path)
    _fsync_dir(path.parent)


def json_ready(x):
    """``x`` (nested dicts, lists, numbers) with every non-finite float as None: JSON has no NaN or Infinity (an
    interval refused for too few matches, a rate without trials)."""
    if isinstance(x, float) and not math.isfinite(x):
        return None
    if isinstance(x, dict):
        return {k: json_ready(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [json_ready(v) for v in x]
    return x


def strict_json(x, **kwargs) -> str:
    """``x`` as strict JSON (RFC 8259): non-finite numbers as null (:func:`json_ready`), never a bare ``NaN``;
    ``kwargs`` as :func:`json.dumps` takes them."""
    return json.dumps(json_ready(x), allow_nan=False, **kwargs)


def write_json_atomic(path: Path, data: dict) -> None:
    """A JSON file written durably (:func:`write_durably`), strict (:func:`strict_json`)."""
    text = strict_json(data, indent=2) + "\n"
    write_durably(path, lambda tmp: tmp.write_text(text))


TORN = ".torn"
"""The suffix of the file beside an append-only file where :func:`append_line` sets a torn last line aside."""


def _last_line_start(fd: int, size: int) -> int:
    """The offset where the file's last line begins (just after its last newline; 0 if it has none)."""
    end = size
    while end > 0:
        start = max(0, end - 4096)
        block = os.pread(fd, end - start, start)
        cut = block.rfind(b"\n")
        if cut >= 0:
            return start + cut + 1
        end = start
    return 0


def _write_all(fd: int, data: bytes) -> None:
    while data:
        data = data[os.write(fd, data):]


def append_line(path: Path, line: str) -> str | None:
    """Append ``line`` (one JSON value, without its newline) to the append-only file ``path`` (created if need be),
    whole with its newline, synced to disk before returning.

    A file whose last line has no newline was cut short by a crash while a line was written (a writer killed
    mid-record). That fragment is dealt with first, so that the new line never joins it: a fragment that is a whole
    JSON value (only its newline was lost) gets its newline back (``"repaired"``); any other is moved to
    ``<path>.torn`` and cut off (``"set aside"``). Returns what was done, or None when the file was whole. Every
    line before the fragment is left as it was."""
    path = Path(path)
    fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_APPEND, 0o644)
    try:
        size = os.fstat(fd).st_size
        done = None
        if size and os.pread(fd, 1, size - 1) != b"\n":
            start = _last_line_start(fd, size)
            fragment = os.pread(fd, size - start, start)
            try:
                json.loads(fragment)
                done = "repaired"
            except ValueError:
                done = "set aside"
            if done == "set aside":
                with open(path.with_name(path.name + TORN), "ab") as aside:
                    aside.write(fragment + b"\n")
                    aside.flush()
                    os.fsync(aside.fileno())
                os.ftruncate(fd, start)
            else:
                _write_all(fd, b"\n")
        _write_all(fd, line.encode("utf-8") + b"\n")
        os.fsync(fd)
    finally:
        os.close(fd)
    return done


class FolderLock:
    """The exclusive writer's lock of a run folder (see the module docstring); a context manager."""

    def __init__(self, folder: Path):
        self.folder, self.fd = Path(folder), None

    def acquire(self) -> FolderLock:
        if fcntl is None:  # pragma: no cover
            return self
        path = self.folder / LOCK
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.read(fd, 32).decode(errors="replace").strip() or "?"
            os.close(fd)
            raise RunError(f"{self.folder} is being written by process {holder}; wait for it to finish (or stop "
                           f"it) and try again, or choose another --out") from None
        os.ftruncate(fd, 0)
        os.write(fd, f"{os.getpid()}\n".encode())
        self.fd = fd
        return self

    def release(self) -> None:
        if self.fd is not None:
            os.close(self.fd)  # closing the descriptor releases the flock
            self.fd = None

    def __enter__(self) -> FolderLock:
        return self.acquire()

    def __exit__(self, *exc) -> None:
        self.release()
