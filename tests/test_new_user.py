"""The findings of a new user's run through the toolkit, each as that user met it: the command, then the
exit status, one sentence, and nothing lost."""

from __future__ import annotations

import json
import os
import shlex
import signal
import subprocess
import sys
import time
from pathlib import Path
from types import SimpleNamespace

import polars as pl
import pytest
from click.testing import CliRunner

from reversis_sim.cli import main
from reversis_sim.record import completed_chunks, part_files

ROOT = Path(__file__).resolve().parents[1]


def cli(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def rows(out) -> pl.DataFrame:
    return pl.read_parquet(part_files(out)).sort(["match", "deal", "seat"])


def test_a_money_override_that_could_overflow_is_refused_before_anything_runs(tmp_path):
    out = tmp_path / "never"
    r = cli("simulate", "--deals", "24000", "--seed", "1", "--rule", "quinola_dumped=4611686018427387904", "--out",
            out)
    assert r.exit_code == 2 and "a stake or payment is at most 1,000,000 fish" in r.output, r.output
    assert "Traceback" not in r.output and not out.exists()


def _wait_for_parts(out: Path, n: int, proc, limit: float = 240) -> None:
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline and proc.poll() is None:
        try:
            if len(completed_chunks(json.loads((out / "manifest.json").read_text()))) >= n:
                return
        except (OSError, ValueError, KeyError):
            pass
        time.sleep(0.01)


@pytest.mark.slow
@pytest.mark.skipif(os.name != "posix", reason="SIGINT is POSIX")
def test_the_command_printed_after_ctrl_c_is_exactly_runnable_and_finishes_the_run(tmp_path):
    """A constrained run on one thread of the numba engine, interrupted: the printed command keeps --predeal,
    --where, --engine and --threads (all of it but --force), and running it finishes the run with the rows of an
    uninterrupted one."""
    out = tmp_path / "held"
    args = ["simulate", "--predeal", "0=JH", "--where", "hearts(0) >= 3", "--deals", "48000", "--seed", "4",
            "--chunk-matches", "50", "--engine", "numba", "--threads", "1", "--quiet", "--no-figures", "--out",
            str(out), "--force"]
    proc = subprocess.Popen([sys.executable, "-m", "reversis_sim", *args], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    _wait_for_parts(out, 2, proc)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=120)
    # a run that finished first proves nothing: it fails, never passes by skipping (lengthen the run if it happens)
    assert proc.returncode != 0, "the run finished before the interrupt landed: the test's run is too short"
    assert proc.returncode == 130 and "Traceback" not in err, err
    printed = err.strip().splitlines()[-1].strip()
    again = shlex.split(printed)
    assert again[:2] == ["reversis-sim", "simulate"] and "--force" not in again and again[-1] == "--resume"
    for kept in ("--predeal", "0=JH", "--where", "hearts(0) >= 3", "--engine", "--threads"):
        assert kept in again, (kept, printed)
    done = cli(*again[1:])  # the command line's own entry point, in this process (a process adds only start-up)
    assert done.exit_code == 0, done.output
    whole = tmp_path / "whole"
    assert cli(*[a if a != str(out) else str(whole) for a in args]).exit_code == 0
    assert rows(out).equals(rows(whole))


def _until_playing(proc, cpu: float = 3.5) -> None:
    """Wait until ``proc`` has used ``cpu`` seconds of CPU: a command starts in about 1.8 s of it (its imports, its
    kernels loaded), so that is a second into its play on two threads (six seconds of waiting, before: CPU-time does
    not depend on what else the machine runs). Where there is no /proc, six seconds."""
    stat = Path(f"/proc/{proc.pid}/stat")
    if not stat.exists():
        time.sleep(6)
        return
    tick = os.sysconf("SC_CLK_TCK")
    deadline = time.monotonic() + 240
    while time.monotonic() < deadline and proc.poll() is None:
        fields = stat.read_text().rsplit(")", 1)[1].split()
        if (int(fields[11]) + int(fields[12])) / tick >= cpu:  # utime + stime, every thread's
            return
        time.sleep(0.05)


@pytest.mark.slow
def test_ctrl_c_during_compare_stops_at_once_and_says_nothing_was_kept():
    proc = subprocess.Popen([sys.executable, "-m", "reversis_sim", "compare", "--candidate",
                             "search:worlds=64", "--baseline", "tuned", "--deals", "2400000"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    _until_playing(proc)  # started, and deep in a search chunk that the kernel plays in one call
    proc.send_signal(signal.SIGINT)
    sent = time.monotonic()
    _, err = proc.communicate(timeout=60)
    assert time.monotonic() - sent < 5, "Ctrl-C took more than a few seconds to stop the comparison"
    assert proc.returncode == 130 and "Traceback" not in err and "Aborted!" not in err, err
    assert "interrupted: compare stopped before it finished" in err and "nothing of this run was kept" in err


TUNE = ["tune", "--base", "avoid", "--param", "take=0..8", "--param", "guard=0..6", "--budget-deals", "200000",
        "--eval-deals", "4800", "--confirm-deals", "48000", "--seed", "9", "--format", "json"]


@pytest.mark.slow
@pytest.mark.skipif(os.name != "posix", reason="SIGINT is POSIX")
def test_an_interrupted_tuning_keeps_its_evaluations_and_resume_ends_with_the_uninterrupted_result(tmp_path):
    out = tmp_path / "tuning"
    proc = subprocess.Popen([sys.executable, "-m", "reversis_sim", *TUNE, "--out", str(out)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    journal = out / "journal.jsonl"
    deadline = time.monotonic() + 240
    while time.monotonic() < deadline and proc.poll() is None and (
            not journal.exists() or len(journal.read_text().splitlines()) < 4):
        time.sleep(0.01)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode != 0, "the tuning finished before the interrupt landed: the test's tuning is too short"
    assert proc.returncode == 130 and "Traceback" not in err, err
    assert "block evaluations made are kept in" in err and "--resume" in err
    again = shlex.split(err.strip().splitlines()[-1])
    assert again[-1] == "--resume"
    # what follows runs the command line's own entry point in this process (a process adds only start-up)
    refused = cli(*TUNE[:-2], "--seed", "10", "--format", "json", "--out", out, "--resume")
    assert refused.exit_code == 1 and "was started with other settings (confirm_seed, seed differ)" in \
        refused.stderr, refused.output
    resumed = cli(*again[1:])
    assert resumed.exit_code == 0, resumed.output
    assert "block evaluations of" in resumed.stderr and "are read back, not simulated" in resumed.stderr
    whole = cli(*TUNE)
    timing = ("search_seconds", "evaluations_per_s")
    a, b = json.loads(resumed.stdout), json.loads(whole.stdout)
    assert {k: v for k, v in a.items() if k not in timing} == {k: v for k, v in b.items() if k not in timing}
    assert json.loads((out / "manifest.json").read_text())["kind"] == "tune" and (out / "trials.parquet").exists()
    done = cli(*TUNE, "--out", out, "--resume")
    assert done.exit_code == 1 and "holds a complete tune: nothing to resume" in done.stderr


def test_a_refused_tuning_leaves_no_folder_and_an_interrupted_one_asks_for_resume(tmp_path):
    out = tmp_path / "never"
    r = cli(*TUNE, "--budget-deals", "100", "--out", out)
    assert r.exit_code == 2 and "judges 0 candidates" in r.output and not out.exists()
    from reversis_sim.tune.journal import open_journal

    open_journal(out, "tune", {"seed": 1}, resume=False, force=False)  # started, then killed before a trial
    r = cli(*TUNE, "--out", out)
    assert r.exit_code == 1 and "holds an interrupted tune: continue it with --resume" in r.output


def test_best_response_prints_a_negative_explore_mean_with_one_sign(capsys):
    from reversis_sim.cli.tuning import _echo_result
    from reversis_sim.rules import PARLETT

    summary = {"optimizer": "optuna", "n_trials": 9, "n_pruned": 2, "search_deals": 10**6, "search_seconds": 3.0,
               "evaluations_per_s": 5.0, "best": "avoid:take=2", "explore_mean": -5.917, "explore_blocks": 4,
               "significant": False, "confirm_deals": 2400, "confirmed_gain": -0.5, "ci_low": -1.0,
               "ci_high": 0.1, "p_value": 0.2}
    result = SimpleNamespace(summary=lambda: summary, seed=1, confirm_seed=2, baseline="avoid")
    _echo_result(result, PARLETT, "best response to avoid")
    text = capsys.readouterr().out
    assert "(-5.917 fish per deal" in text and "+-" not in text


def test_repair_of_a_folder_that_holds_no_run_leaves_nothing_behind(tmp_path):
    (tmp_path / "notes.txt").write_text("not a run")
    r = cli("repair", tmp_path)
    assert r.exit_code == 1 and "Traceback" not in r.output
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notes.txt"]


def test_the_compile_notice_is_said_on_stderr_whatever_it_is_and_progresses_on_a_terminal(monkeypatch, capsys):
    """A function numba has never compiled (fresh source: nothing cached): what compiles and how long it will
    take, then what it took, on stderr whether it is a terminal or a log; the progress line on a terminal only;
    nothing when the kernels come from the cache. A closure, which numba compiles in every run (it caches none), is
    not announced as a first run's compile: its line says it compiles every time."""
    import numba

    from reversis_sim.cli.compiling import compile_notice, compiling_notice

    def fresh():  # a module-level function of its own (no closure), never compiled before
        ns = {"numba": numba, "__name__": "test_new_user.fresh"}
        exec(f"@numba.njit\ndef f(n):\n    total = 0\n    for i in range(n):\n"
             f"        total += (i * {time.perf_counter_ns()}) % 7\n    return total\n", ns)
        return ns["f"]

    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)
    with compiling_notice(every=0.001, at_least=0.0) as watch:
        fresh()(10)
    err = capsys.readouterr().err
    assert watch.count >= 1 and compile_notice(None) in err and "functions, " in err and "compiled " in err
    assert ".fresh.f " in err  # the kernel that compiled, named
    f = fresh()
    f(10)
    with compiling_notice(every=0.001, at_least=0.0) as watch:
        f(20)  # already compiled for this type: nothing to say
    assert watch.count == 0 and capsys.readouterr().err == ""
    monkeypatch.setattr(sys.stderr, "isatty", lambda: False)
    with compiling_notice(every=0.001, at_least=0.0):
        fresh()(10)
    err = capsys.readouterr().err
    assert compile_notice(None) in err and "compiled " in err and "\r" not in err and "functions, " not in err

    def closure():
        salt = time.perf_counter_ns()

        @numba.njit
        def g(n):
            return (n * salt) % 7
        return g

    with compiling_notice(every=0.001, at_least=0.0):
        closure()(10)
    err = capsys.readouterr().err
    assert compile_notice(None) not in err and "numba compiles these in every run: it caches no closure" in err, err


def test_the_summary_explains_itself_and_the_fate_figure_counts_the_talon(tmp_path):
    out = tmp_path / "run"
    r = cli("simulate", "--deals", "4800", "--seed", "2", "--quiet", "--no-figures", "--out", out)
    assert r.exit_code == 0, r.output
    for words in ("with pool share", "never played: it lay in the talon", "a seat won all the tricks but the last two",
                  "Espagnolette (a hand of four Aces or three Aces and the J♥"):
        assert words in r.output, words
    seat_rows = [line for line in r.output.splitlines() if line.strip().startswith(("0 ", "1 ", "2 ", "3 "))]
    # 400 matches: too few for a reliable interval of a seat's fish, raw or with the pool share, even through the
    # pool's expected size (docs/statistics.md §10), and the summary says how it estimated them
    assert len(seat_rows) == 4 and all(line.count("(too few matches)") == 2 for line in seat_rows)
    assert r.output.count("2,000 needed (24,000 deals)") == 2 and "means through the pool's expected size" in r.output
    from reversis_sim.analysis import figure_tables
    from reversis_sim.analysis.figures_data import EVERY_DEAL

    fates = figure_tables(out)[1]["quinola_fate_by_hearts"]()
    every = fates.filter(pl.col("hearts_at_lead") == EVERY_DEAL)
    assert "talon" in every["quinola_fate"].to_list() and abs(every["rate"].sum() - 1) < 1e-9


def test_the_wait_for_a_kernel_compiled_beside_counts_as_compiling_from_when_the_watch_began(monkeypatch):
    """A command whose deal skeleton compiles in a process beside it waits for it at its first call: that wait is
    compiling, as the person sees it (the notice said 8 s where the command waited 24), and only the wait since the
    watch began counts."""
    from reversis_sim.kernel import jit

    monkeypatch.setattr(jit, "WAITED", {"policies.deal_nb.play_from": 5.0})  # an earlier command's wait
    with jit.CompileWatch() as watch:
        jit.WAITED["policies.deal_nb.play_from"] += 2.0
        jit.WAITED["search.rollout_nb.rollout"] = 1.0
    assert watch.waited == {"policies.deal_nb.play_from": 2.0, "search.rollout_nb.rollout": 1.0}
    assert watch.compiling == 3.0 and watch.count == 0
