"""Scale-out (issue 17): a run and a comparison on a dask.distributed LocalCluster of two worker processes give the
rows and numbers of the local run; a killed worker costs only its chunk; an unusable scheduler is one sentence."""

from __future__ import annotations

import json
import os
import signal
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


def test_a_comparison_on_the_cluster_has_the_local_numbers(two_workers):
    from reversis_sim.compare import duplicate

    here = duplicate.compare(PARLETT, "tuned", "avoid", n_matches=30, seed=5).summary()
    with C.use(two_workers):
        there = duplicate.compare(PARLETT, "tuned", "avoid", n_matches=30, seed=5).summary()
    assert there == here and here["n_matches"] == 30


def test_workers_with_another_reversis_sim_are_refused(two_workers, monkeypatch):
    monkeypatch.setattr(C, "identity", lambda: {"version": "0.0.0", "sources": "elsewhere"})
    with pytest.raises(C.ClusterError, match="2 of 2 workers run another reversis_sim.*results would differ"):
        C._check_workers(two_workers)


def test_an_unreachable_scheduler_is_one_sentence_and_writes_nothing(tmp_path):
    with pytest.raises(C.ClusterError, match="cannot reach the dask scheduler at tcp://127.0.0.1:9 within 1 s"):
        C.connect("tcp://127.0.0.1:9", timeout=1)
    with pytest.raises(C.ClusterError, match="at least 1 worker"):
        C.connect("local:0")


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
