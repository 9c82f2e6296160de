"""The figures of comparisons: a paired difference with its interval per comparison, a tournament's payoff
matrix, players' strength against their speed. Summary frames in, Figures out."""

from __future__ import annotations

import textwrap

import numpy as np
import polars as pl
from matplotlib.axes import Axes
from matplotlib.colors import TwoSlopeNorm
from matplotlib.figure import Figure

from .style import UNIT, axes, ci_label, finish, interval_text, num, zero_line

# ---------------------------------------------------------------------------------------------------------------
# comparisons


def paired_difference(summary: pl.DataFrame, *, label: str = "candidate", baseline: str | None = None,
                      ax: Axes | None = None, caption: str | None = None, title: str | None = None) -> Figure:
    """Paired (duplicate-deal) mean difference in fish per deal, candidate minus baseline, with its 95% CI, one
    row per candidate (columns ``label``, ``mean_difference``, ``ci_low``, ``ci_high``; ``p_holm`` or
    ``p_value`` are written beside the interval when present). Green: better than the baseline; red: worse;
    grey: the interval holds 0. Rows of :meth:`reversis_sim.duplicate.CompareResult.summary` fit as they are
    (``pl.DataFrame([r.summary() for r in results])``), and so does its ``by_rotation`` frame with
    ``label="seat"``."""
    fig, ax = axes(ax, (9, 1.6 + 0.55 * max(summary.height, 1)))
    rows = summary.to_dicts()
    y = np.arange(len(rows))[::-1]
    zero_line(ax, vertical=True)
    for yi, r in zip(y, rows):
        m, lo, hi = r["mean_difference"], r["ci_low"], r["ci_high"]
        if m is None or lo is None or hi is None or not np.isfinite([m, lo, hi]).all():
            ax.annotate("no interval: too few matches for a reliable one", (0, yi), xytext=(6, 0),
                        textcoords="offset points", va="center", fontsize=8, color="0.45", style="italic")
            continue
        color = "#009E73" if lo > 0 else "#D55E00" if hi < 0 else "0.45"
        ax.errorbar(m, yi, xerr=[[m - lo], [hi - m]], fmt="o", ms=7, capsize=5, lw=1.8, color=color)
        p = r.get("p_holm", r.get("p_value"))
        p_text = "" if p is None or not np.isfinite(p) else f"   p{'(Holm)' if 'p_holm' in r else ''} = {p:.2g}"
        ax.annotate(interval_text(m, lo, hi, " ") + p_text, (hi, yi), xytext=(6, 0),
                    textcoords="offset points", va="center", fontsize=8)
    ax.set_yticks(y, ["\n".join(textwrap.wrap(str(r[label]).replace(",", ", "), 28)) for r in rows])
    ax.set_ylim(-0.7, len(rows) - 0.3)
    lo, hi = ax.get_xlim()
    ax.set_xlim(lo, hi + 0.35 * (hi - lo))
    ax.set_xlabel(f"difference in {UNIT}: candidate − {baseline or 'baseline'}"
                  f"{ci_label(summary['ci_low'].to_numpy(), summary['ci_high'].to_numpy())}")
    ax.set_ylabel(label)
    ax.grid(axis="x", alpha=0.3)
    return finish(fig, ax, title or f"Paired comparison against {baseline or 'the baseline'}", caption)


