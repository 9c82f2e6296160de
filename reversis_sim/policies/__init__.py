"""Policies: parameterised families, the registry (name <-> id) and the spec parser.

A policy is written ``family`` or ``family:key=value,key=value`` (DESIGN.md decision 5).
"""

from __future__ import annotations

from .registry import FAMILIES, NAMED, PolicySpec, PolicySpecError, make_policy, parse_seats, parse_spec
from .view import Policy, SeatView

__all__ = ["FAMILIES", "NAMED", "Policy", "PolicySpec", "PolicySpecError", "SeatView", "make_policy", "parse_seats",
           "parse_spec"]
