"""The policy registry and the spec parser: ``family`` or ``family:key=value,key=value`` (a policy is data: a family and
its parameter vector).

A heuristic family is registered by its one line in :data:`.heuristics.HEURISTICS`; its file declares everything
else (:mod:`.family`). :data:`FAMILIES` adds the search (:mod:`.search`), whose ``rollout`` parameter is itself a
policy: a named preset, a family, or a spec in parentheses (``search:worlds=16,rollout=(avoid:take=0,declare=3)``).
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from . import search
from .family import Family, fmt
from .heuristics import HEURISTICS


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


FAMILIES: dict[str, Family] = _register(*HEURISTICS, search.FAMILY)
"""Every policy family: the heuristics, then the search."""

#: Named presets of the families: a name usable wherever a spec is (``--seat cautious``).
NAMED: dict[str, str] = {
    "avoid": "avoid",
    "cautious": "avoid:hunt=0,ace_hunt=0,take=20",
    "hunter": "avoid:hunt=1,ace_hunt=1",
    "saver": "avoid:save_dumps=1",
    "bold": "avoid:reversis=9,break=4",
    "naive": "lowest",
    # Iterated best responses from avoid until no setting of the family gains on a table of it (docs/strength.md,
    # studies/tune_presets/tune_presets.py, results/tuning/presets.json); one per rule family where the best setting
    # differs.
    "tuned": "avoid:unload=0,take=0.25,declare=4,reversis=8,break=9,opposite=0,rev_top=6",
    "tuned_modern": "avoid:unload=0,save_dumps=1,lead_pay=1,hunt=0,guard=6,take=9.5,declare=0,reversis=8,break=10,"
                    "opposite=0,rev_top=11",
    "tuned_serbian": "avoid:unload=0,shed=0,save_dumps=1,lead_pay=1,take=7.25,declare=7,reversis=7,break=11,"
                     "opposite=0,rev_top=6",
    # tuned, with the exchange the review found it losing most on: a J♥ guarded by at most two low hearts
    # is discarded to the talon before any Ace (q_bare=16; tuned's 8 never let it go while it held an Ace).
    # +6.93 [+6.64, +7.22] fish a deal in one seat against three tuned (parlett, seed 202, 480,000 deals; chosen
    # on seed 101); docs/strength.md.
    "strong": "avoid:unload=0,take=0.25,declare=4,reversis=8,break=9,opposite=0,rev_top=6,q_bare=16",
    # The same change to the other families' tuned presets: under serbian +0.07 [+0.07, +0.08] (seed 202); modern
    # has no talon, so q_bare cannot act and strong_modern is tuned_modern itself.
    "strong_modern": "avoid:unload=0,save_dumps=1,lead_pay=1,hunt=0,guard=6,take=9.5,declare=0,reversis=8,break=10,"
                     "opposite=0,rev_top=11",
    "strong_serbian": "avoid:unload=0,shed=0,save_dumps=1,lead_pay=1,take=7.25,declare=7,reversis=7,break=11,"
                      "opposite=0,rev_top=6,q_bare=16",
    # The learned player of the modern family (reversis-sim learn --rules modern --policy strong_modern --deals 24000
    # --seed 4501): +5.41 [+5.37, +5.45] fish a deal over strong_modern at a table of strong_modern (seed 4503,
    # 480,000 deals); `learned` itself plays the parlett weights. docs/strength.md.
    "learned_modern": "learned:weights=modern",
    # ... and of the serbian family (learn --rules serbian --policy strong_serbian --deals 24000 --seed 4601):
    # +0.075 [+0.065, +0.085] over strong_serbian at a table of it (seed 4603, 480,000 deals), small as every
    # serbian amount is.
    "learned_serbian": "learned:weights=serbian",
}


@dataclass(frozen=True)
class PolicySpec:
    """A family and its full parameter vector (defaults filled in)."""

    family: str
    params: tuple[tuple[str, float], ...] = ()
    rollout: PolicySpec | None = None
    """A search's rollout policy (None for a heuristic)."""
    weights: str | None = None
    """A learned family's weights file, as the spec names it (:mod:`.weights`; None for the others)."""

    @property
    def text(self) -> str:
        """Canonical spec string: the family, then every parameter that differs from its default (a search's
        rollout when it is not the default one)."""
        fam = FAMILIES[self.family]
        changed = [f"{k}={p.show(v)}" for (k, v), p in zip(self.params, fam.params) if v != p.default]
        if self.rollout is not None and self.rollout != parse_spec(fam.rollout):
            inner = self.rollout.text
            changed.append(f"rollout=({inner})" if "," in inner else f"rollout={inner}")
        if self.weights is not None and self.weights != fam.weights:
            changed.append(f"weights={self.weights}")
        return self.family + (":" + ",".join(changed) if changed else "")

    @property
    def family_id(self) -> int:
        return FAMILIES[self.family].family_id

    def with_values(self, values: Mapping[str, float]) -> PolicySpec:
        """This spec with some parameters set (a search keeps its rollout), parsed again so names and ranges are
        checked."""
        params = {**dict(self.params), **{k: float(v) for k, v in values.items()}}
        text = self.family + ":" + ",".join(f"{k}={fmt(v)}" for k, v in params.items())  # choices by index
        if self.rollout is not None:
            text += f",rollout=({self.rollout.text})"
        if self.weights is not None:
            text += f",weights={self.weights}"
        return parse_spec(text)

    def values(self) -> tuple[float, ...]:
        """The parameter vector, in the family's order; a search's is followed by its rollout's family id and
        vector (:func:`reversis_sim.search.decide_nb.rollout_family`)."""
        own = tuple(v for _, v in self.params)
        if self.weights is not None:  # a learned family: its vector is its weights file's
            from . import weights

            return own + weights.vector(weights.load(self.weights))
        if self.rollout is None:
            return own
        return own + (float(self.rollout.family_id),) + self.rollout.values()

    def __str__(self) -> str:
        return self.text


