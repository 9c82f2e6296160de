"""Scale-out on a dask.distributed cluster (``--scheduler ADDRESS`` or ``--scheduler local:N``): the same chunks of
matches a local run plays, sent to the cluster's workers, so that the results are identical (a chunk is a pure
function of the run description and its number, so no chunk depends on another or on the machine).

dask is an optional extra (``pip install -e '.[dask]'``): nothing here imports it until :func:`connect` is called,
and nothing else in the package imports this module unless a scheduler is given.

- :func:`connect` opens a client (``local:N`` starts a LocalCluster of N worker processes, at most one per core),
  refuses an unreachable scheduler after a short timeout and workers whose reversis_sim differs from the client's
  (another version, or other sources: the results would differ).
- :meth:`Cluster.prepare` makes every worker ready to play a run: compiled once here for a local cluster (the
  workers then load the kernels from the shared on-disk cache), and loaded or compiled by each worker in a thread
  of its own, never on its event loop, whose heartbeats must go on (a worker that misses them for minutes is
  restarted by the scheduler).
- :meth:`Cluster.play_chunks` plays run chunks on the workers, at most a few in flight per worker thread, and
  yields them as they complete; the client writes them (it holds the folder's lock and the manifest). A worker that
  dies mid-chunk costs that chunk: the scheduler runs it again elsewhere.
- :meth:`Cluster.map` runs any picklable function over argument tuples (the comparisons' seatings).

Numba's thread count is never set through the environment of a worker (numba reads ``NUMBA_NUM_THREADS`` when it is
imported, which a spawned worker does before dask applies its environment, and refuses a later change once its
threads run): every task sets the thread-local count of the thread that runs it to its worker's share of the cores.
Whatever goes wrong with the cluster (a worker that dies or cannot start, a scheduler that goes away) is a
:class:`ClusterError` in one sentence.
"""

from __future__ import annotations

import hashlib
import logging
import os
import re
import signal
import socket
import threading
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import CancelledError
from contextlib import contextmanager
from functools import cache
from pathlib import Path
from urllib.parse import urlparse

from . import __version__

CONNECT_TIMEOUT_S = 10
"""How long :func:`connect` waits for a scheduler (and for its first worker) before it gives up."""
IN_FLIGHT_PER_THREAD = 2
"""Chunks submitted ahead per worker thread: enough to keep every worker busy while the client writes, few enough
that a crash loses little and the client's memory stays small."""
LOCAL = re.compile(r"^local:(-?\d+)$")
WRITERS = ("auto", "client", "workers")
"""Who writes a cluster run's parts (``--writer``): the client, the workers (shared storage), or ``auto``: the
workers when every one of them sees the run folder."""


class ClusterError(Exception):
    """A cluster that cannot be used, or was lost, in one sentence."""


def local_workers(address: str) -> int | None:
    """N for ``local:N`` (N worker processes on this machine, 1 to its cores), None for a scheduler's address
    (``tcp://host:8786``, ``host:8786``, ``localhost:8786``); :class:`ClusterError` for a malformed or impossible
    ``local``."""
    text = address.strip()
    if text != "local" and not text.startswith("local:"):
        return None
    m = LOCAL.match(text)
    if m is None:
        raise ClusterError(f"{address}: write local:N, N worker processes (local:2)")
    n, cores = int(m.group(1)), os.cpu_count() or 1
    if n < 1:
        raise ClusterError(f"{address}: a local cluster needs at least 1 worker process (local:2)")
    if n > cores:
        raise ClusterError(f"{address}: {n} worker processes would share this machine's {cores} cores, each "
                           f"loading the engine (a few seconds and about 300 MB apiece) only to take turns on them; "
                           f"give local:1 to local:{cores}")
    return n


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


def warm(rules, seats: Sequence[str], engine: str) -> float:
    """Load (or compile) what playing ``seats`` under these rules on ``engine`` needs, in this process: one deal of
    one match. Returns the seconds it took."""
    import time

    from .engines import get_engine
    from .policies import parse_seats

    t0 = time.perf_counter()
    get_engine(engine).warm(rules, parse_seats(list(seats), rules=rules))
    return time.perf_counter() - t0


