"""The player's guide says what its tables show (issue 18, cold-read findings): the caida-risk
figure names the uniform-draw odds as the table does, the dealer's answer to a trail is scoped
to the player count, the heuristic's tuning is stated, deals are numbered from 0 in tables and
figures alike, the caida risk is not said to depend "above all" on one factor, and every run
behind the numbers is listed."""

from __future__ import annotations

import numpy as np
import pytest

from cuarenta_sim.cuarenta import guide, guide_analysis, guide_figures, guide_runs, guide_tables
from cuarenta_sim.cuarenta.guide_rules import DEALER_LAST


@pytest.fixture(scope="module")
def log():
    return guide_analysis.decision_log(
        "quito", 2, "greedy", 3, seed=4, value_policy="pimc(samples=4,depth=data)", value_samples=4
    )


def _legend(ax) -> list[str]:
    leg = ax.get_legend()
    return [t.get_text() for t in leg.get_texts()] if leg is not None else []


def test_caida_figure_names_the_uniform_draw_odds_as_the_table_does(log) -> None:
    seen = guide_analysis.caida_risk(log, ("seen",))
    turn = guide_analysis.caida_risk(
        log.assign(turn_group=np.where(log["turn"] < 3, "0-2", "3-5")), ("turn_group", "seen")
    )
    fig = guide_figures.fig_caida(turn, seen, 2)
    labels = _legend(fig.axes[0])
    assert labels == list(guide_figures.CAIDA_FIGURE_GROUPS)
    assert not any("exact" in t or "holds (" in t for t in labels)
    table = guide_tables.risk_table(seen)
    # Each series is named by the caida-risk table's own column.
    assert "P(caida next)" in table and "uniform-draw odds" in table
    assert labels[0] == "P(caida next)" and labels[1].startswith("uniform-draw odds")


def test_dealer_answer_is_scoped_to_the_player_count() -> None:
    s = DEALER_LAST.sentence
    assert "with 2 players it can answer the mano's last trail" in s
    assert "with 4 players it answers the last trail of the seat before it" in s
    assert "G4_dealer_answers_trail_4p" in DEALER_LAST.scenarios


def test_heuristic_is_described_by_its_tuning_not_as_hand_tuned() -> None:
    prose = guide._prose()
    text = str(prose.departs("T", "K", "G", "learned", guide.HEURISTIC_TUNED, 2, 2, "t"))
    assert "hand-tuned" not in text
    for needle in ("coordinate search", "duplicate chicas", "Quito", "current best `heuristic`"):
        assert needle in text, needle


def test_caida_prose_claims_no_dominant_factor() -> None:
    text = str(guide._prose().caida("A", "B", 10, 2, guide._rule_sentences(), "learned", 2))
    assert "above all" not in text
    assert "compare no other factor" in text


def test_figures_number_deals_from_zero_as_the_tables_do(log) -> None:
    trail_deal = guide_analysis.trail_value(log, ("deal",))
    trail_tab = guide_analysis.trail_value(
        log.assign(table=np.minimum(log["table_cards"], 5)), ("table",)
    )
    dep = guide_analysis.departures(log, ("deal",))
    for fig, ax in (
        (guide_figures.fig_trail(trail_tab, trail_deal, 2), 1),
        (guide_figures.fig_departures(dep, _gains(), "greedy", 2, "t"), 0),
    ):
        axis = fig.axes[ax]
        assert [float(t) for t in axis.get_xticks()] == [0.0, 1.0, 2.0, 3.0]
        assert axis.get_xlabel() == guide_figures.DEAL_AXIS
        lines = [ln for ln in axis.get_lines() if len(ln.get_xdata())]
        xs = {float(x) for ln in lines for x in ln.get_xdata()}
        assert xs <= {0.0, 1.0, 2.0, 3.0}, xs  # the table's deal numbers, not 1..4
    assert "| deal |" in guide_tables.departure_table(dep).replace("---:", "")
    assert set(dep["deal"]) <= {0, 1, 2, 3}
    summary = str(guide._prose().summary(["S."], "learned"))
    assert "Deals are numbered from 0 everywhere" in summary


def _gains():
    import pandas as pd

    return pd.DataFrame(
        [
            {
                "versus": "heuristic",
                "players": 2,
                "win_rate": 0.6,
                "lower": 0.55,
                "upper": 0.65,
                "defined": True,
            }
        ]
    )


def test_every_run_behind_the_numbers_is_listed() -> None:
    sizes = {"mesas": 10, "decision_chicas": 3, "duplicates": 5, "datas": 400, "trace_datas": 7}
    head = [
        {
            "rules": "quito",
            "players": p,
            "policies": ["learned"] * p,
            "level": "data",
            "n": 400,
            "seed": 0,
            "root": 1,
            "wall_time_s": 0.1,
        }
        for p in (2, 4)
    ]
    reps = [{**head[0], "seed": s, "n": 100} for s in (1, 2, 3, 4)]
    runs = guide_runs.guide_runs(
        "learned",
        0,
        400,
        sizes,
        ("greedy", "heuristic"),
        [("learned", 2000), ("pimc", 20), ("solver", 20)],
        head,
        reps,
    )
    parts = [r["part"] for r in runs]
    for part, count in (
        ("speeds (Methods)", 3),
        ("win probabilities", 2),
        ("caida risk, trail or capture, departures", 1),
        ("gains over whole chicas", 2),
        ("dealer's edge by source", 2),
        ("dealer's edge by deal and seat", 2),
        ("dealer's edge under other players", 3),
        ("convergence replicates", 4),
    ):
        assert parts.count(part) == count, part
    panel = [r for r in runs if r["part"] == "dealer's edge under other players"]
    assert [(r["policies"], r["n"]) for r in panel] == [
        ("heuristic", 100),
        ("greedy", 100),
        ("solver", 10),
    ]
    gains = [r for r in runs if r["part"] == "gains over whole chicas"]
    assert [r["policies"] for r in gains] == [["learned", "greedy"], ["learned", "heuristic"]]
    rows = guide_runs.runs_table(runs)
    assert len(rows) == len(runs)
    assert rows[0][4] == "`learned` (every seat)" and "`learned` vs `greedy`" in rows[6][4]
