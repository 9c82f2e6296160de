"""Figures: every figure of a run is written, each one titled, labelled and captioned, and the data
behind the new figures (distribution, convergence) agrees with direct computation."""

import numpy as np
import polars as pl
import pytest

from reversis_sim import plot
from reversis_sim.analysis import fish_by, load_run, quinola_risk, reversis_rates
from reversis_sim.analysis.figures_data import convergence, fish_distribution
from reversis_sim.plot import style
from reversis_sim.record import RunError, RunSpec
from reversis_sim.rules import PARLETT
from reversis_sim.simulate import run

N_MATCHES = 48
SEATS = ["random"] * 4


@pytest.fixture(scope="module")
def small_run(tmp_path_factory):
    out = tmp_path_factory.mktemp("plot") / "run"
    spec = RunSpec.for_deals(PARLETT, SEATS, deals=N_MATCHES * 12, seed=11, chunk_matches=16)
    run(spec, out, engine="reference")
    return out


@pytest.fixture(scope="module")
def tables(small_run):
    manifest, lf = load_run(small_run)
    lf = lf.with_columns(pl.col("policy").cast(pl.String))
    return manifest, lf, lf.collect()


def axes_of(fig):
    """The data Axes of a figure (not a colour bar)."""
    return [ax for ax in fig.axes if ax.get_label() != "<colorbar>"]


def caption_of(fig):
    texts = [t.get_text() for t in fig.texts if t.get_gid() == style.CAPTION_GID]
    assert len(texts) == 1, "exactly one caption"
    return texts[0].replace("\n", " ")


def all_text(fig):
    return [t.get_text() for ax in fig.axes for t in ax.texts] + [t.get_text() for t in fig.texts]


def check_figure(fig, caption, *, unit=True):
    """Title, axis labels (one naming the unit when ``unit``) and the caption."""
    ax = axes_of(fig)[0]
    assert ax.get_title(loc="left").strip(), "a title"
    assert ax.get_xlabel().strip() and ax.get_ylabel().strip(), "both axes labelled"
    if unit:
        assert "fish per deal" in ax.get_xlabel() + ax.get_ylabel(), "the unit on an axis"
    assert caption_of(fig) == caption


# ---------------------------------------------------------------------------------------------------------------
# write_figures


@pytest.mark.slow
def test_write_figures_writes_every_figure_in_every_format_reproducibly_and_leaves_no_pyplot_figure(small_run):
    """Every figure in each format; written again (the folder exists now), the files are byte for byte the same (they
    can be committed without spurious diffs); pyplot's figure registry is never touched. (One test: the drawings are
    most of its time, so the three checks share them.)"""
    pyplot = pytest.importorskip("matplotlib.pyplot")
    before = pyplot.get_fignums()
    paths = plot.write_figures(small_run)
    assert pyplot.get_fignums() == before
    expected = [small_run / "figures" / f"{name}.{fmt}" for name in plot.FIGURES for fmt in ("png", "svg")]
    assert paths == expected
    first = {}
    for path in paths:
        data = first[path] = path.read_bytes()
        assert len(data) > 10_000, f"{path.name} is suspiciously small"
        if path.suffix == ".png":
            assert data[:8] == b"\x89PNG\r\n\x1a\n"
        else:
            head = data[:400].decode()
            assert head.startswith("<?xml") and "<svg" in head
            assert b"<dc:date>" not in data, "no time stamp: figures are reproducible files"
    assert plot.write_figures(small_run) == paths and pyplot.get_fignums() == before
    assert {p: p.read_bytes() for p in paths} == first


def test_write_figures_refuses_a_folder_that_is_not_a_run(tmp_path):
    with pytest.raises(RunError, match="not a run folder"):
        plot.write_figures(tmp_path)
    assert not (tmp_path / "figures").exists()


# ---------------------------------------------------------------------------------------------------------------
# each figure: title, labels, caption


