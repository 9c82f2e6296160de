"""What a tuning run measures: a candidate's gain over the baseline, block by block of matches, on the same deals
for every candidate (common random numbers).

A block is ``block_matches`` consecutive matches of the explore seed; the candidate sits in each seat in turn
against the field, and the baseline's own seatings on the same block are simulated once for the whole search. The
value of a block is the mean over its matches of the duplicate difference (candidate minus baseline, fish per deal,
as :func:`reversis_sim.compare.compare` defines it), so the blocks are the paired instances a racing optimizer
compares candidates on.
"""

from __future__ import annotations

from typing import Protocol

import numpy as np

from ..compare import Arms
from ..compare.duplicate import duplicate
from ..policies import PolicySpec
from ..rules import Rules


class Evaluator(Protocol):
    """Anything a search can rank candidates with: ``n_blocks`` paired instances, the value of a candidate on one,
    and the deals spent so far."""

    n_blocks: int
    deals_used: int

    def block(self, spec: PolicySpec, block: int) -> float:
        """The candidate's mean gain over the baseline on block ``block`` (fish per deal)."""

    def deals_per_evaluation(self) -> int:
        """Deals one candidate costs over every block (its seatings; the baseline's are shared)."""


class DuplicateEvaluator:
    """The duplicate design on blocks of matches of ``seed``: ``candidate`` in each seat in turn against ``field``,
    minus ``baseline`` on the same deals (see the module docstring)."""

    def __init__(self, rules: Rules, baseline: PolicySpec, field: PolicySpec, *, seed: int, block_matches: int,
                 n_blocks: int, engine: str = "numba", threads: int | None = None):
        self.rules, self.baseline, self.field, self.seed = rules, baseline, field, int(seed)
        self.block_matches, self.n_blocks = int(block_matches), int(n_blocks)
        self.engine, self.threads = engine, threads
        self._arms: dict[int, Arms] = {}
        self.deals_used = 0

    def _block_arms(self, block: int) -> Arms:
        if block not in self._arms:
            self._arms[block] = Arms(self.rules, first_match=block * self.block_matches, n_matches=self.block_matches,
                                     match_deals=self.rules.match_deals, engine=self.engine, threads=self.threads)
        return self._arms[block]

    def _baseline_keys(self, arms: Arms) -> list[tuple]:
        n = self.rules.n_seats
        keys = []
        for s in range(n):
            seats = [self.field] * n
            seats[s] = self.baseline
            keys.append(arms.key(seats, self.seed))
        return keys

    def block(self, spec: PolicySpec, block: int) -> float:
        arms = self._block_arms(block)
        before = arms.n_deals_simulated
        dup = duplicate(arms, spec, self.baseline, self.field, seed=self.seed, baseline_seed=self.seed,
                        offsets=(0, 0))
        arms.keep_only(self._baseline_keys(arms))  # the candidates' tables are not needed again
        self.deals_used += arms.n_deals_simulated - before
        return float(np.mean(dup.a.mean(axis=0) - dup.b.mean(axis=0)))

    def deals_per_evaluation(self) -> int:
        return self.rules.n_seats * self.n_blocks * self.block_matches * self.rules.match_deals
