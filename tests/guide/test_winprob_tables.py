"""Win-probability tables (issue 13 item 7): masking, colours, CSV, states read from traces."""

from __future__ import annotations

from pathlib import Path

import matplotlib
import numpy as np
import pandas as pd
import pytest
from matplotlib.figure import Figure

from cuarenta_sim import plotting, simulate
from cuarenta_sim.cuarenta import winprob
from cuarenta_sim.cuarenta.trace_format import TRACE_COLUMNS


def _states(rows: list[tuple[int, int, int, int, int]]) -> pd.DataFrame:
    """States (deal, dealer_side, score_0, score_1, chica_winner), one chica each."""
    frame = pd.DataFrame(
        rows, columns=["deal", "dealer_side", "score_0", "score_1", "chica_winner"]
    )
    frame["game"] = np.arange(len(frame))
    frame["chica"] = 0
    frame["data"] = 0
    frame["chicas_0"] = 0
    frame["chicas_1"] = 0
    frame["mesa_winner"] = frame["chica_winner"]
    return frame[list(winprob.STATE_COLUMNS)]


def test_cells_below_min_n_are_masked_and_never_reached_cells_have_n_zero() -> None:
    # 0-0 at deal 0, side 0 deals: 40 chicas (30 won by side 0); 10-20 at deal 1: 3 chicas.
    rows = [(0, 0, 0, 0, 0)] * 30 + [(0, 0, 0, 0, 1)] * 10 + [(1, 1, 10, 20, 0)] * 3
    table = winprob.win_probability_table(_states(rows), "chica", min_n=5)
    assert len(table) == 4 * 2 * 20 * 20  # every cell of the grid, reached or not
    shown = table[
        (table.deal == 0) & table.own_deals & (table.own_score == 0) & (table.opponent_score == 0)
    ].iloc[0]
    assert (shown["n"], shown["successes"], shown["masked"]) == (40, 30, False)
    assert shown["estimate"] == pytest.approx(0.75)
    assert shown["lower"] < 0.75 < shown["upper"]
    # The mirror cell: side 1's view of the same 40 chicas, not dealing.
    mirror = table[
        (table.deal == 0) & ~table.own_deals & (table.own_score == 0) & (table.opponent_score == 0)
    ].iloc[0]
    assert mirror["estimate"] == pytest.approx(0.25)
    low = table[(table.deal == 1) & (table.n == 3)]
    assert len(low) == 2 and low["masked"].all()
    assert low[["estimate", "lower", "upper"]].isna().all().all()
    never = table[table.n == 0]
    assert not never["masked"].any() and not never["reached"].any()
    assert never["estimate"].isna().all()
    assert table["min_n"].eq(5).all()


def test_mesa_table_has_the_chica_tally() -> None:
    table = winprob.win_probability_table(_states([(0, 0, 0, 0, 0)] * 2), "mesa", min_n=1)
    assert {"own_chicas", "opponent_chicas"} <= set(table.columns)
    assert len(table) == 2 * 2 * 4 * 2 * 20 * 20


@pytest.mark.parametrize(
    ("kwargs", "needle"),
    [({"level": "data"}, "level must be one of"), ({"min_n": 0}, "min_n must be")],
)
def test_bad_table_arguments(kwargs: dict, needle: str) -> None:
    with pytest.raises(ValueError, match=needle):
        winprob.win_probability_table(_states([(0, 0, 0, 0, 0)]), **kwargs)


def test_never_reached_and_low_n_colours_differ_from_fifty_percent() -> None:
    values = np.array([[0.5, np.nan, np.nan]])
    n = np.array([[100, 3, 0]])
    rgba = plotting.probability_grid_colors(values, n, min_n=30)
    middle = np.asarray(matplotlib.colormaps[plotting.PROBABILITY_CMAP](0.5))
    assert np.allclose(rgba[0, 0], middle)
    assert not np.allclose(rgba[0, 1], middle) and not np.allclose(rgba[0, 2], middle)
    assert not np.allclose(rgba[0, 1], rgba[0, 2])
    assert np.allclose(rgba[0, 2], plotting.NEVER_REACHED_COLOR)
    # A low-n cell is grey even if an estimate were left in it.
    assert np.allclose(
        plotting.probability_grid_colors(np.array([[0.9]]), np.array([[2]]), 30)[0, 0],
        plotting.LOW_N_COLOR,
    )


