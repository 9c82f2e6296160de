"""``reversis-sim simulate | replay | bench``: playing deals (a run into a folder, one deal's record, the engines'
pace). Parse, call the library, print."""

from __future__ import annotations

import contextlib
import os
import sys
from pathlib import Path

import click

from ..cluster import WRITERS
from ..engines import ENGINES
from ..record import MAX_CHUNK_DEALS, MAX_DEALS, MAX_MATCH_DEALS, MAX_MATCHES
from ..rules import RulesError
from .compiling import compiling_notice
from .options import (
    DEFAULT_SEAT,
    command,
    continue_command,
    deals_from,
    exit_interrupted,
    fail,
    folder_errors,
    json_text,
    kept_records,
    on_cluster,
    rule_option,
    rules_option,
    scheduler_option,
    seat_option,
    seats_of,
    seed_option,
    threads_option,
    with_constraint_options,
    with_rule_overrides,
)
from .pages import FILE_FORMATS, FORMAT_HELP, output_option, planned_output, record_file_stem, write_shown
from .shown_run import ShownRun


@command("replay")
@rules_option
@rule_option
@seed_option
@click.option("--match", type=click.IntRange(0, MAX_MATCHES - 1), default=0, show_default=True,
              help="Match number.")
@click.option("--deal", type=int, default=None, help="Deal number within the match (0-based); omit for every deal.")
@seat_option
@click.option("--indent", type=click.IntRange(0, 8), default=None,
              help="Pretty-print a single deal's JSON with this indent.")
@click.option("--engine", type=click.Choice(ENGINES), default="numba", show_default=True,
              help="Which engine plays the deal; both print the same record.")
@click.option("--format", "fmt", type=click.Choice(["json", "text", *FILE_FORMATS]), default="json",
              show_default=True, help="json: the deal record; text: the deal as a diagram (hands by suit, the "
                                      f"exchange, the tricks, what moved, the fish); {FORMAT_HELP}.")
@click.option("--ascii", "ascii_", is_flag=True, help="With --format text: suits as S H D C, no Unicode.")
@output_option
@click.option("--force", is_flag=True, help="With --format html or svg: replace the --output file if it exists.")
@click.option("--record", "record_file", type=click.Path(path_type=Path), default=None, metavar="FILE",
              help="Replay the deal records of FILE (a games file of 'play --out', or what replay wrote) instead of "
                   "dealing anew: each is played again card by card by the reference engine and must settle the "
                   "same; --deal K: its K-th record (0 the first).")
@with_constraint_options
@click.pass_context
def replay(ctx, rules, rule_overrides, seed, match, deal, seat_specs, indent, engine, fmt, ascii_, output, force,
           record_file, predeal, where):
    """Print the deal record (RULES.md Appendix A) of one deal as JSON, or of every deal of a match, one JSON
    object per line, in order; or, with --format text, each deal as a diagram a card player reads; with --format
    html, a page to open in a browser (svg: the diagram as a picture). Any deal is reproduced from (rules, seats,
    seed, match, deal) alone.

    \b
    Example:
      reversis-sim replay --rules parlett --seed 7 --match 0 --deal 3 --seat random
      reversis-sim replay --rules parlett --seed 7 --match 0 --deal 3 --seat tuned --format text
      reversis-sim replay --record games/games.jsonl --deal 0 --format text
      reversis-sim replay --seed 7 --match 0 --format html --output match.html
    """
    from ..engines import get_engine

    if indent is not None and fmt != "json":
        raise click.UsageError(f"--indent pretty-prints the JSON record; it has no meaning with --format {fmt}")
    if ascii_ and fmt != "text":
        raise click.UsageError("--ascii chooses the suits of the text diagram; add --format text")
    if record_file is not None:
        target = planned_output(fmt, output, force, record_file_stem(record_file) +
                                ("" if deal is None else f"_deal{deal}"))
        records = kept_records(ctx, record_file, deal)
        if target is not None:
            return write_shown(target, fmt, records)
        for i, record in enumerate(records):
            if fmt == "text" and i:
                click.echo("")
            click.echo(_shown(record, fmt, indent, ascii_))
        return
    rules = with_rule_overrides(rules, rule_overrides)
    seats = seats_of(rules, seat_specs)
    if deal is not None and not 0 <= deal < rules.match_deals:
        raise click.BadParameter(f"deal {deal} is out of range: a {rules.name} match has {rules.match_deals} deals "
                                 f"(0..{rules.match_deals - 1})", param_hint="'--deal'")
    if fmt == "svg" and deal is None:
        raise click.UsageError("--format svg draws one deal: give --deal D (--format html draws a whole match)")
    target = planned_output(fmt, output, force, f"{rules.name}_seed{seed}_match{match}" +
                            ("" if deal is None else f"_deal{deal}"))
    play = get_engine(engine)
    try:
        play.check(rules)
    except RulesError as e:
        raise click.BadParameter(str(e), param_hint="'--engine'") from None
    deals = deals_from(rules, predeal, where, quiet=True)
    with compiling_notice():
        if deal is not None:
            try:
                record = play.deal_record(rules, seats, seed=seed, match=match, deal=deal, deals=deals)
            except ValueError as e:  # a parlett_simple match that ended before this deal
                raise click.BadParameter(str(e), param_hint="'--deal'") from None
            if target is not None:
                return write_shown(target, fmt, [record])
            click.echo(_shown(record, fmt, indent, ascii_))
            return
        records = play.match_records(rules, seats, seed=seed, match=match, deals=deals)
    if target is not None:
        return write_shown(target, fmt, list(records))
    for i, record in enumerate(records):
        if fmt == "text" and i:
            click.echo("")
        click.echo(_shown(record, fmt, indent, ascii_))


