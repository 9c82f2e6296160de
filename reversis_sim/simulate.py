"""Running a simulation into a run folder: the only place the stages are composed (an engine's columns, chunk by
chunk, into :class:`~reversis_sim.record.RunFolder`).

A chunk of matches is a pure function of (run description, chunk id), depending on no other chunk and no global state:
it can run in any order, on any thread or machine, and a resumed run recomputes only the missing chunks. Writing chunks'
Parquet overlaps with simulating the next one (writer threads, :func:`writers`; the numba kernels release the GIL). The
rules played are those the run description records (``RunSpec.rules_params``), never a preset looked up again by
name.
"""

from __future__ import annotations

import gc
import os
import queue
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from .cluster import WRITERS
from .columns import Chunk
from .engines import get_engine
from .policies import parse_seats
from .record import RunError, RunFolder, RunSpec


@dataclass
class RunReport:
    out: Path
    n_chunks_run: int
    n_chunks_total: int
    n_deals_run: int
    repaired: bool = False  # a lost manifest was rebuilt from the parts before resuming
    n_shuffles: int = 0  # shuffles drawn for the deals run (more than the deals where --where rejected some)


class RunWatch:
    """What a run tells its caller as it goes, in one object: its stage, kept by :func:`run`, the deals added, and
    three calls a subclass answers as it needs (the command line's bar and summary are one, :mod:`reversis_sim.cli`).

    ``stage`` is ``"before"`` until the folder is the run's (created or resumed, its lock held); ``"running"`` from
    then on, when whatever stops the run leaves a folder that ``resume=True`` continues; ``"done"`` once the last
    chunk is written, when a fault is no longer the run's (a summary's, a figure's). A caller that catches an
    exception reads the stage to say what is left."""

    stage: str = "before"
    n_deals: int = 0
    """The deals added to the folder by this run so far."""

    def opened(self) -> None:
        """The folder is created or resumed, its lock held (``stage`` is ``"running"``)."""

    def added(self, n_deals: int) -> None:
        """A chunk of ``n_deals`` deals is written (``self.n_deals`` counts them already); called by one thread at
        a time."""

    def finished(self, report: RunReport) -> None:
        """The last chunk is written (``stage`` is ``"done"``), the folder's lock still held: a summary read here
        cannot meet another writer's ``force``."""


def _added(watch: RunWatch, n_deals: int) -> None:
    watch.n_deals += n_deals
    watch.added(n_deals)


def run(spec: RunSpec, out: str | Path, *, resume: bool = False, force: bool = False, engine: str = "numba",
        threads: int | None = None, cluster=None, writer: str = "auto", watch: RunWatch | None = None) -> RunReport:
    """Simulate a run into a run folder (creating it, or resuming it), chunk by chunk.

    ``watch`` (:class:`RunWatch`) hears the run's progress, one object: the folder opened, each chunk's deals added,
    the last chunk written (the folder's lock still held), and it keeps the run's stage. With ``cluster``
    (:class:`reversis_sim.cluster.Cluster`) the chunks are played on its workers, the same rows as a local run, and
    written here (``writer="client"``), or by the workers into the folder when they share its storage (``"workers"``;
    ``"auto"``: when they do). An exception or KeyboardInterrupt stops the run after the chunks being written complete;
    every completed chunk stays on disk.
    """
    rules = spec.resolved_rules()
    seats = parse_seats(spec.seats, rules=rules)
    play = get_engine(engine)
    play.check(rules)
    watch = watch if watch is not None else RunWatch()
    folder = RunFolder.resume(out, spec) if resume else RunFolder.create(out, spec, force=force)
    with folder:  # the folder's lock is held until the last chunk is written and ``finished`` returns (or it stops)
        watch.stage = "running"
        watch.opened()
        if cluster is None:
            report = _fill(folder, _play_here(folder, rules, seats, play, threads), watch)
        else:
            report = _play_on(cluster, folder, rules, seats, engine, writer, watch)
        watch.stage = "done"
        watch.finished(report)
        return report


