"""Policies: the families (one file each: :mod:`.random`, :mod:`.lowest`, :mod:`.avoid`), declared once
(:mod:`.family`) and registered by one line (:mod:`.registry`); the spec parser; the numba dispatch on the family id
(:mod:`.dispatch`) that both engines call; what a seat may know (:mod:`.view`).

A policy is written ``family`` or ``family:key=value,key=value`` (DESIGN.md decision 5).
"""

from __future__ import annotations

from .family import Family, Param
from .registry import FAMILIES, NAMED, PolicySpec, PolicySpecError, parse_seats, parse_spec
from .seat_policy import SeatPolicy, make_policy
from .view import Policy, SeatView

__all__ = ["FAMILIES", "NAMED", "Family", "Param", "Policy", "PolicySpec", "PolicySpecError", "SeatPolicy",
           "SeatView", "make_policy", "parse_seats", "parse_spec"]
