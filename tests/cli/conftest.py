"""Fixtures for the command-line tests: run ``cuarenta_sim.cli.main`` in-process."""

from __future__ import annotations

import io
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from cuarenta_sim.cli import main


@dataclass
class Run:
    """Outcome of one command-line invocation."""

    code: int
    out: str
    err: str

    @property
    def reproduce(self) -> str:
        """The printed reproduce command as one line (its continuation lines, ending in
        ``" \\"``, joined back)."""
        lines = self.out.splitlines()
        (start,) = [i for i, ln in enumerate(lines) if ln.startswith("reproduce: ")]
        parts = [lines[start].removeprefix("reproduce: ")]
        while parts[-1].endswith(" \\"):
            parts[-1] = parts[-1][:-2]
            start += 1
            parts.append(lines[start].strip())
        return " ".join(parts)

    def assert_bad_input(self) -> None:
        """Exit status 2 and exactly one error line on stderr, no traceback."""
        assert self.code == 2, (self.code, self.out, self.err)
        lines = self.err.splitlines()
        assert len(lines) == 1, self.err
        assert lines[0].startswith("cuarenta-sim: error: "), self.err
        assert "Traceback" not in self.err and "Traceback" not in self.out


RunCli = Callable[..., Run]


@pytest.fixture
def run_cli(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> RunCli:
    """Return ``run(*args, stdin=None) -> Run``: exit code, stdout and stderr of ``main``.

    The command runs in the test's ``tmp_path`` as working directory, so a relative output
    path (``--report r``) lands there and never in the checkout (a stray ``r/`` report was
    once committed that way).
    """
    monkeypatch.chdir(tmp_path)

    def run(*args: str, stdin: str | None = None) -> Run:
        if stdin is not None:
            monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
        capsys.readouterr()
        code = main(list(args))
        captured = capsys.readouterr()
        return Run(code, captured.out, captured.err)

    return run
