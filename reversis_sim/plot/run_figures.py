"""The figures of a run: expected fish per deal by group, the distribution of fish per deal, the convergence of the
running mean, the Quinola's fate and cost, reversis and espagnolette rates. Summary frames in, Figures out."""

from __future__ import annotations

import textwrap

import numpy as np
import polars as pl
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.ticker import FuncFormatter, LogLocator, NullFormatter, PercentFormatter

from ..analysis.figures_data import EVERY_DEAL
from ..policies import display_name
from .style import (
    COLORS,
    FATE_STYLE,
    SMALL_GROUP,
    UNIT,
    axes,
    ci_label,
    finish,
    group_cols,
    group_label,
    interval_text,
    note,
    num,
    position_name,
    refused_note,
    seat_name,
    signed,
    zero_line,
)

# ---------------------------------------------------------------------------------------------------------------
# expected fish per deal


def expected_fish(summary: pl.DataFrame, *, ax: Axes | None = None, caption: str | None = None,
                  title: str | None = None, pool: str = "pool") -> Figure:
    """Expected fish per deal per group with 95% confidence intervals where they may be printed (a
    :func:`~reversis_sim.analysis.fish_by` frame; a refused interval, NaN, draws no bar and the note says why).
    ``pool``: what the rules call the common stake (:func:`reversis_sim.game.words.pool_name`).

    The group is read from the frame: ``seat`` (with its ``policy`` if the frame has one, e.g.
    ``fish_by(lf, ["seat", "policy"])``), ``position`` (relative to the dealer), or any other key, e.g. ``policy``.
    """
    keys = group_cols(summary, "mean")
    rows = summary.to_dicts()
    # positions of several tables side by side (fish_by(lf, ["policy", "position"])): coloured by the table, with a
    # legend, the figure as wide as its points need
    tables = [k for k in keys if k not in ("seat", "position")] if "position" in keys else []
    fig, ax = axes(ax, (max(8.0, 0.75 * len(rows) + 2.0), 5))
    x = np.arange(len(rows))
    if "seat" in keys:
        labels = [seat_name(r["seat"], r.get("policy")) for r in rows]
        xlabel, what = "seat", "seat"
    elif "position" in keys:
        labels = [f"{r['position']}\n{position_name(r['position'])}" for r in rows]
        xlabel, what = "position relative to the dealer (1 = eldest, then in the order of play)", "position"
    else:
        labels = ["\n".join(textwrap.wrap(" · ".join(display_name(r[k]) if k == "policy" else str(r[k])
                                                    for k in keys).replace(",", ", "), 20)) for r in rows]
        xlabel = what = " and ".join(keys) or "all seats"
    group = [" · ".join(str(r[k]) for k in tables) for r in rows] if tables else [str(i) for i in range(len(rows))]
    colour = {g: COLORS[i % len(COLORS)] for i, g in enumerate(dict.fromkeys(group))}
    mean = summary["mean"].to_numpy()
    low, high = summary["ci_low"].to_numpy(), summary["ci_high"].to_numpy()
    err = np.vstack([mean - low, high - mean])
    zero_line(ax)
    drawn = np.isfinite(low) & np.isfinite(high)
    shown: set[str] = set()
    for i in range(len(rows)):
        label = group[i] if tables and group[i] not in shown else None
        shown.add(group[i])
        ax.errorbar(x[i], mean[i], yerr=err[:, i:i + 1] if drawn[i] else None, fmt="o", ms=7, capsize=6, lw=1.8,
                    color=colour[group[i]], label=label)
        ax.annotate(interval_text(mean[i], low[i], high[i]), (x[i], mean[i]),
                    xytext=(10, 0), textcoords="offset points", va="center", fontsize=8)
    if tables:
        ax.legend(fontsize=8, loc="best")
    ax.set_xticks(x, labels)
    ax.set_xlim(-0.6, len(rows) - 0.1)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(f"expected {UNIT}{ci_label(low, high)}")
    ax.yaxis.set_major_formatter(FuncFormatter(signed))
    ax.grid(axis="y", alpha=0.3)
    units = summary["n_units"].min() if "n_units" in summary.columns and summary.height else None
    over = f"; intervals over {units:,} matches" if units else ""
    refused = refused_note(summary["n_needed"].to_numpy()) if "n_needed" in summary.columns else ""
    bars = ("bars: 95% CI" + over + (f"; {refused}" if refused and not drawn.all() else "") if drawn.any() else
            refused.replace("no bar where an interval needs", "no bars: the intervals need") or "no intervals")
    lost = ("every seat lose on average" if (mean < 0).all() else "every seat's mean lower")
    kept = (f"\nfish won minus fish paid; what the {pool} still holds when a match ends makes {lost}"
            if "seat" in keys and len(rows) > 1 and mean.sum() < -0.5 else "")
    note(ax, f"points: mean; {bars}{kept}")
    return finish(fig, ax, title or f"Expected fish per deal by {what}", caption)


