"""The search: an existing optimizer proposes parameter settings, the evaluator measures them block by block on
the same deals, and a candidate that is clearly worse than the best so far stops early.

Optimizers (``optimizer=``; the choice was made by measurement, docs/tuning.md):

- ``optuna`` (the default): Optuna's TPE sampler proposes; every candidate is evaluated on the blocks in its own
  shuffled order and Optuna's ``WilcoxonPruner`` stops it as soon as a Wilcoxon signed-rank test on the blocks both
  have seen says it is worse than the best candidate (paired instances: the blocks are the same deals for all);
- ``optuna-full``: the same sampler, every candidate on every block (no racing);
- ``nevergrad``: nevergrad's ``NGOpt`` (its own choice of algorithm for the space and budget), every block;
- ``random``: uniform random settings, every block (the baseline of the comparison).

Every optimizer is seeded, and a search is a pure function of its arguments. The search stops when the next
candidate's full evaluation would pass ``budget_deals``.
"""

from __future__ import annotations

import time
import warnings
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from ..keys import sub_seed
from .defaults import MIN_CANDIDATES, OPTIMIZERS
from .evaluator import Evaluator
from .space import Dimension, Space

PURPOSE_OPTIMIZER = 0x7E57
"""Folds a seed of ours into the optimizers' 32-bit seeds (:func:`reversis_sim.keys.sub_seed`)."""


@dataclass(frozen=True)
class Trial:
    """One candidate: its ``values``, ``spec``, the blocks it was evaluated on (in order) and their values, its
    mean gain over them, and ``state``: ``complete`` (every block), ``pruned`` (stopped as worse than the best)."""

    number: int
    values: dict
    spec: str
    blocks: tuple[int, ...]
    block_values: tuple[float, ...]
    state: str

    @property
    def mean(self) -> float:
        return float(np.mean(self.block_values)) if self.block_values else float("nan")


@dataclass
class SearchResult:
    """Every trial, the best complete one (highest mean over every block of the explore seed: selected, so biased
    upwards), the deals spent and the time taken."""

    optimizer: str
    trials: list[Trial] = field(default_factory=list)
    deals_used: int = 0
    seconds: float = 0.0

    @property
    def best(self) -> Trial | None:
        done = [t for t in self.trials if t.state == "complete"]
        return max(done, key=lambda t: (t.mean, -t.number)) if done else None

    @property
    def evaluations_per_s(self) -> float:
        """Block evaluations per second (one block: one candidate in every seat on one block of matches)."""
        return sum(len(t.blocks) for t in self.trials) / self.seconds if self.seconds else float("nan")


def _base_values(space: Space) -> dict:
    base = dict(space.base.params)
    return {d.name: base[d.name] for d in space.dims}


def search(space: Space, evaluator: Evaluator, *, budget_deals: int, seed: int, optimizer: str = "optuna",
           on_trial: Callable[[Trial, SearchResult], None] | None = None) -> SearchResult:
    """Search ``space`` with ``optimizer`` until the budget is spent; the base setting is always the first trial."""
    if optimizer not in OPTIMIZERS:
        raise ValueError(f"unknown optimizer {optimizer!r}; valid optimizers: {', '.join(OPTIMIZERS)}")
    per_eval = evaluator.deals_per_evaluation()
    least = (1 + MIN_CANDIDATES) * per_eval
    if budget_deals < least:
        judged = budget_deals // per_eval
        raise ValueError(f"a budget of {budget_deals:,} deals judges {judged} candidate{'s' * (judged != 1)} in full "
                         f"(each costs {per_eval:,} deals: its seat in each rotation on every block), and the first is "
                         f"the base setting itself; give --budget-deals {least:,} or more (the base and "
                         f"{MIN_CANDIDATES} other candidates), or lower --eval-deals")
    result = SearchResult(optimizer)
    rng = np.random.default_rng(seed)
    start = time.perf_counter()
    run = _optuna if optimizer.startswith("optuna") else _nevergrad if optimizer == "nevergrad" else _random
    # Optuna's and nevergrad's samplers take 32-bit seeds: a larger seed of ours is folded into one (a smaller one is
    # used as it is, so the tunings done before keep their trials)
    narrow = seed if seed < 2**32 else sub_seed(seed, PURPOSE_OPTIMIZER)
    for trial in run(space, evaluator, budget_deals, narrow, optimizer, rng):
        result.trials.append(trial)
        result.deals_used = evaluator.deals_used
        result.seconds = time.perf_counter() - start
        if on_trial is not None:
            on_trial(trial, result)
    return result


