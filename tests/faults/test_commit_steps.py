"""A fault at every step of a commit leaves the old outputs or the new ones, whole.

In-process and deterministic: the file-system calls of a write (Parquet writes, text writes,
renames) are counted on a clean run, then the run is repeated once per call with an interrupt
(KeyboardInterrupt, as SIGINT raises; inside the renames it stands for a ``kill -9``) or a
full disk (``OSError(ENOSPC)`` on a write) injected at that call. After each one the outputs
are read back: the old pair (or folder), or the new one, never a mix and never half.
"""

from __future__ import annotations

import errno
import json
import os
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pandas as pd
import pyarrow.parquet as pq
import pytest
from faultkit import record, snapshot

from cuarenta_sim import outputs, simulate
from cuarenta_sim.results import Results

#: File-system calls that can be hit: (module, name, is a write).
CALLS = [(pq, "write_table", True), (Path, "write_text", True), (os, "replace", False),
         (os, "rename", False)]  # fmt: skip
#: Steps of a commit that a fault is injected at, each once per test (asserted).
PAIR_STEPS, PAIR_WRITES = 6, 3
FOLDER_STEPS, FOLDER_WRITES = 6, 3


def _inject(monkeypatch: pytest.MonkeyPatch, at: int | None, make: Callable[[], BaseException],
            writes_only: bool) -> list[str]:  # fmt: skip
    """Patch the calls of :data:`CALLS`; the ``at``-th eligible one raises ``make()``.
    Returns the log of eligible calls (their names), filled as the run goes."""
    log: list[str] = []
    for owner, name, is_write in CALLS:
        real = getattr(owner, name)
        if writes_only and not is_write:
            continue

        def wrapped(*args: Any, _real: Any = real, _name: str = name, **kwargs: Any) -> Any:
            log.append(_name)
            if at is not None and len(log) - 1 == at:
                if _name == "write_table":  # half a file on disk, then the fault
                    Path(args[1]).write_bytes(b"PAR1 half")
                raise make()
            return _real(*args, **kwargs)

        monkeypatch.setattr(owner, name, wrapped)
    return log


def _pair(seed: int) -> Results:
    return simulate(n=60, level="chica", seed=seed)


def _read_seed(path: Path) -> int:
    """The seed of the whole pair at ``path`` (ValueError if it is not a whole pair)."""
    res = Results.from_parquet(path)
    expect = _pair(res.provenance["seed"])
    pd.testing.assert_frame_equal(res.hands, expect.hands)
    pd.testing.assert_frame_equal(res.games, expect.games)
    return int(res.provenance["seed"])


@pytest.mark.parametrize("fault", ["interrupt", "ENOSPC"])
def test_a_fault_at_any_step_of_a_pair_commit(tmp_path: Path, fault: str) -> None:
    old, new = _pair(1), _pair(2)
    out = tmp_path / "x.parquet"
    make: Callable[[], BaseException] = (
        KeyboardInterrupt if fault == "interrupt"
        else lambda: OSError(errno.ENOSPC, "No space left on device")
    )  # fmt: skip
    writes_only = fault == "ENOSPC"
    with pytest.MonkeyPatch.context() as mp:
        log = _inject(mp, None, make, writes_only)
        new.to_parquet(tmp_path / "probe.parquet")
    steps = len(log)
    for p in tmp_path.iterdir():
        p.unlink()
    # Two Parquet writes, the journal (write, rename), two renames; a full disk can hit the
    # three writes.
    assert steps == (PAIR_STEPS if fault == "interrupt" else PAIR_WRITES)
    seen = set()
    for at in range(steps):
        old.to_parquet(out)
        with pytest.MonkeyPatch.context() as mp:
            _inject(mp, at, make, writes_only)
            with pytest.raises((KeyboardInterrupt, OSError)):
                new.to_parquet(out)
        # Read back (a commit cut inside its renames is rolled forward by the reader).
        seed = _read_seed(out)
        seen.add(seed)
        assert sorted(p.name for p in tmp_path.iterdir()) == ["x.games.parquet", "x.parquet"]
        record("interrupt (in-process)" if fault == "interrupt" else "ENOSPC")
        if fault == "ENOSPC":
            assert seed == 1  # a full disk never replaces anything
    assert seen == ({1, 2} if fault == "interrupt" else {1})


