"""Same inputs, same frames: whatever the threads, the chunk size, the output mode or the
capacity of the slot buffers (design.md "Randomness and reproducibility"; each game's engine
contract, section 2). The generic tests are parametrised over every registered game."""

from __future__ import annotations

import numba
import numpy as np
import pandas as pd
import pytest

import cuarenta_sim.cuarenta.simulation as sim
from cuarenta_sim import GAMES, Results, aggregate, simulate
from cuarenta_sim.cuarenta.engine import trace_game

#: (game, options, level, n) per game: every level, mixed policies, small n.
CASES = [
    ("cuarenta", {"rules": "quito", "players": 2, "policies": ("greedy", "random")}, "data", 3000),
    ("cuarenta", {"rules": "pagat", "players": 4, "policies": ("random",)}, "data", 2000),
    ("cuarenta", {"rules": "cuenca", "players": 2, "policies": ("random", "random")}, "chica", 400),
    ("cuarenta", {"rules": "quito_torneo", "players": 4, "policies": ("greedy", "random")},
     "mesa", 150),
    ("cuatrola", {"rules": "ro", "policies": ("greedy", "random")}, "hand", 3000),
    ("cuatrola", {"rules": "online", "policies": "random", "bid_policies": ("never", "threshold")},
     "hand", 2000),
    ("cuatrola", {"rules": "ro(failed_contract=nobody)", "policies": ("random", "greedy")},
     "game", 200),
]  # fmt: skip
IDS = [f"{c[0]}-{c[2]}-{i}" for i, c in enumerate(CASES)]


def test_every_registered_game_has_a_case() -> None:
    assert {c[0] for c in CASES} == set(GAMES)
    for name, game in GAMES.items():
        assert {c[2] for c in CASES if c[0] == name} == set(game.levels)


def assert_same(a: Results, b: Results) -> None:
    for name in ("hands", "games"):
        x, y = getattr(a, name), getattr(b, name)
        assert (x is None) == (y is None)
        if x is not None:
            pd.testing.assert_frame_equal(x, y)


@pytest.mark.parametrize("game,opts,level,n", CASES, ids=IDS)
def test_same_seed_same_frames(game, opts, level, n) -> None:
    a = simulate(game, **opts, n=n, level=level, seed=11)
    b = simulate(game, **opts, n=n, level=level, seed=11)
    assert_same(a, b)
    c = simulate(game, **opts, n=n, level=level, seed=12)
    assert not a.hands.equals(c.hands)