def payoff_heatmap(matrix: pl.DataFrame, *, row: str = "row_policy", column: str = "column_policy",
                   value: str = "mean", ax: Axes | None = None, caption: str | None = None,
                   title: str | None = None) -> Figure:
    """A policy × policy payoff matrix: the ``value`` (fish per deal won by the row policy against the column
    policy) in each cell, on a diverging scale centred on 0; the cell text adds ± the half-width of the 95% CI
    when the frame has ``ci_low`` and ``ci_high``. One frame row per (row policy, column policy)."""
    rows = matrix[row].unique(maintain_order=True).to_list()
    cols = matrix[column].unique(maintain_order=True).to_list()
    grid = np.full((len(rows), len(cols)), np.nan)
    half = np.full_like(grid, np.nan)
    has_ci = {"ci_low", "ci_high"} <= set(matrix.columns)
    for r in matrix.iter_rows(named=True):
        i, j = rows.index(r[row]), cols.index(r[column])
        grid[i, j] = r[value]
        if has_ci and r["ci_low"] is not None:
            half[i, j] = (r["ci_high"] - r["ci_low"]) / 2
    size = (2.5 + 1.3 * len(cols), 1.8 + 0.75 * len(rows))
    fig, ax = axes(ax, (max(size[0], 6), max(size[1], 4)))
    span = np.nanmax(np.abs(grid)) if np.isfinite(grid).any() else 1.0
    span = span or 1.0
    image = ax.imshow(grid, cmap="RdBu", norm=TwoSlopeNorm(0, -span, span), aspect="auto")
    for i in range(len(rows)):
        for j in range(len(cols)):
            if np.isnan(grid[i, j]):
                ax.text(j, i, "—", ha="center", va="center", color="0.4")
                continue
            text = num(grid[i, j], 2) + ("" if np.isnan(half[i, j]) else f"\n± {half[i, j]:.2f}")
            dark = abs(grid[i, j]) > 0.6 * span
            ax.text(j, i, text, ha="center", va="center", fontsize=8, color="white" if dark else "black")
    ax.set_xticks(range(len(cols)), ["\n".join(textwrap.wrap(str(c).replace(",", ", "), 14)) for c in cols],
                  fontsize=8)
    ax.set_yticks(range(len(rows)), ["\n".join(textwrap.wrap(str(r).replace(",", ", "), 18)) for r in rows],
                  fontsize=8)
    ax.set_xlabel(f"opponents' policy ({column})")
    ax.set_ylabel(f"policy ({row})")
    fig.colorbar(image, ax=ax, label=f"{UNIT} won by the row policy")
    return finish(fig, ax, title or "Payoff matrix: fish per deal, row policy against column policy", caption)


def strength_speed(players: pl.DataFrame, *, baseline: str = "tuned", ax: Axes | None = None,
                   caption: str | None = None, title: str | None = None, connect: bool = False) -> Figure:
    """What strength costs: each player's duplicate gain over ``baseline`` (``gain``, ``gain_low``,
    ``gain_high``: fish per deal, 95% CI) against its speed (``deals_per_s``, a log axis), one point per
    ``player``; a ``route`` column, where present, colours the points by how the player was made. ``connect``:
    the points of a route joined in the frame's order (a curve: one setting by its effort)."""
    fig, ax = axes(ax, (9, 5.5))
    zero_line(ax)
    routes = players["route"].to_list() if "route" in players.columns else [None] * players.height
    palette = ["#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "0.45"]
    colors = {r: palette[i % len(palette)] for i, r in enumerate(dict.fromkeys(routes))}
    shown = set()
    for r, route in zip(players.iter_rows(named=True), routes):
        m, lo, hi, x = r["gain"], r["gain_low"], r["gain_high"], r["deals_per_s"]
        label = route if route is not None and route not in shown else None
        shown.add(route)
        ax.errorbar(x, m, yerr=[[m - lo], [hi - m]], fmt="o", ms=6, capsize=4, lw=1.5, color=colors[route],
                    label=label)
        ax.annotate(str(r["player"]), (x, m), xytext=(6, 3), textcoords="offset points", fontsize=8)
    if connect:
        for route in dict.fromkeys(routes):
            xy = [(r["deals_per_s"], r["gain"]) for r, x in zip(players.iter_rows(named=True), routes) if x == route]
            ax.plot(*zip(*xy), "-", lw=1, alpha=0.6, color=colors[route])
    ax.set_xscale("log")
    lo, hi = ax.get_xlim()
    ax.set_xlim(lo, hi * 4)  # room for the names
    ax.set_xlabel("deals per second, one thread (log scale)")
    ax.set_ylabel(f"{UNIT}: gain over {baseline} (duplicate, 95% CI)")
    ax.grid(alpha=0.3)
    if any(route is not None for route in routes):
        ax.legend(loc="lower left", fontsize=8)
    return finish(fig, ax, title or f"Strength against speed: gain over {baseline} and deals per second", caption)