# ---------------------------------------------------------------------------------------------------------------
# distribution


def fish_histogram(dist: pl.DataFrame, *, ax: Axes | None = None, caption: str | None = None,
                   title: str | None = None) -> Figure:
    """Distribution of fish per deal per group, from :func:`~reversis_sim.analysis.figures_data.fish_distribution`:
    the share of deals in each bin on a log scale, so that the rare, large payments stay visible. Tail bins (rows
    beyond the range) are hatched and their shares written in the corner."""
    keys = group_cols(dist, "bin")
    fig, ax = axes(ax, (10, 5.5))
    groups = dist.partition_by(keys, maintain_order=True) if keys else [dist]
    bins = groups[0]
    n_bins = bins.height
    edges = np.arange(n_bins + 1) - 0.5
    notes = []
    for i, g in enumerate(groups):
        color = COLORS[i % len(COLORS)]
        share = g["share"].to_numpy() * 100
        label = group_label(g.row(0, named=True), keys) if keys else "all seats"
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
            notes.append(f"{label}: {pct(below['share'][0] * 100)} of deals below the bins, "
                         f"{pct(above['share'][0] * 100)} above")
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
    ax.yaxis.set_major_formatter(FuncFormatter(lambda v, _p: pct(v)))
    ax.set_ylabel("share of a seat's deals (log scale)")
    doubling = {"0", "1", "2…3"} <= set(bins["label"].to_list())  # the symmetric-log bins of fish_distribution
    ax.set_xlabel(f"{UNIT} won (+) or lost (−) by one seat"
                  + (": bins double in width away from 0" if doubling else ""))
    ax.grid(axis="y", alpha=0.3, which="major")
    ax.legend(loc="upper right", fontsize=8, frameon=False)
    if notes:
        ax.text(0.01, 0.98, "\n".join(notes), transform=ax.transAxes, va="top", fontsize=8, color="0.25")
    return finish(fig, ax, title or "Distribution of fish per deal", caption)


# ---------------------------------------------------------------------------------------------------------------
# convergence


