"""A review's figure: where the player loses fish, by trick and by kind of decision (drawn from the summary of
:func:`reversis_sim.review.summary.summarize_review`, nothing computed here)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np

from ..policies import display_name
from ..review.marks import KINDS
from .files import save_figure
from .style import COLORS, axes, finish, note, zero_line

KIND_ORDER = tuple(KINDS.values())  # in the order of their codes (review/marks.py declares them)


def loss_by_trick(summary: dict, ax=None):
    """Bars: the mean fish lost per non-forced decision at each trick, one bar per kind of decision (with its 95%
    interval where it may be printed), the exchange and the declaration before the first lead; the player's
    overall error rate as a line."""
    fig, ax = axes(ax, (8.0, 4.2))
    cells = summary["by_trick_kind"]
    tricks = sorted({c["trick"] for c in cells})
    width = 0.8 / len(KIND_ORDER)
    for j, kind in enumerate(KIND_ORDER):
        rows = {c["trick"]: c for c in cells if c["kind"] == kind}
        x = np.array(tricks, float) - 0.4 + width * (j + 0.5)
        y = np.array([rows[t]["error_rate"] if t in rows and rows[t]["error_rate"] is not None else np.nan
                      for t in tricks])
        lo = np.array([rows[t]["ci_low"] if t in rows and rows[t]["ci_low"] is not None else np.nan for t in tricks])
        hi = np.array([rows[t]["ci_high"] if t in rows and rows[t]["ci_high"] is not None else np.nan
                       for t in tricks])
        ax.bar(x, y, width, color=COLORS[j], label=kind if np.isfinite(y).any() else None)  # none: not listed
        ok = np.isfinite(lo) & np.isfinite(hi)
        ax.errorbar(x[ok], y[ok], yerr=[y[ok] - lo[ok], hi[ok] - y[ok]], fmt="none", ecolor="0.2", lw=0.8,
                    capsize=2)
    if summary["error_rate"] is not None:
        ax.axhline(summary["error_rate"], color="0.3", lw=1, ls="--", label="all decisions")
    zero_line(ax)
    ax.set_xticks(tricks, [str(t) if t > 0 else "before\nthe lead" for t in tricks])
    ax.set_xlabel("trick")
    ax.set_ylabel("fish lost per non-forced decision")
    ax.legend(frameon=False, fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1.0))  # beside: over no bar
    note(ax, "each option played out in the same worlds; half choose the best, half measure the loss; "
             "bars without whiskers: too few matches for an interval")
    caption = (f"{display_name(summary['policy'])} in seat 0 of {display_name(summary['field'])}, "
               f"{summary['rules']}, {summary['deals']:,} deals, seed {summary['seed']}; {summary['worlds']} worlds a "
               f"decision, rollouts by {display_name(summary['rollout'])}")
    return finish(fig, ax, "Where the fish are lost", caption)


def write_review_figure(out: str | Path, summary: dict, formats: Sequence[str] = ("png",)) -> list[Path]:
    """:func:`loss_by_trick` into ``<out>/figures/review_loss_by_trick.<format>``, each of ``formats`` (``png``,
    ``svg`` for documents); returns the paths."""
    fig = loss_by_trick(summary)
    return [save_figure(fig, Path(out) / "figures" / f"review_loss_by_trick.{fmt}", release=i == len(formats) - 1)
            for i, fmt in enumerate(formats)]
