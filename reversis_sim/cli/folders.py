"""``reversis-sim analyze | plot | hands | repair | upgrade``: a run folder once it is written (its tables, its
figures, outcomes by the hand dealt, a lost manifest rebuilt, an older schema rewritten). Parse, call the library,
print."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import click

from ..analysis.names import HAND_FEATURES, TABLES, hand_feature_of, hand_table_names
from .options import (
    command,
    conditional_on,
    estimator_note,
    folder_errors,
    json_text,
    refusal_note,
    shown_frame,
)

TEXT_TABLES = dict(tbl_rows=60, tbl_cols=12, float_precision=4, tbl_hide_dataframe_shape=True,
                   tbl_formatting="ASCII_MARKDOWN", tbl_hide_column_data_types=True, tbl_width_chars=200)
"""How ``analyze`` prints a table as text (``polars.Config``; wide enough that no name or number is cut into
lines when the output is not a terminal, where polars would otherwise fit it into 100 characters)."""


def _share(cond: dict) -> str:
    """How common a constrained run's deals are (:func:`reversis_sim.analysis.hands.conditioning`), in words."""
    if cond["acceptance"] is not None:
        return f"{cond['acceptance']:.2%} of all deals"
    if cond["passed"] is None:
        return "share of all deals unknown"
    where = "" if "where" not in cond["deals"] else f"; {cond['passed']:.2%} of shuffles met --where"
    return f"share of all deals not measured: --predeal places its cards in every deal{where}"


def one_policy_note(frame) -> str | None:
    """The sentence under fish by reason at a table of one policy, else None: every payment between two of its
    seats is paid and received by that policy, so its side payments add up to nothing."""
    if not {"policy", "reason"} <= set(frame.columns) or frame.height == 0 or frame["policy"].n_unique() != 1:
        return None
    return ("(one policy at every seat: what one of its seats pays another it also receives, so the side payments "
            "add up to 0 here and only the antes and what goes to and from the pool are left; a table of different "
            "policies shows who pays whom)")


@command("analyze")
@click.argument("run_dir", type=click.Path())
@click.option("--format", "fmt", type=click.Choice(["text", "json", "csv"]), default="text", show_default=True)
@click.option("--table", "tables", type=click.Choice(TABLES + hand_table_names()), multiple=True,
              help="Only these tables, a table by the hand dealt included (fish_by_hearts) (csv takes exactly one; "
                   "default: all, or fish_by_seat for csv).")
@click.option("--hand", "hand_features", multiple=True, type=click.Choice(HAND_FEATURES),
              help="Add the tables by this feature of the hand dealt: fish_by_<F>, quinola_by_<F> and "
                   "quinola_cost_by_<F> (repeatable; with --table, only the tables named are printed; 'reversis-sim "
                   "hands' also draws them).")
def analyze(run_dir, fmt, tables, hand_features):
    """Print the analysis of a run folder: expected fish per deal by seat, by position relative to the dealer
    and by policy (95% CIs, the match as the sampling unit); the Quinola's fate and cost for its holder; reversis
    and espagnolette rates with exact (Clopper-Pearson) intervals; with --hand, outcomes by a feature of the hand dealt
    (conditional on the run's --predeal/--where, if any).

    \b
    Example:
      reversis-sim analyze results/demo --format json
    """
    import polars as pl

    from ..analysis import analysis_tables
    from ..analysis.hands import hand_tables
    from ..record import read_manifest

    extra = list(hand_table_names(hand_features))
    if tables:
        names = list(dict.fromkeys(tables))
    else:
        names = (extra or ["fish_by_seat"]) if fmt == "csv" else list(TABLES) + extra
    if fmt == "csv" and len(names) != 1:
        raise click.UsageError("--format csv prints one table: give exactly one --table")
    features = list(dict.fromkeys([*hand_features, *(f for f in map(hand_feature_of, names) if f)]))
    with folder_errors(run_dir, "check the folder and its files"):
        all_tables = analysis_tables(run_dir) if any(n in TABLES for n in names) else {}
        if features:
            all_tables.update(hand_tables(run_dir, features))
    if fmt == "csv":  # a refused interval empty, as JSON's null and the text's
        click.echo(shown_frame(all_tables[names[0]]).write_csv(), nl=False)
        return
    if fmt == "json":
        click.echo(json_text({n: all_tables[n].to_dicts() for n in names}))
        return
    with folder_errors(run_dir, "check the folder and its files"):
        manifest = read_manifest(run_dir)
        match_deals, pool = manifest["match_deals"], stake_name(manifest)
    if manifest.get("deals"):  # a constrained run: every table is among the deals meeting its constraints
        click.echo(f"{conditional_on(manifest['deals'])}: every table below is among those deals")
    with pl.Config(**TEXT_TABLES):
        for n in names:
            click.echo(f"\n## {n.replace('_', ' ')}\n{shown_frame(all_tables[n])}")
            for note in (refusal_note(all_tables[n], match_deals), one_policy_note(all_tables[n])):
                if note:
                    click.echo(note)
            how = estimator_note(all_tables[n], pool)
            if how:
                click.echo(textwrap.fill(how, width=100))


