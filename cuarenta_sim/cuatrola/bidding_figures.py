"""The figures of the ``cuatrola-bidding`` report (split from
:mod:`cuarenta_sim.cuatrola.bidding_study`, issue 19): P(make) by trumps held, EV by hand
class, the gain over passing by strength with the derived thresholds, the value of being mano.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from .. import plotting
from .bidding import BIDS, CLASS_LABELS, CONTRACT_BIDS, POSITIONS, Thresholds
from .bidding_sections import label
from .policies import OFF


def figures(tables: dict[str, pd.DataFrame], derived: Thresholds) -> dict[str, Figure]:
    """The report's figures by file stem.

    Parameters
    ----------
    tables : dict of DataFrame
        The study's tables (``by_trumps``, ``by_<class>``, ``strength``, ``by_position``).
    derived : Thresholds
        The derived thresholds (dashed lines of the thresholds figure).

    Returns
    -------
    dict of Figure
        ``p_make_by_trumps``, ``ev_by_class``, ``thresholds``, ``value_of_mano``.
    """
    return {
        "p_make_by_trumps": _fig_p_make(tables["by_trumps"]),
        "ev_by_class": _fig_ev(tables),
        "thresholds": _fig_thresholds(tables["strength"], derived),
        "value_of_mano": _fig_mano(tables),
    }


#: One colour per bid in every figure of the report (value_of_mano's panels hold different
#: bids: pass has no P(make)), so a bid's colour never changes between panels.
BID_COLORS = {b: plotting.COLORS[i] for i, b in enumerate(BIDS)}


def _figure(rows: int, cols: int, size: tuple[float, float]) -> tuple[Figure, np.ndarray]:
    fig = Figure(figsize=(size[0] * cols, size[1] * rows), layout="constrained")
    return fig, fig.subplots(rows, cols, squeeze=False)


def _p_make_frame(sub: pd.DataFrame, x: str, x_values: pd.Series, group: str) -> pd.DataFrame:
    """P(make) in % of the contract rows ``sub`` of a class table, for a figure: ``x``,
    ``group`` (the contract), ``estimate`` / ``lower`` / ``upper`` (Wilson) and ``defined``."""
    return pd.DataFrame(
        {
            x: x_values,
            group: sub["bid"].astype(str),
            "estimate": 100 * sub["p_make"],
            "lower": 100 * sub["p_make_lower"],
            "upper": 100 * sub["p_make_upper"],
            "defined": sub["n"] > 0,
        }
    )


def _fig_p_make(by_trumps: pd.DataFrame) -> Figure:
    fig, axes = _figure(1, 1, (7.0, 4.5))
    sub = by_trumps[by_trumps["bid"].isin(CONTRACT_BIDS)]
    frame = _p_make_frame(sub, "trumps", sub["trumps"].astype(int), "contract")
    plotting.interval_lines(
        frame,
        "trumps",
        "contract",
        ax=axes[0, 0],
        xlabel="trumps held",
        ylabel="P(make) (%)",
        title="P(make) by trumps held (Wilson)",
        colors=BID_COLORS,
    )
    return fig


def _ev_frame(table: pd.DataFrame, col: str) -> pd.DataFrame:
    return pd.DataFrame(
        {
            col: table[col].map(label),
            "bid": table["bid"].astype(str),
            "estimate": table["ev"],
            "lower": table["ev_lower"],
            "upper": table["ev_upper"],
            "defined": table["defined"],
        }
    )


def _fig_ev(tables: dict[str, pd.DataFrame]) -> Figure:
    cols = ("trumps", "aces_threes", "trump_rc", "position")
    fig, axes = _figure(2, 2, (6.5, 4.2))
    for ax, col in zip(axes.ravel(), cols, strict=True):
        frame = _ev_frame(tables[f"by_{col}"], col)
        plotting.grouped_bars(
            frame,
            col,
            "bid",
            ax=ax,
            ylabel="EV (game points)",
            title=f"EV of each bid by {CLASS_LABELS[col]}",
            colors=BID_COLORS,
        )
        ax.axhline(0.0, color="black", linewidth=0.8)
    return fig


def threshold_frame(strength: pd.DataFrame) -> pd.DataFrame:
    """Points of the thresholds figure: the gain of each contract over passing by strength.

    Parameters
    ----------
    strength : DataFrame
        ``class_table(outcomes, "strength")``.

    Returns
    -------
    DataFrame
        ``strength``, ``contract``, ``estimate``, ``lower``, ``upper`` (the gain's interval at
        its Holm level) and ``defined`` (the gain has an interval: whiskers are drawn), one row
        per dealt strength and contract.
    """
    sub = strength[strength["bid"].isin(CONTRACT_BIDS) & (strength["n"] > 0)]
    return pd.DataFrame(
        {
            "strength": sub["strength"].astype(int),
            "contract": sub["bid"].astype(str),
            "estimate": sub["gain"],
            "lower": sub["gain_lower"],
            "upper": sub["gain_upper"],
            # The gain's own interval (Holm level), not the EV's: a bid whose EV is the same
            # in every hand (solo failing at strength 0) still gains -1 or -3 over passing.
            "defined": np.isfinite(sub["gain_lower"]) & np.isfinite(sub["gain_upper"]),
        }
    )


def _fig_thresholds(strength: pd.DataFrame, derived: Thresholds) -> Figure:
    fig, axes = _figure(1, 1, (8.0, 4.8))
    frame = threshold_frame(strength)
    marks = {b: t for b, t in zip(CONTRACT_BIDS, derived, strict=True) if t != OFF}
    plotting.interval_lines(
        frame,
        "strength",
        "contract",
        ax=axes[0, 0],
        xlabel="hand_strength",
        ylabel="EV(bid) - EV(pass), game points",
        title="Gain over passing by strength (paired, Holm-level intervals); "
        "dashed: derived thresholds",
        reference=0.0,
        marks=marks,
        colors=BID_COLORS,
    )
    return fig


def _fig_mano(tables: dict[str, pd.DataFrame]) -> Figure:
    fig, axes = _figure(1, 2, (6.5, 4.5))
    pos = tables["by_position"]
    sub = pos[pos["bid"].isin(CONTRACT_BIDS)]
    frame = _p_make_frame(sub, "position", sub["position"].astype(str), "bid")
    plotting.grouped_bars(
        frame,
        "position",
        "bid",
        ax=axes[0, 0],
        ylabel="P(make) (%)",
        title="P(make) by position (Wilson)",
        categories=POSITIONS,
        colors=BID_COLORS,
    )
    plotting.grouped_bars(
        _ev_frame(pos, "position"),
        "position",
        "bid",
        ax=axes[0, 1],
        ylabel="EV (game points)",
        title="EV of each bid by position",
        categories=POSITIONS,
        colors=BID_COLORS,
    )
    axes[0, 1].axhline(0.0, color="black", linewidth=0.8)
    return fig
