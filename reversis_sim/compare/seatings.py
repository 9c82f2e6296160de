"""Seatings of a block of matches, each simulated once and reduced to per-match, per-seat fish totals.

A seating is (the spec of every seat, the run seed, the policy seed of every seat). Equal seatings are pure
functions of the same keys (determinism by key), so :class:`Arms` simulates each once and hands the same
:class:`Table` to every arm that needs it: the all-baseline table when the field is the baseline, the baseline arm
of every point of a sweep, the diagonal of a tournament.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ..analysis.pool_path import adjusted_totals
from ..analysis.scan_pool import seat_terms
from ..constraints import Deals
from ..engines import get_engine
from ..policies import PolicySpec, parse_spec
from ..policies.registry import for_rules
from ..rules import Rules, get_preset

CHUNK_MATCHES = 20_000
"""Matches simulated per engine call: bounds the memory of the per-deal columns of one call."""

Spec = str | PolicySpec
"""A policy given as a spec string or a parsed :class:`~reversis_sim.policies.PolicySpec`."""


def as_rules(rules: Rules | str) -> Rules:
    """A rule set, or the preset of that name."""
    return get_preset(rules) if isinstance(rules, str) else rules


def as_spec(spec: Spec) -> PolicySpec:
    """A parsed policy spec."""
    return spec if isinstance(spec, PolicySpec) else parse_spec(spec)


@dataclass(frozen=True)
class Table:
    """One seating over a block of matches: ``fish`` int64 (n_matches, n_seats) totals per match and seat,
    ``deals`` int64 (n_matches,) deals played in each match, and ``pool`` the pool-path terms of every seat's fish
    (:func:`reversis_sim.analysis.scan_pool.seat_terms`: light totals, events, outcomes, dealers, antes), or a
    sentence saying why the pool could not be split off."""

    fish: np.ndarray
    deals: np.ndarray
    pool: tuple | str = "not computed"

    def per_deal(self, seat: int) -> np.ndarray:
        """float64 (n_matches,): the seat's mean fish per deal in each match."""
        return self.fish[:, seat] / self.deals

    def per_deal_pool_path(self, seat: int) -> np.ndarray:
        """float64 (n_matches,): the seat's fish per deal in each match with the pool's doublings and wins valued
        at its expected size (:func:`reversis_sim.analysis.pool_path.adjusted_totals`): their mean is the
        pool-path estimate of the seat's fish per deal, their spread its influence. Only where ``pool`` is terms."""
        light, events, outcomes, dealers, antes = self.pool
        (new, carry), = antes
        new = carry if new is None else new
        carry = new if carry is None else carry
        return adjusted_totals(light, events, outcomes, dealers, float(new), float(carry))[:, seat] / self.deals


def _join_terms(parts: list) -> tuple | str:
    """The pool-path terms of consecutive chunks of one seating as one, or the first sentence of a chunk that
    has none (or of antes that differ between chunks)."""
    for p in parts:
        if isinstance(p, str):
            return p
    antes = set().union(*(p[4] for p in parts))
    if len({a for a, _ in antes if a is not None}) > 1 or len({c for _, c in antes if c is not None}) > 1:
        return "its antes are not the same in every deal"
    if any(not np.array_equal(p[3], parts[0][3]) for p in parts):
        return "its matches are not dealt in the same order"
    new = min((a for a, _ in antes if a is not None), default=None)
    carry = min((c for _, c in antes if c is not None), default=None)
    return (np.concatenate([p[0] for p in parts]), np.concatenate([p[1] for p in parts]),
            np.concatenate([p[2] for p in parts]), parts[0][3], {(new, carry)})


