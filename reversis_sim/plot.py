"""Figures: summary frames in, matplotlib Figures out (issue 6).

Each function draws one figure from a summary frame of :mod:`reversis_sim.analysis` and computes nothing: the
numbers (means, intervals, shares) are in the frame, the function only lays them out. Each takes an optional
``ax`` (draw into an existing Axes, e.g. a panel of a larger figure) and a ``caption`` (a line of small print
under the figure, normally :func:`run_caption` of the run's manifest), and returns the Figure.

Figures are built on :class:`matplotlib.figure.Figure` with the Agg canvas, never through ``pyplot``: nothing is
registered in pyplot's global figure list, nothing is ever shown, and importing this module does not change the
backend of a notebook. A Figure returned here displays in Jupyter like any other.

:func:`write_figures` builds every figure of a run folder into ``<run>/figures/``.
"""

from __future__ import annotations

import textwrap
from collections.abc import Mapping, Sequence
from pathlib import Path

import numpy as np
import polars as pl
from matplotlib import rc_context
from matplotlib.axes import Axes
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.colors import TwoSlopeNorm
from matplotlib.figure import Figure
from matplotlib.layout_engine import ConstrainedLayoutEngine
from matplotlib.ticker import FuncFormatter, LogLocator, NullFormatter, PercentFormatter

__all__ = [
    "FIGURES",
    "convergence",
    "expected_fish",
    "fish_histogram",
    "paired_difference",
    "payoff_heatmap",
    "position_name",
    "quinola_cost",
    "quinola_fate",
    "reversis_rates",
    "run_caption",
    "seat_name",
    "write_figures",
]

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


def _minus(text: str) -> str:
    return text.replace("-", "−")


def _interval_text(mean: float, low: float, high: float, sep: str = "\n") -> str:
    """``mean`` and ``[low, high]`` with as many decimals as the interval's width deserves (two significant
    digits of the half-width, at most 3 decimals)."""
    half = (high - low) / 2 if np.isfinite(low) and np.isfinite(high) else np.nan
    digits = 1 if not np.isfinite(half) or half <= 0 else int(min(3, max(0, 1 - np.floor(np.log10(half)))))
    if not np.isfinite(half):
        return _num(mean, digits)
    return f"{_num(mean, digits)}{sep}[{_num(low, digits)}, {_num(high, digits)}]"


def _num(x: float, digits: int = 1) -> str:
    """A number for an annotation: thousands separators, a true minus sign."""
    return _minus(f"{x:,.{digits}f}")


