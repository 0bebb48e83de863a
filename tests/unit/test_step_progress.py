"""Progress of a report's steps (issue 20, failure 10): step, share, elapsed time and time
left, a line at least every 10 seconds and no more often, plain lines (fake clock)."""

from __future__ import annotations

import io
import itertools

import pytest

from cuarenta_sim import progress
from cuarenta_sim.progress import StepProgress, format_duration, listening, notify_work


class Clock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def _lines(out: io.StringIO) -> list[str]:
    return out.getvalue().splitlines()


def test_format_duration() -> None:
    assert [format_duration(s) for s in (0, 7.4, 59.6, 65, 3599, 3600, 7440)] == [
        "0 s", "7 s", "1 min 00 s", "1 min 05 s", "59 min 59 s", "1 h 00 min", "2 h 04 min",
    ]  # fmt: skip


def test_step_line_with_share_elapsed_and_time_left() -> None:
    clock, out = Clock(), io.StringIO()
    steps = StepProgress("report odds", total=4, stream=out, clock=clock)
    clock.now += 30
    steps("simulating quito, 2 players, solver (confirm)")
    assert _lines(out) == [
        "report odds: step 1/4 simulating quito, 2 players, solver (confirm), elapsed 30 s "
        "(step 0 s), 0% of the steps"
    ]
    steps.notify(0, 500, "datas")
    clock.now += 20
    steps.notify(200, 500, "datas")
    # 40% of the simulation in 20 s: 30 s left in it; 0.4 of 4 steps = 10% in 50 s: 7 min 30 s.
    assert _lines(out)[-1] == (
        "report odds: step 1/4 simulating quito, 2 players, solver (confirm): 40% of 500 "
        "datas, elapsed 50 s (step 20 s), about 30 s left in this simulation, 10% of the "
        "steps, about 7 min 30 s left overall at the pace so far"
    )
    steps.close()
    assert _lines(out)[-1] == "report odds: 1 step(s) in 50 s"
    assert all("\r" not in ln and "\x1b" not in ln for ln in _lines(out))


def test_a_line_at_least_every_10_seconds_and_no_more_often() -> None:
    """Chunks every 3 s of a long step: a line every 10-12 s; silence (no chunk) is still
    reported every 10 s by the heartbeat's tick."""
    clock, out = Clock(), io.StringIO()
    steps = StepProgress("report x", stream=out, clock=clock)
    steps("simulating cuenca, 4 players, solver (confirm)")
    start = clock.now
    printed = [clock.now]
    for k in range(1, 41):
        clock.now = start + 3 * k
        before = len(_lines(out))
        steps.notify(10 * k, 400, "chicas")
        if len(_lines(out)) > before:
            printed.append(clock.now)
    gaps = [b - a for a, b in itertools.pairwise(printed)]
    assert gaps and all(10 <= g <= 12 for g in gaps), gaps
    assert "step 1 simulating cuenca" in _lines(out)[-1]
    # A long silent stretch: tick() (called every second by the heartbeat thread).
    last = len(_lines(out))
    for _ in range(95):
        clock.now += 1
        steps.tick()
    assert len(_lines(out)) - last == 9  # one line per 10 s of silence
    assert "elapsed 3 min 30 s" in _lines(out)[-1]


def test_unknown_total_has_no_overall_estimate() -> None:
    clock, out = Clock(), io.StringIO()
    steps = StepProgress("report q", stream=out, clock=clock)
    clock.now += 60
    steps.notify(1, 2, "datas")  # before the first step: nothing printed
    steps.tick()
    assert out.getvalue() == ""
    steps("convergence")
    steps.notify(5, 10, "datas")
    clock.now += 10
    steps.notify(6, 10, "datas")
    line = _lines(out)[-1]
    assert line.startswith("report q: step 1 convergence: 60% of 10 datas, elapsed 1 min 10 s")
    assert "overall" not in line


def test_simulations_notify_the_listeners() -> None:
    seen: list[tuple[int, int, str]] = []
    notify_work(1, 2, "datas")  # nobody listens: nothing happens
    with listening(lambda *a: seen.append(a)):
        notify_work(3, 4, "chicas")
    notify_work(5, 6, "mesas")
    assert seen == [(3, 4, "chicas")]
    assert progress._LISTENERS == []


def test_weighted_steps_give_the_share_of_the_estimated_work() -> None:
    """A slow last step (a report's solver confirmation) counts from the start: after the
    first of two cheap steps, 1% of the work is done, not a third."""
    clock, out = Clock(), io.StringIO()
    steps = StepProgress("report q", total=3, stream=out, clock=clock, weights=[1, 1, 98])
    steps("simulating quito, 2 players, greedy")
    clock.now += 10
    steps("simulating cuenca, 2 players, greedy")
    steps.notify(50, 100, "datas")
    clock.now += 10
    steps.notify(100, 100, "datas")
    # 1.0 + 1.0 of 100 = 2% done: too little to extrapolate the time left overall.
    assert _lines(out)[-1].endswith("elapsed 20 s (step 10 s), 2% of the estimated work")
    steps("simulating quito, 2 players, solver (confirm)")
    steps.notify(10, 100, "datas")
    clock.now += 20
    steps.notify(20, 100, "datas")
    # 2 + 98 * 0.2 = 21.6% in 40 s: 40 * 78.4 / 21.6 = 145 s left overall; 80 s in this one.
    assert _lines(out)[-1].endswith(
        "about 1 min 20 s left in this simulation, 22% of the estimated work, about "
        "2 min 25 s left overall at the pace so far"
    )
    for bad in ([1, 1], [1, -1, 1], [0, 0, 0]):
        with pytest.raises(ValueError, match="non-negative step costs"):
            StepProgress("x", total=3, weights=bad)
