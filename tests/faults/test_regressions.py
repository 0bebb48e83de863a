"""Regression tests of issue 20's failures 1, 3, 4 and 6 (each failed on the old code).

1. An interrupt or a full disk between the two files of a record pair left the games file
   alone, the message said "no partial output file was left" and the identical rerun was
   refused.
3. Two runs writing the same ``--out`` both succeeded, the later silently replacing the
   earlier.
4. ``report`` replaced its folder file by file (an interrupt left new figures beside the old
   ``report.md``) and overwrote an existing folder without ``--force``.
6. A ``--dataset`` run whose Dask scheduler was unreachable left ``DIR/manifest.json``, and the
   corrected command was refused as "different settings".
"""

from __future__ import annotations

import errno
import json
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pyarrow.parquet as pq
import pytest
from faultkit import ROOT, hidden, record, run_cli, snapshot, spawn

from cuarenta_sim.results import Results

SIM = ("simulate", "--level", "chica", "--n", "300", "--no-progress")
REPORT = ("report", "odds", "--n", "200", "--players", "2", "--policies", "greedy",
          "--confirm", "none", "--no-progress")  # fmt: skip


def _on_call(monkeypatch: pytest.MonkeyPatch, owner: Any, name: str, at: int,
             make: Callable[[], BaseException]) -> None:  # fmt: skip
    """The ``at``-th call (from 0) of ``owner.name`` raises ``make()`` instead."""
    real = getattr(owner, name)
    calls = [0]

    def wrapped(*args: Any, **kwargs: Any) -> Any:
        calls[0] += 1
        if calls[0] - 1 == at:
            raise make()
        return real(*args, **kwargs)

    monkeypatch.setattr(owner, name, wrapped)


# ---------------------------------------------------------------- failure 1
def test_interrupt_between_the_two_files_of_a_pair(cli, tmp_path: Path, monkeypatch) -> None:
    """Ctrl-C after the games file is written: nothing is left, the message says so, and the
    identical command then runs."""
    out = tmp_path / "x.parquet"
    with monkeypatch.context() as mp:
        _on_call(mp, pq, "write_table", 1, KeyboardInterrupt)
        run = cli(*SIM, "--out", str(out))
    assert run.code == 130, run.err
    assert run.err.strip().splitlines()[-1].startswith("cuarenta-sim: error: interrupted; "
                                                       "nothing was written")  # fmt: skip
    assert str(out) in run.err and "not created" in run.err
    assert list(tmp_path.iterdir()) == []
    record("interrupt (in-process)")
    again = cli(*SIM, "--out", str(out))
    assert again.code == 0, again.err
    res = Results.from_parquet(out)
    assert len(res.games) == 300 and res.provenance["seed"] == 0


def test_full_disk_between_the_two_files_keeps_the_old_pair(cli, tmp_path: Path,
                                                            monkeypatch) -> None:  # fmt: skip
    out = tmp_path / "x.parquet"
    assert cli(*SIM, "--out", str(out), "--seed", "1").code == 0
    before = snapshot(tmp_path)

    def full() -> OSError:
        return OSError(errno.ENOSPC, "No space left on device", str(out))

    with monkeypatch.context() as mp:
        _on_call(mp, pq, "write_table", 1, full)
        run = cli(*SIM, "--out", str(out), "--seed", "2", "--force")
    assert run.code == 2 and len(run.err.splitlines()) == 1, run.err
    assert "No space left on device" in run.err and "left as they were" in run.err
    assert snapshot(tmp_path) == before
    assert Results.from_parquet(out).provenance["seed"] == 1
    record("ENOSPC")


# ---------------------------------------------------------------- failure 3
def test_a_second_run_on_the_same_out_is_refused_at_start(tmp_path: Path) -> None:
    """Two processes aimed at one --out: the second is refused with one line, exit 2; the
    first is then stopped and leaves nothing (it had nothing before)."""
    out = tmp_path / "x.parquet"
    first = spawn("simulate", "--level", "chica", "--n", "3000000", "--out", str(out))
    try:
        assert first.stderr is not None
        # The first holds the output once its progress shows (stderr is a pipe: plain lines).
        seen = b""
        deadline = time.monotonic() + 180
        while b" chicas) " not in seen and time.monotonic() < deadline:
            chunk = first.stderr.read1(4096)  # type: ignore[attr-defined]
            if not chunk:
                break
            seen += chunk
        assert b" chicas) " in seen, seen
        t0 = time.monotonic()
        second = run_cli(*SIM, "--out", str(out))
        assert second.returncode == 2, second.stderr
        assert second.stderr.count("\n") == 1 and "another run is writing it" in second.stderr
        assert f"process {first.pid}" in second.stderr and second.stdout == ""
        assert time.monotonic() - t0 < 60
        record("concurrent writer")
        first.send_signal(signal.SIGTERM)
        _, rest = first.communicate(timeout=120)
    finally:
        if first.poll() is None:
            first.kill()
            first.wait()
    assert first.returncode == 143, rest
    assert "nothing was written" in rest.decode()
    assert list(tmp_path.iterdir()) == []
    record("SIGTERM")


