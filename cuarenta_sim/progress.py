"""Progress reports of long runs (simulate, report, tournament) on stderr.

:func:`progress_bar` returns a tqdm bar when stderr is a terminal, otherwise a
:class:`LineProgress` that prints a plain line (``simulate: 40% (400,000 of 1,000,000 datas)
12 s``) at most every :data:`INTERVAL_S` seconds and once at the end: log files and CI output
get whole lines, never ``\\r`` fragments.
"""

from __future__ import annotations

import sys
import time
from typing import Any, TextIO

#: Least seconds between two plain progress lines.
INTERVAL_S = 10.0


class LineProgress:
    """Plain-text progress: a line at most every ``interval`` seconds, and one at close.

    Parameters
    ----------
    total : int
        Units to do (> 0).
    unit : str
        Plural name of a unit, e.g. ``"datas"``.
    desc : str
        What is running, e.g. ``"simulate"``.
    stream : text file
        Where lines go (default ``sys.stderr``).
    interval : float
        Least seconds between lines.
    """

    def __init__(
        self,
        total: int,
        unit: str,
        desc: str = "progress",
        stream: TextIO | None = None,
        interval: float = INTERVAL_S,
    ) -> None:
        self.total = int(total)
        self.unit = unit
        self.desc = desc
        self.stream = stream if stream is not None else sys.stderr
        self.interval = interval
        self.n = 0
        self.t0 = time.monotonic()
        self.last = self.t0
        self.closed = False

    def update(self, k: int = 1) -> None:
        """Count ``k`` more units done; print a line if the interval has passed."""
        self.n += int(k)
        now = time.monotonic()
        if now - self.last >= self.interval:
            self.last = now
            self._line(now)

    def close(self) -> None:
        """Print the final line (once)."""
        if not self.closed:
            self.closed = True
            self._line(time.monotonic())

    def _line(self, now: float) -> None:
        share = 100 * self.n / self.total if self.total else 100.0
        print(
            f"{self.desc}: {share:.0f}% ({self.n:,} of {self.total:,} {self.unit}) "
            f"{now - self.t0:.0f} s",
            file=self.stream,
            flush=True,
        )


def progress_bar(total: int, unit: str, enabled: bool, desc: str | None = None) -> Any:
    """A progress reporter with ``update(k)`` and ``close()``, or None when disabled.

    Parameters
    ----------
    total : int
        Units to do.
    unit : str
        Plural name of a unit (``"datas"``, ``"hands"``, ``"games"``).
    enabled : bool
        False returns None (callers skip reporting).
    desc : str or None
        Label of the bar or lines (default ``"progress"``).

    Returns
    -------
    tqdm, LineProgress or None
        A tqdm bar on stderr when stderr is a terminal, else a :class:`LineProgress`.
    """
    if not enabled:
        return None
    if sys.stderr.isatty():
        from tqdm.auto import tqdm

        return tqdm(total=total, unit=unit, unit_scale=True, file=sys.stderr, desc=desc)
    return LineProgress(total, unit, desc or "progress")
