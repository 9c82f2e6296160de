"""The review's batch API: matches played by the engine with the reviewed seats' decisions valued
as they are taken (:mod:`.table_nb`), returned as plain columns.

:func:`review_matches` validates and allocates; :func:`.table_nb.review_matches_nb` computes. Like
:func:`reversis_sim.numba_engine.batch.play_matches`, a match is a pure function of (rules, seats, seed, match) and of
the review's settings: the decisions and their values are the same whatever the thread count and the split into calls.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numba
import numpy as np

from .. import cards as C
from .. import keys as K
from ..constraints import Deals
from ..kernel import layout as D
from ..kernel.compiled import MAX_SEATS, MAX_TRICKS, compile_rules
from ..kernel.layout import Seats
from ..kernel.units import call, compile_beside
from ..numba_engine.batch import numba_threads, run_pieces
from ..numba_engine.seats import constraint_arrays, policy_seed_array, search_unit, searching, seat_arrays, seed_u64
from ..policies import PolicySpec, parse_spec
from ..policies.deal_nb import PLAY_FROM
from ..policies.search import SEARCH_ID
from ..policies.view import DECLARE_LOSE_ALL, DECLARE_PASS, DECLARE_WIN_ALL
from ..rules import Rules
from ..search import decide_nb
from .before_nb import EVALUATE_BEFORE
from .evaluate_nb import EVALUATE, MAX_OPTIONS, MAX_WORLDS
from .row import DECISION_FLOAT, DECISION_INT, DI_LEN, DI_SLOT, DI_VERDICT, F_LEN, S_N_OPTIONS
from .table_nb import (
    BLOCK,
    C_DEALS,
    C_END,
    C_FIRST,
    C_FOLLOW,
    C_LEN,
    C_LUCK,
    C_MATCHES,
    C_NEXT,
    C_ONLY_DEAL,
    C_PER_DEAL,
    C_REVIEWED,
    C_WORLDS,
    FOLLOW_BEFORE,
    FOLLOW_CARDS,
    RF_DEALER,
    RF_DECLARE,
    RF_DOUBLE_ANTE,
    RF_LEN,
    RF_N_CARDS,
    RF_N_EXCH,
    RF_POOL,
    Record,
    ReviewOut,
    Units,
    review_blocks,
    review_card_nb,
    review_record_nb,
    scratch,
)

# The columns of the decision table and where the kernel writes them (DECISION_INT, DECISION_FLOAT) are declared
# once, in .row (``trick`` is 0-based here, 1-based in a review folder).


@dataclass
class Reviewed:
    """What :func:`review_matches` returns: ``decisions``, one array per column (``match``, ``deal``, the columns of
    :data:`DECISION_INT` and :data:`DECISION_FLOAT`), in (match, deal, order of play) order; ``options`` (kept for
    one deal only): per decision, ``float64 (options, 4)`` rows of card, value, standard error, hindsight value;
    ``deals``: ``match``, ``deal``, ``pool_before`` and ``fish`` (``int64 (n, n_seats)``) of every deal played,
    with each reviewed seat's ``luck`` and ``expected`` fish of its dealt hand (``float64 (n, n_seats)``, NaN for a
    seat not reviewed or without luck samples)."""

    decisions: dict[str, np.ndarray]
    options: list[np.ndarray]
    deals: dict[str, np.ndarray]


FOLLOW = {"cards": FOLLOW_CARDS, "before": FOLLOW_BEFORE}
"""``follow_best`` by name: the reviewer's best card only, or its best exchange and declaration only."""


