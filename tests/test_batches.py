"""Analysis in batches of part files (flat memory): every table computed batch by batch equals the same
table computed over the whole run at once."""

import numpy as np
import polars as pl
import pytest
from polars.testing import assert_frame_equal

from reversis_sim.analysis import fish_by, load_run, quinola_risk, reversis_rates, stats, summarize_run
from reversis_sim.analysis.batches import Batches
from reversis_sim.analysis.figures_data import convergence, fish_distribution
from reversis_sim.analysis.headline import with_pool_share
from reversis_sim.record import RunSpec
from reversis_sim.rules import PARLETT
from reversis_sim.simulate import run

TOL = {"rel_tol": 1e-9, "abs_tol": 1e-9}


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory):
    """Random play (large pools: a hard case for rounding), four parts of 10 matches, the last one shorter."""
    out = tmp_path_factory.mktemp("batches") / "run"
    spec = RunSpec.for_deals(PARLETT, ["random", "lowest", "avoid", "random"], deals=37 * 12, seed=5,
                             chunk_matches=10)
    run(spec, out, engine="reference")
    return out


@pytest.fixture(scope="module")
def frames(run_dir):
    _, whole = load_run(run_dir)
    _, batches = load_run(run_dir, batched=True, rows_per_batch=1)  # every part its own batch
    cast = lambda f: f.with_columns(pl.col("policy").cast(pl.String), pl.col("quinola_fate").cast(pl.String))
    return cast(whole), cast(batches)


def test_moments_give_the_interval_of_the_per_cluster_arrays():
    rng = np.random.default_rng(3)
    sizes = rng.integers(1, 13, 500).astype(float)
    totals = 1e6 * sizes + rng.normal(0, 50, 500) * np.sqrt(sizes)  # a mean far from 0: conditioning matters
    direct = stats.ratio_mean_ci(totals, sizes)
    moments = np.zeros(6)
    shift = totals[:100].sum() / sizes[:100].sum()
    for piece in np.array_split(np.arange(500), 7):
        t, n = totals[piece], sizes[piece]
        u = t - shift * n
        moments += [piece.size, n.sum(), t.sum(), (u * u).sum(), (u * n).sum(), (n * n).sum()]
    g, n_obs, sum_t, s_uu, s_un, s_nn = moments
    pieced = stats.ratio_mean_ci_moments(int(g), n_obs, sum_t, shift, s_uu, s_un, s_nn)
    assert pieced.n_units == direct.n_units and pieced.n_obs == direct.n_obs
    for field in ("mean", "se", "ci_low", "ci_high"):
        assert getattr(pieced, field) == pytest.approx(getattr(direct, field), rel=1e-9)


def test_batches_keep_whole_parts_and_bound_their_rows(run_dir):
    _, b = load_run(run_dir, batched=True, rows_per_batch=2 * 10 * 12 * 4)
    assert len(b) == 2  # parts of at most 480 rows, two per batch
    _, one = load_run(run_dir, batched=True)
    assert len(one) == 1
    with pytest.raises(ValueError, match="rows_per_part"):
        Batches.from_parts(["a", "b"], 0)


@pytest.mark.parametrize("by", ["seat", "position", "policy", ["seat", "policy"], None])
def test_fish_by_in_batches_equals_the_whole_run(frames, by):
    whole, batches = frames
    assert_frame_equal(fish_by(batches, by), fish_by(whole, by), **TOL)
    assert_frame_equal(fish_by(with_pool_share(batches, 4), by, "fish_zero_sum"),
                       fish_by(with_pool_share(whole, 4), by, "fish_zero_sum"), **TOL)


def test_quinola_risk_and_reversis_rates_in_batches_equal_the_whole_run(frames):
    whole, batches = frames
    a, b = quinola_risk(batches), quinola_risk(whole)
    assert a.keys() == b.keys()
    for name in a:
        assert_frame_equal(a[name], b[name].sort(a[name].columns[0]) if name == "fate" else b[name], **TOL)
    assert_frame_equal(reversis_rates(batches, "policy"), reversis_rates(whole, "policy"), **TOL)


def test_figure_data_in_batches_equals_the_whole_run(frames):
    whole, batches = frames
    for by, points in ((["seat", "policy"], 200), ("seat", 10), (None, 5)):
        assert_frame_equal(convergence(batches, by, points=points), convergence(whole, by, points=points), **TOL)
    assert_frame_equal(fish_distribution(batches, "policy"), fish_distribution(whole, "policy"))
    assert_frame_equal(fish_distribution(batches, "seat", bins=12), fish_distribution(whole, "seat", bins=12))


def test_the_run_summary_is_computed_in_batches_and_agrees(run_dir, frames):
    whole, _ = frames
    summary = summarize_run(run_dir, estimator="plain")  # the plain means, as the polars queries compute them
    seats = fish_by(whole, "seat")
    assert [s["mean"] for s in summary["seats"]] == pytest.approx(seats["mean"].to_list(), rel=1e-12)
    assert [s["se"] for s in summary["seats"]] == pytest.approx(seats["se"].to_list(), rel=1e-9)
    last = whole.filter(pl.col("seat") == 0).group_by("match").agg(pl.col("pool_after").sort_by("deal").last())
    assert summary["pool_left_per_match"] == pytest.approx(last.collect()["pool_after"].mean(), rel=1e-12)
    assert summary["n_deals"] == 37 * 12
