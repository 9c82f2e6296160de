"""How a policy family is declared: its id, its parameters, and where its four numba decisions are.

A family is two files: ``<name>.py`` declares it (a docstring saying what it does, its parameters, one
:class:`Family` value) and ``<name>_nb.py`` holds its four numba decisions; one line in :mod:`.heuristics`
registers it. The declaration is plain Python, so listing the families and parsing a spec (``reversis-sim
policies``, every ``--seat``) costs no numba; the decisions are imported where a deal is played. Everything else
follows from the declaration: the spec parser reads the parameters (name, kind, range, default, help), the numba
dispatch (:mod:`.dispatch`) calls the decisions by the family id, and the positions of the parameters in the
kernel's parameter vector are their order in the declaration (:meth:`Family.position`; a family reads
``params[position("take")]``).

The four decisions, numba functions of what the seat may know (the information discipline: no decision reads a hidden
card, ``tests/test_policies.py``), each
``decision(params, draws, view, tables)``: the family's parameter vector, the seat's keyed draws of the deal, its
view (:mod:`reversis_sim.kernel.view`: one ``int64`` record of named slots, filled alike by both engines) and the
rules' per-card tables (:mod:`reversis_sim.kernel.compiled`):

- ``exchange``: the card to discard, or -1 to keep the hand (never -1 for the dealer, ``V_IS_DEALER``, or where it
  must discard, ``V_MUST_DISCARD``);
- ``declare`` -> bool: declare the espagnolette (asked of an eligible seat);
- ``goal`` -> bool: the declarer's goal where he names one, True for ``win_all``;
- ``play``: a card of the mask ``V_LEGAL``.

A new fact a policy may read is one slot of the view and one line in each of its two fillers (the kernel's, and
the reference engine's :meth:`reversis_sim.reference.seat_policy.SeatPolicy._fill`).
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from types import ModuleType

KINDS = ("switch", "int", "real")
"""``switch``: 0 (off) or 1 (on); ``int``: a whole number in the range; ``real``: any number in the range."""


@dataclass(frozen=True)
class Param:
    """One parameter of a family: its name in a spec, its kind (:data:`KINDS`), default, range and help."""

    name: str
    kind: str
    default: float
    low: float
    high: float
    doc: str
    step: float | None = None
    """For a ``real`` parameter, the resolution that matters (a tuner searches this grid); None: any value."""
    choices: tuple[str, ...] = ()
    """For an ``int`` parameter that names one of a few things (``search:infer=rollout``): the names, the value
    being a name's index; a spec gives the name (or its index)."""

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"parameter {self.name!r}: kind must be one of {', '.join(KINDS)}, not {self.kind!r}")
        if not self.low <= self.default <= self.high:
            raise ValueError(f"parameter {self.name!r}: default {self.default} is outside [{self.low}, {self.high}]")

    def problem(self, value: float) -> str | None:
        """Why ``value`` is not a valid setting of this parameter, or None."""
        if self.choices and not (float(value).is_integer() and 0 <= value < len(self.choices)):
            return f"is not one of {', '.join(self.choices)}"
        if not self.low <= value <= self.high:
            return f"is out of range [{fmt(self.low)}, {fmt(self.high)}]"
        if self.kind == "switch" and value not in (0.0, 1.0):
            return "is an on/off switch: write 0 or 1"
        if self.kind == "int" and not float(value).is_integer():
            return "must be a whole number"
        return None

    def show(self, value: float) -> str:
        """A value as a spec writes it: a choice by its name, a number without a needless decimal point."""
        return self.choices[int(value)] if self.choices else fmt(value)

    def read(self, raw: str) -> float:
        """A value from a spec: a choice's name or a number; a ``ValueError`` naming the choices otherwise."""
        raw = raw.strip()
        if raw in self.choices:
            return float(self.choices.index(raw))
        try:
            return float(raw)
        except ValueError:
            if self.choices:
                raise ValueError(f"is not one of {', '.join(self.choices)}") from None
            raise ValueError("is not a number") from None


def switch(name: str, default: int, doc: str) -> Param:
    """An on/off parameter (0 or 1)."""
    return Param(name, "switch", float(default), 0.0, 1.0, doc)


def integer(name: str, default: int, low: int, high: int, doc: str) -> Param:
    """A whole-number parameter in ``[low, high]``."""
    return Param(name, "int", float(default), float(low), float(high), doc)


def choice(name: str, default: str, names: tuple[str, ...], doc: str) -> Param:
    """A parameter naming one of ``names`` (stored as its index)."""
    return Param(name, "int", float(names.index(default)), 0.0, float(len(names) - 1), doc, choices=tuple(names))


def real(name: str, default: float, low: float, high: float, doc: str, step: float | None = None) -> Param:
    """A real-valued parameter in ``[low, high]`` (``step``: the resolution that matters, for a tuner)."""
    return Param(name, "real", float(default), float(low), float(high), doc, step)


def fmt(v: float) -> str:
    """A parameter value as written in a spec: whole numbers without a decimal point."""
    return str(int(v)) if float(v).is_integer() else repr(float(v))


def position(params: tuple[Param, ...], name: str) -> int:
    """The index of parameter ``name`` in a family's parameter vector (its place in the declaration)."""
    names = [p.name for p in params]
    if name not in names:
        raise KeyError(f"no parameter {name!r} among {', '.join(names)}")
    return names.index(name)


@dataclass(frozen=True)
class Family:
    """A policy family: ``name`` (in specs), ``family_id`` (what the kernels dispatch on; unique), ``idea`` (one
    line for listings), ``params`` (in the order of the parameter vector) and ``decisions``, the module of its numba
    decisions (relative to this package: ``".avoid_nb"``; the search's is in its own package, named whole:
    ``"reversis_sim.search.decide_nb"``, imported only by who asks for it)."""

    name: str
    family_id: int
    idea: str
    params: tuple[Param, ...]
    decisions: str
    rollout: str | None = None
    """A search family (:mod:`.search`): the default of its ``rollout`` policy, which it also follows in the
    exchange and the declaration (its decisions module has only ``play``). None: a heuristic, dispatched on its
    id."""
    weights: str | None = None
    """A learned family (:mod:`.learned`): the weights file a spec that names none plays (``weights=NAME``, a
    shipped file, or ``weights=PATH``); its parameter vector is the file's (:func:`.weights.vector`). None: no
    weights."""
    draws: bool = True
    """Whether its decisions read the seat's keyed draws (``draws``). The kernels draw them at the start of every
    deal only for the seats whose family does (:func:`.dispatch.uses_draws`); a deterministic family says False."""

    @property
    def searches(self) -> bool:
        return self.rollout is not None

    def position(self, name: str) -> int:
        """The index of parameter ``name`` in this family's parameter vector."""
        return position(self.params, name)

    def kernel(self) -> ModuleType:
        """The module of the family's numba decisions (imported on first use: numba)."""
        return importlib.import_module(self.decisions, __package__)
