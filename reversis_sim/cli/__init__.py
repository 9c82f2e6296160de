"""The ``reversis-sim`` command line: parse, call the library, print. No game logic lives here.

One module per group of commands, each command defined at its module's top level:

- :mod:`.runs`: ``simulate``, ``replay``, ``bench`` (playing deals; what a person sees of a run: :mod:`.shown_run`);
- :mod:`.folders`: ``analyze``, ``plot``, ``hands``, ``repair``, ``upgrade`` (a run folder once it is written);
- :mod:`.comparisons`: ``compare``, ``tournament``, ``sweep``;
- :mod:`.tuning`: ``tune``, ``best-response``;
- :mod:`.information`: ``rules``, ``policies``;
- :mod:`.review`: ``review`` (why a player loses fish, decision by decision), split by job: ``review deal``,
  ``review player``, ``review record`` (:mod:`.review_jobs`), the one-command spelling kept;
- :mod:`.play`: ``play`` (a person at the table against the bots, then the person's decisions reviewed);
- :mod:`.options`: what they share (options, callbacks, one-sentence errors).

:data:`COMMANDS` names each command's module, imported when the command runs or shows its help (:class:`Commands`).
The modules import only the plain-Python parts of the library at their top; numba, polars, pyarrow, scipy and
matplotlib are imported inside the commands that need them, so ``--help``, ``rules`` and ``policies`` start at once
(``tests/test_cli_startup.py``).
"""

from __future__ import annotations

import importlib
import os
from pathlib import Path

import click

from .. import __version__

COMMANDS = {
    "simulate": "runs:simulate", "replay": "runs:replay", "bench": "runs:bench",
    "analyze": "folders:analyze", "plot": "folders:plot", "hands": "folders:hands", "repair": "folders:repair",
    "upgrade": "folders:upgrade",
    "compare": "comparisons:compare", "tournament": "comparisons:tournament", "sweep": "comparisons:sweep",
    "tune": "tuning:tune", "best-response": "tuning:best_response",
    "rules": "information:rules", "policies": "information:policies",
    "review": "review:review",
    "play": "play:play",
    "learn": "learning:learn",
}
"""Every command, by name: ``module:function`` of this package."""


class Commands(click.Group):
    """The ``reversis-sim`` group: each command is imported from its module (:data:`COMMANDS`) when first asked for."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(COMMANDS)

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        if name not in COMMANDS:
            return None
        module, attr = COMMANDS[name].split(":")
        return getattr(importlib.import_module(f".{module}", __package__), attr)

    def invoke(self, ctx: click.Context):
        """Run the command; Ctrl-C in a command that keeps nothing of an unfinished run (they say so themselves when
        they keep something) is one sentence and exit status 130, not click's bare "Aborted!"."""
        try:
            return super().invoke(ctx)
        except KeyboardInterrupt:
            click.echo(f"\ninterrupted: {ctx.invoked_subcommand or 'reversis-sim'} stopped before it finished; it "
                       f"writes its results only when complete, so nothing of this run was kept", err=True)
            from .options import exit_interrupted

            exit_interrupted()


@click.group(cls=Commands, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="reversis-sim")
def main() -> None:
    """Simulate and analyse Reversis, the 17th-century trick-avoidance game.

    \b
    Example:
      reversis-sim simulate --deals 120000 --seed 1 --out results/demo
    """
    profile = os.environ.get(COMPILE_PROFILE)
    if profile:
        _profile_compiles(profile)


COMPILE_PROFILE = "REVERSIS_COMPILE_PROFILE"
"""An environment variable: a file where a command writes, as it ends, the seconds each kernel it compiled took
(exclusive of the kernels compiled within it) and how many functions it compiled (``reversis-sim bench
--compile`` reads it)."""


def _profile_compiles(path: str) -> None:
    import atexit
    import json

    from ..engines import compile_watch

    watch = compile_watch().__enter__()
    atexit.register(lambda: Path(path).write_text(json.dumps({"count": watch.count, "seconds": watch.seconds})))