def _shown(record: dict, fmt: str, indent: int | None, ascii_: bool) -> str:
    """A deal record as ``replay`` prints it: the JSON record, or the diagram."""
    if fmt == "json":
        return json_text(record, indent=indent)
    from ..game.diagram import diagram
    from ..policies import display_name

    return diagram(record, ascii=ascii_, names=[display_name(x) for x in record["seats"]])


def default_out(rules_name: str, seed: int, n_deals: int) -> str:
    return f"results/{rules_name}_seed{seed}_{n_deals}deals"


@command("simulate")
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
@click.option("--chunk-matches", type=click.IntRange(1), default=None,
              help=f"Matches per part file (memory is bounded by one chunk: at most {MAX_CHUNK_DEALS:,} deals; "
                   f"default 2,048, or as many as {MAX_CHUNK_DEALS:,} deals hold where matches are long).")
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
@click.pass_context
def simulate(ctx, rules, rule_overrides, seat_specs, deals, match_deals, seed, out, resume, force, threads,
             chunk_matches, engine, fmt, quiet, figures, predeal, where, scheduler, writer):
    """Play whole matches of Reversis and stream every deal into a run folder (Parquet part files and a
    manifest), then print a summary. A killed or interrupted run continues with --resume and ends with exactly
    the rows of an uninterrupted run.

    \b
    Example:
      reversis-sim simulate --rules parlett --seat random --deals 120000 --seed 1 --out results/demo
    """
    from ..engines import get_engine
    from ..record import RunSpec

    if resume and force:
        raise click.UsageError("--resume and --force exclude each other: resume keeps the run, force replaces it")
    rules = with_rule_overrides(rules, rule_overrides)
    seats = seats_of(rules, seat_specs)
    constraints = deals_from(rules, predeal, where, quiet=quiet)
    try:
        spec = RunSpec.for_deals(rules, seats, deals=deals, seed=seed, match_deals=match_deals,
                                 chunk_matches=chunk_matches, constraints=constraints)
        get_engine(engine).check(rules)
    except (ValueError, RulesError) as e:  # out of bounds, or a rule set the engine cannot play: nothing is created
        raise click.UsageError(str(e)) from None
    out = out or default_out(rules.name, seed, spec.n_matches * spec.match_deals)
    blocked = next((p for p in Path(out).absolute().parents if p.exists() and not p.is_dir()), None)
    if blocked is not None:  # said before anything starts, rather than as a write that failed
        raise click.UsageError(f"--out {out}: {blocked} is a file, not a folder; choose another --out")
    kept = "every chunk written so far is kept: fix that (free space, permissions) or choose another --out"
    shown = ShownRun(out, fmt, quiet, figures, constraints)

    from ..simulate import run  # the heavy part (the engine, Parquet) loads once the command line is found good

    try:
        with folder_errors(out, kept), contextlib.ExitStack() as bars:
            cluster = bars.enter_context(on_cluster(scheduler))  # before the folder: an unusable one writes nothing
            with compiling_notice(quiet):  # the engine loaded (or compiled) before the bar starts counting
                if cluster is None:
                    get_engine(engine).warm(rules, seats)
                else:
                    cluster.prepare(rules, seats, engine)
            shown.start(bars, spec.n_matches * spec.match_deals)
            run(spec, out, resume=resume, force=force, engine=engine, threads=threads, cluster=cluster,
                writer=writer, watch=shown)
    except OverflowError as e:  # the engine's chips would not fit 64 bits (kernel/layout.py MAX_POOL)
        raise click.ClickException(f"{e}; the chunks written before it are kept in {out}") from None
    except KeyboardInterrupt:
        interrupted(ctx, out, spec.n_chunks)
    except click.ClickException as e:  # a cluster lost mid-run, a full disk: what was written is kept
        if shown.stage == "running":
            e.message += f"; continue with: {continue_command(ctx, out=out)}"
        raise
    if figures and fmt == "text":
        click.echo(f"{len(shown.paths)} figures in {Path(out) / 'figures'} (reversis-sim plot {out} adds SVG)")


