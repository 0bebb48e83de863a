"""Duplicate tournaments, clustered win-rate intervals and Bradley-Terry ratings."""

from __future__ import annotations

import math

import numpy as np
import pytest

from cuarenta_sim import stats
from cuarenta_sim.bradley_terry import ELO_SCALE, bradley_terry, ratings
from cuarenta_sim.cuarenta.duplicate import play_duplicate
from cuarenta_sim.cuarenta.policies import split_policy_list
from cuarenta_sim.cuarenta.strategy_play import cuarenta_tournament
from cuarenta_sim.tournament import TournamentSettings, match_summary


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("random", ["random"]),
        (" random , greedy ", ["random", "greedy"]),
        ("pimc(samples=8,depth=deal),greedy", ["pimc(samples=8,depth=deal)", "greedy"]),
        ("a(b=(1,2)),c", ["a(b=(1,2))", "c"]),
    ],
)
def test_split_policy_list(text: str, expected: list[str]) -> None:
    assert split_policy_list(text) == expected


@pytest.mark.parametrize(
    ("text", "needle"),
    [("random,,greedy", "empty name"), ("pimc(samples=8", "unclosed"), ("a),b", "unmatched")],
)
def test_split_policy_list_errors(text: str, needle: str) -> None:
    with pytest.raises(ValueError, match=needle):
        split_policy_list(text)


# ----------------------------------------------------------------- clustered proportion
def test_clustered_proportion_constant_scores_is_wilson_on_games() -> None:
    row = stats.clustered_proportion("w", np.full(100, 0.5))
    _, lo, hi = stats.wilson_interval(100, 200)
    assert row["estimate"] == 0.5 and row["n"] == 100
    assert row["lower"] == pytest.approx(float(lo)) and row["upper"] == pytest.approx(float(hi))


def test_clustered_proportion_stays_in_unit_interval_and_handles_edges() -> None:
    for scores in (np.zeros(50), np.ones(50), np.r_[np.zeros(99), 0.5]):
        row = stats.clustered_proportion("w", scores)
        assert 0.0 <= row["lower"] <= row["estimate"] <= row["upper"] <= 1.0
    assert stats.clustered_proportion("w", np.ones(10))["upper"] == 1.0
    assert not stats.clustered_proportion("w", np.array([]))["defined"]
    with pytest.raises(ValueError, match=r"\[0, 1\]"):
        stats.clustered_proportion("w", np.array([1.5]))


@pytest.mark.parametrize("rho", [-0.8, 0.0, 0.6])
def test_clustered_proportion_covers_the_true_rate(rho: float) -> None:
    """Coverage of the 95% interval is near 95% for correlated pairs of 0/1 outcomes,
    whatever the sign of the within-pair correlation (the reason for the design effect)."""
    rng = np.random.default_rng(7)
    p, pairs, reps = 0.55, 400, 2000
    # Pairs of Bernoulli(p) outcomes with correlation rho: joint law of (x1, x2).
    p11 = p * p + rho * p * (1 - p)
    probs = np.array([1 - 2 * p + p11, p - p11, p - p11, p11])  # 00, 01, 10, 11
    covered = 0
    for _ in range(reps):
        cells = rng.choice(4, size=pairs, p=probs)
        score = np.array([0.0, 0.5, 0.5, 1.0])[cells]
        row = stats.clustered_proportion("w", score)
        covered += row["lower"] <= p <= row["upper"]
    assert 0.93 <= covered / reps <= 0.97


# ----------------------------------------------------------------- bradley-terry
def test_bradley_terry_recovers_known_strengths() -> None:
    theta = np.array([-1.0, 0.0, 0.3, 0.7])
    theta -= theta.mean()
    games = 10_000.0
    p = 1.0 / (1.0 + np.exp(theta[None, :] - theta[:, None]))
    wins = games * p
    np.fill_diagonal(wins, 0.0)
    assert np.allclose(bradley_terry(wins), theta, atol=1e-8)


@pytest.mark.parametrize(
    ("wins", "needle"),
    [
        (np.zeros((1, 1)), "square matrix of at least 2"),
        (np.array([[0.0, -1.0], [1.0, 0.0]]), "non-negative"),
        (np.array([[0.0, 5.0], [0.0, 0.0]]), "at least one win and one loss"),
    ],
)
def test_bradley_terry_bad_input(wins: np.ndarray, needle: str) -> None:
    with pytest.raises(ValueError, match=needle):
        bradley_terry(wins)


