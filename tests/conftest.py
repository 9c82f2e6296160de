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
    """Start compiling the review kernel and the five-seat engine in another process (the suite itself compiles
    on one core); ``REVERSIS_TEST_NO_WARM=1`` turns it off."""
    if os.environ.get("REVERSIS_TEST_NO_WARM") or getattr(session.config, "workerinput", None) is not None:
        return
    script = Path(__file__).with_name("warm_kernels.py")
    _WARM.append(subprocess.Popen([sys.executable, str(script)], stdout=subprocess.DEVNULL,
                                  stderr=subprocess.DEVNULL, start_new_session=True))


def pytest_sessionfinish(session, exitstatus) -> None:
    for p in _WARM:
        if p.poll() is None:
            p.kill()
        p.wait()
