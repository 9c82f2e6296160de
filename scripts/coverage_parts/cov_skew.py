"""The ``skew`` part of ``scripts/interval_coverage.py``: skewness-corrected intervals of the pool-path estimator
against its plain t interval, on the same blocks, for the two tables whose floors stay at 100,000 matches (the
Quinola's cost by fate and overall, ``pool_path_cost``; fish by payment reason, ``pool_path_reason``).

Every interval here is built on the estimator's per-match influence ``ψ_g`` (:mod:`reversis_sim.analysis.pool_path`:
the pool's rows through its expected size, every other reason's row its plain per-match total minus the mean times
its size), in units of a match's mean size: ``x_g = ψ_g / n̄``, whose mean is 0, standard deviation ``s`` and
skewness ``γ = mean(x³) / s³``; ``se = s / √G`` over ``G`` matches, ``q`` the t quantile with ``G - 1`` degrees of
freedom. The candidates:

- ``t``: ``θ ± q · se``, what the toolkit prints (it reproduces ``path``'s pool-path rows on the same blocks);
- ``johnson_shift``: Johnson's (1978) correction of the centre alone, ``θ + γ se / (6 √G) ± q · se``;
- ``johnson``: Johnson's modified t with its quadratic term, ``d + γ / (6 √G) + γ d² / (3 √G) = ±q``,
  ``d = (θ - μ) / se``, solved for ``μ``;
- ``hall``: Hall's (1992) monotone cubic transformation, ``g(d) = d + a d² + a² d³ / 3 + γ / (6 √G)``,
  ``a = γ / (3 √G)``, the interval ``[θ - se · g⁻¹(q), θ - se · g⁻¹(-q)]``;
- ``boot_t``: the studentized bootstrap over the block's matches (``BOOT`` Poisson-weighted resamples of the
  ``x_g``), ``[θ - se · t*₀.₉₇₅, θ - se · t*₀.₀₂₅]``.

Truths and blocks as in ``path`` (the truth of a row its pool-path estimate, or its plain mean for a reason the pool
does not move, on the 1,000,000 matches of seed 1001; blocks cut from 1,000,000-match runs in parts of 1,000;
a row judged where 1,000 of a block's matches hold it); the runs are read once and every size cut from them.
"""

from __future__ import annotations

import time
from pathlib import Path

import cov_runs as runs  # noqa: E402
import numpy as np
from cov_common import BLOCK_SEED, TRUTH_SEED, judge, line  # noqa: E402
from scipy import stats as st

from reversis_sim.analysis.pool_path import N_OUTCOMES, ROW_MATCHES, expected_pools  # noqa: E402
from reversis_sim.analysis.scan_part import read_columns  # noqa: E402
from reversis_sim.analysis.scan_pool import POOL_REASONS, path_terms  # noqa: E402
from reversis_sim.game.vocabulary import FATES, REASONS  # noqa: E402
from reversis_sim.record import completed_chunks, part_path, payments_path, read_manifest  # noqa: E402

SEATINGS = {"avoid": 1_000_000, "random|avoid|tuned|saver": 1_000_000}
BLOCK_SEEDS, BLOCK_MATCHES, CHUNK = (BLOCK_SEED, BLOCK_SEED + 1), 1_000_000, 1_000
SIZES = (1_000, 2_000, 10_000, 100_000)
METHODS = ("t", "johnson_shift", "johnson", "hall", "boot_t")
BOOT = 499
"""Bootstrap resamples a block (each block's generator seeded by its number of matches)."""


