"""Duplicate-deal comparisons of policies: "is heuristic A better than B?" with the fewest deals and honest error
control (issue 7). ``docs/statistics.md`` gives the design and every formula.

The design
----------
Each match is played twice per seat rotation ``s = 0 .. n_seats - 1``: once with the *candidate* in seat ``s`` and
the *field* (default: the baseline) in the other seats, once with the *baseline* in seat ``s`` and the same field.
Determinism by key (DESIGN.md decision 1) makes both arms see the same cards and the same policy randomness, so
the deal luck cancels in the per-match difference

    d_m = mean_s (candidate's fish per deal in seat s) - mean_s (baseline's fish per deal in seat s),

and the match (the sampling unit, decision 2) carries one number into :func:`.analysis.stats.paired_comparison`.
Identical candidate and baseline give ``d_m == 0`` exactly.

A seating (who sits where, with which seeds) is simulated once per block of matches and reduced to per-match,
per-seat fish totals (:class:`_Arms`); a seating that several arms share (the all-baseline table when the field is
the baseline, the baseline arm of every point of a sweep, the diagonal of a tournament) is simulated once.

What lives here
---------------
- :func:`compare`: a fixed-size duplicate comparison (optionally written as a run folder of kind ``compare``);
- :func:`sprt_compare`: the same design played in batches until the GSPRT decides;
- :func:`tournament`: every policy in every seat against every field, ranking and Holm-corrected claims;
- :func:`sweep`: a parameter grid against a baseline, Holm across the grid, explore/confirm on disjoint seeds;
- :func:`policy_seeds_supported`: whether an engine can give a seat its own policy-randomness seed (the A/A test).
"""

from __future__ import annotations

import dataclasses
import inspect
import itertools
import json
import math
import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from dataclasses import field as dc_field
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import polars as pl

from . import __version__, keys, reference, simulate
from .analysis import compare as frames
from .analysis import stats
from .columns import from_records
from .game import dealer_of
from .policies import PolicySpec, make_policy, parse_spec
from .record import RunError, _git_commit, _versions, _write_json_atomic
from .reference.match import placed
from .rules import Rules, get_preset

__all__ = ["CompareResult", "EngineFeatureError", "SprtResult", "SprtUpdate", "SweepResult", "TournamentResult",
           "compare", "json_ready", "policy_seeds_supported", "read_compare", "sprt_compare", "sweep", "tournament"]

COMPARE_FORMAT = "reversis-compare/1"
"""``format`` of the manifest of a comparison folder (``kind`` says which: compare, tournament, sweep)."""
COMPARE_TABLE = "comparison.parquet"
CHUNK_MATCHES = 20_000
"""Matches simulated per engine call: bounds the memory of the per-deal columns of one call."""

Spec = str | PolicySpec


class EngineFeatureError(NotImplementedError):
    """The engine cannot do what the comparison asks (a per-seat policy seed); the message says what to do."""


# ----------------------------------------------------------------------------------------------------------------
# Seatings: simulated once, reduced to per-match per-seat fish totals
# ----------------------------------------------------------------------------------------------------------------


def _rules(rules: Rules | str) -> Rules:
    return get_preset(rules) if isinstance(rules, str) else rules


def _spec(spec: Spec) -> PolicySpec:
    return spec if isinstance(spec, PolicySpec) else parse_spec(spec)


def _engine_takes_policy_seeds() -> bool:
    return "policy_seeds" in inspect.signature(simulate.chunk_columns).parameters


def policy_seeds_supported(engine: str) -> bool:
    """Whether ``engine`` can key a seat's policy randomness by a seed of its own while the cards stay keyed by
    the run seed (needed by a real A/A test, :func:`compare` with ``policy_seed_offsets``).

    True when :func:`reversis_sim.simulate.chunk_columns` takes ``policy_seeds``; for the reference engine also
    without it, through this module's reference shim (:func:`_reference_columns`)."""
    return _engine_takes_policy_seeds() or engine == "reference"


class _Reseeded:
    """A reference policy whose random stream is ``keys.stream(policy_seed, match, deal, PURPOSE_POLICY, seat)``
    instead of the run seed's: the cards stay the run's, the policy randomness becomes independent."""

    def __init__(self, inner, policy_seed: int, seat: int):
        self.inner, self.policy_seed, self.seat = inner, int(policy_seed), seat
        self.match = self.deal = 0

    def __getattr__(self, name):
        return getattr(self.inner, name)

    def _view(self, view):
        stream = keys.stream(self.policy_seed, self.match, self.deal, keys.PURPOSE_POLICY, self.seat)
        return dataclasses.replace(view, policy_stream=stream)

    def exchange(self, view):
        return self.inner.exchange(self._view(view))

    def declare_espagnolette(self, view):
        return self.inner.declare_espagnolette(self._view(view))

    def espagnolette_goal(self, view):
        return self.inner.espagnolette_goal(self._view(view))

    def play(self, view, legal):
        return self.inner.play(self._view(view), legal)