@functools.cache
def _preset_names() -> dict[str, str]:
    """The canonical spec of each named preset that is more than a family's defaults, to its first name."""
    names: dict[str, str] = {}
    for name, text in NAMED.items():
        try:
            canonical = parse_spec(text).text
        except (PolicySpecError, OSError):  # a preset whose weights file is missing names nothing
            continue
        if canonical not in FAMILIES:  # "naive" is lowest's defaults: lowest is shown as itself
            names.setdefault(canonical, name)
    return names


def display_name(text: str) -> str:
    """How a person knows a policy: the name of the preset a canonical spec is (``tuned`` for
    ``avoid:unload=0,take=0.25,...``; the first name where two presets are one player), else the spec itself. For
    what is printed and drawn only: tables and files keep the spec."""
    return _preset_names().get(str(text), str(text))


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
    rollout = parse_spec(fam.rollout) if fam.searches else None
    weights = fam.weights
    for item in _items(text, rest):
        key, eq, raw = item.partition("=")
        key = key.strip()
        valid = ", ".join([p.name for p in fam.params] + (["rollout"] if fam.searches else [])
                          + (["weights"] if fam.weights is not None else [])) or "none"
        if not eq:
            raise PolicySpecError(f"policy {text!r}: {item!r} is not key=value (parameters of {family_name}: {valid})")
        if key in given:
            raise PolicySpecError(f"policy {text!r}: {key} is given twice; give each parameter once")
        if fam.searches and key == "rollout":
            given.add(key)
            rollout = _rollout(text, raw.strip())
            continue
        if fam.weights is not None and key == "weights":
            given.add(key)
            weights = raw.strip()
            continue
        param = next((p for p in fam.params if p.name == key), None)
        if param is None:
            raise PolicySpecError(f"policy {text!r}: {family_name} has no parameter {key!r} (parameters: {valid})")
        given.add(key)
        try:
            value = param.read(raw)
        except ValueError as e:
            raise PolicySpecError(f"policy {text!r}: {key}={raw.strip()!r} {e}") from None
        problem = param.problem(value)
        if problem:
            raise PolicySpecError(f"policy {text!r}: {key}={raw.strip()} {problem}")
        values[key] = value
    if fam.searches:
        _check_inference(text, fam, values, rollout)
    if weights is not None:
        _check_weights(text, weights)
    return PolicySpec(family_name, tuple((p.name, values[p.name]) for p in fam.params), rollout, weights)