def convergence(curve: pl.DataFrame, *, ax: Axes | None = None, caption: str | None = None,
                title: str | None = None, min_matches: int = 10, fit_decades: float = 2.0,
                band_from: int | None = None) -> Figure:
    """Running mean of fish per deal with its 95% band against the number of deals played, per group (a
    :func:`~reversis_sim.analysis.figures_data.convergence` frame).

    The first ``min_matches`` matches are not drawn: a t interval on a handful of matches is too wide to show
    anything. The band is drawn only where the frame gives one (:func:`reversis_sim.analysis.figure_tables`
    leaves it out below the matches a reliable interval needs, ``band_from``), and the note says from where. On a
    long run the vertical axis fits the last ``fit_decades`` decades of deals, where the groups separate; the wild
    early excursions then run off the top and bottom (the note says so)."""
    keys = group_cols(curve, "n_matches")
    curve = curve.with_columns(pl.col("ci_low", "ci_high").fill_nan(None))  # a refused band: none
    fig, ax = axes(ax, (9, 5.5))
    enough = curve["n_matches"].max() or 0
    start = min(min_matches, enough)
    shown = curve.filter(pl.col("n_matches") >= start)
    groups = shown.partition_by(keys, maintain_order=True) if keys else [shown]
    zero_line(ax)
    for i, g in enumerate(groups):
        if not g.height:
            continue
        color = COLORS[i % len(COLORS)]
        label = group_label(g.row(0, named=True), keys) if keys else "all seats"
        x = g["n_deals"].to_numpy()
        low, high = g["ci_low"].to_numpy().astype(float), g["ci_high"].to_numpy().astype(float)
        banded = np.isfinite(low) & np.isfinite(high)
        if banded.any():
            ax.fill_between(x, np.where(banded, low, np.nan), np.where(banded, high, np.nan), where=banded,
                            color=color, alpha=0.15, lw=0)
        ax.plot(x, g["mean"].to_numpy(), color=color, lw=1.6, label=f"{label}: {num(g['mean'][-1])}")
    banded = shown.filter(pl.col("ci_low").is_not_null() & pl.col("ci_high").is_not_null())
    if banded.height:
        how = (f"curves from {start} matches on; bands: 95% CI, the match as the unit, from "
               f"{banded['n_matches'].min():,} matches on")
    else:
        floor = f" (a reliable one needs {band_from:,} matches)" if band_from else ""
        how = f"curves from {start} matches on; no 95% band: too few matches for an interval{floor}"
    if shown.height:
        x_min, x_max = shown["n_deals"].min(), shown["n_deals"].max()
        late = shown.filter(pl.col("n_deals") >= x_max / 10**fit_decades)
        bounds = late.select(pl.min_horizontal("ci_low", "mean").min(), pl.max_horizontal("ci_high", "mean").max())
        low, high = bounds.row(0)
        if x_min < x_max / 10**fit_decades and low is not None and np.isfinite([low, high]).all():
            pad = 0.1 * (high - low) or 1.0
            ax.set_ylim(low - pad, high + pad)
            how += f"; y axis fits the last {fit_decades:g} decades"
    ax.set_xscale("log")  # before the locators: setting the scale resets them
    if shown.height:
        ax.set_xlim(x_min / 1.1, x_max * 1.1)
        ax.xaxis.set_major_locator(LogLocator(subs=(1.0, 2.0, 5.0) if x_max / x_min <= 1e3 else (1.0,)))
    ax.xaxis.set_minor_locator(LogLocator(subs="auto"))
    ax.xaxis.set_major_formatter(FuncFormatter(lambda v, _p: compact(v)))
    ax.xaxis.set_minor_formatter(NullFormatter())
    ax.yaxis.set_major_formatter(FuncFormatter(signed))
    ax.set_xlabel("deals played (log scale)")
    ax.set_ylabel(f"running mean, {UNIT}")
    ax.grid(alpha=0.3)
    # the curves are the plain means, deal by deal as they fell: the summary's seat means go through the pool's
    # expected size and differ from these by what the pool's few big wins and doublings happened to do
    ax.legend(loc="best", fontsize=8, title="final plain mean\n(the summary's go through\nthe pool's expected size)",
              title_fontsize=7)
    note(ax, how)
    return finish(fig, ax, title or "Convergence: running plain mean of fish per deal", caption)


def compact(v: float) -> str:
    """Deal counts for a log axis: 500, 2,000, 50k, 2M."""
    if v >= 1e6:
        return f"{v / 1e6:g}M"
    if v >= 1e4:
        return f"{v / 1e3:g}k"
    return f"{v:,.0f}"


# ---------------------------------------------------------------------------------------------------------------
# the Quinola


def quinola_fate(fate: pl.DataFrame, *, ax: Axes | None = None, caption: str | None = None,
                 title: str | None = None, words: dict[str, str] | None = None) -> Figure:
    """What becomes of the Quinola (J♥): first in every deal (a bar that includes the J♥ left in the talon, which
    no seat holds), then in its holder's hand by the number of hearts he held at the first lead: stacked shares
    (:func:`reversis_sim.analysis.figures_data.quinola_fates`; a ``fate_by_hearts`` or ``fate_by_position`` table
    alone works too). The number of deals behind each bar is written above it; bars on fewer than
    :data:`SMALL_GROUP` deals are faded. ``words``: each fate's legend under the rules played
    (:func:`reversis_sim.game.words.fate_legend`; default the parlett family's)."""
    key = group_cols(fate, "quinola_fate")[0]
    fig, ax = axes(ax, (9, 5.5))
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
        text = (words or {}).get(name, text)
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
    note(ax, f"n: the deals behind each bar; faded: fewer than {SMALL_GROUP}" if small.any()
          else "n: the deals behind each bar")
    names = {"hearts_at_lead": "hearts held by the Quinola's holder at the first lead (the J♥ included)",
             "position": "holder's position relative to the dealer (0 = dealer, 1 = eldest)"}
    ticks = ["every\ndeal" if v == EVERY_DEAL else position_name(v).replace("\n", " ") if key == "position"
             else str(v) for v in levels]
    ax.set_xticks(x, ticks)
    if EVERY_DEAL in levels:
        ax.axvline(levels.index(EVERY_DEAL) + 0.5, color="0.6", lw=0.8, ls=":")
    ax.set_xlabel(names.get(key, key))
    ax.set_ylabel("share of the deals")
    ax.yaxis.set_major_formatter(PercentFormatter(decimals=0))
    ax.set_ylim(0, 112)
    ax.set_yticks(np.arange(0, 101, 20))
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.14), ncol=2, fontsize=8, frameon=False)
    by = {"hearts_at_lead": "his heart length", "position": "his position"}.get(key, key)
    every = "in every deal, and " if EVERY_DEAL in levels else ""
    return finish(fig, ax, title or f"The Quinola's fate {every}for its holder by {by}", caption)


