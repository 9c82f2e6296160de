"""A run folder's figures, drawn into ``<run>/figures/``: the tables come from
:func:`reversis_sim.analysis.figure_tables` (which loads and computes), the drawing from :mod:`.run_figures`."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from matplotlib import rc_context

from ..analysis import FIGURE_TABLES, figure_tables
from .hand_figures import your_hand
from .run_figures import convergence, expected_fish, fish_histogram, quinola_cost, quinola_fate, reversis_rates
from .style import run_caption

FIGURES = FIGURE_TABLES
"""File stems :func:`write_figures` writes, in order (one figure per table of the run)."""

DRAW = {
    "fish_by_seat": expected_fish, "fish_by_position": expected_fish, "fish_by_policy": expected_fish,
    "fish_distribution": fish_histogram, "convergence": convergence, "quinola_fate_by_hearts": quinola_fate,
    "quinola_cost": quinola_cost, "reversis_rates": reversis_rates,
}
"""The drawing function of each figure."""

# reproducible files: no time stamps, and SVG element ids from a fixed salt instead of a random one
_METADATA = {"svg": {"Date": None}, "pdf": {"CreationDate": None}}
_RC = {"svg.hashsalt": "reversis_sim"}


def write_figures(run_dir: str | Path, formats: Sequence[str] = ("png", "svg"), *, dpi: int = 150) -> list[Path]:
    """Draw every figure of a run folder into ``<run_dir>/figures/<name>.<format>`` (creating the folder) and
    return the paths written, in :data:`FIGURES` order, each figure in every format.

    Each table is computed when its figure is drawn (:func:`reversis_sim.analysis.figure_tables`: one batch of part
    files at a time, only the needed columns), and each figure is released once saved, so the memory needed is the
    same for 1M deals as for 20M. Raises :class:`~reversis_sim.record.RunError` if ``run_dir`` is not a complete
    run folder.
    """
    run_dir = Path(run_dir)
    manifest, tables = figure_tables(run_dir)
    out = run_dir / "figures"
    out.mkdir(parents=True, exist_ok=True)
    caption = run_caption(manifest)
    words = rule_words(manifest)
    paths = []
    for name in FIGURES:
        fig = DRAW[name](tables[name](), caption=caption, **words.get(name, {}))
        for fmt in formats:
            path = out / f"{name}.{fmt}"
            with rc_context(_RC):
                fig.savefig(path, dpi=dpi, metadata=_METADATA.get(fmt))
            paths.append(path)
        fig.clear()
        del fig
    return paths


def rule_words(manifest: dict) -> dict[str, dict]:
    """What each figure says about the rules, from the rule set the run played (:mod:`reversis_sim.game.words`):
    the stake's name, the fates' legends, and from how many matches the convergence band may be drawn."""
    from ..analysis.intervals import MIN_MATCHES
    from ..game.words import fate_legend, pool_name
    from ..rules import Rules

    rules = Rules.from_params(manifest["rules"], manifest["rules_params"])
    pool = pool_name(rules)
    return {"fish_by_seat": {"pool": pool}, "fish_by_position": {"pool": pool}, "fish_by_policy": {"pool": pool},
            "convergence": {"band_from": MIN_MATCHES["seat"]}, "quinola_fate_by_hearts": {"words": fate_legend(rules)},
            "quinola_cost": {"pool": pool}}


def save_figure(fig, path: str | Path, *, dpi: int = 150, release: bool = True) -> Path:
    """Save one figure reproducibly (no time stamps; the folder created) and release it (unless ``release`` is
    false: another format of it follows); returns the path."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    with rc_context(_RC):
        fig.savefig(path, dpi=dpi, metadata=_METADATA.get(path.suffix.lstrip(".")))
    if release:
        fig.clear()
    return path


def hand_figure_path(run_dir: str | Path, feature: str) -> Path:
    """Where the figure of outcomes by the hand feature ``feature`` goes: ``<run>/figures/hand_<feature>.png``."""
    return Path(run_dir) / "figures" / f"hand_{feature}.png"


def write_hand_figures(run_dir: str | Path, tables: dict, features: Sequence[str], *, manifest: dict,
                       conditional: str | None = None) -> list[Path]:
    """One figure per hand feature (:func:`.hand_figures.your_hand`) from the tables of
    :func:`reversis_sim.analysis.hands.hand_tables`, into :func:`hand_figure_path`; returns the paths written."""
    caption = run_caption(manifest)
    return [save_figure(your_hand(tables[f"fish_by_{f}"], tables[f"quinola_by_{f}"], tables[f"quinola_cost_by_{f}"],
                                  f, caption=caption, conditional=conditional), hand_figure_path(run_dir, f))
            for f in features]
