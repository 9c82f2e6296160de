"""The fast batch API: many matches in parallel, as a chunk of the run table (:class:`reversis_sim.columns.Chunk`).

``play_matches`` validates and allocates; :func:`.match.play_blocks` computes, its blocks of matches shared among
threads (:func:`run_pieces`). Rows come in (match, deal) order and are byte-identical whatever the thread count and
however the matches are split into calls (each match is a pure function of rules, seats, seed and match number).

A match that ends before ``match_deals`` (``parlett_simple``: no deal follows the one in which a running total
reached ``target_total``, F4.3, G14) has fewer rows: exactly the deals it played, as the reference's
:func:`~reversis_sim.reference.play_match` yields fewer records and :func:`~reversis_sim.columns.from_records`
makes one row per record. A match is then the run of rows with one ``match`` value (``deal`` 0, 1, ...), and a
batch has ``n_matches * match_deals`` rows only when no match ends early (every other preset). The kernel writes
each match at its full-length slot; the wrapper drops the unplayed slots.
"""

from __future__ import annotations

import os
import queue
import threading
from collections import deque
from collections.abc import Sequence

import numba
import numpy as np

from .. import columns
from ..constraints import Deals
from ..kernel import layout as D
from ..kernel.compiled import compile_rules
from ..kernel.layout import Seats
from ..kernel.units import call, compile_beside
from ..policies import PolicySpec
from ..policies.deal_nb import PLAY_FROM, PLAY_PLAIN
from ..rules import Rules
from .deal import Play
from .match import BLOCK, Matches, Out, play_blocks, scratch
from .rows import I16_DEAL, PAY_SLOTS, compact_payments
from .seats import constraint_arrays, policy_seed_array, search_unit, searching, seat_arrays, seed_u64


def play_matches(rules: Rules, seats: Sequence[PolicySpec | str], *, seed: int, first_match: int, n_matches: int,
                 match_deals: int | None = None, threads: int | None = None,
                 policy_seeds: Sequence[int] | None = None, deals: Deals | None = None) -> columns.Chunk:
    """Play matches ``first_match .. first_match + n_matches - 1`` and return their rows.

    Parameters
    ----------
    rules : a rule set the engine plays (:func:`~reversis_sim.kernel.compiled.check_engine_supported`);
    seats : one policy spec per seat; seed : run seed; first_match, n_matches : which matches; match_deals : deals
    per match (default ``rules.match_deals``); threads : numba threads to use (default: numba's current setting);
    policy_seeds : one seed per seat for that seat's policy randomness (default: the run seed for every seat; the
    cards always follow the run seed), for A/A comparisons on the same cards; deals : constrained deals
    (:class:`reversis_sim.constraints.Deals`: predealt cards, a ``where`` condition).

    Returns
    -------
    A :class:`reversis_sim.columns.Chunk` (seat rows and payments) of the deals played in (match, deal) order, equal
    to :func:`reversis_sim.columns.from_records` of the reference's records: ``n_matches * match_deals`` deals,
    fewer where a match ends early (``parlett_simple``, see the module docstring).
    """
    cr = compile_rules(rules)
    family, params = seat_arrays(seats, rules.n_seats)
    n_deals = rules.match_deals if match_deals is None else int(match_deals)
    first_match, n_matches = int(first_match), int(n_matches)
    if n_deals < 1:
        raise ValueError(f"match_deals must be at least 1, got {n_deals}")
    if first_match < 0 or n_matches < 0:
        raise ValueError(f"first_match and n_matches must not be negative, got {first_match}, {n_matches}")
    if first_match + n_matches > 2**32:
        raise ValueError(f"match numbers run to 2**32 - 1 (the run table's uint32), got {first_match + n_matches - 1}")
    slots = _Slots(n_matches * n_deals, rules.n_seats)
    n_played = np.full(n_matches, n_deals, dtype=np.int64)
    shuffles = np.zeros(n_matches, dtype=np.int64)
    if n_matches:
        run_blocks(rules, seats, cr.arrays, Seats(family, params), seed, policy_seeds, first_match, n_matches, n_deals,
                   constraint_arrays(rules, deals), slots.out(n_played, shuffles), threads)
    chunk = slots.chunk(n_played, n_deals)
    chunk.shuffles = int(shuffles.sum())
    return chunk


_scratch = threading.local()