def run_caption(manifest: Mapping) -> str:
    """One line describing a run for the small print under its figures: rules, deals, matches, seed, seats and
    the version that played it.

    >>> run_caption({"rules": "parlett", "seed": 1, "n_matches": 2, "match_deals": 12, "seats": ["random"] * 4})
    'parlett rules · 24 deals (2 matches of 12) · seed 1 · all seats random'
    """
    n_matches, per = int(manifest["n_matches"]), int(manifest["match_deals"])
    seats = list(manifest.get("seats", []))
    if seats and len(set(seats)) == 1:
        who = f"all seats {seats[0]}"
    else:
        who = "seats " + ", ".join(f"{i}: {s}" for i, s in enumerate(seats))
    parts = [f"{manifest['rules']} rules", f"{n_matches * per:,} deals ({n_matches:,} matches of {per})",
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
    """``seat 0`` with its policy spec underneath (wrapped at commas when long)."""
    text = f"seat {int(seat)}"
    if policy:
        text += "\n" + "\n".join(textwrap.wrap(str(policy).replace(",", ", "), 18))
    return text


def _group_label(row: Mapping, cols: Sequence[str]) -> str:
    """Legend text for one group of a summary frame."""
    if "seat" in cols:
        return f"seat {row['seat']}" + (f" ({row['policy']})" if row.get("policy") else "")
    if "position" in cols:
        return f"{row['position']}: " + position_name(row["position"]).replace("\n", " ")
    return " · ".join(str(row[c]) for c in cols)


# ---------------------------------------------------------------------------------------------------------------
# figure plumbing


def _axes(ax: Axes | None, size: tuple[float, float]) -> tuple[Figure, Axes]:
    """The Axes to draw into: the caller's, or a new figure's single Axes (Agg canvas, constrained layout)."""
    if ax is not None:
        return ax.figure, ax
    fig = Figure(figsize=size, layout="constrained")
    FigureCanvasAgg(fig)
    return fig, fig.add_subplot()


def _finish(fig: Figure, ax: Axes, title: str, caption: str | None) -> Figure:
    """Title the Axes and put the caption, once, under the figure (keeping the layout clear of it)."""
    has_note = any(t.get_gid() == NOTE_GID for t in ax.texts)
    ax.set_title(title, loc="left", fontsize=11, fontweight="bold", pad=14 if has_note else 6)
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


def _note(ax: Axes, text: str) -> None:
    """Small print between the title and the Axes: how to read the figure."""
    ax.text(0.0, 1.012, text, transform=ax.transAxes, ha="left", va="bottom", fontsize=7, color="0.35",
            gid=NOTE_GID)


def _zero_line(ax: Axes, vertical: bool = False) -> None:
    (ax.axvline if vertical else ax.axhline)(0, color="0.5", lw=0.8, ls="--", zorder=0)


def _group_cols(frame: pl.DataFrame, before: str) -> list[str]:
    """The group columns of a summary frame: those before its first value column."""
    return frame.columns[: frame.columns.index(before)]


def _signed(x: float, _pos=None) -> str:
    return _minus(f"{x:,.0f}") if abs(x) >= 10 or float(x).is_integer() else _minus(f"{x:,.1f}")


# ---------------------------------------------------------------------------------------------------------------
# expected fish per deal


def expected_fish(summary: pl.DataFrame, *, ax: Axes | None = None, caption: str | None = None,
                  title: str | None = None) -> Figure:
    """Expected fish per deal per group with 95% confidence intervals (a :func:`~reversis_sim.analysis.fish_by`
    frame).

    The group is read from the frame: ``seat`` (with its ``policy`` if the frame has one, e.g.
    ``fish_by(lf, ["seat", "policy"])``), ``position`` (relative to the dealer), or any other key, e.g. ``policy``.
    """
    keys = _group_cols(summary, "mean")
    fig, ax = _axes(ax, (8, 5))
    rows = summary.to_dicts()
    x = np.arange(len(rows))
    if "seat" in keys:
        labels = [seat_name(r["seat"], r.get("policy")) for r in rows]
        xlabel, what = "seat", "seat"
    elif "position" in keys:
        labels = [f"{r['position']}\n{position_name(r['position'])}" for r in rows]
        xlabel, what = "position relative to the dealer (1 = eldest, then in the order of play)", "position"
    else:
        labels = ["\n".join(textwrap.wrap(" · ".join(str(r[k]) for k in keys).replace(",", ", "), 20))
                  for r in rows]
        xlabel = what = " and ".join(keys) or "all seats"
    mean = summary["mean"].to_numpy()
    low, high = summary["ci_low"].to_numpy(), summary["ci_high"].to_numpy()
    err = np.vstack([mean - low, high - mean])
    _zero_line(ax)
    for i in range(len(rows)):
        ax.errorbar(x[i], mean[i], yerr=err[:, i:i + 1], fmt="o", ms=7, capsize=6, lw=1.8,
                    color=COLORS[i % len(COLORS)])
        ax.annotate(_interval_text(mean[i], low[i], high[i]), (x[i], mean[i]),
                    xytext=(10, 0), textcoords="offset points", va="center", fontsize=8)
    ax.set_xticks(x, labels)
    ax.set_xlim(-0.6, len(rows) - 0.1)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(f"expected {UNIT} (95% CI)")
    ax.yaxis.set_major_formatter(FuncFormatter(_signed))
    ax.grid(axis="y", alpha=0.3)
    units = summary["n_units"].min() if "n_units" in summary.columns and summary.height else None
    note = f"; intervals over {units:,} matches" if units else ""
    _note(ax, f"points: mean; bars: 95% CI{note}")
    return _finish(fig, ax, title or f"Expected fish per deal by {what}", caption)


# ---------------------------------------------------------------------------------------------------------------
# distribution


def fish_histogram(dist: pl.DataFrame, *, ax: Axes | None = None, caption: str | None = None,
                   title: str | None = None) -> Figure:
    """Distribution of fish per deal per group, from :func:`~reversis_sim.analysis.figures_data.fish_distribution`:
    the share of deals in each bin on a log scale, so that the rare, large payments stay visible. Tail bins (rows
    beyond the range) are hatched and their shares written in the corner."""
    keys = _group_cols(dist, "bin")
    fig, ax = _axes(ax, (10, 5.5))
    groups = dist.partition_by(keys, maintain_order=True) if keys else [dist]
    bins = groups[0]
    n_bins = bins.height
    edges = np.arange(n_bins + 1) - 0.5
    notes = []
    for i, g in enumerate(groups):
        color = COLORS[i % len(COLORS)]
        share = g["share"].to_numpy() * 100
        label = _group_label(g.row(0, named=True), keys) if keys else "all seats"
        ax.stairs(share, edges, color=color, lw=1.6, label=f"{label} ({g['n'][0]:,} seat-deals)",
                  fill=len(groups) == 1, alpha=0.45 if len(groups) == 1 else 1.0)
        if len(groups) == 1:
            ax.stairs(share, edges, color=color, lw=1.6)
        tails = g.filter(~pl.col("in_range"))
        if tails.height:
            for t in tails.iter_rows(named=True):
                ax.bar(t["bin"], t["share"] * 100, width=1, fill=False, hatch="///", edgecolor=color, lw=0)
            below = tails.filter(pl.col("lo") == -np.inf)
            above = tails.filter(pl.col("hi") == np.inf)
            notes.append(f"{label}: {_pct(below['share'][0] * 100)} of deals below the bins, "
                         f"{_pct(above['share'][0] * 100)} above")
    positions = bins["bin"].to_numpy()
    longest = max((len(t) for t in bins["label"].to_list()), default=1)
    step = max(1, int(np.ceil(n_bins / (40 if longest <= 16 else 24))))
    ax.set_xticks(positions[::step], bins["label"].to_list()[::step], rotation=90, fontsize=7)
    ax.set_xlim(edges[0], edges[-1])
    zero = bins.filter((pl.col("lo") <= 0) & (pl.col("hi") > 0))
    if zero.height:
        ax.axvline(zero["bin"][0], color="0.5", lw=0.8, ls="--", zorder=0)
    ax.set_yscale("log")
    positive = dist.filter(pl.col("share") > 0)["share"]
    if positive.len():
        ax.set_ylim(positive.min() * 100 / 2, positive.max() * 100 * 8)  # room for the legend and the notes
    ax.yaxis.set_major_formatter(FuncFormatter(lambda v, _p: _pct(v)))
    ax.set_ylabel("share of a seat's deals (log scale)")
    doubling = {"0", "1", "2…3"} <= set(bins["label"].to_list())  # the symmetric-log bins of fish_distribution
    ax.set_xlabel(f"{UNIT} won (+) or lost (−) by one seat"
                  + (": bins double in width away from 0" if doubling else ""))
    ax.grid(axis="y", alpha=0.3, which="major")
    ax.legend(loc="upper right", fontsize=8, frameon=False)
    if notes:
        ax.text(0.01, 0.98, "\n".join(notes), transform=ax.transAxes, va="top", fontsize=8, color="0.25")
    return _finish(fig, ax, title or "Distribution of fish per deal", caption)


# ---------------------------------------------------------------------------------------------------------------
# convergence


def convergence(curve: pl.DataFrame, *, ax: Axes | None = None, caption: str | None = None,
                title: str | None = None, min_matches: int = 10, fit_decades: float = 2.0) -> Figure:
    """Running mean of fish per deal with its 95% band against the number of deals played, per group (a
    :func:`~reversis_sim.analysis.figures_data.convergence` frame).

    The first ``min_matches`` matches are not drawn: a t interval on a handful of matches is too wide to show
    anything. On a long run the vertical axis fits the last ``fit_decades`` decades of deals, where the groups
    separate; the wild early excursions then run off the top and bottom (the note says so)."""
    keys = _group_cols(curve, "n_matches")
    fig, ax = _axes(ax, (9, 5.5))
    enough = curve["n_matches"].max() or 0
    start = min(min_matches, enough)
    shown = curve.filter(pl.col("n_matches") >= start)
    groups = shown.partition_by(keys, maintain_order=True) if keys else [shown]
    _zero_line(ax)
    for i, g in enumerate(groups):
        if not g.height:
            continue
        color = COLORS[i % len(COLORS)]
        label = _group_label(g.row(0, named=True), keys) if keys else "all seats"
        x = g["n_deals"].to_numpy()
        ax.fill_between(x, g["ci_low"].to_numpy(), g["ci_high"].to_numpy(), color=color, alpha=0.15, lw=0)
        ax.plot(x, g["mean"].to_numpy(), color=color, lw=1.6, label=f"{label}: {_num(g['mean'][-1])}")
    note = f"bands: 95% CI, the match as the unit; drawn from {start} matches on"
    if shown.height:
        x_min, x_max = shown["n_deals"].min(), shown["n_deals"].max()
        late = shown.filter(pl.col("n_deals") >= x_max / 10**fit_decades)
        bounds = late.select(pl.min_horizontal("ci_low", "mean").min(), pl.max_horizontal("ci_high", "mean").max())
        low, high = bounds.row(0)
        if x_min < x_max / 10**fit_decades and low is not None and np.isfinite([low, high]).all():
            pad = 0.1 * (high - low) or 1.0
            ax.set_ylim(low - pad, high + pad)
            note += f"; y axis fits the last {fit_decades:g} decades"
    ax.set_xscale("log")  # before the locators: setting the scale resets them
    if shown.height:
        ax.set_xlim(x_min / 1.1, x_max * 1.1)
        ax.xaxis.set_major_locator(LogLocator(subs=(1.0, 2.0, 5.0) if x_max / x_min <= 1e3 else (1.0,)))
    ax.xaxis.set_minor_locator(LogLocator(subs="auto"))
    ax.xaxis.set_major_formatter(FuncFormatter(lambda v, _p: _compact(v)))
    ax.xaxis.set_minor_formatter(NullFormatter())
    ax.yaxis.set_major_formatter(FuncFormatter(_signed))
    ax.set_xlabel("deals played (log scale)")
    ax.set_ylabel(f"running mean, {UNIT}")
    ax.grid(alpha=0.3)
    ax.legend(loc="best", fontsize=8, title="final mean", title_fontsize=8)
    _note(ax, note)
    return _finish(fig, ax, title or "Convergence: running mean of fish per deal", caption)


def _compact(v: float) -> str:
    """Deal counts for a log axis: 500, 2,000, 50k, 2M."""
    if v >= 1e6:
        return f"{v / 1e6:g}M"
    if v >= 1e4:
        return f"{v / 1e3:g}k"
    return f"{v:,.0f}"


# ---------------------------------------------------------------------------------------------------------------
# the Quinola


def quinola_fate(fate: pl.DataFrame, *, ax: Axes | None = None, caption: str | None = None,
                 title: str | None = None) -> Figure:
    """What becomes of the Quinola (J♥) in its holder's hand, by the number of hearts he held at the first lead:
    stacked shares (``quinola_risk(...)["fate_by_hearts"]``; ``fate_by_position`` works too). The number of
    hands behind each bar is written above it; bars on fewer than :data:`SMALL_GROUP` hands are faded."""
    key = _group_cols(fate, "quinola_fate")[0]
    fig, ax = _axes(ax, (9, 5.5))
    levels = fate[key].unique(maintain_order=True).sort().to_list()
    x = np.arange(len(levels))
    trials = np.zeros(len(levels))
    for r in fate.iter_rows(named=True):
        trials[levels.index(r[key])] = r["trials"]
    small = trials < SMALL_GROUP
    bottom = np.zeros(len(levels))
    for name in [f for f in FATE_STYLE if f in set(fate["quinola_fate"].to_list())]:
        share = np.zeros(len(levels))
        for r in fate.filter(pl.col("quinola_fate") == name).iter_rows(named=True):
            share[levels.index(r[key])] = r["rate"] * 100
        color, text = FATE_STYLE[name]
        bars = ax.bar(x, share, bottom=bottom, color=color, label=text, width=0.75, edgecolor="white", lw=0.5)
        for j, (bar, s, b0) in enumerate(zip(bars, share, bottom)):
            if small[j]:
                bar.set_alpha(0.35)
            if s >= 6:
                ax.text(x[j], b0 + s / 2, f"{s:.0f}%", ha="center", va="center", fontsize=7,
                        color="0.2" if small[j] else "white")
        bottom += share
    for j, n in enumerate(trials):
        ax.text(x[j], 101, f"n={int(n):,}", ha="center", va="bottom", fontsize=7, color="0.5" if small[j] else "0.2")
    _note(ax, f"n: the holder's deals behind each bar; faded: fewer than {SMALL_GROUP}" if small.any()
          else "n: the holder's deals behind each bar")
    names = {"hearts_at_lead": "hearts held by the Quinola's holder at the first lead (the J♥ included)",
             "position": "holder's position relative to the dealer (0 = dealer, 1 = eldest)"}
    ticks = [position_name(v).replace("\n", " ") if key == "position" else str(v) for v in levels]
    ax.set_xticks(x, ticks)
    ax.set_xlabel(names.get(key, key))
    ax.set_ylabel("share of the holder's deals")
    ax.yaxis.set_major_formatter(PercentFormatter(decimals=0))
    ax.set_ylim(0, 112)
    ax.set_yticks(np.arange(0, 101, 20))
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.14), ncol=2, fontsize=8, frameon=False)
    by = {"hearts_at_lead": "his heart length", "position": "his position"}.get(key, key)
    return _finish(fig, ax, title or f"The Quinola's fate for its holder, by {by}", caption)


