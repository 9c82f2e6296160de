"""A cached kernel is compiled again exactly when code it reaches changes (kernel/cache.py): in a copy of the
package, with a numba cache of its own, a policy module is edited and the kernels that compile again are named."""

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "reversis_sim"

SCRIPT = """
import json
from reversis_sim.engines import get_engine
from reversis_sim.kernel.jit import CompileWatch
from reversis_sim.policies import parse_seats
from reversis_sim.rules import PRESETS

rules = PRESETS["parlett"]
with CompileWatch() as watch:
    get_engine("numba").columns(rules, parse_seats(["lowest"], 4), seed=0, first_match=0, n_matches=1, match_deals=1)
    get_engine("numba").dealt_hands(rules, seed=0, first_match=0, n_matches=1)
print(json.dumps([sorted(watch.seconds), sorted(watch.waited)]))
"""

TWO_FAMILIES = (("from . import avoid, learned, lowest, random", "from . import lowest, random"),
                ("    avoid.FAMILY,\n    learned.FAMILY,\n", ""))
"""The copy's registry (policies/heuristics.py) cut to ``random`` and ``lowest``."""

PLAY = "    return bottom(mask(view, V_LEGAL), tables[T_STRENGTH])"


def _compiled(root: Path, cache: Path, beside: bool = False) -> set[str]:
    """What a run of ``SCRIPT`` compiled in its own process (with ``beside``, the deal skeleton compiles in a process
    of its own meanwhile: kernel/units.py ``compile_beside``). At LLVM's first optimisation level (``NUMBA_OPT=1``):
    which kernels compile does not depend on it, and it compiles in four fifths of the time. (Not at 0: unoptimised,
    the deal skeleton keeps references to global arrays, which numba refuses to cache.)"""
    env = {**os.environ, "PYTHONPATH": str(root), "NUMBA_CACHE_DIR": str(cache), "NUMBA_OPT": "1",
           "REVERSIS_COMPILE_BESIDE": "1" if beside else "0"}
    r = subprocess.run([sys.executable, "-c", SCRIPT], cwd=root, capture_output=True, text=True, timeout=1800,
                       env=env)
    assert r.returncode == 0, r.stderr[-3000:]
    compiled, waited = json.loads(r.stdout.splitlines()[-1])
    WAITED.append(set(waited))
    return set(compiled)


WAITED: list[set] = []
"""What each run of ``SCRIPT`` waited for (a kernel compiled beside it), in order."""


@pytest.mark.slow
def test_an_edit_of_a_policy_recompiles_the_kernels_that_reach_it_and_no_other(tmp_path):
    root = tmp_path / "copy"
    shutil.copytree(PACKAGE, root / "reversis_sim", ignore=shutil.ignore_patterns("__pycache__"))
    lowest = root / "reversis_sim" / "policies" / "lowest_nb.py"
    cache = tmp_path / "cache"
    # the copy registers two families: every registered family is inlined into the deal skeleton, and what is tested
    # (a kernel's fingerprint covers the modules it reaches) does not depend on how many the dispatch tries; with
    # the whole registry a table's kernels compile in 34 s of CPU instead of 21, and the test compiles most of it twice
    registry = root / "reversis_sim" / "policies" / "heuristics.py"
    text = registry.read_text()
    for old, new in TWO_FAMILIES:
        assert old in text
        text = text.replace(old, new)
    registry.write_text(text)

    # an empty cache: all of it, the deal skeleton (and the policy it calls) in a process of its own beside the run's,
    # which compiles the match loop meanwhile, then loads the skeleton from the cache that process wrote
    first = _compiled(root, cache, beside=True)
    assert {"numba_engine.match.play_blocks", "numba_engine.hands.dealt_hands_nb"} <= first
    assert not first & {"policies.deal_nb.play_plain", "policies.lowest_nb.play"}
    assert WAITED[-1] <= {"policies.deal_nb.play_plain"}  # the skeleton, if it was still compiling: counted as such
    assert _compiled(root, cache) == set() and WAITED[-1] == set()  # all of it loaded from the cache

    text = lowest.read_text()
    lowest.write_text(text.replace("numba decisions of the ``lowest`` family", "numba decisions of the family lowest"))
    assert _compiled(root, cache) == set()  # words only: nothing a kernel reaches changed

    assert PLAY in text
    lowest.write_text(text.replace(PLAY, "    return bottom(mask(view, V_LEGAL) | mask(view, V_LEGAL), "
                                         "tables[T_STRENGTH])"))
    again = _compiled(root, cache)
    assert {"policies.lowest_nb.play", "policies.deal_nb.play_plain"} <= again  # the play and the deal that calls it
    assert not again & {"numba_engine.match.play_blocks", "numba_engine.hands.dealt_hands_nb",
                        "policies.lowest_nb.exchange", "kernel.settle.settle_party"}  # the deal's callers, the rest


def test_an_index_naming_a_moved_type_is_stale_not_fatal(tmp_path):
    """numba pickles a compiled version's argument types into the function's index, a record type by its module's
    name: an index written before a module moved names a module that is gone. For the package's functions that index
    reads as empty (the function compiles again, as after any change); for anyone else's numba's error stands."""
    import pickle
    import types

    import numba
    from numba.core import caching

    import reversis_sim.kernel.jit  # noqa: F401 - installs the package's cache locators
    from reversis_sim.kernel.cache import _Stamp  # noqa: PLC2701 - the stamp is what marks a package function

    gone = types.ModuleType("reversis_sim_gone")
    Moved = type("Moved", (), {"__module__": "reversis_sim_gone"})
    gone.Moved = Moved
    sys.modules["reversis_sim_gone"] = gone
    try:
        stamp = _Stamp(test_an_index_naming_a_moved_type_is_stale_not_fatal, "")
        stamp.value = ("reversis_sim", "fingerprint", "")
        data = pickle.dumps((stamp.value, {(Moved, "key"): "f.1.nbc"}))
    finally:
        del sys.modules["reversis_sim_gone"]
    (tmp_path / "f.nbi").write_bytes(pickle.dumps(numba.__version__) + data)

    assert caching.IndexDataCacheFile(str(tmp_path), "f", stamp)._load_index() == {}
    with pytest.raises(ModuleNotFoundError):
        caching.IndexDataCacheFile(str(tmp_path), "f", stamp.value)._load_index()
