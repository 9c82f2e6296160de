"""Running batches of matches: the only place the stages are composed.

A chunk of matches is a pure function of (run description, chunk id) (DESIGN.md decision 7): it can run in any
order, on any thread or machine, and a resumed run recomputes only the missing chunks. Writing a chunk's Parquet
overlaps with simulating the next one (a writer thread; the numba kernels release the GIL).
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from . import columns, reference
from .policies import PolicySpec, parse_seats
from .record import RunFolder, RunSpec
from .rules import Rules, get_preset

ENGINES = ("numba", "reference")


def simulate_records(rules: Rules, seats: Sequence[PolicySpec], *, seed: int, n_matches: int,
                     match_deals: int | None = None, first_match: int = 0,
                     progress: Callable[[int], None] | None = None,
                     policy_seeds: Sequence[int] | None = None) -> Iterator[dict]:
    """Deal records (reference engine) of matches ``first_match .. first_match + n_matches - 1``, in order.
    ``progress`` is called with the number of deals finished after each match."""
    done = 0
    for match in range(first_match, first_match + n_matches):
        for record in reference.play_match(rules, seats, seed=seed, match=match, n_deals=match_deals,
                                           policy_seeds=policy_seeds):
            done += 1
            yield record
        if progress is not None:
            progress(done)


def chunk_columns(rules: Rules, seats: Sequence[PolicySpec], *, seed: int, first_match: int, n_matches: int,
                  match_deals: int, engine: str = "numba", threads: int | None = None,
                  policy_seeds: Sequence[int] | None = None) -> dict[str, np.ndarray]:
    """Per-deal columns (:mod:`reversis_sim.columns`) of a block of matches, from either engine.

    ``policy_seeds``: one seed per seat for its policy randomness (default: the run seed); the cards always follow
    ``seed``, so an A/A comparison can replay the same cards with independent policy randomness."""
    if engine == "reference":
        recs = list(simulate_records(rules, seats, seed=seed, n_matches=n_matches, match_deals=match_deals,
                                     first_match=first_match, policy_seeds=policy_seeds))
        return columns.from_records(recs, rules)
    if engine == "numba":
        from .engine import play_matches

        return play_matches(rules, seats, seed=seed, first_match=first_match, n_matches=n_matches,
                            match_deals=match_deals, threads=threads, policy_seeds=policy_seeds)
    raise ValueError(f"unknown engine {engine!r}; valid engines: {', '.join(ENGINES)}")


@dataclass
class RunReport:
    out: Path
    n_chunks_run: int
    n_chunks_total: int
    n_deals_run: int


def run(spec: RunSpec, out: str | Path, *, resume: bool = False, force: bool = False, engine: str = "numba",
        threads: int | None = None, progress: Callable[[int], None] | None = None) -> RunReport:
    """Simulate a run into a run folder (creating it, or resuming it), chunk by chunk.

    ``progress`` is called with the number of deals added after each chunk is written. An exception or
    KeyboardInterrupt stops the run after the chunk being written completes; every completed chunk stays on disk.
    """
    rules = get_preset(spec.rules)
    seats = parse_seats(spec.seats, rules.n_seats)
    folder = RunFolder.resume(out, spec) if resume else RunFolder.create(out, spec, force=force)
    todo = folder.missing_chunks()
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
        for chunk in todo:
            if failure:
                break
            first, n = spec.chunk_range(chunk)
            cols = chunk_columns(rules, seats, seed=spec.seed, first_match=first, n_matches=n,
                                 match_deals=spec.match_deals, engine=engine, threads=threads)
            n_deals += len(cols["match"])
            pending.put((chunk, cols))
    finally:
        pending.put(None)
        thread.join()
    if failure:
        raise failure[0]
    return RunReport(Path(out), len(todo), spec.n_chunks, n_deals)
