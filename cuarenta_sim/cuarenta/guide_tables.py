"""Markdown tables of the player's guide (:mod:`.guide`): one function per table of
``reports/players-guide/report.md``, each from a frame of :mod:`.guide_analysis` or
:mod:`.winprob`. Cells are :func:`cuarenta_sim.studies.framework.cell` intervals."""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..reports import markdown_table
from ..studies.framework import cell


def row_cell(row: pd.Series, percent: bool = False) -> str:
    """``estimate [lower, upper]`` of a row (``defined``, else a finite ``lower``, decides
    whether the interval is printed); ``percent`` prints percentages."""
    ok = bool(row["defined"]) if "defined" in row else bool(np.isfinite(row["lower"]))
    return cell(row["estimate"], row["lower"], row["upper"], ok, percent=percent)


def players_of(frame: pd.DataFrame) -> int:
    """The one player count of a guide frame's run (its ``players`` column).

    Raises
    ------
    ValueError
        No ``players`` column, or rows of more than one player count.
    """
    counts = sorted({int(p) for p in frame["players"]}) if "players" in frame else []
    if len(counts) != 1:
        raise ValueError(f"expected rows of one player count, got {counts}")
    return counts[0]


def gain_cell(row: pd.Series) -> str:
    """``gain [gain_lower, gain_upper]`` of a departures row (points), ``"n/a"`` when no
    departure was valued."""
    if not np.isfinite(row["gain"]):
        return "n/a"
    return cell(
        row["gain"], row["gain_lower"], row["gain_upper"], bool(np.isfinite(row["gain_lower"]))
    )


def panel_table(edge_panel: pd.DataFrame) -> str:
    """Markdown table of the dealer's total edge under other players' self-play."""
    return markdown_table(
        ["player (self-play)", "dealer - mano, points per data", "datas", "method"],
        [
            [f"`{r['policy']}`", row_cell(r), f"{int(r['n']):,}", r["method"]]
            for _, r in edge_panel.iterrows()
        ],
        right=(1, 2),
    )


def winprob_table(wp_chica: pd.DataFrame, wp_mesa: pd.DataFrame) -> str:
    """Markdown table of P(win the chica / mesa) at five score states, deal 0, 2 players."""
    rows = []
    for own, opp in ((0, 0), (20, 20), (30, 20), (20, 30), (36, 36)):
        for deals in (True, False):
            r = wp_chica[
                (wp_chica["own_score"] == own)
                & (wp_chica["opponent_score"] == opp)
                & (wp_chica["deal"] == 0)
                & (wp_chica["own_deals"] == deals)
            ].iloc[0]
            m = wp_mesa[
                (wp_mesa["own_score"] == own)
                & (wp_mesa["opponent_score"] == opp)
                & (wp_mesa["deal"] == 0)
                & (wp_mesa["own_deals"] == deals)
                & (wp_mesa["own_chicas"] == 0)
                & (wp_mesa["opponent_chicas"] == 0)
            ].iloc[0]
            rows.append(
                [
                    f"{own}-{opp}",
                    "you" if deals else "they",
                    masked_cell(r),
                    f"{int(r['n']):,}",
                    masked_cell(m),
                    f"{int(m['n']):,}",
                ]
            )
    return markdown_table(
        [
            "you-they (start of a data)",
            "deals",
            "P(win chica)",
            "n",
            "P(win mesa), 0-0 chicas",
            "n",
        ],
        rows,
        right=(2, 3, 4, 5),
    )


def masked_cell(r: pd.Series) -> str:
    """A win-probability cell: "never reached", "masked (n < k)" or the Wilson interval."""
    if r["n"] == 0:
        return "never reached"
    if r["masked"]:
        return f"masked (n < {int(r['min_n'])})"
    return cell(r["estimate"], r["lower"], r["upper"], True, percent=True)


