"""Progress on stderr for long runs: a tqdm bar on a terminal, plain lines in a log.

:func:`progress_bar` is the one progress display of the package (``simulate``, the report
studies, tournaments). On a terminal it is a tqdm bar; when stderr is a file or a pipe (CI
logs, ``nohup``, ``2> run.log``) it prints a plain line at most every :data:`PLAIN_INTERVAL_S`
seconds, one at the start and one at the end, e.g.
``simulate: 40% (400,000 of 1,000,000 datas) 12 s``: no carriage-return fragments in the log.
"""

from __future__ import annotations

import sys
import time
from typing import Any, Protocol, TextIO

#: Seconds between two plain progress lines (stderr not a terminal).
PLAIN_INTERVAL_S = 10.0


class Progress(Protocol):
    """What :func:`progress_bar` returns."""

    def update(self, k: int = 1) -> None:
        """Count ``k`` more units done."""

    def close(self) -> None:
        """Finish the display (the plain form prints its last line)."""


class _PlainLines:
    """Plain periodic lines for a log: never a ``\\r``, at most one line per ``interval``."""

    def __init__(
        self, total: int | None, unit: str, desc: str, stream: TextIO, interval: float
    ) -> None:
        self.total, self.unit, self.desc = total, unit, desc
        self.stream, self.interval = stream, interval
        self.done = 0
        self.start = time.monotonic()
        self.last = self.start
        self.closed = False
        # A first line at once: a log shows the run started and how big it is.
        self._emit()

    def _line(self) -> str:
        seconds = time.monotonic() - self.start
        if self.total:
            share = 100 * self.done / self.total
            counted = f"{share:.0f}% ({self.done:,} of {self.total:,} {self.unit})"
        else:
            counted = f"{self.done:,} {self.unit}"
        return f"{self.desc}: {counted} {seconds:.0f} s"

    def _emit(self) -> None:
        self.stream.write(self._line() + "\n")
        self.stream.flush()

    def update(self, k: int = 1) -> None:
        """Count ``k`` more units; print a line if :data:`interval` seconds have passed."""
        self.done += int(k)
        now = time.monotonic()
        if now - self.last >= self.interval:
            self.last = now
            self._emit()

    def close(self) -> None:
        """Print the final line once."""
        if not self.closed:
            self._emit()
        self.closed = True


class _Bar:
    """A tqdm bar on a terminal."""

    def __init__(self, total: int | None, unit: str, desc: str, stream: TextIO) -> None:
        from tqdm import tqdm

        self._bar: Any = tqdm(
            total=total, unit=f" {unit}", unit_scale=True, desc=desc, file=stream, leave=True
        )

    def update(self, k: int = 1) -> None:
        """Advance the bar by ``k``."""
        self._bar.update(k)

    def close(self) -> None:
        """Close the bar (its last state stays on screen)."""
        self._bar.close()


def progress_bar(
    total: int | None,
    unit: str,
    enabled: bool,
    desc: str | None = None,
    *,
    stream: TextIO | None = None,
    interval: float | None = None,
) -> Progress | None:
    """A progress display on stderr: a tqdm bar on a terminal, plain periodic lines otherwise.

    Parameters
    ----------
    total : int or None
        Units expected (``None``: unknown, the display counts without a percentage).
    unit : str
        Plural name of one unit, e.g. ``"datas"``, ``"matches"``.
    enabled : bool
        False returns None (callers skip reporting).
    desc : str, optional
        Label at the start of the bar or line; default ``"progress"``.
    stream : text file, optional
        Where to write; default ``sys.stderr`` (looked up at call time).
    interval : float, optional
        Seconds between plain lines; default :data:`PLAIN_INTERVAL_S`.

    Returns
    -------
    Progress or None
        An object with ``update(k)`` and ``close()``; None when not ``enabled``.
    """
    if not enabled:
        return None
    out = sys.stderr if stream is None else stream
    label = desc or "progress"
    isatty = getattr(out, "isatty", None)
    if isatty is not None and isatty():
        return _Bar(total, unit, label, out)
    return _PlainLines(total, unit, label, out, PLAIN_INTERVAL_S if interval is None else interval)