def test_run_caption_names_rules_deals_and_seed(tables):
    manifest, _, _ = tables
    caption = plot.run_caption(manifest)
    assert "parlett rules" in caption
    assert f"{N_MATCHES * 12:,} deals ({N_MATCHES} matches of 12)" in caption
    assert "seed 11" in caption and "all seats random" in caption
    mixed = plot.run_caption({**manifest, "seats": ["random", "duck:margin=1", "random", "random"]})
    assert "seats 0: random, 1: duck:margin=1" in mixed


def test_expected_fish_figures(tables):
    manifest, lf, _ = tables
    caption = plot.run_caption(manifest)
    seat = fish_by(lf, ["seat", "policy"])
    fig = plot.expected_fish(seat, caption=caption)
    check_figure(fig, caption)
    ax = axes_of(fig)[0]
    assert [t.get_text() for t in ax.get_xticklabels()] == [f"seat {s}\nrandom" for s in range(4)]
    assert "seat" in ax.get_title(loc="left")
    # one error bar per seat, drawn at the mean with the CI as its extent
    lines = [line for line in ax.lines if line.get_marker() == "o"]
    assert np.allclose([line.get_ydata()[0] for line in lines], seat["mean"].to_numpy())
    pos = plot.expected_fish(fish_by(lf, "position"), caption=caption)
    check_figure(pos, caption)
    labels = [t.get_text() for t in axes_of(pos)[0].get_xticklabels()]
    assert labels[0] == "0\ndealer" and labels[1].startswith("1\neldest")
    check_figure(plot.expected_fish(fish_by(lf, "policy"), caption=caption), caption)


def test_distribution_and_convergence_figures(tables):
    manifest, lf, _ = tables
    caption = plot.run_caption(manifest)
    fig = plot.fish_histogram(fish_distribution(lf, "policy"), caption=caption)
    check_figure(fig, caption)
    assert axes_of(fig)[0].get_yscale() == "log"
    clipped = plot.fish_histogram(fish_distribution(lf, "seat", bins=20), caption=caption)
    check_figure(clipped, caption)
    assert any("below the bins" in t for t in all_text(clipped)), "the share beyond the range is reported"
    fig = plot.convergence(convergence(lf, ["seat", "policy"]), caption=caption)
    check_figure(fig, caption)
    ax = axes_of(fig)[0]
    assert ax.get_xscale() == "log" and len(ax.get_legend().get_texts()) == 4


def test_quinola_figures(tables):
    manifest, lf, _ = tables
    caption = plot.run_caption(manifest)
    q = quinola_risk(lf)
    fig = plot.quinola_fate(q["fate_by_hearts"], caption=caption)
    check_figure(fig, caption, unit=False)
    ax = axes_of(fig)[0]
    assert "hearts" in ax.get_xlabel()
    # the stacked shares of every heart length add up to 100%
    tops = {}
    for patch in ax.patches:
        x = round(patch.get_x() + patch.get_width() / 2)
        tops[x] = max(tops.get(x, 0.0), patch.get_y() + patch.get_height())
    assert len(tops) == q["fate_by_hearts"]["hearts_at_lead"].n_unique()
    assert np.allclose(list(tops.values()), 100.0)
    check_figure(plot.quinola_fate(q["fate_by_position"], caption=caption), caption, unit=False)
    cost = plot.quinola_cost(q["cost"], caption=caption)
    check_figure(cost, caption)
    assert [t.get_text().split("\n")[0] for t in axes_of(cost)[0].get_yticklabels()][0] == "any fate"


def test_reversis_rates_figure_from_the_run(tables):
    manifest, lf, _ = tables
    caption = plot.run_caption(manifest)
    fig = plot.reversis_rates(reversis_rates(lf, "policy"), caption=caption)
    check_figure(fig, caption, unit=False)
    assert "rate" in axes_of(fig)[0].get_xlabel()