def quinola_cost(cost: pl.DataFrame, *, ax: Axes | None = None, caption: str | None = None,
                 title: str | None = None) -> Figure:
    """What the Quinola moves to (+) or from (−) its holder per deal, overall and by its fate, with 95% CIs
    (``quinola_risk(...)["cost"]``: the Quinola side payments, the pool won, the pool doubling paid)."""
    fig, ax = _axes(ax, (9, 4.5))
    order = {"all": 0, "dumped": 1, "forced": 2, "led": 3, "talon": 4}
    rows = sorted(cost.to_dicts(), key=lambda r: order.get(r["fate"], 9))
    y = np.arange(len(rows))[::-1]
    _zero_line(ax, vertical=True)
    for yi, r in zip(y, rows):
        color = "0.2" if r["fate"] == "all" else FATE_STYLE.get(r["fate"], ("0.2", ""))[0]
        ax.errorbar(r["mean"], yi, xerr=[[r["mean"] - r["ci_low"]], [r["ci_high"] - r["mean"]]], fmt="o", ms=7,
                    capsize=5, lw=1.8, color=color)
        ax.annotate(_interval_text(r["mean"], r["ci_low"], r["ci_high"], "  "), (r["ci_high"], yi),
                    xytext=(6, 5), textcoords="offset points", fontsize=8, va="bottom", ha="left")
    labels = [("any fate" if r["fate"] == "all" else r["fate"]) + f"\n{r['n_deals']:,} deals" for r in rows]
    ax.set_yticks(y, labels)
    ax.set_ylim(-0.7, len(rows) - 0.3)
    lo, hi = ax.get_xlim()
    ax.set_xlim(lo, hi + 0.25 * (hi - lo))  # room for the annotations
    ax.xaxis.set_major_formatter(FuncFormatter(_signed))
    ax.set_xlabel(f"{UNIT} for the holder: Quinola payments and pool (95% CI)")
    ax.set_ylabel("the Quinola's fate (deals it happened in)")
    ax.grid(axis="x", alpha=0.3)
    return _finish(fig, ax, title or "What the Quinola brings its holder, by fate", caption)


