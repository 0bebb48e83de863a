"""Child processes simulate after their parent did, whatever the start method (issue 11 item 8).

With numba's GNU OpenMP layer a child made by ``fork`` after the parent ran a parallel kernel
aborted on its own first kernel, and ``multiprocessing.Pool.map`` hung on the dead worker;
:mod:`cuarenta_sim.threading_layer` selects a fork-safe layer at import. Each scenario runs in
a fresh interpreter (``fork_worker.py``): its parent simulates, then children of each start
method simulate too. Every wait has a timeout and a hung run's whole process group is killed,
so a hang fails the test instead of blocking the suite. The children's frames must equal the
parent's and this process's: the layer and the process never change the results (design.md
"Randomness and reproducibility").
"""

from __future__ import annotations

import os
import pickle
import platform
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import numba
import pandas as pd
import pytest

import cuarenta_sim
from cuarenta_sim import threading_layer

WORKER = Path(__file__).with_name("fork_worker.py")
THREADS = min(2, numba.config.NUMBA_NUM_THREADS)
#: Seconds one child may take (it imports the package and loads the numba cache that the
#: parent filled); past it the child counts as hung.
CHILD_TIMEOUT = 90
#: Seconds a whole scenario may take: the parent may compile the kernels (about a minute on
#: an empty cache), then up to four children run one after another.
RUN_TIMEOUT = 600
GAMES = ("cuarenta", "cuatrola")
STEPS = ("fork", "spawn", "forkserver", "pool")


def simulate_here(game: str, seed: int) -> tuple[Any, Any]:
    """This process's frames of the scenarios of ``fork_worker.py``."""
    if game == "cuarenta":
        res = cuarenta_sim.simulate(n=60, level="chica", seed=seed, threads=THREADS)
    else:
        res = cuarenta_sim.simulate(game="cuatrola", n=40, level="game", seed=seed, threads=THREADS)
    return res.hands, res.games


def run_worker(*args: str) -> dict[str, Any]:
    """Run ``fork_worker.py args`` in its own process group; its unpickled output.

    On a timeout the whole group (the script and its pool workers) is killed and the test
    fails; so does a non-zero exit, with the end of the script's stderr.
    """
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_THREADING_LAYER"}
    proc = subprocess.Popen(
        [sys.executable, str(WORKER), *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
        start_new_session=True,
    )
    try:
        out, err = proc.communicate(timeout=RUN_TIMEOUT)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate()
        pytest.fail(f"fork_worker.py {' '.join(args)} hung for {RUN_TIMEOUT} s")
    assert proc.returncode == 0, err.decode(errors="replace")[-3000:]
    return pickle.loads(out)


def assert_same(a: tuple[Any, Any], b: tuple[Any, Any]) -> None:
    for x, y in zip(a, b, strict=True):
        assert (x is None) == (y is None)
        if x is not None:
            pd.testing.assert_frame_equal(x, y)


@pytest.mark.parametrize("game", GAMES)
def test_children_simulate_after_parent(game: str) -> None:
    """fork, spawn and forkserver children and a fork ``Pool(2).map`` after the parent ran
    its parallel kernels: all finish, on a fork-safe layer, with the parent's frames."""
    out = run_worker(game, str(CHILD_TIMEOUT), *STEPS)
    assert out["layer"] in ("tbb", "workqueue")
    here = {seed: simulate_here(game, seed) for seed in (3, 4)}
    for seed in (3, 4):
        assert_same(out["parent"][seed], here[seed])
    for method in ("fork", "spawn", "forkserver"):
        assert_same(out[method], here[3])
    assert_same(out["pool"][0], here[3])
    assert_same(out["pool"][1], here[4])


def test_workqueue_fallback_is_fork_safe() -> None:
    """Without TBB numba's 'forksafe' request gives workqueue, and a fork pool still works
    after the parent simulated, with the same frames."""
    out = run_worker("cuarenta", str(CHILD_TIMEOUT), "fork", "pool", "--no-tbb")
    assert out["layer"] == "workqueue"
    here = {seed: simulate_here("cuarenta", seed) for seed in (3, 4)}
    assert_same(out["fork"], here[3])
    assert_same(out["pool"][0], here[3])
    assert_same(out["pool"][1], here[4])


def test_this_process_layer_and_provenance() -> None:
    """The package asked for the fork-safe layer; after a parallel kernel it is TBB where
    pyproject.toml installs tbb (x86-64), and both games' provenance names it."""
    assert threading_layer.select_threading_layer() == threading_layer.REQUESTED_LAYER
    res = cuarenta_sim.simulate(n=5, seed=1, threads=THREADS)
    layer = threading_layer.threading_layer()
    loaded = threading_layer.load_tbb()
    if platform.machine() in ("x86_64", "AMD64"):
        assert loaded is not None, "tbb is a core dependency here but libtbb does not load"
    assert layer == ("tbb" if loaded else "workqueue")
    assert res.provenance["threading_layer"] == layer
    res = cuarenta_sim.simulate(game="cuatrola", n=5, seed=1, threads=THREADS)
    assert res.provenance["threading_layer"] == layer
