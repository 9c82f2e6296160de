"""Statistics layer: intervals that cover, paired comparisons, the sequential test, Holm, and the frame wrappers.

Every tolerance is derived: Monte-Carlo checks use binomial bands (99%, two-sided) or multiples of a standard
error; exact identities use floating-point tolerances only.
"""

from __future__ import annotations

import warnings

import numpy as np
import polars as pl
import pytest
from scipy import stats as st

from reversis_sim.analysis import intervals, multiple, sequential, stats, tables


def binomial_band(n: int, p: float, level: float = 0.99) -> tuple[float, float]:
    """Two-sided ``level`` band for a count ~ Binomial(n, p)."""
    low, high = st.binom.interval(level, n, p)
    return low, high


@pytest.fixture
def no_warnings():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        yield


# ---------------------------------------------------------------------------------------------------------------
# mean_ci


def test_the_quantiles_from_scipy_special_are_scipy_stats_bit_for_bit():
    """analysis/numeric.py takes its distributions from ``scipy.special`` (a fifth of ``scipy.stats``'s import
    time): the same numbers, edges included (df below 1, infinite, NaN; the tails), on the quantiles' domain
    0 < q <= 1 (the toolkit asks for ``0.5 + level / 2``)."""
    from reversis_sim.analysis import numeric

    df = np.array([0.5, 1, 2, 3.5, 10, 999, 1e6, np.inf, 0, -1, np.nan])
    for q in (1e-12, 0.005, 0.5, 0.975, 0.9995, 1.0):
        np.testing.assert_array_equal(numeric.t_ppf(q, df), st.t.ppf(q, df))
        assert numeric.norm_ppf(q) == st.norm.ppf(q)
    x = np.array([0.0, 0.3, 1.5, 3.0, 40.0, np.inf])
    for d in (1, 5, 1000, np.inf):
        np.testing.assert_array_equal(numeric.t_sf(x, d), st.t.sf(x, d))
    a, b = np.array([1.0, 2, 5, 0.5, 40]), np.array([1.0, 3, 0.7, 9, 1])
    for q in (0.0, 0.025, 0.5, 0.975, 1.0):
        np.testing.assert_array_equal(numeric.beta_ppf(q, a, b), st.beta.ppf(q, a, b))


def test_mean_ci_iid_matches_textbook_t_interval():
    x = np.random.default_rng(3).normal(2.0, 5.0, size=37)
    r = stats.mean_ci(x, level=0.9)
    low, high = st.t.interval(0.9, len(x) - 1, loc=x.mean(), scale=st.sem(x))
    assert r.mean == pytest.approx(x.mean(), rel=1e-12)
    assert r.se == pytest.approx(st.sem(x), rel=1e-12)
    assert (r.ci_low, r.ci_high) == pytest.approx((low, high), rel=1e-12)
    assert (r.n_units, r.n_obs, r.df) == (37, 37, 36)


def test_cluster_se_equals_se_of_cluster_means_for_equal_sizes():
    rng = np.random.default_rng(4)
    n_matches, deals = 25, 12
    x = np.repeat(rng.normal(size=n_matches), deals) + rng.standard_t(3, size=n_matches * deals)
    match = np.repeat(rng.permutation(n_matches) * 7 + 100, deals)  # arbitrary, non-contiguous labels
    r = stats.mean_ci(x, clusters=match)
    means = x.reshape(n_matches, deals).mean(axis=1)
    assert r.mean == pytest.approx(x.mean(), rel=1e-12)
    assert r.se == pytest.approx(means.std(ddof=1) / np.sqrt(n_matches), rel=1e-10)
    assert (r.n_units, r.n_obs, r.df) == (n_matches, n_matches * deals, n_matches - 1)


def test_mean_ci_coverage_iid_normal():
    rng = np.random.default_rng(11)
    reps, n, mu = 400, 30, 1.5
    hits = sum(_covers(stats.mean_ci(rng.normal(mu, 3.0, size=n)), mu) for _ in range(reps))
    low, high = binomial_band(reps, 0.95)
    assert low <= hits <= high, hits


