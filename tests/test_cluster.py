"""Scale-out: a run and a comparison on a dask.distributed LocalCluster of two worker processes give the
rows and numbers of the local run; a killed worker costs only its chunk; an unusable scheduler is one sentence."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time

import pyarrow.parquet as pq
import pytest

distributed = pytest.importorskip("distributed")

from reversis_sim import cluster as C  # noqa: E402
from reversis_sim.record import RunSpec  # noqa: E402
from reversis_sim.rules import PARLETT  # noqa: E402
from reversis_sim.simulate import run  # noqa: E402


@pytest.fixture(scope="module")
def two_workers():
    with C.connect("local:2") as cluster:
        yield cluster


def _same_files(a, b):
    names = sorted(p.name for p in a.glob("*.parquet"))
    assert names == sorted(p.name for p in b.glob("*.parquet")) and names
    for name in names:
        assert pq.read_table(a / name).equals(pq.read_table(b / name)), name


def test_a_run_on_the_cluster_is_part_for_part_the_local_run(two_workers, tmp_path):
    spec = RunSpec.for_deals(PARLETT, ["avoid", "random", "tuned", "lowest"], deals=40 * 12, seed=3,
                             chunk_matches=7)
    run(spec, tmp_path / "here")
    report = run(spec, tmp_path / "there", cluster=two_workers)
    assert report.n_chunks_run == spec.n_chunks == 6
    _same_files(tmp_path / "here", tmp_path / "there")


def test_a_killed_worker_costs_its_chunk_and_the_run_completes_identical(two_workers, tmp_path):
    spec = RunSpec.for_deals(PARLETT, ["avoid"], deals=600 * 12, seed=4, chunk_matches=20)
    run(spec, tmp_path / "here")
    pids = two_workers.client.run(os.getpid)
    done = []
    thread = threading.Thread(target=lambda: done.append(run(spec, tmp_path / "there", cluster=two_workers)))
    thread.start()
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and len(list((tmp_path / "there").glob("part-*.parquet"))) < 3:
        time.sleep(0.01)
    os.kill(next(iter(pids.values())), signal.SIGKILL)  # the nanny starts another; its tasks run again
    thread.join(timeout=300)
    assert done and done[0].n_chunks_run == spec.n_chunks
    _same_files(tmp_path / "here", tmp_path / "there")
    two_workers.client.wait_for_workers(2, timeout=60)


@pytest.mark.slow
def test_a_comparison_on_the_cluster_has_the_local_numbers(two_workers):
    from reversis_sim.compare import duplicate

    here = duplicate.compare(PARLETT, "tuned", "avoid", n_matches=30, seed=5).summary()
    there = duplicate.compare(PARLETT, "tuned", "avoid", n_matches=30, seed=5, cluster=two_workers).summary()
    assert there == here and here["n_matches"] == 30


def test_a_review_on_the_cluster_is_row_for_row_the_local_review(two_workers, tmp_path):
    from reversis_sim.policies import parse_seats
    from reversis_sim.review.batch import PlayerReview, read_review, run_review
    from reversis_sim.review.settings import review_settings

    settings = review_settings(4, parse_seats(["random", "tuned", "tuned", "tuned"]), [0], 4, "tuned", 1)
    job = PlayerReview(PARLETT, "random", "tuned", 6, 8, settings, chunk_matches=2)
    run_review(job, tmp_path / "here")
    run_review(job, tmp_path / "there", cluster=two_workers)
    (_, d_here, l_here), (m, d_there, l_there) = read_review(tmp_path / "here"), read_review(tmp_path / "there")
    assert m["chunks_done"] == [0, 1, 2] and d_here.height > 100
    assert d_there.equals(d_here) and l_there.equals(l_here)


def test_workers_with_another_reversis_sim_are_refused(two_workers, monkeypatch):
    monkeypatch.setattr(C, "identity", lambda: {"version": "0.0.0", "sources": "elsewhere"})
    with pytest.raises(C.ClusterError, match="2 of 2 workers run another reversis_sim.*results would differ"):
        C._check_workers(two_workers)


def test_an_unreachable_scheduler_is_one_sentence_and_writes_nothing(tmp_path):
    with pytest.raises(C.ClusterError, match="cannot reach the dask scheduler at tcp://127.0.0.1:9 within 1 s"):
        C.connect("tcp://127.0.0.1:9", timeout=1)
    with pytest.raises(C.ClusterError, match="at least 1 worker"):
        C.connect("local:0")


@pytest.mark.slow
def test_the_command_line_takes_the_scheduler_and_refuses_local_0(tmp_path):
    def cli(*args):
        return subprocess.run([sys.executable, "-m", "reversis_sim", *args], capture_output=True, text=True)

    out = tmp_path / "never"
    bad = cli("simulate", "--deals", "240", "--out", str(out), "--scheduler", "local:0")
    assert bad.returncode == 2 and "at least 1 worker process" in bad.stderr and "Traceback" not in bad.stderr
    assert not out.exists()
    good = cli("compare", "--candidate", "tuned", "--baseline", "avoid", "--deals", "240", "--format", "json",
               "--scheduler", "local:1")
    local = cli("compare", "--candidate", "tuned", "--baseline", "avoid", "--deals", "240", "--format", "json")
    assert good.returncode == 0, good.stderr
    a, b = json.loads(good.stdout), json.loads(local.stdout)
    a.pop("elapsed_s", None), b.pop("elapsed_s", None)
    assert a == b


@pytest.mark.slow
def test_nothing_of_dask_is_imported_without_a_scheduler(tmp_path):
    code = ("import sys; from reversis_sim.cli import main; from click.testing import CliRunner; "
            f"r = CliRunner().invoke(main, ['simulate', '--deals', '240', '--out', r'{tmp_path / 'run'}', "
            "'--no-figures', '--quiet']); assert r.exit_code == 0, r.output; "
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('dask', 'distributed')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[]"


def test_workers_write_the_parts_on_shared_storage_with_the_same_rows(two_workers, tmp_path):
    from reversis_sim.record import RunError

    spec = RunSpec.for_deals(PARLETT, ["avoid", "random", "tuned", "lowest"], deals=40 * 12, seed=3,
                             chunk_matches=7)
    run(spec, tmp_path / "here")
    report = run(spec, tmp_path / "there", cluster=two_workers, writer="workers")
    assert report.n_chunks_run == 6
    _same_files(tmp_path / "here", tmp_path / "there")
    assert two_workers.shares(tmp_path / "there")
    two_workers.shares = lambda folder: False  # workers that do not see the folder: refused, or the client writes
    with pytest.raises(RunError, match="do not see .*no shared storage.*--writer client"):
        run(spec, tmp_path / "nowhere", cluster=two_workers, writer="workers")
    run(spec, tmp_path / "client", cluster=two_workers, writer="auto")
    _same_files(tmp_path / "here", tmp_path / "client")
    del two_workers.shares


# ----------------------------------------------------------------------------------------------------------------
# a cold cache, the thread count, and every way a cluster fails as one sentence
# ----------------------------------------------------------------------------------------------------------------

COLD = r'''
import numba  # at the top, as the reversis-sim command's module imports the CLI: spawned workers import it first
import json, os, sys

import dask

from reversis_sim import cluster as C
from reversis_sim.policies import parse_seats
from reversis_sim.record import RunSpec
from reversis_sim.rules import PARLETT
from reversis_sim.simulate import run

if __name__ == "__main__":
    out = sys.argv[1]
    dask.config.set({"distributed.scheduler.worker-ttl": "6s"})  # a worker whose loop stops longer is dropped
    seats = ["random", "lowest", "avoid", "random"]
    spec = RunSpec.for_deals(PARLETT, seats, deals=48, seed=5, chunk_matches=1)
    with C.connect("local:2", quiet=True) as cluster:
        before = cluster.client.run(os.getpid)
        cluster.prepare(PARLETT, parse_seats(seats), "reference", here=False)  # the workers compile, off their loop
        run(spec, out + "/there", engine="reference", cluster=cluster, writer="client")
        after = cluster.client.run(os.getpid)
    print(json.dumps({"before": sorted(before.values()), "after": sorted(after.values())}))
'''


def _cold_env(tmp_path) -> dict:
    cache = tmp_path / "numba-cache"
    cache.mkdir()
    return {**os.environ, "NUMBA_CACHE_DIR": str(cache)}


@pytest.mark.slow
def test_workers_compile_off_their_event_loop_with_an_empty_cache_and_their_own_thread_count(tmp_path):
    """An empty numba cache (a fresh clone): the workers compile what one small run needs in threads of their own,
    so their heartbeats go on (a scheduler that drops a worker silent for 6 s keeps both, the same processes), and
    the thread count each task sets never meets a NUMBA_NUM_THREADS that numba read earlier (the script imports
    numba first, as the command does); the run is part for part the local one."""
    script = tmp_path / "cold.py"
    script.write_text(COLD)
    env = _cold_env(tmp_path)
    done = subprocess.run([sys.executable, str(script), str(tmp_path)], capture_output=True, text=True, env=env,
                          timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    pids = json.loads(done.stdout.strip().splitlines()[-1])
    assert len(pids["before"]) == 2 and pids["after"] == pids["before"], "a worker was restarted"
    assert any((tmp_path / "numba-cache").rglob("*.nbi")), "the cache was not empty-then-filled: nothing compiled"
    spec = RunSpec.for_deals(PARLETT, ["random", "lowest", "avoid", "random"], deals=48, seed=5, chunk_matches=1)
    run(spec, tmp_path / "here", engine="reference")
    _same_files(tmp_path / "here", tmp_path / "there")


def test_a_scheduler_address_is_not_taken_for_a_malformed_local_and_local_is_bounded_by_the_cores():
    cores = os.cpu_count() or 1
    assert C.local_workers("localhost:8786") is None and C.local_workers("tcp://localhost:8786") is None
    assert C.local_workers("local:1") == 1 and C.local_workers(f"local:{cores}") == cores
    for bad, fragment in (("local", "write local:N"), ("local:x", "write local:N"), ("local:0", "at least 1"),
                          (f"local:{cores + 1}", f"this machine's {cores} cores")):
        with pytest.raises(C.ClusterError, match=fragment):
            C.local_workers(bad)


@pytest.mark.slow
def test_local_99_and_a_malformed_local_are_refused_before_dask_starts():
    def cli(*args):
        return subprocess.run([sys.executable, "-m", "reversis_sim", *args], capture_output=True, text=True,
                              timeout=120)

    r = cli("compare", "--candidate", "tuned", "--baseline", "avoid", "--deals", "240", "--scheduler", "local:99")
    assert r.returncode == 2 and "99 worker processes would share this machine's" in r.stderr, r.stderr
    assert "Traceback" not in r.stderr
    r = cli("simulate", "--deals", "240", "--scheduler", "locale:2", "--out", "never")
    # a host name that starts with "local" is an address, not a malformed local:N: here one that does not resolve,
    # refused at once (no waiting for a scheduler that no name lookup can find)
    assert "write local:N" not in r.stderr
    assert r.returncode != 0 and "the host name 'locale' does not resolve" in r.stderr, r.stderr


def test_a_worker_that_cannot_start_is_one_sentence():
    import dask

    with dask.config.set({"distributed.worker.preload": ["reversis_sim_no_such_module"]}):
        with pytest.raises(C.ClusterError, match="local:1: the worker processes could not start"):
            C.connect("local:1", quiet=True)


@pytest.mark.slow
def test_a_worker_that_dies_while_it_compiles_is_one_sentence(tmp_path):
    """A worker killed while it compiles the engine (cold cache) is one ClusterError sentence naming the worker's
    death, not the scheduler's."""
    script = tmp_path / "dies.py"
    script.write_text(r'''
import os, signal, sys, threading, time
from reversis_sim import cluster as C
from reversis_sim.policies import parse_seats
from reversis_sim.rules import PARLETT

if __name__ == "__main__":
    with C.connect("local:1", quiet=True) as cluster:
        pid = next(iter(cluster.client.run(os.getpid).values()))
        threading.Timer(1.0, os.kill, (pid, signal.SIGKILL)).start()
        try:
            cluster.prepare(PARLETT, parse_seats(["random"]), "reference", here=False)
        except C.ClusterError as e:
            print(e)
            sys.exit(3)
''')
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, env=_cold_env(tmp_path),
                          timeout=300)
    assert done.returncode == 3, (done.stdout, done.stderr[-2000:])
    assert "a worker of local:1 died while loading the engine on the workers" in done.stdout