def interrupted(ctx: click.Context, out: str, n_chunks: int):
    """Ctrl-C during a run: say how much is saved and the exact command that continues it; exit status 130."""
    from ..record import completed_chunks, read_manifest

    done = len(completed_chunks(read_manifest(out))) if Path(out, "manifest.json").exists() else 0
    click.echo(f"\ninterrupted: {done} of {n_chunks} chunks are saved in {out}; continue with:\n  "
               f"{continue_command(ctx, out=out)}", err=True)
    exit_interrupted()


@command("bench")
@rules_option
@click.option("--seat", "seat_specs", multiple=True, metavar="SPEC", help="Seat policies (default: random).")
@click.option("--deals", type=click.IntRange(1), default=None,
              help="Deals per kernel measurement (default 240,000; with --search 1,200).")
@click.option("--threads", type=click.IntRange(1), default=None, help="'All threads' (default: all cores).")
@click.option("--search", "search_specs", multiple=True, metavar="SPEC",
              help="Measure these search settings instead (repeatable): one search seat among three --field.")
@click.option("--field", default="tuned", show_default=True, metavar="SPEC",
              help="With --search: the other seats' policy.")
@click.option("--compile", "cold", is_flag=True,
              help="Measure the cold start instead: each command's first run from an empty numba cache (seconds to "
                   "its first line, kernel by kernel what it compiles), then every kernel of the package.")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
