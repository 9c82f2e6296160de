"""The analysis notebook: it runs end to end, and the committed copy carries a full-size run's outputs.

``test_notebook_runs`` executes a copy of ``analysis.ipynb`` whose ``parameters`` cell ends by overriding the run
sizes with tiny values and ``RUN_DIR`` with a folder under pytest's temporary folder, in a kernel on this
interpreter (so that it sees the package under test), and checks that no cell fails and that the key outputs are
there. With the numba cache warm it takes a few seconds of simulation; a cold cache adds the engine's compilation.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOK = ROOT / "analysis.ipynb"
CELL_TIMEOUT = 900  # seconds; generous for a cold numba cache on a slow machine
MAX_BYTES = 3 * 1024 * 1024

SMALL = {
    "N_DEALS": "1_200",
    "COMPARE_DEALS": "480",
    "RULESET_DEALS": "480",
    "HAND_DEALS": "480",
    "REFERENCE_DEALS": "48",
    "REVIEW_DEALS": "48",
    "SEED": "7",
    "ENGINE": '"numba"',
    "FRESH": "True",
}


def _tagged(nb, tag: str) -> list:
    return [c for c in nb.cells if tag in c.get("metadata", {}).get("tags", [])]


def _outputs(cell, mime: str) -> list[str]:
    """The ``mime`` payloads of a code cell's rich outputs, as text."""
    found = []
    for out in cell.get("outputs", []):
        data = out.get("data", {})
        if mime in data:
            value = data[mime]
            found.append("".join(value) if isinstance(value, list) else value)
    return found


def _count(nb, mime: str) -> int:
    return sum(len(_outputs(c, mime)) for c in nb.cells if c.cell_type == "code")


@pytest.fixture(scope="module")
def executed(tmp_path_factory):
    """The notebook executed on tiny runs: (notebook, its RUN_DIR)."""
    why = "running the notebook needs nbformat, nbclient and ipykernel (pip install -e '.[test]')"
    nbformat, nbclient, _ = (pytest.importorskip(m, reason=f"{m} is not installed; {why}")
                             for m in ("nbformat", "nbclient", "ipykernel"))
    from jupyter_client.kernelspec import KernelSpecManager
    from jupyter_client.manager import KernelManager

    tmp = tmp_path_factory.mktemp("notebook")
    run_dir = tmp / "runs"
    nb = nbformat.read(NOTEBOOK, as_version=4)
    params = _tagged(nb, "parameters")
    assert len(params) == 1, "analysis.ipynb needs exactly one cell tagged 'parameters'"
    names = {line.split("=", 1)[0].strip() for line in params[0].source.splitlines()
             if "=" in line and not line.lstrip().startswith("#")}
    missing = set(SMALL) - names
    assert not missing, f"the parameters cell no longer sets {sorted(missing)}; update SMALL in this test"
    small = {**SMALL, "RUN_DIR": repr(str(run_dir))}
    params[0].source += "\n# small values set by tests/test_notebook.py (papermill style)\n" + "\n".join(
        f"{k} = {v}" for k, v in small.items())

    # a kernel on this very interpreter, whatever kernels the machine has installed
    kernels = tmp / "kernels"
    (kernels / "reversis-test").mkdir(parents=True)
    (kernels / "reversis-test" / "kernel.json").write_text(json.dumps({
        "argv": [sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"],
        "display_name": "reversis_sim test", "language": "python"}))
    km = KernelManager(kernel_name="reversis-test", kernel_spec_manager=KernelSpecManager(kernel_dirs=[str(kernels)]))
    client = nbclient.NotebookClient(nb, km=km, timeout=CELL_TIMEOUT, resources={"metadata": {"path": str(ROOT)}})
    client.execute()  # raises CellExecutionError, naming the cell, if any cell fails
    return nb, run_dir


def test_notebook_runs(executed):
    nb, run_dir = executed
    code = [c for c in nb.cells if c.cell_type == "code"]
    assert all(c.get("execution_count") for c in code), "every code cell ran"
    assert not [o for c in code for o in c.get("outputs", []) if o.get("output_type") == "error"]
    for rules in ("parlett", "pierer", "modern", "serbian"):
        assert (run_dir / rules / "manifest.json").exists(), f"the notebook played a run of {rules}"


def test_notebook_key_outputs(executed):
    nb, _ = executed
    headline = _tagged(nb, "headline")
    assert headline, "the headline table cell is tagged 'headline'"
    html = "".join(_outputs(headline[0], "text/html"))
    assert "zero-sum fish per deal" in html and "raw fish per deal" in html
    assert "Pool left at the end of a match" in "".join(_outputs(headline[0], "text/markdown"))
    for tag, text in (("headline-position", "dealer"), ("quinola-fate", "forced"), ("quinola-cost", "dumped"),
                      ("reversis", "espagnolette_declared"), ("comparisons", "saver vs avoid"),
                      ("rulesets", "serbian"), ("your-hand", "holder"), ("review", "holding the J♥")):
        cells = _tagged(nb, tag)
        assert cells, f"a cell is tagged {tag!r}"
        assert text in "".join(_outputs(cells[0], "text/html")), f"the {tag!r} table shows {text!r}"
    conclusions = "".join(_outputs(_tagged(nb, "conclusions")[0], "text/markdown"))
    assert "**Position.**" in conclusions and "**Rules.**" in conclusions
    assert "fish a decision" in "".join(_outputs(_tagged(nb, "review-findings")[0], "text/markdown"))
    assert _count(nb, "image/png") >= 11, "every chart is displayed inline as PNG"


def test_committed_notebook_has_full_size_outputs():
    """The committed notebook carries the outputs of its own full-size run, stays small enough to review, and its
    parameter cell is the papermill-style one the test above replaces."""
    assert NOTEBOOK.stat().st_size < MAX_BYTES, f"analysis.ipynb is over {MAX_BYTES:,} bytes"
    nb = json.loads(NOTEBOOK.read_text())
    code = [c for c in nb["cells"] if c["cell_type"] == "code"]
    params = [c for c in code if "parameters" in c.get("metadata", {}).get("tags", [])]
    assert len(params) == 1
    counts = [c.get("execution_count") for c in code]
    assert all(counts) and counts == sorted(counts), "run top to bottom in one kernel, outputs kept"
    assert not [o for c in code for o in c.get("outputs", []) if o.get("output_type") == "error"]
    pngs = sum("image/png" in o.get("data", {}) for c in code for o in c.get("outputs", []))
    assert pngs >= 11
    run = "".join("".join(o.get("text", "")) for c in code for o in c.get("outputs", []) if o.get("name") == "stdout")
    assert "deals (" in run and "matches of" in run
