"""A Dask ``LocalCluster`` of 2 worker processes shared by the distributed tests.

The numba kernels (engine and aggregate counters) are compiled or loaded in this process first,
so the workers load them from the on-disk cache instead of all compiling at once.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import distributed
import pytest

from cuarenta_sim import GAMES, aggregate


# Package scope (the tests/distributed directory): the cluster and its client close when the
# last Dask test ends, before later tests (notebook kernels, RL libraries) can close the main
# thread's event loop that the client runs on.
@pytest.fixture(scope="package")
def dask_cluster() -> Iterator[tuple[Any, Any]]:
    """``(cluster, client)``: 2 worker processes, 1 thread each, web server on a free port."""
    # Compile (or load) every game's kernels and counters once, before the workers start.
    for game in GAMES.values():
        game.warmup()
        for level in game.levels:
            aggregate(game.name, n=20, level=level, seed=0)
    with (
        distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0"
        ) as cluster,
        distributed.Client(cluster) as client,
    ):
        yield cluster, client


@pytest.fixture
def dask_client(dask_cluster: tuple[Any, Any]) -> Any:
    """The shared cluster's client, with both workers up (a test may have killed one)."""
    _, client = dask_cluster
    client.wait_for_workers(2, timeout=60)
    return client
