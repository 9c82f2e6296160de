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
passes them as :meth:`Unit.ready` (the dispatcher, compiled or loaded from the cache for its signature; numba takes
its address as it enters the kernel).
"""

from __future__ import annotations

import functools
from collections.abc import Callable

import numpy as np
from numba import typeof, types

from .compiled import MAX_SEATS
from .layout import Seats, alloc


class Unit:
    """A kernel compiled once, for the signature ``signature()`` returns (built on first use: building the types of
    the arrays costs nothing at import), and called through its address by other kernels (module docstring)."""

    def __init__(self, dispatcher, signature: Callable[[], types.Signature]):
        self.dispatcher = dispatcher
        self._signature = signature
        self._ready = False

    @functools.cached_property
    def signature(self) -> types.Signature:
        """The numba signature it is compiled for."""
        return self._signature()

    @property
    def type(self) -> types.FunctionType:
        """Its type as an argument of another kernel."""
        return types.FunctionType(self.signature)

    @property
    def name(self) -> str:
        """``module.function``, as the compile notice and the benchmark name it."""
        f = self.dispatcher.py_func
        return f"{f.__module__.removeprefix('reversis_sim.')}.{f.__qualname__}"

    def ready(self):
        """The dispatcher, compiled for the signature (or loaded from numba's cache), to call or to pass."""
        if not self._ready:
            self.dispatcher.compile(self.signature)
            self._ready = True
        return self.dispatcher

    def __call__(self, *args):
        return self.ready()(*args)


def unit(signature: Callable[[], types.Signature]):
    """Decorate a jitted function as a :class:`Unit` with the signature ``signature()``."""
    return lambda dispatcher: Unit(dispatcher, signature)


# The types the units share, from arrays as the kernels receive them.
I64 = types.int64
P_TYPE = typeof(np.zeros(1, np.int64))
"""The rules' parameters (``int64 (N_PARAMS,)``), and any int64 vector."""
TABLES_TYPE = typeof(np.zeros((1, 1), np.int64))
"""The rules' per-card tables (``int64 (3, 64)``), and any int64 matrix."""
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


def _has_units(arg) -> bool:
    return isinstance(arg, Unit) or (isinstance(arg, tuple) and hasattr(arg, "_fields")
                                     and any(_has_units(a) for a in arg))


def _type(arg) -> types.Type:
    """numba's type of a kernel's argument: a unit by its function type, a named tuple of units field by field."""
    if isinstance(arg, Unit):
        return arg.type
    if _has_units(arg):
        return types.BaseTuple.from_types([_type(a) for a in arg], type(arg))
    return typeof(arg)


def _value(arg):
    """A kernel's argument as it is passed: a unit ready (compiled or loaded), a named tuple of units likewise."""
    if isinstance(arg, Unit):
        return arg.ready()
    if _has_units(arg):
        return type(arg)(*(_value(a) for a in arg))
    return arg


def call(kernel, *args):
    """Call the jitted ``kernel`` with ``args``, each :class:`Unit` among them (or in a named tuple among them)
    passed by its address: ``kernel`` is compiled (or loaded from numba's cache) for exactly the types of these
    arguments, the units by their :meth:`Unit.type`, and entered without numba's search among its compiled versions
    (which would compile yet another version that links the units' code in)."""
    sig = tuple(_type(a) for a in args)
    cres = kernel.overloads.get(sig)
    if cres is None:
        kernel.compile(sig)
        cres = kernel.overloads[sig]
    return cres.entry_point(*(_value(a) for a in args))
