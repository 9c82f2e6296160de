"""The duplicate design: "is heuristic A better than B?" with the fewest deals and honest error control.
``docs/statistics.md`` gives the design and every formula.

Each match is played twice per seat rotation ``s = 0 .. n_seats - 1``: once with the *candidate* in seat ``s`` and
the *field* (default: the baseline) in the other seats, once with the *baseline* in seat ``s`` and the same field.
Determinism by key (every draw a function of seed, match, deal, purpose, seat) makes both arms see the same cards and
the same policy randomness, so the deal luck cancels in the per-match difference

    d_m = mean_s (candidate's fish per deal in seat s) - mean_s (baseline's fish per deal in seat s),

and the match (the sampling unit: the pool carries from deal to deal) carries one number into
:func:`.analysis.stats.paired_comparison`. Identical candidate and baseline give ``d_m == 0`` exactly. Non-zero
``policy_seed_offsets`` give the seat under test its own policy randomness on the same cards (a real A/A test, both
engines).

The summary prints the interval and the p-value only from the number of matches at which they hold
(:mod:`.analysis.intervals`, ``n_needed``); the exact zero of identical arms is printed at any size.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from dataclasses import field as dc_field
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import polars as pl

from ..analysis import stats
from ..analysis.intervals import too_few
from ..constraints import Deals
from ..policies import PolicySpec
from ..rules import Rules
from .folders import json_ready, prepare, write_compare
from .seatings import Arms, Spec, Table, as_rules, as_spec


def seed_offsets(policy_seed_offsets: int | tuple[int, int]) -> tuple[int, int]:
    if isinstance(policy_seed_offsets, (int, np.integer)):
        return 0, int(policy_seed_offsets)
    off = tuple(int(o) for o in policy_seed_offsets)
    if len(off) != 2:
        raise ValueError(f"policy_seed_offsets is one offset (the baseline's) or two (candidate, baseline), "
                         f"got {policy_seed_offsets!r}")
    return off


@dataclass(frozen=True)
class Duplicate:
    """The two arms of a duplicate comparison over one block: ``a``, ``b`` float64 (n_rotations, n_matches), the
    seat under test's fish per deal in rotation ``s`` (candidate, baseline); ``tables`` the seatings by
    (arm, rotation)."""

    a: np.ndarray
    b: np.ndarray
    tables: dict[tuple[str, int], Table]


def duplicate(arms: Arms, candidate: PolicySpec, baseline: PolicySpec, field_spec: PolicySpec, *, seed: int,
              baseline_seed: int, offsets: tuple[int, int]) -> Duplicate:
    n = arms.rules.n_seats
    a = np.empty((n, arms.n_matches))
    b = np.empty((n, arms.n_matches))
    tables = {}
    for s in range(n):
        for arm, spec, arm_seed, off, out in (("candidate", candidate, seed, offsets[0], a),
                                              ("baseline", baseline, baseline_seed, offsets[1], b)):
            seats = [field_spec] * n
            seats[s] = spec
            policy_seeds = [arm_seed] * n
            policy_seeds[s] = arm_seed + off
            t = arms.table(seats, arm_seed, policy_seeds)
            tables[(arm, s)] = t
            out[s] = t.per_deal(s)
    return Duplicate(a, b, tables)


@dataclass(frozen=True, eq=False)
class CompareResult:
    """A duplicate comparison of ``candidate`` against ``baseline`` (fish per deal, candidate minus baseline).

    ``paired`` is :func:`.analysis.stats.paired_comparison` on the per-match values (``per_match``: columns
    ``match``, ``candidate``, ``baseline``, ``difference``, each a mean over the seat rotations of the seat under
    test's fish per deal). ``by_rotation`` repeats the comparison for each seat under test alone. ``n_deals`` is
    the number of deals simulated (each distinct seating once: the cost of the answer); ``n_deals_compared`` the
    deals of one seating (``n_matches * match_deals`` unless a match can end early)."""

    rules: str
    candidate: str
    baseline: str
    field: str
    seed: int
    baseline_seed: int
    policy_seed_offsets: tuple[int, int]
    first_match: int
    n_matches: int
    match_deals: int
    n_rotations: int
    engine: str
    paired: stats.PairedResult
    n_deals: int
    n_deals_compared: int
    per_match: pl.DataFrame = dc_field(repr=False)
    by_rotation: pl.DataFrame = dc_field(repr=False)
    out: Path | None = None
    deals: dict | None = None  # the constraints of the deals (:meth:`reversis_sim.constraints.Deals.identity`)

    mean_difference = property(lambda self: self.paired.mean_difference)
    ci_low = property(lambda self: self.paired.ci_low)  # the t interval's, whatever n_needed says
    ci_high = property(lambda self: self.paired.ci_high)
    p_value = property(lambda self: self.paired.p_value)
    effect = property(lambda self: self.paired.effect)
    variance_reduction = property(lambda self: self.paired.variance_reduction)
    n_needed = property(lambda self: self.paired.n_needed)  # 0: the interval and p-value hold; else matches needed

    def summary(self) -> dict:
        """Plain-dict summary (JSON-ready except non-finite floats; :func:`json_summary` maps those to None).
        ``ci_low``, ``ci_high`` and ``p_value`` are NaN where ``n_needed`` is not 0, and ``note`` says why."""
        p = {k: float(v) if isinstance(v, (float, np.floating)) else v for k, v in self.paired.as_dict().items()}
        if p["n_needed"]:
            p.update(ci_low=np.nan, ci_high=np.nan, p_value=np.nan)  # one NaN object: equal summaries compare equal
        p = SimpleNamespace(**p)
        return {
            "kind": "compare", "rules": self.rules, "candidate": self.candidate, "baseline": self.baseline,
            "field": self.field, "seed": self.seed, "baseline_seed": self.baseline_seed,
            "policy_seed_offsets": list(self.policy_seed_offsets), "first_match": self.first_match,
            "n_matches": self.n_matches, "match_deals": self.match_deals, "n_rotations": self.n_rotations,
            "n_deals": self.n_deals, "n_deals_compared": self.n_deals_compared, "engine": self.engine,
            **({"deals": self.deals} if self.deals else {}),
            "mean_candidate": p.mean_a, "mean_baseline": p.mean_b, "mean_difference": p.mean_difference,
            "se": p.se, "ci_low": p.ci_low, "ci_high": p.ci_high, "level": p.level, "t_statistic": p.t_statistic,
            "p_value": p.p_value, "effect": p.effect, "variance_reduction": p.variance_reduction,
            "n_needed": p.n_needed, "note": too_few(p.n_needed, self.match_deals) if p.n_needed else None,
        }

    def json_summary(self) -> dict:
        """:meth:`summary` with non-finite floats (an infinite variance reduction, NaN with one match) as None."""
        return json_ready(self.summary())


def by_rotation_table(dup: Duplicate, level: float, exact: bool = False) -> pl.DataFrame:
    """The comparison of each seat under test alone: the bounds and p-value NaN where ``n_needed`` is not 0."""
    rows = []
    for s in range(dup.a.shape[0]):
        r = shown(stats.paired_comparison(a=dup.a[s], b=dup.b[s], level=level, kind="rotation"), exact)
        ok = r.reliable
        rows.append({"seat": s, "mean_candidate": r.mean_a, "mean_baseline": r.mean_b,
                     "mean_difference": r.mean_difference, "ci_low": r.ci_low if ok else np.nan,
                     "ci_high": r.ci_high if ok else np.nan, "p_value": r.p_value if ok else np.nan,
                     "n_needed": r.n_needed})
    return pl.DataFrame(rows)


def identical_arms(cand: PolicySpec, base: PolicySpec, *, seed: int, baseline_seed: int,
                   offsets: tuple[int, int]) -> bool:
    """The two arms are the same seatings (same specs, seeds and policy seeds): their difference is exactly 0 in
    every match, known without sampling."""
    return str(cand) == str(base) and int(seed) == int(baseline_seed) and offsets[0] == offsets[1]


def shown(paired: stats.PairedResult, exact: bool) -> stats.PairedResult:
    """``paired``, its interval printable at any size when the arms are ``exact`` (identical: the zero is known)."""
    return dataclasses.replace(paired, n_needed=0) if exact else paired


def compare_block(arms: Arms, cand: PolicySpec, base: PolicySpec, fld: PolicySpec, *, seed: int,
                  baseline_seed: int, offsets: tuple[int, int],
                  level: float) -> tuple[Duplicate, stats.PairedResult, np.ndarray]:
    """The duplicate arms over ``arms``' block, their paired comparison, and the per-match differences."""
    dup = duplicate(arms, cand, base, fld, seed=seed, baseline_seed=baseline_seed, offsets=offsets)
    a, b = dup.a.mean(axis=0), dup.b.mean(axis=0)
    exact = identical_arms(cand, base, seed=seed, baseline_seed=baseline_seed, offsets=offsets)
    return dup, shown(stats.paired_comparison(a=a, b=b, level=level), exact), a - b


def result_of(arms: Arms, dup: Duplicate, paired: stats.PairedResult, cand, base, fld, *, seed, baseline_seed,
              offsets, level, n_deals) -> CompareResult:
    a, b = dup.a.mean(axis=0), dup.b.mean(axis=0)
    match = np.arange(arms.first_match, arms.first_match + arms.n_matches, dtype=np.int64)
    per_match = pl.DataFrame({"match": match, "candidate": a, "baseline": b, "difference": a - b})
    return CompareResult(
        rules=arms.rules.name, candidate=str(cand), baseline=str(base), field=str(fld), seed=int(seed),
        baseline_seed=int(baseline_seed), policy_seed_offsets=offsets, first_match=arms.first_match,
        n_matches=arms.n_matches, match_deals=arms.match_deals, n_rotations=arms.rules.n_seats, engine=arms.engine.name,
        paired=paired, n_deals=n_deals, n_deals_compared=int(dup.tables[("candidate", 0)].deals.sum()),
        per_match=per_match, by_rotation=by_rotation_table(dup, level, identical_arms(
            cand, base, seed=seed, baseline_seed=baseline_seed, offsets=offsets)),
        deals=arms.deals.identity() if arms.deals is not None and arms.deals.constrained else None)


def compare(rules: Rules | str, candidate: Spec, baseline: Spec, field: Spec | None = None, *, n_matches: int,
            match_deals: int | None = None, seed: int, engine: str = "numba", threads: int | None = None,
            out: str | Path | None = None, force: bool = False, level: float = 0.95, first_match: int = 0,
            policy_seed_offsets: int | tuple[int, int] = 0, baseline_seed: int | None = None,
            deals: Deals | None = None, resume: bool = False, cluster=None) -> CompareResult:
    """Duplicate comparison of ``candidate`` against ``baseline`` on the same matches (module docstring).

    Parameters
    ----------
    rules : Rules or preset name
    candidate, baseline : policy spec (``family[:key=value,...]``) or :class:`PolicySpec`
    field : spec of the other seats, default the baseline
    n_matches : matches ``first_match .. first_match + n_matches - 1`` (the sampling units)
    match_deals : deals per match, default ``rules.match_deals``
    seed : run seed (keys the cards and, by default, every seat's policy randomness)
    engine : ``"numba"`` or ``"reference"``; threads : numba threads
    out : write the comparison as a folder (:func:`read_compare`): ``comparison.parquet`` with one row per
        (match, rotation, arm) and ``manifest.json`` (kind ``compare``); an existing non-empty folder is refused
        unless ``force`` (and then only a comparison folder is overwritten); with ``resume``, a folder of the same
        comparison one of whose tables is truncated, missing or foreign is computed again (a whole one is refused)
    level : confidence level of the intervals
    policy_seed_offsets : ``(candidate, baseline)`` offsets added to the seed of the seat under test's policy
        randomness (cards and the field unchanged); one int = the baseline's offset alone. Non-zero offsets give
        an A/A test independent policy randomness on the same cards (both engines).
    baseline_seed : run seed of the baseline arm (default ``seed``); a different one makes an *unpaired* control
        (different cards: ``scripts/aa_validation.py --mode unpaired``)
    deals : constrained deals (``--predeal``, ``--where``: :class:`reversis_sim.constraints.Deals`)
    cluster : a :class:`reversis_sim.cluster.Cluster` whose workers play the seatings (None: here)

    Returns
    -------
    CompareResult
        ``summary()`` holds ``mean_difference``, ``ci_low``, ``ci_high``, ``p_value``, ``effect``,
        ``variance_reduction`` ((var(a) + var(b)) / var(a - b) of the per-match arm means: how many times more
        matches an unpaired comparison would need for the same standard error), ``n_matches``, ``n_deals``, ...
    """
    rules = as_rules(rules)
    cand, base = as_spec(candidate), as_spec(baseline)
    fld = base if field is None else as_spec(field)
    offsets = seed_offsets(policy_seed_offsets)
    baseline_seed = seed if baseline_seed is None else int(baseline_seed)
    match_deals_ = rules.match_deals if match_deals is None else int(match_deals)
    settings = {"rules": rules.name, "rules_params": rules.to_params(), "candidate": str(cand), "baseline": str(base),
                "field": str(fld), "seed": int(seed), "baseline_seed": baseline_seed, "policy_seed_offsets": offsets,
                "first_match": first_match, "n_matches": n_matches, "match_deals": match_deals_, "level": level,
                "deals": deals.identity() if deals is not None and deals.constrained else None}
    if out is not None:
        prepare(Path(out), "compare", settings, force=force, resume=resume)
    arms = Arms(rules, first_match=first_match, n_matches=n_matches, match_deals=match_deals_, engine=engine,
                threads=threads, deals=deals, cluster=cluster)
    dup, paired, _ = compare_block(arms, cand, base, fld, seed=seed, baseline_seed=baseline_seed, offsets=offsets,
                                   level=level)
    result = result_of(arms, dup, paired, cand, base, fld, seed=seed, baseline_seed=baseline_seed, offsets=offsets,
                       level=level, n_deals=arms.n_deals_simulated)
    if out is not None:
        write_compare(Path(out), rules, result, dup, force=force or resume, settings=settings)
        result = dataclasses.replace(result, out=Path(out))
    return result


