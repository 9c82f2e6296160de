"""Kernels compiled once and called through their addresses: the units of compilation of the package.

numba compiles a jitted function that another calls *into* its caller: the callee's code is linked into the
caller's and optimised again there, and again in the caller's caller. The deal skeleton that the engine's match
loop, the search, the review's rollouts and the reviewing table all play would be optimised once per caller, and a
kernel that reaches them all (the reviewing table) would carry all of them: minutes of compiling, paid by every user
on every first run. A *unit* is instead compiled once, for one signature stated here, and its callers receive it as
an argument: a numba first-class function (``types.FunctionType``), called through its address, whose callers are
compiled against its type alone. A unit's code is optimised once however many kernels use it; a command compiles
the units it calls and no other (a table of heuristics never compiles the search); and an edit to one unit's code
recompiles that unit, not its callers (:mod:`.jit`, the fingerprint by use).

A call through an address costs what any numba call costs (its arrays passed word by word), so units are cut where
calls are rare: a deal, a search's decision, a reviewed decision, a match. Inside a unit, numba and LLVM inline as
they always do.

How to pass one: a unit's signature names the units it calls by their :meth:`Unit.type`, and its Python caller
passes the units themselves (:func:`call`), whose address numba takes as it enters the kernel.
"""

from __future__ import annotations

import functools
import os
import subprocess
import sys
import threading
import time
from collections.abc import Callable

import numpy as np
from numba import typeof, types
from numba.core.types import WrapperAddressProtocol
from numba.experimental import function_type  # noqa: F401 - numba's typing of a unit passed as an argument

from .compiled import MAX_SEATS
from .jit import WAITED, kernel_name
from .layout import Seats, alloc


class Unit(WrapperAddressProtocol):
    """A kernel compiled once, for the signature ``signature()`` returns (built on first use: building the types of
    the arrays costs nothing at import), and called through its address by other kernels (module docstring). It is
    passed to a kernel as itself: numba takes it as a first-class function (``WrapperAddressProtocol``), whose
    address is computed once, when it is first compiled or loaded from the cache."""

    def __init__(self, dispatcher, signature: Callable[[], types.Signature]):
        self.dispatcher = dispatcher
        self.module = dispatcher.py_func.__module__  # where a process of its own finds it (:func:`compile_beside`)
        self._make_signature = signature
        self._signature = None
        self._address = None

    def signature(self) -> types.Signature:
        """The numba signature it is compiled for."""
        if self._signature is None:
            self._signature = self._make_signature()
        return self._signature

    @property
    def type(self) -> types.FunctionType:
        """Its type as an argument of another kernel."""
        return types.FunctionType(self.signature())

    def __wrapper_address__(self) -> int:
        """The address other kernels call it by (its C-callable wrapper), compiling or loading it first (after the
        process compiling it beside this one, if any, is done: :func:`compile_beside`)."""
        if self._address is None:
            beside = _BESIDE.get(self)
            if beside is not None:  # every thread that needs it waits for that process
                started = time.monotonic()
                beside.wait()
                name = kernel_name(self.dispatcher)  # compiling, as the command's notice counts it
                WAITED[name] = WAITED.get(name, 0.0) + time.monotonic() - started
                _BESIDE.pop(self, None)
            self.dispatcher.compile(self.signature())
            cres = self.dispatcher.overloads[self.signature().args]
            self._address = cres.library.get_pointer_to_function(cres.fndesc.llvm_cfunc_wrapper_name)
        return self._address

    def __call__(self, *args):
        self.__wrapper_address__()
        return call(self.dispatcher, *args)


_BESIDE: dict = {}
"""The units being compiled by a process of their own (:func:`compile_beside`), by unit."""
_BESIDE_LOCK = threading.Lock()

_COMPILE_ONE = """
import importlib, sys
getattr(importlib.import_module(sys.argv[1]), sys.argv[2]).__wrapper_address__()
"""