def _check_weights(text: str, name: str) -> None:
    """A learned seat's weights file: a shipped name must be one (checked without numpy, so that listing the
    policies stays light; the file is read when it is played); a path is read and checked now."""
    if name and "/" not in name and not name.endswith(".npz"):
        shipped = Path(__file__).with_name("weights_data")
        if not (shipped / f"{name}.npz").exists():
            names = ", ".join(sorted(p.stem for p in shipped.glob("*.npz")))
            raise PolicySpecError(f"policy {text!r}: no shipped weights named {name!r} (shipped: {names}); give "
                                  f"one of them or the path of a file written by reversis-sim learn")
        return
    from . import weights as files  # numpy

    try:
        files.load(name)
    except files.WeightsError as e:
        raise PolicySpecError(f"policy {text!r}: {e}") from None


def _check_inference(text: str, fam: Family, values: dict[str, float], rollout: PolicySpec) -> None:
    """A search's inference settings make sense together: ``tau``, ``pool`` and ``window`` act only with ``infer``,
    and the model must be a policy whose card is a model of play (not one drawn at random)."""
    if values["infer"] == 0:
        idle = [p.name for p in fam.params if p.name in ("tau", "pool", "window") and values[p.name] != p.default]
        if idle:
            one = len(idle) == 1
            raise PolicySpecError(f"policy {text!r}: {' and '.join(idle)} {'acts' if one else 'act'} only with "
                                  f"infer=rollout; add it, or leave {'it' if one else 'them'} out")
    elif FAMILIES[rollout.family].draws:
        raise PolicySpecError(f"policy {text!r}: infer=rollout needs a rollout policy that plays by rule, not at "
                              f"random ({rollout.family} draws its cards); give one such as rollout=tuned")


def _items(text: str, rest: str) -> list[str]:
    """The ``key=value`` items of a spec, split at the commas outside parentheses."""
    items, depth, start = [], 0, 0
    for i, ch in enumerate(rest):
        depth += (ch == "(") - (ch == ")")
        if depth < 0:
            raise PolicySpecError(f"policy {text!r}: a ')' without its '('")
        if ch == "," and depth == 0:
            items.append(rest[start:i])
            start = i + 1
    if depth:
        raise PolicySpecError(f"policy {text!r}: a '(' without its ')'")
    items.append(rest[start:])
    return [s.strip() for s in items if s.strip()]


def _rollout(text: str, raw: str) -> PolicySpec:
    """A search's rollout policy: a heuristic (named, a family, or a spec in parentheses), never a search."""
    inner = raw[1:-1].strip() if raw.startswith("(") and raw.endswith(")") else raw
    if not inner:
        raise PolicySpecError(f"policy {text!r}: rollout= needs a policy, such as rollout=tuned")
    try:
        spec = parse_spec(inner)
    except PolicySpecError as e:
        raise PolicySpecError(f"policy {text!r}: its rollout policy is not valid: {e}") from None
    if FAMILIES[spec.family].searches:
        raise PolicySpecError(f"policy {text!r}: a search cannot roll out with a search; give a heuristic, such as "
                              f"rollout=tuned")
    if len(spec.values()) > search.MAX_ROLLOUT_PARAMS:
        raise PolicySpecError(f"policy {text!r}: a rollout policy may have at most {search.MAX_ROLLOUT_PARAMS} "
                              f"parameters")
    return spec


