"""The review's decision row is declared once (reversis_sim/review/row.py): the kernels' slots are the places of its
names, the batch API's and a review folder's columns are its names, docs/review.md's table is its rows. A column
added, moved or renamed in one place and not the others fails here."""

import re
from pathlib import Path

import numpy as np

from reversis_sim.review import row

DOC = Path(__file__).resolve().parents[1] / "docs" / "review.md"


def markdown() -> list[str]:
    return [f"| `{c.name}` | {c.dtype} | {c.meaning} |" for c in row.DECISIONS]


def test_the_doc_table_is_the_declaration():
    part = DOC.read_text().split("### The decisions table", 1)[1].split("\n## ", 1)[0]
    got = [line for line in part.splitlines() if re.match(r"\| `\w+` \|", line)]
    assert got == markdown(), "docs/review.md should read, under 'The decisions table':\n" + "\n".join(markdown())


def test_the_kernel_slots_are_the_places_of_the_names():
    ints = [c.name for c in row.INTS]
    assert [ints[i] for i in (row.DI_SLOT, row.DI_SEAT, row.DI_TRICK, row.DI_POS, row.DI_KIND, row.DI_FLAGS)] == \
        ["slot", "seat", "trick", "position", "kind", "flags"]
    verdict = [row.DI_VERDICT + s for s in (row.S_BEST, row.S_PLAYED, row.S_H_BEST, row.S_N_OPTIONS, row.S_N_WORLDS)]
    assert [ints[i] for i in verdict] == ["best", "played", "hindsight_best", "options", "worlds"]
    assert verdict == list(range(row.DI_VERDICT, row.DI_LEN)), "the verdict is the row's tail, written as one slice"
    floats = [row.F_VALUE_PLAYED, row.F_VALUE_BEST, row.F_LOSS, row.F_LOSS_SE, row.F_H_LOSS, row.F_H_PLAYED]
    assert sorted(floats) == list(range(row.F_LEN))
    assert set(row.DECISION_INT) | set(row.DECISION_FLOAT) | {"match", "deal"} == {c.name for c in row.DECISIONS}


def test_a_review_returns_the_declared_columns():
    """The batch API's decision columns (which a review folder stores as they come) are the declaration's, in its
    order and types (one deal reviewed in two worlds: the kernels are loaded from the cache the suite warms)."""
    from reversis_sim.policies import parse_seats
    from reversis_sim.review.reviewing import review_matches
    from reversis_sim.rules import PRESETS

    rules = PRESETS["parlett"]
    out = review_matches(rules, parse_seats(["avoid"], 4), seed=3, first_match=0, n_matches=1, reviewed=[0],
                         worlds=2, rollout="avoid", luck_samples=0, threads=1, match_deals=1)
    assert list(out.decisions) == [c.name for c in row.DECISIONS]
    assert [str(np.asarray(out.decisions[c.name]).dtype) for c in row.DECISIONS] == [c.dtype for c in row.DECISIONS]
