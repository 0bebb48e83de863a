"""Aggregates-only runs: exact counters equal to the record path's, same summary tables."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

from cuarenta_sim import aggregate, simulate, stats
from cuarenta_sim.aggregates import Counters, mean_from_sums, ratio_from_sums
from cuarenta_sim.cuarenta.aggregates import Aggregates, aggregate_results
from cuarenta_sim.cuarenta.analysis import length_distribution
from cuarenta_sim.cuarenta.compare import cuarenta_metrics, estimate_metrics
from cuarenta_sim.cuarenta.summaries import summarize_games, summarize_hands

#: Float columns of an estimate table: the record path's standard deviations are computed in
#: floating point, the aggregates' from exact integer sums; they agree to rounding.
FLOATS = ["estimate", "lower", "upper"]


def assert_same_table(from_counts: pd.DataFrame, from_records: pd.DataFrame) -> None:
    """Same rows, counts, methods and definedness; estimates and bounds equal to rounding."""
    assert list(from_counts.columns) == list(from_records.columns)
    rest = [c for c in from_records.columns if c not in FLOATS]
    pd.testing.assert_frame_equal(from_counts[rest], from_records[rest])
    np.testing.assert_allclose(
        from_counts[FLOATS].to_numpy(float), from_records[FLOATS].to_numpy(float), rtol=1e-11
    )


@pytest.mark.parametrize(
    "level,n,chunk,policies",
    [
        ("data", 30_000, 7_000, "greedy"),
        ("data", 5_000, 5_000, ("random", "greedy")),
        ("chica", 3_000, 700, ("greedy", "random")),
        ("mesa", 1_000, 300, "random"),
    ],
)
def test_aggregates_equal_counters_of_the_records(level, n, chunk, policies) -> None:
    records = simulate(n=n, level=level, seed=11, policies=policies, chunk_size=chunk)
    counts = aggregate(n=n, level=level, seed=11, policies=policies, chunk_size=chunk)
    assert isinstance(counts, Aggregates)
    expected = aggregate_results(records)
    assert counts.hands == expected.hands
    assert counts.games == expected.games
    assert counts.hands is not None and counts.hands.n == len(records.hands)
    assert counts.provenance["chunks"] == -(-n // chunk)
    assert counts.provenance["hands_played"] == records.provenance["hands_played"]

    assert_same_table(counts.summarize_hands(), summarize_hands(records.hands))
    frames = {"data": records.hands} if level == "data" else {level: records.games}
    assert_same_table(counts.estimate_metrics(), estimate_metrics(frames, cuarenta_metrics()))
    if level != "data":
        assert_same_table(counts.summarize_games(), summarize_games(records.games, level))
        pd.testing.assert_frame_equal(
            counts.length_distribution(), length_distribution(records.games["hands"])
        )
        pd.testing.assert_frame_equal(
            counts.length_distribution(max_length=3),
            length_distribution(records.games["hands"], max_length=3),
        )


def test_aggregates_do_not_depend_on_the_chunk_size() -> None:
    runs = [aggregate(n=4_000, level="chica", seed=2, chunk_size=c) for c in (4_000, 999, 37)]
    for other in runs[1:]:
        assert other.hands == runs[0].hands and other.games == runs[0].games


def test_keep_hands_false_counts_games_only() -> None:
    agg = aggregate(n=500, level="mesa", seed=1, keep_hands=False)
    full = aggregate(n=500, level="mesa", seed=1)
    assert agg.hands is None and agg.games == full.games
    assert agg.provenance["hands_played"] == full.provenance["hands_played"]
    with pytest.raises(ValueError, match="kept no hands"):
        agg.summarize_hands()
    data = aggregate(n=50, seed=1)
    with pytest.raises(ValueError, match="no games"):
        data.summarize_games()


def test_counters_merge_exactly_and_round_trip_json() -> None:
    rng = np.random.default_rng(0)
    x = rng.integers(-5, 40, size=1_000).astype(np.int16)
    y = rng.integers(0, 3, size=1_000).astype(np.int8)
    whole = Counters.from_arrays({"x": x, "y": y, "b": y > 0}, [("x", "y")])
    parts = [
        Counters.from_arrays({"x": x[a:b], "y": y[a:b], "b": y[a:b] > 0}, [("x", "y")])
        for a, b in ((0, 300), (300, 301), (301, 1_000))
    ]
    merged = parts[0].merge(parts[1]).merge(parts[2])
    assert merged == whole
    assert parts[2].merge(parts[0]).merge(parts[1]) == whole
    assert whole.sums["x"] == int(x.astype(np.int64).sum())
    assert whole.squares["x"] == int((x.astype(np.int64) ** 2).sum())
    assert whole.product("y", "x") == int((x.astype(np.int64) * y).sum())
    assert whole.count_equal("y", 0) == int((y == 0).sum())
    assert whole.count_positive("b") == int((y > 0).sum())
    assert Counters.from_dict(json.loads(json.dumps(whole.to_dict()))) == whole
    agg = aggregate(n=300, level="chica", seed=4)
    assert Aggregates.from_dict(json.loads(json.dumps(agg.to_dict()))) == agg


def test_counters_reject_bad_input() -> None:
    with pytest.raises(ValueError, match="equal lengths"):
        Counters.from_arrays({"a": np.zeros(2, int), "b": np.zeros(3, int)})
    with pytest.raises(ValueError, match="integer or boolean"):
        Counters.from_arrays({"a": np.zeros(2)})
    with pytest.raises(ValueError, match="unknown feature"):
        Counters.from_arrays({"a": np.zeros(2, int)}, [("a", "b")])
    with pytest.raises(ValueError, match="different features"):
        Counters.from_arrays({"a": np.ones(2, int)}).merge(
            Counters.from_arrays({"b": np.ones(2, int)})
        )
    with pytest.raises(ValueError, match="malformed counters"):
        Counters.from_dict({"n": 1})


@pytest.mark.parametrize("size", [0, 1, 2, 7, 1_000])
def test_interval_helpers_match_the_record_statistics(size: int) -> None:
    rng = np.random.default_rng(size)
    y = rng.integers(0, 9, size=size)
    x = rng.integers(0, 40, size=size)
    got = mean_from_sums("m", size, int(y.sum()), int((y * y).sum()))
    want = stats.mean("m", y)
    assert got.keys() == want.keys()
    np.testing.assert_allclose(
        [got[k] for k in FLOATS], [want[k] for k in FLOATS], rtol=1e-12, equal_nan=True
    )
    assert (got["n"], got["defined"]) == (want["n"], want["defined"])
    got = ratio_from_sums(
        "r", size, int(y.sum()), int(x.sum()), int((y * y).sum()), int((x * x).sum()),
        int((x * y).sum()),
    )  # fmt: skip
    want = stats.ratio("r", y, x)
    np.testing.assert_allclose(
        [got[k] for k in FLOATS], [want[k] for k in FLOATS], rtol=1e-12, equal_nan=True
    )
    assert (got["n"], got["defined"], got["method"]) == (want["n"], want["defined"], "ratio")
