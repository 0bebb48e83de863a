"""Resumable runs on disk: Parquet dataset, counters per chunk, interruption and restart."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pyarrow.parquet as pq
import pytest

import cuarenta_sim.simulation_run as simulation_run
from cuarenta_sim import aggregate, check_simulation, simulate
from cuarenta_sim.cuarenta.aggregates import aggregate_results
from cuarenta_sim.distributed import ChunkStore, chunk_ranges
from cuarenta_sim.results import PROVENANCE_KEY, Results, read_dataset


def markers(directory: Path) -> list[Path]:
    return sorted(directory.glob("part-*.done.json"))


@pytest.mark.parametrize("level,n,chunk", [("data", 20_000, 6_000), ("chica", 2_000, 600)])
def test_dataset_holds_the_same_records(tmp_path: Path, level: str, n: int, chunk: int) -> None:
    records = simulate(n=n, level=level, seed=8, chunk_size=chunk)
    agg = aggregate(
        n=n, level=level, seed=8, chunk_size=chunk, dataset=tmp_path / "ds", records=True
    )
    back = Results.from_dataset(tmp_path / "ds")
    pd.testing.assert_frame_equal(back.hands, records.hands)
    if level == "chica":
        pd.testing.assert_frame_equal(back.games, records.games)
    assert agg.hands == aggregate_results(records).hands
    assert agg.provenance["chunks_computed"] == len(markers(tmp_path / "ds")) == -(-n // chunk)
    # Every Parquet file names its run and its range.
    first = sorted((tmp_path / "ds").glob("part-*.hands.parquet"))[0]
    meta = json.loads(pq.read_schema(first).metadata[PROVENANCE_KEY])
    assert meta["seed"] == 8 and meta["chunk_size"] == chunk and meta["range"] == [0, chunk]
    assert not list((tmp_path / "ds").glob(".*"))


def test_restart_computes_only_missing_chunks(tmp_path: Path) -> None:
    ds = tmp_path / "ds"
    kwargs = {"n": 30_000, "seed": 3, "chunk_size": 4_000, "records": True, "dataset": ds}
    full = aggregate(**kwargs)
    # Simulate a crash: two chunks lose their marker (one keeps a stray Parquet file written
    # before the crash, one loses it too), and an interrupted write left a temporary file.
    done = markers(ds)
    done[2].unlink()
    done[5].unlink()
    next(ds.glob("part-000000000020000-*.hands.parquet")).unlink()
    (ds / ".part-000000000008000-000000000012000.hands.parquet.abc.tmp").write_bytes(b"PAR1")
    (ds / "part-000000000004000-000000000008000.done.json").write_text("{truncated")
    next(ds.glob("part-000000000024000-*.hands.parquet")).unlink()  # marker kept
    with pytest.raises(ValueError, match="incomplete: chunk \\[4000, 8000\\)"):
        read_dataset(ds)
    again = aggregate(**kwargs)
    assert again.provenance["chunks_computed"] == 4
    assert again.provenance["chunks_reused"] == 4
    assert again.hands == full.hands
    assert not list(ds.glob(".*.tmp"))
    pd.testing.assert_frame_equal(read_dataset(ds).hands, simulate(n=30_000, seed=3).hands)
    # Complete: a third run computes nothing and returns the same counters.
    third = aggregate(**kwargs)
    assert third.provenance["chunks_computed"] == 0 and third.hands == full.hands


def test_interrupted_run_resumes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    ds = tmp_path / "counts"
    kwargs = {"n": 3_000, "level": "chica", "seed": 6, "chunk_size": 250,
              "dataset": ds}  # fmt: skip
    calls: list[tuple[int, int]] = []
    real = simulation_run.chunk_task
    interrupt = [True]

    def interrupted(*args):  # the 5th chunk of the first run is hit by Ctrl-C
        calls.append(args[-2:])
        if len(calls) == 5 and interrupt[0]:
            interrupt[0] = False
            raise KeyboardInterrupt
        return real(*args)

    monkeypatch.setattr(simulation_run, "chunk_task", interrupted)
    with pytest.raises(KeyboardInterrupt):
        aggregate(**kwargs)
    assert len(markers(ds)) == 4
    assert not list(ds.glob("*.parquet"))  # counters only
    calls.clear()
    resumed = aggregate(**kwargs)
    assert calls == chunk_ranges(3_000, 250)[4:]
    assert resumed.provenance["chunks_computed"] == 8 and resumed.provenance["chunks_reused"] == 4
    fresh = aggregate(n=3_000, level="chica", seed=6, chunk_size=250)
    assert resumed.hands == fresh.hands and resumed.games == fresh.games
    assert resumed.provenance["hands_played"] == fresh.provenance["hands_played"]
    assert resumed.provenance["games_computed"] == 2_000


@pytest.mark.parametrize(
    "change,what",
    [
        ({"chunk_size": 3_000}, "chunk_size: 2000 there, 3000 now"),
        ({"seed": 2}, "seed: 1 there, 2 now"),
        ({"n": 8_000}, "n: 6000 there, 8000 now"),
        ({"rules": "cuenca"}, "rules: 'quito' there, 'cuenca' now"),
        ({"policies": "random"}, "policies"),
        ({"records": True}, "records: False there, True now"),
    ],
)
def test_restart_with_other_settings_is_refused(tmp_path: Path, change: dict, what: str) -> None:
    base = {"n": 6_000, "seed": 1, "chunk_size": 2_000, "dataset": tmp_path}
    aggregate(**base)
    before = sorted(p.name for p in tmp_path.iterdir())
    with pytest.raises(ValueError, match="different settings") as err:
        aggregate(**{**base, **change})
    assert what in str(err.value)
    assert sorted(p.name for p in tmp_path.iterdir()) == before


def test_store_refuses_foreign_directories(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("mine")
    with pytest.raises(ValueError, match="not empty and is not a cuarenta_sim chunk store"):
        aggregate(n=10, dataset=tmp_path)
    (tmp_path / "manifest.json").write_text("[1, 2]")
    with pytest.raises(ValueError, match="not a cuarenta_sim chunk-store manifest"):
        aggregate(n=10, dataset=tmp_path)
    with pytest.raises(ValueError, match="is not a directory"):
        aggregate(n=10, dataset=tmp_path / "notes.txt")
    store = ChunkStore(tmp_path / "new", {"a": 1})
    store.open()
    assert store.load(0, 5) is None
    store.complete(0, 5, {"x": 1})
    assert store.load(0, 5) == {"x": 1} and store.load(0, 6) is None
    assert ChunkStore(tmp_path / "new", {"a": 2}).load(0, 5) is None
    aggregate(n=10, dataset=tmp_path / "c")
    with pytest.raises(ValueError, match="counters only"):
        read_dataset(tmp_path / "c")
    with pytest.raises(ValueError, match="no cuarenta_sim dataset manifest"):
        read_dataset(tmp_path / "missing")


@pytest.mark.parametrize(
    "kwargs,match",
    [
        ({"backend": "spark"}, "unknown backend 'spark'; accepted: local, dask"),
        ({"client": "tcp://127.0.0.1:1"}, "client= and workers= are for backend='dask'"),
        ({"workers": 2}, "client= and workers= are for backend='dask'"),
        ({"dataset": "d"}, "use it with aggregate()"),
        ({"records": True, "aggregates": True}, "give dataset=DIRECTORY"),
        ({"aggregates": True, "dataset": "d", "seed": None}, "explicit seed"),
    ],
)
def test_simulate_rejects_bad_scale_out_arguments(kwargs: dict, match: str) -> None:
    with pytest.raises(ValueError, match=match.replace("(", r"\(").replace(")", r"\)")):
        check_simulation(**{"n": 10, **kwargs})
    if not kwargs.get("aggregates"):
        with pytest.raises(ValueError, match=match.replace("(", r"\(").replace(")", r"\)")):
            simulate(**{"n": 10, **kwargs})
