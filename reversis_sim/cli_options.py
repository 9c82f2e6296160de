"""Options shared by the commands of :mod:`reversis_sim.cli` and :mod:`reversis_sim.cli_compare`."""

from __future__ import annotations

import click

from .rules import PRESETS, RulesError, get_preset

MAX_SEED = 2**63 - 1


def _rules(ctx, param, value):
    try:
        return get_preset(value)
    except RulesError as e:
        raise click.BadParameter(str(e)) from None


rules_option = click.option("--rules", "rules", default="parlett", show_default=True, callback=_rules,
                            help=f"Rules preset: {', '.join(PRESETS)}.")
seed_option = click.option("--seed", type=click.IntRange(0, MAX_SEED), default=0, show_default=True,
                           help="Run seed (a non-negative integer).")
