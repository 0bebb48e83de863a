"""Grid figures: heat maps of a value over two numeric scores (:func:`score_heatmap`), and
probability grids that set low-n and never-reached cells apart (:func:`probability_grid`).

Tidy frames in, a matplotlib Axes out (see :mod:`cuarenta_sim.plotting`).
"""

from __future__ import annotations

import matplotlib
import numpy as np
import pandas as pd
from matplotlib.axes import Axes

from .plot_axes import label_axes, new_axes


def score_grid(frame: pd.DataFrame, row: str, column: str, value: str) -> pd.DataFrame:
    """``value`` of a tidy frame as a grid: ``row`` values down (ascending), ``column``
    values across (ascending); absent cells NaN (first row per cell when several)."""
    grid = frame.pivot_table(
        index=row, columns=column, values=value, aggfunc="first", dropna=False, observed=False
    )
    return grid.sort_index().sort_index(axis=1)


def label_grid(ax: Axes, grid: pd.DataFrame, row: str, column: str, title: str) -> None:
    """Ticks (at most about ten per axis) of a grid drawn by ``imshow``, the axis labels
    (the column names, underscores as spaces) and the title (when not empty)."""
    ys = grid.index.to_numpy(np.float64)
    xs = grid.columns.to_numpy(np.float64)
    step = max(1, len(xs) // 10)
    ax.set_xticks(np.arange(len(xs))[::step], [f"{v:g}" for v in xs[::step]])
    ax.set_yticks(np.arange(len(ys))[::step], [f"{v:g}" for v in ys[::step]])
    label_axes(ax, xlabel=column.replace("_", " "), ylabel=row.replace("_", " "), title=title)


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
    ax = new_axes(ax, (6.0, 5.0))
    grid = score_grid(frame, row, column, value)
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
    label_grid(ax, grid, row, column, title)
    if colorbar:
        ax.figure.colorbar(image, ax=ax, label=cbar_label)
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

    ax = new_axes(ax, (6.0, 5.0))
    est = score_grid(frame, row, column, "estimate")
    cnt = score_grid(frame, row, column, "n").reindex_like(est).fillna(0)
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
    label_grid(ax, est, row, column, title)
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
