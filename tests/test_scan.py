"""The one-pass scan of a run folder, the toolkit's one analysis path, against the polars queries
(tests/polars_oracle.py): every headline table, summary and figure
table equal (same rows and keys; means, standard errors and intervals to rel 1e-9; counts exact), on small runs of
presets that stress the layout: matches of unequal length (simple scoring), five seats, two seats sharing a
policy, several parts, a part shorter than the others."""

import pytest
from polars.testing import assert_frame_equal
from polars_oracle import analysis_tables_polars, figure_tables_polars, summarize_run_polars

from reversis_sim.analysis import analysis_tables, figure_tables, summarize_run
from reversis_sim.analysis.scan import scan_run
from reversis_sim.record import RunError, RunSpec, part_path
from reversis_sim.rules import PRESETS
from reversis_sim.simulate import run

TOL = {"rel_tol": 1e-9, "abs_tol": 1e-12}

RUNS = {
    # rules, seats, deals, chunk matches
    "parlett_mixed": ("parlett", ["random", "avoid", "random", "lowest"], 3000, 37),
    "parlett_simple": ("parlett_simple", ["avoid", "random", "lowest", "avoid"], 2400, 23),
    "modern_five": ("modern_five", ["random", "avoid", "lowest", "avoid", "random"], 2000, 31),
    "modern": ("modern", ["avoid"], 2000, 50),
}


@pytest.fixture(scope="module", params=sorted(RUNS))
def run_dir(request, tmp_path_factory):
    rules, seats, deals, chunk = RUNS[request.param]
    out = tmp_path_factory.mktemp(request.param) / "run"
    run(RunSpec.for_deals(PRESETS[rules], seats, deals=deals, seed=11, chunk_matches=chunk), out)
    return out


def assert_tables_equal(fast: dict, slow: dict) -> None:
    assert fast.keys() == slow.keys()
    for name in slow:
        assert fast[name].columns == slow[name].columns, name
        assert_frame_equal(fast[name], slow[name], **TOL, check_column_order=True), name


def test_analysis_tables_equal_the_polars_path(run_dir):
    fast, slow = analysis_tables(run_dir, estimator="plain"), analysis_tables_polars(run_dir)
    assert_tables_equal(fast, slow)
    assert fast["fish_by_seat"]["n_units"].sum() > 0


def test_the_scan_covers_what_the_fixtures_must_exercise(run_dir):
    """The runs are what the comparisons claim: several parts, matches of unequal length under simple scoring,
    shared policies, a J♥ paid for by others, reversis commitments."""
    tables = analysis_tables(run_dir)
    assert len(list(run_dir.glob("part-*.parquet"))) >= 2
    seats = tables["fish_by_seat"]
    if "simple" in str(run_dir):
        assert seats["n_deals"].n_unique() == 1 and seats["n_deals"][0] < seats["n_units"][0] * 12
        assert tables["fish_by_reason"].height == 0
    else:
        assert tables["fish_by_reason"].height > 0
        assert tables["quinola_others_pay"]["successes"].sum() > 0
    assert tables["fish_by_policy"].height < seats.height  # two seats share a policy


def test_the_summary_and_figure_tables_equal_the_polars_path(run_dir):
    fast, slow = summarize_run(run_dir, estimator="plain"), summarize_run_polars(run_dir)
    assert fast.keys() == slow.keys()
    for key in slow:
        if key == "seats":
            for a, b in zip(fast[key], slow[key], strict=True):
                assert a.keys() == b.keys()
                for k in b:
                    assert a[k] == (pytest.approx(b[k], rel=1e-9, nan_ok=True) if isinstance(b[k], float) else b[k]), k
        elif isinstance(slow[key], (float, dict)) and key != "rules_params":  # the rules played: compared exactly
            assert fast[key] == pytest.approx(slow[key], rel=1e-12), key
        else:
            assert fast[key] == slow[key], key
    _, a = figure_tables(run_dir, estimator="plain")
    b = figure_tables_polars(run_dir)
    for name in ("fish_by_seat", "fish_by_position", "fish_by_policy", "quinola_fate_by_hearts", "quinola_cost",
                 "reversis_rates"):
        assert_frame_equal(a[name](), b[name], **TOL)


def test_scan_variants_equal_the_polars_path(run_dir):
    from reversis_sim.analysis import fish_by_reason, load_payments, load_run, reversis_rates

    _, lf = load_run(run_dir, batched=True, rows_per_batch=1)
    pay = load_payments(run_dir, batched=True, rows_per_batch=1)
    for direction in (False, True):
        scan = scan_run(run_dir, reasons_by="seat", direction=direction, workers=2, processes=direction)
        assert_frame_equal(scan.fish_by_reason(), fish_by_reason(lf, pay, "seat", direction=direction), **TOL)
    assert_frame_equal(scan.reversis_rates("seat"), reversis_rates(lf, "seat"), **TOL)
    one = scan_run(run_dir, zero_sum=False, quinola=False, reversis=False, workers=1)
    assert_frame_equal(one.fish_by("position"), scan.fish_by("position"), **TOL)
    with pytest.raises(ValueError, match="quinola=True"):
        one.quinola_risk()
    with pytest.raises(ValueError, match="did not add up 'seat_zero_sum'"):
        one.fish_by("seat", "fish_zero_sum")


def test_a_damaged_part_is_refused_in_one_sentence(tmp_path):
    out = tmp_path / "run"
    run(RunSpec.for_deals(PRESETS["parlett"], ["avoid"], deals=600, seed=2, chunk_matches=10), out)
    part_path(out, 2).unlink()
    with pytest.raises(RunError, match="missing"):
        analysis_tables(out)
    part_path(out, 1).write_bytes(part_path(out, 0).read_bytes())  # chunk 0's rows under chunk 1's name
    with pytest.raises(RunError, match="holds chunk 0, not 1"):
        scan_run(out)
