"""The review's decision row, declared once: each column's name, block and meaning, in the order the reviewing
table writes it.

The kernels write a reviewed decision as two rows, one of ``int64`` and one of ``float64``; the batch API turns them
into the decision table's columns, a review folder stores that table and docs/review.md describes it. All four read
the declaration below: the kernels' slot indices (``DI_*``, the verdict's ``S_*``, ``F_*``) are the places of the
names, the API's columns are the names, and ``tests/test_review_row.py`` holds the doc's table to it, so a column
added or moved is one line here. (Plain Python: the command line's help may read it.)
"""

from __future__ import annotations

from collections import namedtuple

from ..policies.view import DECLARE_LOSE_ALL, DECLARE_PASS, DECLARE_WIN_ALL
from .marks import KEEP, KINDS, SITUATIONS

Column = namedtuple("Column", "name dtype meaning")

KEY = (
    Column("match", "int64", "the match (its number in the run: keyed like a run's)"),
    Column("deal", "int64", "the deal in the match"),
)
"""The columns the batch API adds before the kernel's: where the decision was taken (from its deal slot)."""

INTS = (
    Column("slot", "int64", "the deal slot the kernel played the decision in (not a column: it gives match and deal)"),
    Column("seat", "int64", "the seat deciding"),
    Column("trick", "int64", "the trick, from 1 (0: before the first lead, the exchange and the declaration; "
           "`review_matches` counts from 0, -1 before)"),
    Column("position", "int64", "the place in the trick (0: leading; at the exchange, its step)"),
    Column("kind", "int64", "the decision's kind: " + ", ".join(f"{code} {name}" for code, name in KINDS.items())),
    Column("flags", "int64", "its situation, bits: " + ", ".join(f"{bit} {name}" for bit, name in SITUATIONS.items())),
    # the verdict (evaluate_nb.summarize writes it from VERDICT on)
    Column("best", "int64", f"the reviewer's best option: a card, {KEEP} to keep the hand at the exchange, the "
           f"declaration's option ({DECLARE_PASS} pass, {DECLARE_LOSE_ALL} declare or declare lose_all, "
           f"{DECLARE_WIN_ALL} declare win_all)"),
    Column("played", "int64", "the option the seat took (the best where the review follows it)"),
    Column("hindsight_best", "int64", "the best option in the true deal, every hand known"),
    Column("options", "int64", "the distinct options valued"),
    Column("worlds", "int64", "the worlds they were played out in (half choose the best, half measure)"),
)
"""The kernel's integer row."""

FLOATS = (
    Column("value_played", "float64", "the option played: its mean fish over the measuring worlds"),
    Column("value_best", "float64", "the best option: its mean fish over the same worlds"),
    Column("loss", "float64", "fish lost to the best option, paired world by world"),
    Column("loss_se", "float64", "the standard error of the loss"),
    Column("hindsight_loss", "float64", "fish lost to the best option in the true deal"),
    Column("hindsight_played", "float64", "the option played: its fish in the true deal"),
)
"""The kernel's float row."""


def _place(table, name: str) -> int:
    return [c.name for c in table].index(name)


DI_SLOT, DI_SEAT, DI_TRICK, DI_POS, DI_KIND, DI_FLAGS, DI_VERDICT = (
    _place(INTS, name) for name in ("slot", "seat", "trick", "position", "kind", "flags", "best"))
"""The slots of the integer row the table writes; the verdict from ``DI_VERDICT`` on."""
DI_LEN = len(INTS)
S_BEST, S_PLAYED, S_H_BEST, S_N_OPTIONS, S_N_WORLDS = (
    _place(INTS, name) - DI_VERDICT for name in ("best", "played", "hindsight_best", "options", "worlds"))
"""The verdict's slots, from ``DI_VERDICT`` (what :func:`.evaluate_nb.summarize` writes)."""
F_VALUE_PLAYED, F_VALUE_BEST, F_LOSS, F_LOSS_SE, F_H_LOSS, F_H_PLAYED = (
    _place(FLOATS, name) for name in ("value_played", "value_best", "loss", "loss_se", "hindsight_loss",
                                      "hindsight_played"))
F_LEN = len(FLOATS)

DECISION_INT = {c.name: i for i, c in enumerate(INTS) if c.name != "slot"}
DECISION_FLOAT = {c.name: i for i, c in enumerate(FLOATS)}
"""The decision table's columns and where the kernel writes them."""
DECISIONS = KEY + tuple(c for c in INTS if c.name != "slot") + FLOATS
"""The decision table, column by column, as a review folder stores it (docs/review.md)."""
