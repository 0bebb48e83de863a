"""Helpers of the fault-injection tests (issue 20): counters, subprocess runs, snapshots.

Every test counts the faults it injects with :func:`record` (kind -> count) after checking
that the outputs are either the old ones or the new ones, whole, by reading them back; the
totals are printed at the end of the run by ``conftest.py`` (``fault injection: ...``).
"""

from __future__ import annotations

import hashlib
import os
import signal
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

#: Faults injected by this run of the tests, by kind ("SIGINT", "SIGTERM", "ENOSPC"...), and
#: how many of them were checked to leave the outputs whole.
INJECTED: Counter[str] = Counter()
WHOLE: Counter[str] = Counter()


def record(kind: str, whole: bool = True) -> None:
    """Count one injected fault of ``kind``; ``whole``: its outputs were checked whole."""
    INJECTED[kind] += 1
    if whole:
        WHOLE[kind] += 1


def restore_sigint() -> None:
    """In the child before exec: default SIGINT disposition (a background job ignores it)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def spawn(*args: str) -> subprocess.Popen[bytes]:
    """Start ``python -m cuarenta_sim ARGS`` (stdout and stderr piped)."""
    return subprocess.Popen(
        [sys.executable, "-m", "cuarenta_sim", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        preexec_fn=restore_sigint,
    )


def run_cli(*args: str, timeout: float = 600) -> subprocess.CompletedProcess[str]:
    """Run ``python -m cuarenta_sim ARGS`` to the end."""
    return subprocess.run(
        [sys.executable, "-m", "cuarenta_sim", *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        timeout=timeout,
        check=False,
    )


def interrupt_after(args: list[str], delay: float, signum: int) -> tuple[int, str]:
    """Start the command, send ``signum`` after ``delay`` seconds (if still running), wait.

    Returns
    -------
    (int, str)
        Exit status and stderr.
    """
    proc = spawn(*args)
    try:
        try:
            proc.wait(timeout=delay)
        except subprocess.TimeoutExpired:
            proc.send_signal(signum)
        _, err = proc.communicate(timeout=300)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    return proc.returncode, err.decode()


def snapshot(directory: Path) -> dict[str, str]:
    """Relative path -> sha256 of every file under ``directory`` (hidden ones included)."""
    if not directory.exists():
        return {}
    return {
        str(p.relative_to(directory)): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(directory.rglob("*"))
        if p.is_file()
    }


def hidden(directory: Path) -> list[str]:
    """Hidden entries (temporaries, journals, locks) anywhere under ``directory``."""
    return sorted(str(p) for p in directory.rglob(".*"))


def wait_for(predicate: Callable[[], bool], timeout: float, what: str) -> None:
    """Poll ``predicate`` every 20 ms until true; fail after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            pytest.fail(f"timed out waiting for {what}")
        time.sleep(0.02)