def review_matches(rules: Rules, seats: Sequence[PolicySpec | str], *, seed: int, first_match: int, n_matches: int,
                   reviewed: Sequence[int], worlds: int, rollout: PolicySpec | str, follow_best: bool | str = False,
                   only_deal: int | None = None, keep_options: bool = False, luck_samples: int = 0,
                   match_deals: int | None = None,
                   threads: int | None = None, policy_seeds: Sequence[int] | None = None,
                   deals: Deals | None = None) -> Reviewed:
    """Play matches ``first_match ..`` as :func:`reversis_sim.numba_engine.batch.play_matches` does and review the
    decisions of the seats ``reviewed``: each option valued in ``worlds`` worlds by ``rollout`` (a heuristic in every
    seat of the rollouts), and in the true deal. ``follow_best``: the reviewed seats take the reviewer's best option
    (True; ``"cards"``: its best card only; ``"before"``: its best exchange and declaration only, the cards their own);
    ``only_deal``: review that deal of each match only (the match is played up to it and stops);
    ``keep_options``: keep every option's value (one deal); ``luck_samples``: deals dealt again per reviewed seat
    and deal to measure the luck of its hand (:func:`.table_nb._luck`; 0: none)."""
    rollout = parse_spec(rollout) if isinstance(rollout, str) else rollout
    if rollout.family_id == SEARCH_ID:
        raise ValueError("the reviewer's rollout policy must be a heuristic (the search plays out with one)")
    if not 1 <= int(worlds) <= MAX_WORLDS:
        raise ValueError(f"worlds must be 1..{MAX_WORLDS}, got {worlds}")
    reviewed = sorted(set(int(s) for s in reviewed))
    if not reviewed or not all(0 <= s < rules.n_seats for s in reviewed):
        raise ValueError(f"reviewed seats must be 0..{rules.n_seats - 1}, got {reviewed}")
    n_deals = rules.match_deals if match_deals is None else int(match_deals)
    if only_deal is not None:
        if not 0 <= only_deal < n_deals:
            raise ValueError(f"deal {only_deal} is out of range: a match has {n_deals} deals (0..{n_deals - 1})")
        n_deals = only_deal + 1
    cr = compile_rules(rules)
    family, params = seat_arrays(seats, rules.n_seats)
    r_family, r_params = seat_arrays([rollout], 1)
    per_deal = (rules.n_tricks + 2) * len(reviewed)  # the cards, the exchange and the declaration
    n_slots = n_matches * n_deals
    conf = np.zeros(C_LEN, np.int64)
    conf[C_REVIEWED] = sum(1 << s for s in reviewed)
    conf[C_WORLDS] = int(worlds)
    conf[C_FOLLOW] = FOLLOW.get(follow_best, 0) if isinstance(follow_best, str) else (
        FOLLOW_CARDS | FOLLOW_BEFORE if follow_best else 0)
    if isinstance(follow_best, str) and follow_best not in FOLLOW:
        raise ValueError(f"follow_best must be True, False or one of {sorted(FOLLOW)}, got {follow_best!r}")
    conf[C_ONLY_DEAL] = -1 if only_deal is None else int(only_deal)
    conf[C_PER_DEAL] = per_deal
    conf[C_FIRST], conf[C_MATCHES], conf[C_DEALS] = int(first_match), int(n_matches), n_deals
    if not 0 <= int(luck_samples) <= 1 << 20:
        raise ValueError(f"luck_samples must be 0..{1 << 20}, got {luck_samples}")
    conf[C_LUCK] = int(luck_samples)
    n_rows = n_slots * per_deal
    out = ReviewOut(np.zeros((n_rows, DI_LEN), np.int64), np.zeros((n_rows, F_LEN), np.float64),
                    np.zeros((n_rows if keep_options else 1, MAX_OPTIONS, 4), np.float64),
                    np.zeros(n_matches, np.int64), np.zeros((n_slots, MAX_SEATS), np.int64),
                    np.zeros(n_slots, np.int64), np.zeros(n_slots, np.int64), np.zeros(n_matches, np.int64),
                    np.full((n_slots, MAX_SEATS, 2), np.nan))
    if n_matches:
        _run(rules, seats, cr.arrays, Seats(family, params), seed, policy_seeds, constraint_arrays(rules, deals),
             Seats(r_family, r_params), conf, out, threads)
    return _columns(rules, out, int(first_match), n_deals, per_deal, keep_options)


