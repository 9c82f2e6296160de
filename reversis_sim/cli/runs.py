"""The ``reversis-sim`` command line: parse, call the library, print. No game logic lives here."""

from __future__ import annotations

import contextlib
import json
import sys
import textwrap
import time
from pathlib import Path

import click
import polars as pl

from . import __version__
from .analysis import analysis_tables, summarize_run
from .analysis.hands import FEATURES as HAND_FEATURES
from .cli_options import (
    DEFAULT_SEAT,
    deals_from,
    folder_errors,
    on_cluster,
    rule_option,
    rules_option,
    scheduler_option,
    seed_option,
    threads_option,
    with_constraint_options,
    with_rule_overrides,
)
from .engines import ENGINES, get_engine
from .overrides import label, override_text
from .policies import FAMILIES, NAMED, PolicySpecError, parse_seats, parse_spec
from .record import (
    MAX_CHUNK_DEALS,
    MAX_DEALS,
    MAX_MATCH_DEALS,
    RunSpec,
    completed_chunks,
    read_manifest,
)
from .rules import PRESETS, RulesError, get_preset
from .simulate import WRITERS, run

MAX_MATCH = 2**32 - 1

ROLLOUT_DOC = ("the heuristic that plays the deals out and takes the exchange and the declaration: a named preset, "
               "a family, or a spec in parentheses, rollout=(avoid:take=0,declare=3); never a search")


def _seats(ctx, rules, specs):
    try:
        return parse_seats(specs, rules.n_seats)
    except PolicySpecError as e:
        raise click.BadParameter(str(e), param_hint="'--seat'") from None


seat_option = click.option("--seat", "seat_specs", multiple=True, metavar="SPEC",
                           help="Seat policy 'family[:key=value,...]' or a named preset; once for every seat, or once "
                                f"per seat (four; five under modern_five) (default: {DEFAULT_SEAT}, as simulate).")


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
@rule_option
@seed_option
@click.option("--match", type=click.IntRange(0, MAX_MATCH), default=0, show_default=True, help="Match number.")
@click.option("--deal", type=int, default=None, help="Deal number within the match (0-based); omit for every deal.")
@seat_option
@click.option("--indent", type=click.IntRange(0, 8), default=None,
              help="Pretty-print a single deal's JSON with this indent.")
@click.option("--engine", type=click.Choice(ENGINES), default="numba", show_default=True,
              help="Which engine plays the deal; both print the same record.")
@with_constraint_options
def replay(rules, rule_overrides, seed, match, deal, seat_specs, indent, engine, predeal, where):
    """Print the deal record (RULES.md Appendix A) of one deal as JSON, or of every deal of a match, one JSON
    object per line, in order. Any deal is reproduced from (rules, seats, seed, match, deal) alone.

    \b
    Example:
      reversis-sim replay --rules parlett --seed 7 --match 0 --deal 3 --seat random
    """
    rules = with_rule_overrides(rules, rule_overrides)
    seats = _seats(None, rules, seat_specs or (DEFAULT_SEAT,))
    if deal is not None and not 0 <= deal < rules.match_deals:
        raise click.BadParameter(f"deal {deal} is out of range: a {rules.name} match has {rules.match_deals} deals "
                                 f"(0..{rules.match_deals - 1})", param_hint="'--deal'")
    play = get_engine(engine)
    try:
        play.check(rules)
    except RulesError as e:
        raise click.BadParameter(str(e), param_hint="'--engine'") from None
    deals = deals_from(rules, predeal, where, quiet=True)
    if deal is not None:
        try:
            record = play.deal_record(rules, seats, seed=seed, match=match, deal=deal, deals=deals)
        except ValueError as e:  # a parlett_simple match that ended before this deal
            raise click.BadParameter(str(e), param_hint="'--deal'") from None
        click.echo(json.dumps(record, indent=indent))
        return
    for record in play.match_records(rules, seats, seed=seed, match=match, deals=deals):
        click.echo(json.dumps(record))


def default_out(rules_name: str, seed: int, n_deals: int) -> str:
    return f"results/{rules_name}_seed{seed}_{n_deals}deals"


@main.command()
@rules_option
@rule_option
@click.option("--seat", "seat_specs", multiple=True, metavar="SPEC",
              help="Seat policy 'family[:key=value,...]' or a named preset; once for every seat, or once per seat "
                   f"(four; five under modern_five) (default: {DEFAULT_SEAT}, the default heuristic).")
@click.option("--deals", type=click.IntRange(1, MAX_DEALS), default=120_000, show_default=True,
              help=f"Number of deals, 1 to {MAX_DEALS:,} (rounded up to whole matches; at least two matches).")