# ---------------------------------------------------------------------------------------------------------------
# reversis and espagnolette

RATE_ROWS = (  # event, label, group
    ("reversis_committed", "committed\n(per deal and seat)", "Reversis"),
    ("reversis_made", "made\n(per commitment)", "Reversis"),
    ("reversis_broken", "broken\n(per commitment)", "Reversis"),
    ("espagnolette_eligible", "eligible hand\n(per deal and seat)", "Espagnolette"),
    ("espagnolette_declared", "declared\n(per eligible hand)", "Espagnolette"),
    ("espagnolette_made", "made, no trick taken\n(per declaration)", "Espagnolette"),
)

NO_TRIALS = {  # event -> why its rate has no denominator
    "reversis_made": "no reversis was committed",
    "reversis_broken": "no reversis was committed",
    "espagnolette_declared": "no hand was eligible",
    "espagnolette_made": "no espagnolette was declared",
}


def reversis_rates(rates: pl.DataFrame, *, ax: Axes | None = None, caption: str | None = None,
                   title: str | None = None) -> Figure:
    """Reversis and espagnolette: how often they are attempted and how often they succeed, with Wilson 95%
    intervals (a :func:`~reversis_sim.analysis.reversis_rates` frame). Each rate is written out with its count;
    a rate with no trials (e.g. no reversis was ever committed) reads "no events" instead of a point."""
    keys = [c for c in _group_cols(rates, "event")]
    fig, ax = _axes(ax, (10, 6))
    groups = rates.partition_by(keys, maintain_order=True) if keys else [rates]
    n_g = len(groups)
    offsets = ((n_g - 1) / 2 - np.arange(n_g)) * (0.6 / max(n_g, 1))  # first group on top, as in the legend
    y_of = {event: len(RATE_ROWS) - 1 - i for i, (event, _, _) in enumerate(RATE_ROWS)}
    for gi, g in enumerate(groups):
        color = COLORS[gi % len(COLORS)]
        label = _group_label(g.row(0, named=True), keys) if keys else "all seats"
        by_event = {r["event"]: r for r in g.iter_rows(named=True)}
        first = True
        for event, y in y_of.items():
            r = by_event.get(event)
            yy = y + offsets[gi]
            if r is None or r["trials"] == 0 or r["rate"] is None or np.isnan(r["rate"]):
                ax.text(0.5, yy, f"no events: {NO_TRIALS.get(event, 'nothing to count')}", va="center",
                        fontsize=8, color="0.45", style="italic")
                ax.text(1.02, yy, "—", transform=ax.get_yaxis_transform(), va="center", fontsize=8, color=color)
                continue
            rate, lo, hi = r["rate"] * 100, r["ci_low"] * 100, r["ci_high"] * 100
            ax.errorbar(rate, yy, xerr=[[rate - lo], [hi - rate]], fmt="o", ms=6, capsize=4, color=color,
                        label=label if first else None)
            first = False
            ax.text(1.02, yy, f"{r['successes']:,} / {r['trials']:,} = {_pct(rate)} [{_pct(lo)}, {_pct(hi)}]",
                    transform=ax.get_yaxis_transform(), va="center", fontsize=8, color=color)
    ax.text(1.02, len(RATE_ROWS) - 0.45, "successes / trials = rate [95% CI]", transform=ax.get_yaxis_transform(),
            va="bottom", fontsize=8, fontweight="bold", color="0.25")
    ax.axhline(2.5, color="0.6", lw=0.8)
    ax.set_yticks(list(y_of.values()), [lab for _, lab, _ in RATE_ROWS], fontsize=8)
    for name, y in (("Reversis", 5.45), ("Espagnolette", 2.45)):
        ax.text(-0.01, y, name, transform=ax.get_yaxis_transform(), ha="right", va="bottom", fontsize=9,
                fontweight="bold")
    ax.set_ylim(-0.6, len(RATE_ROWS) - 0.25)
    ax.set_xlim(-2, 102)
    ax.xaxis.set_major_formatter(PercentFormatter(decimals=0))
    ax.set_xlabel("rate (Wilson 95% CI); the denominator of each rate is under its name")
    ax.set_ylabel("event")
    ax.grid(axis="x", alpha=0.3)
    if n_g > 1 or keys:
        ax.legend(loc="upper right", fontsize=8, frameon=True)
    return _finish(fig, ax, title or "Reversis and espagnolette: attempts and successes", caption)


