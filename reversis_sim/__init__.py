"""reversis_sim: Monte-Carlo strategy analysis for Reversis, the trick-avoidance ancestor of Hearts."""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping, Sequence

__version__ = "0.3.0"


def lazy_exports(package: str, exports: Mapping[str, Sequence[str]],
                 submodules: Sequence[str] = ()) -> tuple[Callable, Callable, list[str]]:
    """``__getattr__``, ``__dir__`` and ``__all__`` for a package whose public names live in its modules
    (``{".module": ("name", ...)}``; ``submodules``: modules that are public names themselves), each imported when
    first used (PEP 562): importing one light module of the package (a list of choices for the command line) then
    costs no numba, polars or pyarrow."""
    where = {name: module for module, names in exports.items() for name in names}

    def __getattr__(name: str):
        if name in submodules:
            return importlib.import_module(f".{name}", package)
        if name not in where:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        return getattr(importlib.import_module(where[name], package), name)

    def __dir__() -> list[str]:
        return sorted([*where, *submodules])

    return __getattr__, __dir__, sorted([*where, *submodules])
