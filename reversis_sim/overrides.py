"""Changing a preset's rules from the command line (``--rule NAME=VALUE``), and naming the result.

Every :class:`~reversis_sim.rules.Rules` field can be overridden, written in the syntax :func:`override_text` prints
(``reversis-sim rules PRESET`` lists them all); the result is validated like every rule set, keeps the preset's name,
and travels whole: the manifest of a run and every deal record carry the resolved parameters.
"""

from __future__ import annotations

import dataclasses
import difflib
from collections.abc import Mapping, Sequence

from .rules import POINT_TABLES, PRESETS, Rules, RulesError

OVERRIDE_HELP = ("NAME=VALUE: a number, true/false, a word, a comma-separated list (tie_order=0,-1,-2,-3; "
                 "espagnolette_hands=four_aces,JH_plus_three_aces), CARD:POINTS pairs "
                 "(trick_point_overrides=AD:5,JH:4), or none")


def _whole(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise ValueError(f"{text.strip()!r} is not a whole number") from None


def override_text(value) -> str:
    """A resolved parameter value (as :meth:`Rules.to_params` gives it) written as a ``--rule`` value."""
    if isinstance(value, dict):
        return ",".join(f"{k}:{v}" for k, v in value.items())
    if isinstance(value, (list, tuple)):
        return ",".join(str(v) for v in value)
    if isinstance(value, bool):
        return "true" if value else "false"
    return "none" if value is None else str(value)


def _override_value(rules: Rules, name: str, text: str):
    """The value of field ``name`` written as ``text`` on the command line, of the field's type."""
    current = getattr(rules, name)
    raw = text.strip()
    if name in POINT_TABLES:
        pairs = []
        for item in filter(None, (x.strip() for x in raw.split(","))):
            key, sep, points = item.partition(":")
            if not sep:
                raise ValueError(f"{item!r} is not KEY:POINTS")
            pairs.append((key.strip(), _whole(points)))
        return tuple(pairs)
    if isinstance(current, bool):
        if raw.lower() not in ("true", "false", "1", "0", "yes", "no"):
            raise ValueError("expected true or false")
        return raw.lower() in ("true", "1", "yes")
    if isinstance(current, int):
        return _whole(raw)
    if isinstance(current, tuple):
        items = [x.strip() for x in raw.split(",") if x.strip()]
        return tuple(_whole(x) for x in items) if name == "tie_order" else tuple(items)
    if raw.lower() == "none" and name == "special_rank":
        return None
    return raw


def with_overrides(rules: Rules, overrides: Sequence[str]) -> Rules:
    """``rules`` with ``NAME=VALUE`` overrides applied (each once), validated like every rule set; the name stays
    (the record's ``rules_params`` and a run's manifest carry the resolved values). :class:`RulesError` naming the
    problem otherwise."""
    changes: dict = {}
    fields = [f.name for f in dataclasses.fields(Rules) if f.name not in ("name", "source")]
    for item in overrides:
        name, eq, text = item.partition("=")
        name = name.strip()
        if not eq:
            raise RulesError(f"rule override {item!r} is not NAME=VALUE ({OVERRIDE_HELP})")
        if name not in fields:
            near = difflib.get_close_matches(name, fields, n=1)
            hint = f"did you mean {near[0]}? " if near else ""
            raise RulesError(f"rule override {item!r}: no rule parameter {name!r}; {hint}'reversis-sim rules "
                             f"{rules.name}' lists them all")
        if name in changes:
            raise RulesError(f"rule override {item!r}: {name} is given twice; give each parameter once")
        try:
            changes[name] = _override_value(rules, name, text)
        except ValueError as e:
            raise RulesError(f"rule override {item!r}: {e} (current value {getattr(rules, name)!r})") from None
    return rules.replace(**changes) if changes else rules


def label(name: str, params: Mapping) -> str:
    """A rule set's name for a caption or a summary: the preset's name, with the parameters that differ from it
    (``parlett with party_bonus=40``)."""
    preset = PRESETS.get(name)
    if preset is None:
        return name
    mine = preset.to_params()
    diff = [f"{k}={override_text(v)}" for k, v in params.items() if k in mine and mine[k] != v]
    return name + (" with " + ", ".join(diff) if diff else "")