def _pct(x: float) -> str:
    """A percentage (``x`` already in %) with three significant digits, never in exponent form, so that rare
    events stay readable (0.0082%)."""
    if x == 0 or not np.isfinite(x):
        return "0%" if x == 0 else "—"
    digits = max(0, 2 - int(np.floor(np.log10(abs(x)))))
    text = f"{x:.{digits}f}"
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return text + "%"


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
    fig, ax = _axes(ax, (9, 1.6 + 0.55 * max(summary.height, 1)))
    rows = summary.to_dicts()
    y = np.arange(len(rows))[::-1]
    _zero_line(ax, vertical=True)
    for yi, r in zip(y, rows):
        m, lo, hi = r["mean_difference"], r["ci_low"], r["ci_high"]
        if m is None or lo is None or hi is None or not np.isfinite([m, lo, hi]).all():
            ax.annotate("no interval (fewer than two matches?)", (0, yi), xytext=(6, 0), textcoords="offset points",
                        va="center", fontsize=8, color="0.45", style="italic")
            continue
        color = "#009E73" if lo > 0 else "#D55E00" if hi < 0 else "0.45"
        ax.errorbar(m, yi, xerr=[[m - lo], [hi - m]], fmt="o", ms=7, capsize=5, lw=1.8, color=color)
        p = r.get("p_holm", r.get("p_value"))
        p_text = "" if p is None or not np.isfinite(p) else f"   p{'(Holm)' if 'p_holm' in r else ''} = {p:.2g}"
        ax.annotate(_interval_text(m, lo, hi, " ") + p_text, (hi, yi), xytext=(6, 0),
                    textcoords="offset points", va="center", fontsize=8)
    ax.set_yticks(y, ["\n".join(textwrap.wrap(str(r[label]).replace(",", ", "), 28)) for r in rows])
    ax.set_ylim(-0.7, len(rows) - 0.3)
    lo, hi = ax.get_xlim()
    ax.set_xlim(lo, hi + 0.35 * (hi - lo))
    ax.set_xlabel(f"difference in {UNIT}: candidate − {baseline or 'baseline'} (95% CI)")
    ax.set_ylabel(label)
    ax.grid(axis="x", alpha=0.3)
    return _finish(fig, ax, title or f"Paired comparison against {baseline or 'the baseline'}", caption)


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
    fig, ax = _axes(ax, (max(size[0], 6), max(size[1], 4)))
    span = np.nanmax(np.abs(grid)) if np.isfinite(grid).any() else 1.0
    span = span or 1.0
    image = ax.imshow(grid, cmap="RdBu", norm=TwoSlopeNorm(0, -span, span), aspect="auto")
    for i in range(len(rows)):
        for j in range(len(cols)):
            if np.isnan(grid[i, j]):
                ax.text(j, i, "—", ha="center", va="center", color="0.4")
                continue
            text = _num(grid[i, j], 2) + ("" if np.isnan(half[i, j]) else f"\n± {half[i, j]:.2f}")
            dark = abs(grid[i, j]) > 0.6 * span
            ax.text(j, i, text, ha="center", va="center", fontsize=8, color="white" if dark else "black")
    ax.set_xticks(range(len(cols)), ["\n".join(textwrap.wrap(str(c).replace(",", ", "), 14)) for c in cols],
                  fontsize=8)
    ax.set_yticks(range(len(rows)), ["\n".join(textwrap.wrap(str(r).replace(",", ", "), 18)) for r in rows],
                  fontsize=8)
    ax.set_xlabel(f"opponents' policy ({column})")
    ax.set_ylabel(f"policy ({row})")
    fig.colorbar(image, ax=ax, label=f"{UNIT} won by the row policy")
    return _finish(fig, ax, title or "Payoff matrix: fish per deal, row policy against column policy", caption)