def _serve(port: int, *, workers: int = 1) -> list[subprocess.Popen]:
    """A dask scheduler on ``port`` and ``workers`` one-thread workers, as separate processes."""
    quiet = dict(stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    procs = [subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_scheduler", "--port", str(port),
                               "--no-dashboard"], **quiet)]
    deadline = time.monotonic() + 60  # until the scheduler listens (it took about 2 s)
    while time.monotonic() < deadline and procs[0].poll() is None:
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                break
        time.sleep(0.05)
    procs += [subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_worker", f"tcp://127.0.0.1:{port}",
                                "--nthreads", "1", "--no-dashboard"], **quiet) for _ in range(workers)]
    return procs


def _stop(procs) -> None:
    for p in procs:
        p.kill()
        p.wait(timeout=30)


@pytest.mark.slow
def test_a_scheduler_that_goes_away_mid_run_is_one_sentence_and_resume_completes_identically(tmp_path):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    out = tmp_path / "there"
    spec = RunSpec.for_deals(PARLETT, ["avoid"], deals=300 * 12, seed=8, chunk_matches=2)
    run(spec, tmp_path / "here")  # the run in this process first: its kernel is on disk before the workers start
    args = ["simulate", "--seat", "avoid", "--deals", str(300 * 12), "--seed", "8", "--chunk-matches", "2",
            "--quiet", "--no-figures", "--writer", "client", "--out", str(out), "--scheduler",
            f"tcp://127.0.0.1:{port}"]
    served = _serve(port)
    try:
        proc = subprocess.Popen([sys.executable, "-m", "reversis_sim", *args], stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True)
        deadline = time.monotonic() + 240
        while time.monotonic() < deadline and proc.poll() is None and len(list(out.glob("part-*.parquet"))) < 3:
            time.sleep(0.01)
        served[0].kill()  # the scheduler goes away
        _, err = proc.communicate(timeout=120)
    finally:
        _stop(served)
    # a run that finished first proves nothing: it fails, never passes by skipping (lengthen the run if it happens)
    assert proc.returncode != 0, "the run finished before the scheduler was stopped: the test's run is too short"
    assert proc.returncode == 1 and "Traceback" not in err, err[-3000:]
    assert f"lost the dask scheduler at tcp://127.0.0.1:{port}" in err and "continue with:" in err, err[-2000:]
    again = err.strip().splitlines()[-1].split("continue with: ", 1)[1]
    served = _serve(port)  # the scheduler is back (the same address), and the printed command finishes the run
    try:
        import shlex

        done = subprocess.run([sys.executable, "-m", "reversis_sim", *shlex.split(again)[1:]], capture_output=True,
                              text=True, timeout=300)
    finally:
        _stop(served)
    assert done.returncode == 0, done.stderr[-3000:]
    _same_files(tmp_path / "here", out)


