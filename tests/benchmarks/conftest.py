"""Fixtures of the benchmark tests: run a target of ``benchmarks/run.py`` or a tool script.

Every test in this folder is marked ``slow`` (each file's ``pytestmark``): they run the
benchmarks end to end at tiny sizes, outside the default run; ``.ci/run``'s second stage
(``python -m pytest -m slow``) runs them.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BENCHMARKS = ROOT / "benchmarks"

Runner = Callable[..., subprocess.CompletedProcess[str]]


def _run(argv: list[str], timeout: float) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, *argv],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=timeout,
        check=False,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )


@pytest.fixture
def run_target() -> Runner:
    """Return ``run_target(target, *args, timeout=300)``: ``python benchmarks/run.py target
    args...`` with this interpreter from the repository root (the checkout on
    ``PYTHONPATH``), its text output captured; the caller asserts on the return code."""

    def run(target: str, *args: str, timeout: float = 300) -> subprocess.CompletedProcess[str]:
        return _run([str(BENCHMARKS / "run.py"), target, *args], timeout)

    return run


@pytest.fixture
def run_script() -> Runner:
    """Return ``run_script(script, *args, timeout=300)``: run ``benchmarks/<script>`` (the
    tools that keep their own command line: ``reports.py``, ``tune_heuristic.py``)."""

    def run(script: str, *args: str, timeout: float = 300) -> subprocess.CompletedProcess[str]:
        return _run([str(BENCHMARKS / script), *args], timeout)

    return run
