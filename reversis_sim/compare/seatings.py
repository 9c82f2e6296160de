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

from ..constraints import Deals
from ..engines import get_engine
from ..policies import PolicySpec, parse_spec
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
    ``deals`` int64 (n_matches,) deals played in each match."""

    fish: np.ndarray
    deals: np.ndarray

    def per_deal(self, seat: int) -> np.ndarray:
        """float64 (n_matches,): the seat's mean fish per deal in each match."""
        return self.fish[:, seat] / self.deals


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
        return Table(fish, deals)


def play_seating_chunk(rules: Rules, seats: list[str], seed: int, policy_seeds: tuple[int, ...] | None,
                       first_match: int, n_matches: int, match_deals: int, engine, threads: int | None,
                       deals: Deals | None = None) -> tuple[np.ndarray, np.ndarray]:
    """One chunk of a seating, reduced where it is played (here, or on a cluster's worker): ``fish`` int64
    (n_matches, n_seats) totals per match and seat, ``deals`` int64 (n_matches,). ``engine``: an engine or its
    name (:func:`reversis_sim.engines.get_engine`)."""
    play = get_engine(engine) if isinstance(engine, str) else engine
    n_seats = rules.n_seats
    cols = play.columns(rules, [as_spec(s) for s in seats], seed=seed, first_match=first_match, n_matches=n_matches,
                        match_deals=match_deals, threads=threads,
                        policy_seeds=None if policy_seeds is None else list(policy_seeds), deals=deals)
    idx = np.asarray(cols["match"], np.int64) - first_match
    deals = np.bincount(idx, minlength=n_matches).astype(np.int64)
    f = np.asarray(cols["fish"])
    fish = np.zeros((n_matches, n_seats), np.int64)
    for s in range(n_seats):  # float64 sums of int fish are exact far beyond any match's total
        fish[:, s] = np.rint(np.bincount(idx, weights=f[:, s], minlength=n_matches))
    return fish, deals