#: Cell of the caida risk with all four of the rank seen: no caida is possible (R6.1), so the
#: zero is certain, not an estimate with a bound.
BY_RULE_CELL = "0 (by rule, R6.1)"
#: Method cell of that row.
BY_RULE_METHOD = "none: certain by rule"
#: Share cell of the departures where the strong player captures and `greedy` trails:
#: `greedy` trails only when no capture exists, so there is none to take.
BY_CONSTRUCTION_CELL = "0 by construction (`greedy` trails only when no capture exists)"


def by_rule(r: pd.Series) -> bool:
    """Whether a caida-risk row is the all-four-seen row with no caida, a zero certain by
    rule (R6.1: the next player holds none of the rank)."""
    return int(r["seen"]) == 4 and int(r["successes"]) == 0


def risk_table(risk: pd.DataFrame, first: str | None = None) -> str:
    """Markdown table of the caida risk by cards seen (and ``first``, e.g. ``turn_group``).

    The all-four-seen row with no caida prints :data:`BY_RULE_CELL` (no bound, R6.1); a caida
    there would be printed as an estimate (and would be an engine defect)."""
    head = ([first.replace("_", " ")] if first else []) + [
        "cards seen",
        "P(caida next)",
        "n",
        "chicas",
        "method",
        "uniform-draw odds",
        "next really held",
        "caida when held",
    ]
    rows = [
        ([r[first]] if first else [])
        + [
            int(r["seen"]),
            BY_RULE_CELL if by_rule(r) else row_cell(r, True),
            f"{int(r['n']):,}",
            f"{int(r['chicas']):,}",
            BY_RULE_METHOD if by_rule(r) else r["method"],
            f"{100 * r['next_holds']:.1f}%",
            f"{100 * r['held']:.1f}%",
            "n/a" if not np.isfinite(r["taken"]) else f"{100 * r['taken']:.1f}%",
        ]
        for _, r in risk.iterrows()
    ]
    k = 1 if first else 0
    return markdown_table(head, rows, right=(k + 1, k + 2, k + 3, k + 5, k + 6, k + 7))


def trail_table(t: pd.DataFrame, key: str, label: str) -> str:
    """Markdown table of best trail minus best capture by ``key`` (column ``label``)."""
    rows = [
        [
            int(r[key]),
            row_cell(r),
            f"{int(r['n']):,}",
            r["method"],
            f"{100 * r['trail_better']:.0f}%",
            f"{100 * r['trail_chosen']:.0f}%",
        ]
        for _, r in t.iterrows()
    ]
    return markdown_table(
        [
            label,
            "best trail - best capture (points)",
            "n",
            "method",
            "trail better",
            "strong player trailed",
        ],
        rows,
        right=(1, 2, 4, 5),
    )


def departure_table(dep: pd.DataFrame) -> str:
    """Markdown table of the strong player's departures from greedy / heuristic by deal: the
    share of the decisions with more than one legal play that differ (the interval's
    denominator), and the share of all decisions (single legal plays included)."""
    rows = []
    for _, r in dep.iterrows():
        rows.append(
            [
                r["versus"],
                int(r["deal"]),
                row_cell(r, True),
                f"{int(r['n']):,}",
                f"{100 * r['share_all']:.1f}%",
                f"{int(r['decisions_all']):,}",
                gain_cell(r),
                f"{int(r['gain_n']) if np.isfinite(r['gain_n']) else 0:,}",
            ]
        )
    return markdown_table(
        [
            "versus",
            "deal",
            "share of decisions with more than one legal play that differ",
            "decisions with more than one legal play",
            "share of all decisions that differ",
            "all decisions",
            "value gained per departure (points)",
            "departures",
        ],
        rows,
        right=(1, 2, 3, 4, 5, 6, 7),
    )


