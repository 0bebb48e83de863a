"""Fault injection (issue 20): interrupts, full disks, concurrent writers, killed workers.

The tests count what they inject (``faultkit.record``); the totals are printed at the end of
the run: ``fault injection: N faults injected, N checked whole: ...``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from faultkit import INJECTED, WHOLE

from cuarenta_sim.cli import main


def pytest_terminal_summary(terminalreporter: Any) -> None:
    """Print how many faults the run injected and how many left the outputs whole."""
    if INJECTED:
        parts = ", ".join(f"{k} {INJECTED[k]} ({WHOLE[k]} whole)" for k in sorted(INJECTED))
        total, whole = sum(INJECTED.values()), sum(WHOLE.values())
        terminalreporter.write_line(
            f"fault injection: {total} faults injected, {whole} checked whole: {parts}"
        )


@dataclass
class Run:
    """Outcome of one command-line invocation."""

    code: int
    out: str
    err: str


@pytest.fixture
def cli(capsys: pytest.CaptureFixture[str]) -> Callable[..., Run]:
    """Run ``cuarenta_sim.cli.main`` in this process: ``cli(*args) -> Run``."""

    def run(*args: str) -> Run:
        capsys.readouterr()
        code = main(list(args))
        captured = capsys.readouterr()
        return Run(code, captured.out, captured.err)

    return run
