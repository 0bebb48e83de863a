"""Line figures: :func:`interval_lines` (estimates against a numeric x, one line with
whiskers per group) and :func:`convergence` (a running estimate with its band and seed
replicates against the run size).

Tidy frames in, a matplotlib Axes out (see :mod:`cuarenta_sim.plotting`).
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from matplotlib.axes import Axes

from .plot_axes import COLORS, interval_errors, label_axes, new_axes


def interval_lines(
    frame: pd.DataFrame,
    x: str,
    group: str,
    ax: Axes | None = None,
    *,
    xlabel: str = "",
    ylabel: str = "",
    title: str = "",
    reference: float | None = None,
    marks: dict[object, float] | None = None,
) -> Axes:
    """Estimates against a numeric ``x``, one line with interval whiskers per group.

    Rows with a NaN estimate (e.g. empty classes) leave a gap in their line.

    Parameters
    ----------
    frame : DataFrame
        Columns ``x`` (numeric), ``group``, ``estimate``, ``lower``, ``upper`` and optionally
        ``defined``; one row per point.
    x : str
        Column along the x axis.
    group : str
        Column naming each line (one colour each, in order of first appearance).
    ax : Axes, optional
        Where to draw; default a new figure.
    xlabel, ylabel, title : str
        Axis labels and title.
    reference : float, optional
        Draw a horizontal line at this value (e.g. 0 for a difference).
    marks : dict, optional
        Group -> x value: a dashed vertical line in the group's colour (e.g. a threshold).

    Returns
    -------
    Axes
    """
    ax = new_axes(ax)
    groups = list(dict.fromkeys(frame[group]))
    for i, g in enumerate(groups):
        sub = frame[frame[group] == g].sort_values(x, kind="stable")
        color = COLORS[i % len(COLORS)]
        ax.errorbar(
            sub[x].to_numpy(np.float64),
            sub["estimate"].to_numpy(np.float64),
            yerr=interval_errors(sub.fillna({"defined": False})),
            fmt="o-",
            markersize=3,
            capsize=2,
            color=color,
            label=str(g),
        )
        if marks and g in marks:
            ax.axvline(marks[g], color=color, linestyle="--", linewidth=0.9)
    label_axes(ax, xlabel=xlabel or x, ylabel=ylabel, title=title, hline=reference)
    if len(groups) > 1:
        ax.legend(frameon=False)
    ax.grid(alpha=0.3)
    return ax


def convergence(
    frame: pd.DataFrame,
    ax: Axes | None = None,
    *,
    xlabel: str = "units",
    ylabel: str = "estimate",
    title: str = "",
    reference: float | None = None,
) -> Axes:
    """Running estimate with its confidence band, and seed replicates, against the run size.

    Parameters
    ----------
    frame : DataFrame
        Columns ``replicate`` (int; 0 is the main run, drawn with its band), ``n`` (units so
        far), ``estimate``, ``lower``, ``upper``
        (:func:`cuarenta_sim.studies.convergence.running_estimates`).
    ax : Axes, optional
        Where to draw; default a new figure.
    xlabel, ylabel, title : str
        Axis labels and title.
    reference : float, optional
        A horizontal line (e.g. 0.5 or 0).

    Returns
    -------
    Axes
    """
    ax = new_axes(ax)
    for rep, sub in frame.groupby("replicate", sort=True):
        x = sub["n"].to_numpy(np.float64)
        y = sub["estimate"].to_numpy(np.float64)
        if rep == 0:
            ax.fill_between(
                x,
                sub["lower"].to_numpy(np.float64),
                sub["upper"].to_numpy(np.float64),
                color=COLORS[0],
                alpha=0.25,
                linewidth=0,
                label="interval of the main run",
            )
            ax.plot(x, y, color=COLORS[0], linewidth=1.6, label="main run")
        else:
            ax.plot(
                x,
                y,
                color="gray",
                linewidth=0.8,
                alpha=0.7,
                label="other seeds" if rep == 1 else None,
            )
    label_axes(ax, xlabel=xlabel, ylabel=ylabel, title=title, hline=reference, xscale="log")
    ax.legend(frameon=False, fontsize="small")
    ax.grid(alpha=0.3)
    return ax
