"""Scale-out on a dask.distributed cluster (``--scheduler ADDRESS`` or ``--scheduler local:N``): the same chunks of
matches a local run plays, sent to the cluster's workers, so that the results are identical (a chunk is a pure
function of the run description and its number, DESIGN.md decision 7).

dask is an optional extra (``pip install -e '.[dask]'``): nothing here imports it until :func:`connect` is called,
and nothing else in the package imports this module unless a scheduler is given.

- :func:`connect` opens a client (``local:N`` starts a LocalCluster of N worker processes), refuses an unreachable
  scheduler after a short timeout and workers whose reversis_sim differs from the client's (another version, or
  other sources: the results would differ), and warms every worker's numba cache once.
- :meth:`Cluster.play_chunks` plays run chunks on the workers, at most a few in flight per worker thread, and
  yields them as they complete; the client writes them (it holds the folder's lock and the manifest). A worker that
  dies mid-chunk costs that chunk: the scheduler runs it again elsewhere.
- :meth:`Cluster.map` runs any picklable function over argument tuples (the comparisons' seatings).
"""

from __future__ import annotations

import hashlib
import os
import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from functools import cache
from pathlib import Path

from . import __version__

CONNECT_TIMEOUT_S = 10
"""How long :func:`connect` waits for a scheduler before it gives up."""
IN_FLIGHT_PER_THREAD = 2
"""Chunks submitted ahead per worker thread: enough to keep every worker busy while the client writes, few enough
that a crash loses little and the client's memory stays small."""
LOCAL = re.compile(r"^local:(-?\d+)$")


class ClusterError(Exception):
    """A scheduler that cannot be used, in one sentence."""


_ACTIVE: list[Cluster] = []


def active() -> Cluster | None:
    """The cluster the comparisons send their seatings to (:func:`use`), or None: play them here."""
    return _ACTIVE[-1] if _ACTIVE else None


class use:
    """``with use(cluster):`` the comparisons (compare, tournament, sweep, tune) play their seatings' chunks on
    ``cluster`` (None: here)."""

    def __init__(self, cluster: Cluster | None):
        self.cluster = cluster

    def __enter__(self):
        if self.cluster is not None:
            _ACTIVE.append(self.cluster)
        return self.cluster

    def __exit__(self, *exc) -> None:
        if self.cluster is not None:
            _ACTIVE.remove(self.cluster)


@cache
def identity() -> dict:
    """What must be equal on the client and every worker for identical results: the package version and a digest
    of every source file of the package."""
    root = Path(__file__).resolve().parent
    digest = hashlib.sha256()
    for path in sorted(root.rglob("*.py")):
        digest.update(path.relative_to(root).as_posix().encode())
        digest.update(path.read_bytes())
    return {"version": __version__, "sources": digest.hexdigest()[:16]}


def _worker_identity() -> dict:
    return identity()


def _warm() -> float:
    """Load (or compile) the numba kernels in this worker process once; returns the seconds it took."""
    import time

    from .engines import get_engine
    from .policies import parse_seats
    from .rules import PRESETS

    t0 = time.perf_counter()
    for name in ("parlett", "modern_five"):  # the four-seat and the five-seat kernels
        rules = PRESETS[name]
        get_engine("numba").columns(rules, parse_seats(["random"], rules.n_seats), seed=0, first_match=0,
                                    n_matches=1, match_deals=1)
    return time.perf_counter() - t0


def play_run_chunk(identity_: dict, chunk: int, engine: str):
    """Worker task: chunk ``chunk`` of the run ``identity_`` describes (:meth:`reversis_sim.record.RunSpec.identity`),
    as the engine's :class:`~reversis_sim.columns.Chunk`."""
    from .engines import get_engine
    from .policies import parse_seats
    from .record import RunSpec

    spec = RunSpec.from_identity(identity_)
    rules = spec.resolved_rules()
    first, n = spec.chunk_range(chunk)
    return get_engine(engine).columns(rules, parse_seats(spec.seats, rules.n_seats), seed=spec.seed,
                                      first_match=first, n_matches=n, match_deals=spec.match_deals,
                                      deals=spec.resolved_deals(rules))


def write_run_chunk(out: str, identity_: dict, chunk: int, engine: str) -> int:
    """Worker task on shared storage: play chunk ``chunk`` and write its files into the run folder ``out`` (the
    client records it in the manifest); returns its deals."""
    from .record import RunSpec
    from .record.folder import write_chunk_files

    data = play_run_chunk(identity_, chunk, engine)
    write_chunk_files(Path(out), RunSpec.from_identity(identity_), chunk, data)
    return data.n_deals


def _read(path: str) -> str | None:
    try:
        return Path(path).read_text()
    except OSError:
        return None


