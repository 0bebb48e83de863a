"""Bar figures: :func:`grouped_bars` (one bar per category and group, with interval
whiskers) and its two uses, :func:`points_by_source` and :func:`length_distribution`.

Tidy frames in, a matplotlib Axes out (see :mod:`cuarenta_sim.plotting`).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd
from matplotlib.axes import Axes

from .plot_axes import COLORS, interval_errors, new_axes


def grouped_bars(
    frame: pd.DataFrame,
    category: str,
    group: str,
    ax: Axes | None = None,
    *,
    ylabel: str = "",
    title: str = "",
    categories: Sequence[object] | None = None,
) -> Axes:
    """Bars of estimates with interval whiskers, one bar per (category, group).

    Parameters
    ----------
    frame : DataFrame
        Columns ``category``, ``group``, ``estimate``, ``lower``, ``upper`` and optionally
        ``defined``; one row per bar.
    category : str
        Column along the x axis (e.g. the point source).
    group : str
        Column of the bars side by side within a category (e.g. the rule set); one colour each.
    ax : Axes, optional
        Where to draw; default a new figure.
    ylabel, title : str
        Axis label and title.
    categories : sequence, optional
        Order of the categories; default order of first appearance.

    Returns
    -------
    Axes
    """
    ax = new_axes(ax)
    cats = list(dict.fromkeys(frame[category])) if categories is None else list(categories)
    groups = list(dict.fromkeys(frame[group]))
    width = 0.8 / max(len(groups), 1)
    x = np.arange(len(cats))
    for i, g in enumerate(groups):
        sub = frame[frame[group] == g].set_index(category).reindex(cats)
        sub = sub.reset_index()
        heights = sub["estimate"].to_numpy(np.float64)
        ax.bar(
            x + (i - (len(groups) - 1) / 2) * width,
            np.nan_to_num(heights),
            width,
            yerr=interval_errors(sub.fillna({"defined": False})),
            capsize=3,
            label=str(g),
            color=COLORS[i % len(COLORS)],
        )
    ax.set_xticks(x, [str(c) for c in cats])
    ax.set_ylabel(ylabel)
    if title:
        ax.set_title(title)
    if len(groups) > 1:
        ax.legend(frameon=False)
    ax.grid(axis="y", alpha=0.3)
    return ax


def points_by_source(frame: pd.DataFrame, ax: Axes | None = None, *, title: str = "") -> Axes:
    """Points per data by source, one bar per (source, variant), with intervals.

    Parameters
    ----------
    frame : DataFrame
        Columns ``source`` (e.g. carton, caida, limpia, ronda, other), ``variant`` (e.g. the
        rule set), ``estimate`` (points per data), ``lower``, ``upper``, optional ``defined``.
    ax : Axes, optional
        Where to draw; default a new figure.
    title : str
        Title of the axes.

    Returns
    -------
    Axes
    """
    return grouped_bars(
        frame,
        "source",
        "variant",
        ax,
        ylabel="points per data",
        title=title or "Points per data by source",
    )


def length_distribution(
    frame: pd.DataFrame,
    ax: Axes | None = None,
    *,
    xlabel: str = "datas per chica",
    title: str = "",
) -> Axes:
    """Distribution of a game length, one bar series per variant, with Wilson whiskers.

    Parameters
    ----------
    frame : DataFrame
        Columns ``variant``, ``length`` (int), ``estimate`` (share of games of that length),
        ``lower``, ``upper``, optional ``defined``; zero-count lengths may be present.
    ax : Axes, optional
        Where to draw; default a new figure.
    xlabel, title : str
        Axis label and title.

    Returns
    -------
    Axes
    """
    ax = new_axes(ax)
    lengths = sorted(frame["length"].unique())
    grouped_bars(
        frame,
        "length",
        "variant",
        ax,
        ylabel="share of games",
        title=title or f"Distribution of {xlabel}",
        categories=lengths,
    )
    ax.set_xlabel(xlabel)
    return ax
