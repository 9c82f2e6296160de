"""Faults and bad input: never a wrong number without a word.

Every probe is run the way a user meets it (the command line, or real processes for concurrent writers) and checked
for the same three things: the exit status, one sentence that names the problem and the fix (no traceback), and
nothing lost (the rows already written stay, and a resume ends with exactly the rows of an uninterrupted run).
"""

from __future__ import annotations

import errno
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import numba
import polars as pl
import pytest
from click.testing import CliRunner

from reversis_sim.cli import main
from reversis_sim.record import completed_chunks, part_files, part_path

RUN = ["--deals", "2400", "--seed", "3", "--chunk-matches", "40", "--quiet", "--no-figures"]  # 200 matches, 5 chunks


def cli(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def one_sentence(r, code: int, *fragments: str) -> None:
    """Exit status ``code``, no traceback, and every fragment in the message."""
    assert r.exit_code == code, r.output
    assert isinstance(r.exception, SystemExit) and "Traceback" not in r.output, r.output
    for f in fragments:
        assert f in r.output, (f, r.output)


def rows(out) -> pl.DataFrame:
    return pl.read_parquet(part_files(out)).sort(["match", "deal", "seat"])


@pytest.fixture(scope="module")
def uninterrupted(tmp_path_factory):
    out = tmp_path_factory.mktemp("faults") / "whole"
    assert cli("simulate", *RUN, "--out", out).exit_code == 0
    return out, rows(out)


def copy_run(src: Path, dst: Path) -> Path:
    shutil.copytree(src, dst, ignore=shutil.ignore_patterns(".lock"))
    return dst


# ----------------------------------------------------------------------------------------------------------------
# readers verify every part against the manifest


def test_a_part_of_another_run_swapped_in_is_refused(uninterrupted, tmp_path):
    src, _ = uninterrupted
    other = tmp_path / "other"
    assert cli("simulate", *[a if a != "3" else "4" for a in RUN], "--out", other).exit_code == 0
    run = copy_run(src, tmp_path / "run")
    shutil.copy(part_path(other, 2), part_path(run, 2))
    for command in ("analyze", "plot"):
        one_sentence(cli(command, run), 1, "part-00002.parquet belongs to another run (seed: 4 against 3",
                     "resume the run to recompute chunk 2")


def test_a_part_copied_over_another_is_refused(uninterrupted, tmp_path):
    run = copy_run(uninterrupted[0], tmp_path / "run")
    shutil.copy(part_path(run, 3), part_path(run, 4))
    one_sentence(cli("analyze", run), 1, "part-00004.parquet holds chunk 3, not 4")


def test_an_edited_manifest_is_refused_and_repair_rebuilds_it(uninterrupted, tmp_path):
    run = copy_run(uninterrupted[0], tmp_path / "run")
    manifest = json.loads((run / "manifest.json").read_text())
    manifest["seed"] = 99
    (run / "manifest.json").write_text(json.dumps(manifest))
    one_sentence(cli("analyze", run), 1, "disagrees with all 5 of its part files (seed: 99 against 3",
                 f"reversis-sim repair {run}")
    r = cli("repair", run)
    assert r.exit_code == 0 and "5 of 5 chunks complete" in r.output, r.output
    assert rows(run).equals(uninterrupted[1])


@pytest.mark.parametrize("content,fragment", [
    ("[]", "is not a reversis_sim run manifest (format 'list')"),
    ("{not json", "is not readable JSON"),
    (None, "'seats' is missing"),
])
def test_a_malformed_manifest_is_one_sentence(uninterrupted, tmp_path, content, fragment):
    run = copy_run(uninterrupted[0], tmp_path / "run")
    if content is None:
        manifest = json.loads((run / "manifest.json").read_text())
        del manifest["seats"]
        content = json.dumps(manifest)
    (run / "manifest.json").write_text(content)
    one_sentence(cli("analyze", run), 1, fragment)
    one_sentence(cli("simulate", *RUN, "--out", run, "--resume"), 1, fragment)


def test_a_truncated_part_is_refused_and_a_lost_manifest_is_rebuilt_by_resume(uninterrupted, tmp_path):
    run = copy_run(uninterrupted[0], tmp_path / "run")
    data = part_path(run, 1).read_bytes()
    part_path(run, 1).write_bytes(data[: len(data) // 2])
    one_sentence(cli("analyze", run), 1, "part-00001.parquet is not a readable Parquet file")
    (run / "manifest.json").unlink()
    one_sentence(cli("analyze", run), 1, "it has no manifest.json", f"reversis-sim repair {run}")
    r = cli("simulate", *RUN, "--out", run, "--resume")
    assert r.exit_code == 0 and "rebuilt the lost manifest" in r.output, r.output
    assert rows(run).equals(uninterrupted[1])


# ----------------------------------------------------------------------------------------------------------------
# one writer at a time


def _simulate(out, *extra):
    return [sys.executable, "-m", "reversis_sim", "simulate", "--deals", "24000", "--seed", "1", "--chunk-matches",
            "40", "--quiet", "--no-figures", "--out", str(out), *extra]


@pytest.mark.slow
@pytest.mark.skipif(os.name != "posix", reason="flock is POSIX")
def test_a_second_writer_is_refused_while_the_first_runs_and_a_killed_writer_leaves_no_lock(tmp_path):
    out = tmp_path / "shared"
    first = subprocess.Popen(_simulate(out), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and first.poll() is None and not (out / "manifest.json").exists():
        time.sleep(0.01)
    # the first writer is stopped (holding its lock) while the second tries: however fast the first run is, it
    # cannot finish before the second starts
    first.send_signal(signal.SIGSTOP)
    try:  # the second writer, and the run after the kill below, in this process (a process adds only start-up)
        second = cli(*_simulate(out, "--force", "--seed", "2")[3:])
    finally:
        first.send_signal(signal.SIGCONT)
    first_err = first.communicate(timeout=300)[1]
    assert first.returncode == 0, first_err
    assert second.exit_code == 1 and "Traceback" not in second.output
    assert f"{out} is being written by process {first.pid}" in second.stderr
    assert json.loads((out / "manifest.json").read_text())["seed"] == 1  # the second touched nothing
    assert len(completed_chunks(json.loads((out / "manifest.json").read_text()))) == 50

    killed = subprocess.Popen(_simulate(out, "--force", "--seed", "5"), stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL)
    while time.monotonic() < deadline and killed.poll() is None and not list(out.glob("part-*.parquet")):
        time.sleep(0.005)
    killed.kill()
    killed.wait()
    assert killed.returncode == -signal.SIGKILL, "the run finished before the kill: the test's run is too short"
    again = cli(*_simulate(out, "--force", "--seed", "5")[3:])
    assert again.exit_code == 0, again.output  # the kernel released the dead writer's lock


# ----------------------------------------------------------------------------------------------------------------
# bad sizes: refused at once, nothing created


@pytest.mark.parametrize("args,fragment", [
    (["--deals", str(10**20)], "is not in the range 1<=x<=100000000000"),
    (["--deals", "10", "--match-deals", "1000000"], "is not in the range 1<=x<=10000"),
    (["--deals", "10", "--match-deals", "10000"], "is 1 match; the match is the sampling unit"),
    (["--chunk-matches", "1000000"], "at most 1,000,000"),
])
def test_run_sizes_out_of_bounds_are_refused_before_anything_is_created(tmp_path, args, fragment):
    out = tmp_path / "never"
    one_sentence(cli("simulate", *args, "--out", out), 2, fragment)
    assert not out.exists()


def test_too_many_threads_and_a_one_match_comparison_are_one_sentence(tmp_path):
    too_many = numba.config.NUMBA_NUM_THREADS + 1
    for command in (["simulate", "--out", tmp_path / "t"], ["compare", "--candidate", "avoid", "--baseline", "random"]):
        one_sentence(cli(*command, "--threads", too_many), 2, f"{too_many} is more than the")
    assert not (tmp_path / "t").exists()
    one_sentence(cli("compare", "--candidate", "avoid", "--baseline", "random", "--deals", "1"), 2,
                 "--deals 1 is 1 match of 12 deals")


# ----------------------------------------------------------------------------------------------------------------
# operating-system faults: one sentence, nothing lost, --resume completes to identical rows


def _try_mount(point: Path, options: str) -> bool:
    """Mount a tmpfs with ``options`` where the machine allows it (root in a container does); False otherwise."""
    point.mkdir()
    try:
        done = subprocess.run(["mount", "-t", "tmpfs", "-o", options, "tmpfs", str(point)], capture_output=True)
    except OSError:
        return False
    return done.returncode == 0


def _umount(point: Path) -> None:
    subprocess.run(["umount", "--lazy", str(point)], capture_output=True)  # lazy: a file of it may still be open


def test_a_full_disk_stops_the_run_in_one_sentence_and_resume_completes_it(uninterrupted, tmp_path, monkeypatch):
    """A real tmpfs of 200 kB where the machine allows mounting one, otherwise ENOSPC injected at the third part."""
    point = tmp_path / "small"
    real = _try_mount(point, "size=200k")
    try:
        out = point / "run"
        if not real:
            import reversis_sim.record.folder as folder

            written = []

            def full_disk(table, path, **kw):
                if len(written) >= 2:
                    raise OSError(errno.ENOSPC, "No space left on device", str(path))
                written.append(path)
                return real_write(table, path, **kw)

            real_write = folder.pq.write_table
            monkeypatch.setattr(folder.pq, "write_table", full_disk)
        r = cli("simulate", *RUN, "--out", out)
        one_sentence(r, 1, "no space left on the device", "every chunk written so far is kept",
                     "continue with: reversis-sim simulate", f"--out {out}", "--resume")
        kept = completed_chunks(json.loads((out / "manifest.json").read_text()))
        assert 0 < len(kept) < 5
        if real:  # make room: move the run to a larger disk, as a user would
            moved = tmp_path / "moved"
            shutil.copytree(out, moved)
            out = moved
        else:
            monkeypatch.undo()
        r = cli("simulate", *RUN, "--out", out, "--resume")
        assert r.exit_code == 0, r.output
        assert rows(out).equals(uninterrupted[1])
    finally:
        if real:
            _umount(point)


def test_a_read_only_folder_is_one_sentence_and_creates_nothing(tmp_path, monkeypatch):
    point = tmp_path / "ro"
    real = _try_mount(point, "size=100k,ro")
    try:
        if not real:
            def read_only(self, *a, **kw):
                raise OSError(errno.EROFS, "Read-only file system", str(self))

            monkeypatch.setattr(Path, "mkdir", read_only)
        one_sentence(cli("simulate", *RUN, "--out", point / "run"), 1, "the file system is read-only",
                     "choose another --out")
    finally:
        if real:
            _umount(point)


def test_an_out_folder_under_a_file_is_refused_before_anything_starts(tmp_path):
    (tmp_path / "afile").write_text("mine")
    one_sentence(cli("simulate", *RUN, "--out", tmp_path / "afile" / "run"), 2,
                 f"{tmp_path / 'afile'} is a file, not a folder; choose another --out")
    assert (tmp_path / "afile").read_text() == "mine"


def test_permission_denied_and_a_missing_folder_are_one_sentence(uninterrupted, tmp_path, monkeypatch):
    one_sentence(cli("analyze", tmp_path / "nowhere"), 1, "is not a folder")
    run = copy_run(uninterrupted[0], tmp_path / "run")
    import reversis_sim.plot.files as files

    def denied(self, *a, **kw):
        raise OSError(errno.EACCES, "Permission denied", str(self))

    monkeypatch.setattr(files.Path, "mkdir", denied)
    one_sentence(cli("plot", run), 1, "permission denied", "draw again")


def test_parts_and_manifest_are_fsynced_file_and_folder(tmp_path, monkeypatch):
    synced = []
    real_fsync = os.fsync

    def spy(fd):
        synced.append(os.readlink(f"/proc/self/fd/{fd}") if os.path.exists("/proc/self/fd") else fd)
        return real_fsync(fd)

    monkeypatch.setattr(os, "fsync", spy)
    out = tmp_path / "run"
    assert cli("simulate", *RUN, "--out", out).exit_code == 0
    if os.path.exists("/proc/self/fd"):
        assert any(s.endswith("part-00000.parquet.tmp") for s in synced)  # the file, before its rename
        assert any(s.endswith("manifest.json.tmp") for s in synced)
        assert synced.count(str(out)) >= 2 * 5  # the folder, after every rename
    else:
        assert len(synced) >= 4 * 5


# ----------------------------------------------------------------------------------------------------------------
# --force replaces only a folder of the same kind, and the old figures go with it


def test_force_replaces_only_a_run_and_removes_its_old_figures(tmp_path):
    run = tmp_path / "run"
    assert cli("simulate", *RUN, "--out", run, "--figures").exit_code == 0
    assert (run / "figures" / "fish_by_seat.png").exists()
    assert cli("simulate", *RUN, "--out", run, "--force", "--seed", "4").exit_code == 0
    assert not (run / "figures").exists()

    cmp = tmp_path / "cmp"
    assert cli("compare", "--candidate", "avoid", "--baseline", "random", "--deals", "48", "--out", cmp).exit_code == 0
    one_sentence(cli("simulate", *RUN, "--out", cmp, "--force"), 1, "is a comparison folder; --force replaces only "
                 "a run folder")
    assert (cmp / "comparison.parquet").exists()
    one_sentence(cli("tournament", "--policy", "avoid", "--policy", "lowest", "--deals", "48", "--out", cmp,
                     "--force"), 1, "holds a compare, not a tournament")
    one_sentence(cli("compare", "--candidate", "avoid", "--baseline", "random", "--deals", "48", "--out", run,
                     "--force"), 1, "is not a comparison folder")
    assert part_files(run)
    # a comparison folder given to a command that reads runs says where its tables are
    one_sentence(cli("analyze", cmp), 1, "is a comparison folder (kind 'compare'), not a run folder: its tables are")
