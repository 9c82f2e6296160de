"""Options shared by the commands of :mod:`reversis_sim.cli` and :mod:`reversis_sim.cli_compare`."""

from __future__ import annotations

import click

from .overrides import with_overrides
from .rules import PRESETS, RulesError, get_preset

MAX_SEED = 2**63 - 1
DEFAULT_SEAT = "avoid"
"""The seat policy of every command that plays deals when no --seat is given (simulate and replay alike)."""


def _rules(ctx, param, value):
    try:
        return get_preset(value)
    except RulesError as e:
        raise click.BadParameter(str(e)) from None


rules_option = click.option("--rules", "rules", default="parlett", show_default=True, callback=_rules,
                            help=f"Rules preset: {', '.join(PRESETS)}.")
seed_option = click.option("--seed", type=click.IntRange(0, MAX_SEED), default=0, show_default=True,
                           help="Run seed (a non-negative integer).")

rule_option = click.option("--rule", "rule_overrides", multiple=True, metavar="NAME=VALUE",
                           help="Override one parameter of the preset (repeatable), e.g. --rule party_bonus=40; "
                                "'reversis-sim rules PRESET' lists every parameter and its value.")


def with_rule_overrides(rules, overrides):
    """The preset with the ``--rule`` overrides applied; ``click.BadParameter`` naming the problem otherwise."""
    try:
        return with_overrides(rules, overrides)
    except RulesError as e:
        raise click.BadParameter(str(e), param_hint="'--rule'") from None
