"""The searching players' smaller default chunks (issue 20, failure 10: a report's solver
confirmation reports progress every few seconds) leave the records bit-identical to one
chunk, and every chunk reports its progress."""

from __future__ import annotations

import pandas as pd
import pytest

from cuarenta_sim import simulate
from cuarenta_sim.cuarenta.simulation import DEFAULT_CHUNK, SEARCH_CHUNK_DIVISOR
from cuarenta_sim.progress import listening


@pytest.mark.parametrize(("level", "n"), [("data", 70), ("chica", 9), ("mesa", 3)])
def test_solver_default_chunks_equal_one_chunk(level: str, n: int) -> None:
    chunk = DEFAULT_CHUNK[level] // SEARCH_CHUNK_DIVISOR
    assert chunk < n  # the default splits this run
    seen: list[tuple[int, int, str]] = []
    with listening(lambda done, total, unit: seen.append((done, total, unit))):
        small = simulate(policies="solver", level=level, n=n, seed=3)
    assert small.provenance["chunk_size"] == chunk
    assert [s[0] for s in seen] == sorted({min(n, k) for k in range(chunk, n + chunk, chunk)})
    assert all(s[1] == n for s in seen)
    whole = simulate(policies="solver", level=level, n=n, seed=3, chunk_size=n)
    for name in ("hands", "games"):
        a, b = getattr(small, name), getattr(whole, name)
        assert (a is None) == (b is None)
        if a is not None:
            pd.testing.assert_frame_equal(a, b)
