"""simulate() and Results refuse bad input with ValueError, and never read partial output."""

import pandas as pd
import pyarrow.parquet as pq
import pytest

from cuarenta_sim import Results, simulate
from cuarenta_sim.results import games_path


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"n": 10**12}, "needs about .* GiB at its peak"),
        ({"n": 2**63}, "n must be a positive whole number up to 9,007,199,254,740,992"),
        ({"policies": 5}, "policies must be a policy name"),
        ({"policies": ("greedy",) * 3}, "one per side"),
        ({"players": 2.0}, "players must be 2 or 4"),
        ({"rules": {"preset": "quito", 1: 2}}, "switch names"),
        ({"rules": "quito(ronda_points=40000)"}, "from 0 to 100"),
        ({"rules": "quito(max_sum_cards=99999999999999999999)"}, "from 2 to 40"),
    ],
)
def test_bad_arguments_raise_value_error(kwargs: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        simulate(**{"n": 10, **kwargs})


def test_games_file_from_another_run_is_refused(tmp_path) -> None:
    """An interrupted --force rewrite cannot pair new hands with old games (issue 3)."""
    first = tmp_path / "a.parquet"
    simulate(n=30, level="chica", seed=1).to_parquet(first)
    second = tmp_path / "b.parquet"
    simulate(n=40, level="chica", seed=2).to_parquet(second)
    loaded = Results.from_parquet(first)
    pd.testing.assert_frame_equal(loaded.games, pq.read_table(games_path(first)).to_pandas())
    games_path(first).write_bytes(games_path(second).read_bytes())
    with pytest.raises(ValueError, match="belongs to another run"):
        Results.from_parquet(first)
    games_path(first).unlink()
    with pytest.raises(ValueError, match="missing"):
        Results.from_parquet(first)