def _room(evaluator: Evaluator, budget: int) -> bool:
    return evaluator.deals_used + evaluator.deals_per_evaluation() <= budget


def _evaluate(evaluator: Evaluator, space: Space, values: dict, order, report=None) -> tuple:
    """(spec, blocks, values, state) of one candidate over ``order``; ``report(value, block)`` returns True to stop."""
    spec = space.spec(values)
    blocks, got = [], []
    for b in order:
        v = evaluator.block(spec, int(b))
        blocks.append(int(b))
        got.append(v)
        if report is not None and report(v, int(b)):
            return spec, blocks, got, "pruned"
    return spec, blocks, got, "complete"


def _optuna(space, evaluator, budget, seed, optimizer, rng):
    import optuna

    optuna.logging.set_verbosity(optuna.logging.WARNING)
    warnings.filterwarnings("ignore", category=optuna.exceptions.ExperimentalWarning)
    racing = optimizer == "optuna"
    study = optuna.create_study(
        direction="maximize", sampler=optuna.samplers.TPESampler(seed=seed, multivariate=True),
        pruner=optuna.pruners.WilcoxonPruner(p_threshold=0.1, n_startup_steps=5) if racing else None)
    study.enqueue_trial(_base_values(space))
    number = 0
    while _room(evaluator, budget):
        trial = study.ask()
        values = {d.name: _suggest(trial, d) for d in space.dims}

        def report(v, b, trial=trial):
            trial.report(v, b)
            return racing and trial.should_prune()

        spec, blocks, got, state = _evaluate(evaluator, space, values, rng.permutation(evaluator.n_blocks), report)
        if state == "complete":
            study.tell(trial, float(np.mean(got)))
        else:
            study.tell(trial, state=optuna.trial.TrialState.PRUNED)
        yield Trial(number, values, str(spec), tuple(blocks), tuple(got), state)
        number += 1


def _suggest(trial, d: Dimension) -> float:
    if d.kind == "choice":
        return float(trial.suggest_categorical(d.name, list(d.choices)))
    if d.kind == "int":
        return float(trial.suggest_int(d.name, int(d.low), int(d.high)))
    return float(trial.suggest_float(d.name, d.low, d.high, step=d.step))


def _snap(d: Dimension, v: float) -> float:
    """``v`` on the dimension's grid (a real parameter's step, whole numbers for an int)."""
    if d.kind == "int":
        return float(round(v))
    if d.step:
        return float(min(d.high, max(d.low, d.low + round((v - d.low) / d.step) * d.step)))
    return float(v)


def _nevergrad(space, evaluator, budget, seed, optimizer, rng):
    try:
        import nevergrad as ng
    except ImportError:
        raise ValueError("--optimizer nevergrad needs the nevergrad package: pip install -e '.[optimizers]'") from None

    params = {}
    for d in space.dims:
        if d.kind == "choice":
            params[d.name] = ng.p.Choice(list(d.choices))
        else:
            scalar = ng.p.Scalar(lower=d.low, upper=d.high)
            params[d.name] = scalar.set_integer_casting() if d.kind == "int" else scalar
    parametrization = ng.p.Dict(**params)
    parametrization.random_state = np.random.RandomState(seed)
    n_trials = max(1, budget // max(1, evaluator.deals_per_evaluation()))
    opt = ng.optimizers.NGOpt(parametrization=parametrization, budget=n_trials, num_workers=1)
    number = 0
    first = _base_values(space)
    while _room(evaluator, budget):
        cand = opt.parametrization.spawn_child(new_value=first) if number == 0 else opt.ask()
        values = {d.name: _snap(d, cand.value[d.name]) for d in space.dims}
        spec, blocks, got, state = _evaluate(evaluator, space, values, range(evaluator.n_blocks))
        opt.tell(cand, -float(np.mean(got)))  # nevergrad minimises
        yield Trial(number, values, str(spec), tuple(blocks), tuple(got), state)
        number += 1


def _random(space, evaluator, budget, seed, optimizer, rng):
    number = 0
    while _room(evaluator, budget):
        if number == 0:
            values = _base_values(space)
        else:
            values = {}
            for d in space.dims:
                if d.kind == "choice":
                    values[d.name] = float(rng.choice(d.choices))
                elif d.kind == "int":
                    values[d.name] = float(rng.integers(int(d.low), int(d.high) + 1))
                else:
                    values[d.name] = _snap(d, rng.uniform(d.low, d.high))
        spec, blocks, got, state = _evaluate(evaluator, space, values, range(evaluator.n_blocks))
        yield Trial(number, values, str(spec), tuple(blocks), tuple(got), state)
        number += 1
