"""Where the kernel core spends its time, by compiled function: run it under ``perf`` with a symbol map.

    perf record -F 2999 -o core.data python bench/bench_profile.py --seat avoid --secs 8
    perf report -i core.data --stdio --sort sym

``perf`` cannot name numba's code (it is loaded into memory, not from a file), so its samples would read as bare
addresses. This script keeps the object code of every library numba loads from its cache, plays the
kernel core (``numba_engine.batch.core_runner``, as ``bench_ab.py`` does) once to load it, writes
``/tmp/perf-<pid>.map`` (the symbol map ``perf report`` reads for code without a file: each function's address,
size and name, from the objects' symbol tables and the addresses numba resolved them to), then plays it for
``--secs`` seconds and prints the rate. ``--objects DIR`` also writes each library's object file, for
``objdump -d`` of the hot addresses (an address less the function's start in the map is its offset in the object).
It names the code numba loads from its cache (run it once first after a change, so that the cache holds it); code
compiled in the run itself, such as a parallel loop's, which numba never caches, stays a bare address.
Needs ``nm`` (binutils). Not part of the test suite.
"""

from __future__ import annotations

import argparse
import gc
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from numba.core import codegen

_set_compiled_object = codegen.CPUCodeLibrary._set_compiled_object


def _keep_object(self, value):
    """numba hands a library its object code once and drops it after loading: keep a copy for the symbol map."""
    self.perf_object = value
    return _set_compiled_object(self, value)


codegen.CPUCodeLibrary._set_compiled_object = _keep_object  # before any kernel is loaded


def libraries() -> list:
    """Every numba code library alive in this process."""
    return [o for o in gc.get_objects() if isinstance(o, codegen.CPUCodeLibrary)]


def write_map(objects: Path | None = None) -> int:
    """Write ``/tmp/perf-<pid>.map`` for every library whose object code was kept; returns the functions named."""
    lines = []
    for lib in libraries():
        obj = getattr(lib, "perf_object", None)
        if not obj:
            continue
        with tempfile.TemporaryDirectory() as tmp:
            path = (objects or Path(tmp)) / f"{lib.name}.o"
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(obj)
            table = subprocess.run(["nm", "-S", "--defined-only", str(path)], capture_output=True, text=True,
                                   check=True).stdout
        for line in table.splitlines():
            parts = line.split()
            if len(parts) != 4 or parts[2] not in "tT":  # functions only
                continue
            address = lib.get_pointer_to_function(parts[3])
            if address:
                lines.append(f"{address:x} {int(parts[1], 16):x} {parts[3]}")
    Path(f"/tmp/perf-{os.getpid()}.map").write_text("\n".join(lines) + "\n")
    return len(lines)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seat", default="avoid", help="policy of every seat (default avoid)")
    ap.add_argument("--rules", default="parlett")
    ap.add_argument("--secs", type=float, default=8.0, help="seconds of play to sample (default 8)")
    ap.add_argument("--threads", type=int, default=1, help="threads of the kernel (default 1; with more, the rate is "
                    "per second of wall time)")
    ap.add_argument("--objects", type=Path, default=None, help="also write each library's object file here")
    args = ap.parse_args(argv)
    if shutil.which("nm") is None:
        sys.exit("bench_profile.py reads the functions' names and sizes with nm: install binutils")

    try:
        from reversis_sim.numba_engine.batch import core_runner
    except ImportError:  # a revision from before the numba engine's package was named so (bench_ab.py --base)
        from reversis_sim.engine.batch import core_runner
    from reversis_sim.policies import parse_seats
    from reversis_sim.rules import get_preset

    rules = get_preset(args.rules)
    run = core_runner(rules, parse_seats([args.seat], rules.n_seats), seed=0, n_matches=2000)
    run(args.threads)  # loads (or compiles) every kernel the core reaches
    named = write_map(args.objects)
    print(f"/tmp/perf-{os.getpid()}.map: {named} functions", file=sys.stderr)
    started, cpu, deals = time.perf_counter(), time.process_time(), 0
    while time.perf_counter() - started < args.secs:
        deals += run(args.threads)
    wall, cpu = time.perf_counter() - started, time.process_time() - cpu
    print(f"{args.rules}, {args.seat} at every seat, {args.threads} thread(s): {deals / cpu:,.0f} deals per "
          f"CPU-second, {deals / wall:,.0f} per second")
    return 0


if __name__ == "__main__":
    sys.exit(main())