def test_ratings_order_interval_and_elo_scale() -> None:
    rng = np.random.default_rng(1)
    # 0 beats 1 three times in four; 1 and 2 are even; 0 beats 2 three times in four.
    matches = [
        (0, 1, rng.binomial(2, 0.75, 2000).astype(float)),
        (1, 2, rng.binomial(2, 0.5, 2000).astype(float)),
        (0, 2, rng.binomial(2, 0.75, 2000).astype(float)),
    ]
    frame = ratings(["a", "b", "c"], matches, bootstrap=200, seed=3)
    assert frame["policy"].iloc[0] == "a"
    assert (frame["lower"] <= frame["rating"]).all() and (frame["rating"] <= frame["upper"]).all()
    gap = frame.set_index("policy")["rating"]
    expected = ELO_SCALE * math.log(3.0)  # odds 3:1
    assert gap["a"] - (gap["b"] + gap["c"]) / 2 == pytest.approx(expected, rel=0.1)
    assert frame["rating"].sum() == pytest.approx(0.0, abs=1e-9)


# ----------------------------------------------------------------- duplicate play
def test_self_play_in_duplicate_is_exactly_even() -> None:
    """A deterministic policy against itself: both games of a pair are the same game with the
    seats swapped, so every pair is split one-one and the points cancel exactly."""
    pairs = play_duplicate("greedy", "greedy", n=300, seed=5)
    assert (pairs["a_wins"] == 1.0).all()
    assert (pairs["a_points"] == pairs["b_points"]).all()
    summary = match_summary(pairs)
    assert summary["win_rate"] == 0.5 and summary["points_per_data"] == 0.0
    assert summary["verdict"] == "not resolved"


def test_duplicate_is_symmetric_in_the_two_policies() -> None:
    ab = play_duplicate("random", "greedy", n=200, seed=2)
    ba = play_duplicate("greedy", "random", n=200, seed=2)
    assert np.array_equal(ab["a_wins"].to_numpy(), 2.0 - ba["a_wins"].to_numpy())
    assert np.array_equal(ab["a_points"].to_numpy(), ba["b_points"].to_numpy())
    assert np.array_equal(ab["datas"].to_numpy(), ba["datas"].to_numpy())


@pytest.mark.parametrize(("players", "level"), [(2, "chica"), (4, "chica"), (2, "mesa")])
def test_greedy_beats_random(players: int, level: str) -> None:
    pairs = play_duplicate("greedy", "random", players=players, level=level, n=200, seed=0)
    summary = match_summary(pairs)
    assert summary["verdict"] == "a better"
    assert summary["lower"] > 0.5 and summary["ppd_lower"] > 0.0
    assert summary["games"] == 400 and summary["datas"] == int(pairs["datas"].sum())


def test_play_duplicate_bad_level() -> None:
    with pytest.raises(ValueError, match="level must be one of chica, mesa"):
        play_duplicate("greedy", "random", level="data", n=10)


def test_run_tournament_tables() -> None:
    result = cuarenta_tournament(
        TournamentSettings(policies=("random", "greedy"), chicas=400, mesas=40, bootstrap=50)
    )
    m = result.matches
    assert list(m["level"]) == ["chica", "mesa"]
    assert (m["verdict"] == "b better").all()
    assert list(result.ratings["policy"]) == ["greedy", "random"]
    assert set(result.pairs) == {("random", "greedy", "chica"), ("random", "greedy", "mesa")}


@pytest.mark.parametrize(
    ("kwargs", "needle"),
    [
        ({"policies": ("greedy",)}, "at least 2 policies"),
        ({"policies": ("greedy", "greedy")}, "listed twice"),
        ({"policies": ("greedy", "random"), "chicas": 3}, "--chicas must be an even"),
        ({"policies": ("greedy", "random"), "mesas": -2}, "--mesas must be an even"),
        ({"policies": ("greedy", "random"), "seed": -1}, "--seed must be a non-negative"),
        ({"policies": ("greedy", "random"), "confidence": 2.0}, "confidence must be"),
    ],
)
def test_tournament_settings_errors(kwargs: dict, needle: str) -> None:
    with pytest.raises(ValueError, match=needle):
        TournamentSettings(**kwargs)


def test_run_tournament_unknown_policy() -> None:
    with pytest.raises(ValueError, match="unknown policy 'smart'"):
        cuarenta_tournament(TournamentSettings(policies=("greedy", "smart"), chicas=2))


def test_tournaments_come_from_the_game_contract() -> None:
    """Issue 19: the shared layer keeps no table of games with tournaments; each game's
    definition names its tournament module (Cuatrola none, so it is refused clearly)."""
    import cuarenta_sim.tournament as tournament
    from cuarenta_sim.game import get_game

    assert not hasattr(tournament, "TOURNAMENT_GAMES")
    assert get_game("cuarenta").tournament_module == "cuarenta_sim.cuarenta.strategy_play"
    assert get_game("cuatrola").tournament_module is None
    module = tournament.game_tournament("cuarenta")
    for name in ("check_tournament", "tournament", "tournament_text", "tournament_identity"):
        assert callable(getattr(module, name)), name
    with pytest.raises(ValueError, match=r"no duplicate tournament for game 'cuatrola'.*cuarenta"):
        tournament.game_tournament("cuatrola")
    with pytest.raises(ValueError, match="unknown game"):
        tournament.game_tournament("chess")
