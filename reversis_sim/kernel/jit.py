"""The jit options of every kernel (engine and policies), in one place, and the on-disk cache that goes with them.

Every jitted function of the package (the kernel, the policies, the numba engine) is compiled with one of the
decorators below, each called by its own name in every file: :data:`njit` (a function that allocates),
:data:`njit_nrt_free` and its inlined variant :data:`njit_nrt_free_inline` (the deal kernel, the decisions and
their helpers, which only borrow their callers' arrays), all sharing :data:`JIT_OPTIONS`:

- ``cache=True``: compiled code is stored on disk (``__pycache__`` beside the source, or ``NUMBA_CACHE_DIR``), so a
  second process starts in about a second instead of recompiling;
- ``nogil=True``: kernels release the GIL: the engines run blocks of matches on several threads of their own
  (:func:`reversis_sim.numba_engine.batch.run_pieces`), and a dask worker's threads run side by side;
- ``fastmath=False``, ``error_model='numpy'``, ``boundscheck=False``: exact integer arithmetic, no Python-style
  exception checks on division, no bounds checks in the hot loops.

Cache freshness: a cached kernel is compiled again exactly when code it reaches changes (:mod:`.cache`).
"""

from __future__ import annotations

import time

import numba
from numba.core import event, types

from . import cache

JIT_OPTIONS = dict(cache=True, nogil=True, fastmath=False, error_model="numpy", boundscheck=False)
"""The options of every kernel, stated once."""

cache.install(repr(sorted(JIT_OPTIONS.items())))

def _has_option(name: str) -> bool:
    try:
        from numba.core.cpu import CPUTargetOptions
    except ImportError:  # pragma: no cover
        return False
    return hasattr(CPUTargetOptions, name)


_NRT_FREE = dict(_nrt=False) if _has_option("_nrt") else {}  # a numba without the option: plain njit, slower


def _no_literal_versions(dispatcher):
    """Make ``dispatcher`` compile one version per argument *types*, never one per constant.

    numba types a constant argument of a call between jitted functions as its value (``Literal[int](12)``) and
    compiles the callee once per value: ``pay(row, ledger, trick, payer, POOL, amount, R_ANTE)`` was compiled 32
    times, once per reason and party constant (measured with numba's event API). The kernels never need a
    constant's value at compile time, so the arguments' types are taken without their values."""
    template = dispatcher.get_call_template

    def get_call_template(args, kws):
        return template(tuple(types.unliteral(a) for a in args), {k: types.unliteral(v) for k, v in kws.items()})

    dispatcher.get_call_template = get_call_template
    return dispatcher


def _decorator(**options):
    def decorate(fn):
        return _no_literal_versions(numba.njit(**options, **JIT_OPTIONS)(fn))
    return decorate


njit = _decorator(forceinline=False)
"""``numba.njit`` with :data:`JIT_OPTIONS` (a function that allocates)."""

njit_nrt_free = _decorator(forceinline=False, **_NRT_FREE)
"""``numba.njit`` with :data:`JIT_OPTIONS`, compiled without numba's reference counting (``_nrt=False``, a
long-standing but private numba option; without it they are plain :data:`njit`). For the deal kernel and its
helpers: they never allocate and only borrow the arrays their caller owns, so the atomic increments and decrements
numba would otherwise put around the uses of array arguments (about a tenth of the run time) are pure waste."""

njit_nrt_free_inline = _decorator(forceinline=True, **_NRT_FREE)
""":data:`njit_nrt_free`, inlined into its caller by LLVM (numba's ``forceinline``, LLVM's ``alwaysinline``): for
the steps of a deal and the decisions in the trick loop. Passing a dozen arrays to a separate function costs a
hundred stores and loads per call (numba passes every shape, stride and pointer of every array). The function is
compiled once and its optimised code inlined where it is called; numba's own inlining (``inline="always"``) typed
the whole body again at every call site, nested inlines again inside each, which took a third of the engine's
compile time (measured: 80 s of 216 s for ``simulate``)."""


def kernel_name(dispatcher) -> str:
    """``module.function`` of a jitted function, named within the package (``policies.deal_nb.play_from``)."""
    f = dispatcher.py_func
    return f"{f.__module__.removeprefix('reversis_sim.')}.{f.__qualname__.replace('.<locals>', '')}"


WAITED: dict[str, float] = {}
"""Seconds this process has waited for each kernel compiled by a process beside it (:func:`.units.compile_beside`),
by :func:`kernel_name`: time a command spends on compiling that numba's events, this process's, do not see."""


class CompileWatch(event.Listener):
    """What numba compiles while installed (``with CompileWatch() as watch``; a cache miss each: a kernel loaded
    from the on-disk cache is not counted), from numba's event API (``numba.core.event``): ``count``, ``started``
    (the monotonic time of the first, or None), ``active`` (compiling right now), ``current`` (the outermost kernel
    compiling now, or None) and ``seconds`` (each kernel's compile time, exclusive of the kernels compiled within
    it, by :func:`kernel_name`)."""

    def __init__(self):
        self.count, self.started, self.current = 0, None, None
        self.seconds: dict[str, float] = {}
        self._compiled = 0.0  # seconds spent compiling here (the outermost compiles added up)
        self._waited = dict(WAITED)  # the waiting for a process compiling beside this one, counted from here
        self.closures: set[str] = set()  # compiled functions numba cannot cache: they compile again in every run
        self._stack: list[list] = []  # [name, start, seconds spent in nested compiles]

    def on_start(self, ev) -> None:
        now = time.monotonic()
        if self.started is None:
            self.started = now
        name = kernel_name(ev.data["dispatcher"])
        if getattr(ev.data["dispatcher"].py_func, "__closure__", None):
            self.closures.add(name)
        if not self._stack:
            self.current = name
        self._stack.append([name, now, 0.0])

    def on_end(self, ev) -> None:
        name, start, nested = self._stack.pop()
        took = time.monotonic() - start
        self.seconds[name] = self.seconds.get(name, 0.0) + took - nested
        if self._stack:
            self._stack[-1][2] += took
        else:
            self.current = None
            self._compiled += took
        self.count += 1

    @property
    def compiling(self) -> float:
        """Seconds spent on compiling since the watch began: the compiles here (not the work between them) and the
        waiting for a kernel another process compiled beside this one."""
        return self._compiled + sum(self.waited.values())

    @property
    def waited(self) -> dict[str, float]:
        """Seconds waited since the watch began for each kernel a process beside this one compiled."""
        return {k: t - self._waited.get(k, 0.0) for k, t in WAITED.items() if t > self._waited.get(k, 0.0)}

    @property
    def active(self) -> bool:
        return bool(self._stack)

    def __enter__(self) -> CompileWatch:
        event.register("numba:compile", self)
        return self

    def __exit__(self, *exc) -> None:
        event.unregister("numba:compile", self)