def quinola_cost(cost: pl.DataFrame, *, ax: Axes | None = None, caption: str | None = None,
                 title: str | None = None, pool: str = "pool") -> Figure:
    """What the Quinola moves to (+) or from (−) its holder per deal, overall and by its fate, with 95% CIs where
    they may be printed (``quinola_risk(...)["cost"]``: the Quinola side payments, the ``pool`` won, the doubling
    paid; a refused interval draws no bar)."""
    fig, ax = axes(ax, (9, 4.5))
    order = {"all": 0, "dumped": 1, "forced": 2, "led": 3, "talon": 4}
    rows = sorted(cost.to_dicts(), key=lambda r: order.get(r["fate"], 9))
    y = np.arange(len(rows))[::-1]
    zero_line(ax, vertical=True)
    for yi, r in zip(y, rows):
        color = "0.2" if r["fate"] == "all" else FATE_STYLE.get(r["fate"], ("0.2", ""))[0]
        drawn = np.isfinite([r["ci_low"], r["ci_high"]]).all()
        ax.errorbar(r["mean"], yi, xerr=[[r["mean"] - r["ci_low"]], [r["ci_high"] - r["mean"]]] if drawn else None,
                    fmt="o", ms=7, capsize=5, lw=1.8, color=color)
        ax.annotate(interval_text(r["mean"], r["ci_low"], r["ci_high"], "  "),
                    (r["ci_high"] if drawn else r["mean"], yi),
                    xytext=(6, 5), textcoords="offset points", fontsize=8, va="bottom", ha="left")
    labels = [("any fate" if r["fate"] == "all" else r["fate"]) + f"\n{r['n_deals']:,} deals" for r in rows]
    ax.set_yticks(y, labels)
    ax.set_ylim(-0.7, len(rows) - 0.3)
    lo, hi = ax.get_xlim()
    ax.set_xlim(lo, hi + 0.25 * (hi - lo))  # room for the annotations
    ax.xaxis.set_major_formatter(FuncFormatter(signed))
    ax.set_xlabel(f"{UNIT} for the holder: Quinola payments and {pool}"
                  f"{ci_label(cost['ci_low'].to_numpy(), cost['ci_high'].to_numpy())}")
    refused = refused_note(cost["n_needed"].to_numpy()) if "n_needed" in cost.columns else ""
    if refused:
        note(ax, refused)
    ax.set_ylabel("the Quinola's fate (deals it happened in)")
    ax.grid(axis="x", alpha=0.3)
    return finish(fig, ax, title or "What the Quinola brings its holder, by fate", caption)


# ---------------------------------------------------------------------------------------------------------------
# reversis and espagnolette

RATE_ROWS = (  # event, label, group
    ("reversis_committed", "committed\n(per deal and seat)", "Reversis"),
    ("reversis_made", "made\n(per commitment)", "Reversis"),
    ("reversis_broken", "broken\n(per commitment)", "Reversis"),
    ("espagnolette_eligible", "eligible hand\n(per deal and seat)", "Espagnolette"),
    ("espagnolette_declared", "declared\n(per eligible hand)", "Espagnolette"),
    ("espagnolette_made", "made\n(per declaration)", "Espagnolette"),
)

NO_TRIALS = {  # event -> why its rate has no denominator
    "reversis_made": "no reversis was committed",
    "reversis_broken": "no reversis was committed",
    "espagnolette_declared": "no hand was eligible",
    "espagnolette_made": "no espagnolette was declared",
}


