"""Throughput of the engines, measured in one run: the reference, the kernel on one thread and on all threads.

:func:`measure` is what ``bench/bench_engine.py`` prints (and what the CLI can call). Every rate is in deals per
second, best of ``repeat`` timed calls after untimed warm-up calls; ``first_call_s`` is the time of the very first
call (one match), which compiles the kernel or loads it from the on-disk cache:

- ``reference_deals_per_s``: :func:`reversis_sim.reference.play_match`, whole matches;
- ``kernel_deals_per_s_1_thread`` / ``..._all_threads``: :func:`reversis_sim.engine.play_matches`, the public API
  (allocation of the result columns and their conversion included);
- ``kernel_core_deals_per_s_1_thread`` / ``..._all_threads``: the compiled kernel alone, writing into buffers that
  are allocated and touched once beforehand. The difference to the API is mostly the first touch of fresh memory:
  the ``paid``/``received`` columns take 2 kB per deal.
"""

from __future__ import annotations

import time
from collections.abc import Sequence

import numba
import numpy as np

from .. import columns, reference
from ..policies import PolicySpec, parse_seats
from ..rules import Rules
from . import layout as D
from .batch import play_matches
from .compiled import compile_rules
from .keys import policy_seed_array, seed_u64
from .match import match_kernels
from .seats import seat_arrays


def _best_rate(fn, n_deals: int, repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t0)
    return n_deals / best


def measure(rules: Rules, seats: Sequence[PolicySpec | str] = ("random",), n_deals: int = 240_000, *,
            reference_deals: int = 2_400, repeat: int = 5, threads: int | None = None, seed: int = 0) -> dict:
    """Deals per second of the reference and of the kernel (1 thread and ``threads``, default all numba threads).

    ``n_deals`` (kernel) and ``reference_deals`` are rounded up to whole matches of ``rules.match_deals``; the rates
    count the deals actually played (fewer where matches end at their target total, ``parlett_simple``).
    """
    specs = parse_seats([str(s) for s in seats], rules.n_seats) if seats else parse_seats(["random"])
    md = rules.match_deals
    n_matches = max(1, -(-n_deals // md))
    ref_matches = max(1, -(-reference_deals // md))
    all_threads = numba.config.NUMBA_NUM_THREADS if threads is None else int(threads)

    def run_reference():
        played = 0
        for m in range(ref_matches):
            for _ in reference.play_match(rules, specs, seed=seed, match=m):
                played += 1
        return played

    t0 = time.perf_counter()
    ref_played = run_reference()
    ref_rate = ref_played / (time.perf_counter() - t0)

    def api(n_threads: int):
        return lambda: play_matches(rules, specs, seed=seed, first_match=0, n_matches=n_matches,
                                    threads=n_threads)

    cr = compile_rules(rules)
    family, params = seat_arrays(specs, rules.n_seats)
    n = n_matches * md
    out = np.zeros((D.N_OUT_COLS, n), dtype=np.int64)
    cols = columns.empty(n, rules.n_seats)
    n_played = np.zeros(n_matches, dtype=np.int64)
    pseeds = policy_seed_array(seed, None, rules.n_seats)
    kernel, _ = match_kernels(rules.n_seats)

    def core(n_threads: int):
        def run():
            saved = numba.get_num_threads()
            numba.set_num_threads(n_threads)
            try:
                kernel(cr.params, cr.tables, cr.deck, family, params, seed_u64(seed), pseeds, 0, n_matches, md, out,
                       cols["paid"], cols["received"], n_played)
            finally:
                numba.set_num_threads(saved)
        return run

    t0 = time.perf_counter()
    play_matches(rules, specs, seed=seed, first_match=0, n_matches=1, threads=1)  # compiles or loads the kernel
    warmup_s = time.perf_counter() - t0
    n = len(api(1)()["match"])  # untimed; the deals played
    core(1)()  # touches the buffers
    assert int(n_played.sum()) == n
    result = {
        "rules": rules.name,
        "seats": [str(s) for s in specs],
        "n_deals": n,
        "reference_deals": ref_played,
        "threads": all_threads,
        "reference_deals_per_s": ref_rate,
        "kernel_deals_per_s_1_thread": _best_rate(api(1), n, repeat),
        "kernel_deals_per_s_all_threads": _best_rate(api(all_threads), n, repeat),
        "kernel_core_deals_per_s_1_thread": _best_rate(core(1), n, repeat),
        "kernel_core_deals_per_s_all_threads": _best_rate(core(all_threads), n, repeat),
        "first_call_s": warmup_s,
    }
    result["speedup_1_thread_vs_reference"] = result["kernel_deals_per_s_1_thread"] / ref_rate
    result["speedup_all_threads_vs_1_thread"] = (result["kernel_deals_per_s_all_threads"]
                                                 / result["kernel_deals_per_s_1_thread"])
    return result