def parse_seats(specs: Sequence[str], n_seats: int = 4, *, rules=None) -> list[PolicySpec]:
    """One spec for all seats, or exactly one per seat; with ``rules`` (a :class:`~reversis_sim.rules.Rules`, whose
    seats it then counts), a search left on its default rollout rolls out with the rules' own
    (:func:`for_rules`)."""
    if rules is not None:
        n_seats = rules.n_seats
    specs = list(specs) or ["random"]
    if len(specs) == 1:
        specs = specs * n_seats
    if len(specs) != n_seats:
        raise PolicySpecError(f"got {len(specs)} seat policies; give one (the same for every seat) or "
                              f"{n_seats} (one per seat)")
    parsed = [parse_spec(s) for s in specs]
    return parsed if rules is None else [for_rules(s, rules) for s in parsed]


LEARNED_PLAYERS = ("learned", "learned_modern", "learned_serbian")
"""The shipped learned players, each learned under one rule set (its weights file records which)."""
STRONGEST_BY_SCORING = {"penalty": "strong_modern", "bank": "strong_serbian"}
"""The strongest heuristic of a rule family other than parlett's (``strong``), by its scoring."""


def search_rollout(rules) -> str:
    """The rollout policy of a search left on its default under ``rules``: the shipped learned player learned
    under these rules (the rule parameters that do not change the play aside), else the family's strongest
    heuristic (``strong``, ``strong_modern`` for the modern family, ``strong_serbian``): learned weights are
    refused under other rules than their own."""
    from . import weights as files  # numpy

    params = rules.to_params()
    for name in LEARNED_PLAYERS:
        if not files.rules_differ(files.load(parse_spec(name).weights), params):
            return name
    return STRONGEST_BY_SCORING.get(rules.scoring, "strong")


def for_rules(spec: PolicySpec, rules) -> PolicySpec:
    """``spec`` as it plays under ``rules``: a search left on its default rollout (``learned``, learned under
    ``parlett``) rolls out with :func:`search_rollout` where that differs, and its text then names it
    (``search:rollout=strong_modern`` is what a folder records); every other spec unchanged."""
    fam = FAMILIES[spec.family]
    if not fam.searches or spec.rollout != parse_spec(fam.rollout):
        return spec
    name = search_rollout(rules)
    return spec if parse_spec(name) == spec.rollout else replace(spec, rollout=parse_spec(name))


CHANGED_DEFAULTS = {"search": (("0.2.0", "worlds=16, race=0, first=4, start=0, rollout=tuned"),
                               ("0.3.0", "worlds=16, start=5, rollout=strong"))}
"""Families whose defaults changed: each change, the package version that made it and what the parameters a spec
of the family left unsaid were before it. A folder written earlier with a spec of such a family is read as ever,
but never continued: today's player of the same name is another one, and its rows would mix two players."""


def changed_meaning(specs: Sequence[str], version: str | None) -> str | None:
    """Why a folder that recorded these policy ``specs`` with package ``version`` (None: a version that did not
    record it) may not be continued today, in words; None when it may."""
    for text in specs:
        name = str(text).partition(":")[0].strip()
        later = [change for change in CHANGED_DEFAULTS.get(name, ()) if _version(version) < _version(change[0])]
        if later:
            since, before = later[0]
            return (f"it was written by reversis_sim {version or 'before ' + since}, when `{name}` took {before} "
                    f"unless told otherwise; since {since} `{text}` is another player, and the rows of two players "
                    f"would mix: start a new folder (with those parameters spelled out, it plays the old player)")
    return None


def _version(text: str | None) -> tuple[int, ...]:
    try:
        return tuple(int(part) for part in str(text).split(".")[:3])
    except ValueError:
        return (0,)
