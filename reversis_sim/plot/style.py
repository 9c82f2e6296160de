"""What every figure shares: colours, names of seats and positions, the caption under a figure, number formats,
and the plumbing that makes a Figure without pyplot (the Agg canvas, constrained layout, the caption's room)."""

from __future__ import annotations

import textwrap
from collections.abc import Mapping, Sequence

import numpy as np
import polars as pl
from matplotlib.axes import Axes
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.layout_engine import ConstrainedLayoutEngine

from ..overrides import label
from ..policies import display_name

UNIT = "fish per deal"
CAPTION_GID = "reversis-caption"
NOTE_GID = "reversis-note"
CAPTION_SIZE = 7.0
COLORS = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#F0E442", "#000000")
"""Okabe-Ito colours, readable by colour-blind players; one per group."""
FATE_STYLE = {  # fate -> (colour, legend text)
    "dumped": ("#009E73", "dumped: discarded on another suit (holder is paid)"),
    "forced": ("#D55E00", "forced: played to a heart lead (holder pays)"),
    "led": ("#CC79A7", "led: the holder led it (holder pays)"),
    "talon": ("#999999", "talon: never in play"),
}
SMALL_GROUP = 30
"""Bars resting on fewer hands than this are drawn faded (their shares are noisy)."""


# ---------------------------------------------------------------------------------------------------------------
# names and captions


def ci_label(low, high) -> str:
    """`` (95% CI)`` for an axis whose figure draws at least one interval (a finite ``low``, ``high`` pair), else
    nothing: a figure never claims intervals it does not draw."""
    lo, hi = np.asarray(low, float), np.asarray(high, float)
    return " (95% CI)" if (np.isfinite(lo) & np.isfinite(hi)).any() else ""


def refused_note(n_needed) -> str:
    """What a figure says where intervals were refused (too few matches; ``n_needed``: the matches they need), or
    nothing."""
    needed = int(np.nanmax(np.asarray(n_needed, float))) if len(n_needed) else 0
    return f"no bar where an interval needs more matches ({needed:,} needed)" if needed > 0 else ""


def minus(text: str) -> str:
    return text.replace("-", "−")


def interval_text(mean: float, low: float, high: float, sep: str = "\n") -> str:
    """``mean`` and ``[low, high]`` with as many decimals as the interval's width deserves (two significant
    digits of the half-width, at most 3 decimals)."""
    half = (high - low) / 2 if np.isfinite(low) and np.isfinite(high) else np.nan
    digits = 1 if not np.isfinite(half) or half <= 0 else int(min(3, max(0, 1 - np.floor(np.log10(half)))))
    if not np.isfinite(half):
        return num(mean, digits)
    return f"{num(mean, digits)}{sep}[{num(low, digits)}, {num(high, digits)}]"


def num(x: float, digits: int = 1) -> str:
    """A number for an annotation: thousands separators, a true minus sign."""
    return minus(f"{x:,.{digits}f}")


def run_caption(manifest: Mapping) -> str:
    """One line describing a run for the small print under its figures: rules, deals, matches, seed, seats and
    the version that played it.

    >>> run_caption({"rules": "parlett", "seed": 1, "n_matches": 2, "match_deals": 12, "seats": ["random"] * 4})
    'parlett rules · 24 deals (2 matches of 12) · seed 1 · all seats random'
    """
    n_matches, per = int(manifest["n_matches"]), int(manifest["match_deals"])
    seats = list(manifest.get("seats", []))
    if seats and len(set(seats)) == 1:
        who = f"all seats {display_name(seats[0])}"
    else:
        who = "seats " + ", ".join(f"{i}: {display_name(s)}" for i, s in enumerate(seats))
    rules = label(manifest["rules"], manifest["rules_params"]) if "rules_params" in manifest else manifest["rules"]
    parts = [f"{rules} rules", f"{n_matches * per:,} deals ({n_matches:,} matches of {per})",
             f"seed {manifest['seed']}", who]
    if manifest.get("package_version"):
        commit = manifest.get("git_commit")
        parts.append(f"reversis_sim {manifest['package_version']}" + (f" ({commit[:7]})" if commit else ""))
    return " · ".join(parts)


