"""Determinism by key (every draw a function of its key; matches independent; a chunk a pure function of its number):
the batch columns are byte-identical whatever the thread count and however the matches are split into calls."""

import numba
import numpy as np
import pytest

from reversis_sim import columns
from reversis_sim.numba_engine import play_matches
from reversis_sim.policies import parse_seats
from reversis_sim.rules import PRESETS

SEATS = parse_seats(["random"])
N_MATCHES = 150  # not a multiple of the kernel's block of 16 matches


def _bytes(chunk):
    return {k: (v.dtype.str, v.shape, v.tobytes()) for k, v in chunk.arrays().items()}


def _payments_by_deal(chunk):
    """Each deal's payment amounts summed (its seats' fish, since the pool is no row's seat)."""
    p = chunk.payments
    first = np.searchsorted(chunk["match"], p["match"])  # the match's first deal
    return np.bincount(first + p["deal"].astype(np.int64), weights=p["amount"], minlength=chunk.n_deals)


@pytest.fixture(scope="module")
def one_thread():
    return play_matches(PRESETS["parlett"], SEATS, seed=123, first_match=5, n_matches=N_MATCHES, threads=1)


def test_layout_is_the_columns_contract(one_thread):
    want = columns.empty(N_MATCHES * 12, n_payments=len(one_thread.payments["match"])).arrays()
    got = one_thread.arrays()
    assert list(got) == list(want)
    for k in want:
        assert got[k].dtype == want[k].dtype and got[k].shape == want[k].shape, k
    assert np.array_equal(one_thread["match"], np.repeat(np.arange(5, 5 + N_MATCHES), 12))
    assert np.array_equal(one_thread["deal"], np.tile(np.arange(12), N_MATCHES))


@pytest.mark.skipif(numba.config.NUMBA_NUM_THREADS < 2, reason="needs at least 2 numba threads")
def test_thread_count_does_not_change_a_byte(one_thread):
    two = play_matches(PRESETS["parlett"], SEATS, seed=123, first_match=5, n_matches=N_MATCHES, threads=2)
    assert _bytes(two) == _bytes(one_thread)
    every = play_matches(PRESETS["parlett"], SEATS, seed=123, first_match=5, n_matches=N_MATCHES)
    assert _bytes(every) == _bytes(one_thread)


@pytest.mark.parametrize("cuts", [(1,), (16, 17, 100), (7, 8, 9, 149)])
def test_chunking_does_not_change_a_byte(one_thread, cuts):
    edges = [0, *cuts, N_MATCHES]
    parts = [play_matches(PRESETS["parlett"], SEATS, seed=123, first_match=5 + a, n_matches=b - a, threads=1)
             for a, b in zip(edges, edges[1:])]
    assert _bytes(columns.concat(parts)) == _bytes(one_thread)


def test_match_deals_and_seed_change_the_rows(one_thread):
    short = play_matches(PRESETS["parlett"], SEATS, seed=123, first_match=5, n_matches=3, match_deals=4)
    assert len(short["deal"]) == 12 and short["deal"].tolist() == [0, 1, 2, 3] * 3
    same = one_thread["fish"].reshape(N_MATCHES, 12, 4)[:3, :4].reshape(12, 4)
    assert np.array_equal(short["fish"], same)  # a match's first deals do not depend on its length
    other = play_matches(PRESETS["parlett"], SEATS, seed=124, first_match=5, n_matches=3)
    assert not np.array_equal(other["fish"], one_thread["fish"][:36])
    empty = play_matches(PRESETS["parlett"], SEATS, seed=123, first_match=0, n_matches=0)
    assert all(len(v) == 0 for v in empty.arrays().values())


def test_chips_are_conserved(one_thread):
    c = one_thread
    net = c["fish"].sum(axis=1) + (c["pool_after"] - c["pool_before"])
    assert not net.any()
    assert np.array_equal(c["to_pool"].sum(axis=1) - c["from_pool"].sum(axis=1), c["pool_after"] - c["pool_before"])
    assert np.array_equal(_payments_by_deal(c), c["fish"].sum(axis=1))
    # the pool carries from deal to deal inside a match, and a match starts empty
    pools = c["pool_before"].reshape(N_MATCHES, 12)
    assert not pools[:, 0].any()
    assert np.array_equal(pools[:, 1:], c["pool_after"].reshape(N_MATCHES, 12)[:, :-1])


