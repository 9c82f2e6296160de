"""Tuning a policy family honestly (strength is claimed on fresh deals, never on the deals that chose it): the search
chooses on the explore seed, a fresh seed measures.

:func:`tune` searches the space for the setting that gains most over ``baseline`` against ``field``
(:mod:`.optimizers`), then re-tests the chosen setting alone on ``confirm_seed`` with the duplicate comparison
(:func:`reversis_sim.compare.compare`): that interval is the result, and a run whose confirmed interval does not
exclude 0 says it found nothing. :func:`best_response` tunes one seat against copies of a policy (the family's
exploitability of it); :func:`self_play` iterates best responses towards a setting nothing in the family exploits.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from ..analysis.intervals import MIN_MATCHES
from ..compare import CompareResult, compare
from ..compare.seatings import Spec, as_rules, as_spec
from ..keys import next_seed
from ..policies import FAMILIES
from ..rules import Rules
from .defaults import BLOCK_MATCHES, DEFAULT_BUDGET, DEFAULT_CONFIRM_DEALS, DEFAULT_EVAL_DEALS
from .evaluator import DuplicateEvaluator
from .journal import Journal
from .optimizers import SearchResult, Trial, search
from .space import build_space


@dataclass(frozen=True, eq=False)
class TuneResult:
    """The search (every trial), the chosen setting, and its confirmation on fresh deals."""

    rules: str
    base: str
    baseline: str
    field: str
    seed: int
    confirm_seed: int
    search: SearchResult
    best: Trial
    confirm: CompareResult
    alpha: float = 0.05

    @property
    def significant(self) -> bool:
        """The confirmed gain excludes 0 in the candidate's favour at level ``alpha``."""
        return bool(self.confirm.p_value < self.alpha and self.confirm.mean_difference > 0)

    def summary(self) -> dict:
        c = self.confirm.summary()
        return {
            "kind": "tune", "rules": self.rules, "base": self.base, "baseline": self.baseline, "field": self.field,
            "seed": self.seed, "confirm_seed": self.confirm_seed, "optimizer": self.search.optimizer,
            "best": self.best.spec, "best_values": self.best.values,
            "explore_mean": self.best.mean, "explore_blocks": len(self.best.blocks),
            "confirmed_gain": c["mean_difference"], "ci_low": c["ci_low"], "ci_high": c["ci_high"],
            "p_value": c["p_value"], "significant": self.significant, "confirm_deals": c["n_deals_compared"],
            "n_trials": len(self.search.trials),
            "n_pruned": sum(t.state == "pruned" for t in self.search.trials),
            "search_deals": self.search.deals_used, "confirm_simulated_deals": c["n_deals"],
            "search_seconds": self.search.seconds, "evaluations_per_s": self.search.evaluations_per_s,
        }


