"""Outcomes by the hand dealt: expected fish and the Quinola's cost and fate as curves over a feature of
the hand, with their 95% intervals. Summary frames of :mod:`reversis_sim.analysis.hands` in, Figures out."""

from __future__ import annotations

import numpy as np
import polars as pl
from matplotlib.figure import Figure
from matplotlib.ticker import FuncFormatter, MaxNLocator, PercentFormatter

from .style import COLORS, FATE_STYLE, SMALL_GROUP, UNIT, ci_label, finish, note, signed, zero_line


def your_hand(fish: pl.DataFrame, quinola: pl.DataFrame, cost: pl.DataFrame, feature: str, *,
              caption: str | None = None, title: str | None = None, conditional: str | None = None) -> Figure:
    """Three panels over the values of ``feature``: every seat's expected fish per deal
    (:func:`~reversis_sim.analysis.hands.by_hand`), the J♥ holder's expected ``quinola_net``
    (:func:`~reversis_sim.analysis.hands.quinola_cost_by_hand`) and the shares of the J♥'s fates for its holder
    (:func:`~reversis_sim.analysis.hands.quinola_by_hand`), with their 95% intervals where they are printed and the
    number of hands behind each point. ``conditional``: the constraint the run's deals met (said on the figure: its
    numbers are conditional on it)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    fish = fish.filter(pl.col("n_deals") >= SMALL_GROUP)  # a handful of hands: no curve point
    quinola = quinola.filter(pl.col("trials") >= SMALL_GROUP)
    cost = cost.filter(pl.col("holders") >= SMALL_GROUP)
    fig = Figure(figsize=(13, 4.6), layout="constrained")
    FigureCanvasAgg(fig)
    left, mid, right = fig.subplots(1, 3)
    label = feature.replace("_", " ")

    _curve(left, fish, feature, ("mean", "ci_low", "ci_high"), "n_deals", COLORS[0], f"{label} in the hand dealt",
           f"{UNIT} of the seat", "every seat")
    _curve(mid, cost, feature, ("cost_mean", "cost_ci_low", "cost_ci_high"), "holders", COLORS[1],
           f"{label} in the J♥ holder's hand", "J♥ money to its holder, fish per deal",
           "the Quinola's holder: its cost")

    for fate in ("dumped", "forced", "led", "talon"):
        rows = quinola.filter(pl.col("fate") == fate).sort(feature)
        if rows.height == 0:
            continue
        color, text = FATE_STYLE[fate]
        x, r, lo, hi = (rows[c].to_numpy().astype(float) for c in (feature, "rate", "ci_low", "ci_high"))
        right.fill_between(x, lo, hi, color=color, alpha=0.15, lw=0)
        right.plot(x, r, "o-", ms=4, color=color, label=text.split(":")[0])
    right.set_ylim(0, 1)
    right.yaxis.set_major_formatter(PercentFormatter(1.0))
    right.set_xlabel(f"{label} in the J♥ holder's hand")
    right.set_ylabel("share of the holder's deals (95% CI)")
    right.legend(fontsize=7.5, loc="best")
    right.grid(axis="y", alpha=0.3)
    right.set_title("the Quinola's holder: its fate", loc="left", fontsize=9)

    for ax in (left, mid, right):
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    note(left, f"numbers under the points: hands behind them\n(values seen fewer than {SMALL_GROUP} times left out)")
    if conditional:
        caption = f"conditional on the deals meeting {conditional} · {caption}" if caption else (
            f"conditional on the deals meeting {conditional}")
    return finish(fig, left, title or f"Your hand: outcomes by {label}", caption)


def _curve(ax, frame: pl.DataFrame, feature: str, columns: tuple[str, str, str], counts: str, color: str,
           xlabel: str, ylabel: str, title: str) -> None:
    """A mean with its 95% interval over the values of ``feature`` (an interval that could not be computed or was
    refused, too few matches, drawn as the point alone; the axis claims intervals only where one is drawn), and the
    hands behind each point written under the zero line."""
    x, m, lo, hi = (frame[c].to_numpy().astype(float) for c in (feature, *columns))
    ylabel += ci_label(lo, hi)
    lo, hi = np.where(np.isfinite(lo), lo, m), np.where(np.isfinite(hi), hi, m)
    zero_line(ax)
    ax.errorbar(x, m, yerr=[m - lo, hi - m], fmt="o-", ms=5, capsize=3, color=color)
    for xx, n in zip(x, frame[counts].to_list()):
        ax.annotate(_count(n), (xx, 0), xytext=(0, -14), textcoords="offset points", ha="center", va="top",
                    fontsize=6.5, color="0.4", annotation_clip=False)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.yaxis.set_major_formatter(FuncFormatter(signed))
    ax.grid(axis="y", alpha=0.3)
    ax.set_title(title, loc="left", fontsize=9)


def _count(n: int) -> str:
    """A count for a label under a point: 248, 3,529, 55k."""
    return f"{n / 1000:.0f}k" if n >= 10_000 else f"{n:,}"
