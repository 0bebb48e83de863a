"""A full disk (an injected ``OSError(ENOSPC)`` on a write) in ``report`` and ``--dataset``
runs: one line naming the file and what is left, the old outputs untouched, the rerun works.

No small file system is mounted (that needs root); the writer is patched instead, as the
issue allows. The record pair's case is in ``test_regressions.py`` and every step of a commit
in ``test_commit_steps.py``.
"""

from __future__ import annotations

import errno
from pathlib import Path
from typing import Any

import pandas as pd
import pyarrow.parquet as pq
import pytest
from faultkit import hidden, record, snapshot
from matplotlib.figure import Figure

from cuarenta_sim import simulate
from cuarenta_sim.results import read_dataset

REPORT = ("report", "odds", "--n", "200", "--players", "2", "--policies", "greedy",
          "--confirm", "none", "--no-progress")  # fmt: skip


def _full_disk_at(monkeypatch: pytest.MonkeyPatch, owner: Any, name: str, at: int) -> None:
    """The ``at``-th call (from 0) of ``owner.name`` fails as a full disk does."""
    real = getattr(owner, name)
    calls = [0]

    def wrapped(*args: Any, **kwargs: Any) -> Any:
        calls[0] += 1
        if calls[0] - 1 == at:
            raise OSError(errno.ENOSPC, "No space left on device", str(args[1]))
        return real(*args, **kwargs)

    monkeypatch.setattr(owner, name, wrapped)


def test_full_disk_in_a_report_keeps_the_old_folder(cli, tmp_path: Path, monkeypatch) -> None:
    assert cli(*REPORT, "--out", str(tmp_path)).code == 0
    folder = tmp_path / "odds"
    before = snapshot(folder)
    with monkeypatch.context() as mp:
        _full_disk_at(mp, Figure, "savefig", 0)
        run = cli(*REPORT, "--out", str(tmp_path), "--seed", "1", "--force")
    assert run.code == 2 and run.err.count("\n") == 1, run.err
    # The message names the file in the folder it was going to (not the temporary name).
    assert f"No space left on device: {folder / 'figures'}" in run.err, run.err
    assert f"left as they were: {folder}" in run.err
    assert snapshot(folder) == before and hidden(tmp_path) == []
    record("ENOSPC")
    assert cli(*REPORT, "--out", str(tmp_path), "--seed", "1", "--force").code == 0


def test_full_disk_in_a_dataset_keeps_the_complete_chunks(cli, tmp_path: Path,
                                                          monkeypatch) -> None:  # fmt: skip
    data = tmp_path / "data"
    args = ("simulate", "--n", "4000", "--seed", "0", "--dataset", str(data), "--chunk-size",
            "1000", "--no-progress")  # fmt: skip
    with monkeypatch.context() as mp:
        _full_disk_at(mp, pq, "write_table", 2)  # the third chunk's records
        run = cli(*args)
    assert run.code == 2 and run.err.count("\n") == 1, run.err
    assert "No space left on device" in run.err
    assert f"{data} keeps 2 complete chunk(s); rerun the same command to resume" in run.err
    assert len(list(data.glob("part-*.done.json"))) == 2
    record("ENOSPC")
    again = cli(*args)
    assert again.code == 0 and "2 reused" in again.out, again.err
    pd.testing.assert_frame_equal(read_dataset(data).hands, simulate(n=4000, seed=0).hands)
    assert hidden(tmp_path) == []
