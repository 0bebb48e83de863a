"""Script of tests/determinism/test_fork_safety.py: a parent that simulates, then its children.

``python fork_worker.py GAME TIMEOUT METHOD... [--no-tbb]`` runs, in a fresh interpreter,
``cuarenta_sim.simulate`` of ``GAME`` (seeds 3 and 4, parallel kernels on 2 threads), then for
each METHOD (``fork``, ``spawn``, ``forkserver``) a one-process pool of that start method that
simulates seed 3, and for ``pool`` a ``fork`` ``Pool(2).map`` over seeds 3 and 4; every wait is
bounded by TIMEOUT seconds. ``--no-tbb`` makes numba's TBB extension unimportable first, as if
TBB were not installed. It writes the pickled dict ``{"layer", "parent", METHOD...}`` of frames
to stdout. A fresh interpreter keeps a broken fork from touching the test process, and its
whole process group can be killed when a pool hangs.
"""

from __future__ import annotations

import multiprocessing
import pickle
import sys
from typing import Any

if "--no-tbb" in sys.argv:
    sys.modules["numba.np.ufunc.tbbpool"] = None  # type: ignore[assignment]

import numba

import cuarenta_sim
from cuarenta_sim.threading_layer import threading_layer

THREADS = min(2, numba.config.NUMBA_NUM_THREADS)


def run_simulation(game: str, seed: int) -> tuple[Any, Any]:
    """Simulate a small batch of ``game`` on :data:`THREADS` threads; the frames (picklable)."""
    if game == "cuarenta":
        res = cuarenta_sim.simulate(n=60, level="chica", seed=seed, threads=THREADS)
    else:
        res = cuarenta_sim.simulate(game="cuatrola", n=40, level="game", seed=seed, threads=THREADS)
    return res.hands, res.games


def run_simulation_args(args: tuple[str, int]) -> tuple[Any, Any]:
    """:func:`run_simulation` on one ``(game, seed)`` tuple, for ``Pool.map``."""
    return run_simulation(*args)


def main(argv: list[str]) -> None:
    """Run the parent, then the children named in ``argv``; pickle the frames to stdout."""
    game, timeout, *steps = [a for a in argv if a != "--no-tbb"]
    wait = float(timeout)
    out: dict[str, Any] = {"parent": {seed: run_simulation(game, seed) for seed in (3, 4)}}
    out["layer"] = threading_layer()
    for step in steps:
        if step == "pool":
            with multiprocessing.get_context("fork").Pool(2) as pool:
                job = pool.map_async(run_simulation_args, [(game, 3), (game, 4)])
                out[step] = job.get(timeout=wait)
        else:
            with multiprocessing.get_context(step).Pool(1) as pool:
                out[step] = pool.apply_async(run_simulation, (game, 3)).get(timeout=wait)
    sys.stdout.buffer.write(pickle.dumps(out))


if __name__ == "__main__":
    main(sys.argv[1:])
