"""Figures of the player's guide (:mod:`.guide`): one function per figure of
``reports/players-guide/figures/``, drawn with :mod:`cuarenta_sim.plotting`."""

from __future__ import annotations

import numpy as np
import pandas as pd
from matplotlib.axes import Axes
from matplotlib.figure import Figure

from .. import plotting
from ..studies.framework import new_figure
from . import guide_analysis
from .guide_tables import players_of

#: Series of the caida-risk figure: the observed risk and the uniform-draw odds, named as the
#: caida-risk table's columns name them (issue 18: the odds are no exact holding).
CAIDA_FIGURE_GROUPS = (
    "P(caida next)",
    "uniform-draw odds (next hand drawn uniformly from the unseen cards)",
)
#: One deal numbering in tables, figures and CSVs: deal 0 is the first deal of the data.
DEAL_AXIS = "deal of the data (0 = the first)"


def by_deal_panel(frame: pd.DataFrame, group: str, ax: Axes, ylabel: str) -> None:
    """The "... by deal" panel of a figure: ``frame``'s estimates by ``deal`` (0 to 3, the
    tables' numbering), one line per ``group``, a reference line at 0."""
    plotting.interval_lines(
        frame,
        "deal",
        group,
        ax,
        xlabel=DEAL_AXIS,
        ylabel=ylabel,
        reference=0.0,
        title="... by deal",
    )
    ax.set_xticks(range(4))


def fig_winprob_chica(wp: pd.DataFrame, strong: str) -> Figure:
    """Heatmaps of P(win the chica) by score, 2 x 4 panels (who deals x deal), one player
    count (``wp``'s ``players``), under ``strong`` self-play."""
    fig, axes = new_figure(2, 4, (4.2, 4.0))
    for i, deals in enumerate((True, False)):
        for d in range(4):
            sub = wp[(wp["deal"] == d) & (wp["own_deals"] == deals)]
            who = "you deal" if deals else "they deal"
            plotting.probability_grid(
                sub,
                axes[i, d],
                min_n=int(wp["min_n"].iloc[0]),
                title=f"{who}, deal {d} (of 0-3)",
                colorbar=d == 3,
                legend=i == 1 and d == 0,
                cbar_label="P(win the chica), %",
            )
    fig.suptitle(
        f"P(win the chica) at the start of a deal, {players_of(wp)} players ({strong} play)"
    )
    return fig


def fig_winprob_mesa(wp: pd.DataFrame) -> Figure:
    """Heatmaps of P(win the mesa) by score at deal 0, one panel per chicas won."""
    fig, axes = new_figure(1, 4, (4.2, 4.2))
    for j, (own, opp) in enumerate(((0, 0), (1, 0), (0, 1), (1, 1))):
        sub = wp[
            (wp["deal"] == 0)
            & wp["own_deals"]
            & (wp["own_chicas"] == own)
            & (wp["opponent_chicas"] == opp)
        ]
        plotting.probability_grid(
            sub,
            axes[0, j],
            min_n=int(wp["min_n"].iloc[0]),
            title=f"chicas won {own}-{opp}, you deal, deal 0",
            colorbar=j == 3,
            legend=j == 0,
            cbar_label="P(win the mesa), %",
        )
    fig.suptitle(f"P(win the mesa) at the start of a data, {players_of(wp)} players")
    return fig