def synthetic_rates(committed: int, made: int) -> pl.DataFrame:
    """A reversis_rates-shaped frame: rates are NaN where there were no trials, as rate_table gives them."""
    rows = [("reversis_committed", committed, 9600), ("reversis_made", made, committed),
            ("reversis_broken", committed - made, committed), ("espagnolette_eligible", 80, 9600),
            ("espagnolette_declared", 0, 80), ("espagnolette_made", 0, 0)]
    out = []
    for policy in ("random", "duck:margin=1"):
        for event, k, n in rows:
            rate = k / n if n else float("nan")
            out.append({"policy": policy, "event": event, "successes": k, "trials": n, "rate": rate,
                        "ci_low": rate if n else float("nan"), "ci_high": min(rate + 0.01, 1) if n else float("nan")})
    return pl.DataFrame(out)


def test_reversis_rates_figure_says_no_events_instead_of_crashing():
    fig = plot.reversis_rates(synthetic_rates(committed=0, made=0), caption="c")
    texts = all_text(fig)
    assert texts.count("no events: no reversis was committed") == 4  # made and broken, for both policies
    assert texts.count("no events: no espagnolette was declared") == 2
    assert any(t.startswith("0 / 80 = 0%") for t in texts), "zero successes is a rate, drawn at 0"
    check_figure(fig, "c", unit=False)
    fig = plot.reversis_rates(synthetic_rates(committed=3, made=1), caption="c")
    assert not any("no reversis" in t for t in all_text(fig))
    assert any(t.startswith("1 / 3 = 33.3%") for t in all_text(fig))


# ---------------------------------------------------------------------------------------------------------------
# comparison figures (synthetic frames)


def test_paired_difference_figure():
    summary = pl.DataFrame({"candidate": ["duck:margin=1,hunt=0.5", "duck:margin=2", "greedy"],
                            "mean_difference": [0.42, -0.1, -1.3], "ci_low": [0.1, -0.5, -1.9],
                            "ci_high": [0.74, 0.3, -0.7], "p_holm": [0.01, 0.9, 1e-5]})
    fig = plot.paired_difference(summary, baseline="random", caption="run c")
    check_figure(fig, "run c")
    ax = axes_of(fig)[0]
    assert "candidate − random" in ax.get_xlabel()
    labels = [t.get_text() for t in ax.get_yticklabels()]
    assert labels[0].startswith("duck:margin=1") and labels[-1] == "greedy"
    colors = [line.get_color() for line in ax.lines if line.get_marker() == "o"]
    assert colors == ["#009E73", "0.45", "#D55E00"]  # better, undecided, worse
    assert any("p(Holm) = 0.01" in t for t in all_text(fig))


def test_payoff_heatmap_figure():
    policies = ["random", "duck", "greedy"]
    rows = [{"row_policy": a, "column_policy": b, "mean": float(i - j), "ci_low": i - j - 0.2, "ci_high": i - j + 0.2}
            for i, a in enumerate(policies) for j, b in enumerate(policies) if (a, b) != ("greedy", "duck")]
    fig = plot.payoff_heatmap(pl.DataFrame(rows), caption="run c")
    check_figure(fig, "run c", unit=False)
    assert any("fish per deal" in ax.get_ylabel() for ax in fig.axes), "the colour bar names the unit"
    ax = axes_of(fig)[0]
    cells = [t.get_text() for t in ax.texts]
    assert "—" in cells, "a missing pairing is shown as a dash"
    assert "−2.00\n± 0.20" in cells
    image = ax.images[0].get_array()
    assert image.shape == (3, 3) and image[0, 2] == -2.0


