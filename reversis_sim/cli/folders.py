"""The ``reversis-sim`` commands on a run folder once it is written: ``hands`` (outcomes by the hand dealt),
``repair`` (a lost manifest rebuilt from the parts) and ``upgrade`` (a folder of an older schema rewritten)."""

from __future__ import annotations

import json
from pathlib import Path

import click
import polars as pl

from .analysis.hands import FEATURES as HAND_FEATURES
from .cli_options import folder_errors
from .record import SCHEMA_VERSION, completed_chunks, read_manifest, repair_manifest
from .record.upgrade import upgrade as upgrade_folder


def register(main: click.Group) -> None:
    """Add the commands of this module to the ``reversis-sim`` group."""

    @main.command()
    @click.argument("run_dir", type=click.Path())
    def repair(run_dir):
        """Rebuild the manifest of a run folder from its part files, after manifest.json was lost or damaged: every
        part carries its run's description, chunk and row count. Parts of another run are refused; damaged parts are
        left out, and 'simulate ... --resume' recomputes them.

        \b
        Example:
          reversis-sim repair results/demo
        """
        with folder_errors(run_dir, "fix that and repair again"):
            manifest = repair_manifest(run_dir)
        done, total = len(completed_chunks(manifest)), manifest["n_chunks"]
        next_step = (f"analyze it with 'reversis-sim analyze {run_dir}'" if done == total else
                     "finish it with the simulate command that started it, and --resume")
        click.echo(f"rebuilt {Path(run_dir) / 'manifest.json'} from the parts: {manifest['rules']}, seed "
                   f"{manifest['seed']}, {done:,} of {total:,} chunks complete; {next_step}")


    @main.command()
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
        from .analysis.hands import by_hand, conditioning, quinola_by_hand

        features = features or ("hearts", "guards", "aces", "voids")
        with folder_errors(run_dir, "fix that and run it again"):
            cond = conditioning(run_dir)
            tables = {}
            for f in features:
                tables[f"fish_by_{f}"] = by_hand(run_dir, f)
                tables[f"quinola_by_{f}"] = quinola_by_hand(run_dir, f)
            paths = []
            if figures:
                from .plot import run_caption, your_hand
                from .plot.files import save_figure

                caption = run_caption(read_manifest(run_dir))
                where = None if cond["deals"] is None else json.dumps(cond["deals"])
                for f in features:
                    fig = your_hand(tables[f"fish_by_{f}"], tables[f"quinola_by_{f}"], f, caption=caption,
                                    conditional=where)
                    paths.append(save_figure(fig, Path(run_dir) / "figures" / f"hand_{f}.png"))
        if fmt == "json":
            click.echo(json.dumps({"conditioning": cond, **{k: v.to_dicts() for k, v in tables.items()}}, indent=2,
                                  default=str))
        else:
            if cond["deals"] is not None:
                share = "unknown share" if cond["acceptance"] is None else f"{cond['acceptance']:.2%} of shuffles"
                click.echo(f"conditional on the deals meeting {json.dumps(cond['deals'])} ({share}): rates and means "
                           f"are among those deals")
            for name, t in tables.items():
                if fmt == "csv":
                    click.echo(f"# {name}")
                    click.echo(t.write_csv(), nl=False)
                else:
                    click.echo(f"\n## {name.replace('_', ' ')}")
                    with pl.Config(tbl_rows=-1, tbl_cols=-1, tbl_width_chars=200, tbl_formatting="MARKDOWN",
                                   tbl_hide_dataframe_shape=True, tbl_hide_column_data_types=True):
                        click.echo(t)
        for p in paths:
            click.echo(f"wrote {p}", err=True)


    @main.command()
    @click.argument("run_dir", type=click.Path())
    def upgrade(run_dir):
        """Rewrite a run folder of schema version 1 (one table with a paid and a received column per reason) in
        version 2 (a lean seat table and a payments table, docs/schema.md), in place and row for row; run it again to
        finish an interrupted upgrade.

        \b
        Example:
          reversis-sim upgrade results/demo
        """
        with folder_errors(run_dir, "fix that and upgrade again"):
            done, before = upgrade_folder(run_dir)
        click.echo(f"upgraded {run_dir} to schema version {SCHEMA_VERSION}: {done:,} chunks rewritten"
                   + (f", {before:,} already done by an earlier upgrade" if before else "")
                   + f"; analyze it with 'reversis-sim analyze {run_dir}'")
