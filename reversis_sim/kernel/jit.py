"""The jit options of every kernel (engine and policies), in one place, and the on-disk cache that goes with them.

Every jitted function of the package (the kernel, the policies, the numba engine) is compiled with one of the
decorators below, each called by its own name in every file: :data:`njit` (a function that allocates),
:data:`njit_nrt_free` and its inlined variant :data:`njit_nrt_free_inline` (the deal kernel, the decisions and
their helpers, which only borrow their callers' arrays), :data:`njit_parallel` (the ``prange`` kernels), all
sharing :data:`JIT_OPTIONS`:

- ``cache=True``: compiled code is stored on disk (``__pycache__`` beside the source, or ``NUMBA_CACHE_DIR``), so a
  second process starts in about a second instead of recompiling;
- ``nogil=True``: kernels release the GIL (threads of a caller, e.g. a dask worker, run side by side);
- ``fastmath=False``, ``error_model='numpy'``, ``boundscheck=False``: exact integer arithmetic, no Python-style
  exception checks on division, no bounds checks in the hot loops.

Cache freshness. numba checks a cached kernel only against the file that *defines* it, not against the files of
the jitted functions it calls: editing ``kernel/keys_nb.py`` would leave a stale ``numba_engine/deal.py`` kernel in
the
cache. We therefore add a fingerprint of the kernels' own sources (every file with jitted code, and ``cards.py``,
``keys.py`` and ``game/vocabulary.py``, whose constants the kernels freeze in) to the source stamp numba compares
(a small locator subclass registered for the engine's files only); any edit to those files recompiles the engine,
and an edit anywhere else (the reference engine, the record builder, a wrapper) does not.
"""

from __future__ import annotations

import functools
import hashlib
import time
from pathlib import Path

import numba
from numba.core import event

JIT_OPTIONS = dict(cache=True, nogil=True, fastmath=False, error_model="numpy", boundscheck=False)
"""The options of every kernel (DESIGN.md: the jit options live in one place)."""

njit = functools.partial(numba.njit, **JIT_OPTIONS)
"""``numba.njit`` with :data:`JIT_OPTIONS`."""

def _has_option(name: str) -> bool:
    try:
        from numba.core.cpu import CPUTargetOptions
    except ImportError:  # pragma: no cover
        return False
    return hasattr(CPUTargetOptions, name)


_NRT_FREE = dict(_nrt=False) if _has_option("_nrt") else {}  # a numba without the option: plain njit, slower

njit_nrt_free = functools.partial(numba.njit, **_NRT_FREE, **JIT_OPTIONS)
"""``numba.njit`` with :data:`JIT_OPTIONS`, compiled without numba's reference counting (``_nrt=False``, a
long-standing but private numba option; without it they are plain :data:`njit`). For the deal kernel and its
helpers: they never allocate and only borrow the arrays their caller owns, so the atomic increments and decrements
numba would otherwise put around the uses of array arguments (about a tenth of the run time) are pure waste."""

njit_nrt_free_inline = functools.partial(numba.njit, inline="always", **_NRT_FREE, **JIT_OPTIONS)
""":data:`njit_nrt_free`, inlined into its caller by numba: for the steps of a deal, each called from one place.
Passing a dozen arrays to a separate function costs a hundred stores and loads per call (numba passes every shape,
stride and pointer of every array); inlining a function with a single call site costs no compile time to speak of
(unlike inlining a helper called from many places, whose body numba would type again at every site)."""

njit_parallel = functools.partial(numba.njit, parallel=True, **JIT_OPTIONS)
"""``numba.njit`` with :data:`JIT_OPTIONS` and ``parallel=True`` (``prange`` kernels)."""

