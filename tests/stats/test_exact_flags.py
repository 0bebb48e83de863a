"""Every "exact" flag a report prints is recomputed here at small n (issue 18 item 7).

The exact values themselves are recomputed from scratch (enumerating every 5-card hand), and
each printed flag ("exact inside": yes / no / n/a) is recomputed from its row's interval.
"""

from __future__ import annotations

import itertools

import numpy as np
import pandas as pd
import pytest

from cuarenta_sim import simulate, studies
from cuarenta_sim.cuarenta import analysis, odds
from cuarenta_sim.cuarenta.studies.common import exact_flag


def test_hand_odds_by_enumerating_every_hand() -> None:
    ranks = np.repeat(np.arange(10), 4)
    hands = np.fromiter(
        itertools.chain.from_iterable(itertools.combinations(range(40), 5)), dtype=np.int8
    ).reshape(-1, 5)
    counts = np.zeros((hands.shape[0], 10), dtype=np.int8)
    for j in range(5):
        np.add.at(counts, (np.arange(hands.shape[0]), ranks[hands[:, j]]), 1)
    top = counts.max(axis=1)
    total = hands.shape[0]
    assert total == 658_008
    assert odds.hand_probability("ronda") == pytest.approx(int((top == 3).sum()) / total)
    assert odds.hand_probability("doble_ronda") == pytest.approx(int((top == 4).sum()) / total)
    assert odds.hand_probability("ronda_or_better") == pytest.approx(int((top >= 3).sum()) / total)
    assert float(odds.hand_probability("ronda")) == pytest.approx(350 / 9139)


def _recomputed(row: pd.Series) -> bool | None:
    if not row.get("comparable", True):
        return None
    return bool(row["defined"] and row["lower"] <= row["exact"] <= row["upper"])


def _check_flags(table: pd.DataFrame) -> None:
    for _, r in table.iterrows():
        want = _recomputed(r)
        if want is None:
            assert pd.isna(r["within"]) and exact_flag(r["within"]).startswith("n/a")
        else:
            assert bool(r["within"]) == want
            assert exact_flag(r["within"]) == ("yes" if want else "**no**")


def test_odds_report_flags_recomputed() -> None:
    study = studies.get_study("odds")
    s = study.settings(n=3000, seed=5, players="2,4", policies="greedy", confirm="none")
    report = studies.run_study("odds", s)
    table = report.tables["odds"]
    assert len(table) > 10
    _check_flags(table)
    for _, r in table.iterrows():  # every exact value is the odds module's
        if r["scope"] == "hand":
            assert r["exact"] == pytest.approx(float(odds.hand_probability(r["event"])))


@pytest.mark.parametrize("players", [2, 4])
def test_level_chica_flags_recomputed(players: int) -> None:
    res = simulate(rules="cuenca", players=players, n=500, seed=9, level="chica",
                   policies=("greedy",) * players)  # fmt: skip
    table = analysis.odds_check(res.hands, players, 0.95, games=res.games)
    _check_flags(table)
    assert table.loc[table["scope"] == "hand", "comparable"].all()
    assert not table.loc[table["scope"] != "hand", "comparable"].any()


def test_cuatrola_trumps_check_flags_recomputed() -> None:
    from cuarenta_sim.cuatrola.bidding import (
        exact_trumps_distribution,
        run_bidding_experiment,
        trumps_check,
    )

    exp = run_bidding_experiment(400, seed=2, play_policy="greedy")
    check = trumps_check(exp.outcomes)
    for _, r in check.iterrows():
        dist = exact_trumps_distribution(r["hand_of"] == "dealer")
        assert r["exact"] == pytest.approx(float(dist[int(r["trumps"])]))
        if r["exact"] == 0:
            continue
        assert bool(r["within"]) == bool(r["lower"] <= r["exact"] <= r["upper"])