def tune(rules: Rules | str, base: Spec, *, baseline: Spec | None = None, field: Spec | None = None,
         params: Sequence[str] = (), budget_deals: int = DEFAULT_BUDGET, eval_deals: int = DEFAULT_EVAL_DEALS,
         seed: int = 0, confirm_seed: int = 1, confirm_deals: int = DEFAULT_CONFIRM_DEALS, optimizer: str = "optuna",
         engine: str = "numba", threads: int | None = None, alpha: float = 0.05,
         on_trial: Callable[[Trial, SearchResult], None] | None = None, journal: Journal | None = None,
         cluster=None) -> TuneResult:
    """Search the parameters of ``base``'s family for the setting that gains most over ``baseline`` (default
    ``base``) in one seat against ``field`` (default the baseline), then confirm it on fresh deals.

    ``params``: ``NAME=LOW..HIGH`` or ``NAME=V1,V2,...`` items (default: every parameter over its range);
    ``budget_deals``: deals the search may simulate; ``eval_deals``: deals (per seat rotation) a candidate is judged
    on, in blocks of 200 matches; ``confirm_seed`` (not ``seed``) and ``confirm_deals``: the confirmation;
    ``journal`` (:class:`.journal.Journal`): keep every block evaluation, and read back those already made (a
    resumed tuning); ``cluster`` (:class:`reversis_sim.cluster.Cluster`): its workers play the seatings (None: here).
    ``ValueError`` in one sentence on bad input, before anything is simulated.
    """
    rules = as_rules(rules)
    base_spec = as_spec(base)
    base_line = as_spec(baseline) if baseline is not None else base_spec
    fld = as_spec(field) if field is not None else base_line
    if int(confirm_seed) == int(seed):
        raise ValueError(f"--confirm-seed must differ from --seed ({seed}): the confirmation must run on fresh deals")
    if FAMILIES[base_spec.family].searches and not params:
        raise ValueError("tuning a search needs --param with the values to try (e.g. --param worlds=8,16,32): its "
                         "whole range, up to 4096 worlds a card, would cost hours per candidate")
    space = build_space(base_spec, params)
    block_deals = BLOCK_MATCHES * rules.match_deals
    n_blocks = max(2, -(-int(eval_deals) // block_deals))
    confirm_matches = -(-int(confirm_deals) // rules.match_deals)
    least = MIN_MATCHES["difference"]
    if confirm_matches < least:  # the confirmation is the result: its interval must be one we can print
        raise ValueError(f"--confirm-deals {confirm_deals:,} is {confirm_matches:,} matches; the confirmation's "
                         f"interval is the result and holds its 95% from {least:,} matches (docs/statistics.md "
                         f"§9): give --confirm-deals {least * rules.match_deals:,} or more")
    evaluator = DuplicateEvaluator(rules, base_line, fld, seed=seed, block_matches=BLOCK_MATCHES, n_blocks=n_blocks,
                                   engine=engine, threads=threads, journal=journal, cluster=cluster)
    found = search(space, evaluator, budget_deals=int(budget_deals), seed=seed, optimizer=optimizer, on_trial=on_trial)
    best = found.best
    if best is None:  # pragma: no cover - search refuses a budget below one full evaluation
        raise ValueError("the budget did not cover one full evaluation")
    confirm = compare(rules, best.spec, base_line, fld, n_matches=confirm_matches, seed=int(confirm_seed),
                      engine=engine, threads=threads, cluster=cluster)
    return TuneResult(rules.name, str(base_spec), str(base_line), str(fld), int(seed), int(confirm_seed), found, best,
                      confirm, alpha)


def best_response(rules: Rules | str, field: Spec, *, base: Spec | None = None, **kw) -> TuneResult:
    """Tune one seat (a family, default that of ``field``, or of a search's rollout policy) against copies of
    ``field`` in the other seats, the
    baseline being ``field`` itself: the confirmed gain is how much the family exploits ``field`` (a lower bound on
    its exploitability)."""
    target = as_spec(field)
    if base is None:  # the family with parameters, starting from the field's own setting where it is of that family
        if FAMILIES[target.family].searches:  # a search: the heuristic family, from its rollout policy's setting
            base = target.rollout
        else:
            base = target if FAMILIES[target.family].params else "avoid"
    return tune(rules, base, baseline=target, field=target, **kw)


@dataclass
class SelfPlayRound:
    """One round: the field it played against, the best response found, and its confirmed gain over the field."""

    number: int
    field: str
    result: TuneResult


@dataclass
class SelfPlay:
    rounds: list[SelfPlayRound] = field(default_factory=list)
    stopped: str = ""

    @property
    def final(self) -> str:
        """The last field when no round exploited it (``converged``); when the rounds ran out, the field whose
        best response gained least: the one setting whose exploitability was measured and found smallest (the
        last best response's own exploitability is unmeasured, and iterated best responses may cycle)."""
        if self.stopped == "converged":
            return self.rounds[-1].field
        return min(self.rounds, key=lambda r: r.result.confirm.mean_difference).field


def self_play(rules: Rules | str, start: Spec, *, rounds: int, seed: int = 0, confirm_seed: int = 1,
              on_round: Callable[[SelfPlayRound], None] | None = None, **kw) -> SelfPlay:
    """Iterated best responses: round ``r`` tunes one seat against copies of the previous round's best response
    (round 0: ``start``), each round on its own explore and confirm seeds. Stops when a round's confirmed gain
    interval contains 0 (the field is not exploitable by the family at this budget: ``converged``) or after
    ``rounds`` rounds."""
    out = SelfPlay()
    current = str(as_spec(start))
    for r in range(int(rounds)):
        res = best_response(rules, current, seed=next_seed(seed, 2 * r), confirm_seed=next_seed(confirm_seed, 2 * r),
                            **kw)
        rnd = SelfPlayRound(r, current, res)
        out.rounds.append(rnd)
        if on_round is not None:
            on_round(rnd)
        if not (res.confirm.ci_low > 0):
            out.stopped = "converged"
            return out
        current = res.best.spec
    out.stopped = "rounds"
    return out