def _reference_columns(rules: Rules, seats: Sequence[PolicySpec], *, seed: int, policy_seeds: Sequence[int],
                       first_match: int, n_matches: int, match_deals: int) -> dict[str, np.ndarray]:
    """Per-deal columns from the reference engine with a policy seed per seat (cards keyed by ``seed``).

    The match loop is :func:`reversis_sim.reference.play_match`'s, line for line, with each seat's policy wrapped
    in :class:`_Reseeded`; with ``policy_seeds == [seed] * n_seats`` the columns equal
    ``chunk_columns(engine="reference")`` exactly (a test checks it). It exists until the engines take
    ``policy_seeds`` themselves (then :func:`_simulate` uses theirs)."""
    names = [str(s) for s in seats]
    records = []
    for match in range(first_match, first_match + n_matches):
        policies = [_Reseeded(make_policy(s), ps, k) for k, (s, ps) in enumerate(zip(seats, policy_seeds))]
        pool, double_ante, score = 0, False, [0] * rules.n_seats
        for deal in range(match_deals):
            for p in policies:
                p.match, p.deal = match, deal
            record = reference.play_deal(rules, policies, seed=seed, match=match, deal=deal,
                                         dealer=dealer_of(rules, deal), pool_before=pool, seat_names=names,
                                         double_ante=double_ante, score_before=score)
            pool = record["result"]["pool_after"] if rules.pool_persists else 0
            double_ante = rules.double_ante_after_placement and placed(record)
            records.append(record)
            if rules.scoring == "simple":
                score = record["result"]["score_after"]
                if max(score) >= rules.target_total:
                    break
    return from_records(records, rules)


def _simulate(rules: Rules, seats: Sequence[PolicySpec], *, seed: int, policy_seeds: tuple[int, ...] | None,
              first_match: int, n_matches: int, match_deals: int, engine: str,
              threads: int | None) -> dict[str, np.ndarray]:
    """Per-deal columns of one seating; ``policy_seeds`` None = every seat's policy keyed by ``seed``."""
    if policy_seeds is None:
        return simulate.chunk_columns(rules, seats, seed=seed, first_match=first_match, n_matches=n_matches,
                                      match_deals=match_deals, engine=engine, threads=threads)
    if _engine_takes_policy_seeds():
        return simulate.chunk_columns(rules, seats, seed=seed, first_match=first_match, n_matches=n_matches,
                                      match_deals=match_deals, engine=engine, threads=threads,
                                      policy_seeds=list(policy_seeds))
    if engine == "reference":
        return _reference_columns(rules, seats, seed=seed, policy_seeds=policy_seeds, first_match=first_match,
                                  n_matches=n_matches, match_deals=match_deals)
    raise EngineFeatureError(
        f"the {engine!r} engine cannot give a seat its own policy seed (chunk_columns has no 'policy_seeds' "
        f"parameter yet), which policy_seed_offsets needs; use engine='reference', or leave the offsets at 0")


@dataclass(frozen=True)
class _Table:
    """One seating over a block of matches: ``fish`` int64 (n_matches, n_seats) totals per match and seat,
    ``deals`` int64 (n_matches,) deals played in each match."""

    fish: np.ndarray
    deals: np.ndarray

    def per_deal(self, seat: int) -> np.ndarray:
        """float64 (n_matches,): the seat's mean fish per deal in each match."""
        return self.fish[:, seat] / self.deals


class _Arms:
    """Seatings of one block of matches (``first_match .. first_match + n_matches - 1``), each simulated once.

    A seating is (the spec of every seat, the run seed, the policy seed of every seat); equal seatings are pure
    functions of the same keys, so the memo returns exactly what a new simulation would."""

    def __init__(self, rules: Rules, *, first_match: int, n_matches: int, match_deals: int, engine: str,
                 threads: int | None, chunk_matches: int = CHUNK_MATCHES):
        if n_matches < 1:
            raise ValueError(f"n_matches must be at least 1, got {n_matches}")
        if first_match < 0:
            raise ValueError(f"first_match must not be negative, got {first_match}")
        if match_deals < 1:
            raise ValueError(f"match_deals must be at least 1, got {match_deals}")
        if engine not in simulate.ENGINES:
            raise ValueError(f"unknown engine {engine!r}; valid engines: {', '.join(simulate.ENGINES)}")
        self.rules, self.first_match, self.n_matches, self.match_deals = rules, first_match, n_matches, match_deals
        self.engine, self.threads, self.chunk_matches = engine, threads, chunk_matches
        self.memo: dict[tuple, _Table] = {}
        self.n_deals_simulated = 0

    def table(self, seats: Sequence[PolicySpec], seed: int, policy_seeds: Sequence[int] | None = None) -> _Table:
        n = self.rules.n_seats
        if len(seats) != n:
            raise ValueError(f"{self.rules.name} needs {n} seats, got {len(seats)}")
        seeds = None if policy_seeds is None or all(p == seed for p in policy_seeds) else tuple(map(int, policy_seeds))
        key = (tuple(str(s) for s in seats), int(seed), seeds)
        if key not in self.memo:
            self.memo[key] = self._play(list(seats), int(seed), seeds)
        return self.memo[key]

    def _play(self, seats: list[PolicySpec], seed: int, policy_seeds: tuple[int, ...] | None) -> _Table:
        n_seats = self.rules.n_seats
        fish = np.zeros((self.n_matches, n_seats), np.int64)
        deals = np.zeros(self.n_matches, np.int64)
        for start in range(0, self.n_matches, self.chunk_matches):
            size = min(self.chunk_matches, self.n_matches - start)
            cols = _simulate(self.rules, seats, seed=seed, policy_seeds=policy_seeds,
                             first_match=self.first_match + start, n_matches=size, match_deals=self.match_deals,
                             engine=self.engine, threads=self.threads)
            idx = np.asarray(cols["match"], np.int64) - (self.first_match + start)
            deals[start:start + size] = np.bincount(idx, minlength=size)
            f = np.asarray(cols["fish"])
            for s in range(n_seats):  # float64 sums of int fish are exact far beyond any match's total
                fish[start:start + size, s] = np.rint(np.bincount(idx, weights=f[:, s], minlength=size))
            self.n_deals_simulated += len(idx)
        if np.any(deals == 0):
            raise RuntimeError("a match produced no deal; the engine returned rows for other matches than asked")
        return _Table(fish, deals)


