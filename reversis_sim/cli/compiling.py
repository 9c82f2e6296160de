"""What a person sees while numba compiles a command's kernels (the first run on a machine, or after an upgrade):
what compiles, for about how long, and what it took, on stderr whatever stdout is.

Like every module of the command line, it imports numba only inside the block that watches it compile.
"""

from __future__ import annotations

import sys
import threading
import time
from contextlib import contextmanager

import click

COMPILE_SECONDS = {"simulate": 30, "compare": 35, "tournament": 35, "sweep": 35, "tune": 35, "best-response": 35,
                   "replay": 60, "review": 60, "play": 45, "hands": 5, "bench": 35, "learn": 65}
"""Seconds each command compiles for on its first run, measured from an empty cache on the project's 2-core
machines (``reversis-sim bench --compile``, docs/performance.md: the slower of the two machines measured), rounded
up; what the first-run notice promises."""


def compile_notice(command: str | None) -> str:
    """The first line of a first run's notice: what compiles, why, and for how long."""
    took = COMPILE_SECONDS.get(command or "")
    about = f"about {took} s" if took else "well under a minute"
    return (f"compiling the numba kernels {('of ' + command) if command else 'it needs'} ({about} on 2 cores; the "
            f"first run on this machine or after an upgrade only: they are then loaded from numba's cache on disk)")


@contextmanager
def compiling_notice(quiet: bool = False, *, every: float = 0.5, at_least: float = 1.0):
    """Say on stderr when numba compiles inside the block (the first run on a machine, or after an update): what
    compiles and for about how long when it starts, what it took when it ends (the three kernels that took
    longest), whatever stdout and stderr are (a terminal, a log, a pipe); on a terminal, without ``quiet``, a line
    that shows it progressing too (the kernel compiling, functions compiled, seconds; refreshed ``every``
    seconds). Nothing when the kernels load from the on-disk cache; the end for ``at_least`` seconds only."""
    from ..engines import compile_watch

    stop = threading.Event()
    live = not quiet and sys.stderr.isatty()
    ctx = click.get_current_context(silent=True)
    command = ctx.info_name if ctx is not None else None
    said = []

    def report(watch) -> None:
        while not stop.wait(every):
            if watch.started is None:
                continue
            if not said and (watch.current is None or watch.current in watch.closures):
                continue  # between two compiles, or a closure's, compiled in every run: not a first run's compile
            if not said:
                click.echo(compile_notice(command), err=True)
                said.append(True)
            if live and watch.current:
                click.echo(f"\r\x1b[K  {watch.current}: {watch.count} functions, "
                           f"{time.monotonic() - watch.started:.0f} s", nl=False, err=True)

    with compile_watch() as watch:
        thread = threading.Thread(target=report, args=(watch,), name="reversis-compile-notice", daemon=True)
        thread.start()
        try:
            yield watch
        finally:
            stop.set()
            thread.join()
            if watch.started is not None and watch.compiling >= at_least:
                beside = {f"{name} (waited for, compiled beside)": t for name, t in watch.waited.items()}
                top = sorted({**watch.seconds, **beside}.items(), key=lambda kv: -kv[1])[:3]
                closures = len(watch.closures)
                if not said and closures < len(watch.seconds):
                    click.echo(compile_notice(command), err=True)
                if closures == len(watch.seconds):  # the reference engine's family dispatch: numba caches no closure
                    later = "; numba compiles these in every run: it caches no closure"
                elif closures:
                    later = f"; later runs load them from the cache, but for {closures} closures it cannot cache"
                else:
                    later = "; later runs load them from the cache"
                click.echo(("\r\x1b[K" if live else "") + f"compiled {watch.count} functions in "
                           f"{watch.compiling:.0f} s (" + ", ".join(f"{name} {t:.0f} s" for name, t in top) + ")"
                           + later, err=True)
