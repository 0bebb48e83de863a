"""Figures with one horizontal row per variant: :func:`tornado` (bars coloured by verdict),
:func:`forest` (a point and its interval per row) and :func:`exact_vs_simulated`.

Tidy frames in, a matplotlib Axes out (see :mod:`cuarenta_sim.plotting`).
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from matplotlib.axes import Axes

from .plot_axes import COLORS, interval_errors, label_axes, new_axes


def label_rows(
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


def points_by_row(
    ax: Axes,
    frame: pd.DataFrame,
    labels: pd.Series,
    xlabel: str,
    title: str,
    reference: float | None,
) -> Axes:
    """One point with its interval whiskers per row of ``frame`` (columns ``estimate``,
    ``lower``, ``upper``, optional ``defined``), first row on top; then :func:`label_rows`."""
    y = np.arange(len(frame))[::-1]
    ax.errorbar(
        frame["estimate"].to_numpy(np.float64),
        y,
        xerr=interval_errors(frame),
        fmt="o",
        color=COLORS[0],
        capsize=3,
    )
    label_rows(ax, y, labels, xlabel, title, reference)
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
) -> Axes:
    """Tornado chart: one horizontal bar per variant, largest absolute effect on top.

    Colours (every one in the legend): resolved effects blue (positive) or red (negative),
    hatched when "resolved, possibly negligible"; not resolved or too small to tell grey; no
    difference (inside the practical margin) :data:`NEGLIGIBLE_COLOR`; an
    identical variant (no pair differed) a black tick at 0. A variant that cannot act on the
    metric (column ``cannot_act`` True) gets no bar, only the words "cannot act" at 0, so it
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
        ax.text(0.0, yi, " cannot act", va="center", ha="left", fontsize="small", color="dimgray")
    label_rows(ax, y, order[label], xlabel, title, 0.0)
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
    return points_by_row(ax, frame, frame[label], xlabel, title, reference)


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
    return points_by_row(ax, rel, frame[label], xlabel, title or "Simulated vs exact odds", 0.0)