def _covers(r: stats.MeanCI, truth: float) -> bool:
    return r.ci_low <= truth <= r.ci_high


def test_mean_ci_coverage_clustered_unequal_sizes():
    # Matches of unequal length with a shared match effect (a carried-over pool): the ratio estimator's
    # linearised SE with G - 1 degrees of freedom should cover the true per-deal mean about 95% of the time.
    rng = np.random.default_rng(12)
    reps, n_matches, mu = 400, 40, -0.7
    hits = 0
    for _ in range(reps):
        sizes = rng.integers(6, 19, size=n_matches)
        effect = rng.normal(0.0, 1.0, size=n_matches)
        labels = np.repeat(np.arange(n_matches), sizes)
        x = mu + effect[labels] + rng.normal(0.0, 2.0, size=labels.size)
        hits += _covers(stats.mean_ci(x, clusters=labels), mu)
    low, high = binomial_band(reps, 0.95)
    assert low <= hits <= high, hits


@pytest.mark.parametrize("icc", [0.0, 0.5])
def test_cluster_se_tracks_the_design_effect(icc):
    # Under intra-match correlation icc, var(cluster SE) / var(naive SE) -> 1 + (m - 1) * icc (the design
    # effect). Each squared SE is a variance estimate from G (resp. G*m) units, relative SE about
    # sqrt(2 / (G - 1)); we allow 4 of them.
    rng = np.random.default_rng(5)
    n_matches, m = 400, 12
    x = (np.repeat(rng.normal(0.0, np.sqrt(icc), size=n_matches), m)
         + rng.normal(0.0, np.sqrt(1.0 - icc), size=n_matches * m))
    labels = np.repeat(np.arange(n_matches), m)
    naive, robust = stats.mean_ci(x), stats.mean_ci(x, clusters=labels)
    deff = 1.0 + (m - 1) * icc
    ratio = robust.se**2 / naive.se**2
    assert abs(ratio / deff - 1.0) < 4 * np.sqrt(2.0 / (n_matches - 1))
    if icc > 0:
        assert robust.se > naive.se


def test_mean_ci_degenerate_inputs(no_warnings):
    one = stats.mean_ci([3.0])
    assert one.mean == 3.0 and np.isnan(one.se) and np.isnan(one.ci_low)
    const = stats.mean_ci(np.full(10, 2.5), clusters=np.repeat([0, 1], 5))
    assert (const.se, const.ci_low, const.ci_high) == (0.0, 2.5, 2.5)
    with pytest.raises(ValueError, match="no data"):
        stats.mean_ci([])
    with pytest.raises(ValueError, match="NaN"):
        stats.mean_ci([1.0, np.nan])
    with pytest.raises(ValueError, match="one label per observation"):
        stats.mean_ci([1.0, 2.0], clusters=[0])
    with pytest.raises(ValueError, match="level"):
        stats.mean_ci([1.0, 2.0], level=95)


# ---------------------------------------------------------------------------------------------------------------
# binomial intervals

CASES = [(0, 1), (1, 1), (0, 10), (1, 10), (3, 10), (10, 10), (15, 148), (81, 263), (500, 1000), (2, 5000)]


@pytest.mark.parametrize("level", [0.9, 0.95, 0.99])
def test_binomial_intervals_match_scipy_binomtest(level):
    k = np.array([c[0] for c in CASES])
    n = np.array([c[1] for c in CASES])
    w_low, w_high = stats.wilson_interval(k, n, level)
    cp_low, cp_high = stats.clopper_pearson_interval(k, n, level)
    for i, (ki, ni) in enumerate(CASES):
        res = st.binomtest(ki, ni)
        w = res.proportion_ci(confidence_level=level, method="wilson")
        cp = res.proportion_ci(confidence_level=level, method="exact")
        assert (w_low[i], w_high[i]) == pytest.approx((w.low, w.high), rel=1e-9, abs=1e-12), (ki, ni)
        assert (cp_low[i], cp_high[i]) == pytest.approx((cp.low, cp.high), rel=1e-9, abs=1e-12), (ki, ni)


