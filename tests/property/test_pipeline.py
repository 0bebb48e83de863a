"""Property tests of the one simulation pipeline, for every registered game.

For random seeds, sizes, chunk sizes, levels and presets: the chunked run equals the run in one
chunk, record for record; the frames are consistent (game indices 0..n-1 in order, the games'
``hands`` column adds up to the hand records, a truncated game has no winner); and the
aggregates of the chunked run equal the counters of the frames, counter for counter.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cuarenta_sim import GAMES, aggregate, simulate


@pytest.mark.parametrize("name", list(GAMES))
@settings(max_examples=15, deadline=None)
@given(data=st.data())
def test_chunks_frames_and_counters_agree(name: str, data: st.DataObject) -> None:
    game = GAMES[name]
    seed = data.draw(st.integers(0, 2**63 - 1), label="seed")
    level = data.draw(st.sampled_from(game.levels), label="level")
    rules = data.draw(st.sampled_from(sorted(game.presets)), label="rules")
    hand_level = level == game.levels[0]
    n = data.draw(st.integers(1, 300 if hand_level else 25), label="n")
    chunk = data.draw(st.integers(1, n), label="chunk")
    kw = {"rules": rules, "policies": "random", "n": n, "level": level, "seed": seed}
    whole = simulate(name, **kw)
    parts = simulate(name, **kw, chunk_size=chunk, threads=1)
    for frame in ("hands", "games"):
        a, b = getattr(whole, frame), getattr(parts, frame)
        assert (a is None) == (b is None)
        if a is not None:
            pd.testing.assert_frame_equal(a, b)
    if hand_level:
        assert whole.games is None and len(whole.hands) == n
        assert (whole.hands["hand"].to_numpy() == np.arange(n)).all()
    else:
        games = whole.games
        assert (games["game"].to_numpy() == np.arange(n)).all()
        assert int(games["hands"].sum()) == len(whole.hands)
        assert (games["winner"][games["truncated"]] == -1).all()
        assert (np.diff(whole.hands["game"].to_numpy()) >= 0).all()
    counts = aggregate(name, **kw, chunk_size=chunk)
    expected = game.aggregate_frames(level, whole.hands, whole.games)
    assert counts.hands == expected.hands and counts.games == expected.games
    assert counts.provenance["hands_played"] == whole.provenance["hands_played"]