@click.option("--match-deals", type=click.IntRange(1, MAX_MATCH_DEALS), default=None,
              help=f"Deals per match, 1 to {MAX_MATCH_DEALS:,} (default: the preset's, 12 for parlett).")
@seed_option
@click.option("--out", type=click.Path(file_okay=False), default=None,
              help="Run folder to write (default: results/<rules>_seed<S>_<N>deals).")
@click.option("--resume", is_flag=True, help="Continue an interrupted run in --out (same settings).")
@click.option("--force", is_flag=True, help="Overwrite an existing run folder.")
@threads_option
@click.option("--chunk-matches", type=click.IntRange(1), default=2048, show_default=True,
              help=f"Matches per part file (memory is bounded by one chunk: at most {MAX_CHUNK_DEALS:,} deals).")
@click.option("--engine", type=click.Choice(ENGINES), default="numba", show_default=True)
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True,
              help="Format of the summary printed at the end.")
@click.option("--quiet", is_flag=True, help="No progress bar.")
@click.option("--figures/--no-figures", default=True, show_default=True,
              help="Draw the run's figures into OUT/figures/ at the end.")
@with_constraint_options
@scheduler_option
@click.option("--writer", type=click.Choice(WRITERS), default="auto", show_default=True,
              help="With --scheduler: who writes the parts: the client, the workers (storage shared with them), or "
                   "auto: the workers when they all see the run folder (docs/cluster.md).")
def simulate(rules, rule_overrides, seat_specs, deals, match_deals, seed, out, resume, force, threads, chunk_matches,
             engine, fmt, quiet, figures, predeal, where, scheduler, writer):
    """Play whole matches of Reversis and stream every deal into a run folder (Parquet part files and a
    manifest), then print a summary. A killed or interrupted run continues with --resume and ends with exactly
    the rows of an uninterrupted run.

    \b
    Example:
      reversis-sim simulate --rules parlett --seat random --deals 120000 --seed 1 --out results/demo
    """
    if resume and force:
        raise click.UsageError("--resume and --force exclude each other: resume keeps the run, force replaces it")
    rules = with_rule_overrides(rules, rule_overrides)
    seats = _seats(None, rules, seat_specs or (DEFAULT_SEAT,))
    constraints = deals_from(rules, predeal, where, quiet=quiet)
    try:
        spec = RunSpec.for_deals(rules, seats, deals=deals, seed=seed, match_deals=match_deals,
                                 chunk_matches=chunk_matches, constraints=constraints)
    except ValueError as e:  # the run's size is out of bounds: nothing is created
        raise click.UsageError(str(e)) from None
    out = out or default_out(rules.name, seed, spec.n_matches * spec.match_deals)
    show = not quiet and sys.stderr.isatty()
    kept = ("every chunk written so far is kept: fix that (free space, permissions, or choose another --out) and "
            "run the same command with --resume")
    paths: list = []

    def finish(report) -> None:
        """What follows the run, while the folder's lock is still held (no ``--force`` run replaces the parts under
        the summary): the report, the summary, the figures."""
        bars.close()
        if report.repaired:
            click.echo(f"rebuilt the lost manifest of {out} from its part files", err=True)
        if not quiet:
            click.echo(f"wrote {report.n_deals_run} deals ({report.n_chunks_run} of {report.n_chunks_total} chunks) "
                       f"to {out}", err=True)
            if constraints is not None and constraints.where is not None and report.n_shuffles:
                click.echo(f"--where accepted {report.n_deals_run:,} of {report.n_shuffles:,} shuffles "
                           f"({report.n_deals_run / report.n_shuffles:.2%})", err=True)
        with folder_errors(out, f"the run itself is complete: fix that and draw the figures with 'reversis-sim plot "
                                f"{out}'"):
            _print_summary(out, fmt)
            if figures:
                from .plot import write_figures

                paths.extend(write_figures(out, formats=("png",)))

    try:
        with folder_errors(out, kept), contextlib.ExitStack() as bars:
            cluster = bars.enter_context(on_cluster(scheduler))  # before the folder: an unusable one writes nothing
            bar = bars.enter_context(click.progressbar(
                length=spec.n_matches * spec.match_deals, label="deals", file=sys.stderr, hidden=not show,
                show_pos=True, show_eta=True, item_show_func=lambda rate: rate))
            started = time.perf_counter()
            done = [0]

            def progress(n: int) -> None:  # deals done, deals/s and ETA on the bar
                done[0] += n
                rate = done[0] / max(time.perf_counter() - started, 1e-9)
                bar.update(n, f"{rate:,.0f} deals/s")

            run(spec, out, resume=resume, force=force, engine=engine, threads=threads, progress=progress,
                then=finish, cluster=cluster, writer=writer)
    except OverflowError as e:  # the engine's chips would not fit 64 bits (kernel/layout.py MAX_POOL)
        raise click.ClickException(f"{e}; the chunks written before it are kept in {out}") from None
    except KeyboardInterrupt:
        done = len(completed_chunks(read_manifest(out))) if Path(out, "manifest.json").exists() else 0
        again = _resume_command(rules.name, rule_overrides, seats, deals, match_deals, seed, out, chunk_matches)
        click.echo(f"\ninterrupted: {done} of {spec.n_chunks} chunks are saved in {out}; continue with:\n  {again}",
                   err=True)
        sys.exit(130)
    if figures:
        if fmt == "text":
            click.echo(f"{len(paths)} figures in {Path(out) / 'figures'} (reversis-sim plot {out} adds SVG)")


