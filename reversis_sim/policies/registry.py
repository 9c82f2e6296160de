"""The policy registry and the spec parser: ``family`` or ``family:key=value,key=value``."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from . import heuristic as H
from .kernel_policy import KernelPolicy
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


def _switch(name: str, default: float, doc: str) -> Param:
    return Param(name, default, 0.0, 1.0, doc)


#: The parameters of ``avoid``, in the order of the kernel's parameter vector (``heuristic.A_*``).
AVOID_PARAMS = (
    _switch("duck", 1, "H2: follow with the highest card that still loses the trick (0: the lowest card)"),
    _switch("unload", 1, "H2: when the trick cannot be lost, unload the highest card that is not an Ace or the J♥"),
    _switch("shed", 1, "H1: when void, discard the J♥, then A♦, then the Aces, then the highest-point card"),
    _switch("save_dumps", 0, "H1: keep Aces to dump in the last two tricks, where payments are doubled"),
    _switch("lead_pay", 0, "H7: 1 allows leading an Ace or the J♥ while other cards are left"),
    _switch("short", 1, "H9: lead from the shortest suit (0: the longest)"),
    _switch("hunt", 1, "H5: lead low hearts while the J♥ is out, to force it"),
    _switch("ace_hunt", 0, "H6: lead low into suits whose Ace is still out, to force it"),
    Param("guard", 2, 0, 6, "H8: low hearts to keep as guards of one's own J♥ (talon discards and sheds)"),
    Param("take", 4, 0, 20, "H3/H4: take the talon card when the hand's danger score reaches this"),
    Param("declare", 1, 0, 11, "H12: declare the espagnolette with at most this many high cards besides the Aces"),
    Param("reversis", 12, 0, 14, "H10: attempt the reversis with at least this many sure tricks (above the "
                                 "number of tricks: never)"),
    Param("break", 5, 0, 14, "H11: fight an opponent's run of won tricks once it reaches this many"),
    _switch("opposite", 1, "H13: dump an Ace at once when the opposite seat is winning the trick (pays ×2)"),
    _switch("count", 1, "H14: count the cards played (0: treat every unseen card as still out)"),
)
assert len(AVOID_PARAMS) == H.N_AVOID_PARAMS


def _kernel_factory(family_id: int):
    def make(**params: float) -> KernelPolicy:
        return KernelPolicy(family_id, tuple(params.values()))

    return make


FAMILIES: dict[str, Family] = {
    "random": Family("random", 0, "uniformly random legal play at every decision (the baseline)", (), RandomPolicy),
    "lowest": Family("lowest", H.LOWEST, "naive baseline: always its lowest legal card, never takes the talon card, "
                     "never declares", (), _kernel_factory(H.LOWEST)),
    "avoid": Family("avoid", H.AVOID, "the sourced trick-avoidance ideas H1-H14 (duck and unload, shed payment "
                    "cards, make voids, guard and hunt the Quinola, reversis attempt and defence), each a "
                    "parameter", AVOID_PARAMS, _kernel_factory(H.AVOID)),
}

#: Named presets of the families: a name usable wherever a spec is (``--seat cautious``).
NAMED: dict[str, str] = {
    "avoid": "avoid",
    "cautious": "avoid:hunt=0,ace_hunt=0,take=20",
    "hunter": "avoid:hunt=1,ace_hunt=1",
    "saver": "avoid:save_dumps=1",
    "bold": "avoid:reversis=9,break=4",
    "naive": "lowest",
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
