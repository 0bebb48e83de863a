"""Figures: tidy frames in, a matplotlib Axes out.

Every function takes ``ax=None`` (then it makes a new figure with ``plt.subplots``) and
returns the Axes it drew on; nothing calls ``plt.show()``. Report code passes Axes of a
:class:`matplotlib.figure.Figure` it made itself, so no pyplot state is involved; tests use the
Agg backend. Intervals are drawn as error bars from the frames' ``lower`` / ``upper`` columns
(whatever method made them); rows with ``defined = False`` are drawn without a bar.

The functions are game-agnostic: they read the columns their docstrings list, and labels are
parameters.

Grid figures (:func:`score_heatmap`, :func:`probability_grid`) live in
:mod:`cuarenta_sim.plot_grids` and what every figure shares (colours, a new Axes, whiskers,
labels) in :mod:`cuarenta_sim.plot_axes`; both are re-exported here (``__all__``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd
from matplotlib.axes import Axes

from .plot_axes import COLORS, interval_errors, label_axes, new_axes
from .plot_grids import (
    LOW_N_COLOR,
    NEVER_REACHED_COLOR,
    PROBABILITY_CMAP,
    probability_grid,
    probability_grid_colors,
    score_heatmap,
)

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


def _series_color(group: object, index: int, colors: Mapping[object, Any] | None) -> Any:
    """The colour of series ``group`` (the ``index``-th of its panel): ``colors[group]`` when
    given, else :data:`COLORS` in order."""
    if colors is not None and group in colors:
        return colors[group]
    return COLORS[index % len(COLORS)]


# ---------------------------------------------------------------------- bars
def grouped_bars(
    frame: pd.DataFrame,
    category: str,
    group: str,
    ax: Axes | None = None,
    *,
    ylabel: str = "",
    title: str = "",
    categories: Sequence[object] | None = None,
    colors: Mapping[object, Any] | None = None,
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
    colors : mapping, optional
        Group -> colour, so one series keeps its colour across panels and figures whatever
        groups each panel holds; default :data:`COLORS` in order of first appearance.

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
            color=_series_color(g, i, colors),
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


# ---------------------------------------------------------------------- one row per variant
def _label_rows(
    ax: Axes, y: np.ndarray, labels: pd.Series, xlabel: str, title: str, reference: float | None
) -> None:
    """Finish a figure of horizontal rows at heights ``y``: a black vertical line at
    ``reference`` (when given), the row labels, the x label, the title (when not empty) and a
    vertical grid."""
    if reference is not None:
        ax.axvline(reference, color="black", linewidth=0.8)
    ax.set_yticks(y, labels.astype(str).tolist())
    label_axes(ax, xlabel=xlabel, title=title)
    ax.grid(axis="x", alpha=0.3)


def _points_by_row(
    ax: Axes,
    frame: pd.DataFrame,
    labels: pd.Series,
    xlabel: str,
    title: str,
    reference: float | None,
) -> Axes:
    """One point with its interval whiskers per row of ``frame`` (columns ``estimate``,
    ``lower``, ``upper``, optional ``defined``), first row on top; then :func:`_label_rows`."""
    y = np.arange(len(frame))[::-1]
    ax.errorbar(
        frame["estimate"].to_numpy(np.float64),
        y,
        xerr=interval_errors(frame),
        fmt="o",
        color=COLORS[0],
        capsize=3,
    )
    _label_rows(ax, y, labels, xlabel, title, reference)
    return ax


#: Colour of a "no difference" bar (interval inside the practical margin) in verdict figures.
NEGLIGIBLE_COLOR = "khaki"


def tornado(
    frame: pd.DataFrame,
    ax: Axes | None = None,
    *,
    label: str = "variant",
    xlabel: str = "effect",
    title: str = "",
    legend: bool = True,
    cannot_text: str = "cannot act",
) -> Axes:
    """Tornado chart: one horizontal bar per variant, largest absolute effect on top.

    Colours (every one in the legend): resolved effects blue (positive) or red (negative),
    hatched when "resolved, possibly negligible"; not resolved or too small to tell grey; no
    difference (inside the practical margin) :data:`NEGLIGIBLE_COLOR`; an
    identical variant (no pair differed) a black tick at 0. A variant that cannot act on the
    metric (column ``cannot_act`` True) gets no bar, only ``cannot_text`` at 0, so it
    never reads as a measured zero. Whiskers are the rows' ``lower`` / ``upper`` as given (the
    reports pass the intervals at each row's Holm level, which agree with the verdicts).

    Parameters
    ----------
    frame : DataFrame
        Columns ``label``, ``estimate``, ``lower``, ``upper``, optional ``defined``,
        ``verdict`` (see :func:`cuarenta_sim.stats.verdicts`) and ``cannot_act``; one row per
        variant.
    ax : Axes, optional
        Where to draw; default a new figure sized to the number of rows.
    label : str
        Column naming each bar.
    xlabel, title : str
        Axis label and title.
    legend : bool
        Draw the colour legend below the axes.
    cannot_text : str
        The words drawn at 0 for a ``cannot_act`` row (default ``"cannot act"``).

    Returns
    -------
    Axes

    Raises
    ------
    ValueError
        An empty frame, or one missing ``label`` or an estimate column (the message names
        the columns needed).
    """
    from matplotlib.patches import Patch

    needed = [c for c in (label, "estimate", "lower", "upper") if c not in frame]
    if frame.empty or needed:
        what = f"lacks column(s) {', '.join(needed)}" if needed else "has no rows"
        raise ValueError(
            f"tornado: the frame {what}; give one row per variant with columns {label}, "
            "estimate, lower, upper (optional defined, verdict)"
        )
    ax = new_axes(ax, (7.0, 0.35 * len(frame) + 1.5))
    order = frame.assign(_abs=frame["estimate"].abs().fillna(0.0)).sort_values(
        "_abs", kind="stable"
    )
    y = np.arange(len(order))
    verdict = (
        order["verdict"].astype(str).to_numpy()
        if "verdict" in order
        else np.full(len(order), "resolved", dtype=object)
    )
    cannot = (
        order["cannot_act"].fillna(False).to_numpy(bool)
        if "cannot_act" in order
        else np.zeros(len(order), dtype=bool)
    )
    resolved = np.array([v.startswith("resolved") for v in verdict])
    maybe = np.array([v.startswith("resolved, possibly negligible") for v in verdict])
    identical = verdict == "identical"
    est = order["estimate"].to_numpy(np.float64)
    negligible = verdict == "negligible"
    colors = [
        (COLORS[3] if e < 0 else COLORS[0]) if ok else (NEGLIGIBLE_COLOR if neg else "lightgray")
        for e, ok, neg in zip(est, resolved, negligible, strict=True)
    ]
    widths = np.where(cannot | identical, 0.0, np.nan_to_num(est))
    errors = interval_errors(order)
    errors[:, cannot | identical] = 0.0
    bars = ax.barh(y, widths, color=colors, xerr=errors, capsize=2, error_kw={"elinewidth": 0.8})
    for bar, hatch in zip(bars, maybe, strict=True):
        if hatch:
            bar.set_hatch("//")
            bar.set_edgecolor("white")
    for yi in y[identical & ~cannot]:
        ax.plot([0.0], [yi], marker="|", color="black", markersize=10)
    for yi in y[cannot]:
        ax.text(
            0.0, yi, f" {cannot_text}", va="center", ha="left", fontsize="small", color="dimgray"
        )
    _label_rows(ax, y, order[label], xlabel, title, 0.0)
    if legend:
        handles = [
            Patch(facecolor=COLORS[0], label="resolved, positive"),
            Patch(facecolor=COLORS[3], label="resolved, negative"),
            Patch(facecolor="gray", hatch="//", edgecolor="white",
                  label="resolved, possibly negligible"),
            Patch(facecolor="lightgray", label="not resolved / too small to tell"),
            Patch(facecolor=NEGLIGIBLE_COLOR, label="no difference (inside the margin)"),
            Patch(facecolor="white", edgecolor="black", label="| identical: 0 of n differ"),
        ]  # fmt: skip
        ax.legend(handles=handles, loc="upper center", bbox_to_anchor=(0.5, -0.18), ncol=2,
                  frameon=False, fontsize="small")  # fmt: skip
    return ax


def forest(
    frame: pd.DataFrame,
    ax: Axes | None = None,
    *,
    label: str = "label",
    xlabel: str = "estimate",
    title: str = "",
    reference: float | None = None,
) -> Axes:
    """Forest plot: one point with its interval per row, rows top to bottom in frame order.

    Parameters
    ----------
    frame : DataFrame
        Columns ``label``, ``estimate``, ``lower``, ``upper`` and optional ``defined``.
    ax : Axes, optional
        Where to draw; default a new figure sized to the number of rows.
    label : str
        Column naming each row.
    xlabel, title : str
        Axis label and title.
    reference : float, optional
        Draw a vertical line at this value (e.g. 0.5 for a win rate, 0 for a difference).

    Returns
    -------
    Axes
    """
    ax = new_axes(ax, (7.0, 0.4 * len(frame) + 1.5))
    return _points_by_row(ax, frame, frame[label], xlabel, title, reference)


def exact_vs_simulated(
    frame: pd.DataFrame,
    ax: Axes | None = None,
    *,
    label: str = "label",
    title: str = "",
) -> Axes:
    """Simulated estimates against exact values, as relative deviations with intervals.

    Each row is drawn at ``simulated / exact - 1`` (in percent) with its interval scaled the
    same way; a vertical line marks perfect agreement.

    Parameters
    ----------
    frame : DataFrame
        Columns ``label``, ``exact`` (float, > 0), ``estimate``, ``lower``, ``upper``
        (simulated), optional ``defined``.
    ax : Axes, optional
        Where to draw; default a new figure sized to the number of rows.
    label : str
        Column naming each row.
    title : str
        Title of the axes.

    Returns
    -------
    Axes
    """
    ax = new_axes(ax, (7.0, 0.32 * len(frame) + 1.5))
    exact = frame["exact"].to_numpy(np.float64)
    rel = pd.DataFrame(
        {
            "estimate": 100.0 * (frame["estimate"].to_numpy(np.float64) / exact - 1.0),
            "lower": 100.0 * (frame["lower"].to_numpy(np.float64) / exact - 1.0),
            "upper": 100.0 * (frame["upper"].to_numpy(np.float64) / exact - 1.0),
            "defined": frame["defined"].to_numpy(bool) if "defined" in frame else True,
        }
    )
    xlabel = "simulated / exact - 1 (%)"
    return _points_by_row(ax, rel, frame[label], xlabel, title or "Simulated vs exact odds", 0.0)


# ---------------------------------------------------------------------- lines
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
    colors: Mapping[object, Any] | None = None,
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
    colors : mapping, optional
        Group -> colour (as :func:`grouped_bars`); default :data:`COLORS` in order.

    Returns
    -------
    Axes
    """
    ax = new_axes(ax)
    groups = list(dict.fromkeys(frame[group]))
    for i, g in enumerate(groups):
        sub = frame[frame[group] == g].sort_values(x, kind="stable")
        color = _series_color(g, i, colors)
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