async def _off_the_loop(fn: Callable, *args):
    """``fn(*args)`` on a worker, in a thread of its own: the worker's event loop (its heartbeats to the scheduler)
    goes on while numba loads or compiles, however long that takes."""
    import asyncio

    return await asyncio.get_running_loop().run_in_executor(None, fn, *args)


def _on_worker(threads: int, task: Callable, *args):
    """Run ``task(*args)`` on a worker with numba's thread-local thread count set to the worker's share:
    ``threads`` (a local cluster's), or 0: the cores numba sees over the worker's task slots."""
    import numba

    if threads < 1:
        from distributed import get_worker

        threads = numba.config.NUMBA_NUM_THREADS // max(1, get_worker().state.nthreads)
    numba.set_num_threads(max(1, min(threads, numba.config.NUMBA_NUM_THREADS)))
    return task(*args)


def play_run_chunk(identity_: dict, chunk: int, engine: str):
    """Worker task: chunk ``chunk`` of the run ``identity_`` describes (:meth:`reversis_sim.record.RunSpec.identity`),
    as the engine's :class:`~reversis_sim.columns.Chunk`."""
    from .engines import get_engine
    from .policies import parse_seats
    from .record import RunSpec

    spec = RunSpec.from_identity(identity_)
    rules = spec.resolved_rules()
    first, n = spec.chunk_range(chunk)
    return get_engine(engine).columns(rules, parse_seats(spec.seats, rules=rules), seed=spec.seed,
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
        self.task_threads = 0
        """numba threads per task: a local cluster's share of the cores; 0: the worker's own share."""
        self.prepared: set = set()

    def __enter__(self) -> Cluster:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def close(self) -> None:
        """Close the client (and stop a local cluster's workers); quiet when the scheduler is already gone."""
        try:
            if self.client is not None:
                self.client.close()
            if self.local is not None:
                self.local.close()
        except Exception:  # noqa: BLE001 - a lost scheduler or worker: nothing is left to close
            pass

    @property
    def n_threads(self) -> int:
        """Worker threads across the cluster (tasks that run at once)."""
        return max(1, sum(self.client.nthreads().values()))

    @contextmanager
    def faults(self, doing: str):
        """Turn the ways a cluster fails while ``doing`` something into one :class:`ClusterError` sentence: a worker
        that died (the task killed every worker it was tried on, or a worker left mid-call), a scheduler that went
        away. What the task itself raises (a full disk on shared storage, a refused rule set) passes as it is."""
        from distributed import KilledWorker
        from distributed.comm import CommClosedError

        try:
            yield
        except KilledWorker as e:
            raise ClusterError(f"the workers of {self.address} died while {doing} (a task was tried on "
                               f"{_allowed_failures()} workers in turn, {e.args[0] if e.args else 'a task'}): a "
                               f"worker out of memory or a broken install; look at the workers' logs") from None
        except (CommClosedError, TimeoutError, CancelledError) as e:
            if self._scheduler_answers():  # a worker went away under the call
                raise ClusterError(f"a worker of {self.address} died while {doing} ({type(e).__name__}): out of "
                                   f"memory, killed, or a broken install; look at the workers' logs") from None
            raise ClusterError(f"lost the dask scheduler at {self.address} while {doing} ({type(e).__name__}): it "
                               f"stopped, or the network went down") from None

    def _scheduler_answers(self) -> bool:
        """Whether the scheduler is still there: the client runs and, half a second on (a killed scheduler may still
        be closing its sockets under load), its port takes a connection; the client's status alone lags a kill."""
        import time

        if self.client.status != "running":
            return False
        try:
            where = urlparse(self.client.scheduler.address)
            host, port = where.hostname, where.port
        except (AttributeError, ValueError):
            return True
        if host is None or port is None:
            return True
        time.sleep(0.5)
        try:
            with socket.create_connection((host, port), timeout=2):
                return True
        except OSError:
            return False

    def prepare(self, rules, seats: Sequence, engine: str, *, here: bool | None = None) -> None:
        """Make every worker ready to play ``seats`` under ``rules`` on ``engine`` (once per engine and seat count):
        compiled once in this process first (``here``; by default for a local cluster, whose workers share this
        machine's on-disk cache and then only load the kernels); every worker then loads (or compiles) them in a
        thread, off its event loop (:meth:`prepare_with` :func:`warm`)."""
        self.prepare_with((engine, len(seats)), warm, rules, [str(s) for s in seats], engine, here=here,
                          doing="loading the engine on the workers")

    def prepare_with(self, key, fn: Callable, *args, here: bool | None = None,
                     doing: str = "loading the kernels on the workers") -> None:
        """Run ``fn(*args)`` (a module-level function that loads or compiles some kernels, e.g. by one tiny call)
        here first for a local cluster (``here``), then on every worker off its event loop, once per ``key``; a
        worker lost meanwhile is a :class:`ClusterError` saying it died while ``doing``."""
        if key in self.prepared:
            return
        if self.local is not None if here is None else here:
            fn(*args)
        with self.faults(doing):
            self.client.run(_off_the_loop, fn, *args)
        self.prepared.add(key)

    def map_chunks(self, task: Callable, head: list, chunks: Iterable[int]) -> Iterator[tuple[int, object]]:
        """(chunk, ``task(*head, chunk)``) for every chunk, played by the workers on their share of the threads, in
        the order they complete, a bounded number in flight (the client writes them)."""
        yield from self._as_completed(task, head, chunks)

    def play_chunks(self, identity_: dict, chunks: Iterable[int], engine: str) -> Iterator[tuple[int, object]]:
        """(chunk, Chunk) of every chunk of the run, played by the workers, in the order they complete, a bounded
        number in flight (the client writes them)."""
        yield from self._as_completed(play_run_chunk, [identity_], chunks, engine)

    def _as_completed(self, task: Callable, head: list, chunks: Iterable[int], *tail) -> Iterator:
        """``task(*head, chunk, *tail)`` for every chunk, :data:`IN_FLIGHT_PER_THREAD` per worker thread at once;
        yields (chunk, result) as they complete."""
        from dask.distributed import as_completed

        with self.faults("playing the run's chunks"):
            todo = iter(chunks)
            running = as_completed()
            which: dict = {}

            def submit(chunk: int) -> None:
                future = self.client.submit(_on_worker, self.task_threads, task, *head, chunk, *tail, pure=False)
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
            with self.faults("checking for shared storage"):
                seen = self.client.run(_read, str(probe.resolve()))
        finally:
            probe.unlink(missing_ok=True)
        return bool(seen) and all(text == probe.name for text in seen.values())

    def map(self, fn: Callable, args: Sequence[tuple]) -> list:
        """``[fn(*a) for a in args]`` on the workers, in order."""
        with self.faults("playing the comparison's seatings"):
            futures = [self.client.submit(_on_worker, self.task_threads, fn, *a, pure=False) for a in args]
            try:
                return self.client.gather(futures)
            finally:
                for f in futures:
                    f.release()


def _allowed_failures() -> int:
    import dask

    return int(dask.config.get("distributed.scheduler.allowed-failures", 3)) + 1


def _forkserver_ignoring_sigint() -> None:
    """Start the multiprocessing fork server with Ctrl-C (SIGINT) ignored: the local workers forked from it ignore
    it, and the client stops them on a Ctrl-C, without a traceback per worker; only these milliseconds ignore it."""
    from multiprocessing import forkserver

    if threading.current_thread() is not threading.main_thread():  # signals belong to the main thread
        forkserver.ensure_running()
        return
    before = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        forkserver.ensure_running()
    finally:
        signal.signal(signal.SIGINT, before)


@contextmanager
def _sigint_deferred():
    """Hold a Ctrl-C (SIGINT) pressed while the block runs and raise it after: dask cannot be interrupted halfway
    through starting its workers (it leaves them half started, and their finalizers print tracebacks), so the
    workers are let start, then the caller stops them and stops."""
    if threading.current_thread() is not threading.main_thread():  # signals belong to the main thread
        yield
        return
    pressed = []
    before = signal.signal(signal.SIGINT, lambda signum, frame: pressed.append(signum))
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, before)
    if pressed:
        raise KeyboardInterrupt