HOLD = """
import sys, time
from cuarenta_sim.outputs import exclusive
with exclusive([sys.argv[1]], "--out"):
    print("held", flush=True)
    time.sleep(600)
"""


@pytest.mark.parametrize("target", ["report", "dataset"])
def test_an_output_held_by_another_process_is_refused_until_it_dies(
    cli, tmp_path: Path, target: str
) -> None:
    """A folder held by another process (here a stand-in that holds the lock) is refused at
    once; after that process is killed with SIGKILL (no clean-up at all) the run proceeds."""
    path = tmp_path / "odds" if target == "report" else tmp_path / "data"
    args = (
        (*REPORT, "--out", str(tmp_path))
        if target == "report"
        else (
            "simulate",
            "--n",
            "300",
            "--dataset",
            str(path),
            "--aggregates-only",
            "--no-progress",
        )
    )
    holder = subprocess.Popen([sys.executable, "-c", HOLD, str(path)], stdout=subprocess.PIPE,
                              cwd=ROOT)  # fmt: skip
    try:
        assert holder.stdout is not None and holder.stdout.readline() == b"held\n"
        t0 = time.monotonic()
        run = cli(*args)
        assert run.code == 2 and run.err.count("\n") == 1, run.err
        assert f"{path}: another run is writing it (process {holder.pid})" in run.err
        assert time.monotonic() - t0 < 30 and not path.exists()
        record("concurrent writer")
        holder.kill()
        holder.wait()
    finally:
        if holder.poll() is None:
            holder.kill()
            holder.wait()
        assert holder.stdout is not None
        holder.stdout.close()
    run = cli(*args)
    assert run.code == 0, run.err
    assert hidden(tmp_path) == []
    record("SIGKILL")


# ---------------------------------------------------------------- failure 4
def test_report_refuses_an_existing_folder_without_force(cli, tmp_path: Path) -> None:
    assert cli(*REPORT, "--out", str(tmp_path)).code == 0
    before = snapshot(tmp_path / "odds")
    t0 = time.monotonic()
    run = cli(*REPORT, "--out", str(tmp_path), "--seed", "1")
    assert run.code == 2 and run.err.count("\n") == 1, run.err
    assert "odds already exists; pass --force to replace it" in run.err and run.out == ""
    assert time.monotonic() - t0 < 30
    assert snapshot(tmp_path / "odds") == before


def test_an_interrupted_report_leaves_the_old_folder_whole(cli, tmp_path: Path,
                                                           monkeypatch) -> None:  # fmt: skip
    """Ctrl-C after the first new figure is written: the old folder is exactly as it was
    (old code: new figures beside the old report.md); --force then swaps in the new one,
    keeping a file another tool put there."""
    assert cli(*REPORT, "--out", str(tmp_path)).code == 0
    folder = tmp_path / "odds"
    (folder / "openspiel.md").write_text("written by another tool\n")
    before = snapshot(folder)
    from matplotlib.figure import Figure

    with monkeypatch.context() as mp:
        _on_call(mp, Figure, "savefig", 1, KeyboardInterrupt)
        run = cli(*REPORT, "--out", str(tmp_path), "--seed", "1", "--force")
    assert run.code == 130, run.err
    assert f"left as they were: {folder}" in run.err
    assert snapshot(folder) == before and hidden(tmp_path) == []
    record("interrupt (in-process)")
    run = cli(*REPORT, "--out", str(tmp_path), "--seed", "1", "--force")
    assert run.code == 0, run.err
    assert json.loads((folder / "provenance.json").read_text())["seed"] == 1
    assert (folder / "openspiel.md").read_text() == "written by another tool\n"
    assert set(snapshot(folder)) == set(before) and hidden(tmp_path) == []


# ---------------------------------------------------------------- failure 6
def test_a_failed_dask_start_leaves_no_manifest(cli, tmp_path: Path, monkeypatch) -> None:
    from cuarenta_sim import distributed

    monkeypatch.setattr(distributed, "CONNECT_TIMEOUT_S", 2)
    with socket.socket() as sock:  # a port nobody listens on: connection refused at once
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    data = tmp_path / "data"
    common = ("simulate", "--n", "400", "--seed", "0", "--dataset", str(data),
              "--aggregates-only", "--chunk-size", "100", "--no-progress")  # fmt: skip
    run = cli(*common, "--backend", "dask", "--scheduler", f"tcp://127.0.0.1:{port}")
    assert run.code == 2 and "could not connect to a Dask scheduler" in run.err, run.err
    assert list(tmp_path.iterdir()) == []
    record("unreachable scheduler")
    fixed = cli(*common)
    assert fixed.code == 0, fixed.err
    assert (data / "manifest.json").is_file()
    assert len(list(data.glob("part-*.done.json"))) == 4
