"""Command-line helpers shared by the benchmark scripts: one-line errors, output checks.

The project's rule for bad input (README, "Bad input"): one line saying what was wrong and
what is accepted, exit status 2, checked before any long run. ``argparse`` prints its usage
block first; :class:`OneLineParser` prints only the line. :func:`check_writable` probes an
output location before a run that may take hours, so a bad ``--out`` fails in a second
instead of after the run.
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path
from typing import NoReturn


class OneLineParser(argparse.ArgumentParser):
    """An ``ArgumentParser`` whose errors are one line (``prog: error: message``), exit 2."""

    def error(self, message: str) -> NoReturn:
        """Print ``prog: error: message`` (one line, no usage block) and exit with status 2."""
        self.exit(2, f"{self.prog}: error: {' '.join(message.split())}\n")


def check_writable(parser: argparse.ArgumentParser, path: Path, what: str = "--out") -> None:
    """Exit through ``parser.error`` unless a file can be created in ``path``'s directory.

    Parameters
    ----------
    parser : ArgumentParser
        Reports the error (one line, exit 2).
    path : Path
        The output file; its parent directory is created if missing.
    what : str
        The option named in the message.
    """
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        # A probe file, because os.access is not reliable (root, read-only mounts).
        with tempfile.NamedTemporaryFile(dir=path.parent, prefix=".probe-"):
            pass
    except OSError as exc:
        parser.error(f"{what} {path}: cannot write there ({exc.strerror or exc}); give a "
                     "writable file path")  # fmt: skip


def check_writable_dir(parser: argparse.ArgumentParser, path: Path, what: str) -> None:
    """As :func:`check_writable` for a directory (created if missing)."""
    check_writable(parser, path / "probe", what)


__all__ = ["OneLineParser", "check_writable", "check_writable_dir"]