def _run(rules: Rules, seats, arrays, kernel_seats: Seats, seed: int, policy_seeds, constraint, reviewer: Seats,
         conf: np.ndarray, out: ReviewOut, threads: int | None) -> None:
    """Review the matches into ``out`` with :func:`.table_nb.review_blocks`, its blocks shared among ``threads``
    threads (default: numba's thread count)."""
    n_blocks = (int(conf[C_MATCHES]) + BLOCK - 1) // BLOCK
    with numba_threads(threads):
        n_threads = min(numba.get_num_threads(), n_blocks)
    pseeds = policy_seed_array(seed, policy_seeds, rules.n_seats)
    units = Units(PLAY_FROM, search_unit(seats), EVALUATE, EVALUATE_BEFORE)
    compile_beside(PLAY_FROM, EVALUATE, EVALUATE_BEFORE)  # a first run: each in a process of its own meanwhile
    is_searching = searching(seats)

    def piece(bounds: tuple[int, int]) -> None:
        call(review_blocks, arrays, rules.n_seats, kernel_seats, seed_u64(seed), pseeds, conf, bounds[0], bounds[1],
             out, scratch(rules.n_seats, is_searching, constraint, reviewer, conf, out), units)

    run_pieces(piece, n_blocks, n_threads)


def _columns(rules: Rules, out: ReviewOut, first_match: int, n_deals: int, per_deal: int,
             keep_options: bool) -> Reviewed:
    """The kernel's arrays as columns: each match's decision rows and its deals played (raising a deal's error)."""
    n_matches = len(out.n_dec)
    played = (np.arange(n_deals)[None, :] < out.n_played[:, None]).ravel()
    bad = np.flatnonzero(out.err * played)
    if bad.size:
        d = int(bad[0])
        raise D.kernel_error(out.err[d], first_match + d // n_deals, d % n_deals)
    rows = np.concatenate([np.arange(i * n_deals * per_deal, i * n_deals * per_deal + out.n_dec[i])
                           for i in range(n_matches)]) if n_matches else np.zeros(0, np.int64)
    di, df = out.dec_i[rows], out.dec_f[rows]
    slot = di[:, DI_SLOT]
    decisions = {"match": first_match + slot // n_deals, "deal": slot % n_deals}
    decisions |= {k: di[:, j] for k, j in DECISION_INT.items()}
    decisions |= {k: df[:, j] for k, j in DECISION_FLOAT.items()}
    options = [out.opts[r, :int(out.dec_i[r, DI_VERDICT + S_N_OPTIONS])].copy() for r in rows] if keep_options else []
    slots = np.flatnonzero(played)
    deals = {"match": first_match + slots // n_deals, "deal": slots % n_deals,
             "pool_before": out.pool_before[slots], "fish": out.fish[slots, :rules.n_seats],
             "luck": out.luck[slots, :rules.n_seats, 0] - out.luck[slots, :rules.n_seats, 1],
             "expected": out.luck[slots, :rules.n_seats, 0]}
    return Reviewed(decisions, options, deals)


def review_record(rules: Rules, record: Record, *, key: int, reviewed: Sequence[int], worlds: int,
                  rollout: PolicySpec | str, card: int | None = None) -> Reviewed:
    """The decisions of the seats ``reviewed`` in the deal record ``record`` (a :class:`.table_nb.Record`: any deal,
    a person's or a bot's, whatever came before it), valued as :func:`review_matches` values them in the
    reviewing table, with the choices taken in the record, by the same kernel: ``key`` is the deal's review key
    (``keys.stream(seed, match, deal, PURPOSE_REVIEW)`` before the seat), so that a bot's deal reviewed from its
    record gets ``review``'s numbers. With ``card``: the record is a deal in progress, and the one decision after
    its last card is valued with ``card`` as the card played (``reviewed`` is then ignored). Every option is kept;
    the ``deals`` of the result are empty (a record has no luck)."""
    rollout = parse_spec(rollout) if isinstance(rollout, str) else rollout
    if rollout.family_id == SEARCH_ID:
        raise ValueError("the reviewer's rollout policy must be a heuristic (the search plays out with one)")
    if not 1 <= int(worlds) <= MAX_WORLDS:
        raise ValueError(f"worlds must be 1..{MAX_WORLDS}, got {worlds}")
    cr = compile_rules(rules)
    r_family, r_params = seat_arrays([rollout], 1)
    per_deal = (rules.n_tricks + 2) * MAX_SEATS
    conf = np.zeros(C_LEN, np.int64)
    conf[C_REVIEWED] = sum(1 << int(s) for s in reviewed)
    conf[C_WORLDS] = int(worlds)
    conf[C_END] = per_deal
    out = ReviewOut(np.zeros((per_deal, DI_LEN), np.int64), np.zeros((per_deal, F_LEN), np.float64),
                    np.zeros((per_deal, MAX_OPTIONS, 4), np.float64), *(np.zeros(1, np.int64) for _ in range(5)),
                    np.zeros((1, 1, 1)))
    sc = scratch(rules.n_seats, False, constraint_arrays(rules, None), Seats(r_family, r_params), conf, out)
    sc.st.key[0] = np.uint64(key)
    units = Units(PLAY_FROM, decide_nb.NO_SEARCH, EVALUATE, EVALUATE_BEFORE)
    compile_beside(PLAY_FROM, EVALUATE, EVALUATE_BEFORE)
    anyone = Seats(np.zeros(rules.n_seats, np.int64), np.zeros((rules.n_seats, 1), np.float64))
    if card is None:
        call(review_record_nb, cr.arrays, rules.n_seats, anyone, record, sc.deal, sc.st, units)
    else:
        call(review_card_nb, cr.arrays, rules.n_seats, anyone, record, sc.deal, sc.st, units, int(card))
    rows = np.arange(int(sc.st.conf[C_NEXT]))
    di, df = out.dec_i[rows], out.dec_f[rows]
    decisions = {"match": np.zeros(len(rows), np.int64), "deal": np.zeros(len(rows), np.int64)}
    decisions |= {k: di[:, j] for k, j in DECISION_INT.items()}
    decisions |= {k: df[:, j] for k, j in DECISION_FLOAT.items()}
    options = [out.opts[r, :int(out.dec_i[r, DI_VERDICT + S_N_OPTIONS])].copy() for r in rows]
    return Reviewed(decisions, options, {})


def review_key(record: dict) -> int:
    """The deal's review key, before the seat: ``keys.stream(seed, match, deal, PURPOSE_REVIEW, seat)`` is this key
    with the seat folded in, as the reviewing table keys each seat's worlds."""
    h = K.mix64((int(record.get("run_seed", 0)) + K.GAMMA) & K.M64)
    for part in (int(record.get("match", 0)), int(record.get("deal", 0)), K.PURPOSE_REVIEW):
        h = K.mix64(((h ^ part) + K.GAMMA) & K.M64)
    return h


def record_arrays(rules: Rules, record: dict) -> Record:
    """The deal record ``record`` (a whole deal, or a deal in progress: its tricks so far) as the kernel plays it
    again (:class:`reversis_sim.review.table_nb.Record`)."""
    n = rules.n_seats
    facts = np.zeros(RF_LEN, np.int64)
    facts[RF_DEALER], facts[RF_POOL] = record["dealer"], record["pool_before"]
    facts[RF_DOUBLE_ANTE] = int(bool(record.get("double_ante", False)))
    facts[RF_N_EXCH] = len(record["exchanges"])
    esp = record.get("espagnolette")
    if esp is None:
        facts[RF_DECLARE] = DECLARE_PASS
    else:
        goal = esp.get("goal") if isinstance(esp, dict) else None
        facts[RF_DECLARE] = DECLARE_WIN_ALL if goal == "win_all" else DECLARE_LOSE_ALL
    dealt = np.zeros(MAX_SEATS, np.uint64)
    dealt[:n] = [C.mask(C.parse(c) for c in h) for h in record["dealt"]]
    offered = np.full(MAX_SEATS, -1, np.int64)
    offered[:n] = [-1 if c is None else C.parse(c) for c in record["talon_offered"]]
    exch = np.full(4, -1, np.int64)
    for k, e in enumerate(record["exchanges"]):
        exch[k] = -1 if e["discard"] is None else C.parse(e["discard"])
    tricks = np.full((MAX_TRICKS, 6), -1, np.int64)
    for i, tr in enumerate(record["tricks"]):
        cards = [C.parse(c) for c in tr["cards"]]
        tricks[i, 0] = tr["leader"]
        tricks[i, 1:1 + len(cards)] = cards
        tricks[i, 5] = -1 if tr.get("winner") is None else tr["winner"]
        facts[RF_N_CARDS] += len(cards)
    return Record(facts, dealt, offered, exch, tricks)
