"""The claims of ``tournament`` and ``sweep`` after Holm, judged against truth runs
(``scripts/interval_coverage.py claims``).

A claim is a pair (or grid point) whose Holm-adjusted p-value is at most alpha, in the direction of its mean
difference. It is wrong when the truth run's difference has the other sign. Holm promises that the chance of at
least one wrong claim in a family (the family-wise error rate) is at most alpha; this harness counts the families,
each a tournament or sweep on a seed of its own, with a wrong claim.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

import cov_common  # noqa: F401  (the repository on the path)
import numpy as np
from scipy import stats as st

from reversis_sim.analysis.multiple import holm_reject
from reversis_sim.compare import sweep, tournament

TOURNAMENT = ("avoid", "tuned", "saver", "avoid:take=4.25")
"""The policies of the tournament: two that differ a lot, one a little, one hardly at all (take 4.25 against 4)."""
SWEEP = ("avoid", {"take": [3.5, 4.25, 4.5, 5.0]}, "avoid")
"""base, grid and baseline of the sweep: points around the default take=4, some hardly different from it."""


def _raw_holm(rows: list[dict], n_matches: int, alpha: float = 0.05) -> list[dict]:
    """Each row's Holm rejection from its t test (``mean_difference / se``, ``n_matches - 1`` degrees of freedom),
    whatever the toolkit prints: the claims a t test would make at this size."""
    t = np.array([r["mean_difference"] / r["se"] if r["se"] > 0 else 0.0 for r in rows])
    p = 2.0 * st.t.sf(np.abs(t), n_matches - 1)
    for r, reject in zip(rows, holm_reject(p, alpha)):
        r["reject"] = bool(reject)
    return rows


def _tournament(n_matches: int, seed: int) -> list[dict]:
    r = tournament("parlett", list(TOURNAMENT), n_matches=n_matches, seed=seed)
    rows = [{"key": f"{d['policy_a']} vs {d['policy_b']}", "mean_difference": d["mean_difference"], "se": d["se"],
             "claimed": d["winner"] is not None} for d in r.pairwise.to_dicts()]
    return _raw_holm(rows, n_matches)


def _sweep(n_matches: int, seed: int) -> list[dict]:
    base, grid, baseline = SWEEP
    r = sweep("parlett", base, grid, baseline, n_matches=n_matches, seed=seed)
    rows = [{"key": d["spec"], "mean_difference": d["mean_difference"], "se": d["se"], "claimed": bool(d["reject"])}
            for d in r.grid.to_dicts()]
    return _raw_holm(rows, n_matches)


KINDS = {"tournament": _tournament, "sweep": _sweep}


def families(cache: Path, kind: str, n_matches: int, seeds: list[int], log=print) -> list[list[dict]]:
    """The claims of one tournament or sweep per seed (cached as JSON under ``cache``)."""
    cache = Path(cache)
    cache.mkdir(parents=True, exist_ok=True)
    out = []
    started = time.perf_counter()
    for seed in seeds:
        path = cache / f"claims_{kind}_{n_matches}m_seed{seed}.json"
        if not path.exists():
            rows = KINDS[kind](n_matches, seed)
            path.write_text(json.dumps(rows))
        out.append(json.loads(path.read_text()))
    log(f"  {kind}: {len(seeds)} families of {n_matches} matches in {time.perf_counter() - started:.0f}s")
    return out


def judge_claims(truth: list[dict], fams: list[list[dict]], alpha: float = 0.05, printed: bool = True) -> dict:
    """Family-wise error of the claims against the truth's signs: ``printed`` counts only the claims the toolkit
    prints (``claimed``; below the size of a reliable interval it prints none), else every Holm rejection."""
    sign = {r["key"]: np.sign(r["mean_difference"]) for r in truth}
    wrong_families = claims = wrong = 0
    for fam in fams:
        bad = 0
        for r in fam:
            made = r["claimed"] if printed else r["reject"]
            if made:
                claims += 1
                if np.sign(r["mean_difference"]) != sign[r["key"]]:
                    bad += 1
        wrong += bad
        wrong_families += bad > 0
    K = len(fams)
    high = st.binom.ppf(0.975, K, alpha)
    return {"families": K, "claims": claims, "claims_per_family": claims / K, "wrong_claims": wrong,
            "families_with_a_wrong_claim": wrong_families, "fwer": wrong_families / K, "fwer_band_high": high / K,
            "holds": bool(wrong_families <= high)}
