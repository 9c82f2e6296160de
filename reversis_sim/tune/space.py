"""The search space of a tuning run: which parameters of a family move, and over which values.

``--param NAME=LOW..HIGH`` (a range, whole numbers for an ``int`` parameter) or ``--param NAME=V1,V2,...`` (a list
of values; a parameter that names one of a few things takes the names, ``infer=none,rollout``); a ``switch`` moves
over 0 and 1. Without ``--param`` every parameter of the family moves over its whole
range. Every value is checked against the parameter's kind and bounds before anything is simulated.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from ..policies import FAMILIES, PolicySpec, parse_spec
from ..policies.family import Param, fmt


class SpaceError(ValueError):
    """A search space that cannot be searched; the message names the parameter and the fix."""


@dataclass(frozen=True)
class Dimension:
    """One moving parameter: a range ``low..high`` (``kind`` int or real) or a list of ``choices``."""

    name: str
    kind: str  # "int" | "real" | "choice"
    low: float = 0.0
    high: float = 0.0
    choices: tuple[float, ...] = ()
    step: float | None = None  # a real parameter's resolution

    def describe(self) -> str:
        if self.kind == "choice":
            return f"{self.name}={','.join(fmt(c) for c in self.choices)}"
        return f"{self.name}={fmt(self.low)}..{fmt(self.high)}"


@dataclass(frozen=True)
class Space:
    """The family, the base values of every parameter, and the dimensions that move."""

    family: str
    base: PolicySpec
    dims: tuple[Dimension, ...]

    def spec(self, values: Mapping[str, float]) -> PolicySpec:
        """The policy spec of one point: the base with ``values`` set (parsed, so checked again)."""
        return self.base.with_values(values)


def _dimension(param: Param, text: str | None) -> Dimension:
    """The dimension of ``param`` from its ``--param`` text (None: its whole range)."""
    if param.kind == "switch" and text is None:
        return Dimension(param.name, "choice", choices=(0.0, 1.0))
    if text is None:
        return Dimension(param.name, param.kind, param.low, param.high, step=param.step)
    where = f"--param {param.name}={text}"
    if ".." in text:
        lo_text, _, hi_text = text.partition("..")
        try:
            low, high = float(lo_text), float(hi_text)
        except ValueError:
            raise SpaceError(f"{where}: LOW..HIGH must be two numbers, e.g. {param.name}={fmt(param.low)}.."
                             f"{fmt(param.high)}") from None
        if not low < high:
            raise SpaceError(f"{where}: the range is empty or inverted (LOW must be below HIGH)")
        if low < param.low or high > param.high:
            raise SpaceError(f"{where}: the range leaves the parameter's bounds [{fmt(param.low)}, "
                             f"{fmt(param.high)}]")
        if param.kind == "switch":
            raise SpaceError(f"{where}: {param.name} is an on/off switch; write {param.name}=0,1")
        if param.kind == "int" and not (low.is_integer() and high.is_integer()):
            raise SpaceError(f"{where}: {param.name} takes whole numbers")
        step = param.step if param.step and ((high - low) / param.step).is_integer() else None
        return Dimension(param.name, param.kind, low, high, step=step)
    read = set()
    for v in filter(None, (v.strip() for v in text.split(","))):
        try:
            read.add(param.read(v))  # a number, or a choice's name
        except ValueError as e:
            raise SpaceError(f"{where}: {v} {e}; write LOW..HIGH or V1,V2,...") from None
    values = tuple(sorted(read))
    if not values:
        raise SpaceError(f"{where}: no values given")
    for v in values:
        problem = param.problem(v)
        if problem:
            raise SpaceError(f"{where}: {fmt(v)} {problem}")
    return Dimension(param.name, "choice", choices=values)


def build_space(base: str | PolicySpec, params: Sequence[str] = ()) -> Space:
    """The space of ``--param`` items over the family of ``base`` (every parameter when none is given)."""
    spec = base if isinstance(base, PolicySpec) else parse_spec(base)
    family = FAMILIES[spec.family]
    if not family.params:
        raise SpaceError(f"policy family {spec.family!r} has no parameters to tune")
    by_name = {p.name: p for p in family.params}
    given: dict[str, str] = {}
    for item in params:
        name, eq, text = item.partition("=")
        name = name.strip()
        if not eq or not text.strip():
            raise SpaceError(f"--param {item!r} is not NAME=LOW..HIGH or NAME=V1,V2,...")
        if name not in by_name:
            raise SpaceError(f"--param {item!r}: {spec.family} has no parameter {name!r} (parameters: "
                             f"{', '.join(by_name)})")
        if name in given:
            raise SpaceError(f"--param {name} is given twice; give each parameter once")
        given[name] = text.strip()
    names = list(given) or list(by_name)
    dims = tuple(_dimension(by_name[n], given.get(n)) for n in names)
    return Space(spec.family, spec, dims)
