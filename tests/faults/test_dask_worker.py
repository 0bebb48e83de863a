"""A Dask worker killed (SIGKILL) in the middle of a ``--dataset`` run of the command line.

The run either completes with exactly the records of a local run, or fails with one clear
line leaving only complete chunks (then the plain rerun finishes it, identically); never half
an output. Slow: it starts a LocalCluster of two worker processes.
"""

from __future__ import annotations

import signal
from pathlib import Path

import pandas as pd
import psutil
import pytest
from faultkit import hidden, record, spawn, wait_for

from cuarenta_sim import simulate
from cuarenta_sim.results import read_dataset

N, CHUNK, SEED = 1_500_000, 50_000, 5
#: Workers killed by this test (asserted).
KILLS = 1


@pytest.mark.slow
def test_killed_worker_mid_dataset_run(cli, tmp_path: Path) -> None:
    data = tmp_path / "data"
    args = ["simulate", "--n", str(N), "--seed", str(SEED), "--dataset", str(data),
            "--chunk-size", str(CHUNK), "--backend", "dask", "--workers", "2",
            "--no-progress"]  # fmt: skip
    proc = spawn(*args)
    killed = 0
    try:
        wait_for(lambda: any(data.glob("part-*.done.json")) or proc.poll() is not None, 300,
                 "the first complete chunk")  # fmt: skip
        assert proc.poll() is None, "the run ended before a worker could be killed"
        # The LocalCluster's workers: the processes its nannies (in the command's process)
        # spawned, not multiprocessing's resource tracker.
        children = psutil.Process(proc.pid).children(recursive=True)
        workers = [c for c in children if any("spawn_main" in w for w in c.cmdline())]
        assert len(workers) == 2, [c.cmdline() for c in children]
        workers[0].send_signal(signal.SIGKILL)
        killed += 1
        out, err = proc.communicate(timeout=600)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert killed == KILLS
    expect = simulate(n=N, seed=SEED).hands
    if proc.returncode == 0:
        assert b"chunks: 30 of 50,000 datas" in out, out
    else:  # failed clearly: one line, and only complete chunks are kept
        assert proc.returncode == 2 and err.decode().count("\n") == 1, err
        rerun = cli(*args[:-5], "--no-progress")
        assert rerun.code == 0, rerun.err
    pd.testing.assert_frame_equal(read_dataset(data).hands, expect)
    assert hidden(tmp_path) == []
    record("Dask worker SIGKILL")
