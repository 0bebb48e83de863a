"""Progress reports of long runs (simulate, report, tournament) on stderr.

:func:`progress_bar` returns a tqdm bar when stderr is a terminal, otherwise a
:class:`LineProgress` that prints a plain line (``simulate: 40% (400,000 of 1,000,000 datas)
12 s``) at most every :data:`INTERVAL_S` seconds and once at the end: log files and CI output
get whole lines, never ``\\r`` fragments.

Runs made of steps (a report, a tournament) use :class:`StepProgress`: each step's line gives
its number (of the total when known), the share done of the simulation running in it, the
elapsed time and an estimate of the time left, refreshed at least every :data:`INTERVAL_S`
seconds during a long step. The simulations inside a step tell it their progress through
:func:`notify_work` (called by :func:`cuarenta_sim.simulation.run_validated` after every
chunk) while a :func:`listening` block is open.
"""

from __future__ import annotations

import contextlib
import sys
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from typing import Any, TextIO

#: Least seconds between two plain progress lines.
INTERVAL_S = 10.0
#: Least share of a run done before its time left overall is extrapolated (earlier, start-up
#: costs dominate the pace).
MIN_SHARE_FOR_ESTIMATE = 0.05


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


# ---------------------------------------------------------------- work inside steps
#: Callbacks ``(done, total, unit)`` of the open :func:`listening` blocks.
_LISTENERS: list[Callable[[int, int, str], None]] = []


def notify_work(done: int, total: int, unit: str) -> None:
    """Tell the open :func:`listening` blocks that a simulation has done ``done`` of its
    ``total`` units (plural ``unit``, e.g. ``"chicas"``). Cheap when nobody listens."""
    for listener in list(_LISTENERS):
        listener(done, total, unit)


@contextlib.contextmanager
def listening(callback: Callable[[int, int, str], None]) -> Iterator[None]:
    """Within the block, ``callback(done, total, unit)`` receives :func:`notify_work`."""
    _LISTENERS.append(callback)
    try:
        yield
    finally:
        _LISTENERS.remove(callback)


def format_duration(seconds: float) -> str:
    """``"7 s"``, ``"3 min 05 s"`` or ``"2 h 04 min"`` (whole seconds, no control characters)."""
    s = max(0, round(seconds))
    if s < 60:
        return f"{s} s"
    if s < 3600:
        return f"{s // 60} min {s % 60:02d} s"
    return f"{s // 3600} h {s % 3600 // 60:02d} min"