@pytest.mark.parametrize("game,opts,level,n", CASES, ids=IDS)
def test_threads_and_chunks_do_not_matter(game, opts, level, n) -> None:
    base = simulate(game, **opts, n=n, level=level, seed=5, threads=1)
    if numba.config.NUMBA_NUM_THREADS >= 2:
        assert_same(base, simulate(game, **opts, n=n, level=level, seed=5, threads=2))
    for chunk in (1, 7, n // 3 + 1):
        assert_same(base, simulate(game, **opts, n=n, level=level, seed=5, chunk_size=chunk))
    # A prefix of the run is the run of the prefix.
    head = simulate(game, **opts, n=n // 3, level=level, seed=5)
    frame = "hands" if level == GAMES[game].levels[0] else "games"
    pd.testing.assert_frame_equal(getattr(head, frame), getattr(base, frame).iloc[: n // 3])


@pytest.mark.parametrize("game,opts,level,n", CASES, ids=IDS)
def test_aggregates_equal_the_frames(game, opts, level, n) -> None:
    """aggregate() (counters merged over chunks) gives the summary tables of the frames."""
    g = GAMES[game]
    frames = simulate(game, **opts, n=n, level=level, seed=3)
    counts = aggregate(game, **opts, n=n, level=level, seed=3, chunk_size=n // 4 + 1)
    from_frames, from_counts = g.summaries(frames), g.summaries(counts)
    assert list(from_frames) == list(from_counts) and from_frames
    for title, table in from_frames.items():
        other = from_counts[title]
        assert list(table["metric"]) == list(other["metric"])
        assert (table["n"].to_numpy() == other["n"].to_numpy()).all()
        for col in ("estimate", "lower", "upper"):
            np.testing.assert_allclose(table[col], other[col], rtol=1e-9, atol=1e-12)
    assert counts.provenance["hands_played"] == frames.provenance["hands_played"]
    assert counts.hands == g.aggregate_frames(level, frames.hands, frames.games).hands


@pytest.mark.parametrize("game", list(GAMES))
def test_dataset_resumes_to_the_same_records(game, tmp_path) -> None:
    """A dataset run interrupted after some chunks (markers removed) resumes to the same
    counters and the same Parquet records as the frames of one run."""
    g = GAMES[game]
    level = g.levels[1]
    kwargs = {"n": 300, "level": level, "seed": 7, "chunk_size": 70, "dataset": tmp_path,
              "records": True}  # fmt: skip
    first = aggregate(game, **kwargs)
    markers = sorted(tmp_path.glob("part-*.done.json"))
    for marker in markers[1::2]:
        marker.unlink()
    again = aggregate(game, **kwargs)
    assert again.provenance["chunks_reused"] == len(markers) - len(markers[1::2])
    assert again.hands == first.hands and again.games == first.games
    frames = simulate(game, n=300, level=level, seed=7)
    back = Results.from_dataset(tmp_path)
    pd.testing.assert_frame_equal(back.hands, frames.hands)
    pd.testing.assert_frame_equal(back.games, frames.games)
    assert back.provenance["game"] == game


@pytest.mark.parametrize("level", ["chica", "mesa"])
def test_slot_overflow_rerun(level: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Games longer than their record slots are re-run alone: same frames as with room."""
    kw = {"rules": "quito", "players": 2, "policies": "random", "n": 200, "level": level}
    base = simulate(**kw, seed=8)
    monkeypatch.setattr(sim, "SLOTS_PER_CHICA", 1)
    assert sim.record_capacity(1, 2) == 1
    assert_same(base, simulate(**kw, seed=8))


def test_keep_hands_false_keeps_games() -> None:
    full = simulate(rules="quito", players=2, policies="greedy", n=300, level="chica", seed=2)
    light = simulate(
        rules="quito", players=2, policies="greedy", n=300, level="chica", seed=2, keep_hands=False
    )
    assert light.hands is None
    pd.testing.assert_frame_equal(full.games, light.games)
    assert light.provenance["hands_played"] == len(full.hands)


def test_a_game_replays_alone() -> None:
    """Any single data or chica replays alone from (seed, index): the trace agrees with the
    batch records (contract 2)."""
    res = simulate(
        rules="cuenca", players=2, policies=("random", "greedy"), n=50, level="chica", seed=21
    )
    for game in (0, 17, 49):
        trace = trace_game("cuenca", 2, ("random", "greedy"), 21, "chica", game)
        rows = res.hands[res.hands["game"] == game]
        ends = trace[trace[:, 0] == 4]
        assert len(rows) == int(trace[-1, 1]) + 1
        last = trace[-1]
        assert (last[14], last[15]) == tuple(res.games.loc[game, ["score_0", "score_1"]])
        assert len(ends) <= len(rows)
    hands = simulate(rules="quito", players=4, policies="random", n=30, seed=4).hands
    for i in (0, 29):
        end = trace_game("quito", 4, "random", 4, "data", i)[-1]
        assert divmod(int(end[16]), 64) == (hands.loc[i, "cards_0"], hands.loc[i, "cards_1"])


@pytest.mark.parametrize("game", list(GAMES))
def test_seed_none_records_entropy(game: str) -> None:
    res = simulate(game, n=100, seed=None)
    seed = res.provenance["seed"]
    assert isinstance(seed, int)
    again = simulate(game, n=100, seed=seed)
    pd.testing.assert_frame_equal(res.hands, again.hands)
    assert np.uint64(res.provenance["root"]) == np.uint64(again.provenance["root"])