class Arms:
    """Seatings of one block of matches (``first_match .. first_match + n_matches - 1``), each simulated once by
    the engine called ``engine`` (:func:`reversis_sim.engines.get_engine`), here or, given ``cluster`` (a
    :class:`reversis_sim.cluster.Cluster`), on its workers chunk by chunk (the same numbers)."""

    def __init__(self, rules: Rules, *, first_match: int, n_matches: int, match_deals: int, engine: str,
                 threads: int | None, chunk_matches: int = CHUNK_MATCHES, deals: Deals | None = None,
                 cluster=None):
        if n_matches < 1:
            raise ValueError(f"n_matches must be at least 1, got {n_matches}")
        if first_match < 0:
            raise ValueError(f"first_match must not be negative, got {first_match}")
        if match_deals < 1:
            raise ValueError(f"match_deals must be at least 1, got {match_deals}")
        self.engine = get_engine(engine)
        self.engine.check(rules)
        self.rules, self.first_match, self.n_matches, self.match_deals = rules, first_match, n_matches, match_deals
        self.threads, self.chunk_matches = threads, chunk_matches
        self.deals = deals  # constrained deals: every seating draws the same ones
        self.cluster = cluster
        self.memo: dict[tuple, Table] = {}
        self.n_deals_simulated = 0

    def key(self, seats: Sequence[PolicySpec], seed: int, policy_seeds: Sequence[int] | None = None) -> tuple:
        """The memo key of a seating: equal keys are the same simulation."""
        seeds = None if policy_seeds is None or all(p == seed for p in policy_seeds) else tuple(map(int, policy_seeds))
        return tuple(str(s) for s in seats), int(seed), seeds

    def table(self, seats: Sequence[PolicySpec], seed: int, policy_seeds: Sequence[int] | None = None) -> Table:
        """The seating's :class:`Table` (simulated on first use); ``policy_seeds`` None: every seat's policy is
        keyed by ``seed``."""
        n = self.rules.n_seats
        if len(seats) != n:
            raise ValueError(f"{self.rules.name} needs {n} seats, got {len(seats)}")
        key = self.key(seats, seed, policy_seeds)
        if key not in self.memo:
            self.memo[key] = self._play(list(seats), key[1], key[2])
        return self.memo[key]

    def keep_only(self, keys) -> None:
        """Forget every simulated seating but those of ``keys`` (a search keeps its baseline, not its candidates)."""
        keep = set(keys)
        self.memo = {k: v for k, v in self.memo.items() if k in keep}

    def _play(self, seats: list[PolicySpec], seed: int, policy_seeds: tuple[int, ...] | None) -> Table:
        starts = range(0, self.n_matches, self.chunk_matches)
        cluster = self.cluster
        engine = self.engine.name if cluster is not None else self.engine  # a name travels; the object is here
        args = [(self.rules, [str(s) for s in seats], seed, policy_seeds, self.first_match + start,
                 min(self.chunk_matches, self.n_matches - start), self.match_deals, engine,
                 self.threads if cluster is None else None, self.deals)  # a worker plays on its own threads
                for start in starts]
        if cluster is None:
            parts = [play_seating_chunk(*a) for a in args]
        else:
            cluster.prepare(self.rules, seats, engine)
            parts = cluster.map(play_seating_chunk, args)
        fish = np.concatenate([p[0] for p in parts])
        deals = np.concatenate([p[1] for p in parts])
        self.n_deals_simulated += int(deals.sum())
        if np.any(deals == 0):
            raise RuntimeError("a match produced no deal; the engine returned rows for other matches than asked")
        return Table(fish, deals, _join_terms([p[2] for p in parts]))


def play_seating_chunk(rules: Rules, seats: list[str], seed: int, policy_seeds: tuple[int, ...] | None,
                       first_match: int, n_matches: int, match_deals: int, engine, threads: int | None,
                       deals: Deals | None = None) -> tuple[np.ndarray, np.ndarray, tuple | str]:
    """One chunk of a seating, reduced where it is played (here, or on a cluster's worker): ``fish`` int64
    (n_matches, n_seats) totals per match and seat, ``deals`` int64 (n_matches,), and the pool-path terms of every
    seat's fish (:func:`reversis_sim.analysis.scan_pool.seat_terms`, or why there are none). ``engine``: an engine
    or its name (:func:`reversis_sim.engines.get_engine`)."""
    play = get_engine(engine) if isinstance(engine, str) else engine
    n_seats = rules.n_seats
    specs = [for_rules(as_spec(s), rules) for s in seats]
    cols = play.columns(rules, specs, seed=seed, first_match=first_match, n_matches=n_matches,
                        match_deals=match_deals, threads=threads,
                        policy_seeds=None if policy_seeds is None else list(policy_seeds), deals=deals)
    idx = np.asarray(cols["match"], np.int64) - first_match
    deals = np.bincount(idx, minlength=n_matches).astype(np.int64)
    f = np.asarray(cols["fish"])
    fish = np.zeros((n_matches, n_seats), np.int64)
    for s in range(n_seats):  # float64 sums of int fish are exact far beyond any match's total
        fish[:, s] = np.rint(np.bincount(idx, weights=f[:, s], minlength=n_matches))
    if not hasattr(cols, "column"):
        return fish, deals, "the engine gave no seat rows to split the pool from"
    seat_cols = ("match", "deal", "dealer", "fish", "to_pool", "from_pool", "pool_before", "pool_after")
    terms = seat_terms({c: cols.column(c) for c in seat_cols}, cols.payments, n_seats)
    return fish, deals, terms