def test_strength_speed_figure():
    players = pl.DataFrame({"player": ["search:worlds=16", "tuned", "random"], "route": ["search", "tuned", "base"],
                            "deals_per_s": [380.0, 280_000.0, 600_000.0], "gain": [7.6, 0.0, -42.4],
                            "gain_low": [6.4, 0.0, -44.2], "gain_high": [8.8, 0.0, -40.5]})
    fig = plot.strength_speed(players, baseline="tuned", caption="run c")
    check_figure(fig, "run c")
    ax = axes_of(fig)[0]
    assert ax.get_xscale() == "log" and "gain over tuned" in ax.get_ylabel()
    points = [line.get_xydata()[0].tolist() for line in ax.lines if line.get_marker() == "o"]
    assert points == [[380.0, 7.6], [280_000.0, 0.0], [600_000.0, -42.4]]
    assert {t.get_text() for t in ax.get_legend().get_texts()} == {"search", "tuned", "base"}
    assert {"search:worlds=16", "tuned", "random"} <= set(all_text(fig))
    assert not [line for line in ax.lines if line.get_linestyle() == "-"], "points only, unless asked"
    curve = pl.DataFrame({"player": ["4", "16", "4", "16"], "route": ["old", "old", "new", "new"],
                          "deals_per_s": [3600.0, 1000.0, 9000.0, 4000.0], "gain": [2.1, 6.6, 5.0, 9.0],
                          "gain_low": [1.0, 5.0, 4.0, 8.0], "gain_high": [3.0, 8.0, 6.0, 10.0]})
    ax = axes_of(plot.strength_speed(curve, connect=True, caption="run c"))[0]
    joined = [line.get_xydata().tolist() for line in ax.lines if line.get_linestyle() == "-"]
    assert joined == [[[3600.0, 2.1], [1000.0, 6.6]], [[9000.0, 5.0], [4000.0, 9.0]]], "one line per route, in order"


def test_attempt_value_figure():
    def table(shift):
        return pl.DataFrame({"top_cards": [0, 1, 2, 3], "mean": [-9.0 + shift, -7.0, -4.0, -1.0],
                             "committed": [0, 0, 3, 12], "committed_rate": [0.0, 0.0, 0.001, 0.004],
                             "attempt_fish": [None, None, -20.0 + shift, 15.0],
                             "attempt_ci_low": [None, None, -40.0, 5.0], "attempt_ci_high": [None, None, 0.0, 25.0]})
    fig = plot.attempt_value({"avoid": table(0.0), "tuned": table(1.0)}, "top_cards", caption="run c")
    check_figure(fig, "run c")
    ax = axes_of(fig)[0]
    points = [c for c in ax.containers]
    assert len(points) == 2  # one error-bar series per label, only where seats were committed
    assert ax.get_xlabel() == "top cards in the hand dealt"
    assert any(t.get_text() == "12\n0.4%" for t in ax.texts)  # committed seats and their share of the hands
    assert [t.get_text() for t in ax.get_legend().get_texts()] == ["avoid: committed seats", "tuned: committed seats"]


def test_figures_draw_into_a_given_axes():
    from matplotlib.figure import Figure

    fig = Figure(layout="constrained")
    left, right = fig.subplots(1, 2)
    summary = pl.DataFrame({"candidate": ["a"], "mean_difference": [0.5], "ci_low": [0.1], "ci_high": [0.9]})
    assert plot.paired_difference(summary, ax=left, caption="same caption") is fig
    assert plot.paired_difference(summary, ax=right, caption="same caption") is fig
    assert caption_of(fig) == "same caption"  # once, not once per panel


# ---------------------------------------------------------------------------------------------------------------
# figures_data against direct computation


def test_histogram_counts_sum_to_the_rows_and_match_numpy(tables):
    _, lf, df = tables
    dist = fish_distribution(lf, "seat")
    assert dist["count"].sum() == df.height
    fish = df["fish"].to_numpy()
    for seat, part in dist.group_by("seat"):
        x = fish[df["seat"].to_numpy() == seat[0]]
        assert part["n"][0] == x.size
        direct = [int(((x >= lo) & (x < hi)).sum()) for lo, hi in zip(part.sort("bin")["lo"], part.sort("bin")["hi"])]
        assert part.sort("bin")["count"].to_list() == direct
    # symlog bins are symmetric doubling ranges of whole numbers
    row = dist.filter((pl.col("seat") == 0) & (pl.col("lo") == 8)).row(0, named=True)
    assert (row["hi"], row["label"]) == (16.0, "8…15")
    row = dist.filter((pl.col("seat") == 0) & (pl.col("hi") == -7)).row(0, named=True)
    assert (row["lo"], row["label"]) == (-15.0, "−15…−8")


