"""Figures: tidy frames in, a matplotlib Axes out.

Every function takes ``ax=None`` (then it makes a new figure with ``plt.subplots``) and
returns the Axes it drew on; nothing calls ``plt.show()``. Report code passes Axes of a
:class:`matplotlib.figure.Figure` it made itself, so no pyplot state is involved; tests use the
Agg backend. Intervals are drawn as error bars from the frames' ``lower`` / ``upper`` columns
(whatever method made them); rows with ``defined = False`` are drawn without a bar.

The functions are game-agnostic: they read the columns their docstrings list, and labels are
parameters.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import matplotlib
import numpy as np
import pandas as pd
from matplotlib.axes import Axes

#: Colours of the variants, in order (matplotlib's tab10).
COLORS = tuple(matplotlib.colormaps["tab10"].colors)  # type: ignore[attr-defined]


def _axes(ax: Axes | None, figsize: tuple[float, float] = (7.0, 4.5)) -> Axes:
    if ax is not None:
        return ax
    import matplotlib.pyplot as plt

    _, new = plt.subplots(figsize=figsize)
    return new


def _errors(frame: pd.DataFrame) -> np.ndarray:
    """Asymmetric error-bar lengths ``(2, n)`` from estimate/lower/upper; 0 where undefined."""
    est = frame["estimate"].to_numpy(np.float64)
    lo = frame["lower"].to_numpy(np.float64)
    hi = frame["upper"].to_numpy(np.float64)
    ok = frame["defined"].to_numpy(bool) if "defined" in frame else np.isfinite(lo)
    below = np.where(ok, np.clip(est - lo, 0.0, None), 0.0)
    above = np.where(ok, np.clip(hi - est, 0.0, None), 0.0)
    return np.vstack([np.nan_to_num(below), np.nan_to_num(above)])


def _series_color(group: object, index: int, colors: Mapping[object, Any] | None) -> Any:
    """The colour of series ``group`` (the ``index``-th of its panel): ``colors[group]`` when
    given, else :data:`COLORS` in order."""
    if colors is not None and group in colors:
        return colors[group]
    return COLORS[index % len(COLORS)]


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
    ax = _axes(ax)
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
            yerr=_errors(sub.fillna({"defined": False})),
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
    ax = _axes(ax)
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


def score_heatmap(
    frame: pd.DataFrame,
    ax: Axes | None = None,
    *,
    row: str = "own_score",
    column: str = "opponent_score",
    value: str = "estimate",
    title: str = "",
    colorbar: bool = True,
    vmin: float = 0.0,
    vmax: float = 1.0,
    cbar_label: str = "probability",
) -> Axes:
    """Heat map of a probability over a grid of score states (empty cells left blank).

    Parameters
    ----------
    frame : DataFrame
        One row per cell: columns ``row``, ``column`` (numeric scores) and ``value``; cells
        with NaN ``value`` (no observations) are drawn blank.
    ax : Axes, optional
        Where to draw; default a new figure.
    row, column, value : str
        Column names: y axis, x axis, colour.
    title : str
        Title of the axes.
    colorbar : bool
        Draw a colour bar.
    vmin, vmax : float
        Colour scale limits.
    cbar_label : str
        Label of the colour bar.

    Returns
    -------
    Axes
    """
    ax = _axes(ax, (6.0, 5.0))
    grid = frame.pivot_table(
        index=row, columns=column, values=value, aggfunc="first", dropna=False, observed=False
    )
    grid = grid.sort_index().sort_index(axis=1)
    ys = grid.index.to_numpy(np.float64)
    xs = grid.columns.to_numpy(np.float64)
    values = np.ma.masked_invalid(grid.to_numpy(np.float64))
    image = ax.imshow(
        values,
        origin="lower",
        cmap="RdBu",
        vmin=vmin,
        vmax=vmax,
        aspect="auto",
        interpolation="nearest",
    )
    step = max(1, len(xs) // 10)
    ax.set_xticks(np.arange(len(xs))[::step], [f"{v:g}" for v in xs[::step]])
    ax.set_yticks(np.arange(len(ys))[::step], [f"{v:g}" for v in ys[::step]])
    ax.set_xlabel(column.replace("_", " "))
    ax.set_ylabel(row.replace("_", " "))
    if title:
        ax.set_title(title)
    if colorbar:
        ax.figure.colorbar(image, ax=ax, label=cbar_label)
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
    ax = _axes(ax, (7.0, 0.35 * len(frame) + 1.5))
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
    errors = _errors(order)
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
    ax.axvline(0.0, color="black", linewidth=0.8)
    ax.set_yticks(y, order[label].astype(str).tolist())
    ax.set_xlabel(xlabel)
    if title:
        ax.set_title(title)
    ax.grid(axis="x", alpha=0.3)
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
    ax = _axes(ax, (7.0, 0.4 * len(frame) + 1.5))
    y = np.arange(len(frame))[::-1]
    ax.errorbar(
        frame["estimate"].to_numpy(np.float64),
        y,
        xerr=_errors(frame),
        fmt="o",
        color=COLORS[0],
        capsize=3,
    )
    if reference is not None:
        ax.axvline(reference, color="black", linewidth=0.8)
    ax.set_yticks(y, frame[label].astype(str).tolist())
    ax.set_xlabel(xlabel)
    if title:
        ax.set_title(title)
    ax.grid(axis="x", alpha=0.3)
    return ax


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
    ax = _axes(ax, (7.0, 0.32 * len(frame) + 1.5))
    exact = frame["exact"].to_numpy(np.float64)
    rel = pd.DataFrame(
        {
            "estimate": 100.0 * (frame["estimate"].to_numpy(np.float64) / exact - 1.0),
            "lower": 100.0 * (frame["lower"].to_numpy(np.float64) / exact - 1.0),
            "upper": 100.0 * (frame["upper"].to_numpy(np.float64) / exact - 1.0),
            "defined": frame["defined"].to_numpy(bool) if "defined" in frame else True,
        }
    )
    y = np.arange(len(frame))[::-1]
    ax.errorbar(rel["estimate"], y, xerr=_errors(rel), fmt="o", color=COLORS[0], capsize=3)
    ax.axvline(0.0, color="black", linewidth=0.8)
    ax.set_yticks(y, frame[label].astype(str).tolist())
    ax.set_xlabel("simulated / exact - 1 (%)")
    ax.set_title(title or "Simulated vs exact odds")
    ax.grid(axis="x", alpha=0.3)
    return ax


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
    ax = _axes(ax)
    groups = list(dict.fromkeys(frame[group]))
    for i, g in enumerate(groups):
        sub = frame[frame[group] == g].sort_values(x, kind="stable")
        color = _series_color(g, i, colors)
        ax.errorbar(
            sub[x].to_numpy(np.float64),
            sub["estimate"].to_numpy(np.float64),
            yerr=_errors(sub.fillna({"defined": False})),
            fmt="o-",
            markersize=3,
            capsize=2,
            color=color,
            label=str(g),
        )
        if marks and g in marks:
            ax.axvline(marks[g], color=color, linestyle="--", linewidth=0.9)
    if reference is not None:
        ax.axhline(reference, color="black", linewidth=0.8)
    ax.set_xlabel(xlabel or x)
    ax.set_ylabel(ylabel)
    if title:
        ax.set_title(title)
    if len(groups) > 1:
        ax.legend(frameon=False)
    ax.grid(alpha=0.3)
    return ax


#: Colour of a cell never reached in a probability grid (dark grey, hatched ``xx``).
NEVER_REACHED_COLOR = (0.30, 0.30, 0.30, 1.0)
#: Colour of a cell with too few observations to show (light grey, hatched ``..``).
LOW_N_COLOR = (0.78, 0.78, 0.78, 1.0)
#: Colour map of probability grids: red below 50%, blue above; its middle is near-white.
PROBABILITY_CMAP = "RdBu"


def probability_grid_colors(
    values: np.ndarray,
    n: np.ndarray,
    min_n: int,
    *,
    vmin: float = 0.0,
    vmax: float = 1.0,
    cmap: str = PROBABILITY_CMAP,
) -> np.ndarray:
    """RGBA colours of a probability grid: the colour map, grey for low-n and never-reached.

    Parameters
    ----------
    values : ndarray of float, shape (rows, cols)
        Probabilities (NaN where masked or never reached).
    n : ndarray of int, shape (rows, cols)
        Observations per cell.
    min_n : int
        Cells with ``0 < n < min_n`` get :data:`LOW_N_COLOR` whatever their value; cells with
        ``n = 0`` get :data:`NEVER_REACHED_COLOR` (so neither can be read as 50%).
    vmin, vmax : float
        Limits of the colour scale.
    cmap : str
        Matplotlib colour map name.

    Returns
    -------
    ndarray of float, shape (rows, cols, 4)
    """
    v = np.asarray(values, dtype=np.float64)
    counts = np.asarray(n)
    scaled = np.clip((v - vmin) / (vmax - vmin), 0.0, 1.0)
    rgba = np.asarray(matplotlib.colormaps[cmap](np.nan_to_num(scaled, nan=0.5)), np.float64)
    rgba[(counts > 0) & ((counts < min_n) | ~np.isfinite(v))] = LOW_N_COLOR
    rgba[counts == 0] = NEVER_REACHED_COLOR
    return rgba


def probability_grid(
    frame: pd.DataFrame,
    ax: Axes | None = None,
    *,
    row: str = "own_score",
    column: str = "opponent_score",
    min_n: int = 1,
    title: str = "",
    colorbar: bool = True,
    cbar_label: str = "probability",
    legend: bool = True,
) -> Axes:
    """Heat map of a probability over a grid, low-n and never-reached cells set apart.

    Shown cells take the diverging colour map (:data:`PROBABILITY_CMAP`, 50% near white);
    cells with ``0 < n < min_n`` are light grey hatched ``..`` and cells never reached dark
    grey hatched ``xx`` (:func:`probability_grid_colors`), so neither reads as 50%.

    Parameters
    ----------
    frame : DataFrame
        One row per cell: ``row``, ``column`` (numbers), ``estimate`` (NaN where masked) and
        ``n``.
    ax : Axes, optional
        Where to draw; default a new figure.
    row, column : str
        Columns along y and x.
    min_n : int
        Threshold of the masked cells (as used for the table).
    title : str
        Title of the axes.
    colorbar : bool
        Draw a colour bar (0 to 100%).
    cbar_label : str
        Label of the colour bar.
    legend : bool
        Explain the two grey cell kinds below the axes.

    Returns
    -------
    Axes
    """
    from matplotlib.cm import ScalarMappable
    from matplotlib.colors import Normalize
    from matplotlib.patches import Patch, Rectangle

    ax = _axes(ax, (6.0, 5.0))
    est = (
        frame.pivot_table(
            index=row,
            columns=column,
            values="estimate",
            aggfunc="first",
            dropna=False,
            observed=False,
        )
        .sort_index()
        .sort_index(axis=1)
    )
    cnt = (
        frame.pivot_table(
            index=row, columns=column, values="n", aggfunc="first", dropna=False, observed=False
        )
        .reindex_like(est)
        .fillna(0)
    )
    colors = probability_grid_colors(est.to_numpy(np.float64), cnt.to_numpy(np.int64), min_n)
    ax.imshow(colors, origin="lower", aspect="auto", interpolation="nearest")
    counts = cnt.to_numpy(np.int64)
    for (i, j), c in np.ndenumerate(counts):
        if c < min_n:
            ax.add_patch(
                Rectangle(
                    (j - 0.5, i - 0.5),
                    1,
                    1,
                    fill=False,
                    linewidth=0,
                    hatch="xx" if c == 0 else "..",
                    edgecolor="white",
                )
            )
    ys = est.index.to_numpy(np.float64)
    xs = est.columns.to_numpy(np.float64)
    step = max(1, len(xs) // 10)
    ax.set_xticks(np.arange(len(xs))[::step], [f"{v:g}" for v in xs[::step]])
    ax.set_yticks(np.arange(len(ys))[::step], [f"{v:g}" for v in ys[::step]])
    ax.set_xlabel(column.replace("_", " "))
    ax.set_ylabel(row.replace("_", " "))
    if title:
        ax.set_title(title)
    if colorbar:
        mappable = ScalarMappable(Normalize(0.0, 100.0), PROBABILITY_CMAP)
        ax.figure.colorbar(mappable, ax=ax, label=cbar_label)
    if legend:
        ax.legend(
            handles=[
                Patch(
                    facecolor=LOW_N_COLOR,
                    hatch="..",
                    edgecolor="white",
                    label=f"n < {min_n} (masked)",
                ),
                Patch(
                    facecolor=NEVER_REACHED_COLOR,
                    hatch="xx",
                    edgecolor="white",
                    label="never reached",
                ),
            ],
            loc="upper center",
            bbox_to_anchor=(0.5, -0.12),
            ncol=2,
            frameon=False,
            fontsize="small",
        )
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
    ax = _axes(ax)
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
    if reference is not None:
        ax.axhline(reference, color="black", linewidth=0.8)
    ax.set_xscale("log")
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    if title:
        ax.set_title(title)
    ax.legend(frameon=False, fontsize="small")
    ax.grid(alpha=0.3)
    return ax