def kinds_table(kinds: pd.DataFrame) -> str:
    """Markdown table of the departures by kind (trail for capture, another trail, ...)."""
    rows = []
    for _, r in kinds.iterrows():
        gain = gain_cell(r) if r["successes"] else "n/a"
        built = (
            r["versus"] == "greedy"
            and r["kind"] == "captures where it trails"
            and int(r["successes"]) == 0
        )
        rows.append(
            [
                r["versus"],
                r["kind"],
                BY_CONSTRUCTION_CELL if built else row_cell(r, True),
                f"{int(r['successes']):,} of {int(r['n']):,}",
                gain,
            ]
        )
    return markdown_table(
        ["versus", "the strong player ...", "share of departures", "departures", "value gained"],
        rows,
        right=(2, 3, 4),
    )


def gains_table(gains: pd.DataFrame, strong: str) -> str:
    """Markdown table of the duplicate-chica win rates of ``strong`` against each other."""
    rows = [
        [
            f"{strong} vs {g['versus']}",
            cell(g["win_rate"], g["lower"], g["upper"], True, percent=True),
            cell(g["points_per_data"], g["ppd_lower"], g["ppd_upper"], True),
            f"{int(g['pairs']):,}",
            f"{int(g['datas']):,}",
        ]
        for _, g in gains.iterrows()
    ]
    return markdown_table(
        ["match", "win rate (chicas)", "points per data", "pairs", "datas"],
        rows,
        right=(1, 2, 3, 4),
    )


def edge_table(edge: pd.DataFrame) -> str:
    """Markdown table of the dealer's edge by source and player count."""
    rows = []
    for _, r in edge.iterrows():
        dm = "" if not np.isfinite(r["dealer"]) else f"{r['dealer']:.3f} / {r['mano']:.3f}"
        rows.append([r["source"], r["players"], dm, row_cell(r), f"{int(r['n']):,}", r["method"]])
    return markdown_table(
        [
            "source",
            "players",
            "dealer / mano side (points per data)",
            "dealer - mano [interval]",
            "datas",
            "method",
        ],
        rows,
        right=(1, 2, 3, 4),
    )


def deal_table(by_deal: dict[int, pd.DataFrame]) -> str:
    """Markdown table of the dealer's edge by deal of the data, per player count."""
    rows = []
    for players, d in by_deal.items():
        for _, r in d[d["source"] == "all"].iterrows():
            rows.append([players, int(r["deal"]), row_cell(r), f"{int(r['n']):,}", r["method"]])
    return markdown_table(
        ["players", "deal", "dealer - mano points in the deal", "datas", "method"],
        rows,
        right=(0, 1, 2, 3),
    )


def seat_table(by_seat: pd.DataFrame | None) -> str:
    """Markdown table of the 4-player points per data by seat and source."""
    if by_seat is None:
        return "(not run)"
    names = {1: "1 (mano)", 2: "2", 3: "3", 4: "4 (dealer)"}
    rows = [
        [
            names.get(int(r["position"]), str(r["position"])),
            r["source"],
            row_cell(r),
            f"{int(r['n']):,}",
            r["method"],
        ]
        for _, r in by_seat.iterrows()
    ]
    return markdown_table(
        ["seat", "source", "points per data", "datas", "method"], rows, right=(2, 3)
    )


def same_ronda_note(edge: pd.DataFrame) -> str:
    """A note when the ``ronda`` rows of the 2- and 4-player runs of :func:`edge_table` are
    identical (estimate, interval and datas), else ``""``.

    Both runs share the guide's seed, so they deal the same decks, and a ronda (R4) depends
    only on the cards dealt, not on the play: the two rows then agree to every digit
    (tests/guide/test_guide_cold_read_2.py checks this on small runs)."""
    cols = ["estimate", "lower", "upper", "n"]
    ronda = edge[edge["source"] == "ronda"].set_index("players")
    if not {2, 4} <= set(ronda.index) or not ronda.loc[2, cols].equals(ronda.loc[4, cols]):
        return ""
    return (
        "The `ronda` rows of 2 and 4 players agree to every digit: both runs use the same "
        "seed, hence the same decks, and a ronda (R4) depends only on the cards dealt, not "
        "on the play."
    )