class Cluster:
    """A connected dask client (and the LocalCluster it started, if any). Use as a context manager."""

    def __init__(self, client, local=None, address: str = ""):
        self.client, self.local, self.address = client, local, address

    def __enter__(self) -> Cluster:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def close(self) -> None:
        self.client.close()
        if self.local is not None:
            self.local.close()

    @property
    def n_threads(self) -> int:
        """Worker threads across the cluster (tasks that run at once)."""
        return max(1, sum(self.client.nthreads().values()))

    def play_chunks(self, identity_: dict, chunks: Iterable[int], engine: str) -> Iterator[tuple[int, object]]:
        """(chunk, Chunk) of every chunk of the run, played by the workers, in the order they complete, a bounded
        number in flight (the client writes them)."""
        yield from self._as_completed(play_run_chunk, [identity_], chunks, engine)

    def _as_completed(self, task: Callable, head: list, chunks: Iterable[int], engine: str) -> Iterator:
        """``task(*head, chunk, engine)`` for every chunk, :data:`IN_FLIGHT_PER_THREAD` per worker thread at once;
        yields (chunk, result) as they complete."""
        from dask.distributed import as_completed

        todo = iter(chunks)
        running = as_completed()
        which: dict = {}

        def submit(chunk: int) -> None:
            future = self.client.submit(task, *head, chunk, engine, pure=False)
            which[future.key] = chunk
            running.add(future)

        for chunk in todo:
            submit(chunk)
            if running.count() >= IN_FLIGHT_PER_THREAD * self.n_threads:
                break
        for future in running:
            chunk = which.pop(future.key)
            result = future.result()
            future.release()
            nxt = next(todo, None)
            if nxt is not None:
                submit(nxt)
            yield chunk, result

    def write_chunks(self, out: Path, identity_: dict, chunks: Iterable[int],
                     engine: str) -> Iterator[tuple[int, int]]:
        """(chunk, deals) of every chunk of the run, written by the workers into the shared folder ``out``, in the
        order they complete, a bounded number in flight."""
        yield from self._as_completed(write_run_chunk, [str(out), identity_], chunks, engine)

    def shares(self, folder: Path) -> bool:
        """Whether every worker sees ``folder`` as this client does (shared storage): a probe file written here is
        read back by each of them."""
        import uuid

        probe = Path(folder) / f".reversis-probe-{uuid.uuid4().hex}"
        probe.write_text(probe.name)
        try:
            seen = self.client.run(_read, str(probe.resolve()))
        finally:
            probe.unlink(missing_ok=True)
        return bool(seen) and all(text == probe.name for text in seen.values())

    def map(self, fn: Callable, args: Sequence[tuple]) -> list:
        """``[fn(*a) for a in args]`` on the workers, in order."""
        futures = [self.client.submit(fn, *a, pure=False) for a in args]
        try:
            return self.client.gather(futures)
        finally:
            for f in futures:
                f.release()


def connect(address: str, *, timeout: float = CONNECT_TIMEOUT_S) -> Cluster:
    """A :class:`Cluster` for ``--scheduler ADDRESS`` (``tcp://host:8786``, ``host:8786``) or ``local:N``;
    :class:`ClusterError` in one sentence when dask is missing, the address is malformed or unreachable, or a
    worker's reversis_sim differs from this one's."""
    m = LOCAL.match(address.strip())
    if m and int(m.group(1)) < 1:
        raise ClusterError(f"--scheduler {address}: a local cluster needs at least 1 worker process (local:2)")
    try:
        from dask.distributed import Client, LocalCluster
    except ImportError:
        raise ClusterError("--scheduler needs dask.distributed: pip install -e '.[dask]'") from None
    local = None
    if m:
        n = int(m.group(1))
        per_worker = max(1, (os.cpu_count() or 1) // n)
        local = LocalCluster(n_workers=n, threads_per_worker=1, processes=True, dashboard_address=None,
                             env={"NUMBA_NUM_THREADS": str(per_worker)})
        client = Client(local, timeout=timeout)
        address = f"local:{n}"
    else:
        try:
            client = Client(address, timeout=timeout)
        except (OSError, TimeoutError, ValueError) as e:
            raise ClusterError(f"cannot reach the dask scheduler at {address} within {timeout:g} s "
                               f"({type(e).__name__}); start it (dask scheduler) or check the address") from None
    cluster = Cluster(client, local, address)
    try:
        _check_workers(cluster)
        cluster.client.run(_warm)
    except BaseException:
        cluster.close()
        raise
    return cluster


def _check_workers(cluster: Cluster) -> None:
    """:class:`ClusterError` unless the cluster has workers and every one runs this very reversis_sim."""
    client = cluster.client
    try:
        client.wait_for_workers(1, timeout=CONNECT_TIMEOUT_S)
    except TimeoutError:
        raise ClusterError(f"the dask scheduler at {cluster.address} has no workers; start some "
                           f"(dask worker {cluster.address})") from None
    try:
        seen = client.run(_worker_identity)
    except Exception as e:  # noqa: BLE001 - a worker that cannot even import reversis_sim
        raise ClusterError(f"the workers of {cluster.address} cannot run reversis_sim ({type(e).__name__}: {e}); "
                           f"install the same reversis_sim on every worker") from None
    mine = identity()
    other = {w: i for w, i in seen.items() if i != mine}
    if other:
        worker, theirs = next(iter(other.items()))
        raise ClusterError(f"{len(other)} of {len(seen)} workers run another reversis_sim ({worker}: version "
                           f"{theirs['version']}, sources {theirs['sources']}; here: version {mine['version']}, "
                           f"sources {mine['sources']}): the results would differ; install this one on every worker")