@pytest.mark.parametrize("after", [0.0, 3.0])
def test_ctrl_c_on_a_local_cluster_stops_at_once_without_the_workers_tracebacks(tmp_path, after):
    """Ctrl-C in a terminal reaches the whole process group (the client and its workers): the workers ignore it
    and the client stops them, so the user reads one sentence, not a traceback per worker. Pressed while the
    workers are still starting (``after`` 0: as soon as their processes exist) it is not lost either: the client
    stopped ignoring it once its fork server was up (it went on with the whole run before)."""
    proc = subprocess.Popen([sys.executable, "-m", "reversis_sim", "compare", "--candidate", "tuned", "--baseline",
                             "avoid", "--deals", "24000000", "--scheduler", "local:2"], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and proc.poll() is None and _children(proc.pid) < 2:
            time.sleep(0.1)
        time.sleep(after)  # 3 s: the workers are playing
        os.killpg(proc.pid, signal.SIGINT)
        stopped = time.monotonic()
        _, err = proc.communicate(timeout=60)
    finally:  # a run that did not stop takes its workers with it, not the rest of the suite's two cores
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
    assert time.monotonic() - stopped < 20
    assert proc.returncode == 130 and "interrupted" in err, err[-2000:]
    assert "Traceback" not in err and "KeyboardInterrupt" not in err, err[-3000:]


def _children(pid: int) -> int:
    out = subprocess.run(["pgrep", "-P", str(pid)], capture_output=True, text=True)
    return len(out.stdout.split())
