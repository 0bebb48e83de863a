"""Every exact odd of cuarenta_sim.cuarenta.odds is checked against the simulator.

The simulated runs are seeded, so each test is deterministic; the intervals are at 99.9% so
that a correct exact value fails with chance 1/1000 per comparison for a fresh seed, while a
wrong one (off by a few percent) fails at these sample sizes.
"""

import numpy as np
import pandas as pd
import pytest

from cuarenta_sim import simulate
from cuarenta_sim.cuarenta import analysis, odds

CONFIDENCE = 0.999


@pytest.mark.parametrize("players", [2, 4])
def test_every_dealing_odd_lies_in_its_simulated_interval(players: int) -> None:
    hands = simulate(rules="quito", players=players, n=300_000, seed=11).hands
    table = analysis.odds_check(hands, players, CONFIDENCE)
    # Every exact figure of odds_table is among the rows checked.
    exact = odds.odds_table(players)
    scopes = {"hand": "hand", "seat": "seat", "side": "side 0", "anyone": "anyone"}
    for row in exact.itertuples():
        if row.scope == "seat" and players == 4:
            continue  # the records count per side; with 4 players a seat is half a side
        hit = table[(table["event"] == row.event) & (table["scope"] == scopes[row.scope])]
        assert len(hit) == 1 and hit["exact"].iloc[0] == pytest.approx(row.probability)
    bad = table[~table["within"]]
    assert bad.empty, bad[["event", "scope", "exact", "estimate", "lower", "upper"]]
    assert table["defined"].all()
    assert set(table.loc[table["scope"] == "hand", "n"]) == {8 * 300_000}


def test_odds_check_detects_a_wrong_exact_value() -> None:
    """The check can fail: a probability 5% too high falls outside the interval."""
    hands = simulate(rules="quito", players=2, n=300_000, seed=11).hands
    table = analysis.odds_check(hands, 2, CONFIDENCE)
    ronda_any = table[(table["event"] == "ronda") & (table["scope"] == "anyone")].iloc[0]
    wrong = 1.05 * ronda_any["exact"]
    assert not ronda_any["lower"] <= wrong <= ronda_any["upper"]


def test_rondas_do_not_depend_on_rules_or_player_count() -> None:
    """The deck of a data depends only on (seed, index): rondas per side are identical."""
    cols = ["rondas_0", "rondas_1", "doble_rondas_0", "doble_rondas_1"]
    a = simulate(rules="quito", players=2, n=5_000, seed=4).hands[cols]
    b = simulate(rules="pagat", players=4, n=5_000, seed=4).hands[cols]
    total = lambda f: f.to_numpy().sum(axis=1)  # noqa: E731
    assert np.array_equal(total(a), total(b))


def test_next_player_holds_against_the_simulators_decks() -> None:
    check = analysis.caida_risk_check(n=200_000, seed=5, confidence=CONFIDENCE)
    assert list(check["seen"]) == [1, 2, 3, 4]
    for row in check.itertuples():
        assert row.exact == pytest.approx(float(odds.next_player_holds(row.seen, 35, 5)))
    assert check["within"].all(), check
    assert check.loc[check["seen"] == 4, "estimate"].iloc[0] == 0.0
    assert check["trials"].iloc[0] > check["trials"].iloc[1] > check["trials"].iloc[2]


def test_caida_risk_table_is_monotone() -> None:
    table = analysis.caida_risk_table()
    probs = table.drop(columns="seen").to_numpy()
    assert (np.diff(probs, axis=0) <= 0).all()  # more seen -> less risk
    assert (np.diff(probs, axis=1) >= 0).all()  # fewer unseen -> more risk
    assert (probs[3] == 0).all()


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 4])
def test_dealing_odds_with_five_million_datas(players: int) -> None:
    hands = simulate(rules="cuenca", players=players, n=5_000_000, seed=101).hands
    table = analysis.odds_check(hands, players, CONFIDENCE)
    assert table["within"].all(), table[~table["within"]]


# --------------------------------------------------------------------------- inside chicas
@pytest.mark.parametrize("players", [2, 4])
def test_rondas_per_dealt_hand_inside_chicas_divide_by_hands_dealt(players: int) -> None:
    """Issue 18 finding 2: a chica ends mid-data, so 8 x datas counts hands never dealt.

    Over the hands actually dealt the rate matches the exact 350/9139 (R4.1); the old
    denominator (8 hands per data) gives about 3.60% and misses it.
    """
    assert odds.hand_probability("ronda") == pytest.approx(350 / 9139)
    res = simulate(rules="quito", players=players, n=20_000, seed=18, level="chica",
                   policies=("greedy",) * players)  # fmt: skip
    hands, games = res.hands, res.games
    table = analysis.odds_check(hands, players, CONFIDENCE, games=games)
    hand = table[(table["event"] == "ronda") & (table["scope"] == "hand")].iloc[0]
    assert hand["comparable"] and bool(hand["within"])
    assert hand["lower"] <= 350 / 9139 <= hand["upper"]
    dealt = analysis.hands_dealt(hands, players, games)
    assert int(dealt.sum()) == hand["n"] < 8 * len(hands)
    old = (hands["rondas_0"] + hands["rondas_1"]).sum() / (8 * len(hands))
    assert old < hand["lower"]  # the old definition is biased low, outside the interval
    # Data scopes do not apply inside chicas: marked not comparable, never "outside".
    anyone = table[(table["event"] == "ronda") & (table["scope"] == "anyone")].iloc[0]
    assert not anyone["comparable"] and pd.isna(anyone["within"])


def test_hands_dealt_counts_the_deal_of_a_winning_announcement() -> None:
    res = simulate(rules="quito", players=2, n=20_000, seed=18, level="chica",
                   policies=("greedy", "greedy"))  # fmt: skip
    hands, games = res.hands, res.games
    dealt = analysis.hands_dealt(hands, 2, games)
    plays = hands["plays"].to_numpy()
    ended = hands["ended"].to_numpy(bool)
    kind = games["win_kind"].to_numpy()[hands["game"].to_numpy()]
    ann = ended & (kind == analysis.WIN_BY_ANNOUNCEMENT)
    assert ann.any()
    assert (dealt[ann] == 2 * (plays[ann] // 10 + 1)).all()
    assert (dealt[~ended] == 8).all()
    mid = ended & ~ann
    assert (dealt[mid] == 2 * -(-plays[mid] // 10)).all()
    with pytest.raises(ValueError, match="games frame"):
        analysis.hands_dealt(hands, 2)
    assert (analysis.hands_dealt(simulate(rules="quito", players=2, n=50, seed=1).hands) == 8).all()
