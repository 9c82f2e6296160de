"""The command line starts at once: importing it, and running ``--help`` of every command, ``rules`` and
``policies``, imports nothing of numba, scipy, polars, pyarrow, matplotlib (nor numpy): checked in a fresh
interpreter, where nothing else has imported them. (How fast is measured, never asserted: README.)"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

HEAVY = ("numba", "llvmlite", "scipy", "polars", "pyarrow", "matplotlib", "numpy", "pandas", "optuna", "dask",
         "distributed")

PROBE = """
import json, sys
import click
from reversis_sim.cli import main
for args in {calls!r}:
    try:
        main(args, standalone_mode=False)
    except (SystemExit, click.ClickException):
        pass
print(json.dumps(sorted({{m.split('.')[0] for m in sys.modules}} & set({heavy!r}))))
"""


def _heavy_after(calls: list[list[str]]) -> list[str]:
    out = subprocess.run([sys.executable, "-c", PROBE.format(calls=calls, heavy=HEAVY)], capture_output=True,
                         text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_importing_the_command_line_imports_nothing_heavy():
    assert _heavy_after([]) == []


def test_help_rules_and_policies_import_nothing_heavy():
    from reversis_sim.cli import COMMANDS

    calls = [["--help"], ["rules"], ["rules", "parlett", "--rule", "party_bonus=40"], ["policies"],
             ["policies", "--format", "json"]] + [[name, "--help"] for name in COMMANDS]
    assert _heavy_after(calls) == []


@pytest.mark.parametrize("command", ["simulate", "compare", "tune"])
def test_parsing_a_bad_command_line_imports_nothing_heavy(command):
    """A typo is refused before anything heavy loads (a bad seat spec, a seed out of range)."""
    assert _heavy_after([[command, "--seed", "-1"], [command, "--seat", "nobody"]]) == []


def test_a_simulation_and_its_summary_load_scipy_special_not_scipy_stats(tmp_path):
    """``scipy.stats`` costs about a second at every start of a command that prints an interval; the summary's
    quantiles come from ``scipy.special`` (analysis/numeric.py). A run of 24 deals, summary included, must not load
    it (a new ``from scipy import stats`` in the summary's path would)."""
    probe = ("import json, sys\nfrom reversis_sim.cli import main\n"
             f"main(['simulate', '--deals', '24', '--seed', '1', '--out', {str(tmp_path / 'run')!r}, '--quiet',"
             " '--no-figures'], standalone_mode=False)\n"
             "print(json.dumps(sorted(m for m in sys.modules if m.startswith('scipy.s'))))\n")
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr[-3000:]
    loaded = json.loads(out.stdout.strip().splitlines()[-1])
    assert "scipy.special" in loaded  # the summary did print its quantiles
    assert "scipy.stats" not in loaded