# ----------------------------------------------------------------------------------------------------------------
# The duplicate design
# ----------------------------------------------------------------------------------------------------------------


def _offsets(policy_seed_offsets: int | tuple[int, int]) -> tuple[int, int]:
    if isinstance(policy_seed_offsets, (int, np.integer)):
        return 0, int(policy_seed_offsets)
    off = tuple(int(o) for o in policy_seed_offsets)
    if len(off) != 2:
        raise ValueError(f"policy_seed_offsets is one offset (the baseline's) or two (candidate, baseline), "
                         f"got {policy_seed_offsets!r}")
    return off


@dataclass(frozen=True)
class _Duplicate:
    """The two arms of a duplicate comparison over one block: ``a``, ``b`` float64 (n_rotations, n_matches), the
    seat under test's fish per deal in rotation ``s`` (candidate, baseline); ``tables`` the seatings by
    (arm, rotation)."""

    a: np.ndarray
    b: np.ndarray
    tables: dict[tuple[str, int], _Table]


def _duplicate(arms: _Arms, candidate: PolicySpec, baseline: PolicySpec, field_spec: PolicySpec, *, seed: int,
               baseline_seed: int, offsets: tuple[int, int]) -> _Duplicate:
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
    return _Duplicate(a, b, tables)


def json_ready(x):
    """``x`` (nested dicts, lists, numbers) with every non-finite float as None: JSON has no inf or NaN."""
    if isinstance(x, float) and not math.isfinite(x):
        return None
    if isinstance(x, dict):
        return {k: json_ready(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [json_ready(v) for v in x]
    return x


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

    mean_difference = property(lambda self: self.paired.mean_difference)
    ci_low = property(lambda self: self.paired.ci_low)
    ci_high = property(lambda self: self.paired.ci_high)
    p_value = property(lambda self: self.paired.p_value)
    effect = property(lambda self: self.paired.effect)
    variance_reduction = property(lambda self: self.paired.variance_reduction)

    def summary(self) -> dict:
        """Plain-dict summary (JSON-ready except non-finite floats; :func:`json_summary` maps those to None)."""
        p = {k: float(v) if isinstance(v, (float, np.floating)) else v for k, v in self.paired.as_dict().items()}
        p = SimpleNamespace(**p)
        return {
            "kind": "compare", "rules": self.rules, "candidate": self.candidate, "baseline": self.baseline,
            "field": self.field, "seed": self.seed, "baseline_seed": self.baseline_seed,
            "policy_seed_offsets": list(self.policy_seed_offsets), "first_match": self.first_match,
            "n_matches": self.n_matches, "match_deals": self.match_deals, "n_rotations": self.n_rotations,
            "n_deals": self.n_deals, "n_deals_compared": self.n_deals_compared, "engine": self.engine,
            "mean_candidate": p.mean_a, "mean_baseline": p.mean_b, "mean_difference": p.mean_difference,
            "se": p.se, "ci_low": p.ci_low, "ci_high": p.ci_high, "level": p.level, "t_statistic": p.t_statistic,
            "p_value": p.p_value, "effect": p.effect, "variance_reduction": p.variance_reduction,
        }

    def json_summary(self) -> dict:
        """:meth:`summary` with non-finite floats (an infinite variance reduction, NaN with one match) as None."""
        return json_ready(self.summary())


def _by_rotation(dup: _Duplicate, level: float) -> pl.DataFrame:
    rows = []
    for s in range(dup.a.shape[0]):
        r = stats.paired_comparison(a=dup.a[s], b=dup.b[s], level=level)
        rows.append({"seat": s, "mean_candidate": r.mean_a, "mean_baseline": r.mean_b,
                     "mean_difference": r.mean_difference, "ci_low": r.ci_low, "ci_high": r.ci_high,
                     "p_value": r.p_value})
    return pl.DataFrame(rows)


def _compare_block(arms: _Arms, cand: PolicySpec, base: PolicySpec, fld: PolicySpec, *, seed: int,
                   baseline_seed: int, offsets: tuple[int, int],
                   level: float) -> tuple[_Duplicate, stats.PairedResult, np.ndarray]:
    """The duplicate arms over ``arms``' block, their paired comparison, and the per-match differences."""
    dup = _duplicate(arms, cand, base, fld, seed=seed, baseline_seed=baseline_seed, offsets=offsets)
    a, b = dup.a.mean(axis=0), dup.b.mean(axis=0)
    return dup, stats.paired_comparison(a=a, b=b, level=level), a - b


def _result(arms: _Arms, dup: _Duplicate, paired: stats.PairedResult, cand, base, fld, *, seed, baseline_seed,
            offsets, level, n_deals) -> CompareResult:
    a, b = dup.a.mean(axis=0), dup.b.mean(axis=0)
    match = np.arange(arms.first_match, arms.first_match + arms.n_matches, dtype=np.int64)
    per_match = pl.DataFrame({"match": match, "candidate": a, "baseline": b, "difference": a - b})
    return CompareResult(
        rules=arms.rules.name, candidate=str(cand), baseline=str(base), field=str(fld), seed=int(seed),
        baseline_seed=int(baseline_seed), policy_seed_offsets=offsets, first_match=arms.first_match,
        n_matches=arms.n_matches, match_deals=arms.match_deals, n_rotations=arms.rules.n_seats, engine=arms.engine,
        paired=paired, n_deals=n_deals, n_deals_compared=int(dup.tables[("candidate", 0)].deals.sum()),
        per_match=per_match, by_rotation=_by_rotation(dup, level))


def compare(rules: Rules | str, candidate: Spec, baseline: Spec, field: Spec | None = None, *, n_matches: int,
            match_deals: int | None = None, seed: int, engine: str = "numba", threads: int | None = None,
            out: str | Path | None = None, force: bool = False, level: float = 0.95, first_match: int = 0,
            policy_seed_offsets: int | tuple[int, int] = 0, baseline_seed: int | None = None) -> CompareResult:
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
        unless ``force`` (and then only a comparison folder is overwritten)
    level : confidence level of the intervals
    policy_seed_offsets : ``(candidate, baseline)`` offsets added to the seed of the seat under test's policy
        randomness (cards and the field unchanged); one int = the baseline's offset alone. Non-zero offsets give
        an A/A test independent policy randomness on the same cards (:func:`policy_seeds_supported`).
    baseline_seed : run seed of the baseline arm (default ``seed``); a different one makes an *unpaired* control
        (different cards), used by ``scripts/aa_validation.py`` when the engine cannot reseed policies alone

    Returns
    -------
    CompareResult
        ``summary()`` holds ``mean_difference``, ``ci_low``, ``ci_high``, ``p_value``, ``effect``,
        ``variance_reduction`` ((var(a) + var(b)) / var(a - b) of the per-match arm means: how many times more
        matches an unpaired comparison would need for the same standard error), ``n_matches``, ``n_deals``, ...
    """
    rules = _rules(rules)
    cand, base = _spec(candidate), _spec(baseline)
    fld = base if field is None else _spec(field)
    offsets = _offsets(policy_seed_offsets)
    baseline_seed = seed if baseline_seed is None else int(baseline_seed)
    if out is not None:
        _check_out(Path(out), force)
    deals = rules.match_deals if match_deals is None else int(match_deals)
    arms = _Arms(rules, first_match=first_match, n_matches=n_matches, match_deals=deals, engine=engine,
                 threads=threads)
    dup, paired, _ = _compare_block(arms, cand, base, fld, seed=seed, baseline_seed=baseline_seed, offsets=offsets,
                                    level=level)
    result = _result(arms, dup, paired, cand, base, fld, seed=seed, baseline_seed=baseline_seed, offsets=offsets,
                     level=level, n_deals=arms.n_deals_simulated)
    if out is not None:
        _write_compare(Path(out), rules, result, dup, force=force)
        result = dataclasses.replace(result, out=Path(out))
    return result


# ----------------------------------------------------------------------------------------------------------------
# Comparison folders
# ----------------------------------------------------------------------------------------------------------------


def _check_out(out: Path, force: bool) -> None:
    """Refuse a folder we may not write (before any simulation, so nothing is lost)."""
    if out.exists() and not out.is_dir():
        raise RunError(f"{out} is a file, not a folder; choose another out")
    if out.exists() and any(out.iterdir()):
        if not force:
            raise RunError(f"{out} already exists and is not empty; use force=True (--force) to overwrite it, or "
                           f"choose another out")
        try:
            manifest = json.loads((out / "manifest.json").read_text())
        except (OSError, json.JSONDecodeError):
            manifest = {}
        if manifest.get("format") != COMPARE_FORMAT:
            raise RunError(f"{out} is not a comparison folder (no manifest.json of format {COMPARE_FORMAT}); "
                           f"refusing to overwrite it even with force: choose another out")


def _write_folder(out: Path, kind: str, tables: Mapping[str, pl.DataFrame], manifest: dict, *, force: bool) -> None:
    """Write ``tables`` (file name -> frame) atomically, then the manifest (kind, versions, files) atomically."""
    _check_out(out, force)
    out.mkdir(parents=True, exist_ok=True)
    for old in list(out.glob("*.parquet")) + list(out.glob("*.parquet.tmp")):
        old.unlink()
    for name, frame in tables.items():
        tmp = out / (name + ".tmp")
        frame.write_parquet(tmp, compression="zstd")
        os.replace(tmp, out / name)
    full = {"format": COMPARE_FORMAT, "kind": kind, **manifest, "files": sorted(tables),
            "package_version": __version__, "git_commit": _git_commit(), "versions": _versions()}
    _write_json_atomic(out / "manifest.json", json_ready(full))


def _compare_rows(result: CompareResult, dup: _Duplicate, n_seats: int) -> pl.DataFrame:
    """One row per (match, rotation, arm): the seat under test's fish and fish per deal, and every seat's fish."""
    parts = []
    match = np.arange(result.first_match, result.first_match + result.n_matches, dtype=np.int64)
    for (arm, s), t in sorted(dup.tables.items(), key=lambda kv: (kv[0][1], kv[0][0] != "candidate")):
        cols = {"match": match, "rotation": np.full(len(match), s, np.int8),
                "arm": [arm] * len(match),
                "policy": [result.candidate if arm == "candidate" else result.baseline] * len(match),
                "n_deals": t.deals.astype(np.int16), "fish": t.fish[:, s], "fish_per_deal": t.per_deal(s)}
        for k in range(n_seats):
            cols[f"fish_seat_{k}"] = t.fish[:, k]
        parts.append(pl.DataFrame(cols))
    return pl.concat(parts).sort(["match", "rotation", "arm"], descending=[False, False, True])


def _write_compare(out: Path, rules: Rules, result: CompareResult, dup: _Duplicate, *, force: bool) -> None:
    layout = {
        "table": COMPARE_TABLE,
        "row": "one per (match, rotation, arm)",
        "rotation": "the seat under test (candidate or baseline there, the field in every other seat)",
        "arm": "candidate | baseline",
        "fish": "the seat under test's fish in the match; fish_per_deal = fish / n_deals",
        "fish_seat_k": "every seat's fish in the match (k = 0 .. n_seats - 1)",
        "difference": "per match: mean over rotations of fish_per_deal, candidate minus baseline",
    }
    manifest = {"rules": rules.name, "rules_params": rules.to_params(), "candidate": result.candidate,
                "baseline": result.baseline, "field": result.field, "seed": result.seed,
                "baseline_seed": result.baseline_seed, "policy_seed_offsets": list(result.policy_seed_offsets),
                "first_match": result.first_match, "n_matches": result.n_matches, "match_deals": result.match_deals,
                "n_rotations": result.n_rotations, "engine": result.engine, "layout": layout,
                "summary": result.summary()}
    _write_folder(out, "compare", {COMPARE_TABLE: _compare_rows(result, dup, rules.n_seats)}, manifest, force=force)


def read_compare(out: str | Path) -> tuple[dict, pl.DataFrame]:
    """(manifest, rows) of a folder written by :func:`compare` with ``out``; :class:`RunError` otherwise.

    The per-match differences follow from the rows alone::

        rows.group_by("match", "arm").agg(pl.col("fish_per_deal").mean())  # then candidate minus baseline
    """
    out = Path(out)
    try:
        manifest = json.loads((out / "manifest.json").read_text())
    except (OSError, json.JSONDecodeError):
        raise RunError(f"{out} is not a comparison folder (no readable manifest.json)") from None
    if manifest.get("format") != COMPARE_FORMAT or manifest.get("kind") != "compare":
        raise RunError(f"{out} is not a compare folder (format {manifest.get('format')!r}, kind "
                       f"{manifest.get('kind')!r})")
    return manifest, pl.read_parquet(out / COMPARE_TABLE)


# ----------------------------------------------------------------------------------------------------------------
# Sequential comparison
# ----------------------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class SprtUpdate:
    """State after one batch: ``llr`` against the bounds ``lower`` / ``upper``, ``decision`` (``accept_h1``,
    ``accept_h0``, ``continue``), matches and deals used so far, and the running mean and variance of the
    per-match differences."""

    batch: int
    n_matches: int
    n_deals: int
    llr: float
    lower: float
    upper: float
    decision: str
    mean: float
    var: float


@dataclass(frozen=True, eq=False)
class SprtResult:
    """Outcome of :func:`sprt_compare`. ``decision``: ``accept_h1`` (candidate better by at least ``delta``),
    ``accept_h0`` (not better than 0) or ``inconclusive`` (``max_matches`` reached first). ``estimate`` is the
    paired estimate on every match played; after a sequential stop its interval is nominal only (the stopping
    rule biases it away from 0)."""

    decision: str
    n_matches: int
    n_deals: int
    llr: float
    lower: float
    upper: float
    delta: float
    alpha: float
    beta: float
    estimate: stats.PairedResult
    history: list[SprtUpdate] = dc_field(repr=False)

    def summary(self) -> dict:
        """Plain-dict summary; ``json_ready(result.summary())`` for JSON (an infinite LLR becomes None)."""
        e = self.estimate
        return {"kind": "sprt", "decision": self.decision, "n_matches": self.n_matches, "n_deals": self.n_deals,
                "llr": self.llr, "lower": self.lower, "upper": self.upper, "delta": self.delta, "alpha": self.alpha,
                "beta": self.beta, "mean_difference": e.mean_difference, "ci_low": e.ci_low, "ci_high": e.ci_high,
                "p_value": e.p_value, "effect": e.effect, "variance_reduction": e.variance_reduction}


def sprt_compare(rules: Rules | str, candidate: Spec, baseline: Spec, field: Spec | None = None, *, delta: float,
                 alpha: float = 0.05, beta: float = 0.05, batch_matches: int, max_matches: int, seed: int,
                 engine: str = "numba", on_update: Callable[[SprtUpdate], None] | None = None,
                 match_deals: int | None = None, threads: int | None = None, min_units: int = 30,
                 policy_seed_offsets: int | tuple[int, int] = 0, level: float = 0.95) -> SprtResult:
    """Play the duplicate design in batches of matches until the GSPRT accepts H1 or H0, or ``max_matches``.

    H1: the candidate wins ``delta`` fish per deal more than the baseline; H0: it wins no more (difference 0).
    The per-match differences are those of :func:`compare` (batch ``k`` plays matches ``k * batch_matches ..``,
    so a run is a prefix of the fixed-size comparison on the same seed) and go to
    :class:`.analysis.stats.GSPRT`, whose bounds are checked after every batch. ``on_update`` gets a
    :class:`SprtUpdate` after each batch (the CLI prints the LLR from it). ``min_units``: no decision before this
    many matches (see :func:`.analysis.stats.gsprt`).
    """
    rules = _rules(rules)
    if batch_matches < 1 or max_matches < 1:
        raise ValueError(f"batch_matches and max_matches must be at least 1, got {batch_matches}, {max_matches}")
    cand, base = _spec(candidate), _spec(baseline)
    fld = base if field is None else _spec(field)
    offsets = _offsets(policy_seed_offsets)
    deals = rules.match_deals if match_deals is None else int(match_deals)
    test = stats.GSPRT(delta, alpha, beta, min_units=min_units)
    diffs, a_all, b_all, history = [], [], [], []
    n_done = n_deals = 0
    state = test.state
    while n_done < max_matches:
        size = min(batch_matches, max_matches - n_done)
        arms = _Arms(rules, first_match=n_done, n_matches=size, match_deals=deals, engine=engine, threads=threads)
        dup, _, d = _compare_block(arms, cand, base, fld, seed=seed, baseline_seed=seed, offsets=offsets,
                                   level=level)
        a_all.append(dup.a.mean(axis=0))
        b_all.append(dup.b.mean(axis=0))
        diffs.append(d)
        n_done += size
        n_deals += arms.n_deals_simulated
        state = test.update(d)
        update = SprtUpdate(len(history), n_done, n_deals, state.llr, test.lower, test.upper, state.decision,
                            state.mean, state.var)
        history.append(update)
        if on_update is not None:
            on_update(update)
        if state.decision != "continue":
            break
    a, b = np.concatenate(a_all), np.concatenate(b_all)
    estimate = stats.paired_comparison(a=a, b=b, level=level)
    decision = "inconclusive" if state.decision == "continue" else state.decision
    return SprtResult(decision, n_done, n_deals, state.llr, test.lower, test.upper, float(delta), alpha, beta,
                      estimate, history)


# ----------------------------------------------------------------------------------------------------------------
# Tournament
# ----------------------------------------------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class TournamentResult:
    """``payoff``: one row per (row, column) policy: mean fish per deal of ``row`` seated in each seat in turn
    against copies of ``column``, with ``se``, ``ci_low``, ``ci_high``. ``ranking``: policies by their mean over
    every field (the same fields and deals for all). ``pairwise``: one row per pair, a paired comparison of the
    per-match row means, Holm-corrected (``p_holm``, ``reject``) with the claim it supports. ``values``: float64
    (k, k, n_matches), the per-match payoffs."""

    policies: list[str]
    payoff: pl.DataFrame
    ranking: pl.DataFrame
    pairwise: pl.DataFrame
    values: np.ndarray = dc_field(repr=False)
    n_matches: int = 0
    n_deals: int = 0

    @property
    def matrix(self) -> np.ndarray:
        """float64 (k, k): ``M[i, j]`` the mean payoff of policy i against a field of policy j."""
        return self.values.mean(axis=2)


def tournament(rules: Rules | str, policies: Sequence[Spec], *, n_matches: int, seed: int, engine: str = "numba",
               match_deals: int | None = None, threads: int | None = None, level: float = 0.95,
               alpha: float = 0.05, first_match: int = 0, out: str | Path | None = None,
               force: bool = False) -> TournamentResult:
    """Every policy in every seat against three (``n_seats - 1``) copies of every policy, on the same deals.

    ``M[i][j]`` = mean over matches of (mean over the seat rotations of policy i's fish per deal against a field
    of j); its interval is :func:`.analysis.stats.mean_ci` on the per-match values. The ranking averages a row over
    all fields (``j`` including ``i``: every policy faces the same fields); "i beats j" claims come from
    :func:`.analysis.stats.paired_comparison` of the per-match row means of i and j (same fields, same deals),
    Holm-corrected over all pairs at family-wise level ``alpha``. ``out`` writes ``payoff``, ``ranking``,
    ``pairwise`` and ``values`` Parquet tables and a manifest (kind ``tournament``).
    """
    rules = _rules(rules)
    specs = [_spec(p) for p in policies]
    names = [str(s) for s in specs]
    if len(specs) < 2:
        raise ValueError("a tournament needs at least two policies")
    if len(set(names)) != len(names):
        dup = sorted({n for n in names if names.count(n) > 1})
        raise ValueError(f"policies listed twice (after filling in defaults): {', '.join(dup)}")
    if out is not None:
        _check_out(Path(out), force)
    deals = rules.match_deals if match_deals is None else int(match_deals)
    arms = _Arms(rules, first_match=first_match, n_matches=n_matches, match_deals=deals, engine=engine,
                 threads=threads)
    n, k = rules.n_seats, len(specs)
    values = np.empty((k, k, n_matches))
    for i, j in itertools.product(range(k), range(k)):
        per_rot = []
        for s in range(n):
            seats = [specs[j]] * n
            seats[s] = specs[i]
            per_rot.append(arms.table(seats, seed).per_deal(s))
        values[i, j] = np.mean(per_rot, axis=0)

    payoff = []
    for i, j in itertools.product(range(k), range(k)):
        r = stats.mean_ci(values[i, j], level=level)
        payoff.append({"row": names[i], "column": names[j], "mean": r.mean, "se": r.se, "ci_low": r.ci_low,
                       "ci_high": r.ci_high, "n_matches": n_matches})
    row_means = values.mean(axis=1)  # (k, n_matches)
    ranking = []
    for i in range(k):
        r = stats.mean_ci(row_means[i], level=level)
        ranking.append({"policy": names[i], "mean": r.mean, "se": r.se, "ci_low": r.ci_low, "ci_high": r.ci_high})
    ranking_frame = (pl.DataFrame(ranking).sort("mean", descending=True, maintain_order=True)
                     .with_row_index("rank", offset=1).with_columns(pl.col("rank").cast(pl.Int64)))
    pairs = []
    for i, j in itertools.combinations(range(k), 2):
        r = stats.paired_comparison(a=row_means[i], b=row_means[j], level=level)
        pairs.append({"policy_a": names[i], "policy_b": names[j], "mean_difference": r.mean_difference,
                      "se": r.se, "ci_low": r.ci_low, "ci_high": r.ci_high, "p_value": r.p_value,
                      "effect": r.effect})
    pairwise = frames.holm_table(pl.DataFrame(pairs), alpha=alpha)
    pairwise = pairwise.with_columns(
        pl.when(~pl.col("reject")).then(pl.lit(None, pl.String))
        .when(pl.col("mean_difference") > 0).then(pl.col("policy_a")).otherwise(pl.col("policy_b")).alias("winner"),
        pl.when(~pl.col("reject")).then(pl.lit("no claim"))
        .when(pl.col("mean_difference") > 0).then(pl.col("policy_a") + " beats " + pl.col("policy_b"))
        .otherwise(pl.col("policy_b") + " beats " + pl.col("policy_a")).alias("claim"))
    result = TournamentResult(names, pl.DataFrame(payoff), ranking_frame, pairwise, values, n_matches,
                              arms.n_deals_simulated)
    if out is not None:
        long = pl.DataFrame({
            "row": np.repeat(names, k * n_matches), "column": np.tile(np.repeat(names, n_matches), k),
            "match": np.tile(np.arange(first_match, first_match + n_matches), k * k), "value": values.reshape(-1)})
        manifest = {"rules": rules.name, "rules_params": rules.to_params(), "policies": names, "seed": int(seed),
                    "first_match": first_match, "n_matches": n_matches, "match_deals": deals, "engine": engine,
                    "level": level, "alpha": alpha, "n_deals": arms.n_deals_simulated,
                    "layout": {"values.parquet": "one row per (row, column, match): mean over rotations of row's "
                                                 "fish per deal against a field of column"}}
        _write_folder(Path(out), "tournament", {"payoff.parquet": result.payoff, "ranking.parquet": ranking_frame,
                                                "pairwise.parquet": pairwise, "values.parquet": long},
                      manifest, force=force)
    return result


# ----------------------------------------------------------------------------------------------------------------
# Parameter sweep
# ----------------------------------------------------------------------------------------------------------------


def grid_specs(base_spec: Spec, grid: Mapping[str, Sequence[float]]) -> list[tuple[dict, PolicySpec]]:
    """Every point of ``grid`` (parameter -> values; the product, in the order given) applied to ``base_spec``:
    ``(values, spec)`` pairs, each spec parsed from its text ``family:key=v,...`` so names and ranges are checked."""
    base = _spec(base_spec)
    if not grid:
        raise ValueError("the grid is empty; give at least one parameter and its values")
    keys_ = list(grid)
    for key in keys_:
        if len(grid[key]) == 0:
            raise ValueError(f"grid parameter {key!r} has no values")
    points = []
    for combo in itertools.product(*(grid[k] for k in keys_)):
        values = dict(zip(keys_, combo))
        params = {**dict(base.params), **values}
        text = base.family + ":" + ",".join(f"{k}={float(v)!r}" for k, v in params.items())
        points.append((values, parse_spec(text)))
    return points


@dataclass(frozen=True, eq=False)
class SweepResult:
    """``grid``: one row per grid point (its parameter values, ``spec``, the comparison with the baseline,
    ``p_holm``, ``reject``, ``best``); ``best``: the spec with the largest explore-seed mean difference;
    ``confirm``: that spec re-tested alone on the confirm seed (None without one), ``confirmed``: its confirm
    comparison is significant at ``alpha`` in the candidate's favour."""

    grid: pl.DataFrame
    best: str
    confirm: CompareResult | None = None
    confirmed: bool | None = None

    def table(self) -> pl.DataFrame:
        """The grid rows (``stage`` explore) and the confirm row (``stage`` confirm), one frame."""
        explore = self.grid.with_columns(pl.lit("explore").alias("stage"))
        if self.confirm is None:
            return explore
        s = self.confirm.summary()
        row = {c: None for c in explore.columns}
        row.update({k: s[k] for k in ("mean_difference", "se", "ci_low", "ci_high", "p_value", "effect",
                                      "variance_reduction", "n_matches", "n_deals") if k in row})
        row.update({"spec": self.best, "seed": self.confirm.seed, "stage": "confirm", "reject": self.confirmed,
                    "p_holm": s["p_value"], "best": True})
        return pl.concat([explore, pl.DataFrame([row], schema=explore.schema)], how="vertical")


def _summary_row(r: CompareResult) -> dict:
    s = r.summary()
    return {k: s[k] for k in ("mean_candidate", "mean_baseline", "mean_difference", "se", "ci_low", "ci_high",
                              "p_value", "effect", "variance_reduction", "n_matches", "n_deals")}


def sweep(rules: Rules | str, base_spec: Spec, grid: Mapping[str, Sequence[float]], baseline: Spec, *,
          n_matches: int, seed: int, confirm_seed: int | None = None, confirm_matches: int | None = None,
          engine: str = "numba", field: Spec | None = None, match_deals: int | None = None,
          threads: int | None = None, alpha: float = 0.05, level: float = 0.95, out: str | Path | None = None,
          force: bool = False) -> SweepResult:
    """Compare every grid point with ``baseline`` (the duplicate design of :func:`compare`, all points on the same
    matches of the explore ``seed``; the baseline arm is simulated once), Holm-correct across the points, pick
    the best mean difference, and, given ``confirm_seed`` (a seed other than ``seed``: fresh deals), re-test the
    best point alone on ``confirm_matches`` (default ``n_matches``) matches of it. The selection is made on the
    explore seed only, so the confirm p-value is an honest single test of the chosen setting.

    ``out`` writes ``grid.parquet`` and a manifest (kind ``sweep``, with the confirm summary)."""
    rules = _rules(rules)
    if confirm_matches is not None and confirm_seed is None:
        raise ValueError("confirm_matches needs a confirm_seed (a seed other than the explore seed)")
    if confirm_seed is not None and int(confirm_seed) == int(seed):
        raise ValueError(f"confirm_seed must differ from the explore seed ({seed}): the confirmation must run on "
                         f"fresh deals")
    if out is not None:
        _check_out(Path(out), force)
    points = grid_specs(base_spec, grid)
    base = _spec(baseline)
    fld = base if field is None else _spec(field)
    deals = rules.match_deals if match_deals is None else int(match_deals)
    arms = _Arms(rules, first_match=0, n_matches=n_matches, match_deals=deals, engine=engine, threads=threads)
    rows = []
    for index, (values, spec) in enumerate(points):
        before = arms.n_deals_simulated
        dup, paired, _ = _compare_block(arms, spec, base, fld, seed=seed, baseline_seed=seed, offsets=(0, 0),
                                        level=level)
        r = _result(arms, dup, paired, spec, base, fld, seed=seed, baseline_seed=seed, offsets=(0, 0), level=level,
                    n_deals=arms.n_deals_simulated - before)
        rows.append({"point": index, **{k: float(v) for k, v in values.items()}, "spec": str(spec), "seed": seed,
                     **_summary_row(r)})
    table = frames.holm_table(pl.DataFrame(rows), alpha=alpha)
    best_index = int(np.argmax(table["mean_difference"].to_numpy()))
    table = table.with_columns((pl.col("point") == best_index).alias("best"))
    best = table["spec"][best_index]
    confirm = confirmed = None
    if confirm_seed is not None:
        confirm = compare(rules, best, base, fld, n_matches=confirm_matches or n_matches, match_deals=deals,
                          seed=int(confirm_seed), engine=engine, threads=threads, level=level)
        confirmed = bool(confirm.p_value < alpha and confirm.mean_difference > 0)
    result = SweepResult(table, best, confirm, confirmed)
    if out is not None:
        manifest = {"rules": rules.name, "rules_params": rules.to_params(), "base_spec": str(_spec(base_spec)),
                    "grid": {k: [float(v) for v in vs] for k, vs in grid.items()}, "baseline": str(base),
                    "field": str(fld), "seed": int(seed), "n_matches": n_matches, "match_deals": deals,
                    "engine": engine, "alpha": alpha, "level": level, "best": best,
                    "confirm": None if confirm is None else confirm.summary(), "confirmed": confirmed}
        _write_folder(Path(out), "sweep", {"grid.parquet": result.table()}, manifest, force=force)
    return result