def _host_of(address: str) -> str | None:
    """The host name of a scheduler address (``tcp://host:8786``, ``host:8786``), or None where it has none that
    a name lookup could check (another protocol, a malformed address: dask says what is wrong with it)."""
    try:
        where = urlparse(address if "://" in address else f"tcp://{address}")
        return where.hostname if where.scheme in ("tcp", "tls") else None
    except ValueError:
        return None


def connect(address: str, *, timeout: float = CONNECT_TIMEOUT_S, quiet: bool = False) -> Cluster:
    """A :class:`Cluster` for ``--scheduler ADDRESS`` (``tcp://host:8786``, ``host:8786``) or ``local:N``;
    :class:`ClusterError` in one sentence when dask is missing, the address is malformed or unreachable, a local
    worker cannot start, or a worker's reversis_sim differs from this one's. ``quiet``: dask's own log lines (a
    worker's traceback, reconnection attempts) are kept off the terminal; the error says what happened."""
    n = local_workers(address)
    try:
        from dask.distributed import Client, LocalCluster
    except ImportError:
        raise ClusterError("--scheduler needs dask.distributed: pip install -e '.[dask]'") from None
    if quiet:  # dask gives some of its loggers their own level: quiet them one by one
        for name in ["distributed", *logging.root.manager.loggerDict]:
            if name.split(".")[0] == "distributed":
                logging.getLogger(name).setLevel(logging.CRITICAL)
    local = client = None
    if n is not None:
        import dask

        try:
            _forkserver_ignoring_sigint()
            # for the life of the process, not only while the workers start: a worker that a nanny starts again
            # later (it died, it outgrew its memory) is forked from the same fork server and ignores Ctrl-C too,
            # where one spawned anew would print a KeyboardInterrupt traceback of its own
            dask.config.set({"distributed.worker.multiprocessing-method": "forkserver"})
            with _sigint_deferred():  # the workers are forked from the fork server: they ignore it anyway
                local = LocalCluster(n_workers=n, threads_per_worker=1, processes=True, dashboard_address=None,
                                     silence_logs=logging.CRITICAL if quiet else logging.WARNING)
                client = Client(local, timeout=timeout)
        except KeyboardInterrupt:  # pressed while the workers started: stop them, then stop
            Cluster(client, local, address).close()
            raise
        except Exception as e:  # noqa: BLE001 - whatever kept a worker process from starting
            raise ClusterError(f"local:{n}: the worker processes could not start ({type(e).__name__}: {e}); "
                               f"check that 'python -c \"import reversis_sim\"' works in this environment") from None
        address = f"local:{n}"
    else:
        host = _host_of(address)
        if host is not None:
            try:
                socket.getaddrinfo(host, None)
            except (socket.gaierror, UnicodeError):  # a name that does not resolve: no use waiting for it
                raise ClusterError(f"cannot reach the dask scheduler at {address}: the host name {host!r} does not "
                                   f"resolve; check the address (local:N starts workers on this machine)") from None
        try:
            client = Client(address, timeout=timeout)
        except (OSError, TimeoutError, ValueError) as e:
            raise ClusterError(f"cannot reach the dask scheduler at {address} within {timeout:g} s "
                               f"({type(e).__name__}); start it (dask scheduler) or check the address") from None
    cluster = Cluster(client, local, address)
    if n is not None:
        cluster.task_threads = max(1, (os.cpu_count() or 1) // n)
    try:
        _check_workers(cluster)
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
        with cluster.faults("checking the workers"):
            seen = client.run(_worker_identity)
    except ClusterError:
        raise
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
