"""Same inputs, same frames: whatever the threads, the chunk size or the capacity of the slot
buffers (design.md "Randomness and reproducibility"; contract section 2)."""

from __future__ import annotations

import numba
import numpy as np
import pandas as pd
import pytest

import cuarenta_sim.cuarenta.simulation as sim
from cuarenta_sim import simulate
from cuarenta_sim.cuarenta.engine import trace_game

CASES = [
    ("quito", 2, ("greedy", "random"), "data", 3000),
    ("pagat", 4, ("random",), "data", 2000),
    ("cuenca", 2, ("random", "random"), "chica", 400),
    ("quito_torneo", 4, ("greedy", "random"), "mesa", 150),
]


def assert_same(a: sim.Results, b: sim.Results) -> None:
    for name in ("hands", "games"):
        x, y = getattr(a, name), getattr(b, name)
        assert (x is None) == (y is None)
        if x is not None:
            pd.testing.assert_frame_equal(x, y)


@pytest.mark.parametrize("rules,players,policies,level,n", CASES)
def test_same_seed_same_frames(rules, players, policies, level, n) -> None:
    a = simulate(rules, players, policies, n=n, level=level, seed=11)
    b = simulate(rules, players, policies, n=n, level=level, seed=11)
    assert_same(a, b)
    c = simulate(rules, players, policies, n=n, level=level, seed=12)
    assert not a.hands.equals(c.hands)


@pytest.mark.parametrize("rules,players,policies,level,n", CASES)
def test_threads_and_chunks_do_not_matter(rules, players, policies, level, n) -> None:
    base = simulate(rules, players, policies, n=n, level=level, seed=5, threads=1)
    if numba.config.NUMBA_NUM_THREADS >= 2:
        assert_same(base, simulate(rules, players, policies, n=n, level=level, seed=5,
                                   threads=2))
    for chunk in (1, 7, n // 3 + 1):
        assert_same(base, simulate(rules, players, policies, n=n, level=level, seed=5,
                                   chunk_size=chunk))


@pytest.mark.parametrize("level", ["chica", "mesa"])
def test_slot_overflow_rerun(level: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Games longer than their record slots are re-run alone: same frames as with room."""
    base = simulate("quito", 2, "random", n=200, level=level, seed=8)
    monkeypatch.setattr(sim, "SLOTS_PER_CHICA", 1)
    assert sim.record_capacity(1, 2) == 1
    assert_same(base, simulate("quito", 2, "random", n=200, level=level, seed=8))


def test_keep_hands_false_keeps_games() -> None:
    full = simulate("quito", 2, "greedy", n=300, level="chica", seed=2)
    light = simulate("quito", 2, "greedy", n=300, level="chica", seed=2, keep_hands=False)
    assert light.hands is None
    pd.testing.assert_frame_equal(full.games, light.games)
    assert light.provenance["datas"] == len(full.hands)


def test_a_game_replays_alone() -> None:
    """Any single data or chica replays alone from (seed, index): the trace agrees with the
    batch records (contract 2)."""
    res = simulate("cuenca", 2, ("random", "greedy"), n=50, level="chica", seed=21)
    for game in (0, 17, 49):
        trace = trace_game("cuenca", 2, ("random", "greedy"), 21, "chica", game)
        rows = res.hands[res.hands["game"] == game]
        ends = trace[trace[:, 0] == 4]
        assert len(rows) == int(trace[-1, 1]) + 1
        last = trace[-1]
        assert (last[14], last[15]) == tuple(res.games.loc[game, ["score_0", "score_1"]])
        assert len(ends) <= len(rows)
    hands = simulate("quito", 4, "random", n=30, seed=4).hands
    for i in (0, 29):
        end = trace_game("quito", 4, "random", 4, "data", i)[-1]
        assert divmod(int(end[16]), 64) == (hands.loc[i, "cards_0"], hands.loc[i, "cards_1"])


def test_seed_none_records_entropy() -> None:
    res = simulate(n=100, seed=None)
    seed = res.provenance["seed"]
    assert isinstance(seed, int)
    again = simulate(n=100, seed=seed)
    pd.testing.assert_frame_equal(res.hands, again.hands)
    assert np.uint64(res.provenance["root"]) == np.uint64(again.provenance["root"])