def bench(rules, seat_specs, deals, threads, search_specs, field, cold, fmt):
    """Measure, in one run, the deals per second of the reference engine, of the numba kernel on one thread
    and on all threads, and of a whole run written to disk (simulate --no-figures, startup excluded), their
    ratios and the bytes per deal on disk (shared machines are noisy: compare ratios, not absolutes).
    With --search: the cost of each search setting, deals per second per core and on all threads, the
    searching seat's cards per second, and how many times slower than the --field table (same run).

    \b
    Example:
      reversis-sim bench --seat avoid --deals 120000 --format json
      reversis-sim bench --search search:worlds=4 --search search:worlds=16
      reversis-sim bench --compile
    """
    from ..policies import PolicySpecError

    if cold:
        _bench_compile(fmt)
        return
    if search_specs:
        _bench_search(rules, search_specs, field, deals or 1_200, threads, fmt)
        return
    from ..bench import measure

    try:
        with compiling_notice(fmt == "json"):
            r = measure(rules, list(seat_specs) or ["random"], deals or 240_000, threads=threads)
    except (ValueError, PolicySpecError, RulesError) as e:
        fail(e)
    r["ratio_1_thread"] = r["kernel_deals_per_s_1_thread"] / r["reference_deals_per_s"]
    r["ratio_all_threads"] = r["kernel_deals_per_s_all_threads"] / r["reference_deals_per_s"]
    if fmt == "json":
        click.echo(json_text(r))
        return
    click.echo(f"{rules.name}, seats {' '.join(r['seats'])}: {r['n_deals']:,} kernel deals, "
               f"{r['reference_deals']:,} reference deals")
    click.echo(f"{'engine':<32}{'deals/s':>14}{'x reference':>14}")
    ref = r["reference_deals_per_s"]
    for name, key in (("reference (pure Python)", "reference_deals_per_s"),
                      ("kernel, 1 thread", "kernel_deals_per_s_1_thread"),
                      (f"kernel, {r['threads']} threads", "kernel_deals_per_s_all_threads"),
                      ("end to end (simulate, no figures)", "end_to_end_deals_per_s")):
        click.echo(f"{name:<32}{r[key]:>14,.0f}{r[key] / ref:>14,.0f}")
    click.echo(f"end to end / kernel on {r['threads']} threads: {r['end_to_end_vs_kernel']:.2f} "
               f"({r['end_to_end_vs_kernel_core']:.2f} of the kernel core)")
    click.echo(f"writer, 1 thread: {r['writer_deals_per_s_1_thread']:,.0f} deals/s, "
               f"{r['writer_vs_kernel_1_thread']:.2f} cores of writing per core of play; tables built in "
               f"{r['table_build_ns_per_deal']:.0f} ns a deal")
    click.echo(f"bytes per deal: Arrow {r['arrow_bytes_per_deal']:.0f} (seats "
               f"{r['arrow_seat_bytes_per_deal']:.0f}, payments {r['arrow_payment_bytes_per_deal']:.0f}, "
               f"{r['payment_rows_per_deal']:.1f} rows); disk {r['disk_bytes_per_deal']:.1f} (seats "
               f"{r['disk_seat_bytes_per_deal']:.1f}, payments {r['disk_payment_bytes_per_deal']:.1f})")
    sys.stdout.flush()


def _bench_compile(fmt):
    """``bench --compile``: the table of :func:`reversis_sim.bench.measure_compile`."""
    from ..bench import measure_compile

    def said(name, r):
        if fmt == "text":
            first = "" if r["first_line_s"] is None else f"{r['first_line_s']:.1f} s to its first line, "
            click.echo(f"{name}: {first}{r['end_s']:.1f} s in all, {r['cpu_s']:.1f} s of CPU; compiled "
                       f"{r['compiled']} functions")
            for kernel, t in sorted(r["kernels"].items(), key=lambda kv: -kv[1])[:8]:
                click.echo(f"    {t:6.1f} s  {kernel}")

    if fmt == "text":
        click.echo(f"each from an empty numba cache, on {os.cpu_count()} cores (minutes; a pseudo-terminal each)")
    r = measure_compile(progress=said)
    if fmt == "json":
        click.echo(json_text(r))


def _bench_search(rules, specs, field, deals, threads, fmt):
    """``bench --search``: the table of :func:`reversis_sim.bench.measure_search`."""
    from ..bench import measure_search
    from ..policies import PolicySpecError

    try:
        with compiling_notice(fmt == "json"):
            r = measure_search(rules, list(specs), field, deals, threads=threads)
    except (ValueError, PolicySpecError, RulesError) as e:
        fail(e)
    if fmt == "json":
        click.echo(json_text(r))
        return
    click.echo(f"{r['rules']}: one search seat among three {r['field']}, {r['n_deals']:,} deals per measurement; "
               f"{r['field']} in every seat: {r['field_deals_per_s_1_thread']:,.0f} deals/s on one thread")
    click.echo(f"{'setting':<36}{'deals/s/core':>14}{'deals/s ' + str(r['threads']) + ' threads':>20}"
               f"{'its cards/s/core':>18}{'x slower':>10}")
    for row in r["rows"]:
        click.echo(f"{row['setting']:<36}{row['deals_per_s_1_thread']:>14,.0f}{row['deals_per_s_all_threads']:>20,.0f}"
                   f"{row['cards_per_s_1_thread']:>18,.0f}{row['x_field']:>10,.0f}")
