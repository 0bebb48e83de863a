"""The simulate command: summary, Parquet and report output, reproducibility, atomicity."""

from __future__ import annotations

import importlib
import json
import os
import select
import shlex
import signal
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd
import pytest

from cuarenta_sim import simulate
from cuarenta_sim.results import Results, games_path

ROOT = Path(__file__).resolve().parents[2]


def _line(text: str, prefix: str) -> str:
    (line,) = [ln for ln in text.splitlines() if ln.startswith(prefix)]
    return line


def test_simulate_prints_summary_and_writes_parquet_and_report(run_cli, tmp_path: Path) -> None:
    out = tmp_path / "new" / "dir" / "hands.parquet"
    report = tmp_path / "report"
    run = run_cli(
        "simulate", "--rules", "cuenca(falla_points=2)", "--n", "3000", "--seed", "5",
        "--out", str(out), "--report", str(report), "--no-progress",
    )  # fmt: skip
    assert run.code == 0, run.err
    assert run.err == ""
    assert run.out.startswith(
        "Cuarenta simulation: rules cuenca(falla_points=2), 2 players, policies greedy, "
        "3,000 datas, seed 5\n"
    )
    header = "metric                                estimate  95% interval"
    assert header in run.out
    assert "P(a ronda is dealt in a data)" in run.out and "3,000  wilson" in run.out
    assert "datas/s" in _line(run.out, "throughput: 3,000 datas in ")
    assert "engine_version=1" in _line(run.out, "provenance: ")

    expected = simulate(rules="cuenca(falla_points=2)", n=3000, seed=5)
    saved = Results.from_parquet(out)
    pd.testing.assert_frame_equal(saved.hands, expected.hands)
    assert saved.provenance["seed"] == 5 and saved.provenance["rules"] == "cuenca(falla_points=2)"

    md = (report / "report.md").read_text()
    assert "| metric | estimate | 95% interval | n | method |" in md
    assert "| P(a ronda is dealt in a data) |" in md and "| 3,000 | wilson |" in md
    assert "Slug: `cuenca(falla_points=2)`" in md and "| falla_points | 2 | 0 * |" in md
    command = run.reproduce
    assert f"```sh\n{command}\n```" in md
    provenance = json.loads((report / "provenance.json").read_text())
    assert provenance["command"] == command
    assert provenance["n"] == 3000 and provenance["policies"] == ["greedy", "greedy"]
    assert sorted(p.name for p in report.iterdir()) == ["provenance.json", "report.md"]


def test_reproduce_command_gives_identical_records(run_cli, tmp_path: Path) -> None:
    first = run_cli(
        "simulate", "--rules", "quito(max_sum_cards=2)", "--players", "4",
        "--policies", "random,greedy", "--n", "1500", "--seed", "11", "--threads", "2",
        "--out", str(tmp_path / "a.parquet"), "--no-progress",
    )  # fmt: skip
    assert first.code == 0, first.err
    command = shlex.split(first.reproduce)
    assert command[:2] == ["cuarenta-sim", "simulate"]
    again = run_cli(
        *command[1:], "--threads", "1", "--out", str(tmp_path / "b.parquet"), "--no-progress"
    )
    assert again.code == 0, again.err
    a = pd.read_parquet(tmp_path / "a.parquet")
    b = pd.read_parquet(tmp_path / "b.parquet")
    assert len(a) == 1500
    pd.testing.assert_frame_equal(a, b)


def test_simulate_chica_summarises_games(run_cli, tmp_path: Path) -> None:
    out = tmp_path / "chicas.parquet"
    run = run_cli(
        "simulate", "--level", "chica", "--n", "500", "--seed", "2", "--out", str(out),
        "--report", str(tmp_path / "rep"), "--no-progress",
    )  # fmt: skip
    assert run.code == 0, run.err
    assert "\nPer chica\n" in run.out
    for metric in ("P(side 0 wins the chica)", "datas per chica", "P(zapateria)"):
        assert metric in run.out
    assert "500  wilson" in run.out
    assert "chicas/s" in _line(run.out, "throughput: ")
    assert games_path(out).is_file()
    games = Results.from_parquet(out).games
    assert games is not None and len(games) == 500
    assert "## Per chica" in (tmp_path / "rep" / "report.md").read_text()