def run_terms(out: Path) -> dict:
    """Per match of a run: the pool-path terms of the Quinola's cost (overall, by fate) and of the pool's reasons by
    policy (``light``, ``sizes``, ``events``, ``outcomes``), and every reason's plain total by policy (``plain``)."""
    manifest = read_manifest(out)
    seats, policies, lay = runs.layout_of(manifest)
    lay = type(lay)(*[getattr(lay, f) for f in lay.__dataclass_fields__][:-1], True)
    policy_of = np.zeros((lay.n_seats, lay.n_policies))
    policy_of[np.arange(lay.n_seats), lay.seat_policy] = 1.0
    acc = {k: [] for k in ("light", "sizes", "events", "outcomes", "plain")}
    dealers = antes = None
    for c in sorted(completed_chunks(manifest)):
        sp, pp = part_path(out, c), payments_path(out, c)
        terms = path_terms(sp, pp, lay)
        if isinstance(terms, str):
            raise ValueError(f"{out}: {terms}")
        dealers, antes = terms["dealers"], terms["antes"]
        picked = [terms["blocks"][b] for b in ("cost_all", "cost_fate", "reasons")]
        acc["light"].append(np.concatenate([b[0] for b in picked], axis=1))
        acc["sizes"].append(np.concatenate([np.broadcast_to(b[1], b[0].shape) for b in picked], axis=1
                                           ).astype(np.int16))
        acc["events"].append(np.concatenate([b[2] for b in picked], axis=1).astype(np.int8))
        acc["outcomes"].append(terms["outcomes"].astype(np.int16))
        U = picked[0][0].shape[0]
        first = read_columns(sp, ("match",))["match"].min()
        p = read_columns(pp, ("match", "seat", "reason", "amount"))
        cell = np.ravel_multi_index(((p["match"] - first).astype(np.int64), p["seat"].astype(np.int64),
                                     p["reason"].astype(np.int64)), (U, lay.n_seats, len(REASONS)))
        totals = np.bincount(cell, weights=p["amount"], minlength=U * lay.n_seats * len(REASONS))
        acc["plain"].append(np.einsum("usg,sk->ukg", totals.reshape(U, lay.n_seats, len(REASONS)), policy_of
                                      ).reshape(U, -1).astype(np.float32))
    (new, carry), = antes
    out_terms = {k: np.concatenate(v) for k, v in acc.items()}
    n_path = out_terms["light"].shape[1]
    names = ["all", *FATES] + [f"{p}/{r}" for p in policies for r in POOL_REASONS]
    names += [f"{p}/{r}" for p in policies for r in REASONS]
    pooled = np.r_[np.zeros(n_path, bool), np.tile([r in POOL_REASONS for r in REASONS], len(policies))]
    table = np.where(np.arange(len(names)) < 1 + len(FATES), "quinola_cost", "fish_by_reason")
    return {**out_terms, "dealers": dealers, "ante": (float(new), float(carry)), "n_path": n_path,
            "plain_sizes": np.repeat(len(dealers) * policy_of.sum(axis=0), len(REASONS)), "names": names,
            "table": np.where(pooled, "", table), "n_reasons": len(REASONS), "n_policies": len(policies)}


