"""What a tuning run measures: a candidate's gain over the baseline, block by block of matches, on the same deals
for every candidate (common random numbers).

A block is ``block_matches`` consecutive matches of the explore seed; the candidate sits in each seat in turn
against the field, and the baseline's own seatings on the same block are simulated once for the whole search. The
value of a block is the mean over its matches of the duplicate difference (candidate minus baseline, fish per deal,
as :func:`reversis_sim.compare.compare` defines it), so the blocks are the paired instances a racing optimizer
compares candidates on.
"""

from __future__ import annotations

import json
from typing import Protocol

import numpy as np

from ..compare import Arms
from ..compare.duplicate import duplicate
from ..policies import PolicySpec
from ..rules import Rules
from .journal import Journal


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
                 n_blocks: int, engine: str = "numba", threads: int | None = None, journal: Journal | None = None,
                 cluster=None):
        self.rules, self.baseline, self.field, self.seed = rules, baseline, field, int(seed)
        self.block_matches, self.n_blocks = int(block_matches), int(n_blocks)
        self.engine, self.threads, self.journal, self.cluster = engine, threads, journal, cluster
        self._arms: dict[int, Arms] = {}
        self._counted: set[int] = set()  # blocks whose baseline seatings are in deals_used
        self.deals_used = 0
        self.context = json.dumps([rules.to_params(), str(baseline), str(field), self.seed, self.block_matches])
        """What a block's value depends on besides the candidate and the block (the journal's key)."""

    def _block_arms(self, block: int) -> Arms:
        if block not in self._arms:
            self._arms[block] = Arms(self.rules, first_match=block * self.block_matches, n_matches=self.block_matches,
                                     match_deals=self.rules.match_deals, engine=self.engine, threads=self.threads,
                                     cluster=self.cluster)
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
        """The candidate's gain on the block, simulated (and journaled), or read from the journal with the deals
        it cost: the deals spent are the same either way (the candidate's seatings at every evaluation, the
        baseline's once per block), and the same with a journal as without one."""
        known = None if self.journal is None else self.journal.get(self.context, str(spec), block)
        if known is not None:
            value, spent, baseline = known
        else:
            arms = self._block_arms(block)
            keys = self._baseline_keys(arms)
            had_baseline = all(k in arms.memo for k in keys)
            before = arms.n_deals_simulated
            dup = duplicate(arms, spec, self.baseline, self.field, seed=self.seed, baseline_seed=self.seed,
                            offsets=(0, 0))
            baseline = 0 if had_baseline else sum(int(arms.memo[k].deals.sum()) for k in set(keys))
            spent = arms.n_deals_simulated - before - baseline  # the candidate's own seatings
            arms.keep_only(keys)  # the candidates' tables are not needed again
            value = float(np.mean(dup.a.mean(axis=0) - dup.b.mean(axis=0)))
            if self.journal is not None:
                self.journal.add(self.context, str(spec), block, value, spent, baseline)
        if block not in self._counted:  # the baseline's seatings of a block are simulated once for the whole search
            self.deals_used += baseline
            self._counted.add(block)
        self.deals_used += spent
        return value

    def deals_per_evaluation(self) -> int:
        return self.rules.n_seats * self.n_blocks * self.block_matches * self.rules.match_deals