def test_probability_grid_draws_the_masked_cells_grey() -> None:
    rows = [(0, 0, 0, 0, 0)] * 30 + [(0, 0, 0, 0, 1)] * 30 + [(0, 0, 2, 0, 0)] * 2
    table = winprob.win_probability_table(_states(rows), "chica", min_n=30)
    sub = table[(table.deal == 0) & table.own_deals]
    ax = Figure().subplots()
    plotting.probability_grid(sub, ax, min_n=30)
    image = ax.images[0].get_array()
    assert image.shape[:2] == (20, 20)
    assert np.allclose(image[1, 0], plotting.LOW_N_COLOR)  # own 2, opponent 0: n = 2
    assert np.allclose(image[5, 5], plotting.NEVER_REACHED_COLOR)
    assert len(ax.patches) == 20 * 20 - 1  # hatched: every cell but the one shown


def test_csv_round_trip(tmp_path: Path) -> None:
    rows = [(0, 0, 0, 0, 0)] * 31 + [(2, 1, 4, 6, 1)] * 2
    table = winprob.win_probability_table(_states(rows), "chica", min_n=30)
    path = tmp_path / "sub" / "wp.csv"
    winprob.write_table_csv(table, path)
    back = winprob.read_table_csv(path)
    pd.testing.assert_frame_equal(back, table.reset_index(drop=True), check_dtype=False)
    assert back["estimate"].isna().sum() == table["estimate"].isna().sum()


def test_chica_winner_reads_the_last_row() -> None:
    row = np.zeros(len(TRACE_COLUMNS), dtype=np.int64)
    row[TRACE_COLUMNS.index("score1")] = 40
    assert winprob.chica_winner(row, 40) == 1
    row[TRACE_COLUMNS.index("score1")] = 12
    with pytest.raises(ValueError, match="ends no chica"):
        winprob.chica_winner(row, 40)
    row[TRACE_COLUMNS.index("kind")] = 1
    row[TRACE_COLUMNS.index("flag")] = 2
    row[TRACE_COLUMNS.index("seat")] = 2
    assert winprob.chica_winner(row, 40) == 0  # a win_chica doble ronda of seat 2 (side 0)


def test_states_agree_with_the_records() -> None:
    """The state at the start of each data's first deal is the records' score after the
    previous data (0-0 at a new chica), and the chica winners match the mesa winner."""
    n = 12
    states = winprob.deal_states("quito", 2, "greedy", n, seed=5)
    res = simulate(rules="quito", players=2, policies="greedy", n=n, level="mesa", seed=5)
    hands = res.hands
    first = states[states["deal"] == 0].reset_index(drop=True)
    assert len(first) == len(hands)  # every data starts with deal 0
    prev0 = hands.groupby(["game", "chica"])["score_0"].shift(1).fillna(0).to_numpy()
    prev1 = hands.groupby(["game", "chica"])["score_1"].shift(1).fillna(0).to_numpy()
    assert np.array_equal(first["score_0"].to_numpy(), prev0)
    assert np.array_equal(first["score_1"].to_numpy(), prev1)
    assert np.array_equal(first["dealer_side"].to_numpy(), hands["dealer"].to_numpy() % 2)
    last = states.groupby("game").tail(1)
    won = np.where(last["chica_winner"] == 0, last["chicas_0"] + 1, last["chicas_1"] + 1)
    games = res.games.set_index("game").loc[last["game"]]
    final = np.where(last["chica_winner"] == 0, games["chicas_0"], games["chicas_1"])
    assert np.array_equal(won, final)
    assert np.array_equal(last["mesa_winner"].to_numpy(), last["chica_winner"].to_numpy())