def test_binomial_interval_closed_forms_at_the_edges():
    n = np.array([1, 7, 10, 250])
    a = 0.05
    z2 = st.norm.ppf(1 - a / 2) ** 2
    w_low, w_high = stats.wilson_interval(0, n, 1 - a)
    assert np.all(w_low == 0.0)
    np.testing.assert_allclose(w_high, z2 / (n + z2), rtol=1e-12)
    assert stats.wilson_interval(0, 10)[1] == pytest.approx(0.2775, abs=5e-5)  # the textbook 0/10 value
    w_low, w_high = stats.wilson_interval(n, n, 1 - a)
    assert np.all(w_high == 1.0)
    np.testing.assert_allclose(w_low, n / (n + z2), rtol=1e-12)
    cp_low, cp_high = stats.clopper_pearson_interval(0, n, 1 - a)
    assert np.all(cp_low == 0.0)
    np.testing.assert_allclose(cp_high, 1 - (a / 2) ** (1 / n), rtol=1e-10)
    cp_low, cp_high = stats.clopper_pearson_interval(n, n, 1 - a)
    assert np.all(cp_high == 1.0)
    np.testing.assert_allclose(cp_low, (a / 2) ** (1 / n), rtol=1e-10)


def test_clopper_pearson_coverage_is_at_least_nominal_exactly():
    # Exact coverage (no simulation): sum of Binomial(n, p) probabilities of the k whose interval holds p.
    n, level = 20, 0.95
    k = np.arange(n + 1)
    low, high = stats.clopper_pearson_interval(k, n, level)
    for p in np.linspace(0.005, 0.995, 199):
        covered = (low <= p) & (p <= high)
        assert st.binom.pmf(k, n, p)[covered].sum() >= level - 1e-12, p


def test_binomial_intervals_vectorise_and_validate(no_warnings):
    k = np.array([[0], [2], [5]])
    n = np.array([5, 10, 20, 40])
    for fn in (stats.wilson_interval, stats.clopper_pearson_interval):
        low, high = fn(k, n)
        assert low.shape == high.shape == (3, 4)
        assert np.all((0 <= low) & (low <= k / n) & (k / n <= high) & (high <= 1))
        empty_low, empty_high = fn([0, 1], [0, 2])
        assert np.isnan(empty_low[0]) and np.isnan(empty_high[0]) and np.isfinite(empty_low[1])
        for bad_k, bad_n in [(3, 2), (-1, 4), (1.5, 4)]:
            with pytest.raises(ValueError):
                fn(bad_k, bad_n)


# ---------------------------------------------------------------------------------------------------------------
# paired comparison


def heavy_fish(rng: np.random.Generator, size) -> np.ndarray:
    """Fish-like payoffs: mostly small, symmetric, with rare large payments (Pareto tail, index 2.5)."""
    return np.round(rng.pareto(2.5, size=size) - rng.pareto(2.5, size=size)) * 4


def test_identical_arms_give_exactly_zero(no_warnings):
    a = heavy_fish(np.random.default_rng(21), 200)
    r = stats.paired_comparison(a=a, b=a.copy())
    assert r.mean_difference == 0.0 and r.se == 0.0 and (r.ci_low, r.ci_high) == (0.0, 0.0)
    assert r.p_value == 1.0 and r.effect == 0.0 and r.t_statistic == 0.0
    assert r.variance_reduction == np.inf
    assert stats.paired_comparison(np.zeros(50)).p_value == 1.0


def test_constant_shift_is_certain(no_warnings):
    b = np.arange(20.0)
    r = stats.paired_comparison(a=b + 1.0, b=b)
    assert r.mean_difference == 1.0 and r.p_value == 0.0 and r.effect == np.inf
    const = stats.paired_comparison(a=np.ones(5), b=np.zeros(5))
    assert np.isnan(const.variance_reduction)  # both arms constant: nothing to reduce


