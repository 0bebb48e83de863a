"""simulate(), Results and the policy registry: validation, dtypes, provenance, Parquet."""

from __future__ import annotations

import json
from pathlib import Path

import numba
import numpy as np
import pandas as pd
import pyarrow.parquet as pq
import pytest

import cuarenta_sim
from cuarenta_sim import simulate
from cuarenta_sim.cuarenta.engine import trace_game, warmup
from cuarenta_sim.cuarenta.policies import POLICIES, POLICY_NAMES, resolve_policies
from cuarenta_sim.cuarenta.policies.kernel import is_stochastic
from cuarenta_sim.cuarenta.rules import RuleSet
from cuarenta_sim.results import PROVENANCE_KEY, Results, games_path


def test_policy_registry() -> None:
    assert resolve_policies("random", 4) == (0, 0, 0, 0)
    assert resolve_policies(("random", "greedy"), 4) == (0, 1, 0, 1)
    assert resolve_policies(["greedy", "random", "random", "greedy"], 4) == (1, 0, 0, 1)
    assert POLICIES["random"].stochastic and not POLICIES["greedy"].stochastic
    for info in POLICIES.values():
        assert is_stochastic(info.id) == info.stochastic
        assert POLICY_NAMES[info.id] == info.name
    with pytest.raises(ValueError, match="accepted: random, greedy"):
        resolve_policies(("greedy", "smart"), 2)
    with pytest.raises(ValueError, match="one per side"):
        resolve_policies(("greedy",) * 3, 4)
    with pytest.raises(ValueError, match="players"):
        resolve_policies("greedy", 3)


@pytest.mark.parametrize(
    "kwargs,match",
    [
        ({"players": 3}, "players must be 2 or 4"),
        ({"n": 0}, "n must be a positive"),
        ({"n": 2.5}, "n must be a positive"),
        ({"level": "match"}, "unknown level 'match'; accepted: data, chica, mesa"),
        ({"threads": 0}, "threads must be None or a whole number"),
        ({"threads": 10_000}, "threads must be None or a whole number"),
        ({"chunk_size": -1}, "chunk_size must be a positive"),
        ({"seed": -3}, "seed must be a non-negative"),
        ({"rules": "madrid"}, "unknown preset 'madrid'"),
        ({"rules": "quito(colour=red)"}, "unknown switch colour"),
        ({"policies": "cheat"}, "unknown policy 'cheat'"),
        ({"keep_hands": False}, "keep_hands=False keeps no output at level 'data'"),
        ({"progress": "yes"}, "progress and keep_hands must be True or False"),
    ],
)
def test_simulate_rejects_bad_arguments(kwargs: dict, match: str) -> None:
    with pytest.raises(ValueError, match=match.replace("(", r"\(").replace(")", r"\)")):
        simulate(**{"n": 10, **kwargs})


def test_threads_are_restored() -> None:
    before = numba.get_num_threads()
    res = simulate(n=50, threads=1)
    assert res.provenance["threads"] == 1
    assert numba.get_num_threads() == before


def test_hands_dtypes_and_memory() -> None:
    """Compact dtypes: counts int8 (signed, differences never wrap), points int16; <= 64 B."""
    for level in ("data", "chica", "mesa"):
        res = simulate(n=200, level=level, policies="random", seed=1)
        hands = res.hands
        assert hands["cards_0"].dtype == np.int8 and hands["dealer"].dtype == np.int8
        assert hands["last_capturer"].dtype == np.int8
        assert hands["points_1"].dtype == np.int16 and hands["other_points_0"].dtype == np.int16
        assert hands.memory_usage(index=False).sum() / len(hands) <= 64
        if level == "data":
            assert res.games is None and "ended" not in hands
            assert hands["hand"].tolist() == list(range(200))
        else:
            assert hands["ended"].dtype == np.bool_
            assert res.games["zapateria"].dtype == np.bool_
            assert len(res.games) == 200 and res.games["hands"].sum() == len(hands)
            ends = hands.groupby("game")["ended"].sum()
            expect = 1 if level == "chica" else res.games["chicas_0"] + res.games["chicas_1"]
            assert (ends == expect).all()
    assert ("chica" in simulate(n=5, level="mesa").hands) and "chica" not in res.games


def test_provenance() -> None:
    res = simulate(
        rules=RuleSet(max_sum_cards=2),
        players=4,
        policies=("greedy", "random"),
        n=100,
        seed=3,
        chunk_size=30,
    )
    p = res.provenance
    assert p["package_version"] == cuarenta_sim.__version__
    assert p["engine_version"] == cuarenta_sim.get_game("cuarenta").engine_version
    assert p["rules"] == "quito(max_sum_cards=2)"
    assert p["rules_switches"]["max_sum_cards"] == 2
    assert p["policies"] == ["greedy", "random", "greedy", "random"]
    assert (p["players"], p["level"], p["n"], p["seed"], p["chunk_size"]) == (4, "data", 100, 3, 30)
    for key in (
        "numba",
        "numpy",
        "pandas",
        "root",
        "threads",
        "wall_time_s",
        "hands_per_s",
        "created",
    ):
        assert key in p
    json.dumps(p)


@pytest.mark.parametrize("level", ["data", "mesa"])
def test_parquet_round_trip(tmp_path: Path, level: str) -> None:
    res = simulate(n=120, level=level, policies="random", seed=9)
    path = tmp_path / "run.parquet"
    res.to_parquet(path)
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []
    meta = pq.read_schema(path).metadata[PROVENANCE_KEY]
    assert json.loads(meta) == res.provenance
    back = Results.from_parquet(path)
    pd.testing.assert_frame_equal(back.hands, res.hands)
    assert back.provenance == res.provenance
    if level == "data":
        assert back.games is None and not games_path(path).exists()
    else:
        pd.testing.assert_frame_equal(back.games, res.games)


def test_parquet_without_hands(tmp_path: Path) -> None:
    res = simulate(n=40, level="chica", keep_hands=False)
    res.to_parquet(tmp_path / "g.parquet")
    back = Results.from_parquet(tmp_path / "g.parquet")
    assert back.hands is None
    pd.testing.assert_frame_equal(back.games, res.games)


def test_from_parquet_rejects_foreign_files(tmp_path: Path) -> None:
    path = tmp_path / "x.parquet"
    pd.DataFrame({"a": [1]}).to_parquet(path)
    with pytest.raises(ValueError, match="not a cuarenta_sim results file"):
        Results.from_parquet(path)


def test_trace_game_validation_and_warmup() -> None:
    warmup()
    trace = trace_game("quito", 2, "greedy", 0, "data", 0)
    assert trace.dtype == np.int64 and trace.shape[1] == 17
    with pytest.raises(ValueError, match="index"):
        trace_game("quito", 2, "greedy", 0, "data", -1)
    with pytest.raises(ValueError, match="unknown level"):
        trace_game("quito", 2, "greedy", 0, "hand", 0)
