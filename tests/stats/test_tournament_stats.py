"""Tournament statistics (cuarenta_sim.tournament): head-to-head table, Bradley-Terry goodness
of fit with its misfit flag, bootstrap over shared deals. Synthetic matches, no engine."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from cuarenta_sim.bradley_terry import ELO_SCALE, bootstrap_draws, bradley_terry_fit, ratings
from cuarenta_sim.tournament import (
    HEAD_TO_HEAD_COLUMNS,
    head_to_head,
    head_to_head_matrix,
    match_summary,
)


def _pairs_frame(rng: np.random.Generator, p: float, n: int) -> pd.DataFrame:
    """n duplicate pairs: two games each, ``a`` winning each with chance ``p``."""
    a_wins = rng.binomial(1, p, (n, 2)).sum(axis=1).astype(np.float64)
    datas = rng.integers(6, 15, n)
    return pd.DataFrame(
        {
            "game": np.arange(n),
            "a_wins": a_wins,
            "games": np.full(n, 2),
            "a_points": rng.integers(0, 60, n) + (20 * a_wins).astype(np.int64),
            "b_points": rng.integers(0, 60, n) + (20 * (2 - a_wins)).astype(np.int64),
            "datas": datas,
        }
    )


def _tournament(
    win: dict[tuple[int, int], float], names: list[str], n: int, seed: int
) -> tuple[dict, list]:
    rng = np.random.default_rng(seed)
    pairs, matches = {}, []
    for (i, j), p in win.items():
        frame = _pairs_frame(rng, p, n)
        pairs[(names[i], names[j], "chica")] = frame
        matches.append((i, j, frame["a_wins"].to_numpy(np.float64)))
    return pairs, matches


NAMES = ["rock", "paper", "scissors"]
#: Rock-paper-scissors: each beats the next at 70%, so no strengths can fit.
INTRANSITIVE = {(0, 1): 0.3, (1, 2): 0.3, (0, 2): 0.7}


def _transitive(theta: tuple[float, ...]) -> dict[tuple[int, int], float]:
    k = len(theta)
    return {
        (i, j): 1.0 / (1.0 + math.exp(theta[j] - theta[i]))
        for i in range(k)
        for j in range(i + 1, k)
    }


def test_head_to_head_is_symmetric_and_matches_each_match() -> None:
    pairs, _ = _tournament(INTRANSITIVE, NAMES, 300, seed=1)
    table = head_to_head(pairs, NAMES)
    assert list(table.columns) == list(HEAD_TO_HEAD_COLUMNS)
    assert len(table) == 6  # every ordered pair of 3 policies
    idx = table.set_index(["a", "b"])
    for a in NAMES:
        for b in NAMES:
            if a == b:
                continue
            ab, ba = idx.loc[(a, b)], idx.loc[(b, a)]
            assert ab["win_rate"] == pytest.approx(1.0 - ba["win_rate"])
            assert ab["lower"] == pytest.approx(1.0 - ba["upper"])
            assert ab["points_per_data"] == pytest.approx(-ba["points_per_data"])
            assert ab["ppd_lower"] == pytest.approx(-ba["ppd_upper"])
            assert ab["lower"] < ab["win_rate"] < ab["upper"]
    # The mirrored row is what the match gives when its sides are swapped.
    frame = pairs[("rock", "paper", "chica")]
    swapped = frame.assign(
        a_wins=frame["games"] - frame["a_wins"],
        a_points=frame["b_points"],
        b_points=frame["a_points"],
    )
    s = match_summary(swapped)
    row = idx.loc[("paper", "rock")]
    assert (row["win_rate"], row["lower"], row["upper"]) == pytest.approx(
        (s["win_rate"], s["lower"], s["upper"])
    )
    assert (row["ppd_lower"], row["ppd_upper"]) == pytest.approx((s["ppd_lower"], s["ppd_upper"]))
    matrix = head_to_head_matrix(table)
    assert list(matrix.index) == NAMES and list(matrix.columns) == NAMES
    assert np.isnan(np.diag(matrix.to_numpy())).all()
    np.testing.assert_allclose(
        matrix.to_numpy() + matrix.to_numpy().T, np.where(np.eye(3, dtype=bool), np.nan, 1.0)
    )


def test_head_to_head_rejects_unknown_policies_and_levels() -> None:
    pairs, _ = _tournament(INTRANSITIVE, NAMES, 20, seed=2)
    with pytest.raises(ValueError, match="no chica match"):
        head_to_head(pairs, ["rock", "lizard"])
    with pytest.raises(ValueError, match="level must be"):
        head_to_head(pairs, level="ronda")


def test_bradley_terry_misfit_is_flagged_on_rock_paper_scissors() -> None:
    for seed in range(10):
        _, matches = _tournament(INTRANSITIVE, NAMES, 500, seed)
        fit = bradley_terry_fit(NAMES, matches)
        assert fit.df == 1 and fit.misfit and fit.p_value < 1e-6
        assert "misfit" in fit.warning()
        # The model has to call everything even; the head-to-head says about 150 Elo.
        assert np.abs(fit.pairs["elo_gap"]).max() < 60
        assert (np.abs(fit.pairs["observed_gap"]) > 100).all()


def test_bradley_terry_fits_a_transitive_tournament() -> None:
    theta = (0.0, 0.4, 0.9, 1.1)
    names = ["a", "b", "c", "d"]
    misfits = 0
    p_values = []
    for seed in range(40):
        _, matches = _tournament(_transitive(theta), names, 300, seed)
        fit = bradley_terry_fit(names, matches)
        assert fit.df == 6 - 3
        misfits += fit.misfit
        p_values.append(fit.p_value)
        assert fit.warning() == "" or fit.misfit
    # Under the model the p-value is uniform: about 5% misfits, a median near 1/2.
    assert misfits <= 6
    assert 0.3 < float(np.median(p_values)) < 0.7


def test_two_policies_are_saturated_and_cannot_misfit() -> None:
    _, matches = _tournament({(0, 1): 0.6}, ["x", "y"], 100, seed=3)
    fit = bradley_terry_fit(["x", "y"], matches)
    assert fit.df == 0 and math.isnan(fit.p_value) and not fit.misfit
    assert fit.deviance == pytest.approx(0.0, abs=1e-3)


def test_dispersion_scales_down_positively_correlated_pairs_only() -> None:
    # Both games of a pair always agree: design effect 2, so the deviance counts half.
    a_wins = np.repeat([0.0, 2.0], [40, 60])
    fit = bradley_terry_fit(["x", "y", "z"], [(0, 1, a_wins), (1, 2, a_wins), (0, 2, a_wins)])
    assert fit.dispersion == pytest.approx(2.0, rel=0.05)
    # Split pairs (1 win each): perfectly negative correlation, dispersion stays 1.
    split = np.ones(100)
    fit = bradley_terry_fit(["x", "y", "z"], [(0, 1, split), (1, 2, split), (0, 2, split)])
    assert fit.dispersion == 1.0


def test_bootstrap_resamples_shared_deals_together() -> None:
    rng = np.random.default_rng(0)
    draws = bootstrap_draws([50, 50, 50], rng)
    assert all(d is draws[0] for d in draws) and draws[0].size == 50
    big, small = bootstrap_draws([50, 30], rng)
    # A shorter match keeps the drawn deals it played (shared with the longer one).
    assert big.size == 50 and np.array_equal(small, big[big < 30])


def test_ratings_bootstrap_draws_each_deal_for_every_match_at_once() -> None:
    """Every match won by its first policy on the same deals: with the deals resampled
    together each replicate sees three equal win rates, whose Bradley-Terry fit puts the middle
    policy at exactly 0; resampling the matches independently would spread it."""
    rng = np.random.default_rng(5)
    luck = rng.binomial(2, 0.6, 200).astype(np.float64)
    shared = ratings(["a", "b", "c"], [(0, 1, luck), (1, 2, luck), (0, 2, luck)], bootstrap=200)
    b = shared.set_index("policy").loc["b"]
    assert abs(b["lower"]) < 1e-6 and abs(b["upper"]) < 1e-6
    # The same wins on unrelated deals (permuted): the middle policy's interval opens up.
    other = [(0, 1, luck), (1, 2, luck[::-1].copy()), (0, 2, np.roll(luck, 1))]
    b = ratings(["a", "b", "c"], other, bootstrap=200).set_index("policy").loc["b"]
    assert b["upper"] - b["lower"] > 10.0
    a = shared.set_index("policy").loc["a"]
    assert a["lower"] < a["rating"] < a["upper"] and a["rating"] > ELO_SCALE * 0.1
