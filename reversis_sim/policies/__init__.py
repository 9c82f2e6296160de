"""Policies: the families (each declared in one file, :mod:`.random`, :mod:`.lowest`, :mod:`.avoid`, with its numba
decisions beside it in ``<name>_nb.py``, :mod:`.family`), registered by one line (:mod:`.heuristics`); the spec
parser (:mod:`.registry`); the numba dispatch on the family id (:mod:`.dispatch`) that both engines call; what a
seat may know (:mod:`.view`); the deal skeleton the engines, the search and the review play (:mod:`.deal_nb`).
The search's declaration is here with the others' (:mod:`.search`), its code in :mod:`reversis_sim.search`; the
reference engine's seat, which seats any family, is :mod:`reversis_sim.reference.seat_policy`.

A policy is written ``family`` or ``family:key=value,key=value``: a policy is data, a family and its parameter vector.
"""

from .. import lazy_exports

__getattr__, __dir__, __all__ = lazy_exports(__name__, {
    ".family": ("Family", "Param"),
    ".registry": ("FAMILIES", "NAMED", "PolicySpec", "PolicySpecError", "changed_meaning", "display_name",
                  "parse_seats", "parse_spec"),
    ".view": ("Policy", "SeatView"),
})
