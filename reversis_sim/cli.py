"""The ``reversis-sim`` command line: parse, call the library, print. No game logic lives here."""

from __future__ import annotations

import json
import sys

import click

from . import __version__, reference
from .analysis import summarize_records
from .policies import FAMILIES, PolicySpecError, parse_seats
from .rules import PRESETS, RulesError, get_preset
from .simulate import simulate_records

MAX_SEED = 2**63 - 1
MAX_MATCH = 2**32 - 1


def _rules(ctx, param, value):
    try:
        return get_preset(value)
    except RulesError as e:
        raise click.BadParameter(str(e)) from None


def _seats(ctx, rules, specs):
    try:
        return parse_seats(specs, rules.n_seats)
    except PolicySpecError as e:
        raise click.BadParameter(str(e), param_hint="'--seat'") from None


rules_option = click.option("--rules", "rules", default="parlett", show_default=True, callback=_rules,
                            help=f"Rules preset: {', '.join(PRESETS)}.")
seat_option = click.option("--seat", "seat_specs", multiple=True, metavar="SPEC",
                           help="Seat policy 'family[:key=value,...]'; once for all four seats, or once per seat "
                                "(default: random).")
seed_option = click.option("--seed", type=click.IntRange(0, MAX_SEED), default=0, show_default=True,
                           help="Run seed (a non-negative integer).")


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="reversis-sim")
def main() -> None:
    """Simulate and analyse Reversis, the 17th-century trick-avoidance game.

    \b
    Example:
      reversis-sim replay --seed 7 --match 0 --deal 3
    """


@main.command()
@rules_option
@seed_option
@click.option("--match", type=click.IntRange(0, MAX_MATCH), default=0, show_default=True, help="Match number.")
@click.option("--deal", type=int, default=None, help="Deal number within the match (0-based); omit for every deal.")
@seat_option
@click.option("--indent", type=click.IntRange(0, 8), default=None,
              help="Pretty-print a single deal's JSON with this indent.")
def replay(rules, seed, match, deal, seat_specs, indent):
    """Print the deal record (RULES.md Appendix A) of one deal as JSON, or of every deal of a match, one JSON
    object per line, in order. Any deal is reproduced from (rules, seats, seed, match, deal) alone.

    \b
    Example:
      reversis-sim replay --rules parlett --seed 7 --match 0 --deal 3 --seat random
    """
    seats = _seats(None, rules, seat_specs)
    if deal is not None and not 0 <= deal < rules.match_deals:
        raise click.BadParameter(f"deal {deal} is out of range: a {rules.name} match has {rules.match_deals} deals "
                                 f"(0..{rules.match_deals - 1})", param_hint="'--deal'")
    if deal is not None:
        click.echo(json.dumps(reference.replay(rules, seats, seed=seed, match=match, deal=deal), indent=indent))
        return
    for record in reference.play_match(rules, seats, seed=seed, match=match):
        click.echo(json.dumps(record))


@main.command()
@rules_option
@seat_option
@click.option("--deals", type=click.IntRange(1), default=4800, show_default=True,
              help="Number of deals (rounded up to whole matches).")
@click.option("--match-deals", type=click.IntRange(1), default=None,
              help="Deals per match (default: the preset's, 12 for parlett).")
@seed_option
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@click.option("--quiet", is_flag=True, help="No progress output.")
def simulate(rules, seat_specs, deals, match_deals, seed, fmt, quiet):
    """Play a batch of whole matches and print a summary: mean fish per deal for each seat with 95% confidence
    intervals (the match is the sampling unit), the Quinola's fate, reversis and espagnolette counts.

    \b
    Example:
      reversis-sim simulate --rules parlett --deals 4800 --seed 1
    """
    seats = _seats(None, rules, seat_specs)
    per_match = match_deals or rules.match_deals
    n_matches = -(-deals // per_match)
    show = not quiet and sys.stderr.isatty()
    with click.progressbar(length=n_matches * per_match, label="deals", file=sys.stderr,
                           hidden=not show) as bar:
        last = [0]

        def progress(done: int) -> None:
            bar.update(done - last[0])
            last[0] = done

        summary = summarize_records(simulate_records(rules, seats, seed=seed, n_matches=n_matches,
                                                     match_deals=per_match, progress=progress), rules.n_seats)
    data = summary.to_dict()
    data.update({"rules": rules.name, "seed": seed, "seats": [str(s) for s in seats], "match_deals": per_match})
    if fmt == "json":
        click.echo(json.dumps(data, indent=2))
        return
    click.echo(f"{rules.name}: {summary.n_deals} deals in {summary.n_matches} matches of {per_match}, seed {seed}")
    click.echo(f"{'seat':>4}  {'policy':<20} {'fish/deal':>10}  {'95% CI':>17}")
    for row, spec in zip(summary.seat_rows(), seats):
        click.echo(f"{row['seat']:>4}  {str(spec):<20} {row['mean_fish_per_deal']:>10.3f}  "
                   f"[{row['ci_low']:>7.3f}, {row['ci_high']:>7.3f}]")
    fate = ", ".join(f"{k} {v / summary.n_deals:.1%}" for k, v in data["quinola_fate"].items())
    click.echo(f"Quinola (J♥) fate: {fate}")
    click.echo(f"Reversis: committed {summary.reversis_committed}, made {summary.reversis_made}; "
               f"espagnolette: declared {summary.espagnolette_declared}, made {summary.espagnolette_made}")
    click.echo(f"Pool left on the table at match ends (A34, not in the seat means): {summary.pool_left} fish")


@main.command("rules")
@click.argument("preset", required=False)
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
def rules_cmd(preset, fmt):
    """List the rules presets, or print every parameter of one preset.

    \b
    Example:
      reversis-sim rules parlett
    """
    if preset is not None:
        try:
            r = get_preset(preset)
        except RulesError as e:
            raise click.BadParameter(str(e), param_hint="PRESET") from None
        data = {"name": r.name, "source": r.source, "params": r.to_params()}
        if fmt == "json":
            click.echo(json.dumps(data, indent=2))
        else:
            click.echo(f"{r.name}: {r.source}")
            for k, v in data["params"].items():
                click.echo(f"  {k:<32} {v}")
        return
    items = [{"name": r.name, "source": r.source} for r in PRESETS.values()]
    if fmt == "json":
        click.echo(json.dumps(items, indent=2))
    else:
        for it in items:
            click.echo(f"{it['name']:<26} {it['source']}")


@main.command()
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
def policies(fmt):
    """List the policy families, their parameters, defaults and ranges.

    \b
    Example:
      reversis-sim policies --format json
    """
    items = [{"name": f.name, "idea": f.idea,
              "params": [{"name": p.name, "default": p.default, "low": p.low, "high": p.high, "doc": p.doc}
                         for p in f.params]} for f in FAMILIES.values()]
    if fmt == "json":
        click.echo(json.dumps(items, indent=2))
        return
    for it in items:
        click.echo(f"{it['name']:<12} {it['idea']}")
        for p in it["params"]:
            click.echo(f"    {p['name']}={p['default']} in [{p['low']}, {p['high']}]: {p['doc']}")
