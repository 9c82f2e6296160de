"""Files that survive a crash, and one writer per run folder.

- :func:`write_durably`: write under a temporary name, ``fsync`` the file, rename it into place, ``fsync`` the
  folder; a power cut leaves the old file or the new one, never an empty file under the final name.
- :class:`FolderLock`: an exclusive OS lock (``flock``) on ``.lock`` in the run folder, held by the one process
  writing it and released by the kernel when that process ends, however it ends (a ``kill -9`` never leaves a stale
  lock). A second writer is refused in one sentence naming the first one's process id.
"""

from __future__ import annotations

import json
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


def write_json_atomic(path: Path, data: dict) -> None:
    """A JSON file written durably (:func:`write_durably`)."""
    text = json.dumps(data, indent=2) + "\n"
    write_durably(path, lambda tmp: tmp.write_text(text))


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
