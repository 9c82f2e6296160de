"""The suite's session: the kernels its later tests need are compiled beside it (``warm_kernels.py``), and Ctrl-C
is what it is at a terminal for the commands the tests start."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

_WARM: list[subprocess.Popen] = []


def pytest_configure(config) -> None:
    """A suite started with SIGINT ignored (a background job of a non-interactive shell, ``nohup``) would pass the
    ignoring on to every command the Ctrl-C tests start (an ignored signal is inherited; Python then installs no
    KeyboardInterrupt), and they would wait for a Ctrl-C that never arrives: it is set back to Python's own."""
    if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)


def pytest_sessionstart(session) -> None:
    """Compile the kernels the tests need in processes of their own (``warm_kernels.py``), so that no test waits
    for a compile another test already paid for. Under pytest-xdist (``-n``, the default: ``pyproject.toml``) the
    controller compiles them for the whole suite before its workers start, two processes side by side (the
    heuristics' kernels, the search's and the review's), and every worker loads them from the cache; in one process
    (``-p no:xdist`` or ``-n 0``) one process compiles them beside the suite, which compiles what it needs first
    itself.
    ``REVERSIS_TEST_NO_WARM=1`` turns it off. No test depends on it: a kernel not in the cache is compiled by the test
    that needs it."""
    config = session.config
    if os.environ.get("REVERSIS_TEST_NO_WARM") or getattr(config, "workerinput", None) is not None:
        return
    script = str(Path(__file__).with_name("warm_kernels.py"))
    workers = getattr(config.option, "numprocesses", None)
    if workers and getattr(config.option, "dist", "no") != "no":
        if not _whole_suite(config):
            return  # a few files: their workers compile what they need, no more
        reporter = config.pluginmanager.get_plugin("terminalreporter")
        if reporter is not None:
            reporter.write_line("compiling the kernels the tests need (from numba's cache when it has them) ...")
        parts = [subprocess.Popen([sys.executable, script, part], stdout=subprocess.DEVNULL,
                                  stderr=subprocess.DEVNULL, start_new_session=True)
                 for part in ("heuristics", "search")]
        _WARM.extend(parts)
        for p in parts:
            p.wait()
        return
    _WARM.append(subprocess.Popen([sys.executable, script], stdout=subprocess.DEVNULL,
                                  stderr=subprocess.DEVNULL, start_new_session=True))


def pytest_collection_modifyitems(session, config, items) -> None:
    """The files with the slow tests first: pytest-xdist hands a worker a whole file at a time (``--dist
    loadfile``) in the order of collection, and a file of long tests handed out last would leave the other workers
    idle while it runs. (Stable: within a file, and among files of the same weight, the order stays the files'.)"""
    weight: dict[str, float] = {}
    for item in items:
        weight[item.fspath.strpath] = weight.get(item.fspath.strpath, 0.0) + (
            10.0 if item.get_closest_marker("slow") else 0.05)
    items.sort(key=lambda item: -weight[item.fspath.strpath])


def _whole_suite(config) -> bool:
    """Whether the run is the whole suite (no paths given, or the tests' folder, or the repository's)."""
    here = Path(__file__).resolve().parent
    return all(Path(a.split("::")[0]).resolve() in (here, here.parent) for a in config.args)


def pytest_sessionfinish(session, exitstatus) -> None:
    for p in _WARM:
        if p.poll() is None:
            p.kill()
        p.wait()
