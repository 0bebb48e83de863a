"""What every figure of :mod:`cuarenta_sim.plotting` shares: the colours, a new Axes when none
is given, interval whiskers from ``lower`` / ``upper`` columns, and the labelling of an Axes.

Game-agnostic; nothing here calls ``plt.show()``.
"""

from __future__ import annotations

import matplotlib
import numpy as np
import pandas as pd
from matplotlib.axes import Axes

#: Colours of the variants, in order (matplotlib's tab10).
COLORS = tuple(matplotlib.colormaps["tab10"].colors)  # type: ignore[attr-defined]


def new_axes(ax: Axes | None, figsize: tuple[float, float] = (7.0, 4.5)) -> Axes:
    """``ax`` itself, or the Axes of a new pyplot figure of ``figsize`` inches when None."""
    if ax is not None:
        return ax
    import matplotlib.pyplot as plt

    _, new = plt.subplots(figsize=figsize)
    return new


def interval_errors(frame: pd.DataFrame) -> np.ndarray:
    """Asymmetric error-bar lengths, shape ``(2, rows)``, from the columns ``estimate``,
    ``lower``, ``upper`` (and ``defined``, else "``lower`` is finite"); 0 where undefined."""
    est = frame["estimate"].to_numpy(np.float64)
    lo = frame["lower"].to_numpy(np.float64)
    hi = frame["upper"].to_numpy(np.float64)
    ok = frame["defined"].to_numpy(bool) if "defined" in frame else np.isfinite(lo)
    below = np.where(ok, np.clip(est - lo, 0.0, None), 0.0)
    above = np.where(ok, np.clip(hi - est, 0.0, None), 0.0)
    return np.vstack([np.nan_to_num(below), np.nan_to_num(above)])


def label_axes(
    ax: Axes,
    *,
    xlabel: str,
    ylabel: str | None = None,
    title: str = "",
    hline: float | None = None,
    xscale: str | None = None,
) -> None:
    """Finish an Axes: a black reference line at ``y = hline``, the x scale ``xscale`` (e.g.
    ``"log"``), the axis labels (the y label only when given) and the title (when not empty),
    in that order (each only when given).

    Parameters
    ----------
    ax : Axes
        The Axes to finish.
    xlabel : str
        Label of the x axis.
    ylabel : str, optional
        Label of the y axis; None leaves it as it is.
    title : str
        Title; empty leaves none.
    hline : float, optional
        y of a horizontal reference line (e.g. 0.5 for a win rate, 0 for a difference).
    xscale : str, optional
        Scale of the x axis (``"log"``); None leaves it linear.
    """
    if hline is not None:
        ax.axhline(hline, color="black", linewidth=0.8)
    if xscale is not None:
        ax.set_xscale(xscale)
    ax.set_xlabel(xlabel)
    if ylabel is not None:
        ax.set_ylabel(ylabel)
    if title:
        ax.set_title(title)