def _payment_slots(n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The payment slots (seat, reason, amount) for ``n`` slots, reused from call to call on one thread: only the
    packed payments leave a call, and fresh slots (1.9 kB a deal) would be page-faulted in again every chunk."""
    have = getattr(_scratch, "slots", None)
    if have is None or len(have[0]) < n:
        _scratch.slots = have = (np.empty(n, np.int8), np.empty(n, np.int8), np.empty(n, np.int64))
    return have[0][:n], have[1][:n], have[2][:n]


class _Slots:
    """The arrays the match kernel fills for ``n`` deal slots: the chunk's seat-row blocks, the payment slots
    (:data:`.rows.PAY_SLOTS` per deal, never zeroed), the payment counts and the error codes."""

    def __init__(self, n: int, n_seats: int):
        self.n_seats = n_seats
        self.seat = columns.empty(n, n_seats)
        self.pay_seat, self.pay_reason, self.pay_amount = _payment_slots(n * PAY_SLOTS)
        self.pay_count = np.zeros(n, np.int64)
        self.err = np.zeros(n, np.int64)

    def out(self, n_played: np.ndarray, shuffles: np.ndarray) -> Out:
        """The arrays as the match kernel writes them, with each match's deals played and shuffles drawn."""
        c = self.seat
        return Out(c.match, c.i8, c.i16, c.i64, self.pay_seat, self.pay_reason, self.pay_amount, self.pay_count,
                   self.err, n_played, shuffles)

    def chunk(self, n_played: np.ndarray, n_deals: int) -> columns.Chunk:
        """The deals played as a chunk (raising the first error a deal reported); a match that ended early at its
        target total leaves its later slots out."""
        played = (np.arange(n_deals)[None, :] < n_played[:, None]).ravel()
        bad = np.flatnonzero(self.err * played)
        if bad.size:
            d = bad[0]
            raise D.kernel_error(self.err[d], self.seat.match[d * self.n_seats],
                                 self.seat.i16[I16_DEAL, d * self.n_seats])
        counts = self.pay_count  # zero for a slot no deal was played in: the kernel writes only the deals played
        seat = self.seat if played.all() else self.seat.keep_deals(played)
        n_pay = int(counts.sum())
        out = {k: np.empty(n_pay, dt) for k, dt in columns.PAYMENT_COLUMNS.items()}
        compact_payments(counts, BLOCK * n_deals, (self.pay_seat, self.pay_reason, self.pay_amount), self.n_seats,
                         self.seat.match, self.seat.i16[I16_DEAL],
                         (out["match"], out["deal"], out["seat"], out["reason"], out["amount"]))
        seat.payments = out
        return seat


def run_blocks(rules: Rules, seats, arrays, kernel_seats: Seats, seed: int, policy_seeds, first_match: int,
               n_matches: int, n_deals: int, constraint, out: Out, threads: int | None) -> None:
    """Play the matches into ``out`` with :func:`.match.play_blocks`, its blocks shared among ``threads`` threads
    (default: numba's thread count) in a few pieces each (the kernel releases the GIL while it plays)."""
    n_blocks = (n_matches + BLOCK - 1) // BLOCK
    with numba_threads(threads):
        n_threads = min(numba.get_num_threads(), n_blocks)
    pseeds = policy_seed_array(seed, policy_seeds, rules.n_seats)
    search, is_searching = search_unit(seats), searching(seats)
    # a table of heuristics plays the skeleton without its cursor's questions (nothing is asked of it, nothing given)
    skeleton = PLAY_FROM if is_searching else PLAY_PLAIN
    compile_beside(skeleton)  # a first run: the skeleton compiles in a process of its own beside the match loop

    def piece(bounds: tuple[int, int]) -> None:
        call(play_blocks, arrays, rules.n_seats, kernel_seats, seed_u64(seed), pseeds,
             Matches(first_match, n_matches, n_deals), bounds[0], bounds[1], out,
             scratch(rules.n_seats, is_searching, constraint), Play(skeleton, search))

    run_pieces(piece, n_blocks, n_threads)


def run_pieces(piece, n_blocks: int, n_threads: int) -> None:
    """Call ``piece((b0, b1))`` for contiguous pieces of blocks ``0 .. n_blocks - 1`` on ``n_threads`` threads: about
    four pieces per thread (so that a thread whose matches take longer is helped by the others), one piece on one
    thread. The kernels release the GIL while they play; the first error raised is raised here. The threads are
    kept from call to call (:class:`_Worker`): a thread started for every call cost a tenth of a two-thread run's
    play (a chunk of 2,000 matches). They are daemons: Ctrl-C ends the process at once, as it ended numba's own
    threads (a kernel cannot be interrupted)."""
    pieces = deque(_pieces(n_blocks, n_threads))
    if n_threads <= 1:
        for p in pieces:
            piece(p)
        return
    lock, errors, done = threading.Lock(), [], threading.Semaphore(0)

    def work() -> None:
        while True:
            with lock:
                if not pieces or errors:
                    return
                p = pieces.popleft()
            try:
                piece(p)
            except BaseException as e:  # noqa: BLE001 - raised in the calling thread
                errors.append(e)
                return

    for worker in _Worker.take(n_threads):
        worker.jobs.put((work, done))
    try:
        for _ in range(n_threads):
            while not done.acquire(timeout=0.1):  # a timeout, so that Ctrl-C reaches this thread at once
                pass
    except BaseException as e:  # Ctrl-C: the pieces playing now end (they cannot be stopped), no other starts
        with lock:
            errors.append(e)
        raise
    if errors:
        raise errors[0]


class _Worker:
    """A daemon thread that runs the jobs put to it (``(job, done)``: ``done`` released after ``job``), then waits idle
    for the next caller of :func:`run_pieces`."""

    _idle: list[_Worker] = []
    _lock = threading.Lock()

    def __init__(self):
        self.jobs = queue.SimpleQueue()
        threading.Thread(target=self._serve, name="reversis-play", daemon=True).start()

    @classmethod
    def take(cls, n: int) -> list[_Worker]:
        """``n`` workers for one call: idle ones, and new ones where too few are idle (calls from several threads at
        once each get their own)."""
        with cls._lock:
            kept = [cls._idle.pop() for _ in range(min(n, len(cls._idle)))]
        return kept + [cls() for _ in range(n - len(kept))]

    @classmethod
    def _forget(cls) -> None:
        """In a forked child: the parent's threads do not exist there, so none is idle."""
        cls._lock = threading.Lock()
        cls._idle = []

    def _serve(self) -> None:
        while True:
            job, done = self.jobs.get()
            try:
                job()
            finally:
                # idle again once its job is over (a Ctrl-C leaves the caller, not the job), and only then said done,
                # so that the caller's next call finds it idle
                with self._lock:
                    self._idle.append(self)
                done.release()


os.register_at_fork(after_in_child=_Worker._forget)


def _pieces(n_blocks: int, n_threads: int) -> list[tuple[int, int]]:
    """Blocks ``0 .. n_blocks - 1`` in contiguous pieces, about four per thread (one on one thread)."""
    n = max(1, min(n_blocks, 4 * n_threads if n_threads > 1 else 1))
    edges = [round(i * n_blocks / n) for i in range(n + 1)]
    return [(a, b) for a, b in zip(edges, edges[1:]) if b > a]


class numba_threads:
    """Set numba's thread count for the duration of a call (thread-local in numba), then restore it."""

    def __init__(self, n: int | None):
        if n is not None and not 1 <= int(n) <= numba.config.NUMBA_NUM_THREADS:
            raise ValueError(f"threads must be 1..{numba.config.NUMBA_NUM_THREADS} (NUMBA_NUM_THREADS), got {n}")
        self.n = None if n is None else int(n)

    def __enter__(self):
        self.saved = numba.get_num_threads()
        if self.n is not None:
            numba.set_num_threads(self.n)

    def __exit__(self, *exc):
        numba.set_num_threads(self.saved)


def core_runner(rules: Rules, seats: Sequence[PolicySpec | str], *, seed: int, n_matches: int,
                match_deals: int | None = None):
    """A callable ``run(n_threads) -> deals played`` that plays matches ``0 .. n_matches - 1`` in the compiled
    kernel alone, writing the run table's rows into arrays allocated here once (for the benchmark: the kernel's own
    pace, without the allocation and the packing of the payments that :func:`play_matches` adds)."""
    cr = compile_rules(rules)
    family, params = seat_arrays(seats, rules.n_seats)
    md = rules.match_deals if match_deals is None else int(match_deals)
    slots = _Slots(n_matches * md, rules.n_seats)
    n_played = np.zeros(n_matches, dtype=np.int64)
    shuffles = np.zeros(n_matches, dtype=np.int64)
    unconstrained = constraint_arrays(rules, None)
    out = slots.out(n_played, shuffles)

    def run(n_threads: int) -> int:
        run_blocks(rules, seats, cr.arrays, Seats(family, params), seed, None, 0, n_matches, md, unconstrained, out,
                   n_threads)
        return int(n_played.sum())

    return run