def test_histogram_tails_hold_the_share_beyond_the_range(tables):
    _, lf, df = tables
    fish = df["fish"].to_numpy()
    limited = fish_distribution(lf, None, limit=64)
    tails = limited.filter(~pl.col("in_range")).sort("bin")
    assert tails["count"].to_list() == [int((fish <= -64).sum()), int((fish >= 64).sum())]
    assert limited["count"].sum() == df.height
    edges = [-50, -10, 0, 10, 50]
    explicit = fish_distribution(lf, "policy", bins=edges).sort("bin")
    hist, _ = np.histogram(fish, bins=[-np.inf, *edges, np.inf])  # [a, b) bins, the last one [50, inf]
    assert explicit["count"].to_list() == hist.tolist()
    assert explicit["label"].to_list() == ["< −50", "−50…−11", "−10…−1", "0…9", "10…49", "≥ 50"]
    clipped = fish_distribution(lf, "policy", bins=10, clip=0.05)
    beyond = clipped.filter(~pl.col("in_range"))["share"].to_numpy()
    assert np.all(beyond <= 0.05 + 1e-9) and np.all(beyond > 0)  # quantile bins cut about clip at each end
    assert clipped["count"].sum() == df.height


def test_distribution_is_the_same_from_a_lazy_or_an_eager_frame(tables):
    _, lf, df = tables
    assert fish_distribution(lf, "seat").equals(fish_distribution(df, "seat"))
    assert convergence(lf, "seat").equals(convergence(df, "seat"))


def t_bounds(frame: pl.DataFrame) -> pl.DataFrame:
    """``frame`` with the t interval's bounds, ``mean -/+ t(0.975, n_units - 1) * se``, whatever ``n_needed`` says."""
    from scipy import stats as st

    q = st.t.ppf(0.975, np.maximum(frame["n_units"].to_numpy() - 1, 1))
    mean, se = frame["mean"].to_numpy(), frame["se"].to_numpy()
    return frame.with_columns(pl.Series("ci_low", mean - q * se), pl.Series("ci_high", mean + q * se))


def test_convergence_ends_at_fish_by_and_follows_the_matches(tables):
    _, lf, df = tables
    for by in ("seat", "policy", "position"):
        curve = convergence(lf, by)
        final = curve.group_by(by).agg(pl.all().sort_by("n_matches").last()).sort(by)
        direct = fish_by(lf, by).sort(by)
        direct = t_bounds(direct)  # the figure draws the t interval; fish_by prints it only from enough matches
        for col in ("mean", "se", "ci_low", "ci_high"):
            want = direct[col].to_numpy()
            shown = np.isfinite(want)  # fish_by prints no bounds with too few matches (docs/statistics.md §9)
            assert np.allclose(final[col].to_numpy()[shown], want[shown], rtol=1e-9, atol=1e-9), (by, col)
        assert final["n_matches"].to_list() == direct["n_units"].to_list()
        assert (final["n_deals"] == N_MATCHES * 12).all()
    # an intermediate point is fish_by of the first g matches
    curve = convergence(lf, "seat", points=500)
    assert curve.group_by("seat").len()["len"].to_list() == [N_MATCHES] * 4  # fewer matches than points: all kept
    for g in (2, 7, 30):
        point = curve.filter(pl.col("n_matches") == g).sort("seat")
        direct = fish_by(df.filter(pl.col("match") < g), "seat").sort("seat")
        direct = t_bounds(direct)  # the figure draws the t interval; fish_by prints it only from enough matches
        for col in ("mean", "se", "ci_low", "ci_high"):
            want = direct[col].to_numpy()
            shown = np.isfinite(want)
            assert np.allclose(point[col].to_numpy()[shown], want[shown], rtol=1e-9), (g, col)
        assert (point["n_deals"] == 12 * g).all()
    first = curve.filter(pl.col("n_matches") == 1)
    assert first["se"].is_nan().all() and first["ci_low"].is_nan().all()