class StepProgress:
    """Progress of a run made of steps: one plain line per step, and at least every
    ``interval`` seconds during a long one.

    A line reads (``total`` known, a simulation running in the step)::

        report odds: step 3/7 simulating quito, 2 players, solver (confirm): 40% of 500 datas,
        elapsed 2 min 10 s (step 45 s), about 1 min 08 s left in this simulation, 34% of the
        steps, about 4 min 12 s left overall at the pace so far

    The share is that of the simulation running in the step (units done of its total, from
    :func:`notify_work`); the time left in it is extrapolated from its rate. With ``total``
    known the overall share is ``(steps done + share) / total`` and the time left overall
    is extrapolated from it once :data:`MIN_SHARE_FOR_ESTIMATE` is done, as the line says
    ("at the pace so far": a rough figure when the
    steps left differ in size from those done, e.g. a report's slower confirmatory runs).
    With ``weights`` (each step's estimated relative cost) the overall share is that of the
    estimated work (``"of the estimated work"``): a slow step ahead counts from the start.

    Parameters
    ----------
    desc : str
        Prefix of every line, e.g. ``"report odds"``.
    total : int or None
        Number of steps, when known.
    stream : text file
        Where lines go (default ``sys.stderr``).
    interval : float
        Most seconds between two lines while a step runs (at least one line per step).
    clock : callable
        Seconds, monotonic (tests inject a fake clock).
    heartbeat : bool
        Run a daemon thread calling :meth:`tick` every second, so that a line comes every
        ``interval`` seconds even while no simulation reports (analysis, a long chunk).
    weights : sequence of float or None
        Estimated relative cost of each of the ``total`` steps (non-negative, some > 0).

    Raises
    ------
    ValueError
        ``weights`` whose length is not ``total``, or negative, or all zero.
    """

    def __init__(
        self,
        desc: str,
        total: int | None = None,
        stream: TextIO | None = None,
        interval: float = INTERVAL_S,
        clock: Callable[[], float] = time.monotonic,
        heartbeat: bool = False,
        weights: Sequence[float] | None = None,
    ) -> None:
        if weights is not None and (
            len(weights) != total or min(weights, default=0) < 0 or not sum(weights) > 0
        ):
            raise ValueError(
                f"weights must be {total} non-negative step costs, not all 0; got {weights!r}"
            )
        self.weights = None if weights is None else [float(w) for w in weights]
        self.desc = desc
        self.total = total
        self.stream = stream if stream is not None else sys.stderr
        self.interval = interval
        self.clock = clock
        self.t0 = clock()
        self.last = self.t0
        self.step = 0
        self.message = ""
        self.step_t0 = self.t0
        self.work: tuple[int, int, str] | None = None
        self.work_t0 = self.t0
        self.closed = False
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        if heartbeat:
            self._thread = threading.Thread(target=self._beat, daemon=True)
            self._thread.start()

    def __call__(self, message: str) -> None:
        """Start the next step, named ``message``, and print its line."""
        with self._lock:
            now = self.clock()
            self.step += 1
            self.message = message
            self.step_t0 = now
            self.work = None
            self._emit(now)

    def notify(self, done: int, total: int, unit: str) -> None:
        """A simulation of the current step has done ``done`` of ``total`` ``unit``; print a
        line if ``interval`` seconds have passed since the last one."""
        with self._lock:
            now = self.clock()
            if self.work is None or done < self.work[0] or total != self.work[1]:
                self.work_t0 = now  # a new simulation of the step
            self.work = (int(done), int(total), unit)
            if self.step and now - self.last >= self.interval:
                self._emit(now)

    def tick(self) -> None:
        """Print a line if ``interval`` seconds have passed since the last one."""
        with self._lock:
            now = self.clock()
            if not self.closed and self.step and now - self.last >= self.interval:
                self._emit(now)

    def close(self) -> None:
        """Stop the heartbeat and print the final line (once)."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join()
        with self._lock:
            if not self.closed:
                self.closed = True
                now = self.clock()
                steps = f"{self.step} step(s)" if self.step else "no step"
                self._print(now, f"{self.desc}: {steps} in {format_duration(now - self.t0)}")

    def line(self, now: float) -> str:
        """The progress line at time ``now`` (one line, no control characters)."""
        of = f"/{self.total}" if self.total else ""
        parts = [f"{self.desc}: step {self.step}{of} {self.message}".rstrip()]
        share = None
        if self.work is not None and self.work[1] > 0:
            done, total, unit = self.work
            share = min(1.0, done / total)
            parts[0] += f": {100 * share:.0f}% of {total:,} {unit}"
        times = [
            f"elapsed {format_duration(now - self.t0)} (step {format_duration(now - self.step_t0)})"
        ]
        if share is not None and 0 < share < 1:
            ran = now - self.work_t0
            times.append(
                f"about {format_duration(ran * (1 - share) / share)} left in this simulation"
            )
        if self.total:
            if self.weights is not None:
                done = sum(self.weights[: self.step - 1])
                if self.step <= len(self.weights):
                    done += self.weights[self.step - 1] * (share or 0.0)
                overall, what = min(1.0, done / sum(self.weights)), "of the estimated work"
            else:
                overall = min(1.0, (self.step - 1 + (share or 0.0)) / self.total)
                what = "of the steps"
            share_text = f"{100 * overall:.0f}% {what}"
            if MIN_SHARE_FOR_ESTIMATE <= overall < 1:
                left = (now - self.t0) * (1 - overall) / overall
                share_text += f", about {format_duration(left)} left overall at the pace so far"
            times.append(share_text)
        return ", ".join(parts + times)

    def _emit(self, now: float) -> None:
        self._print(now, self.line(now))

    def _print(self, now: float, text: str) -> None:
        self.last = now
        self.stream.write(text + "\n")
        self.stream.flush()

    def _beat(self) -> None:
        while not self._stop.wait(1.0):
            self.tick()
