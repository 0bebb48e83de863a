"""Child processes simulate after their parent did, whatever the start method (issue 11 item 8).

With numba's GNU OpenMP layer a child made by ``fork`` after the parent ran a parallel kernel
aborted on its own first kernel, and ``multiprocessing.Pool.map`` hung on the dead worker;
cuarenta_sim.threading_layer selects a fork-safe layer at import. Every wait here has a
timeout, so a hang fails the test instead of blocking the suite. The child's frames must equal
the parent's: the layer and the process never change the results (design.md "Randomness and
reproducibility").
"""

from __future__ import annotations

import multiprocessing
import os
import pickle
import platform
import subprocess
import sys
import textwrap
from typing import Any

import numba
import pandas as pd
import pytest

import cuarenta_sim
from cuarenta_sim import threading_layer

#: Threads of each simulation: 2 where numba has them (the point is a parallel kernel).
THREADS = min(2, numba.config.NUMBA_NUM_THREADS)
#: Seconds a child may take (it imports the package and loads the numba cache; no compiling,
#: the parent compiled); a hang past this fails the test.
TIMEOUT = 120
GAMES = ("cuarenta", "cuatrola")
METHODS = ("fork", "spawn", "forkserver")
#: Python 3.12+ warns when forking a process that has threads (numba's pool has); the fork is
#: exactly what these tests exercise.
FORK_WARNING = "ignore:This process .* is multi-threaded:DeprecationWarning"


def run_simulation(game: str, seed: int) -> tuple[pd.DataFrame, pd.DataFrame | None]:
    """Simulate a small batch of ``game`` on :data:`THREADS` threads; the frames (picklable)."""
    if game == "cuarenta":
        res = cuarenta_sim.simulate(n=60, level="chica", seed=seed, threads=THREADS)
    else:
        res = cuarenta_sim.simulate(game="cuatrola", n=40, level="game", seed=seed, threads=THREADS)
    return res.hands, res.games


def run_simulation_args(args: tuple[str, int]) -> tuple[pd.DataFrame, pd.DataFrame | None]:
    """:func:`run_simulation` on one ``(game, seed)`` tuple, for ``Pool.map``."""
    return run_simulation(*args)


def assert_same(a: tuple[Any, Any], b: tuple[Any, Any]) -> None:
    for x, y in zip(a, b, strict=True):
        assert (x is None) == (y is None)
        if x is not None:
            pd.testing.assert_frame_equal(x, y)


@pytest.fixture(scope="module")
def parent() -> dict[tuple[str, int], tuple[Any, Any]]:
    """The parent's own frames for both games and seeds 3, 4: parallel kernels have run here."""
    return {(game, seed): run_simulation(game, seed) for game in GAMES for seed in (3, 4)}


def test_a_fork_safe_layer_ran(parent: dict) -> None:
    """After a parallel kernel the layer is TBB or workqueue, never OpenMP, and the
    provenance of both games records it."""
    assert threading_layer.select_threading_layer() == threading_layer.REQUESTED_LAYER
    layer = threading_layer.threading_layer()
    assert layer in ("tbb", "workqueue")
    res = cuarenta_sim.simulate(n=5, seed=1, threads=THREADS)
    assert res.provenance["threading_layer"] == layer
    res = cuarenta_sim.simulate(game="cuatrola", n=5, seed=1, threads=THREADS)
    assert res.provenance["threading_layer"] == layer


def test_tbb_is_used_where_installed(parent: dict) -> None:
    """pyproject.toml installs ``tbb`` on x86-64: there the kernels run on TBB; elsewhere on
    TBB if some TBB loads, else on workqueue."""
    loaded = threading_layer.load_tbb()
    if platform.machine() in ("x86_64", "AMD64"):
        assert loaded is not None, "tbb is a core dependency here but libtbb does not load"
    assert threading_layer.threading_layer() == ("tbb" if loaded else "workqueue")


@pytest.mark.filterwarnings(FORK_WARNING)
@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("game", GAMES)
def test_child_simulates_after_parent(parent: dict, game: str, method: str) -> None:
    ctx = multiprocessing.get_context(method)
    with ctx.Pool(1) as pool:
        child = pool.apply_async(run_simulation, (game, 3)).get(timeout=TIMEOUT)
    assert_same(child, parent[(game, 3)])


@pytest.mark.filterwarnings(FORK_WARNING)
@pytest.mark.parametrize("game", GAMES)
def test_fork_pool_map_after_parent(parent: dict, game: str) -> None:
    """``multiprocessing.Pool(2).map`` (fork, Linux's default) after the parent simulated."""
    ctx = multiprocessing.get_context("fork")
    with ctx.Pool(2) as pool:
        out = pool.map_async(run_simulation_args, [(game, 3), (game, 4)]).get(timeout=TIMEOUT)
    assert_same(out[0], parent[(game, 3)])
    assert_same(out[1], parent[(game, 4)])


def test_workqueue_fallback_is_fork_safe(parent: dict) -> None:
    """Without TBB (its numba extension made unimportable) numba's 'forksafe' request gives
    workqueue; a fork pool still works after the parent simulated, with the same frames."""
    script = textwrap.dedent(
        f"""
        import multiprocessing, pickle, sys
        sys.modules["numba.np.ufunc.tbbpool"] = None  # as if TBB were not installed
        import cuarenta_sim
        from cuarenta_sim.threading_layer import threading_layer

        def run(seed):
            res = cuarenta_sim.simulate(n=60, level="chica", seed=seed, threads={THREADS})
            return res.hands, res.games

        if __name__ == "__main__":
            own = run(3)
            layer = threading_layer()
            with multiprocessing.get_context("fork").Pool(2) as pool:
                out = pool.map_async(run, [3, 4]).get(timeout={TIMEOUT})
            sys.stdout.buffer.write(pickle.dumps((layer, own, out)))
        """
    )
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_THREADING_LAYER"}
    done = subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        timeout=3 * TIMEOUT,
        env=env,
        check=False,
    )
    assert done.returncode == 0, done.stderr.decode()[-2000:]
    layer, own, out = pickle.loads(done.stdout)
    assert layer == "workqueue"
    assert_same(own, parent[("cuarenta", 3)])
    assert_same(out[0], parent[("cuarenta", 3)])
    assert_same(out[1], parent[("cuarenta", 4)])