def test_paired_comparison_matches_scipy_t_test():
    rng = np.random.default_rng(22)
    common = rng.normal(0.0, 3.0, size=60)
    a = common + rng.normal(0.3, 1.0, size=60)
    b = common + rng.normal(0.0, 1.0, size=60)
    r = stats.paired_comparison(a=a, b=b, level=0.9)
    ref = st.ttest_rel(a, b)
    ci = ref.confidence_interval(0.9)
    assert r.p_value == pytest.approx(ref.pvalue, rel=1e-10)
    assert r.t_statistic == pytest.approx(ref.statistic, rel=1e-10)
    assert (r.ci_low, r.ci_high) == pytest.approx((ci.low, ci.high), rel=1e-10)
    assert r.effect == pytest.approx((a - b).mean() / (a - b).std(ddof=1), rel=1e-12)
    assert r.n_units == 60 and r.df == 59
    assert stats.paired_comparison(a - b).p_value == pytest.approx(r.p_value, rel=1e-12)
    with pytest.raises(ValueError, match="a - b"):
        stats.paired_comparison(a - b + 1.0, a=a, b=b)
    with pytest.raises(ValueError, match="both a and b"):
        stats.paired_comparison(a=a)


def test_variance_reduction_from_a_shared_component():
    # a = c + e_a, b = c + e_b with var(c) = 9, var(e) = 1: (var a + var b) / var(a - b) = 20 / 2 = 10.
    # Numerator and denominator are variance estimates, each with relative SE <= sqrt(2 / (n - 1)), so the log
    # ratio has SE <= 2 * sqrt(2 / (n - 1)); we allow 4 of them.
    rng = np.random.default_rng(23)
    n = 400
    common = rng.normal(0.0, 3.0, size=n)
    r = stats.paired_comparison(a=common + rng.normal(size=n), b=common + rng.normal(size=n))
    assert r.variance_reduction > 1.0
    assert abs(np.log(r.variance_reduction / 10.0)) < 4 * 2 * np.sqrt(2.0 / (n - 1))
    independent = stats.paired_comparison(a=rng.normal(size=n), b=rng.normal(size=n))
    assert abs(np.log(independent.variance_reduction)) < 4 * 2 * np.sqrt(2.0 / (n - 1))


# ---------------------------------------------------------------------------------------------------------------
# GSPRT


def match_diffs(rng: np.random.Generator, n_matches: int, shift: float, kind: str) -> np.ndarray:
    """Per-match mean differences of 12 deals: normal, or heavy-tailed fish-like payoffs."""
    if kind == "normal":
        return rng.normal(shift, 1.0, size=n_matches)
    return heavy_fish(rng, (n_matches, 12)).mean(axis=1) + shift


@pytest.mark.statistical
@pytest.mark.parametrize("kind", ["normal", "heavy"])
def test_gsprt_error_rates(kind):
    # Each run draws up to 3000 matches (far beyond the expected ~130 needed). Under H0 (A/A: true mean 0) the
    # test must accept H0 far more often than not and accept H1 at a rate consistent with alpha; under H1
    # (true mean delta) it must reject at a rate consistent with 1 - beta. Wald's bounds give error rates of
    # about alpha / (1 - beta); the band is the binomial 99% band around alpha (resp. beta).
    runs, alpha, beta = 400, 0.05, 0.05
    rng = np.random.default_rng(31 if kind == "normal" else 32)
    sd = 1.0 if kind == "normal" else match_diffs(np.random.default_rng(0), 200_000, 0.0, kind).std()
    delta = 0.2 * sd
    counts = {shift: {"accept_h0": 0, "accept_h1": 0, "continue": 0} for shift in (0.0, delta)}
    for shift, tally in counts.items():
        for _ in range(runs):
            # Wald's own bounds and a short warm-up (the defaults are for the skewed differences of real players)
            tally[sequential.gsprt(match_diffs(rng, 3000, shift, kind), delta, alpha, beta,
                                   min_units=30, margin=1.0).decision] += 1
    low, high = binomial_band(runs, alpha)
    aa, ab = counts[0.0], counts[delta]
    assert aa["continue"] == 0 and ab["continue"] == 0
    assert aa["accept_h0"] > 10 * aa["accept_h1"], aa
    assert low <= aa["accept_h1"] <= high, aa
    low, high = binomial_band(runs, beta)
    assert low <= ab["accept_h0"] <= high, ab


