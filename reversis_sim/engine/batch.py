"""The fast batch API: many matches in parallel, one row per deal, as the columns of :mod:`reversis_sim.columns`.

``play_matches`` validates and allocates; :func:`.match.play_matches_nb` computes (through the kernel of the table,
:func:`.match.match_kernels`). Rows come in (match, deal) order and are byte-identical whatever the thread count and
however the matches are split into calls (each match is a pure function of rules, seats, seed and match number;
DESIGN.md decisions 1, 2 and 7).

A match that ends before ``match_deals`` (``parlett_simple``: no deal follows the one in which a running total
reached ``target_total``, F4.3, G14) has fewer rows: exactly the deals it played, as the reference's
:func:`~reversis_sim.reference.play_match` yields fewer records and :func:`~reversis_sim.columns.from_records`
makes one row per record. A match is then the run of rows with one ``match`` value (``deal`` 0, 1, ...), and a
batch has ``n_matches * match_deals`` rows only when no match ends early (every other preset). The kernel writes
each match at its full-length slot; the wrapper drops the unplayed slots.
"""

from __future__ import annotations

from collections.abc import Sequence

import numba
import numpy as np

from .. import columns
from ..kernel import layout as D
from ..kernel.compiled import MAX_SEATS, POOL, compile_rules
from ..policies import PolicySpec
from ..rules import Rules
from .match import match_kernels
from .seats import policy_seed_array, seat_arrays, seed_u64

#: column name -> first column of the kernel's result row (per-seat columns take four)
ROW_COLUMNS: dict[str, int] = {
    "match": D.COL_MATCH, "deal": D.COL_DEAL, "dealer": D.COL_DEALER, "pool_before": D.COL_POOL_BEFORE,
    "pool_after": D.COL_POOL_AFTER, "fish": D.COL_FISH, "card_points": D.COL_POINTS, "tricks_won": D.COL_WON,
    "hearts_at_lead": D.COL_HEARTS, "to_pool": D.COL_TO_POOL, "from_pool": D.COL_FROM_POOL,
    "quinola_holder": D.COL_Q_HOLDER, "quinola_fate": D.COL_Q_FATE, "quinola_trick": D.COL_Q_TRICK,
    "party_winner": D.COL_PARTY_WINNER, "party_loser": D.COL_PARTY_LOSER, "party_value": D.COL_PARTY_VALUE,
    "reversis_seat": D.COL_REV_SEAT, "reversis_made": D.COL_REV_MADE, "reversis_breaker": D.COL_REV_BREAKER,
    "espagnolette_eligible": D.COL_ESP_ELIGIBLE, "espagnolette_seat": D.COL_ESP_SEAT,
    "espagnolette_made": D.COL_ESP_MADE,
}
assert set(ROW_COLUMNS) == set(columns.DEAL_COLUMNS) and POOL == MAX_SEATS
assert all(c < D.N_OUT_COLS for c in ROW_COLUMNS.values()) and D.COL_ERROR < D.N_OUT_COLS


def play_matches(rules: Rules, seats: Sequence[PolicySpec | str], *, seed: int, first_match: int, n_matches: int,
                 match_deals: int | None = None, threads: int | None = None,
                 policy_seeds: Sequence[int] | None = None) -> dict[str, np.ndarray]:
    """Play matches ``first_match .. first_match + n_matches - 1`` and return one row per deal.

    Parameters
    ----------
    rules : a rule set the engine plays (:func:`~reversis_sim.kernel.compiled.check_engine_supported`);
    seats : one policy spec per seat; seed : run seed; first_match, n_matches : which matches; match_deals : deals
    per match (default ``rules.match_deals``); threads : numba threads to use (default: numba's current setting);
    policy_seeds : one seed per seat for that seat's policy randomness (default: the run seed for every seat; the
    cards always follow the run seed), for A/A comparisons on the same cards.

    Returns
    -------
    The columns of :func:`reversis_sim.columns.empty` (names, dtypes and shapes; per-seat columns have
    ``rules.n_seats`` entries), one row per deal played in (match, deal) order, equal to
    :func:`reversis_sim.columns.from_records` of the reference's records: ``n_matches * match_deals`` rows, fewer
    where a match ends early (``parlett_simple``, see the module docstring).
    """
    cr = compile_rules(rules)
    family, params = seat_arrays(seats, rules.n_seats)
    n_deals = rules.match_deals if match_deals is None else int(match_deals)
    first_match, n_matches = int(first_match), int(n_matches)
    if n_deals < 1:
        raise ValueError(f"match_deals must be at least 1, got {n_deals}")
    if first_match < 0 or n_matches < 0:
        raise ValueError(f"first_match and n_matches must not be negative, got {first_match}, {n_matches}")
    n = n_matches * n_deals
    out = np.empty((D.N_OUT_COLS, n), dtype=np.int64)
    cols = columns.empty(n, rules.n_seats)
    n_played = np.full(n_matches, n_deals, dtype=np.int64)
    if n_matches:
        with _threads(threads):
            kernel, _ = match_kernels(rules.n_seats)
            kernel(cr.params, cr.tables, cr.deck, family, params, seed_u64(seed),
                   policy_seed_array(seed, policy_seeds, rules.n_seats), first_match, n_matches, n_deals, out,
                   cols["paid"], cols["received"], n_played)
    if (n_played < n_deals).any():  # matches that ended at their target total: keep the deals they played
        keep = (np.arange(n_deals)[None, :] < n_played[:, None]).ravel()
        out = out[:, keep]
        cols = {name: v[keep] for name, v in cols.items()}
    bad = np.flatnonzero(out[D.COL_ERROR])
    if bad.size:
        r = out[:, bad[0]]
        raise D.kernel_error(r[D.COL_ERROR], r[D.COL_MATCH], r[D.COL_DEAL])
    for name, (_, per_seat) in columns.DEAL_COLUMNS.items():
        c = ROW_COLUMNS[name]
        cols[name][...] = out[c:c + rules.n_seats].T if per_seat else out[c]
    return cols


class _threads:
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
    kernel alone, into buffers allocated here once (for the benchmark: the kernel's own pace, without the
    allocation and conversion of the result columns that :func:`play_matches` adds)."""
    cr = compile_rules(rules)
    family, params = seat_arrays(seats, rules.n_seats)
    md = rules.match_deals if match_deals is None else int(match_deals)
    n = n_matches * md
    out = np.zeros((D.N_OUT_COLS, n), dtype=np.int64)
    cols = columns.empty(n, rules.n_seats)
    n_played = np.zeros(n_matches, dtype=np.int64)
    pseeds = policy_seed_array(seed, None, rules.n_seats)
    kernel, _ = match_kernels(rules.n_seats)

    def run(n_threads: int) -> int:
        with _threads(n_threads):
            kernel(cr.params, cr.tables, cr.deck, family, params, seed_u64(seed), pseeds, 0, n_matches, md, out,
                   cols["paid"], cols["received"], n_played)
        return int(n_played.sum())

    return run