_PACKAGE_DIR = Path(__file__).resolve().parents[1]
_ENGINE_DIR = _PACKAGE_DIR / "numba_engine"
# Jitted code lives in kernel/ (this file, the bit helpers and the keys' numba twin with it), numba_engine/ and
# policies/ (the families, their helpers, the dispatch built from the registry). Modules there without jitted code
# need not recompile the kernels when edited. Also watched: the package files whose constants the kernels freeze in
# (card codes, key constants and decision indices, the payment reason and Quinola fate numbers, the run table's rows).
_PURE_PYTHON = {"kernel/__init__.py", "numba_engine/__init__.py", "numba_engine/batch.py", "numba_engine/seats.py",
                "numba_engine/stress.py", "numba_engine/trace.py", "numba_engine/reviewing.py", "policies/__init__.py",
                "policies/family.py", "policies/seat_policy.py", "policies/view.py"}
_JITTED_DIRS = (_PACKAGE_DIR / "kernel", _ENGINE_DIR, _PACKAGE_DIR / "policies")
WATCHED_FILES = tuple(
    p for d in _JITTED_DIRS for p in sorted(d.rglob("*.py"))
    if p.relative_to(_PACKAGE_DIR).as_posix() not in _PURE_PYTHON) + tuple(
    _PACKAGE_DIR / name for name in ("cards.py", "keys.py", "columns.py", "constraints.py", "game/vocabulary.py"))


@functools.cache
def engine_fingerprint() -> str:
    """SHA-256 over the names and contents of the engine's source files (computed once per process)."""
    h = hashlib.sha256()
    for path in WATCHED_FILES:
        h.update(str(path.relative_to(_PACKAGE_DIR)).encode())
        h.update(path.read_bytes() if path.exists() else b"")
    return h.hexdigest()


def _is_engine_file(py_file: str) -> bool:
    """A file whose jitted functions are cached with the fingerprint."""
    try:
        path = Path(py_file).resolve()
    except OSError:
        return False
    return any(path.is_relative_to(d) for d in _JITTED_DIRS)


def _install_locators() -> None:
    """Register locators that add :func:`engine_fingerprint` to the source stamp of engine files only.

    Uses numba's (private, long-stable) locator list; if it is not there, numba's default freshness check is used.
    """
    from numba.core import caching

    impl = getattr(caching, "CacheImpl", None) or getattr(caching, "_CacheImpl", None)
    classes = getattr(impl, "_locator_classes", None)
    if not isinstance(classes, list) or any(getattr(c, "_reversis_engine", False) for c in classes):
        return

    def wrap(base):
        class EngineLocator(base):
            _reversis_engine = True

            def get_source_stamp(self):
                return (super().get_source_stamp(), engine_fingerprint())

            @classmethod
            def from_function(cls, py_func, py_file):
                if not _is_engine_file(py_file):
                    return None
                return super().from_function(py_func, py_file)

        EngineLocator.__name__ = EngineLocator.__qualname__ = "Engine" + base.__name__
        return EngineLocator

    bases = [getattr(caching, n, None) for n in ("UserProvidedCacheLocator", "InTreeCacheLocator",
                                                  "UserWideCacheLocator")]
    classes[:0] = [wrap(b) for b in bases if b is not None]


_install_locators()



class CompileWatch(event.Listener):
    """Counts the functions numba compiles while installed (``with CompileWatch() as watch``; a cache miss each:
    a kernel loaded from the on-disk cache is not counted): ``count``, ``started`` (the monotonic time of the
    first, or None) and ``active`` (compiling right now). Built on numba's event API (``numba.core.event``)."""

    def __init__(self):
        self.count, self.depth, self.started = 0, 0, None

    def on_start(self, ev) -> None:
        self.depth += 1
        if self.started is None:
            self.started = time.monotonic()

    def on_end(self, ev) -> None:
        self.depth -= 1
        self.count += 1

    @property
    def active(self) -> bool:
        return self.depth > 0

    def __enter__(self) -> CompileWatch:
        event.register("numba:compile", self)
        return self

    def __exit__(self, *exc) -> None:
        event.unregister("numba:compile", self)
