"""Command-line output edges (issue 20, failure 9).

* A closed standard output (``cuarenta-sim presets >&-``) exited 0 with the output lost: it
  now exits 1 with one line on stderr, before any run; a broken pipe (``| head -0``) exits 1
  quietly (click's EPIPE handling), never a traceback.
* An unwritable ``--report`` directory was named by its ``.probe`` test file.
* The provenance line of ``simulate`` ran to 299 characters (a canonical heuristic spec has no
  space to wrap at); every printed line now fits 100 columns.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from cuarenta_sim.cli.output import WIDTH

ROOT = Path(__file__).resolve().parents[2]
ENV = {**os.environ, "PYTHONPATH": str(ROOT)}


def _cli(shell_tail: str) -> subprocess.CompletedProcess[str]:
    """Run ``python -m cuarenta_sim presets`` with a shell redirection or pipe after it."""
    command = f"{sys.executable} -m cuarenta_sim presets {shell_tail}"
    return subprocess.run(
        ["bash", "-c", command + "; echo rc=${PIPESTATUS[0]} >&2"],
        cwd=ROOT,
        env=ENV,
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_closed_stdout_is_an_error() -> None:
    run = _cli(">&-")
    lines = run.stderr.splitlines()
    assert lines[-1] == "rc=1", run.stderr
    assert lines[:-1] == ["cuarenta-sim: error: cannot write the output: standard output is closed"]


def test_broken_pipe_exits_one_quietly() -> None:
    run = _cli("| head -c 0")
    assert run.stderr.splitlines() == ["rc=1"], run.stderr  # no traceback, no message
    fine = _cli("> /dev/null")
    assert fine.stderr.splitlines() == ["rc=0"], fine.stderr


def test_unwritable_report_directory_names_the_directory(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from cuarenta_sim.cli import main

    blocker = tmp_path / "file"
    blocker.write_text("x")
    capsys.readouterr()
    assert main(["simulate", "--n", "5", "--report", str(blocker / "sub")]) == 2
    err = capsys.readouterr().err
    assert f"--report {blocker / 'sub'}: cannot create it" in err and ".probe" not in err, err


def test_printed_lines_fit_the_width(capsys: pytest.CaptureFixture[str]) -> None:
    from cuarenta_sim.cli import main

    capsys.readouterr()
    argv = ["simulate", "--n", "20", "--policies", "heuristic,learned", "--no-progress"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    provenance = out[out.index("provenance: ") : out.index("reproduce: ")]
    assert "heuristic(cards=350, caida=1000" in provenance  # wrapped after commas
    assert max(len(line) for line in out.splitlines()) <= WIDTH, out