def test_convergence_subsamples_geometrically_and_keeps_the_ends(tables):
    _, lf, _ = tables
    curve = convergence(lf, None, points=10)
    n = curve["n_matches"].to_list()
    assert n[0] == 1 and n[-1] == N_MATCHES and len(n) <= 11 and n == sorted(set(n))
    gaps = np.diff(n)
    assert gaps[-1] > gaps[0], "denser at the start, where the mean still moves"


def test_figures_data_reject_bad_arguments(tables):
    _, lf, _ = tables
    with pytest.raises(ValueError, match="whole numbers"):
        fish_distribution(lf.with_columns(pl.col("fish").cast(pl.Float64)), "seat")
    with pytest.raises(ValueError, match="power of two"):
        fish_distribution(lf, "seat", limit=100)
    with pytest.raises(ValueError, match="strictly increasing"):
        fish_distribution(lf, "seat", bins=[3, 1])
    with pytest.raises(ValueError, match="bins must be"):
        fish_distribution(lf, "seat", bins="log")
    with pytest.raises(ValueError, match="column"):
        convergence(lf, "no_such_column")
    with pytest.raises(ValueError, match="points"):
        convergence(lf, "seat", points=1)


def _note(fig) -> str:
    return " ".join(t.get_text() for ax in fig.axes for t in ax.texts if t.get_gid() == style.NOTE_GID)


def test_a_figure_claims_no_interval_it_does_not_draw(tables):
    """48 matches: every interval of fish per deal is refused (too few matches). The figure draws the means, no
    bars, and says why; no axis claims a 95% CI."""
    manifest, lf, _ = tables
    seat = fish_by(lf, ["seat", "policy"])
    assert seat["ci_low"].is_nan().all()  # the premise: refused
    fig = plot.expected_fish(seat, caption="c")
    note = _note(fig)
    assert "bars: 95% CI" not in note and "no bars: the intervals need" in note, note
    assert "95% CI" not in axes_of(fig)[0].get_ylabel()
    cost = quinola_risk(lf)["cost"]
    fig = plot.quinola_cost(cost, caption="c")
    assert "95% CI" not in axes_of(fig)[0].get_xlabel() and "no bar where" in _note(fig)


def test_the_convergence_band_is_drawn_only_where_the_text_prints_an_interval(tables):
    from reversis_sim.analysis.intervals import MIN_MATCHES
    from reversis_sim.analysis.run import band_where_printed

    _, lf, _ = tables
    curve = convergence(lf, ["seat", "policy"])
    refused = band_where_printed(curve, "seat")  # 48 matches, where 32,000 are needed
    assert refused["ci_low"].is_null().all() and refused["mean"].equals(curve["mean"])
    fig = plot.convergence(refused, caption="c", band_from=MIN_MATCHES["seat"])
    ax = axes_of(fig)[0]
    assert not ax.collections, "no band drawn"
    assert "no 95% band" in _note(fig) and "32,000 matches" in _note(fig)
    late = curve.with_columns(pl.when(pl.col("n_matches") >= 20).then(pl.col(c)).otherwise(None).alias(c)
                              for c in ("ci_low", "ci_high"))
    fig = plot.convergence(late, caption="c")
    ax = axes_of(fig)[0]
    first = late.filter(pl.col("n_matches") >= 20)["n_deals"].min()
    xs = np.concatenate([p.vertices[:, 0] for c in ax.collections for p in c.get_paths()])
    assert len(ax.collections) == 4 and xs.min() >= first  # the bands start where the intervals do
    assert f"bands: 95% CI, the match as the unit, from {late.filter(pl.col('n_matches') >= 20)['n_matches'].min()}" \
        in _note(fig)
