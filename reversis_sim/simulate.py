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
from collections.abc import Callable, Iterator
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


def run(spec: RunSpec, out: str | Path, *, resume: bool = False, force: bool = False, engine: str = "numba",
        threads: int | None = None, progress: Callable[[int], None] | None = None,
        then: Callable[[RunReport], None] | None = None, cluster=None, writer: str = "auto",
        opened: Callable[[], None] | None = None) -> RunReport:
    """Simulate a run into a run folder (creating it, or resuming it), chunk by chunk.

    ``progress`` is called with the number of deals added after each chunk is written; ``then`` with the report
    once the last chunk is written, while the folder's lock is still held (a summary read there cannot meet another
    writer's ``--force``). With ``cluster`` (:class:`reversis_sim.cluster.Cluster`) the chunks are played on its
    workers, the same rows as a local run, and written here (``writer="client"``), or by the workers into the
    folder when they share its storage (``"workers"``; ``"auto"``: when they do). An exception or KeyboardInterrupt
    stops the run after the chunks being written complete; every completed chunk stays on disk. ``opened`` is
    called once the folder is created or resumed (its lock held): from then on, whatever stops the run leaves a
    folder that ``resume=True`` continues.
    """
    rules = spec.resolved_rules()
    seats = parse_seats(spec.seats, rules.n_seats)
    play = get_engine(engine)
    play.check(rules)
    folder = RunFolder.resume(out, spec) if resume else RunFolder.create(out, spec, force=force)
    with folder:  # the folder's lock is held until the last chunk is written and ``then`` returns (or the run stops)
        if opened is not None:
            opened()
        if cluster is None:
            report = _fill(folder, _play_here(folder, rules, seats, play, threads), progress)
        else:
            report = _play_on(cluster, folder, rules, seats, engine, writer, progress)
        if then is not None:
            then(report)
        return report


def _play_on(cluster, folder: RunFolder, rules, seats, engine: str, writer: str, progress) -> RunReport:
    """The folder's missing chunks played on ``cluster`` (its workers prepared first), written here or by them."""
    cluster.prepare(rules, seats, engine)
    identity, missing = folder.spec.identity(), folder.missing_chunks()
    if cluster_writes(cluster, folder, writer):
        return _record(folder, cluster.write_chunks(folder.out.resolve(), identity, missing, engine), progress)
    return _fill(folder, cluster.play_chunks(identity, missing, engine), progress)


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


def _fill(folder: RunFolder, chunks: Iterator[tuple[int, Chunk]], progress) -> RunReport:
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
                    if progress is not None:
                        with reporting:
                            progress(data.n_deals)
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


def _record(folder: RunFolder, written: Iterator[tuple[int, int]], progress) -> RunReport:
    """Record the chunks the workers wrote into the folder, each verified from its files' footers first."""
    from .record import part_path, verify_part

    spec = folder.spec
    n_todo = folder.n_missing()
    n_deals = 0
    for chunk, deals in written:
        verify_part(part_path(folder.out, chunk), chunk, spec.identity())
        folder.record(chunk)
        n_deals += deals
        if progress is not None:
            progress(deals)
    return RunReport(folder.out, n_todo, spec.n_chunks, n_deals, folder.repaired)
