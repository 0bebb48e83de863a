"""How much is enough: running estimates with their band and seed replicates, for any report.

A report's methods section can show that its size suffices: :func:`running_estimates` follows
an estimate (a mean or a proportion of independent units, :mod:`cuarenta_sim.stats`) as the run
grows, for the main run and for replicate runs on other seeds; :func:`convergence_note` draws
it (:func:`cuarenta_sim.plotting.convergence`) and writes the paragraph: the final interval,
where the replicates ended, and the size :func:`cuarenta_sim.stats.required_n` gives for half
the half-width. Game-independent: a study passes the per-unit values it already has.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from .. import plotting, stats
from .framework import cell, new_figure

#: Kinds of estimate :func:`running_estimates` follows.
KINDS = ("mean", "proportion")


def _checkpoints(n: int, points: int) -> np.ndarray:
    start = min(n, 10)
    return np.unique(np.geomspace(start, n, num=max(points, 2)).round().astype(np.int64))


def running_estimates(
    replicates: Sequence[np.ndarray | pd.Series],
    kind: str = "mean",
    confidence: float = 0.95,
    points: int = 40,
) -> pd.DataFrame:
    """The estimate after the first ``k`` units, for ``k`` from 10 to all, per replicate.

    Parameters
    ----------
    replicates : sequence of array-like, each shape (units,)
        Per-unit values in run order; the first is the main run (its band is drawn), the
        others replicate runs on other seeds. Proportions take 0/1 values.
    kind : {"mean", "proportion"}
        :func:`cuarenta_sim.stats.mean` (t below 1,000 units, then normal) or
        :func:`cuarenta_sim.stats.proportion` (Wilson).
    confidence : float
        Two-sided level.
    points : int
        Checkpoints per replicate (log-spaced), >= 2.

    Returns
    -------
    DataFrame
        ``replicate`` (0 = main), ``n``, ``estimate``, ``lower``, ``upper``, ``method``,
        ``defined``.

    Raises
    ------
    ValueError
        Unknown kind, no replicate, or an empty replicate.
    """
    if kind not in KINDS:
        raise ValueError(f"kind must be one of {', '.join(KINDS)}, got {kind!r}")
    if not replicates:
        raise ValueError("running_estimates needs at least one replicate")
    rows = []
    for r, values in enumerate(replicates):
        x = np.asarray(values, dtype=np.float64)
        if x.size == 0:
            raise ValueError(f"replicate {r} has no units")
        csum = np.cumsum(x)
        for k in _checkpoints(x.size, points):
            if kind == "mean":
                row = stats.mean("running", x[:k], confidence)
            else:
                row = stats.proportion("running", round(float(csum[k - 1])), int(k), confidence)
            rows.append(
                {
                    "replicate": r,
                    "n": int(k),
                    **{c: row[c] for c in ("estimate", "lower", "upper", "method", "defined")},
                }
            )
    return pd.DataFrame(rows)


def convergence_note(
    replicates: Sequence[np.ndarray | pd.Series],
    *,
    what: str,
    unit: str,
    kind: str = "mean",
    confidence: float = 0.95,
    percent: bool = False,
    reference: float | None = None,
) -> tuple[str, Figure, pd.DataFrame]:
    """A methods paragraph and figure: does the estimate of ``what`` settle at this size?

    Parameters
    ----------
    replicates : sequence of array-like
        As for :func:`running_estimates` (main run first).
    what : str
        The quantity, in words (``"P(the dealer's side wins the chica)"``).
    unit : str
        What one value is (``"chicas"``), for the axis and the text.
    kind : {"mean", "proportion"}
    confidence : float
    percent : bool
        Print as a percentage.
    reference : float, optional
        Horizontal reference line.

    Returns
    -------
    (str, Figure, DataFrame)
        Markdown paragraph, the figure (:func:`cuarenta_sim.plotting.convergence`) and the
        frame of :func:`running_estimates`.
    """
    frame = running_estimates(replicates, kind, confidence)
    fig, axes = new_figure(1, 1, (7.0, 4.0))
    k = 100.0 if percent else 1.0
    shown = frame.assign(**{c: frame[c] * k for c in ("estimate", "lower", "upper")})
    plotting.convergence(
        shown,
        axes[0, 0],
        xlabel=f"{unit} (log scale)",
        ylabel=what + (" (%)" if percent else ""),
        reference=None if reference is None else reference * k,
        title=f"Running estimate of {what}",
    )
    last = frame[frame["n"] == frame.groupby("replicate")["n"].transform("max")]
    main = last[last["replicate"] == 0].iloc[0]
    others = last[last["replicate"] > 0]
    final = cell(
        main["estimate"], main["lower"], main["upper"], bool(main["defined"]), percent=percent
    )
    text = (
        f"**Convergence of {what}.** After all {int(main['n']):,} {unit} of the main run the "
        f"estimate is {final} "
        f"(`{main['method']}`, {100.0 * confidence:g}% interval, unadjusted)."
    )
    if len(others):
        own = "; ".join(
            cell(r["estimate"], r["lower"], r["upper"], bool(r["defined"]), percent=percent)
            for _, r in others.iterrows()
        )
        overlap = int(
            ((others["upper"] >= main["lower"]) & (others["lower"] <= main["upper"])).sum()
        )
        text += (
            f" {len(others)} replicate runs on other seeds ({int(others['n'].iloc[0]):,} {unit} "
            f"each, each with its own {100.0 * confidence:g}% interval, wider than the main "
            f"run's when it has fewer {unit}) ended at {own}; {overlap} of {len(others)} "
            "overlap the main run's interval (a replicate whose interval overlaps agrees with "
            "the main run within their uncertainty)."
        )
    half = (main["upper"] - main["lower"]) / 2.0
    if bool(main["defined"]) and half > 0:
        x = np.asarray(replicates[0], dtype=np.float64)
        if kind == "proportion":
            need = stats.required_n(
                "proportion",
                half / 2.0,
                p=float(np.clip(x.mean(), 0.01, 0.99)),
                confidence=confidence,
            )
        else:
            need = stats.required_n(
                "mean", half / 2.0, sd=float(x.std(ddof=1)), confidence=confidence
            )
        text += (
            f" Halving the half-width ({half * k:.3g}{'pp' if percent else ''}) would take about "
            f"{need:,} {unit} (`stats.required_n`)."
        )
    text += " The band is the main run's interval at each size; grey lines are the replicates."
    return text, fig, frame