def reversis_rates(rates: pl.DataFrame, *, ax: Axes | None = None, caption: str | None = None,
                   title: str | None = None) -> Figure:
    """Reversis and espagnolette: how often they are attempted and how often they succeed, with Clopper-Pearson 95%
    intervals (a :func:`~reversis_sim.analysis.reversis_rates` frame). Each rate is written out with its count;
    a rate with no trials (e.g. no reversis was ever committed) reads "no events" instead of a point."""
    keys = [c for c in group_cols(rates, "event")]
    fig, ax = axes(ax, (10, 6))
    groups = rates.partition_by(keys, maintain_order=True) if keys else [rates]
    n_g = len(groups)
    offsets = ((n_g - 1) / 2 - np.arange(n_g)) * (0.6 / max(n_g, 1))  # first group on top, as in the legend
    y_of = {event: len(RATE_ROWS) - 1 - i for i, (event, _, _) in enumerate(RATE_ROWS)}
    for gi, g in enumerate(groups):
        color = COLORS[gi % len(COLORS)]
        label = group_label(g.row(0, named=True), keys) if keys else "all seats"
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
            ax.text(1.02, yy, f"{r['successes']:,} / {r['trials']:,} = {pct(rate)} [{pct(lo)}, {pct(hi)}]",
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
    ax.set_xlabel("rate (Clopper-Pearson 95% CI); the denominator of each rate is under its name")
    ax.set_ylabel("event")
    ax.grid(axis="x", alpha=0.3)
    if n_g > 1 or keys:
        ax.legend(loc="upper right", fontsize=8, frameon=True)
    return finish(fig, ax, title or "Reversis and espagnolette: attempts and successes", caption)


def pct(x: float) -> str:
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
# attempts by hand strength


def attempt_value(tables: dict[str, pl.DataFrame], feature: str = "top_cards", *, ax: Axes | None = None,
                  caption: str | None = None, title: str | None = None) -> Figure:
    """What a reversis attempt is worth by the strength of the hand dealt (:func:`~reversis_sim.analysis.hands.
    by_hand` frames, one per label, e.g. per policy): the committed seats' mean fish per deal with its 95% interval
    (points), every seat's mean fish with that hand (a faint line), and how often such a hand was committed (the
    numbers under the points)."""
    fig, ax = axes(ax, (9, 5.5))
    zero_line(ax)
    width = 0.6 / max(len(tables), 1)
    for i, (name, t) in enumerate(tables.items()):
        color = COLORS[i % len(COLORS)]
        ax.plot(t[feature].to_numpy(), t["mean"].to_numpy(), color=color, lw=1, alpha=0.4)
        shown = t.filter(pl.col("attempt_fish").is_not_null() & (pl.col("committed") > 0))
        xs = shown[feature].to_numpy().astype(float) + (i - (len(tables) - 1) / 2) * width
        m, lo, hi = (shown[c].to_numpy() for c in ("attempt_fish", "attempt_ci_low", "attempt_ci_high"))
        lo, hi = np.where(np.isfinite(lo), lo, m), np.where(np.isfinite(hi), hi, m)
        ax.errorbar(xs, m, yerr=[m - lo, hi - m], fmt="o", ms=6, capsize=4, color=color,
                    label=f"{name}: committed seats")
        for xx, k, rate in zip(xs, shown["committed"].to_list(), shown["committed_rate"].to_list()):
            ax.annotate(f"{k:,}\n{pct(rate * 100)}", (xx, 0), xytext=(0, -18), textcoords="offset points",
                        ha="center", va="top", fontsize=6.5, color=color, annotation_clip=False)
    ax.set_xlabel(f"{feature.replace('_', ' ')} in the hand dealt")
    ax.set_ylabel(f"{UNIT} of the seat (95% CI)")
    ax.yaxis.set_major_formatter(FuncFormatter(signed))
    ax.grid(axis="y", alpha=0.3)
    ax.legend(loc="upper left", fontsize=8)
    note(ax, "points: seats committed to the reversis (won the first tricks); faint lines: every seat with that "
             "hand;\nunder the points: committed seats and their share of the hands")
    return finish(fig, ax, title or "What a reversis attempt is worth, by the hand dealt", caption)
