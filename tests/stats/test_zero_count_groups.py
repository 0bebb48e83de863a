"""Zero-count groups survive every aggregation: group-bys, score grids, length distributions."""

import numpy as np
import pandas as pd

from cuarenta_sim import stats
from cuarenta_sim.cuarenta import analysis


def test_two_key_grouping_keeps_every_combination() -> None:
    frame = pd.DataFrame(
        {
            "rules": pd.Categorical(
                ["quito", "quito", "cuenca"], categories=["quito", "cuenca", "pagat"]
            ),
            "players": pd.Categorical([2, 4, 2], categories=[2, 4]),
            "won": [1, 0, 1],
        }
    )
    out = stats.grouped_proportions(frame, ["rules", "players"], "won")
    assert len(out) == 6
    empty = out[out["n"] == 0]
    assert len(empty) == 3 and not empty["defined"].any()
    assert empty["estimate"].isna().all() and empty["lower"].isna().all()
    means = stats.grouped_means(
        frame.assign(points=[2.0, 4.0, 6.0]), ["rules", "players"], "points"
    )
    assert len(means) == 6 and (means["n"] == 0).sum() == 3


def test_proportions_of_an_all_empty_frame() -> None:
    frame = pd.DataFrame({"g": pd.Categorical([], categories=["a", "b"]), "x": []})
    out = stats.grouped_proportions(frame, "g", "x")
    assert list(out["n"]) == [0, 0] and not out["defined"].any()


def _chicas() -> tuple[pd.DataFrame, pd.DataFrame]:
    # Two chicas of 2 players: game 0 won by side 0, game 1 by side 1.
    hands = pd.DataFrame(
        {
            "game": [0, 0, 1, 1],
            "dealer": [1, 0, 0, 1],
            "score_0": [10, 40, 4, 20],
            "score_1": [6, 12, 8, 40],
            "ended": [False, True, False, True],
        }
    )
    games = pd.DataFrame({"game": [0, 1], "winner": [0, 1], "truncated": [False, False]})
    return hands, games


def test_win_probability_grid_keeps_unreached_states() -> None:
    hands, games = _chicas()
    grid = analysis.win_probability_by_score(hands, games, target=40, players=2)
    assert len(grid) == 20 * 20
    seen = grid[grid["n"] > 0]
    # Data 0 of chica 0 (dealer seat 1): seat 0 deals next, side 0 at 10-6, won.
    # Data 0 of chica 1 (dealer seat 0): seat 1 deals next, side 1 at 8-4, won.
    assert sorted(
        zip(seen["own_score"], seen["opponent_score"], seen["successes"], strict=True)
    ) == [(8, 4, 1), (10, 6, 1)]
    assert (grid["n"] == 0).sum() == 398 and grid.loc[grid["n"] == 0, "estimate"].isna().all()


def test_win_probability_skips_truncated_chicas() -> None:
    hands, games = _chicas()
    games.loc[1, ["winner", "truncated"]] = [-1, True]
    grid = analysis.win_probability_by_score(hands, games, target=40, players=2)
    assert grid["n"].sum() == 1


def test_length_distribution_keeps_zero_count_lengths() -> None:
    out = analysis.length_distribution(np.array([2, 2, 5, 3]))
    assert list(out["length"]) == [1, 2, 3, 4, 5]
    assert list(out["successes"]) == [0, 2, 1, 0, 1]
    zero = out[out["successes"] == 0]
    assert (zero["estimate"] == 0).all() and (zero["upper"] > 0).all() and zero["defined"].all()
    none = analysis.length_distribution(np.array([], dtype=int), max_length=3)
    assert list(none["n"]) == [0, 0, 0] and not none["defined"].any()