def compile_beside(*units: Unit) -> None:
    """Start compiling each of ``units`` that numba's on-disk cache does not hold yet in a process of its own,
    while this process goes on compiling the kernels that call it: they are compiled against its type alone, so the
    two compiles are independent, and on two cores a command's first run waits for the longer of them instead of
    their sum. The unit is loaded from the cache when it is first called (:meth:`Unit.__wrapper_address__`, after
    that process ended; if it failed, the unit compiles here as it would have). Each cache file has one writer: the
    other process writes the unit, this one its callers. Nothing is started for a unit already loaded or cached, nor
    with the environment variable ``REVERSIS_COMPILE_BESIDE=0``. (What that process compiles is not in this
    process's compile notice or profile: they name what this one compiled.)"""
    if os.environ.get("REVERSIS_COMPILE_BESIDE", "1") == "0":  # everything compiled here (tests/test_cache.py)
        return
    with _BESIDE_LOCK:  # threads of one command playing side by side start one process per unit
        for unit in units:
            _start_beside(unit)


def _start_beside(unit: Unit) -> None:
    if unit._address is not None or unit in _BESIDE or not getattr(unit.dispatcher._cache, "cache_path", None):
        return
    try:  # the cache's index alone (its stamp checked): loading the code here would load it twice on a warm start
        if any(key[0] == unit.signature() for key in unit.dispatcher._cache._cache_file._load_index()):
            return
    except Exception:  # noqa: BLE001 - numba's cache lookup changed: compile here, as without this
        return
    name = next((k for k, v in vars(sys.modules[unit.module]).items() if v is unit), None)
    if name is not None:
        _BESIDE[unit] = subprocess.Popen([sys.executable, "-c", _COMPILE_ONE, unit.module, name],
                                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


# The types the units share, from arrays as the kernels receive them.
I64 = types.int64
P_TYPE = typeof(np.zeros(1, np.int64))
"""The rules' parameters (``int64 (N_PARAMS,)``), and any int64 vector."""
TABLES_TYPE = typeof(np.zeros((1, 1), np.int64))
"""The rules' per-card tables (``int64 (4, 64)``), and any int64 matrix."""
U64_VECTOR = typeof(np.zeros(1, np.uint64))
F64_VECTOR = typeof(np.zeros(1, np.float64))


@functools.cache
def seats_type() -> types.Type:
    """The type of :class:`~.layout.Seats`."""
    return typeof(Seats(np.zeros(MAX_SEATS, np.int64), np.zeros((MAX_SEATS, 1), np.float64)))


@functools.cache
def deal_type() -> types.Type:
    """The type of a :class:`~.layout.Deal`."""
    return typeof(alloc())


def _key(arg):
    """A cheap fingerprint of an argument's numba type: the same fingerprint, the same type."""
    if isinstance(arg, np.ndarray):
        f = arg.flags
        return arg.dtype.num, arg.ndim, f.c_contiguous, f.f_contiguous, f.writeable, f.aligned
    if isinstance(arg, tuple):
        return type(arg), tuple(_key(a) for a in arg)
    if isinstance(arg, Unit):
        return arg
    return type(arg)


_ENTRIES: dict = {}


def call(kernel, *args):
    """Call the jitted ``kernel`` with ``args``, each :class:`Unit` among them passed by its address: ``kernel`` is
    compiled (or loaded from numba's cache) for exactly the types of these arguments, and entered without numba's
    search among its compiled versions (its typing of every argument at every call cost more than a thousand
    matches' worth of play). The compiled entry is kept by a cheap fingerprint of the arguments' types."""
    key = (kernel, tuple(_key(a) for a in args))
    entry = _ENTRIES.get(key)
    if entry is None:
        sig = tuple(typeof(a) for a in args)
        kernel.compile(sig)
        entry = _ENTRIES[key] = kernel.overloads[sig].entry_point
    try:
        return entry(*args)
    except TypeError as e:
        if LOST_INTERRUPT in str(e):
            raise KeyboardInterrupt from None
        raise


LOST_INTERRUPT = "_get_wrapper_address() missing 1 required positional argument: 'sig'"
"""What numba raises for a Ctrl-C that lands while it unboxes a function passed as an argument: it unpickles the
function's signature in Python, the interrupt leaves it nothing, and the call it then makes lacks that argument.
:func:`call` raises it as the KeyboardInterrupt it was (the command stops with its sentence and exit status 130)."""
