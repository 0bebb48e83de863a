"""The Dask backend on a LocalCluster of 2 worker processes: results identical to a local run,
also when a worker is killed mid-run, and resumable."""

from __future__ import annotations

import os
import signal
import threading
import time
from pathlib import Path
from typing import Any

import pandas as pd
import pytest

from cuarenta_sim import GAMES, aggregate, simulate
from cuarenta_sim.distributed import bokeh_available, dashboard_link
from cuarenta_sim.results import read_dataset


@pytest.mark.parametrize(
    "game,level,n,chunk,policies",
    [
        ("cuarenta", "data", 40_000, 3_000, ("greedy", "random")),
        ("cuarenta", "data", 10_000, 10_000, "random"),
        ("cuarenta", "chica", 2_000, 150, "greedy"),
        ("cuarenta", "mesa", 600, 70, ("random", "greedy")),
        # Issue 12 item 6: a searching policy spreads over the cluster with the same results.
        ("cuarenta", "chica", 12, 3, ("solver(samples=4)", "learned")),
        ("cuatrola", "hand", 20_000, 3_000, ("greedy", "random")),
        ("cuatrola", "game", 1_000, 130, ("random", "pimc(samples=2)")),
    ],
)
def test_dask_frames_equal_local(dask_client: Any, game, level, n, chunk, policies) -> None:
    """Both games on a 2-worker LocalCluster equal their local run, record for record."""
    local = simulate(game, n=n, level=level, seed=21, policies=policies)
    remote = simulate(
        game, n=n, level=level, seed=21, policies=policies, chunk_size=chunk, backend="dask",
        client=dask_client,
    )  # fmt: skip
    pd.testing.assert_frame_equal(remote.hands, local.hands)
    if level == GAMES[game].levels[0]:
        assert remote.games is None
    else:
        pd.testing.assert_frame_equal(remote.games, local.games)
    prov = remote.provenance
    assert prov["backend"] == "dask" and prov["workers"] == 2 and prov["threads"] == 1
    assert prov["chunks"] == prov["chunks_computed"] == -(-n // chunk)
    assert prov["hands_played"] == local.provenance["hands_played"]


@pytest.mark.parametrize("game", list(GAMES))
def test_dask_aggregates_equal_local_aggregates(dask_client: Any, game: str) -> None:
    level = GAMES[game].levels[1]
    kwargs = {"n": 3_000 if game == "cuarenta" else 1_500, "level": level, "seed": 5}
    local = aggregate(game, **kwargs, chunk_size=1_000)
    remote = aggregate(game, **kwargs, chunk_size=111, backend="dask", client=dask_client)
    assert remote.hands == local.hands and remote.games == local.games
    pd.testing.assert_frame_equal(remote.summarize_games(), local.summarize_games())


def test_dask_by_scheduler_address_and_dataset(dask_client: Any, tmp_path: Path) -> None:
    address = dask_client.scheduler.address
    agg = aggregate(
        n=20_000, seed=4, chunk_size=1_500, backend="dask", client=address, dataset=tmp_path,
        records=True,
    )  # fmt: skip
    pd.testing.assert_frame_equal(read_dataset(tmp_path).hands, simulate(n=20_000, seed=4).hands)
    assert agg.provenance["chunks_computed"] == 14
    # Resume after losing three chunks: only those run again, on the cluster.
    for marker in sorted(tmp_path.glob("part-*.done.json"))[3:6]:
        marker.unlink()
    again = aggregate(
        n=20_000, seed=4, chunk_size=1_500, backend="dask", client=address, dataset=tmp_path,
        records=True,
    )  # fmt: skip
    assert again.provenance["chunks_computed"] == 3 and again.hands == agg.hands
    # A local restart of the same directory is the same run (the backend is not a setting).
    local = aggregate(n=20_000, seed=4, chunk_size=1_500, dataset=tmp_path, records=True)
    assert local.provenance["chunks_computed"] == 0 and local.hands == agg.hands


def _kill_a_busy_worker(client: Any, stop: threading.Event) -> dict[str, Any]:
    """Wait until a worker is running a chunk, then SIGKILL its process (the nanny restarts
    it; the scheduler re-runs its tasks elsewhere)."""
    pids = client.run(os.getpid)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and not stop.is_set():
        busy = {w: keys for w, keys in client.processing().items() if keys}
        done = sum(1 for t in client.who_has().values() if t)
        if busy and done >= 1:
            worker, keys = next(iter(busy.items()))
            os.kill(pids[worker], signal.SIGKILL)
            return {"worker": worker, "keys": list(keys), "pid": pids[worker]}
        time.sleep(0.005)
    return {}


@pytest.mark.parametrize("output", ["frames", "dataset"])
def test_killed_worker_changes_nothing(dask_client: Any, tmp_path: Path, output: str) -> None:
    kwargs: dict[str, Any] = {"n": 300_000, "seed": 9, "chunk_size": 12_000}
    if output == "dataset":
        kwargs.update(records=True, dataset=tmp_path)
    result: dict[str, Any] = {}
    stop = threading.Event()

    def run() -> None:
        try:
            entry = aggregate if output == "dataset" else simulate
            result["value"] = entry(**kwargs, backend="dask", client=dask_client)
        finally:
            stop.set()

    thread = threading.Thread(target=run)
    thread.start()
    killed = _kill_a_busy_worker(dask_client, stop)
    thread.join(timeout=300)
    assert killed, "no chunk was in flight to kill a worker under"
    assert any(str(k).startswith("cuarenta-chunk-") for k in killed["keys"])
    dask_client.wait_for_workers(2, timeout=60)
    assert killed["pid"] not in dask_client.run(os.getpid).values()
    remote = result["value"]
    local = simulate(n=300_000, seed=9)
    assert remote.provenance["chunks_computed"] == 25
    if output == "frames":
        pd.testing.assert_frame_equal(remote.hands, local.hands)
    else:
        pd.testing.assert_frame_equal(read_dataset(tmp_path).hands, local.hands)
        assert len(list(tmp_path.glob("part-*.done.json"))) == 25
        assert not list(tmp_path.glob(".*.tmp"))


def test_embedded_local_cluster_and_progress(capsys: pytest.CaptureFixture[str]) -> None:
    """No client: simulate starts (and closes) its own LocalCluster; the progress bar and
    (when the cluster serves one) the dashboard link go to stderr."""
    capsys.readouterr()
    res = simulate(n=5_000, seed=2, chunk_size=1_000, backend="dask", workers=1, progress=True)
    err = capsys.readouterr().err
    pd.testing.assert_frame_equal(res.hands, simulate(n=5_000, seed=2).hands)
    assert res.provenance["workers"] == 1 and "100% (5,000 of 5,000 datas)" in err
    assert ("Dask dashboard: http" in err) == bokeh_available()


def test_dashboard_link_when_the_scheduler_serves_one(dask_client: Any) -> None:
    link = dashboard_link(dask_client)
    assert (link is not None) == bokeh_available()
    assert link is None or (link.startswith("http://") and link.endswith("/status"))
