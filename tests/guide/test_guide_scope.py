"""The player's guide scopes and discloses what its numbers rest on (issue 18 cold read):
the departures and gains carry the players' tuning, the departure share names its
denominator (decisions with more than one legal play) beside the share of all decisions, and
every sentence, caption and figure title of the decision-log sections names the player count
read from the run. Built from small synthetic tables, no simulation."""

from __future__ import annotations

import pandas as pd
import pytest

from cuarenta_sim.cuarenta import guide, guide_analysis, guide_figures, guide_tables
from cuarenta_sim.cuarenta.guide_claims import guide_claims
from cuarenta_sim.studies.claims import check_claims, render_claim


def _log(players: int) -> pd.DataFrame:
    """8 decisions in 2 chicas, deal 0: 4 with one legal play, 4 with a choice, of which
    greedy differs at 2 and heuristic at 1."""
    rows = []
    for g in range(2):
        for k in range(4):
            legal = 1 if k < 2 else 3
            rows.append(
                {
                    "game": g,
                    "players": players,
                    "deal": 0,
                    "legal": legal,
                    "greedy_differs": legal > 1 and k == 2,
                    "heuristic_differs": legal > 1 and k == 3 and g == 0,
                    "greedy_trail": False,
                    "heuristic_trail": False,
                    "trail": True,
                    "value_chosen": 1.0,
                    "value_greedy": 0.5 if k == 2 else 1.0,
                    "value_heuristic": 0.25 if k == 3 else 1.0,
                }
            )
    return pd.DataFrame(rows)


def _interval(est: float, half: float, n: int, **keys) -> dict:
    return {
        **keys,
        "estimate": est,
        "lower": est - half,
        "upper": est + half,
        "n": n,
        "method": "ratio",
        "defined": True,
    }


def _frames(players: int):
    wp = pd.DataFrame(
        [
            _interval(
                0.545,
                0.006,
                23_678,
                own_score=0,
                opponent_score=0,
                deal=0,
                own_deals=True,
                players=players,
            )
        ]
    )
    risk = pd.DataFrame([_interval(0.281, 0.013, 3917, seen=1), _interval(0.0, 0.0, 4047, seen=4)])
    log = _log(players)
    dep = guide_analysis.departures(log.assign(all="all"), ("all",))
    gains = pd.DataFrame(
        [
            {
                "versus": "heuristic",
                "players": players,
                "win_rate": 0.57,
                "lower": 0.5612,
                "upper": 0.5788,
                "games": 8000,
                "pairs": 4000,
                "datas": 26_979,
                "points_per_data": 0.954,
                "ppd_lower": 0.855,
                "ppd_upper": 1.053,
            }
        ]
    )
    edge = pd.DataFrame(
        [
            _interval(6.024, 0.058, 200_000, source="total", players=2),
            _interval(3.953, 0.02, 200_000, source="caida", players=2),
        ]
    )
    return wp, risk, dep, gains, edge, log


def test_departure_share_names_its_denominator_and_gives_all_decisions() -> None:
    dep = guide_analysis.departures(_log(2), ("deal",))
    g = dep[dep["versus"] == "greedy"].iloc[0]
    # 2 of the 4 decisions with a choice differ; 2 of all 8 decisions.
    assert (g["successes"], g["n"], g["decisions_all"]) == (2, 4, 8)
    assert g["estimate"] == pytest.approx(0.5) and g["share_all"] == pytest.approx(0.25)
    table = guide_tables.departure_table(dep)
    assert "share of decisions with more than one legal play that differ" in table
    assert "share of all decisions that differ" in table and "25.0%" in table
    assert "| share of decisions that differ |" not in table


@pytest.mark.parametrize("players", [2, 4])
def test_summary_sentences_name_the_run_player_count(players: int) -> None:
    wp, risk, dep, gains, edge, _ = _frames(players)
    claims = guide_claims(wp, risk, dep, gains, edge, "learned", players=players)
    check_claims(claims)
    by_id = {c.id: render_claim(c) for c in claims}
    for cid in ("guide.first_dealer", "guide.caida_risk", "guide.departures", "guide.gains"):
        assert f"with {players} players" in by_id[cid].lower(), cid
        assert claims[[c.id for c in claims].index(cid)].scope.players == (players,)
    dep_sentence = by_id["guide.departures"]
    assert "of its decisions with more than one legal play (n = 4, `" in dep_sentence
    # The share of all decisions carries the interval's decimals ("50% [..]" -> "25%").
    share = dep_sentence.split(" of its decisions")[0].split(" at ")[-1].split(" ")[0]
    decimals = len(share.rstrip("%").split(".")[1]) if "." in share else 0
    assert f"{25:.{decimals}f}% of all its 8 decisions" in dep_sentence


@pytest.mark.parametrize("players", [2, 4])
def test_sections_captions_and_figures_name_the_player_count(players: int) -> None:
    prose = guide._prose()
    caida = str(prose.caida("A", "B", 10, 2, guide._rule_sentences(), "learned", players))
    trail = str(prose.trail("T", 10, "pimc", players))
    departs = str(prose.departs("T", "K", "G", "learned", "h", players, players, "tuned"))
    needle = f"{players} players"
    assert caida.count(needle) >= 4  # risk tables, measured-under sentence, turn table, caption
    assert f"{players}-player chicas" in trail and needle in trail.split("_Figure")[1]
    assert departs.startswith(f"With {needle}") and f"whole chicas with {needle}" in departs
    assert f"departures, {needle}" in departs
    _, _, dep, gains, _, _ = _frames(players)
    seen = pd.DataFrame(
        [
            {**_interval(0.28, 0.01, 10, seen=s), "next_holds": 0.2, "held": 0.3, "taken": 1.0}
            for s in (1, 2, 3, 4)
        ]
    )
    turn = seen.assign(turn_group="0-2")
    trail_tab = pd.DataFrame([_interval(-1.0, 0.1, 10, table=t) for t in (1, 2)])
    by_deal = dep.assign(deal=0)
    titles = [
        ax.get_title()
        for fig in (
            guide_figures.fig_caida(turn, seen, players),
            guide_figures.fig_trail(trail_tab, trail_tab.assign(deal=0), players),
            guide_figures.fig_departures(by_deal, gains, "learned", players, "tuned"),
        )
        for ax in fig.axes[:2]
        if ax.get_title() and not ax.get_title().startswith("...")
    ]
    assert titles and all(needle in t for t in titles), titles


def test_departures_and_gains_disclose_both_players_tuning() -> None:
    text = guide.gains_tuning("learned", ["greedy", "heuristic"])
    for needle in (
        "imitation of `pimc`",
        "evolution strategies",
        "against `heuristic` under Quito",
        "coordinate search",
        "Quito, 2 players",
        "not tuned: `greedy`",
        "the match `learned` was tuned to win",
    ):
        assert needle in text, needle
    departs = str(guide._prose().departs("T", "K", "G", "learned", "h", 2, 2, text))
    assert f"**Tuning.** {text}." in departs
    assert departs.index("**Tuning.**") < departs.index("![departures")
    short = guide.gains_tuning("learned", ["greedy", "heuristic"], short=True)
    assert "evolution strategies" in short and "coordinate search" in short
    _, _, dep, gains, _, _ = _frames(2)
    fig = guide_figures.fig_departures(dep.assign(deal=0), gains, "learned", 2, short)
    assert fig.get_supxlabel() == f"Tuning: {short}"
