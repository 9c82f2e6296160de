"""numba's on-disk cache of the kernels, kept fresh by what each kernel reaches.

numba checks a cached function against the file that *defines* it (its modification time), not against the
functions it calls: editing ``kernel/keys_nb.py`` would leave a stale kernel of ``numba_engine/match.py`` in the
cache, and a kernel whose own file was touched anywhere (a docstring) is compiled again. Each cached function of the
package is instead stamped with :func:`fingerprint`: a hash of the code it *reaches*, the functions it calls
(transitively: through the names and modules its code reads and the variables its closure holds), each by its
bytecode, its constants and the values of the constants it reads (card codes, slot numbers, rule indices), and the
options it is compiled with. A kernel is compiled again exactly when code it reaches changes: an edit to a policy's
play recompiles the deal skeleton that calls it and the search's decision, not the engine's match loop, the review
or the search's sampler (they call the skeleton through its address, :mod:`.units`, and reach none of the policy's
code). ``tests/test_cache.py`` edits a copy of the package and shows which kernels compile again.

How: a small subclass of numba's cache locators (its private, long-stable ``_locator_classes`` list; if that is
gone, numba's own freshness check is used), registered for the package's files only; the stamp is computed when
numba first reads or writes the function's cache (by then every function it reaches exists).
"""

from __future__ import annotations

import functools
import hashlib
import pickle
import types
from pathlib import Path

import numpy as np

_PACKAGE_DIR = Path(__file__).resolve().parents[1]


def _is_dispatcher(x) -> bool:
    return hasattr(x, "py_func") and hasattr(x, "targetoptions")


def _code_objects(code: types.CodeType):
    yield code
    for c in code.co_consts:
        if isinstance(c, types.CodeType):
            yield from _code_objects(c)


def _constant(x) -> bytes | None:
    """The bytes of a value compiled into a kernel as a constant, or None for what is not one."""
    if isinstance(x, bool | int | float | str | bytes | np.integer | np.floating | np.bool_):
        return repr((type(x).__name__, x)).encode()
    if isinstance(x, np.ndarray):
        return x.tobytes() + str(x.dtype).encode()
    if isinstance(x, tuple) and not hasattr(x, "_fields") and all(_constant(v) is not None for v in x):
        return b"(" + b",".join(_constant(v) for v in x) + b")"
    if isinstance(x, type) and hasattr(x, "_fields"):  # a named tuple class: its fields are its layout
        return repr(("namedtuple", x.__name__, x._fields)).encode()
    return None


def reached(py_func) -> list:
    """The jitted functions ``py_func``'s kernel reaches: itself and every jitted function it calls, transitively
    (a unit passed as an argument is not reached: it is called through its address), as (Python function, its jit
    options or None where they cannot be found)."""
    own = py_func.__globals__.get(py_func.__name__)
    seen, order, stack = set(), [], [(py_func, own.targetoptions if _is_dispatcher(own) else None)]
    while stack:
        f, options = stack.pop()
        if id(f) in seen:
            continue
        seen.add(id(f))
        order.append((f, options))
        names = {n for c in _code_objects(f.__code__) for n in c.co_names}
        values = [f.__globals__.get(n) for n in names]
        values += [c.cell_contents for c in (f.__closure__ or ()) if _cell_full(c)]
        for v in values:
            if _is_dispatcher(v):
                stack.append((v.py_func, v.targetoptions))
            elif isinstance(v, types.ModuleType) and v.__name__.startswith("reversis_sim."):
                stack += [(d.py_func, d.targetoptions) for d in (getattr(v, n, None) for n in names)
                          if _is_dispatcher(d)]
    return order


def _cell_full(cell) -> bool:
    """Whether a closure's cell holds a value (an empty one raises when read)."""
    try:
        return cell.cell_contents is not None or True
    except ValueError:
        return False


