"""The repository stands alone: its code, docs, tests, scripts, studies and benchmarks cite no file outside the clone
and no issue of a tracker a reader of the clone cannot open. Where a citation carried a reason, the reason is
written where it is needed."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CITATION = re.compile(r"DESIGN(\.md| decision)|[Ii]ssue [0-9]+|\.\./shared|/work/")
SUFFIXES = {".py", ".md", ".sh", ".toml", ".ipynb", ".txt"}

SKIP = {"tests/test_standalone.py"}


def _files():
    for top in ("reversis_sim", "docs", "tests", "scripts", "studies", "bench"):
        for path in sorted((ROOT / top).rglob("*")):
            if path.suffix in SUFFIXES and path.is_file() and "__pycache__" not in path.parts:
                yield path
    yield ROOT / "README.md"
    yield ROOT / "pyproject.toml"


def test_nothing_cites_a_file_outside_the_clone_or_an_issue_number():
    offenders = {}
    for path in _files():
        rel = path.relative_to(ROOT).as_posix()
        if rel in SKIP:
            continue
        hits = [n for n, line in enumerate(path.read_text(errors="replace").splitlines(), 1) if CITATION.search(line)]
        if hits:
            offenders[rel] = hits
    assert not offenders, f"citations of things outside the repository (write the reason instead): {offenders}"


def test_the_check_can_fail():
    assert CITATION.search("see DESIGN.md decision 7") and CITATION.search("(issue 26)")
    assert CITATION.search("../shared/golden") and not CITATION.search("docs/RULES.md R26")