def _play_on(cluster, folder: RunFolder, rules, seats, engine: str, writer: str, watch: RunWatch) -> RunReport:
    """The folder's missing chunks played on ``cluster`` (its workers prepared first), written here or by them."""
    cluster.prepare(rules, seats, engine)
    identity, missing = folder.spec.identity(), folder.missing_chunks()
    if cluster_writes(cluster, folder, writer):
        return _record(folder, cluster.write_chunks(folder.out.resolve(), identity, missing, engine), watch)
    return _fill(folder, cluster.play_chunks(identity, missing, engine), watch)


def writers() -> int:
    """Writer threads of a run: one per core, at most 4. Encoding Parquet costs about twice the CPU of playing the
    deals (docs/performance.md), so one writer leaves a core idle whenever the engine waits for it."""
    return max(1, min(4, os.cpu_count() or 1))


def _play_here(folder: RunFolder, rules, seats, play, threads) -> Iterator[tuple[int, Chunk]]:
    """(chunk, its rows) for every missing chunk of the folder, played here, one after the other."""
    spec = folder.spec
    deals = spec.resolved_deals(rules)
    for chunk in folder.missing_chunks():
        first, n = spec.chunk_range(chunk)
        yield chunk, play.columns(rules, seats, seed=spec.seed, first_match=first, n_matches=n,
                                  match_deals=spec.match_deals, threads=threads, deals=deals)


def _fill(folder: RunFolder, chunks: Iterator[tuple[int, Chunk]], watch: RunWatch) -> RunReport:
    """Write the chunks as they are played (``chunks``: here, or on a cluster), while writer threads write the
    previous ones (pyarrow releases the GIL while it encodes, and the numba kernels while they play)."""
    spec = folder.spec
    n_todo = folder.n_missing()
    n_writers = writers()
    pending: queue.Queue = queue.Queue(maxsize=n_writers)  # chunks played, waiting for a writer
    failure: list[BaseException] = []
    reporting = threading.Lock()

    def writer() -> None:
        while True:
            item = pending.get()
            if item is None:
                return
            chunk, data = item
            try:
                if not failure:
                    folder.write_chunk(chunk, data)
                    with reporting:
                        _added(watch, data.n_deals)
            except BaseException as e:  # noqa: BLE001 - reported to the main thread
                failure.append(e)

    gc.freeze()  # the objects of the imports (numba's above all) leave the collector's reach: a collection a chunk
    # otherwise walks them all again (6% of a run's CPU in a profile)
    pool = [threading.Thread(target=writer, name=f"reversis-writer-{k}", daemon=True) for k in range(n_writers)]
    for thread in pool:
        thread.start()
    n_deals = n_shuffles = 0
    try:
        for chunk, data in chunks:
            if failure:
                break
            n_deals += data.n_deals
            n_shuffles += data.shuffles
            pending.put((chunk, data))
    finally:
        for _ in pool:
            pending.put(None)
        for thread in pool:
            thread.join()
    if failure:
        raise failure[0]
    return RunReport(folder.out, n_todo, spec.n_chunks, n_deals, folder.repaired, n_shuffles)


def cluster_writes(cluster, folder: RunFolder, writer: str) -> bool:
    """Whether the cluster's workers write the parts (:data:`WRITERS`); :class:`RunError` for ``workers`` when they
    do not share the folder's storage."""
    if writer not in WRITERS:
        raise ValueError(f"writer must be one of {', '.join(WRITERS)}, got {writer!r}")
    if writer == "client":
        return False
    shared = cluster.shares(folder.out)
    if writer == "workers" and not shared:
        raise RunError(f"the workers of {cluster.address} do not see {folder.out} (no shared storage): use "
                       f"--writer client, or a folder on a file system every worker mounts at the same path")
    return shared


def _record(folder: RunFolder, written: Iterator[tuple[int, int]], watch: RunWatch) -> RunReport:
    """Record the chunks the workers wrote into the folder, each verified from its files' footers first."""
    from .record import part_path, verify_part

    spec = folder.spec
    n_todo = folder.n_missing()
    n_deals = 0
    for chunk, deals in written:
        verify_part(part_path(folder.out, chunk), chunk, spec.identity())
        folder.record(chunk)
        n_deals += deals
        _added(watch, deals)
    return RunReport(folder.out, n_todo, spec.n_chunks, n_deals, folder.repaired)
