"""Throughput of the engines, measured in one run: the reference, the kernel on one thread and on all threads.

:func:`measure` is what ``reversis-sim bench`` and ``bench/bench_engine.py`` print. Every rate is in deals per
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
"""

from __future__ import annotations

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
        specs = parse_seats([player], rules.n_seats)
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
    specs = parse_seats([str(s) for s in seats] or ["random"], rules.n_seats)
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
    field_specs = parse_seats([field], rules.n_seats)

    def run(specs, n_threads):
        return lambda: fast.columns(rules, specs, seed=seed, first_match=0, n_matches=n_matches, threads=n_threads)

    fast.columns(rules, field_specs, seed=seed, first_match=0, n_matches=1, threads=1)  # compiles or loads
    n = len(run(field_specs, 1)()["match"])
    field_rate = _best_rate(run(field_specs, 1), n, repeat)
    rows = []
    for setting in settings:
        specs = parse_seats([setting] + [field] * (rules.n_seats - 1), rules.n_seats)
        fast.columns(rules, specs, seed=seed, first_match=0, n_matches=1, threads=1)  # untimed
        one = _best_rate(run(specs, 1), n, repeat)
        rows.append({"setting": str(specs[0]), "deals_per_s_1_thread": one,
                     "deals_per_s_all_threads": _best_rate(run(specs, all_threads), n, repeat),
                     "cards_per_s_1_thread": one * rules.n_tricks, "x_field": field_rate / one})
    return {"rules": rules.name, "field": str(field_specs[0]), "n_deals": n, "threads": all_threads,
            "field_deals_per_s_1_thread": field_rate, "rows": rows}
