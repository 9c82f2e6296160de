"""Execute analysis.ipynb in place at its full size (its parameter cell as committed), in a kernel on this
interpreter, so that the committed copy carries its own run's outputs (tests/test_notebook.py checks that).

    python scripts/run_notebook.py            # a few minutes on 2 cores
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOK = ROOT / "analysis.ipynb"


def main() -> int:
    argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter).parse_args()
    import nbclient
    import nbformat
    from jupyter_client.kernelspec import KernelSpecManager
    from jupyter_client.manager import KernelManager

    nb = nbformat.read(NOTEBOOK, as_version=4)
    kernelspec = nb.metadata.get("kernelspec")  # the reader's kernel, not this script's private one
    with tempfile.TemporaryDirectory() as tmp:
        spec = Path(tmp) / "reversis-notebook"
        spec.mkdir()
        (spec / "kernel.json").write_text(json.dumps({
            "argv": [sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"],
            "display_name": "reversis_sim", "language": "python"}))
        km = KernelManager(kernel_name="reversis-notebook", kernel_spec_manager=KernelSpecManager(kernel_dirs=[tmp]))
        nbclient.NotebookClient(nb, km=km, timeout=3600, resources={"metadata": {"path": str(ROOT)}}).execute()
    nb.metadata.pop("widgets", None)
    if kernelspec is not None:
        nb.metadata["kernelspec"] = kernelspec
    nbformat.write(nb, NOTEBOOK)
    print(f"executed {NOTEBOOK.name}: {sum(c.cell_type == 'code' for c in nb.cells)} code cells")
    return 0


if __name__ == "__main__":
    sys.exit(main())
