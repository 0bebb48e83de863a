"""Helpers shared by the benchmark targets: one-line errors, output checks, partial records.

The project's rule for bad input (README, "Bad input"): one line saying what was wrong and
what is accepted, exit status 2, checked before any long run. ``argparse`` prints its usage
block first; :class:`OneLineParser` prints only the line. :func:`check_writable` probes an
output location before a run that may take hours, so a bad ``--out`` fails in a second
instead of after the run. :class:`Journal` keeps the rows of a long target as they are
measured, so a run cut short keeps them and a rerun resumes.
"""

from __future__ import annotations

import argparse
import json
import os
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any, NoReturn


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


def partial_path(out: Path) -> Path:
    """The partial records of the results file ``out``: ``<stem>.partial.jsonl`` beside it."""
    return out.with_name(f"{out.stem}.partial.jsonl")


class Journal:
    """Rows of a long target, appended to a JSON-lines file as they are measured.

    Each line is ``{"key": ..., "row": ...}``: ``key`` names what was measured with every
    setting that changes the figure (sizes, seed, policies), so a rerun with other settings
    does not reuse it. The file is ``<stem>.partial.jsonl`` beside the results file
    (:func:`partial_path`): a run cut short (Ctrl-C, a kill, a crash) leaves the rows it
    finished, whole lines, and the same command run again reads them instead of measuring
    them again; :meth:`finish` removes the file once the results file is written, so a
    finished target leaves one results file.

    Parameters
    ----------
    out : Path
        The target's results file.
    fresh : bool
        Discard an existing partial file instead of resuming from it.

    Raises
    ------
    ValueError
        When a line other than the last is not a JSON record (a torn last line, what a kill
        during a write leaves, is ignored).
    """

    def __init__(self, out: Path, *, fresh: bool = False) -> None:
        self.path = partial_path(out)
        if fresh:
            self.path.unlink(missing_ok=True)
        self.held: dict[str, Any] = read_journal(self.path)
        if self.path.exists():
            # Drop a torn last line (a kill during a write), so the next row starts a line.
            data = self.path.read_bytes()
            if data and not data.endswith(b"\n"):
                with self.path.open("r+b") as fh:
                    fh.truncate(data.rfind(b"\n") + 1)
        self.reused = 0

    @staticmethod
    def key(identity: dict[str, Any]) -> str:
        """The canonical text of a row's identity (sorted JSON)."""
        return json.dumps(identity, sort_keys=True)

    def row(self, identity: dict[str, Any], measure: Callable[[], Any]) -> Any:
        """The row of ``identity``: read from the file if an earlier run measured it, else
        ``measure()``, appended (one line, flushed and synced) before it is returned."""
        key = self.key(identity)
        if key in self.held:
            self.reused += 1
            return self.held[key]
        row = measure()
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with self.path.open("a", encoding="utf-8") as fh:
            fh.write(json.dumps({"key": key, "row": row}) + "\n")
            fh.flush()
            os.fsync(fh.fileno())
        self.held[key] = row
        return row

    def finish(self) -> None:
        """Remove the partial file (call after the results file is written)."""
        self.path.unlink(missing_ok=True)


def read_journal(path: Path) -> dict[str, Any]:
    """Key -> row of a partial-records file (empty if it does not exist); see :class:`Journal`.

    Raises
    ------
    ValueError
        A line other than the last is not a JSON record (the last may be torn: ignored).
    """
    out: dict[str, Any] = {}
    if not path.exists():
        return out
    lines = path.read_text(encoding="utf-8").splitlines()
    for i, line in enumerate(lines):
        if not line.strip():
            continue
        try:
            rec = json.loads(line)
            out[rec["key"]] = rec["row"]
        except (json.JSONDecodeError, KeyError, TypeError) as exc:
            if i == len(lines) - 1:
                break
            raise ValueError(f"{path}:{i + 1}: not a record of a partial run ({exc}); "
                             "delete the file or rerun with --fresh") from None  # fmt: skip
    return out


__all__ = [
    "Journal",
    "OneLineParser",
    "check_writable",
    "check_writable_dir",
    "partial_path",
    "read_journal",
]
