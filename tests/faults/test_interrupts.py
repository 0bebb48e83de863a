"""SIGINT and SIGTERM at random points of real ``simulate``, ``report`` and ``--dataset`` runs.

Each command first runs to the end once (its duration sets the range of the random points and
its outputs are the "new" ones), then is started again over the old outputs and interrupted
after a delay drawn from a seeded generator (:data:`SEED`), anywhere from the interpreter's
start to after the commit. After every interrupt the outputs are read back: the old ones or
the new ones, whole, and the last line says which; then the plain rerun in this process must
work and leave no temporary or lock behind. The default suite interrupts each command once
per signal; the slow suite :data:`SLOW_POINTS` times per signal.
"""

from __future__ import annotations

import json
import random
import shutil
import signal
import time
from pathlib import Path

import pandas as pd
import pytest
from faultkit import hidden, interrupt_after, record, run_cli, snapshot

from cuarenta_sim import simulate
from cuarenta_sim.results import Results, read_dataset

#: Seed of the random interrupt points.
SEED = 20
#: Interrupts per signal and command: default suite, slow suite.
DEFAULT_POINTS, SLOW_POINTS = 1, 6
SIGNALS = (signal.SIGINT, signal.SIGTERM)
EXIT = {signal.SIGINT: 130, signal.SIGTERM: 143}
N_CHICAS = 3_000


def _points(command: str, points: int) -> list[tuple[signal.Signals, float]]:
    """``points`` (signal, fraction of the run's duration) pairs per signal, seeded."""
    rng = random.Random(f"{SEED}-{command}")
    return [(s, rng.uniform(0.0, 1.2)) for s in SIGNALS for _ in range(points)]


def _timed(args: list[str]) -> float:
    t0 = time.monotonic()
    proc = run_cli(*args)
    assert proc.returncode == 0, proc.stderr
    return time.monotonic() - t0


def _last_line(err: str) -> str:
    """The interrupt message, checked: one line, after a run that stopped in the command."""
    lines = err.strip().splitlines()
    assert "Traceback" not in err, err
    assert lines[-1].startswith("cuarenta-sim: error: interrupted; "), err
    return lines[-1]


def _state(code: int, err: str, signum: int) -> str | None:
    """``"completed"``, ``"interrupted"`` (the command's handler ran) or None (the signal
    came before the command started: the interpreter or the imports)."""
    if code == 0:
        return "completed"
    if code == EXIT[signum]:
        _last_line(err)
        return "interrupted"
    # Killed, or interrupted during the interpreter's imports. A SIGTERM in the first moments
    # of main() can also end as -SIGINT after the message (Python exits "via SIGINT" when it
    # saw an unhandled KeyboardInterrupt); the outputs are checked whole all the same.
    # An interrupt inside the imports (before main() runs) can also end in an abort while the
    # interpreter finalizes with library threads alive ("Python runtime state: finalizing",
    # seen once in 2,000+ runs on a loaded machine): nothing had started, and the outputs are
    # checked whole all the same.
    finalizing = code == -signal.SIGABRT and "runtime state: finalizing" in err
    assert code in (-signum, 1, -signal.SIGINT) or finalizing, (code, err)
    if finalizing:
        return None
    if code == -signal.SIGINT and signum == signal.SIGTERM:
        # The message still says what is left: nothing (a new output) or the old outputs
        # untouched (a report replacing its folder); the outputs are checked whole below.
        last = err.strip().splitlines()[-1] if err.strip() else ""
        assert not err or last.startswith(
            ("cuarenta-sim: error: interrupted; nothing was written",
             "cuarenta-sim: error: interrupted; left as they were: ")
        ), err  # fmt: skip
    return None


# ---------------------------------------------------------------- simulate --out
def _check_simulate(cli, points: int, tmp_path: Path) -> int:
    out = tmp_path / "x.parquet"
    old, new = (simulate(n=N_CHICAS, level="chica", seed=s) for s in (1, 2))
    args = ["simulate", "--level", "chica", "--n", str(N_CHICAS), "--seed", "2", "--out",
            str(out), "--force", "--no-progress"]  # fmt: skip
    duration = _timed(args)
    injected = 0
    for signum, fraction in _points("simulate", points):
        old.to_parquet(out)
        code, err = interrupt_after(args, duration * fraction, signum)
        state = _state(code, err, signum)
        res = Results.from_parquet(out)
        expect = {1: old, 2: new}[res.provenance["seed"]]
        pd.testing.assert_frame_equal(res.hands, expect.hands)
        pd.testing.assert_frame_equal(res.games, expect.games)
        if state == "interrupted" and expect is new:
            assert f"written in full: {out}" in err, err
        elif state == "interrupted":  # before the run held the pair, or after
            assert f"left as they were: {out}" in err or _last_line(err).endswith(
                "interrupted; nothing was written"
            ), err
        assert cli(*args).code == 0  # the plain rerun works and cleans up
        assert sorted(p.name for p in tmp_path.iterdir()) == ["x.games.parquet", "x.parquet"]
        record(signum.name)
        injected += 1
    return injected