def _folder(directory: Path, tag: str) -> None:
    (directory / "figures").mkdir(parents=True)
    for name in ("a", "b", "c"):
        (directory / "figures" / f"{name}.png").write_bytes(f"{tag}-{name}".encode())
    (directory / "report.md").write_text(f"# {tag}\n")
    (directory / "provenance.json").write_text(f'{{"tag": "{tag}"}}\n')


@pytest.mark.parametrize("fault", ["interrupt", "ENOSPC"])
def test_a_fault_at_any_step_of_a_folder_swap(tmp_path: Path, fault: str) -> None:
    target = tmp_path / "odds"
    _folder(target, "old")
    old = snapshot(target)
    fresh = tmp_path / "fresh"
    _folder(fresh, "new")
    new = snapshot(fresh)
    make: Callable[[], BaseException] = (
        KeyboardInterrupt if fault == "interrupt"
        else lambda: OSError(errno.ENOSPC, "No space left on device")
    )  # fmt: skip

    with pytest.MonkeyPatch.context() as mp:
        log = _inject(mp, None, make, fault == "ENOSPC")
        with outputs.exclusive([fresh], "x"), outputs.staged([fresh]) as (tmp,):
            _folder_with_calls(tmp)
    steps = len(log)
    assert snapshot(fresh) == new
    # Two text files, the journal (write, rename), the old folder aside, the new one in.
    assert steps == (FOLDER_STEPS if fault == "interrupt" else FOLDER_WRITES)
    for at in range(steps):
        with pytest.MonkeyPatch.context() as mp:
            _inject(mp, at, make, fault == "ENOSPC")
            with pytest.raises((KeyboardInterrupt, OSError)), outputs.staged([target]) as (tmp,):
                _folder_with_calls(tmp)
        # The next run holding the folder rolls a cut swap forward or cleans the temporaries.
        with outputs.exclusive([target], "--out"):
            pass
        assert snapshot(target) in (old, new), at
        assert sorted(p.name for p in tmp_path.iterdir()) == ["fresh", "odds"]
        record("interrupt (in-process)" if fault == "interrupt" else "ENOSPC")
        if snapshot(target) == new:
            _remove_and_restore(target)


def _folder_with_calls(into: Path) -> None:
    """A report-like folder written through the patched calls (two text files)."""
    (into / "figures").mkdir(parents=True)
    for name in ("a", "b", "c"):
        (into / "figures" / f"{name}.png").write_bytes(f"new-{name}".encode())
    (into / "report.md").write_text("# new\n")
    (into / "provenance.json").write_text('{"tag": "new"}\n')


def _remove_and_restore(target: Path) -> None:
    shutil.rmtree(target)
    _folder(target, "old")


def test_what_a_killed_run_left_is_cleaned_by_the_next_run(cli, tmp_path: Path) -> None:
    """Temporaries, a folder moved aside and a stale lock (a ``kill -9`` leaves them) are
    removed by the next run holding the output, and a journal is rolled forward."""
    out = tmp_path / "x.parquet"
    stale = [tmp_path / ".x.parquet.1a2b3c4d.new", tmp_path / ".x.games.parquet.1a2b3c4d.new",
             tmp_path / ".x.parquet.q8w7e6r5.tmp", tmp_path / ".x.parquet.lock"]  # fmt: skip
    for path in stale:
        path.write_bytes(b"left by a killed run")
    run = cli("simulate", "--level", "chica", "--n", "50", "--out", str(out), "--no-progress")
    assert run.code == 0, run.err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["x.games.parquet", "x.parquet"]
    # A commit killed between its renames: the journal names them; the next holder finishes.
    _pair(7).to_parquet(tmp_path / "y.parquet")
    for name in ("y.parquet", "y.games.parquet"):
        (tmp_path / name).rename(tmp_path / f".{name}.deadbeef.new")
    (tmp_path / "x.parquet").replace(tmp_path / "y.parquet")  # an older file in place
    entries = [
        [
            str(tmp_path / f".{n}.deadbeef.new"),
            str(tmp_path / n),
            str(tmp_path / f".{n}.deadbeef.old"),
        ]
        for n in ("y.parquet", "y.games.parquet")
    ]
    outputs.journal_path(tmp_path / "y.parquet").write_text(json.dumps({"entries": entries}))
    with outputs.exclusive([tmp_path / "y.parquet"], "--out"):
        pass
    assert _read_seed(tmp_path / "y.parquet") == 7
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "x.games.parquet", "y.games.parquet", "y.parquet"]  # fmt: skip
    record("SIGKILL (simulated leftovers)")
