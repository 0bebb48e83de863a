"""simulate("cuatrola"): determinism (threads, chunks), frames, invariants, bad input."""

from __future__ import annotations

import numba
import numpy as np
import pandas as pd
import pytest

from cuarenta_sim import simulate
from cuarenta_sim.results import Results

THREADS = [1, min(2, numba.config.NUMBA_NUM_THREADS)]


@pytest.mark.parametrize("level", ["hand", "game"])
def test_identical_whatever_threads_and_chunks(level: str) -> None:
    kw = dict(rules="ro", policies="random", bid_policies="threshold", seed=8, level=level)
    n = 3000 if level == "hand" else 300
    base = simulate("cuatrola", n=n, threads=THREADS[0], **kw)
    for threads, chunk in ((THREADS[1], None), (THREADS[1], 7), (THREADS[0], 1000)):
        other = simulate("cuatrola", n=n, threads=threads, chunk_size=chunk, **kw)
        pd.testing.assert_frame_equal(base.hands, other.hands)
        if level == "game":
            pd.testing.assert_frame_equal(base.games, other.games)
    # A prefix of the run is the run of the prefix.
    head = simulate("cuatrola", n=n // 3, **kw)
    if level == "hand":
        pd.testing.assert_frame_equal(head.hands, base.hands.iloc[: n // 3])
    else:
        pd.testing.assert_frame_equal(head.games, base.games.iloc[: n // 3])


def test_hand_invariants() -> None:
    h = simulate(
        "cuatrola", rules="ro", policies="random", bid_policies="threshold", n=20_000, seed=1
    ).hands
    assert ((h.tricks_0 + h.tricks_1) == 5).all()
    none = h.contract == 0
    assert ((h.points_0 + h.points_1)[none] == 130).all()
    assert ((h.points_0 + h.points_1)[~none] < 130).all()
    assert (h.declarer[none] == -1).all() and (h.made[none] == -1).all()
    assert ((h.cantes_0 + h.cantes_1)[h.contract >= 2] == 0).all()
    assert set(np.unique(h.cantes_0 + h.cantes_1)) <= {0, 20, 40, 60, 80}
    gp = h.game_points_0 + h.game_points_1
    values = np.array([1, 2, 4, 5])[h.contract]
    assert (gp == values).all()  # to_opponents: every hand gives its value to somebody
    # The dealt masks partition the deck; the trump card is the dealer's.
    dealt = h[["dealt_0", "dealt_1", "dealt_2", "dealt_3"]].to_numpy()
    assert (np.bitwise_or.reduce(dealt, axis=1) == (1 << 20) - 1).all()
    dealer_mask = dealt[np.arange(len(h)), h.dealer.to_numpy()]
    assert ((dealer_mask >> h.trump_card.to_numpy()) & 1).all()
    assert (h.trump == h.trump_card // 5).all()
    # Everybody declares something sometimes with the threshold policy.
    assert set(np.unique(h.contract)) == {0, 1, 2, 3}


def test_games_end_at_the_target() -> None:
    res = simulate(
        "cuatrola",
        rules="online",
        policies="greedy",
        bid_policies="threshold",
        n=500,
        level="game",
        seed=2,
    )
    g, h = res.games, res.hands
    assert (g.winner >= 0).all() and not g.truncated.any()
    assert (np.maximum(g.score_0, g.score_1) >= 11).all()
    assert g.hands.sum() == len(h)
    last = h.groupby("game").tail(1)
    assert (last.score_0.to_numpy() == g.score_0.to_numpy()).all()
    # Only a failed contract of the opponents can take a pair past 11 (C6.1).
    past = g[np.maximum(g.score_0, g.score_1) > 11]
    last_past = last.set_index("game").loc[past.game]
    assert (last_past.made == 0).all()
    assert res.provenance["game"] == "cuatrola" and res.provenance["rules"] == "online"


def test_parquet_round_trip(tmp_path) -> None:
    for level in ("hand", "game"):
        res = simulate("cuatrola", n=50, level=level, seed=4)
        path = tmp_path / f"{level}.parquet"
        res.to_parquet(path)
        back = Results.from_parquet(path)
        pd.testing.assert_frame_equal(back.hands, res.hands)
        assert back.provenance == res.provenance


@pytest.mark.parametrize(
    ("kwargs", "fragment"),
    [
        ({"rules": "quito"}, "unknown Cuatrola preset"),
        ({"policies": "smart"}, "unknown play policy"),
        ({"bid_policies": ["never"] * 3}, "1, 2"),
        ({"level": "data"}, "accepted: hand, game"),
        ({"n": 0}, "n must be a positive"),
        ({"chunk_size": -1}, "chunk_size"),
        ({"seed": -3}, "seed"),
        ({"threads": 0}, "threads"),
        ({"keep_hands": False}, "keep_hands"),
    ],
)
def test_bad_arguments(kwargs: dict, fragment: str) -> None:
    with pytest.raises(ValueError) as info:
        simulate("cuatrola", **{"n": 10, **kwargs})
    assert fragment in str(info.value)


def test_games_only_and_pimc_provenance() -> None:
    kw = dict(rules="ro", policies=["pimc(samples=2)", "greedy"], level="game", seed=6)
    full = simulate("cuatrola", n=20, **kw)
    games_only = simulate("cuatrola", n=20, keep_hands=False, **kw)
    assert games_only.hands is None
    pd.testing.assert_frame_equal(full.games, games_only.games)
    assert full.provenance["policies"][:2] == ["pimc(samples=2)", "greedy"]
    assert full.provenance["bid_policies"][0] == "threshold(solo=15,cuatrola=18,quintola=22)"


def test_truncated_games_warn_and_are_counted() -> None:
    """With failed contracts scoring for nobody (C5.5) and forced quintolas, games hit the
    engine's cap of hands: the run warns and counts them in the provenance."""
    from cuarenta_sim.simulation import TruncationWarning

    kw = dict(rules="ro(failed_contract=nobody)", policies="random", level="game", seed=1)
    with pytest.warns(TruncationWarning, match=r"of 20 games were truncated"):
        res = simulate("cuatrola", bid_policies="always(quintola)", n=20, keep_hands=False, **kw)
    truncated = int(res.games["truncated"].sum())
    assert truncated > 0 and res.provenance["truncated"] == truncated
    assert (res.games["winner"][res.games["truncated"]] == -1).all()
    assert simulate("cuatrola", n=20, **kw).provenance["truncated"] == 0
