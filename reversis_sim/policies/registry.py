"""The policy registry and the spec parser: ``family`` or ``family:key=value,key=value`` (DESIGN.md decision 5).

A family is registered by its one line in :data:`FAMILIES`; its file declares everything else (:mod:`.family`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from . import avoid, lowest, random
from .family import Family, fmt


class PolicySpecError(ValueError):
    """A seat policy that cannot be built; the message names the problem and the valid choices."""


def _register(*families: Family) -> dict[str, Family]:
    """Families by name, refusing a name or an id given twice."""
    out: dict[str, Family] = {}
    for fam in families:
        clash = [f.name for f in out.values() if f.family_id == fam.family_id]
        if fam.name in out or clash:
            raise ValueError(f"policy family {fam.name!r} (id {fam.family_id}) clashes with "
                             f"{clash[0] if clash else fam.name!r}")
        out[fam.name] = fam
    return out


FAMILIES: dict[str, Family] = _register(
    random.FAMILY,
    lowest.FAMILY,
    avoid.FAMILY,
)
"""Every policy family, one line each (the order is the order the numba dispatch tries them in)."""

#: Named presets of the families: a name usable wherever a spec is (``--seat cautious``).
NAMED: dict[str, str] = {
    "avoid": "avoid",
    "cautious": "avoid:hunt=0,ace_hunt=0,take=20",
    "hunter": "avoid:hunt=1,ace_hunt=1",
    "saver": "avoid:save_dumps=1",
    "bold": "avoid:reversis=9,break=4",
    "naive": "lowest",
    # Iterated best responses from avoid until no setting of the family gains on a table of it (docs/strength.md,
    # scripts/tune_presets.py, results/tuning/presets.json); one per rule family where the best setting differs.
    "tuned": "avoid:unload=0,take=0.25,declare=4,reversis=8,break=9,opposite=0,rev_top=6",
    "tuned_modern": "avoid:unload=0,save_dumps=1,lead_pay=1,hunt=0,guard=6,take=9.5,declare=0,reversis=8,break=10,"
                    "opposite=0,rev_top=11",
    "tuned_serbian": "avoid:unload=0,shed=0,save_dumps=1,lead_pay=1,take=7.25,declare=7,reversis=7,break=11,"
                     "opposite=0,rev_top=6",
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
        changed = [f"{k}={fmt(v)}" for (k, v), p in zip(self.params, fam.params) if v != p.default]
        return self.family + (":" + ",".join(changed) if changed else "")

    @property
    def family_id(self) -> int:
        return FAMILIES[self.family].family_id

    def values(self) -> tuple[float, ...]:
        """The parameter vector, in the family's order."""
        return tuple(v for _, v in self.params)

    def __str__(self) -> str:
        return self.text


def parse_spec(text: str) -> PolicySpec:
    """Parse ``family[:key=value,...]`` (or a named preset) into a :class:`PolicySpec`, validating every name,
    value and range; a key given twice is refused."""
    if not isinstance(text, str) or not text.strip():
        raise PolicySpecError("empty seat policy; write a family name such as 'random'")
    text = text.strip()
    if text in NAMED and NAMED[text] != text:
        text = NAMED[text]  # a named preset
    family_name, _, rest = text.partition(":")
    family_name = family_name.strip()
    if family_name not in FAMILIES:
        raise PolicySpecError(f"unknown policy family {family_name!r}; valid families: {', '.join(sorted(FAMILIES))}"
                              f" (named presets: {', '.join(sorted(set(NAMED) - set(FAMILIES)))})")
    fam = FAMILIES[family_name]
    values = {p.name: p.default for p in fam.params}
    given: set[str] = set()
    for item in filter(None, (s.strip() for s in rest.split(","))):
        key, eq, raw = item.partition("=")
        key = key.strip()
        valid = ", ".join(p.name for p in fam.params) or "none"
        if not eq:
            raise PolicySpecError(f"policy {text!r}: {item!r} is not key=value (parameters of {family_name}: {valid})")
        param = next((p for p in fam.params if p.name == key), None)
        if param is None:
            raise PolicySpecError(f"policy {text!r}: {family_name} has no parameter {key!r} (parameters: {valid})")
        if key in given:
            raise PolicySpecError(f"policy {text!r}: {key} is given twice; give each parameter once")
        given.add(key)
        try:
            value = float(raw)
        except ValueError:
            raise PolicySpecError(f"policy {text!r}: {key}={raw!r} is not a number") from None
        problem = param.problem(value)
        if problem:
            raise PolicySpecError(f"policy {text!r}: {key}={raw.strip()} {problem}")
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