def position_name(position: int) -> str:
    """Readable seat position relative to the dealer: ``dealer``, ``eldest`` (leads the first trick), then the
    order of play (``3rd to play``...)."""
    p = int(position)
    if p == 0:
        return "dealer"
    if p == 1:
        return "eldest\n(leads)"
    suffix = {2: "nd", 3: "rd"}.get(p, "th")
    return f"{p}{suffix} to play"


def seat_name(seat: int, policy: str | None = None) -> str:
    """``seat 0`` with its policy underneath (a preset by its name, a spec wrapped at commas when long)."""
    text = f"seat {int(seat)}"
    if policy:
        text += "\n" + "\n".join(textwrap.wrap(display_name(policy).replace(",", ", "), 18))
    return text


def group_label(row: Mapping, cols: Sequence[str]) -> str:
    """Legend text for one group of a summary frame."""
    if "seat" in cols:
        return f"seat {row['seat']}" + (f" ({display_name(row['policy'])})" if row.get("policy") else "")
    if "position" in cols:
        return f"{row['position']}: " + position_name(row["position"]).replace("\n", " ")
    return " · ".join(display_name(row[c]) if c == "policy" else str(row[c]) for c in cols)


# ---------------------------------------------------------------------------------------------------------------
# figure plumbing


def axes(ax: Axes | None, size: tuple[float, float]) -> tuple[Figure, Axes]:
    """The Axes to draw into: the caller's, or a new figure's single Axes (Agg canvas, constrained layout)."""
    if ax is not None:
        return ax.figure, ax
    fig = Figure(figsize=size, layout="constrained")
    FigureCanvasAgg(fig)
    return fig, fig.add_subplot()


def finish(fig: Figure, ax: Axes, title: str, caption: str | None) -> Figure:
    """Title the Axes and put the caption, once, under the figure (keeping the layout clear of it)."""
    note_lines = max([t.get_text().count("\n") + 1 for t in ax.texts if t.get_gid() == NOTE_GID], default=0)
    ax.set_title(title, loc="left", fontsize=11, fontweight="bold", pad=6 + 9 * note_lines if note_lines else 6)
    if caption and not any(t.get_gid() == CAPTION_GID for t in fig.texts):
        width_chars = int(fig.get_figwidth() * 72 / (CAPTION_SIZE * 0.55))
        text = "\n".join(textwrap.wrap(caption, width_chars))
        fig.text(0.01, 0.01, text, fontsize=CAPTION_SIZE, color="0.35", ha="left", va="bottom", gid=CAPTION_GID)
        engine = fig.get_layout_engine()
        if isinstance(engine, ConstrainedLayoutEngine):
            lines = text.count("\n") + 1
            h = (lines * CAPTION_SIZE * 1.25 + 8) / 72 / fig.get_figheight()
            engine.set(rect=(0, h, 1, 1 - h))
    return fig


def note(ax: Axes, text: str) -> None:
    """Small print between the title and the Axes: how to read the figure."""
    ax.text(0.0, 1.012, text, transform=ax.transAxes, ha="left", va="bottom", fontsize=7, color="0.35",
            gid=NOTE_GID)


def zero_line(ax: Axes, vertical: bool = False) -> None:
    (ax.axvline if vertical else ax.axhline)(0, color="0.5", lw=0.8, ls="--", zorder=0)


def group_cols(frame: pl.DataFrame, before: str) -> list[str]:
    """The group columns of a summary frame: those before its first value column."""
    return frame.columns[: frame.columns.index(before)]


def signed(x: float, _pos=None) -> str:
    return minus(f"{x:,.0f}") if abs(x) >= 10 or float(x).is_integer() else minus(f"{x:,.1f}")
