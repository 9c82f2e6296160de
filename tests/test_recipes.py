"""docs/architecture.md's recipe for a new policy family is run: its code, built in a temporary copy of the package,
passes the architecture test there, parses as a spec, its four decisions compile and decide, and both engines play
it alike deal for deal (about half a minute: the copy compiles its engine from an empty cache). A recipe that the
house refuses (a signature the architecture test rejects, a module the map does not name) fails here."""

import os
import re
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "architecture.md"


def recipe_blocks() -> dict[str, str]:
    """The recipe's Python blocks, by the file their first line names (``# policies/careful.py: ...``)."""
    section = DOC.read_text().split("**A policy family.**", 1)[1].split("\n**", 1)[0]
    blocks = {}
    for block in re.findall(r"```python\n(.*?)```", section, re.S):
        first, _, body = block.partition("\n")
        name = re.match(r"# (policies/\w+\.py)", first)
        assert name, f"a recipe block names its file on its first line: {first!r}"
        blocks[name.group(1)] = body
    return blocks


def _code(text: str) -> list[str]:
    """The lines of a module without its docstrings, comments and blank lines."""
    text = re.sub(r'"""(.*?)"""', "", text, flags=re.S)
    return [line.split("#")[0].rstrip() for line in text.splitlines() if line.split("#")[0].strip()]


def test_the_recipe_names_the_three_files():
    assert set(recipe_blocks()) == {"policies/careful.py", "policies/careful_nb.py", "policies/heuristics.py"}


def test_the_registration_block_is_the_registry_with_one_line_more():
    """The doc's ``heuristics.py`` is today's file plus the new family: it cannot drift from the real one."""
    shown = _code(recipe_blocks()["policies/heuristics.py"])
    real = _code((ROOT / "reversis_sim" / "policies" / "heuristics.py").read_text())
    without = [line.replace(" careful,", "") for line in shown if "careful.FAMILY" not in line]
    assert without == real


BUILD = textwrap.dedent('''
    import reversis_sim, numpy as np
    from pathlib import Path
    assert Path(reversis_sim.__file__).resolve().parent == Path.cwd().resolve() / "reversis_sim", reversis_sim.__file__
    from reversis_sim.policies import parse_spec
    from reversis_sim.policies.careful_nb import declare, exchange, goal, play
    from reversis_sim.kernel.view import V_HAND, V_LEGAL, V_DECK, new_view
    from reversis_sim.kernel.compiled import compile_rules
    from reversis_sim.rules import PRESETS
    spec = parse_spec("careful:depth=3")
    assert spec.family == "careful", spec
    tables = compile_rules(PRESETS["parlett"]).tables
    view = new_view()
    view[V_HAND] = view[V_LEGAL] = 0b1011
    view[V_DECK] = (1 << 62) - 1
    params = np.array(spec.values(), np.float64)
    draws = np.zeros(8, np.uint64)
    assert play(params, draws, view, tables) in (0, 1, 3)
    assert exchange(params, draws, view, tables) == -1
    assert declare(params, draws, view, tables) in (False, True)
    goal(params, draws, view, tables)
    from reversis_sim import reference
    from reversis_sim.game import first_difference
    from reversis_sim.numba_engine import trace_match
    from reversis_sim.policies import parse_seats
    seats = parse_seats(["careful", "lowest", "careful:depth=3,keep_aces=0", "avoid"], 4)
    for m in range(2):  # the two engines play the new family alike, deal for deal
        kernel = trace_match(PRESETS["parlett"], seats, seed=7, match=m)
        ref = list(reference.play_match(PRESETS["parlett"], seats, seed=7, match=m))
        assert len(kernel) == len(ref) == 12
        for k, r in zip(kernel, ref):
            assert k == r, first_difference(k, r)
    print("built")
''')


@pytest.mark.slow
def test_a_new_family_built_from_the_recipe_passes_the_architecture_and_agreement_checks(tmp_path):
    copy = tmp_path / "house"
    shutil.copytree(ROOT / "reversis_sim", copy / "reversis_sim", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(ROOT / "docs", copy / "docs")
    (copy / "tests").mkdir()
    shutil.copy(ROOT / "tests" / "test_architecture.py", copy / "tests")
    for name, body in recipe_blocks().items():
        target = copy / "reversis_sim" / name
        if name.endswith("heuristics.py"):  # the registration replaces the code, keeps the module's docstring
            doc = re.match(r'"""(.*?)"""\n', target.read_text(), re.S).group(0)
            body = doc + "\n" + body
        target.write_text(body)
    doc = copy / "docs" / "architecture.md"  # the map names every module (the recipe's last step)
    doc.write_text(doc.read_text().replace("`avoid_nb.py`;", "`avoid_nb.py`, `careful.py`, `careful_nb.py`;", 1))
    # LLVM's optimisation left out (NUMBA_OPT=0): what is checked, that the family compiles and plays as the
    # reference does, does not depend on it, and it is about a third of the copy's compile time
    env = {**os.environ, "PYTHONPATH": str(copy), "NUMBA_CACHE_DIR": str(tmp_path / "numba"),
           "REVERSIS_TEST_NO_WARM": "1", "NUMBA_OPT": "0", "REVERSIS_COMPILE_BESIDE": "0"}
    pytest = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests/test_architecture.py"]
    arch = subprocess.run(pytest, cwd=copy, env=env, capture_output=True, text=True, timeout=600)
    assert arch.returncode == 0, arch.stdout[-3000:] + arch.stderr[-2000:]
    built = subprocess.run([sys.executable, "-c", BUILD], cwd=copy, env=env, capture_output=True, text=True,
                           timeout=600)
    assert built.returncode == 0 and "built" in built.stdout, built.stdout[-2000:] + built.stderr[-3000:]
