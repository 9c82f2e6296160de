"""Tools and studies apart: scripts/ holds the maintained tools, each listed in scripts/README.md and each answering
``--help``; every study in studies/ has a README naming the commit and the command behind its numbers; bench/ has a
README naming every benchmark, and nothing outside the package edits ``sys.path`` to find it (it is installed)."""

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
TOOLS = sorted(p for p in (ROOT / "scripts").iterdir() if p.suffix in (".py", ".sh"))


def test_scripts_readme_lists_exactly_the_tools():
    listed = set(re.findall(r"^\| `([\w.]+)` \|", (ROOT / "scripts" / "README.md").read_text(), re.M))
    assert listed == {p.name for p in TOOLS}


@pytest.mark.parametrize("tool", TOOLS, ids=lambda p: p.name)
def test_every_tool_answers_help(tool):
    command = ["bash", str(tool)] if tool.suffix == ".sh" else [sys.executable, str(tool)]
    env = {**os.environ, "NUMBA_DISABLE_JIT": "0"}
    r = subprocess.run([*command, "--help"], cwd=ROOT, capture_output=True, text=True, timeout=120, env=env)
    assert r.returncode == 0, r.stderr[-2000:]
    assert len(r.stdout.strip().splitlines()) >= 2, r.stdout


@pytest.mark.parametrize("study", sorted(p for p in (ROOT / "studies").iterdir() if p.is_dir()), ids=lambda p: p.name)
def test_every_study_names_its_commit_and_command(study):
    readme = (study / "README.md").read_text()
    assert (study / f"{study.name}.py").exists()
    assert re.search(r"\*\*Commit:\*\* `[0-9a-f]{40}`", readme), "the full commit that wrote the quoted numbers"
    assert f"python studies/{study.name}/{study.name}.py" in readme, "the command, as run today"
    assert f"[`{study.name}`]({study.name}/README.md)" in (ROOT / "studies" / "README.md").read_text()


def test_bench_has_a_readme_and_no_path_edits():
    benches = sorted(p.name for p in (ROOT / "bench").glob("*.py"))
    readme = (ROOT / "bench" / "README.md").read_text()
    assert benches and all(f"`{name}`" in readme for name in benches), benches
    edits = [str(p.relative_to(ROOT)) for top in ("bench", "scripts", "studies") for p in (ROOT / top).rglob("*.py")
             if re.search(r"sys\.path\.insert\(0, str\((ROOT|Path\(__file__\)[^)]*)\)\)", p.read_text())]
    assert not edits, f"the package is installed: no sys.path edit to find it ({edits})"
