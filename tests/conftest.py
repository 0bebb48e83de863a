"""Fixtures shared by every test folder."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def run_benchmark() -> Callable[..., subprocess.CompletedProcess[str]]:
    """Return ``run_benchmark(script, *args, timeout=300)``: run ``benchmarks/<script>`` with
    this interpreter from the repository root (the checkout on ``PYTHONPATH``), capturing its
    text output; the caller asserts on the return code."""

    def _run(script: str, *args: str, timeout: float = 300) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, str(ROOT / "benchmarks" / script), *args],
            capture_output=True,
            text=True,
            cwd=ROOT,
            timeout=timeout,
            check=False,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
        )

    return _run
