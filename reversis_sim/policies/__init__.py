"""Policies: the families (each declared in one file, :mod:`.random`, :mod:`.lowest`, :mod:`.avoid`, with its numba
decisions beside it in ``<name>_nb.py``, :mod:`.family`), registered by one line (:mod:`.heuristics`); the spec
parser (:mod:`.registry`); the numba dispatch on the family id (:mod:`.dispatch`) that both engines call; what a
seat may know (:mod:`.view`).

A policy is written ``family`` or ``family:key=value,key=value``: a policy is data, a family and its parameter vector.
"""

from .. import lazy_exports

__getattr__, __dir__, __all__ = lazy_exports(__name__, {
    ".family": ("Family", "Param"),
    ".registry": ("FAMILIES", "NAMED", "PolicySpec", "PolicySpecError", "changed_meaning", "parse_seats",
                  "parse_spec"),
    ".seat_policy": ("SeatPolicy", "Watching", "make_policy"),
    ".view": ("Policy", "SeatView"),
})