def influence(r: dict, a: int, b: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Matches ``a .. b`` of a run's terms: per match and row the influence ``ψ`` (U, R), the sizes ``n`` (U, R) and
    the estimates ``θ`` (R,): the pool's rows through its expected size (``pool_path.adjusted_totals``), the
    other reasons' rows plain."""
    light, events = r["light"][a:b], r["events"][a:b].astype(np.float64)
    outcomes = r["outcomes"][a:b].astype(np.float64)
    U, dealers = light.shape[0], r["dealers"]
    J = outcomes.shape[1] // N_OUTCOMES
    counts = outcomes.sum(axis=0).reshape(J, N_OUTCOMES)
    seen = counts.sum(axis=1)
    chances = np.divide(counts, seen[:, None], out=np.full_like(counts, 1 / N_OUTCOMES), where=seen[:, None] > 0)
    m, grad = expected_pools(chances, dealers, *r["ante"])
    per_dealer = np.bincount(dealers, minlength=J).astype(np.float64)
    beta = np.einsum("gk,kjr->gjr", events.mean(axis=0), grad) / per_dealer[:, None]
    deviation = outcomes.reshape(U, J, N_OUTCOMES) - chances[None] * per_dealer[None, :, None]
    totals = np.concatenate([light + events @ m + np.einsum("gjr,ujr->ug", beta, deviation),
                             r["plain"][a:b].astype(np.float64)], axis=1)
    n = np.concatenate([r["sizes"][a:b].astype(np.float64),
                        np.broadcast_to(r["plain_sizes"][None, :], (U, r["plain_sizes"].size))], axis=1)
    N = n.sum(axis=0)
    theta = np.divide(totals.sum(axis=0), N, out=np.full(N.shape, np.nan), where=N > 0)
    return totals - theta * n, n, theta


def intervals(psi: np.ndarray, n: np.ndarray, theta: np.ndarray, boot: int = BOOT, level: float = 0.95) -> dict:
    """The bounds ``(low, high)`` of every method (module docstring) for every row, its ``se`` and ``skewness``."""
    G = psi.shape[0]
    with np.errstate(all="ignore"):
        x = psi / (n.sum(axis=0) / G)
        s = np.sqrt((x * x).sum(axis=0) / (G - 1))
        se = s / np.sqrt(G)
        gamma = np.nan_to_num((x ** 3).mean(axis=0) / s ** 3)
        q = st.t.ppf(0.5 + level / 2, G - 1)
        a, b = gamma / (3 * np.sqrt(G)), gamma / (6 * np.sqrt(G))
        flat = np.abs(a) < 1e-12
        a_ = np.where(flat, 1.0, a)

        def hall_inverse(v):  # g(d) = ((1 + a d)^3 - 1) / (3 a) + b
            return np.where(flat, v - b, (np.cbrt(1 + 3 * a * (v - b)) - 1) / a_)

        def johnson_inverse(v):  # d + b + a d^2 = v, the root that tends to v - b as a -> 0
            return np.where(flat, v - b, (np.sqrt(np.maximum(1 - 4 * a * (b - v), 0.0)) - 1) / (2 * a_))

        out = {"t": (theta - q * se, theta + q * se),
               "johnson_shift": (theta + b * se - q * se, theta + b * se + q * se),
               "johnson": (theta - se * johnson_inverse(q), theta - se * johnson_inverse(-q)),
               "hall": (theta - se * hall_inverse(q), theta - se * hall_inverse(-q))}
        live = np.isfinite(s) & (s > 0)
        quantiles = np.full((2, x.shape[1]), np.nan)
        if boot and live.any():
            xl = x[:, live]
            w = np.random.default_rng(G).poisson(1.0, size=(boot, G)).astype(np.float64)
            sw = w.sum(axis=1)[:, None]
            mean = (w @ xl) / sw
            var = ((w @ (xl * xl)) / sw - mean ** 2) * sw / (sw - 1)
            quantiles[:, live] = np.nanquantile(mean / np.sqrt(var / sw), [(1 - level) / 2, (1 + level) / 2], axis=0)
        out["boot_t"] = (theta - se * quantiles[1], theta - se * quantiles[0])
    return {"bounds": out, "se": se, "skewness": gamma}


def skew_rows(cache: Path, seatings=SEATINGS, seeds=BLOCK_SEEDS, sizes=SIZES, log=print) -> list[dict]:
    rows = []
    root = Path(cache) / "runs"
    for seating, n_matches in seatings.items():
        started = time.perf_counter()
        truth = run_terms(runs.run_folder(root, seating, TRUTH_SEED, n_matches, 20_000, log))
        psi, n, truth_v = influence(truth, 0, truth["light"].shape[0])
        present_t = np.any(truth["plain"] != 0, axis=0).reshape(-1, truth["n_reasons"]).any(axis=0)
        log(f"  truth {seating}: {time.perf_counter() - started:.0f}s")
        judged_rows = {name: truth["table"] == name for name in ("quinola_cost", "fish_by_reason")}
        got = {n: [] for n in sizes}
        for seed in seeds:
            r = run_terms(runs.run_folder(root, seating, seed, BLOCK_MATCHES, CHUNK, log))
            occupied = r["sizes"] > 0
            for size in sizes:
                for k in range(r["light"].shape[0] // size):
                    a, b = k * size, (k + 1) * size
                    psi, n, theta = influence(r, a, b)
                    iv = intervals(psi, n, theta)
                    present = np.any(r["plain"][a:b] != 0, axis=0).reshape(-1, r["n_reasons"]).any(axis=0)
                    reasons = np.tile(present & present_t, r["n_policies"])
                    holds = np.r_[occupied[a:b].sum(axis=0) >= ROW_MATCHES, reasons]
                    got[size].append((iv, holds & np.isfinite(iv["se"]) & np.isfinite(truth_v), seed))
            log(f"  read {seating} seed {seed}: {time.perf_counter() - started:.0f}s")
        for size in sizes:
            judged = np.array([g[1] for g in got[size]])
            block_seed = np.array([g[2] for g in got[size]])
            skew = np.array([g[0]["skewness"] for g in got[size]])
            for table, in_table in judged_rows.items():
                for method in METHODS:
                    low = np.array([g[0]["bounds"][method][0] for g in got[size]])
                    high = np.array([g[0]["bounds"][method][1] for g in got[size]])
                    pick = judged & in_table[None, :]
                    r = judge(low, high, truth_v[None, :], pick)
                    per_seed = {int(s): judge(low[block_seed == s], high[block_seed == s], truth_v[None, :],
                                              pick[block_seed == s]) for s in seeds}
                    failing = [f"{truth['names'][j]}: {p['verdict']} ({p['above']}+{p['below']} of {p['K']})"
                               for j in np.flatnonzero(in_table)
                               for p in [judge(low[:, j], high[:, j], truth_v[j], pick[:, j])]
                               if p["K"] and not p["holds"]]
                    rows.append({"part": "skew", "seating": seating, "size": size, "table": table,
                                 "method": method, **r, "per_seed": per_seed, "failing_rows": failing,
                                 "median_skewness": {truth["names"][j]: float(np.median(skew[pick[:, j], j]))
                                                     for j in np.flatnonzero(in_table) if pick[:, j].any()}})
                    log(line(f"  {seating[:14]} n={size} {table} {method}", r) + " | " + "; ".join(
                        f"{s}: {p['coverage']:.3f} ({p['above']}/{p['below']})" for s, p in per_seed.items()
                        if p["K"]))
    return rows