def _resume_command(rules_name, rule_overrides, seats, deals, match_deals, seed, out, chunk_matches) -> str:
    parts = ["reversis-sim simulate", f"--rules {rules_name}"] + [f"--rule '{r}'" for r in rule_overrides]
    parts += [f"--seat '{s}'" for s in ([seats[0]] if len(set(map(str, seats))) == 1 else seats)]
    parts += [f"--deals {deals}", f"--seed {seed}", f"--out {out}", f"--chunk-matches {chunk_matches}"]
    if match_deals:
        parts.append(f"--match-deals {match_deals}")
    return " ".join(parts + ["--resume"])


def _print_summary(out, fmt) -> None:
    summary = summarize_run(out)
    if fmt == "json":
        click.echo(json.dumps(summary, indent=2))
        return
    click.echo(f"{summary['rules_label']}: {summary['n_deals']} deals in {summary['n_matches']} matches, "
               f"seed {summary['seed']}")
    click.echo(f"{'seat':>4}  {'policy':<24} {'fish/deal':>10}  {'95% CI':>19}   {'with pool share':>15}")
    for row in summary["seats"]:
        click.echo(f"{row['seat']:>4}  {row['policy']:<24} {row['mean']:>10.3f}  "
                   f"[{row['ci_low']:>8.3f}, {row['ci_high']:>8.3f}]   {row['zero_sum_mean']:>15.3f}")
    click.echo(f"(the pool keeps {summary['pool_left_per_match']:,.1f} fish per match on average at the end; "
               f"'with pool share' splits it equally, docs/RULES.md A34)")
    fate = ", ".join(f"{k} {v:.1%}" for k, v in summary["quinola_fate"].items())
    click.echo(f"Quinola (J♥) fate: {fate}")
    click.echo(f"Reversis: committed {summary['reversis_committed']}, made {summary['reversis_made']}; "
               f"espagnolette: declared {summary['espagnolette_declared']}, made {summary['espagnolette_made']}")


TABLES = ("fish_by_seat", "fish_by_seat_zero_sum", "fish_by_position", "fish_by_policy", "fish_by_reason",
          "quinola_fate", "quinola_fate_by_hearts", "quinola_fate_by_position", "quinola_cost", "quinola_others_pay",
          "reversis_rates")


@main.command()
@click.argument("run_dir", type=click.Path())
@click.option("--format", "fmt", type=click.Choice(["text", "json", "csv"]), default="text", show_default=True)
@click.option("--table", "tables", type=click.Choice(TABLES), multiple=True,
              help="Only these tables (csv takes exactly one; default: all, or fish_by_seat for csv).")
@click.option("--hand", "hand_features", multiple=True, type=click.Choice(HAND_FEATURES),
              help="Add the tables by this feature of the hand dealt: fish_by_<F> and quinola_by_<F> (repeatable; "
                   "'reversis-sim hands' also draws them).")