# ---------------------------------------------------------------------------------------------------------------
# a run folder's figures


def _run_figures(lf, caption: str):
    """(file stem, thunk building the Figure) for every figure of a run, in order; each thunk aggregates lazily
    only what its figure needs."""
    from .analysis import fish_by, quinola_risk
    from .analysis import reversis_rates as rates_table
    from .analysis.figures_data import convergence as convergence_data
    from .analysis.figures_data import fish_distribution

    quinola: dict = {}

    def q() -> dict:
        if not quinola:
            quinola.update(quinola_risk(lf))
        return quinola

    return [
        ("fish_by_seat", lambda: expected_fish(fish_by(lf, ["seat", "policy"]), caption=caption)),
        ("fish_by_position", lambda: expected_fish(fish_by(lf, "position"), caption=caption)),
        ("fish_by_policy", lambda: expected_fish(fish_by(lf, "policy"), caption=caption)),
        ("fish_distribution", lambda: fish_histogram(fish_distribution(lf, "policy"), caption=caption)),
        ("convergence", lambda: convergence(convergence_data(lf, ["seat", "policy"]), caption=caption)),
        ("quinola_fate_by_hearts", lambda: quinola_fate(q()["fate_by_hearts"], caption=caption)),
        ("quinola_cost", lambda: quinola_cost(q()["cost"], caption=caption)),
        ("reversis_rates", lambda: reversis_rates(rates_table(lf, "policy"), caption=caption)),
    ]


