"""``tournament --out DIR`` follows the other commands (issue 20 items 1 and 2): its three
files commit as one (a full disk leaves the old files, or nothing), and a second run aimed at
the same folder is refused at start while the first holds it."""

from __future__ import annotations

import errno
import subprocess
import sys
from pathlib import Path

import pytest
from faultkit import ROOT, hidden, record, snapshot
from test_regressions import HOLD, _on_call

from cuarenta_sim import io as cio

TOURNAMENT = ("tournament", "--policies", "random,greedy", "--chicas", "20", "--no-progress")
FILES = ("matches.csv", "ratings.csv", "provenance.json")


def test_full_disk_while_writing_keeps_the_old_files(cli, tmp_path: Path, monkeypatch) -> None:
    out = tmp_path / "t"
    assert cli(*TOURNAMENT, "--seed", "1", "--out", str(out)).code == 0
    assert sorted(p.name for p in out.iterdir()) == sorted(FILES)
    before = snapshot(tmp_path)

    def full() -> OSError:
        return OSError(errno.ENOSPC, "No space left on device", str(out / "ratings.csv"))

    with monkeypatch.context() as mp:
        # The second file of three: before this change the first was already replaced.
        _on_call(mp, cio, "write_text_atomic", 1, full)
        run = cli(*TOURNAMENT, "--seed", "2", "--out", str(out), "--force")
    assert run.code == 2 and len(run.err.splitlines()) == 1, run.err
    assert "No space left on device" in run.err
    assert snapshot(tmp_path) == before
    assert hidden(tmp_path) == []
    record("ENOSPC")


def test_a_folder_held_by_another_run_is_refused_at_start(cli, tmp_path: Path) -> None:
    out = tmp_path / "t"
    held = out / "matches.csv"
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLD, str(held)], stdout=subprocess.PIPE, cwd=ROOT
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline() == b"held\n"
        run = cli(*TOURNAMENT, "--out", str(out))
        assert run.code == 2 and run.err.count("\n") == 1, run.err
        assert f"another run is writing it (process {holder.pid})" in run.err
        assert not held.exists()
        record("concurrent writer")
    finally:
        holder.kill()
        holder.wait()
        assert holder.stdout is not None
        holder.stdout.close()
    run = cli(*TOURNAMENT, "--out", str(out))
    assert run.code == 0, run.err
    assert sorted(p.name for p in out.iterdir()) == sorted(FILES)


@pytest.fixture(autouse=True)
def _tmp_cwd(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