def test_simulate_mesa_summarises_mesas(run_cli) -> None:
    run = run_cli("simulate", "--level", "mesa", "--n", "200", "--rules", "pagat", "--no-progress")
    assert run.code == 0, run.err
    assert "P(side 0 wins the mesa)" in run.out and "chicas per mesa" in run.out


def test_progress_bar_goes_to_stderr(run_cli) -> None:
    run = run_cli("simulate", "--n", "2000")
    assert run.code == 0
    assert "100%" in run.err and "100%" not in run.out


def test_interrupt_while_writing_leaves_no_partial_file(
    run_cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An interrupt at the last step of the Parquet write: the old file survives intact."""
    out = tmp_path / "hands.parquet"
    out.write_bytes(b"previous complete file")

    def interrupted(src: object, dst: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(os, "replace", interrupted)
    run = run_cli("simulate", "--n", "500", "--out", str(out), "--no-progress", "--force")
    assert run.code == 130
    assert "interrupted" in run.err and "Traceback" not in run.err
    assert out.read_bytes() == b"previous complete file"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["hands.parquet"]


def test_failure_during_the_run_writes_nothing(
    run_cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def failing(run: object) -> Results:
        raise OSError(28, "No space left on device")

    # The package exports the function under the submodule's name: patch the module itself.
    module = importlib.import_module("cuarenta_sim.simulation")
    monkeypatch.setattr(module, "run_validated", failing)
    run = run_cli(
        "simulate", "--n", "500", "--out", str(tmp_path / "h.parquet"),
        "--report", str(tmp_path / "rep"), "--no-progress",
    )  # fmt: skip
    run.assert_bad_input()
    assert "No space left on device" in run.err
    assert list(tmp_path.iterdir()) == []


def _read_until(stream: int, needle: bytes, timeout: float) -> bytes:
    """Read a pipe until ``needle`` shows up (or ``timeout`` seconds pass)."""
    seen = b""
    deadline = time.monotonic() + timeout
    while needle not in seen and time.monotonic() < deadline:
        ready, _, _ = select.select([stream], [], [], 0.1)
        if ready:
            chunk = os.read(stream, 4096)
            if not chunk:
                break
            seen += chunk
    return seen


def restore_sigint() -> None:
    """In the child before exec: default SIGINT disposition. A shell that starts a job in the
    background (``cmd &``) makes it ignore SIGINT, and Python then installs no
    KeyboardInterrupt handler; the tests send SIGINT as a user's Ctrl-C would."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


@pytest.mark.parametrize(("signum", "code"), [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_signal_during_a_run_exits_128_plus_signal_and_leaves_no_file(
    tmp_path: Path, signum: int, code: int
) -> None:
    """Ctrl-C exits 130 and SIGTERM 143 (128 + signal), with no partial output file."""
    out = tmp_path / "big.parquet"
    report = tmp_path / "report"
    proc = subprocess.Popen(
        [
            sys.executable, "-m", "cuarenta_sim", "simulate", "--level", "chica",
            "--n", "3000000", "--out", str(out), "--report", str(report),
        ],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT,
        preexec_fn=restore_sigint,
    )  # fmt: skip
    try:
        assert proc.stderr is not None
        # stderr is a pipe: plain progress lines ("simulate: 19% (...) 11 s"), no bar.
        seen = _read_until(proc.stderr.fileno(), b" chicas) ", timeout=120)
        assert b" chicas) " in seen, seen
        proc.send_signal(signum)
        _, rest = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    err = (seen + rest).decode()
    assert proc.returncode == code, err
    assert "cuarenta-sim: error: interrupted" in err and "Traceback" not in err
    assert "\r" not in err
    assert list(tmp_path.iterdir()) == []