def test_interrupt_simulate_out(cli, tmp_path: Path) -> None:
    assert _check_simulate(cli, DEFAULT_POINTS, tmp_path) == 2 * DEFAULT_POINTS


@pytest.mark.slow
def test_interrupt_simulate_out_many_points(cli, tmp_path: Path) -> None:
    assert _check_simulate(cli, SLOW_POINTS, tmp_path) == 2 * SLOW_POINTS


# ---------------------------------------------------------------- report --out
REPORT = ["report", "odds", "--n", "4000", "--players", "2", "--policies", "greedy",
          "--confirm", "none", "--no-progress"]  # fmt: skip


def _check_report(cli, points: int, tmp_path: Path) -> int:
    out, kept = tmp_path / "r", tmp_path / "old"
    folder = out / "odds"
    assert cli(*REPORT, "--out", str(out), "--seed", "1").code == 0
    old = snapshot(folder)
    shutil.copytree(folder, kept)
    args = [*REPORT, "--out", str(out), "--seed", "2", "--force"]
    duration = _timed(args)
    new_files = set(snapshot(folder))
    injected = 0
    for signum, fraction in _points("report", points):
        shutil.rmtree(folder)
        shutil.copytree(kept, folder)
        code, err = interrupt_after(args, duration * fraction, signum)
        state = _state(code, err, signum)
        now = snapshot(folder)
        if now == old:
            whole = "old"
        else:  # the new folder, whole: every file, the provenance and report of seed 2
            assert set(now) == new_files, sorted(set(now) ^ new_files)
            assert json.loads((folder / "provenance.json").read_text())["seed"] == 2
            assert (folder / "report.md").read_text().rstrip().endswith("|")
            whole = "new"
        if state == "interrupted" and whole == "new":
            assert f"written in full: {folder}" in err, err
        elif state == "interrupted":  # before the run held the folder, or after
            assert f"left as they were: {folder}" in err or _last_line(err).endswith(
                "interrupted; nothing was written"
            ), err
        assert cli(*args).code == 0
        assert hidden(out) == [] and [p.name for p in out.iterdir()] == ["odds"]
        record(signum.name)
        injected += 1
    return injected


def test_interrupt_report(cli, tmp_path: Path) -> None:
    assert _check_report(cli, DEFAULT_POINTS, tmp_path) == 2 * DEFAULT_POINTS


@pytest.mark.slow
def test_interrupt_report_many_points(cli, tmp_path: Path) -> None:
    assert _check_report(cli, SLOW_POINTS, tmp_path) == 2 * SLOW_POINTS


# ---------------------------------------------------------------- --dataset
N_DATAS, CHUNK = 400_000, 25_000


def _check_dataset(cli, points: int, tmp_path: Path) -> int:
    data = tmp_path / "data"
    args = ["simulate", "--n", str(N_DATAS), "--seed", "3", "--dataset", str(data),
            "--chunk-size", str(CHUNK), "--no-progress"]  # fmt: skip
    duration = _timed(args)
    expect = simulate(n=N_DATAS, seed=3).hands
    injected = 0
    for signum, fraction in _points("dataset", points):
        shutil.rmtree(data)
        code, err = interrupt_after(args, duration * fraction, signum)
        state = _state(code, err, signum)
        done = sorted(data.glob("part-*.done.json")) if data.exists() else []
        if not done:  # nothing, or chunk files no manifest covers (the next run removes them)
            assert not (data / "manifest.json").exists() or state == "completed"
            if state == "interrupted":
                said = [f"nothing was written in {data}", f"{data} holds no complete chunk"]
                # (or, before the run held the directory, simply "nothing was written")
                said.append("interrupted; nothing was written\n")
                assert any(x in err for x in said), err
        else:
            assert (data / "manifest.json").is_file()
            if state == "interrupted" and len(done) < N_DATAS // CHUNK:
                assert f"{data} keeps {len(done)} complete chunk(s)" in err, err
        run = cli(*args)  # resumes: the complete chunks are reused
        assert run.code == 0, run.err
        pd.testing.assert_frame_equal(read_dataset(data).hands, expect)
        assert hidden(tmp_path) == []
        record(signum.name)
        injected += 1
    return injected


def test_interrupt_dataset(cli, tmp_path: Path) -> None:
    assert _check_dataset(cli, DEFAULT_POINTS, tmp_path) == 2 * DEFAULT_POINTS


@pytest.mark.slow
def test_interrupt_dataset_many_points(cli, tmp_path: Path) -> None:
    assert _check_dataset(cli, SLOW_POINTS, tmp_path) == 2 * SLOW_POINTS