@command("plot")
@click.argument("run_dir", type=click.Path())
@click.option("--format", "formats", type=click.Choice(["png", "svg"]), multiple=True,
              help="Image formats (default: png and svg).")
def plot(run_dir, formats):
    """Draw the figures of a run folder into RUN_DIR/figures/: expected fish per deal by seat, position and
    policy; the distribution of fish per deal; convergence of the running mean; the Quinola's fate and cost;
    reversis and espagnolette rates. Every figure carries the run's rules, deal count and seed. Of a review folder
    (review --policy --out): where the player loses fish, by trick and kind.

    \b
    Example:
      reversis-sim plot results/demo
      reversis-sim plot results/review_avoid --format svg
    """
    formats = tuple(formats) or ("png", "svg")
    with folder_errors(Path(run_dir) / "figures", "fix that (free space, permissions) and draw again"):
        if _is_review_folder(Path(run_dir)):
            from ..plot.review_figures import write_review_figure
            from ..review.batch import read_review
            from ..review.summary import summarize_review

            paths = write_review_figure(run_dir, summarize_review(*read_review(Path(run_dir))), formats)
        else:
            from ..plot import write_figures

            paths = write_figures(run_dir, formats=formats)
    click.echo(f"wrote {len(paths)} figure{'s' if len(paths) != 1 else ''} to {Path(run_dir) / 'figures'}")
    for p in paths:
        click.echo(f"  {p}")


def stake_name(manifest: dict) -> str:
    """What the rules a run played call the pool (the pool, the pot, the bank)."""
    from ..game.words import pool_name
    from ..rules import Rules

    return pool_name(Rules.from_params(manifest["rules"], manifest["rules_params"]))


def _is_review_folder(folder: Path) -> bool:
    """Whether ``folder`` holds a review (``review --policy --out``): its manifest names a review's format."""
    try:
        return str(json.loads((folder / "manifest.json").read_text()).get("format", "")).startswith(
            "reversis-review/")
    except (OSError, ValueError, AttributeError):
        return False


@command("repair")
@click.argument("run_dir", type=click.Path())
def repair(run_dir):
    """Rebuild the manifest of a run folder from its part files, after manifest.json was lost or damaged: every
    part carries its run's description, chunk and row count. Parts of another run are refused; damaged parts are
    left out, and 'simulate ... --resume' recomputes them.

    \b
    Example:
      reversis-sim repair results/demo
    """
    from ..record import completed_chunks, repair_manifest

    with folder_errors(run_dir, "fix that and repair again"):
        manifest = repair_manifest(run_dir)
    done, total = len(completed_chunks(manifest)), manifest["n_chunks"]
    next_step = (f"analyze it with 'reversis-sim analyze {run_dir}'" if done == total else
                 "finish it with the simulate command that started it, and --resume")
    click.echo(f"rebuilt {Path(run_dir) / 'manifest.json'} from the parts: {manifest['rules']}, seed "
               f"{manifest['seed']}, {done:,} of {total:,} chunks complete; {next_step}")


