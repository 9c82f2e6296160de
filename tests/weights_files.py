"""What the tests of the learned player's weights files share (``test_learned.py``, ``test_learned_declaration.py``):
a saved file with some of its arrays replaced, and the check that a bad file is refused in one sentence."""

from __future__ import annotations

import numpy as np
import pytest
from click.testing import CliRunner

from reversis_sim.cli import main
from reversis_sim.policies import PolicySpecError, parse_spec


def replace_arrays(path, **change):
    """Replace (or add) arrays of the ``.npz`` file at ``path``, keeping the others; ``path``."""
    if change:
        with np.load(path) as z:
            arrays = {k: z[k] for k in z.files}
        arrays.update(change)
        np.savez(path, **arrays)
    return path


def assert_refused(tmp_path, path, words: str) -> None:
    """The weights file at ``path`` is refused with ``words``: by the spec's parser, and by ``simulate`` in one
    sentence, exit status 2, without a traceback, writing nothing."""
    with pytest.raises(PolicySpecError, match=words):
        parse_spec(f"learned:weights={path}")
    out = tmp_path / "run"
    r = CliRunner().invoke(main, ["simulate", "--seat", f"learned:weights={path}", "--deals", "24", "--out", str(out)])
    assert r.exit_code == 2, r.output
    assert words in " ".join(r.output.split()) and "Traceback" not in r.output, r.output
    assert not out.exists()
