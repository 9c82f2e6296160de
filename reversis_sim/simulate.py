"""Running a simulation into a run folder: the only place the stages are composed (an engine's columns, chunk by
chunk, into :class:`~reversis_sim.record.RunFolder`).

A chunk of matches is a pure function of (run description, chunk id) (DESIGN.md decision 7): it can run in any
order, on any thread or machine, and a resumed run recomputes only the missing chunks. Writing a chunk's Parquet
overlaps with simulating the next one (a writer thread; the numba kernels release the GIL). The rules played are
those the run description records (``RunSpec.rules_params``), never a preset looked up again by name.
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from .engines import get_engine
from .policies import parse_seats
from .record import RunFolder, RunSpec


@dataclass
class RunReport:
    out: Path
    n_chunks_run: int
    n_chunks_total: int
    n_deals_run: int
    repaired: bool = False  # a lost manifest was rebuilt from the parts before resuming


def run(spec: RunSpec, out: str | Path, *, resume: bool = False, force: bool = False, engine: str = "numba",
        threads: int | None = None, progress: Callable[[int], None] | None = None,
        then: Callable[[RunReport], None] | None = None) -> RunReport:
    """Simulate a run into a run folder (creating it, or resuming it), chunk by chunk.

    ``progress`` is called with the number of deals added after each chunk is written; ``then`` with the report
    once the last chunk is written, while the folder's lock is still held (a summary read there cannot meet another
    writer's ``--force``). An exception or KeyboardInterrupt stops the run after the chunk being written completes;
    every completed chunk stays on disk.
    """
    rules = spec.resolved_rules()
    seats = parse_seats(spec.seats, rules.n_seats)
    play = get_engine(engine)
    play.check(rules)
    folder = RunFolder.resume(out, spec) if resume else RunFolder.create(out, spec, force=force)
    with folder:  # the folder's lock is held until the last chunk is written and ``then`` returns (or the run stops)
        report = _fill(folder, rules, seats, play, threads, progress)
        if then is not None:
            then(report)
        return report


def _fill(folder: RunFolder, rules, seats, play, threads, progress) -> RunReport:
    """Simulate the folder's missing chunks, one at a time, while a writer thread writes the previous one."""
    spec = folder.spec
    n_todo = folder.n_missing()
    pending: queue.Queue = queue.Queue(maxsize=2)
    failure: list[BaseException] = []

    def writer() -> None:
        while True:
            item = pending.get()
            if item is None:
                return
            chunk, cols = item
            try:
                if not failure:
                    folder.write_chunk(chunk, cols)
                    if progress is not None:
                        progress(len(cols["match"]))
            except BaseException as e:  # noqa: BLE001 - reported to the main thread
                failure.append(e)

    thread = threading.Thread(target=writer, name="reversis-writer", daemon=True)
    thread.start()
    n_deals = 0
    try:
        for chunk in folder.missing_chunks():
            if failure:
                break
            first, n = spec.chunk_range(chunk)
            cols = play.columns(rules, seats, seed=spec.seed, first_match=first, n_matches=n,
                                match_deals=spec.match_deals, threads=threads)
            n_deals += len(cols["match"])
            pending.put((chunk, cols))
    finally:
        pending.put(None)
        thread.join()
    if failure:
        raise failure[0]
    return RunReport(folder.out, n_todo, spec.n_chunks, n_deals, folder.repaired)