@command("hands")
@click.argument("run_dir", type=click.Path())
@click.option("--feature", "features", multiple=True, type=click.Choice(HAND_FEATURES),
              help="Hand features to tabulate (repeatable; default hearts, guards, aces, voids).")
@click.option("--format", "fmt", type=click.Choice(["text", "json", "csv"]), default="text", show_default=True)
@click.option("--figures/--no-figures", default=True, show_default=True,
              help="Draw one figure per feature into RUN_DIR/figures/hand_<feature>.png.")
def hands(run_dir, features, fmt, figures):
    """Outcomes by the hand dealt: for each value of a feature of a seat's dealt hand (heart length, the J♥'s
    guards, Aces, voids, top cards, card points), the seats' expected fish per deal, the J♥ holder's cost and the
    Quinola's fate, with 95% intervals. On a run of constrained deals (--predeal, --where) the tables are
    conditional on the constraint, and say so (docs/constraints.md).

    \b
    Example:
      reversis-sim simulate --predeal 0=JH --deals 240000 --out results/holder
      reversis-sim hands results/holder --feature guards
    """
    import polars as pl

    from ..analysis.hands import conditioning, hand_tables
    from ..record import read_manifest

    features = features or ("hearts", "guards", "aces", "voids")
    with folder_errors(run_dir, "fix that and run it again"):
        cond = conditioning(run_dir)
        match_deals, pool = read_manifest(run_dir)["match_deals"], stake_name(read_manifest(run_dir))
        tables = hand_tables(run_dir, features)
        paths = []
        if figures:
            from ..plot import write_hand_figures

            paths = write_hand_figures(run_dir, tables, features, manifest=read_manifest(run_dir),
                                       conditional=None if cond["deals"] is None else json.dumps(cond["deals"]))
    if fmt == "json":
        click.echo(json_text({"conditioning": cond, **{k: v.to_dicts() for k, v in tables.items()}}))
    else:
        if cond["deals"] is not None:
            share = _share(cond)
            click.echo(f"{conditional_on(cond['deals'])} ({share}): rates and means are among those deals")
        for name, t in tables.items():
            if fmt == "csv":
                click.echo(f"# {name}")
                click.echo(shown_frame(t).write_csv(), nl=False)
            else:
                click.echo(f"\n## {name.replace('_', ' ')}")
                # every row and column, none cut into lines: the tables by the hand dealt are wide
                with pl.Config(tbl_rows=-1, tbl_cols=-1, tbl_width_chars=1000, tbl_formatting="MARKDOWN",
                               tbl_hide_dataframe_shape=True, tbl_hide_column_data_types=True):
                    click.echo(shown_frame(t))
                note = refusal_note(t, match_deals)
                if note:
                    click.echo(note)
                how = estimator_note(t, pool)
                if how:
                    click.echo(textwrap.fill(how, width=100))
    for p in paths:
        click.echo(f"wrote {p}", err=True)


@command("upgrade")
@click.argument("run_dir", type=click.Path())
def upgrade(run_dir):
    """Rewrite a run folder of an older schema in the current one (version 3: a lean seat table with each seat's
    dealt hand, and a payments table, docs/schema.md), in place and row for row: version 1 (one table with a paid
    and a received column per reason) or version 2 (no dealt hands); run it again to finish an interrupted
    upgrade.

    \b
    Example:
      reversis-sim upgrade results/demo
    """
    from ..record import SCHEMA_VERSION, RunError, read_manifest
    from ..record.upgrade import upgrade as upgrade_folder

    try:  # a run folder this version reads whole: nothing to do, which is not a failure
        read_manifest(run_dir)
    except (RunError, OSError):
        pass  # an older version (or not a run folder): the upgrade says which
    else:
        click.echo(f"{run_dir} is already in schema version {SCHEMA_VERSION}: nothing to upgrade")
        return
    with folder_errors(run_dir, "fix that and upgrade again"):
        done, before = upgrade_folder(run_dir)
    click.echo(f"upgraded {run_dir} to schema version {SCHEMA_VERSION}: {done:,} chunks rewritten"
               + (f", {before:,} already done by an earlier upgrade" if before else "")
               + f"; analyze it with 'reversis-sim analyze {run_dir}'")
