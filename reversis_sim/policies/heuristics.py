"""The heuristic families, one line each: the families the numba dispatch calls on their id (:mod:`.dispatch`), and
the only policies a search may roll out with. A new heuristic family is registered here; the registry
(:mod:`.registry`) adds the search to them."""

from __future__ import annotations

from . import avoid, learned, lowest, random

HEURISTICS = (
    random.FAMILY,
    lowest.FAMILY,
    avoid.FAMILY,
    learned.FAMILY,
)
"""Every heuristic family (the order is the order the numba dispatch tries them in)."""