def fig_caida(risk_turn: pd.DataFrame, risk_seen: pd.DataFrame, players: int) -> Figure:
    """Caida risk by cards seen (with the uniform-draw odds) and by turn."""
    fig, axes = new_figure(1, 2, (6.0, 4.0))
    frame = risk_seen.assign(group=CAIDA_FIGURE_GROUPS[0])
    holds = risk_seen.assign(
        group=CAIDA_FIGURE_GROUPS[1],
        estimate=risk_seen["next_holds"],
        lower=np.nan,
        upper=np.nan,
        defined=False,
    )
    plotting.grouped_bars(
        pd.concat([frame, holds]),
        "seen",
        "group",
        axes[0, 0],
        ylabel="probability",
        title=f"Caida risk by cards of the rank seen, {players} players",
    )
    axes[0, 0].set_xlabel("cards of the trailed rank you can see (trailed card included)")
    sub = risk_turn[risk_turn["seen"] < 4].assign(
        x=lambda f: f["turn_group"].map({"0-2": 1, "3-5": 4, "6-8": 7}),
        line=lambda f: "seen " + f["seen"].astype(str),
    )
    plotting.interval_lines(
        sub,
        "x",
        "line",
        axes[0, 1],
        xlabel="turn within the deal",
        ylabel="P(caida next)",
        title=f"Caida risk by turn, {players} players",
    )
    axes[0, 1].set_xticks([1, 4, 7], ["0-2", "3-5", "6-8"])
    return fig


def fig_trail(by_table: pd.DataFrame, by_deal: pd.DataFrame, players: int) -> Figure:
    """Best trail minus best capture by cards on the table and by deal."""
    fig, axes = new_figure(1, 2, (6.0, 4.0))
    plotting.interval_lines(
        by_table.assign(g="best trail - best capture"),
        "table",
        "g",
        axes[0, 0],
        xlabel="cards on the table (5 = 5 or more)",
        ylabel="points to the end of the data",
        reference=0.0,
        title=f"Value of trailing instead of capturing, {players} players",
    )
    by_deal_panel(
        by_deal.assign(g="best trail - best capture"),
        "g",
        axes[0, 1],
        "points to the end of the data",
    )
    axes[0, 0].set_xticks(range(1, 6), ["1", "2", "3", "4", "5+"])
    return fig


def fig_departures(
    dep: pd.DataFrame, gains: pd.DataFrame, strong: str, players: int, tuning: str
) -> Figure:
    """Share of decisions that differ by deal (``players``), and the duplicate win rates
    (their player count read from ``gains``), with ``tuning`` (the players' tuning) as a
    caption line."""
    fig, axes = new_figure(1, 2, (6.0, 4.0))
    plotting.interval_lines(
        dep,
        "deal",
        "versus",
        axes[0, 0],
        xlabel=DEAL_AXIS,
        ylabel="share of decisions with more than one legal play",
        title=f"{strong} plays differently from ... ({players} players)",
    )
    gain_players = players_of(gains)
    frame = gains.assign(
        label=strong + " vs " + gains["versus"], estimate=gains["win_rate"], defined=True
    )
    plotting.forest(
        frame,
        axes[0, 1],
        xlabel="win rate over duplicate chicas",
        reference=0.5,
        title=f"What it gains ({gain_players} players)",
    )
    fig.supxlabel(f"Tuning: {tuning}", fontsize=7)
    axes[0, 0].set_xticks(range(4))
    return fig


def fig_edge(
    edge: pd.DataFrame, by_deal: dict[int, pd.DataFrame], by_seat: pd.DataFrame | None
) -> Figure:
    """Dealer's edge by source, by deal, and (4 players) points by seat."""
    fig, axes = new_figure(1, 3, (5.0, 4.0))
    src = edge[edge["source"].isin([*guide_analysis.SOURCES, "total"])]
    plotting.grouped_bars(
        src.assign(players=src["players"].astype(str) + " players"),
        "source",
        "players",
        axes[0, 0],
        ylabel="dealer side - mano side, points/data",
        title="Dealer's edge by source",
    )
    axes[0, 0].axhline(0.0, color="black", linewidth=0.8)
    frames = [d[d["source"] == "all"].assign(players=f"{p} players") for p, d in by_deal.items()]
    by_deal_panel(pd.concat(frames), "players", axes[0, 1], "dealer - mano, points in the deal")
    if by_seat is not None:
        plotting.grouped_bars(
            by_seat,
            "position",
            "source",
            axes[0, 2],
            ylabel="points per data",
            title="4 players: points by seat",
        )
        axes[0, 2].set_xlabel("seat (1 = mano ... 4 = dealer)")
    return fig