FIGURES = ("fish_by_seat", "fish_by_position", "fish_by_policy", "fish_distribution", "convergence",
           "quinola_fate_by_hearts", "quinola_cost", "reversis_rates")
"""File stems :func:`write_figures` writes, in order."""

# reproducible files: no time stamps, and SVG element ids from a fixed salt instead of a random one
_METADATA = {"svg": {"Date": None}, "pdf": {"CreationDate": None}}
_RC = {"svg.hashsalt": "reversis_sim"}


def write_figures(run_dir: str | Path, formats: Sequence[str] = ("png", "svg"), *, dpi: int = 150) -> list[Path]:
    """Build every figure of a run folder into ``<run_dir>/figures/<name>.<format>`` (creating the folder) and
    return the paths written, in :data:`FIGURES` order, each figure in every format.

    Every table is aggregated from the run's Parquet parts one batch of parts at a time (only the needed columns
    are read; :class:`~reversis_sim.analysis.batches.Batches`), and each figure is released once saved, so the
    memory needed is the same for 1M deals as for 20M.
    Raises :class:`~reversis_sim.record.RunError` if ``run_dir`` is not a complete run folder.
    """
    from .analysis import load_run

    run_dir = Path(run_dir)
    manifest, lf = load_run(run_dir, batched=True)
    lf = lf.with_columns(pl.col("policy").cast(pl.String), pl.col("quinola_fate").cast(pl.String))
    out = run_dir / "figures"
    out.mkdir(parents=True, exist_ok=True)
    caption = run_caption(manifest)
    paths = []
    for name, build in _run_figures(lf, caption):
        fig = build()
        for fmt in formats:
            path = out / f"{name}.{fmt}"
            with rc_context(_RC):
                fig.savefig(path, dpi=dpi, metadata=_METADATA.get(fmt))
            paths.append(path)
        fig.clear()
        del fig
    return paths
