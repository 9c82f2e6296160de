"""The policy registry and the spec parser: ``family`` or ``family:key=value,key=value``."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from .random import RandomPolicy


class PolicySpecError(ValueError):
    """A seat policy that cannot be built; the message names the problem and the valid choices."""


@dataclass(frozen=True)
class Param:
    name: str
    default: float
    low: float
    high: float
    doc: str


@dataclass(frozen=True)
class Family:
    name: str
    family_id: int  # the integer the numba kernel dispatches on
    idea: str
    params: tuple[Param, ...]
    factory: Callable[..., object] = field(repr=False)


FAMILIES: dict[str, Family] = {
    "random": Family("random", 0, "uniformly random legal play at every decision (the baseline)", (), RandomPolicy),
}


@dataclass(frozen=True)
class PolicySpec:
    """A family and its full parameter vector (defaults filled in)."""

    family: str
    params: tuple[tuple[str, float], ...] = ()

    @property
    def text(self) -> str:
        """Canonical spec string: the family, then every parameter that differs from its default."""
        fam = FAMILIES[self.family]
        changed = [f"{k}={_fmt(v)}" for (k, v), p in zip(self.params, fam.params) if v != p.default]
        return self.family + (":" + ",".join(changed) if changed else "")

    def __str__(self) -> str:
        return self.text


def _fmt(v: float) -> str:
    return str(int(v)) if float(v).is_integer() else repr(float(v))


def parse_spec(text: str) -> PolicySpec:
    """Parse ``family[:key=value,...]`` into a :class:`PolicySpec`, validating names and ranges."""
    if not isinstance(text, str) or not text.strip():
        raise PolicySpecError("empty seat policy; write a family name such as 'random'")
    family_name, _, rest = text.strip().partition(":")
    family_name = family_name.strip()
    if family_name not in FAMILIES:
        raise PolicySpecError(f"unknown policy family {family_name!r}; valid families: {', '.join(sorted(FAMILIES))}")
    fam = FAMILIES[family_name]
    values = {p.name: p.default for p in fam.params}
    for item in filter(None, (s.strip() for s in rest.split(","))):
        key, eq, raw = item.partition("=")
        key = key.strip()
        valid = ", ".join(p.name for p in fam.params) or "none"
        if not eq:
            raise PolicySpecError(f"policy {text!r}: {item!r} is not key=value (parameters of {family_name}: {valid})")
        param = next((p for p in fam.params if p.name == key), None)
        if param is None:
            raise PolicySpecError(f"policy {text!r}: {family_name} has no parameter {key!r} (parameters: {valid})")
        try:
            value = float(raw)
        except ValueError:
            raise PolicySpecError(f"policy {text!r}: {key}={raw!r} is not a number") from None
        if not param.low <= value <= param.high:
            raise PolicySpecError(f"policy {text!r}: {key}={raw} is out of range [{_fmt(param.low)}, "
                                  f"{_fmt(param.high)}]")
        values[key] = value
    return PolicySpec(family_name, tuple((p.name, values[p.name]) for p in fam.params))


def parse_seats(specs: Sequence[str], n_seats: int = 4) -> list[PolicySpec]:
    """One spec for all seats, or exactly one per seat."""
    specs = list(specs) or ["random"]
    if len(specs) == 1:
        specs = specs * n_seats
    if len(specs) != n_seats:
        raise PolicySpecError(f"got {len(specs)} seat policies; give one (the same for every seat) or "
                              f"{n_seats} (one per seat)")
    return [parse_spec(s) for s in specs]


def make_policy(spec: PolicySpec | str):
    """A reference-engine policy object for a spec."""
    if isinstance(spec, str):
        spec = parse_spec(spec)
    return FAMILIES[spec.family].factory(**dict(spec.params))
