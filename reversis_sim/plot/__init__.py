"""Figures: summary frames in, matplotlib Figures out.

Each function draws one figure from a summary frame of :mod:`reversis_sim.analysis` and computes nothing: the
numbers (means, intervals, shares) are in the frame, the function only lays them out. Each takes an optional
``ax`` (draw into an existing Axes, e.g. a panel of a larger figure) and a ``caption`` (a line of small print
under the figure, normally :func:`run_caption` of the run's manifest), and returns the Figure.

Figures are built on :class:`matplotlib.figure.Figure` with the Agg canvas, never through ``pyplot``: nothing is
registered in pyplot's global figure list, nothing is ever shown, and importing this package does not change the
backend of a notebook. A Figure returned here displays in Jupyter like any other.

- :mod:`.style`: colours, names, captions, number formats and the figure plumbing;
- :mod:`.run_figures`: the figures of a run; :mod:`.compare_figures`: the figures of comparisons;
  :mod:`.hand_figures`: outcomes by the hand dealt;
- :mod:`.files`: :func:`write_figures`, every figure of a run folder into ``<run>/figures/``.
"""

from .compare_figures import paired_difference, payoff_heatmap, strength_speed
from .files import FIGURES, hand_figure_path, write_figures, write_hand_figures
from .hand_figures import your_hand
from .run_figures import (
    attempt_value,
    convergence,
    expected_fish,
    fish_histogram,
    quinola_cost,
    quinola_fate,
    reversis_rates,
)
from .style import position_name, run_caption, seat_name

__all__ = ["FIGURES", "attempt_value", "convergence", "expected_fish", "fish_histogram", "hand_figure_path",
           "paired_difference", "payoff_heatmap", "position_name", "quinola_cost", "quinola_fate", "reversis_rates",
           "run_caption", "seat_name", "strength_speed", "write_figures", "write_hand_figures", "your_hand"]