def analyze(run_dir, fmt, tables, hand_features):
    """Print the analysis of a run folder: expected fish per deal by seat, by position relative to the dealer
    and by policy (95% CIs, the match as the sampling unit); the Quinola's fate and cost for its holder; reversis
    and espagnolette rates with Wilson intervals; with --hand, outcomes by a feature of the hand dealt
    (conditional on the run's --predeal/--where, if any).

    \b
    Example:
      reversis-sim analyze results/demo --format json
    """
    with folder_errors(run_dir, "check the folder and its files"):
        all_tables = analysis_tables(run_dir)
        if hand_features:
            from .analysis.hands import by_hand, quinola_by_hand

            for f in hand_features:
                all_tables[f"fish_by_{f}"] = by_hand(run_dir, f)
                all_tables[f"quinola_by_{f}"] = quinola_by_hand(run_dir, f)
    extra = [n for f in hand_features for n in (f"fish_by_{f}", f"quinola_by_{f}")]
    names = list(tables) + extra if tables or fmt == "csv" else list(TABLES) + extra
    names = names or ["fish_by_seat"]
    if fmt == "csv":
        if len(names) != 1:
            raise click.UsageError("--format csv prints one table: give exactly one --table")
        click.echo(all_tables[names[0]].write_csv(), nl=False)
        return
    if fmt == "json":
        click.echo(json.dumps({n: all_tables[n].to_dicts() for n in names}, indent=2, default=str))
        return
    with pl.Config(tbl_rows=60, tbl_cols=12, float_precision=4, tbl_hide_dataframe_shape=True,
                   tbl_formatting="ASCII_MARKDOWN", tbl_hide_column_data_types=True):
        for n in names:
            click.echo(f"\n## {n.replace('_', ' ')}\n{all_tables[n]}")


@main.command()
@click.argument("run_dir", type=click.Path())
@click.option("--format", "formats", type=click.Choice(["png", "svg"]), multiple=True,
              help="Image formats (default: png and svg).")
def plot(run_dir, formats):
    """Draw the figures of a run folder into RUN_DIR/figures/: expected fish per deal by seat, position and
    policy; the distribution of fish per deal; convergence of the running mean; the Quinola's fate and cost;
    reversis and espagnolette rates. Every figure carries the run's rules, deal count and seed.

    \b
    Example:
      reversis-sim plot results/demo
    """
    from .plot import write_figures

    with folder_errors(Path(run_dir) / "figures", "fix that (free space, permissions) and draw again"):
        paths = write_figures(run_dir, formats=tuple(formats) or ("png", "svg"))
    click.echo(f"wrote {len(paths)} figures to {Path(run_dir) / 'figures'}")
    for p in paths:
        click.echo(f"  {p}")


@main.command("rules")
@click.argument("preset", required=False)
@rule_option
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
def rules_cmd(preset, rule_overrides, fmt):
    """List every rules preset with its source and its differences from parlett, or print every parameter of
    one preset (each can be changed with --rule NAME=VALUE on simulate, replay, compare, tournament and sweep;
    give --rule here to see the result).

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
            click.echo(json.dumps(items, indent=2))
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
        click.echo(json.dumps(data, indent=2))
        return
    click.echo(f"{data['label']}: {r.source}")
    for k, v in params.items():
        mark = ("  + (--rule)" if k in changed else "") + ("  *" if k in data["differences_from_parlett"] else "")
        click.echo(f"  {k:<32} {override_text(v)}{mark}")
    click.echo("(* differs from parlett; change any parameter with --rule NAME=VALUE, written as above)")


@main.command()
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
def policies(fmt):
    """List the policy families, their parameters, defaults and ranges, and the named presets.

    \b
    Example:
      reversis-sim policies --format json
    """
    items = [{"name": f.name, "kind": "family", "idea": f.idea,
              "params": [{"name": p.name, "default": p.default, "low": p.low, "high": p.high, "doc": p.doc}
                         for p in f.params]} for f in FAMILIES.values()]
    for it, f in zip(items, FAMILIES.values()):
        if f.searches:
            it["rollout"] = {"default": f.rollout, "doc": ROLLOUT_DOC}
    items += [{"name": name, "kind": "preset", "spec": str(parse_spec(text))}
              for name, text in NAMED.items() if name not in FAMILIES]
    if fmt == "json":
        click.echo(json.dumps(items, indent=2))
        return
    for it in items:
        if it["kind"] == "preset":
            continue
        click.echo(f"{it['name']:<12} {it['idea']}")
        for p in it["params"]:
            click.echo(f"    {p['name']}={p['default']:g} in [{p['low']:g}, {p['high']:g}]: {p['doc']}")
        if "rollout" in it:
            click.echo(f"    rollout={it['rollout']['default']}: {it['rollout']['doc']}")
    click.echo("named presets:")
    presets = [it for it in items if it["kind"] == "preset"]
    width = max((len(it["name"]) for it in presets), default=0)
    for it in presets:
        click.echo(f"    {it['name']:<{width}} = {it['spec']}")


def _register_more() -> None:
    from . import cli_compare, cli_folders, cli_tune

    cli_compare.register(main)
    cli_folders.register(main)
    cli_tune.register(main)


_register_more()