def test_gsprt_llr_formula_and_bounds():
    lower, upper = sequential.gsprt_bounds(0.05, 0.1)
    assert (lower, upper) == pytest.approx((np.log(0.1 / 0.95), np.log(0.9 / 0.05)), rel=1e-15)
    d = np.random.default_rng(33).normal(0.1, 2.0, size=80)
    res = sequential.gsprt(d, 0.25, 0.05, 0.1, var=4.0, min_units=1)
    n = np.arange(1, 81)
    expected = n * 0.25 * (2 * np.cumsum(d) / n - 0.25) / (2 * 4.0)
    stop = res.n_stop
    np.testing.assert_allclose(res.llr[:stop], expected[:stop], rtol=1e-10, atol=1e-12)
    assert (res.lower, res.upper) == pytest.approx(sequential.gsprt_bounds(0.05 * sequential.MARGIN,
                                                                            0.1 * sequential.MARGIN))
    wald = sequential.gsprt(d, 0.25, 0.05, 0.1, var=4.0, min_units=1, margin=1.0)
    assert (wald.lower, wald.upper) == (lower, upper)
    with pytest.raises(ValueError, match="margin"):
        sequential.gsprt(d, 0.25, margin=1.5)
    assert sequential.GSPRT(0.25).min_units == sequential.MIN_UNITS
    est = sequential.gsprt(d, 0.25, min_units=40)
    assert np.all(est.llr[:39] == 0.0)
    assert est.llr[49] == pytest.approx(50 * 0.25 * (2 * d[:50].mean() - 0.25) / (2 * d[:50].var(ddof=1)),
                                        rel=1e-10)


def test_gsprt_all_zero_differences_accept_h0(no_warnings):
    res = sequential.gsprt(np.zeros(100), 0.5, min_units=30)
    assert res.decision == "accept_h0" and res.n_stop == 30 and res.llr[29] == -np.inf
    state = sequential.GSPRT(0.5, min_units=30).update(np.zeros(100))
    assert state.decision == "accept_h0" and state.n == 100
    with pytest.raises(ValueError, match="delta"):
        sequential.gsprt([1.0, 2.0], 0.0)


def test_incremental_gsprt_agrees_with_one_shot():
    rng = np.random.default_rng(34)
    for trial in range(20):
        d = rng.normal(0.1, 1.0, size=1500)
        whole = sequential.gsprt(d, 0.2, min_units=30)
        one_by_one = sequential.GSPRT(0.2, min_units=30)
        for x in d:
            state = one_by_one.update([x])
            if state.decision != "continue":
                break
        assert (state.decision, state.n) == (whole.decision, whole.n_stop)
        assert state.llr == pytest.approx(whole.llr[whole.n_stop - 1], rel=1e-9)
        # batches: the bounds are checked at batch ends only
        test = sequential.GSPRT(0.2, min_units=30)
        edges = np.cumsum(rng.integers(1, 40, size=200))
        edges = edges[edges < d.size]
        decided_at = None
        for start, end in zip(np.r_[0, edges[:-1]], edges):
            state = test.update(d[start:end])
            assert state.n == end
            assert state.llr == pytest.approx(whole.llr[end - 1], rel=1e-9, abs=1e-12)
            if decided_at is None and state.decision != "continue":
                decided_at = end
        first = [e for e in edges if whole.llr[e - 1] >= whole.upper or whole.llr[e - 1] <= whole.lower]
        assert decided_at == (first[0] if first else None), trial
        if decided_at is not None:  # the decision is final
            llr = whole.llr[decided_at - 1]
            assert test.state.decision == ("accept_h1" if llr >= whole.upper else "accept_h0")


# ---------------------------------------------------------------------------------------------------------------
# Holm


