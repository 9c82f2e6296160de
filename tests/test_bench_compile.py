"""``bench --compile``'s measure of a command's first run (reversis_sim/bench.py ``first_output``), on a command
that compiles nothing: its first line is timed, its CPU counted, no kernel listed."""

from reversis_sim.bench import first_output


def test_a_first_run_is_timed_to_its_first_line_and_lists_what_compiled():
    r = first_output(["rules"])
    assert r["exit_code"] == 0 and not r["asked"]
    assert r["first_line_s"] is not None and 0 < r["first_line_s"] <= r["end_s"]
    assert r["compiled"] == 0 and r["kernels"] == {} and r["cpu_s"] > 0  # listing the rules compiles nothing
