"""Figures of the strategies report: the head-to-head matrix, the ratings forest with the
intervals the ratings table prints, the folk-tactic dose response and strength against cost.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
from matplotlib.figure import Figure
from matplotlib.ticker import FixedFormatter, FixedLocator, NullFormatter

from .. import plotting
from ..studies.framework import new_figure
from ..tournament import head_to_head_matrix
from .strategy_tables import short_name


# --------------------------------------------------------------------------- strength vs cost
def log_ticks(lo: float, hi: float) -> list[float]:
    """Major ticks of a log axis from ``lo`` to ``hi`` (> 0): the 1-2-5 series inside the
    range, thinned to 1 and 5, then to the powers of ten (then to every k-th of them) when it
    would hold more than 6 ticks, so that the labels cannot overlap.

    Raises
    ------
    ValueError
        ``lo`` or ``hi`` not positive, or ``hi <= lo``.
    """
    if not (0 < lo < hi):
        raise ValueError(f"a log axis needs 0 < lo < hi, got {lo!r}, {hi!r}")
    for steps in ((1, 2, 5), (1, 5), (1,)):
        ticks = [
            m * 10.0**e
            for e in range(int(np.floor(np.log10(lo))), int(np.ceil(np.log10(hi))) + 1)
            for m in steps
            if lo <= m * 10.0**e <= hi
        ]
        if len(ticks) <= 6:
            break
    step = -(-len(ticks) // 6)  # many decades: every step-th power of ten
    return ticks[::step]


def sweep_figure(sweep: dict[str, Any], speeds: pd.DataFrame) -> Figure:
    fig, axes = new_figure(1, 1, (7.0, 4.5))
    ax = axes[0, 0]
    for name, marker in (("pimc", "o"), ("solver", "s")):
        pts = sorted((p for p in sweep["sweep"] if p["policy"] == name), key=lambda p: p["samples"])
        if not pts:
            continue
        sp = speeds.set_index(["policy", "samples"])
        x = [float(sp.loc[(p["policy"], p["samples"]), "wall_mean"]) for p in pts]
        y = [100 * p["win_rate"] for p in pts]
        err = [
            [100 * (p["win_rate"] - p["lower"]) for p in pts],
            [100 * (p["upper"] - p["win_rate"]) for p in pts],
        ]
        ax.errorbar(x, y, yerr=err, marker=marker, capsize=3, label=name)
        for p, xi, yi in zip(pts, x, y, strict=True):
            ax.annotate(str(p["samples"]), (xi, yi), textcoords="offset points", xytext=(4, 4))
    ax.axhline(50.0, color="grey", lw=0.8, ls="--")
    ax.set_xscale("log")
    lo, hi = ax.get_xlim()
    ticks = log_ticks(lo, hi)
    ax.xaxis.set_major_locator(FixedLocator(ticks))
    ax.xaxis.set_major_formatter(FixedFormatter([f"{t:,.0f}" for t in ticks]))
    # No labels on the minor ticks: on an axis of one or two decades matplotlib labels them
    # too (2x10^3, 3x10^3 ...) and they overlap.
    ax.xaxis.set_minor_formatter(NullFormatter())
    ax.set_xlim(lo, hi)
    ax.set_xlabel("decisions per second measured in this run, wall (log scale; labels: samples)")
    ax.set_ylabel("duplicate chica win rate vs heuristic (%)")
    pairs = sorted({p["pairs"] for p in sweep["sweep"]})
    ax.set_title(
        f"Strength against cost, 2 players, Quito ({', '.join(f'{k:,}' for k in pairs)} "
        "duplicate chica indices per point, 95% clustered Wilson)",
        fontsize=9,
    )
    ax.legend()
    return fig


def dose_figure(frame: pd.DataFrame) -> Figure:
    from .tactics import FORCED

    fig, axes = new_figure(1, 1, (7.5, 4.5))
    ax = axes[0, 0]
    # Dose 0 is plain learned against itself: in duplicate exactly even (no interval).
    doses = [0.0, *sorted(frame["dose"].unique())]
    pos = {d: i for i, d in enumerate(doses)}
    for k, (label, rows) in enumerate(frame.groupby("label", sort=False)):
        x = np.array([0.0] + [pos[d] for d in rows["dose"]]) + 0.06 * (k - 2)
        y = np.concatenate([[0.0], 100 * rows["effect"].to_numpy()])
        err = [
            np.concatenate([[0.0], 100 * (rows["effect"] - rows["dose_lower_adj"]).to_numpy()]),
            np.concatenate([[0.0], 100 * (rows["dose_upper_adj"] - rows["effect"]).to_numpy()]),
        ]
        ax.errorbar(x, y, yerr=err, marker="o", capsize=3, label=label)
    ax.axhline(0.0, color="black", lw=0.8)
    ax.set_xticks(range(len(doses)), ["forced" if d >= FORCED else f"{d:g}" for d in doses])
    ax.set_xlabel("dose: points of bonus for following the tactic (learned's own point)")
    ax.set_ylabel("win rate change (percentage points)")
    ax.set_title(
        "Folk tactics forced on the learned player: dose-response\n"
        "(intervals at the level Holm tested each dose; a bar excludes 0 iff resolved)"
    )
    ax.legend(fontsize=8)
    return fig


def matrix_figure(table: pd.DataFrame, players: int) -> Figure:
    matrix = head_to_head_matrix(table, "win_rate")
    k = len(matrix)
    fig, axes = new_figure(1, 1, (1.1 * k + 2.5, 0.9 * k + 1.5))
    ax = axes[0, 0]
    values = 100 * matrix.to_numpy(np.float64)
    image = ax.imshow(np.ma.masked_invalid(values), cmap="RdBu", vmin=0, vmax=100)
    lo = 100 * head_to_head_matrix(table, "lower").to_numpy(np.float64)
    hi = 100 * head_to_head_matrix(table, "upper").to_numpy(np.float64)
    for i in range(k):
        for j in range(k):
            if np.isfinite(values[i, j]):
                ax.text(
                    j,
                    i,
                    f"{values[i, j]:.1f}\n[{lo[i, j]:.1f}, {hi[i, j]:.1f}]",
                    ha="center",
                    va="center",
                    fontsize=7,
                    # White text on the dark ends of the scale.
                    color="white" if abs(values[i, j] - 50.0) > 30.0 else "black",
                )
    names = [short_name(p) for p in matrix.index]
    ax.set_xticks(range(k), names, rotation=30)
    ax.set_yticks(range(k), names)
    ax.set_xlabel("opponent")
    ax.set_ylabel("player")
    ax.set_title(f"Chica win rate of the row against the column (%), {players} players")
    fig.colorbar(image, ax=ax, label="win rate (%)")
    return fig


def ratings_figure(rating: pd.DataFrame, players: int, misfit: bool) -> Figure:
    """Forest plot of the ratings with the intervals the ratings table prints: widened by
    the misfit (``lower_inflated`` / ``upper_inflated``, :func:`cuarenta_sim.rating_checks.inflate`)
    when present, else the bootstrap interval.

    Parameters
    ----------
    rating : DataFrame
        ``policy``, ``rating``, ``lower``, ``upper`` (Elo) and optionally the widened bounds
        and ``inflation``.
    players : int
        Player count (title).
    misfit : bool
        Whether Bradley-Terry misfits (title warning).

    Returns
    -------
    Figure
    """
    fig, axes = new_figure(1, 1, (7.0, 0.5 * len(rating) + 1.8))
    frame = rating.rename(columns={"rating": "estimate"})
    xlabel = "Elo rating (mean 0), 95% shared-deal bootstrap interval"
    if "lower_inflated" in rating:
        frame = frame.assign(lower=rating["lower_inflated"], upper=rating["upper_inflated"])
        xlabel += f" widened x{float(rating['inflation'].iloc[0]):.2f} by the misfit"
    plotting.forest(
        frame,
        axes[0, 0],
        label="policy",
        xlabel=xlabel,
        title=f"Bradley-Terry ratings, {players} players"
        + (" (MISFIT: read the head-to-head table)" if misfit else ""),
        reference=0.0,
    )
    return fig
