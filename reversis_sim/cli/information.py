"""``reversis-sim rules | policies``: what can be played (the presets and their parameters, the policy families
and their named presets). Plain Python only: these start at once."""

from __future__ import annotations

import textwrap

import click

from ..overrides import label, override_text
from ..policies import FAMILIES, NAMED, parse_spec
from ..rules import PRESETS, RulesError, get_preset
from .options import command, json_text, rule_option, with_rule_overrides

ROLLOUT_DOC = ("the heuristic that plays the deals out and takes the exchange and the declaration: a named preset, "
               "a family, or a spec in parentheses, rollout=(avoid:take=0,declare=3); never a search")


@command("rules")
@click.argument("preset", required=False)
@rule_option
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
def rules(preset, rule_overrides, fmt):
    """List every rules preset with its source and its differences from parlett, or print every parameter of
    one preset (each can be changed with --rule NAME=VALUE on every command that plays deals: simulate, replay,
    compare, tournament, sweep, tune, best-response, review, play and learn; give --rule here to see the result).

    \b
    Example:
      reversis-sim rules pierer
      reversis-sim rules parlett --rule party_bonus=40
    """
    if preset is None:
        if rule_overrides:
            raise click.UsageError("--rule modifies a preset: name it, e.g. 'reversis-sim rules parlett --rule ...'")
        items = [{"name": r.name, "source": r.source, "differences_from_parlett": r.differences()}
                 for r in PRESETS.values()]
        if fmt == "json":
            click.echo(json_text(items))
            return
        for it in items:
            diff = it["differences_from_parlett"]
            click.echo(f"{it['name']:<24} {it['source']}")
            if diff:
                text = ", ".join(f"{k}={override_text(v[0])}" for k, v in diff.items())
                click.echo(textwrap.fill(text, width=110, initial_indent="    ", subsequent_indent="    "))
        return
    try:
        base = get_preset(preset)
    except RulesError as e:
        raise click.BadParameter(str(e), param_hint="PRESET") from None
    r = with_rule_overrides(base, rule_overrides)
    params = r.to_params()
    changed = {k for k, v in base.to_params().items() if params[k] != v}
    data = {"name": r.name, "label": label(r.name, params), "source": r.source, "params": params,
            "overridden": sorted(changed), "differences_from_parlett": r.differences()}
    if fmt == "json":
        click.echo(json_text(data))
        return
    click.echo(f"{data['label']}: {r.source}")
    for k, v in params.items():
        mark = ("  + (--rule)" if k in changed else "") + ("  *" if k in data["differences_from_parlett"] else "")
        click.echo(f"  {k:<32} {override_text(v)}{mark}")
    click.echo("(* differs from parlett; change any parameter with --rule NAME=VALUE, written as above)")


@command("policies")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
def policies(fmt):
    """List the policy families, their parameters, defaults and ranges, and the named presets.

    \b
    Example:
      reversis-sim policies --format json
    """
    items = [{"name": f.name, "kind": "family", "idea": f.idea,
              "params": [{"name": p.name, "default": p.default, "low": p.low, "high": p.high, "doc": p.doc,
                          **({"choices": list(p.choices)} if p.choices else {})}
                         for p in f.params]} for f in FAMILIES.values()]
    for it, f in zip(items, FAMILIES.values()):
        if f.searches:
            it["rollout"] = {"default": f.rollout, "doc": ROLLOUT_DOC}
    items += [{"name": name, "kind": "preset", "spec": str(parse_spec(text))}
              for name, text in NAMED.items() if name not in FAMILIES]
    if fmt == "json":
        click.echo(json_text(items))
        return
    for it in items:
        if it["kind"] == "preset":
            continue
        click.echo(f"{it['name']:<12} {it['idea']}")
        for p in it["params"]:
            if "choices" in p:
                names = p["choices"]
                click.echo(f"    {p['name']}={names[int(p['default'])]} of {', '.join(names)}: {p['doc']}")
                continue
            click.echo(f"    {p['name']}={p['default']:g} in [{p['low']:g}, {p['high']:g}]: {p['doc']}")
        if "rollout" in it:
            click.echo(f"    rollout={it['rollout']['default']}: {it['rollout']['doc']}")
    click.echo("named presets:")
    presets = [it for it in items if it["kind"] == "preset"]
    width = max((len(it["name"]) for it in presets), default=0)
    for it in presets:
        click.echo(f"    {it['name']:<{width}} = {it['spec']}")
