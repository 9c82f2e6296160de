"""What ``replay``, ``review`` and ``play --show`` share to write a deal into a file: ``--format html``, the deal
page a person opens in a browser (:mod:`reversis_sim.plot.page`: one deal, its review, or a match as its list of
deals), or ``--format svg``, the deal's diagram as a picture for documents (:mod:`reversis_sim.game.picture`, one
deal). The file is ``--output FILE`` (by default a name from the deal, in the current folder); a file that exists
is replaced only with ``--force``, and nothing is written until everything shown has been computed and checked.
"""

from __future__ import annotations

from pathlib import Path

import click

FILE_FORMATS = ("html", "svg")
"""The formats written into a file rather than printed."""

FORMAT_HELP = ("html: a page to open in a browser (the table from above, the tricks forward and back with the arrow "
               "keys, a match as its list of deals), into --output; svg: the diagram as a picture for documents, one "
               "deal")

output_option = click.option(
    "--output", type=click.Path(dir_okay=False, path_type=Path), default=None, metavar="FILE",
    help="With --format html or svg: the file to write (default: a name from the deal, in the current folder; "
         "an existing file is replaced only with --force).")


def record_file_stem(path: Path) -> str:
    """The name a file of deal records lends to what is drawn from it: ``games`` for ``games/games.jsonl`` or the
    folder ``games``."""
    path = Path(path)
    return path.name if path.is_dir() else path.stem


def planned_output(fmt: str, output: Path | None, force: bool, default: str) -> Path | None:
    """The file that ``--format html`` or ``svg`` writes (``output``, or ``default`` in the current folder), refused
    in one sentence (exit status 2) before anything is computed: a file that exists without ``force``, a folder, a
    folder that does not exist; None for a format that prints (``--output`` and ``--force`` are then refused)."""
    if fmt not in FILE_FORMATS:
        given = [name for name, value in (("--output", output), ("--force", force)) if value]
        if given:
            raise click.UsageError(f"{' and '.join(given)} belong{'s' if len(given) == 1 else ''} to the file of "
                                   f"--format html or svg; --format {fmt} prints: leave "
                                   f"{'it' if len(given) == 1 else 'them'} out")
        return None
    path = Path(output) if output is not None else Path(f"{default}.{fmt}")
    if path.is_dir():
        raise click.BadParameter(f"{path} is a folder: give the file to write", param_hint="'--output'")
    if path.exists() and not force:
        raise click.BadParameter(f"{path} exists: give --force to replace it, or another --output",
                                 param_hint="'--output'")
    if not path.parent.is_dir():
        raise click.BadParameter(f"the folder of {path} does not exist: create it first", param_hint="'--output'")
    return path


def drawn(fmt: str, shown: list[dict]) -> str:
    """The text of the file: the page of the deals ``shown`` (deal records or reviews), or one deal's picture with a
    review's marks on its cards."""
    if fmt == "html":
        from ..plot.page import deal_page

        return deal_page(shown)
    if len(shown) != 1:
        raise click.UsageError(f"--format svg draws one deal and {len(shown)} are shown: choose one with --deal K "
                               f"(--format html draws them all)")
    from ..game.picture import deal_svg

    one = shown[0]
    if "decisions" in one:
        marks = {(x["trick"], x["position"]): x["mark"] for x in one["decisions"] if x["mark"] and x["trick"] > 0}
        return deal_svg(one["record"], marks)
    return deal_svg(one)


def write_shown(path: Path, fmt: str, shown: list[dict]) -> None:
    """Write the file of ``shown`` (:func:`drawn`) whole at ``path`` (under a temporary name, then renamed: never
    half a file), and say where; an operating-system fault is one sentence, exit status 1."""
    from ..record import write_durably
    from .options import os_fault

    text = drawn(fmt, shown)
    try:
        write_durably(path, lambda tmp: tmp.write_text(text, encoding="utf-8"))
    except OSError as e:
        raise os_fault(e, path, "choose another --output") from None
    size = len(text.encode("utf-8"))
    what = "open it in a browser" if fmt == "html" else "an SVG picture"
    click.echo(f"wrote {path} ({size / 1024:.0f} KB; {what})", err=True)  # a note: stdout carries no file
