"""Figures: tidy frames in, a matplotlib Axes out.

Every function takes ``ax=None`` (then it makes a new figure with ``plt.subplots``) and
returns the Axes it drew on; nothing calls ``plt.show()``. Report code passes Axes of a
:class:`matplotlib.figure.Figure` it made itself, so no pyplot state is involved; tests use the
Agg backend. Intervals are drawn as error bars from the frames' ``lower`` / ``upper`` columns
(whatever method made them); rows with ``defined = False`` are drawn without a bar.

The functions are game-agnostic: they read the columns their docstrings list, and labels are
parameters.

The figures live in one module per kind, all re-exported here (``__all__``):

* :mod:`cuarenta_sim.plot_bars`: :func:`grouped_bars`, :func:`points_by_source`,
  :func:`length_distribution`;
* :mod:`cuarenta_sim.plot_rows`: :func:`tornado`, :func:`forest`, :func:`exact_vs_simulated`;
* :mod:`cuarenta_sim.plot_lines`: :func:`interval_lines`, :func:`convergence`;
* :mod:`cuarenta_sim.plot_grids`: :func:`score_heatmap`, :func:`probability_grid` and its
  colours;
* :mod:`cuarenta_sim.plot_axes`: what they share (colours, new Axes, whiskers, labels).
"""

from __future__ import annotations

from .plot_axes import COLORS
from .plot_bars import grouped_bars, length_distribution, points_by_source
from .plot_grids import (
    LOW_N_COLOR,
    NEVER_REACHED_COLOR,
    PROBABILITY_CMAP,
    probability_grid,
    probability_grid_colors,
    score_heatmap,
)
from .plot_lines import convergence, interval_lines
from .plot_rows import NEGLIGIBLE_COLOR, exact_vs_simulated, forest, tornado

__all__ = [
    "COLORS",
    "LOW_N_COLOR",
    "NEGLIGIBLE_COLOR",
    "NEVER_REACHED_COLOR",
    "PROBABILITY_CMAP",
    "convergence",
    "exact_vs_simulated",
    "forest",
    "grouped_bars",
    "interval_lines",
    "length_distribution",
    "points_by_source",
    "probability_grid",
    "probability_grid_colors",
    "score_heatmap",
    "tornado",
]