def _digest(f, h) -> None:
    """Feed ``h`` what of function ``f`` its compiled code depends on."""
    h.update(f"{f.__module__}.{f.__qualname__}".encode())
    names = set()
    for c in _code_objects(f.__code__):
        h.update(c.co_code)
        consts = c.co_consts[1:] if c is f.__code__ and f.__doc__ is not None else c.co_consts
        h.update(repr([x for x in consts if not isinstance(x, types.CodeType)]).encode())
        h.update(repr((c.co_names, c.co_varnames, c.co_argcount)).encode())
        names.update(c.co_names)
    for n in sorted(names):
        v = f.__globals__.get(n)
        if isinstance(v, types.ModuleType) and v.__name__.startswith("reversis_sim."):
            for m in sorted(names):
                b = _constant(getattr(v, m, None))
                if b is not None:
                    h.update(f"{n}.{m}=".encode() + b)
        else:
            b = _constant(v)
            if b is not None:
                h.update(f"{n}=".encode() + b)
    for c in f.__closure__ or ():
        b = _constant(c.cell_contents) if _cell_full(c) else None
        if b is not None:
            h.update(b"cell=" + b)


def fingerprint(py_func) -> str:
    """SHA-256 of the code ``py_func``'s kernel reaches and of the options each part is compiled with
    (:func:`reached`)."""
    h = hashlib.sha256()
    for f, options in sorted(reached(py_func), key=lambda x: (x[0].__module__, x[0].__qualname__,
                                                              x[0].__code__.co_firstlineno)):
        _digest(f, h)
        h.update(repr(sorted((options or {}).items())).encode())
    return h.hexdigest()


class _Stamp:
    """The source stamp of one cached function: its :func:`fingerprint` and options, computed on first use (numba
    takes the stamp when the function is decorated, before the functions it calls later in its module exist).
    Pickled into the cache's index as the plain tuple it stands for."""

    def __init__(self, py_func, options: str):
        self.py_func, self.options = py_func, options

    @functools.cached_property
    def value(self) -> tuple:
        return ("reversis_sim", fingerprint(self.py_func), self.options)

    def __eq__(self, other):
        return self.value == (other.value if isinstance(other, _Stamp) else other)

    def __ne__(self, other):
        return not self == other

    def __hash__(self):
        return hash(self.value)

    def __reduce__(self):
        return tuple, (self.value,)


def _in_package(py_file: str) -> bool:
    try:
        return Path(py_file).resolve().is_relative_to(_PACKAGE_DIR)
    except OSError:
        return False


def install(options: str) -> None:
    """Register the locators that stamp the package's cached functions (:class:`_Stamp`, with the jit
    ``options``), before any of them is decorated."""
    from numba.core import caching

    impl = getattr(caching, "CacheImpl", None) or getattr(caching, "_CacheImpl", None)
    classes = getattr(impl, "_locator_classes", None)
    if not isinstance(classes, list) or any(getattr(c, "_reversis", False) for c in classes):
        return

    def wrap(base):
        class Locator(base):
            _reversis = True

            def get_source_stamp(self):
                return _Stamp(self._py_func, options)

            @classmethod
            def from_function(cls, py_func, py_file):
                if not _in_package(py_file):
                    return None
                locator = super().from_function(py_func, py_file)
                if locator is not None:
                    locator._py_func = py_func
                return locator

        Locator.__name__ = Locator.__qualname__ = "Reversis" + base.__name__
        return Locator

    bases = [getattr(caching, n, None) for n in ("UserProvidedCacheLocator", "InTreeCacheLocator",
                                                  "UserWideCacheLocator")]
    classes[:0] = [wrap(b) for b in bases if b is not None]
    _tolerate_moved_types(caching)


def _tolerate_moved_types(caching) -> None:
    """Read a package function's cache index that names a type the package no longer has as no index at all.

    numba pickles each compiled version's argument types into the function's index; a record type (a named tuple)
    is pickled by its module's name. When a release moves a module (the search's scratch went from ``policies/`` to
    ``search/``), an index written before names a module that is gone, and numba's unpickling raises instead of
    finding the cache stale: the first run after the upgrade would fail. For the package's functions (stamped by
    :class:`_Stamp`) such an index is stale like any other: the function is compiled again and its index
    rewritten. Anyone else's index fails as numba makes it fail."""
    files = getattr(caching, "IndexDataCacheFile", None)
    load = getattr(files, "_load_index", None)
    if load is None or getattr(load, "_reversis", False):
        return

    def _load_index(self):
        try:
            return load(self)
        except (ImportError, AttributeError, pickle.UnpicklingError):
            if isinstance(getattr(self, "_source_stamp", None), _Stamp):
                return {}
            raise

    _load_index._reversis = True
    files._load_index = _load_index