@pytest.mark.parametrize("name", ["parlett_simple", "modern_five", "modern_partie", "serbian"])
def test_other_tables_are_deterministic_and_conserve_chips(name):
    """The same guarantees for five seats, a pot that carries, doubled antes, and matches that end early (whose
    rows are the deals they played, in order)."""
    rules = PRESETS[name]
    seats = parse_seats(["random"], rules.n_seats)
    one = play_matches(rules, seats, seed=9, first_match=3, n_matches=40, threads=1)
    every = play_matches(rules, seats, seed=9, first_match=3, n_matches=40)
    parts = [play_matches(rules, seats, seed=9, first_match=a, n_matches=b - a, threads=1)
             for a, b in ((3, 20), (20, 21), (21, 43))]
    assert _bytes(every) == _bytes(one) == _bytes(columns.concat(parts))
    assert one["fish"].shape[1] == rules.n_seats and one.n_rows == rules.n_seats * one.n_deals
    matches, start, n_deals = np.unique(one["match"], return_index=True, return_counts=True)
    assert matches.tolist() == list(range(3, 43))
    for s, k in zip(start, n_deals):
        assert one["deal"][s:s + k].tolist() == list(range(k))
    if rules.scoring == "simple":
        assert (n_deals < rules.match_deals).any() and len(one["match"]) == n_deals.sum()
    else:
        assert (n_deals == rules.match_deals).all()
    net = one["fish"].sum(axis=1) + (one["pool_after"] - one["pool_before"])
    assert not net.any()
    assert np.array_equal(_payments_by_deal(one), one["fish"].sum(axis=1))
    if not rules.pool_persists:
        assert not one["pool_before"].any()
    if rules.dealer_sits_out:  # the dealer takes no part: no cards, no tricks, only his share of the bête
        rows = np.arange(len(one["dealer"]))
        assert not one["tricks_won"][rows, one["dealer"]].any()
        assert not one["hearts_at_lead"][rows, one["dealer"]].any()
        assert (one["fish"][rows, one["dealer"]] >= 0).all()


def test_a_pool_past_the_engine_limit_is_an_error_naming_the_deal_not_a_wrapped_number():
    """The kernel refuses a deal whose pool is past MAX_POOL (a doubling could overflow 64-bit chips): the
    wrapper's exception names the match, the deal and the way out."""
    from reversis_sim.kernel.layout import ERR_POOL, MAX_POOL, kernel_error

    e = kernel_error(ERR_POOL, 7, 31)
    assert isinstance(e, OverflowError) and "match 7 deal 31" in str(e) and "--match-deals" in str(e)
    from reversis_sim.rules import MAX_AMOUNT, MAX_FACTOR

    # what one seat may pay in a deal the kernel accepts: the pool doubled once (one Quinola event a deal) plus the
    # largest stake, times the opposite-seat and last-tricks multipliers (a forced J♥ under serbian), then a failed
    # espagnolette's return of the pool, a won pool, a reversis' pool: all of it fits 64 bits with room to spare
    assert (MAX_FACTOR**2 + MAX_FACTOR + 2) * (2 * MAX_POOL + MAX_AMOUNT) < 2**62


def test_the_threads_playing_the_pieces_are_kept_from_call_to_call_and_errors_reach_the_caller():
    """run_pieces hands every block to exactly one piece on the threads it was given, reuses the same threads on the
    next call (starting a thread for every call cost a tenth of a two-thread run), and raises a piece's error in
    the caller, after which the threads serve the next call."""
    import threading

    from reversis_sim.numba_engine.batch import run_pieces

    def calls(n_blocks):
        seen, lock = [], threading.Lock()

        def piece(bounds):
            with lock:
                seen.append((threading.get_ident(), bounds))
        run_pieces(piece, n_blocks, 2)
        blocks = sorted(b for _, (b0, b1) in seen for b in range(b0, b1))
        assert blocks == list(range(n_blocks))
        return {ident for ident, _ in seen}

    def workers():
        return {t.ident for t in threading.enumerate() if t.name == "reversis-play"}

    calls(40)
    kept = workers()
    for _ in range(20):
        used = calls(40)
        assert used <= kept and threading.get_ident() not in used
    assert workers() == kept and len(kept) >= 2  # never a new thread for a call once enough are waiting

    def failing(bounds):
        if bounds[0] == 0:
            raise ValueError("piece 0 fails")
    with pytest.raises(ValueError, match="piece 0 fails"):
        run_pieces(failing, 40, 2)
    assert calls(40) <= kept and workers() == kept


def _pieces_in_a_child(q):
    from reversis_sim.numba_engine.batch import run_pieces

    seen = []
    run_pieces(lambda bounds: seen.append(bounds), 12, 2)
    q.put(sum(b - a for a, b in seen))


def test_a_forked_process_plays_its_pieces_on_threads_of_its_own():
    """The kept threads are the parent's: a process forked after a call (multiprocessing's fork) must not hand its
    pieces to threads that do not exist in it (it would wait for them forever)."""
    import multiprocessing

    from reversis_sim.numba_engine.batch import run_pieces

    run_pieces(lambda bounds: None, 12, 2)  # the parent now keeps idle threads
    ctx = multiprocessing.get_context("fork")
    q = ctx.Queue()
    child = ctx.Process(target=_pieces_in_a_child, args=(q,))
    child.start()
    child.join(20)
    if child.is_alive():
        child.kill()
        child.join()
    assert child.exitcode == 0, "the forked child did not finish its pieces"
    assert q.get(timeout=1) == 12


def test_ctrl_c_while_the_pieces_play_starts_no_further_piece():
    """Ctrl-C reaches the caller at once; the pieces playing then end (a kernel cannot be stopped) and no other
    piece starts, so abandoned work does not go on in the background of a session that caught the interrupt."""
    import _thread
    import threading
    import time

    from reversis_sim.numba_engine.batch import run_pieces

    started, lock = [], threading.Lock()

    def piece(bounds):
        with lock:
            started.append(bounds)
        time.sleep(0.3)

    timer = threading.Timer(0.1, _thread.interrupt_main)
    timer.start()
    with pytest.raises(KeyboardInterrupt):
        run_pieces(piece, 40, 2)  # eight pieces of five blocks, two at a time
    time.sleep(0.8)  # the pieces playing end; the others would have started by now
    assert 1 <= len(started) <= 2, started
