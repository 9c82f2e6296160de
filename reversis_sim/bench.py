"""What runs how fast: the engines' throughput measured in one run (the reference, the kernel on one thread and on all
threads), and the cold start.

:func:`measure` is what ``reversis-sim bench`` prints. Every rate is in deals per
second, best of ``repeat`` timed calls after untimed warm-up calls (shared machines are noisy: compare the ratios
measured in the same run, not absolutes); ``first_call_s`` is the time of the very first kernel call (one match),
which compiles the kernel or loads it from the on-disk cache:

- ``reference_deals_per_s``: the reference engine, whole matches (after one untimed match);
- ``kernel_deals_per_s_1_thread`` / ``..._all_threads``: the numba engine through the engine interface
  (:func:`reversis_sim.engines.get_engine`; allocation of the result columns and their conversion included);
- ``kernel_core_deals_per_s_1_thread`` / ``..._all_threads``: the compiled kernel alone, writing into buffers that
  are allocated and touched once beforehand (:func:`reversis_sim.numba_engine.batch.core_runner`);
- ``end_to_end_deals_per_s``: a whole run written to a run folder as ``simulate --no-figures`` writes it
  (:func:`reversis_sim.simulate.run`, all threads, in a temporary folder; the kernels are already compiled, so the
  process's startup is not in it), with ``end_to_end_vs_kernel`` (its ratio to the kernel on all threads through the
  engine interface), ``end_to_end_vs_kernel_core`` (to the kernel core on all threads) and the bytes per deal on
  disk (``disk_bytes_per_deal``: both tables; ``disk_seat_bytes_per_deal``, ``disk_payment_bytes_per_deal``);
- the writer alone, on one thread (:func:`writer_cost`): ``arrow_bytes_per_deal`` (the two Arrow tables of a chunk,
  ``arrow_seat_bytes_per_deal`` and ``arrow_payment_bytes_per_deal`` apart), ``table_build_ns_per_deal``, and
  ``writer_deals_per_s_1_thread`` (Parquet encoding of both tables, in memory), with ``writer_vs_kernel_1_thread``:
  the share of a core the writer needs per core of play.

The cold start (``reversis-sim bench --compile``, :func:`measure_compile`): every command of :data:`COMMANDS`
runs as a person would run it, at a terminal (a pseudo-terminal), in a process of its own with a numba cache of
its own, empty: the seconds to its first line of output (not counting the compile
notice; ``play``: to its first question), to its end, its CPU seconds, and what it compiled, kernel by kernel
(each kernel's compile time exclusive of the kernels compiled within it, from numba's event API: the command
writes them as it ends, :data:`reversis_sim.cli.COMPILE_PROFILE`). Then :func:`compile_everything`, in a process of
its own from an empty cache, compiles every kernel of the package: the CPU seconds it takes is the package's whole
compile budget.
"""

from __future__ import annotations

import json
import os
import pty
import re
import resource
import select
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path

import numba
import pyarrow as pa
import pyarrow.parquet as pq

from .columns import Chunk
from .engines import get_engine
from .numba_engine.batch import core_runner
from .policies import PolicySpec, parse_seats
from .record import WRITE_OPTIONS, RunSpec, payment_table, seat_table
from .record.spec import CHUNK_MATCHES
from .rules import Rules
from .simulate import run


def _best_rate(fn, n_deals: int, repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t0)
    return n_deals / best