def test_holm_hand_worked_example():
    # sorted: 0.005 (x4 = 0.02), 0.01 (x3 = 0.03), 0.03 (x2 = 0.06), 0.04 (x1 = 0.04 -> 0.06 by monotonicity)
    p = np.array([0.01, 0.04, 0.03, 0.005])
    np.testing.assert_allclose(multiple.holm(p), [0.03, 0.06, 0.06, 0.02], rtol=1e-12)
    assert multiple.holm_reject(p, 0.05).tolist() == [True, False, False, True]
    np.testing.assert_allclose(multiple.holm([0.5, 0.6, 0.001]), [1.0, 1.0, 0.003], rtol=1e-12)  # capped at 1
    assert multiple.holm(np.array([[0.01, 0.02]])).shape == (1, 2)
    assert multiple.holm([]).size == 0
    with pytest.raises(ValueError):
        multiple.holm([0.1, np.nan])


# ---------------------------------------------------------------------------------------------------------------
# frame wrappers


def deal_frame(seed: int = 41, n_matches: int = 60, deals: int = 12) -> pl.DataFrame:
    rng = np.random.default_rng(seed)
    n = n_matches * deals
    common = heavy_fish(rng, n).astype(np.float64)
    return pl.DataFrame({
        "run_seed": np.full(n, 7),
        "match": np.repeat(np.arange(n_matches), deals),
        "seat": np.tile(np.arange(4), n // 4),
        "fish_a": common + rng.normal(0.5, 2.0, size=n),
        "fish_b": common + rng.normal(0.0, 2.0, size=n),
        "committed": rng.random(n) < 0.3,
    }).with_columns((pl.col("committed") & (pl.Series(rng.random(n)) < 0.4)).alias("made"))


def test_paired_summary_is_paired_comparison_on_match_means():
    frame = deal_frame()
    out = tables.paired_summary(frame, unit=["run_seed", "match"])
    means = frame.group_by("match").agg(pl.col("fish_a").mean(), pl.col("fish_b").mean()).sort("match")
    ref = stats.paired_comparison(a=means["fish_a"].to_numpy(), b=means["fish_b"].to_numpy())
    assert out.height == 1
    row = out.row(0, named=True)
    for key in ("mean_difference", "se", "effect", "variance_reduction"):
        assert row[key] == pytest.approx(getattr(ref, key), rel=1e-10), key
    # 60 matches are too few for a reliable interval of a difference: no bounds, no p-value, the matches needed
    assert ref.n_needed == row["n_needed"] == intervals.MIN_MATCHES["difference"]
    assert np.isnan(row["ci_low"]) and np.isnan(row["ci_high"]) and np.isnan(row["p_value"])
    assert (row["n_units"], row["n_deals"]) == (60, 720)
    many = deal_frame(n_matches=intervals.MIN_MATCHES["difference"], deals=2)
    row = tables.paired_summary(many).row(0, named=True)
    means = many.group_by("match").agg(pl.col("fish_a").mean(), pl.col("fish_b").mean()).sort("match")
    ref = stats.paired_comparison(a=means["fish_a"].to_numpy(), b=means["fish_b"].to_numpy())
    assert row["n_needed"] == ref.n_needed == 0
    for key in ("mean_difference", "ci_low", "ci_high", "p_value"):
        assert row[key] == pytest.approx(getattr(ref, key), rel=1e-10), key
    by_seat = tables.paired_summary(frame, by="seat")
    assert by_seat["seat"].to_list() == [0, 1, 2, 3] and by_seat["n_deals"].to_list() == [180] * 4
    same = tables.paired_summary(many.with_columns(pl.col("fish_a").alias("fish_b")))
    assert same["mean_difference"][0] == 0.0 and same["p_value"][0] == 1.0


def test_mean_table_uses_the_match_as_unit():
    frame = deal_frame()
    out = tables.mean_table(frame, "seat", "fish_a")
    assert out.columns == ["seat", "mean", "se", "ci_low", "ci_high", "n_units", "n_deals", "n_needed"]
    for row in out.iter_rows(named=True):
        part = frame.filter(pl.col("seat") == row["seat"])
        ref = stats.mean_ci(part["fish_a"].to_numpy(), clusters=part["match"].to_numpy())
        assert (row["mean"], row["se"]) == pytest.approx((ref.mean, ref.se), rel=1e-10)
        # too few matches for a reliable interval of a mean of this kind (not a seat's: the strictest floor)
        assert np.isnan(row["ci_low"]) and np.isnan(row["ci_high"])
        assert row["n_needed"] == ref.n_needed == intervals.MIN_MATCHES["pool"]
        assert (row["n_units"], row["n_deals"]) == (60, 180)
    # a seat's fish and the pool-share view have floors of their own; from them on the bounds are the t interval's
    assert tables.kind_of("fish", ["seat"]) == "seat" and tables.kind_of("fish", ["policy"]) == "pool"
    many = deal_frame(n_matches=intervals.MIN_MATCHES["pool_share"], deals=4)
    zero_sum = tables.mean_table(many.rename({"fish_a": "fish_zero_sum"}), "seat", "fish_zero_sum")
    for row in zero_sum.iter_rows(named=True):
        part = many.filter(pl.col("seat") == row["seat"])
        ref = stats.mean_ci(part["fish_a"].to_numpy(), clusters=part["match"].to_numpy(), kind="pool_share")
        assert row["n_needed"] == 0 and (row["ci_low"], row["ci_high"]) == pytest.approx((ref.ci_low, ref.ci_high))
    flat = tables.mean_table(frame, None, "fish_a", unit=None).row(0, named=True)
    ref = stats.mean_ci(frame["fish_a"].to_numpy())
    assert (flat["se"], flat["n_units"]) == (pytest.approx(ref.se, rel=1e-10), 720)


def test_rate_table_counts_and_intervals():
    frame = deal_frame()
    out = tables.rate_table(frame, "seat", "made", "committed")
    counts = frame.group_by("seat").agg(pl.col("made").sum(), pl.col("committed").sum()).sort("seat")
    assert out["successes"].to_list() == counts["made"].to_list()
    assert out["trials"].to_list() == counts["committed"].to_list()
    # the default is Clopper-Pearson (Wilson misses its band for rare events in small runs, docs/statistics.md §9)
    low, high = stats.clopper_pearson_interval(counts["made"].to_numpy(), counts["committed"].to_numpy())
    np.testing.assert_allclose(out["ci_low"].to_numpy(), low, rtol=1e-12)
    np.testing.assert_allclose(out["ci_high"].to_numpy(), high, rtol=1e-12)
    wilson = tables.rate_table(frame, "seat", "made", "committed", method="wilson")
    low, high = stats.wilson_interval(counts["made"].to_numpy(), counts["committed"].to_numpy())
    np.testing.assert_allclose(wilson["ci_low"].to_numpy(), low, rtol=1e-12)
    overall = tables.rate_table(frame, None, "committed", method="wilson").row(0, named=True)
    assert overall["trials"] == 720 and overall["rate"] == pytest.approx(frame["committed"].mean())
    with pytest.raises(ValueError, match="unknown method"):
        tables.rate_table(frame, None, "made", method="wald")
    with pytest.raises(ValueError, match="not in the frame"):
        tables.rate_table(frame, "seat", "nope")


def test_holm_table_adds_adjusted_p_and_decisions():
    comparisons = pl.DataFrame({"candidate": ["a", "b", "c", "d"], "p_value": [0.01, 0.04, 0.03, 0.005]})
    out = tables.holm_table(comparisons)
    assert out["p_holm"].to_list() == pytest.approx([0.03, 0.06, 0.06, 0.02], rel=1e-12)
    assert out["reject"].to_list() == [True, False, False, True]


def test_holm_table_leaves_a_refused_test_out_of_the_family():
    frame = pl.DataFrame({"p_value": [0.01, float("nan"), 0.04]})
    out = tables.holm_table(frame)
    assert out["p_holm"].to_list()[0] == pytest.approx(0.02) and out["p_holm"].to_list()[2] == pytest.approx(0.04)
    assert np.isnan(out["p_holm"][1]) and out["reject"].to_list() == [True, False, True]