def tables_in_turn(rules: Rules, deals: dict[str, int], *, rounds: int = 3, seed: int = 0,
                   progress: Callable[[int, dict], None] | None = None) -> dict[str, float]:
    """Deals per second on one thread of a table of four of each player (``deals``: its spec or name, and the deals
    its table plays per round), the kernel's core: the players in turn and in ``rounds`` rounds, so that a load on
    the machine falls on all of them, and the best round of each counts (as :func:`measure` takes the best of its
    repeats); ``progress(round, best so far)`` after each round."""
    fast = get_engine("numba")
    runners = {}
    for player, n in deals.items():
        specs = parse_seats([player], rules=rules)
        fast.columns(rules, specs, seed=seed, first_match=0, n_matches=1, threads=1)  # compiles or loads the kernel
        runners[player] = core_runner(rules, specs, seed=seed, n_matches=max(1, -(-n // rules.match_deals)))
    best = dict.fromkeys(deals, 0.0)
    for k in range(rounds):
        for player, core in runners.items():
            t0 = time.perf_counter()
            played = core(1)
            best[player] = max(best[player], played / (time.perf_counter() - t0))
        if progress:
            progress(k + 1, dict(best))
    return best


def measure(rules: Rules, seats: Sequence[PolicySpec | str] = ("random",), n_deals: int = 240_000, *,
            reference_deals: int = 2_400, repeat: int = 5, threads: int | None = None, seed: int = 0) -> dict:
    """Deals per second of the reference and of the kernel (1 thread and ``threads``, default all numba threads).

    ``n_deals`` (kernel) and ``reference_deals`` are rounded up to whole matches of ``rules.match_deals``; the rates
    count the deals actually played (fewer where matches end at their target total, ``parlett_simple``).
    """
    specs = parse_seats([str(s) for s in seats] or ["random"], rules=rules)
    md = rules.match_deals
    n_matches = max(1, -(-n_deals // md))
    ref_matches = max(1, -(-reference_deals // md))
    all_threads = numba.config.NUMBA_NUM_THREADS if threads is None else int(threads)
    reference, fast = get_engine("reference"), get_engine("numba")
    fast.check(rules)

    reference.match_records(rules, specs, seed=seed, match=10**6)  # untimed: loads the shared numba decisions
    t0 = time.perf_counter()
    ref_played = sum(len(reference.match_records(rules, specs, seed=seed, match=m)) for m in range(ref_matches))
    ref_rate = ref_played / (time.perf_counter() - t0)

    def api(n_threads: int):
        return lambda: fast.columns(rules, specs, seed=seed, first_match=0, n_matches=n_matches, threads=n_threads)

    t0 = time.perf_counter()
    fast.columns(rules, specs, seed=seed, first_match=0, n_matches=1, threads=1)  # compiles or loads the kernel
    warmup_s = time.perf_counter() - t0
    n = len(api(1)()["match"])  # untimed; the deals played
    core = core_runner(rules, specs, seed=seed, n_matches=n_matches)
    assert core(1) == n  # untimed; touches the buffers
    result = {
        "rules": rules.name,
        "seats": [str(s) for s in specs],
        "n_deals": n,
        "reference_deals": ref_played,
        "threads": all_threads,
        "reference_deals_per_s": ref_rate,
        "kernel_deals_per_s_1_thread": _best_rate(api(1), n, repeat),
        "kernel_deals_per_s_all_threads": _best_rate(api(all_threads), n, repeat),
        "kernel_core_deals_per_s_1_thread": _best_rate(lambda: core(1), n, repeat),
        "kernel_core_deals_per_s_all_threads": _best_rate(lambda: core(all_threads), n, repeat),
        "first_call_s": warmup_s,
    }
    sample = fast.columns(rules, specs, seed=seed, first_match=0, n_matches=min(n_matches, CHUNK_MATCHES), threads=1)
    result.update(writer_cost(sample, [str(s) for s in specs], repeat))
    result["writer_vs_kernel_1_thread"] = (result["kernel_core_deals_per_s_1_thread"]
                                           / result["writer_deals_per_s_1_thread"])
    result.update(end_to_end(rules, specs, n, threads=all_threads, seed=seed))
    result["end_to_end_vs_kernel"] = result["end_to_end_deals_per_s"] / result["kernel_deals_per_s_all_threads"]
    result["end_to_end_vs_kernel_core"] = (result["end_to_end_deals_per_s"]
                                           / result["kernel_core_deals_per_s_all_threads"])
    result["speedup_1_thread_vs_reference"] = result["kernel_deals_per_s_1_thread"] / ref_rate
    result["speedup_all_threads_vs_1_thread"] = (result["kernel_deals_per_s_all_threads"]
                                                 / result["kernel_deals_per_s_1_thread"])
    return result


def writer_cost(chunk: Chunk, seats: list[str], repeat: int = 5) -> dict:
    """What writing ``chunk`` costs on one thread, best of ``repeat``: building its two Arrow tables (views of the
    chunk's arrays), their size, and encoding both as ``simulate`` writes them (into memory, no disk)."""
    n = chunk.n_deals
    build, tables = float("inf"), None
    for _ in range(repeat):
        t0 = time.perf_counter()
        tables = seat_table(chunk, seats), payment_table(chunk, seats)
        build = min(build, time.perf_counter() - t0)

    def encode() -> None:
        for table in tables:
            pq.write_table(table, pa.BufferOutputStream(), **WRITE_OPTIONS)

    return {"arrow_bytes_per_deal": (tables[0].nbytes + tables[1].nbytes) / n,
            "arrow_seat_bytes_per_deal": tables[0].nbytes / n, "arrow_payment_bytes_per_deal": tables[1].nbytes / n,
            "payment_rows_per_deal": tables[1].num_rows / n, "table_build_ns_per_deal": build / n * 1e9,
            "writer_deals_per_s_1_thread": _best_rate(encode, n, repeat)}


def end_to_end(rules: Rules, seats: Sequence[PolicySpec | str], n_deals: int, *, threads: int | None = None,
               seed: int = 0) -> dict:
    """A run of ``n_deals`` deals simulated and written to a temporary run folder (``simulate --no-figures``):
    ``end_to_end_deals_per_s`` (wall time of :func:`reversis_sim.simulate.run`, one run), ``disk_bytes_per_deal``
    (both tables' files; ``disk_seat_bytes_per_deal``, ``disk_payment_bytes_per_deal`` apart), ``end_to_end_deals``."""
    spec = RunSpec.for_deals(rules, [str(s) for s in seats], deals=n_deals, seed=seed)
    with tempfile.TemporaryDirectory(prefix="reversis-bench-") as tmp:
        out = Path(tmp) / "run"
        t0 = time.perf_counter()
        report = run(spec, out, threads=threads)
        wall = time.perf_counter() - t0
        seat = sum(p.stat().st_size for p in out.glob("part-*.parquet"))
        pay = sum(p.stat().st_size for p in out.glob("payments-*.parquet"))
    deals = report.n_deals_run
    return {"end_to_end_deals": deals, "end_to_end_deals_per_s": deals / wall,
            "disk_bytes_per_deal": (seat + pay) / deals, "disk_seat_bytes_per_deal": seat / deals,
            "disk_payment_bytes_per_deal": pay / deals}


def measure_search(rules: Rules, settings: Sequence[str], field: str = "tuned", n_deals: int = 2_400, *,
                   repeat: int = 3, threads: int | None = None, seed: int = 0) -> dict:
    """The cost of search policies: for each setting in ``settings``, one searching seat (seat 0) among three
    ``field`` seats, in deals per second on one thread (per core) and on ``threads``, and the searching seat's cards
    per second (one thread); beside the same deals with ``field`` in every seat, measured in the same run.

    ``n_deals`` is rounded up to whole matches. Returns ``{"rules", "field", "n_deals", "threads",
    "field_deals_per_s_1_thread", "rows": [{"setting", "deals_per_s_1_thread", "deals_per_s_all_threads",
    "cards_per_s_1_thread", "x_field"}]}`` (``x_field``: how many times slower than the field's own table)."""
    fast = get_engine("numba")
    fast.check(rules)
    n_matches = max(1, -(-n_deals // rules.match_deals))
    all_threads = numba.config.NUMBA_NUM_THREADS if threads is None else int(threads)
    field_specs = parse_seats([field], rules=rules)

    def run(specs, n_threads):
        return lambda: fast.columns(rules, specs, seed=seed, first_match=0, n_matches=n_matches, threads=n_threads)

    fast.columns(rules, field_specs, seed=seed, first_match=0, n_matches=1, threads=1)  # compiles or loads
    n = len(run(field_specs, 1)()["match"])
    field_rate = _best_rate(run(field_specs, 1), n, repeat)
    rows = []
    for setting in settings:
        specs = parse_seats([setting] + [field] * (rules.n_seats - 1), rules=rules)
        fast.columns(rules, specs, seed=seed, first_match=0, n_matches=1, threads=1)  # untimed
        one = _best_rate(run(specs, 1), n, repeat)
        rows.append({"setting": str(specs[0]), "deals_per_s_1_thread": one,
                     "deals_per_s_all_threads": _best_rate(run(specs, all_threads), n, repeat),
                     "cards_per_s_1_thread": one * rules.n_tricks, "x_field": field_rate / one})
    return {"rules": rules.name, "field": str(field_specs[0]), "n_deals": n, "threads": all_threads,
            "field_deals_per_s_1_thread": field_rate, "rows": rows}


COMMANDS: dict[str, list[str]] = {
    "simulate": ["simulate", "--deals", "24000", "--seed", "1", "--out", "{tmp}/run", "--force", "--no-figures"],
    "compare": ["compare", "--candidate", "strong", "--baseline", "tuned", "--deals", "4800", "--seed", "2"],
    "replay (a search seat)": ["replay", "--seed", "1", "--match", "0", "--deal", "0", "--seat", "search", "--seat",
                               "tuned", "--seat", "tuned", "--seat", "tuned"],
    "review (one deal)": ["review", "--seed", "1", "--match", "0", "--deal", "0"],
    "play (to its first question)": ["play", "--seed", "1", "--deals", "1", "--out", "{tmp}/games", "--speed", "0"],
    "simulate --rules modern_five": ["simulate", "--rules", "modern_five", "--deals", "24000", "--seed", "1", "--out",
                                     "{tmp}/five", "--force", "--no-figures"],
}
"""The commands timed, by the name the table gives them: their arguments (``{tmp}``: a folder of the run's own)."""

_NOTICE = re.compile(r"^(compiling the numba kernels|compiled \d+ functions| +\S+: \d+ functions)")
_ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")
_QUESTION = re.compile(r"\): $|\? $|: $")


def first_output(argv: list[str], *, timeout: float = 1800.0) -> dict:
    """Run ``reversis-sim argv`` at a pseudo-terminal with an empty numba cache: ``first_line_s`` (the first line
    that is not the compile notice; a question waiting for an answer counts), ``end_s``, ``cpu_s`` (the process's
    user and system seconds), ``compiled`` (functions) and ``kernels`` (seconds by kernel, exclusive). A command
    that asks questions is stopped at its first one."""
    with tempfile.TemporaryDirectory() as tmp:
        profile = Path(tmp) / "profile.json"
        env = {**os.environ, "NUMBA_CACHE_DIR": str(Path(tmp) / "cache"), "REVERSIS_COMPILE_PROFILE": str(profile),
               "COLUMNS": "100"}
        args = [a.replace("{tmp}", tmp) for a in argv]
        leader, follower = pty.openpty()
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.monotonic()
        proc = subprocess.Popen([sys.executable, "-m", "reversis_sim", *args], stdin=follower, stdout=follower,
                                stderr=follower, env=env, close_fds=True, start_new_session=True)
        os.close(follower)
        first, pending, asked = None, "", False
        while time.monotonic() - start < timeout:
            ready, _, _ = select.select([leader], [], [], 0.2)
            if not ready:
                if proc.poll() is not None:
                    break  # ended, and all it wrote has been read
                continue
            try:
                chunk = os.read(leader, 4096).decode(errors="replace")
            except OSError:  # the command ended and its terminal closed
                break
            if not chunk:
                break
            pending += chunk
            *lines, pending = re.split(r"[\r\n]", pending)
            for line in lines:
                text = _ANSI.sub("", line).strip("\n")
                if first is None and text.strip() and not _NOTICE.match(text):
                    first = time.monotonic() - start
            if _QUESTION.search(_ANSI.sub("", pending)):
                first = first if first is not None else time.monotonic() - start
                asked = True
                os.write(leader, b"\x04")  # end of input: the command stops, keeping nothing
                break
        proc.wait(timeout=timeout)
        end = time.monotonic() - start
        os.close(leader)
        return _result(first, end, before, asked, proc.returncode, profile)


def _result(first, end, before, asked, exit_code, profile: Path) -> dict:
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    prof = json.loads(profile.read_text()) if profile.exists() else {"count": 0, "seconds": {}}
    return {"first_line_s": first, "end_s": end, "cpu_s": cpu, "asked": asked, "exit_code": exit_code,
            "compiled": prof["count"], "kernels": prof["seconds"]}


EVERYTHING = """
import json, sys
from reversis_sim.bench import compile_everything
from reversis_sim.kernel.jit import CompileWatch
with CompileWatch() as watch:
    compile_everything()
json.dump({"count": watch.count, "seconds": watch.seconds}, open(sys.argv[1], "w"))
"""


def whole_package(*, timeout: float = 3600.0) -> dict:
    """:func:`compile_everything` in a process of its own from an empty numba cache: as :func:`first_output`."""
    with tempfile.TemporaryDirectory() as tmp:
        profile = Path(tmp) / "profile.json"
        env = {**os.environ, "NUMBA_CACHE_DIR": str(Path(tmp) / "cache")}
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.monotonic()
        r = subprocess.run([sys.executable, "-c", EVERYTHING, str(profile)], env=env, timeout=timeout,
                           capture_output=True, text=True)
        if r.returncode:
            raise RuntimeError(f"compiling every kernel failed:\n{r.stderr[-3000:]}")
        return _result(None, time.monotonic() - start, before, False, r.returncode, profile)


def compile_everything() -> None:
    """Compile (or load) every kernel of the package, by playing a little of everything it plays: a table of
    heuristics and one with searches (every search setting's branch: inference, races), in both engines' ways (the
    run table, the traced match, the reference's searching seat), the hands dealt and a ``--where``'s acceptance,
    the review of a table with a search and luck, and a record's review and a hint."""
    from . import cards as C
    from .constraints import deals_of
    from .numba_engine.hands import acceptance, dealt_hands
    from .policies import parse_seats
    from .reference import replay
    from .review.reviewing import record_arrays, review_key, review_matches, review_record
    from .rules import PRESETS

    rules = PRESETS["parlett"]
    fast = get_engine("numba")
    heuristics = parse_seats(["avoid", "random", "tuned", "lowest"], 4)
    searches = parse_seats(["search:worlds=2", "search:worlds=2,infer=rollout", "tuned", "avoid"], 4)
    for seats in (heuristics, searches):
        fast.columns(rules, seats, seed=0, first_match=0, n_matches=1, match_deals=1)
    record = fast.deal_record(rules, searches, seed=0, match=0, deal=0)
    replay(rules, searches, seed=0, match=0, deal=0)
    dealt_hands(rules, seed=0, first_match=0, n_matches=1)
    acceptance(rules, deals_of(rules, (), "hearts(0) >= 0"), 4)
    review_matches(rules, searches, seed=0, first_match=0, n_matches=1, reviewed=[0, 2], worlds=2, rollout="tuned",
                   match_deals=1, luck_samples=1)
    review_record(rules, record_arrays(rules, record), key=review_key(record), reviewed=[1, 2], worlds=2,
                  rollout="tuned")
    live = {**record, "tricks": record["tricks"][:1] + [{**record["tricks"][1], "cards": [], "winner": None}]}
    review_record(rules, record_arrays(rules, live), key=review_key(live), reviewed=(), worlds=2, rollout="tuned",
                  card=C.parse(live["hands"][live["tricks"][1]["leader"]][0]))


def measure_compile(commands: dict[str, list[str]] | None = None, *, everything: bool = True,
            progress=None) -> dict:
    """Every command of ``commands`` (default :data:`COMMANDS`) from an empty cache (:func:`first_output`), then the
    whole package (:func:`whole_package`); ``progress(name, result)`` after each."""
    out = {}
    for name, argv in (commands or COMMANDS).items():
        out[name] = first_output(argv)
        if progress:
            progress(name, out[name])
    if everything:
        out["every kernel of the package"] = whole_package()
        if progress:
            progress("every kernel of the package", out["every kernel of the package"])
    return out
