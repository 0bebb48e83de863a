"""cuarenta_sim.progress: plain lines off a terminal, at most one per interval, never \\r."""

from __future__ import annotations

import io

import pytest

from cuarenta_sim import progress


def test_line_progress_prints_whole_lines(monkeypatch: pytest.MonkeyPatch) -> None:
    clock = iter([0.0, 1.0, 12.0, 13.0, 30.0])
    monkeypatch.setattr(progress.time, "monotonic", lambda: next(clock))
    out = io.StringIO()
    bar = progress.LineProgress(1_000_000, "datas", "simulate", stream=out, interval=10.0)
    bar.update(100_000)  # t=1: too soon, nothing printed
    bar.update(300_000)  # t=12: a line
    bar.update(600_000)  # t=13: too soon again
    bar.close()  # t=30: the final line
    bar.close()  # only once
    assert out.getvalue() == (
        "simulate: 40% (400,000 of 1,000,000 datas) 12 s\n"
        "simulate: 100% (1,000,000 of 1,000,000 datas) 30 s\n"
    )
    assert "\r" not in out.getvalue()


def test_progress_bar_off_a_terminal_and_disabled(monkeypatch: pytest.MonkeyPatch) -> None:
    assert progress.progress_bar(10, "hands", False) is None
    monkeypatch.setattr(progress.sys.stderr, "isatty", lambda: False)
    bar = progress.progress_bar(10, "hands", True, desc="report")
    assert isinstance(bar, progress.LineProgress) and bar.desc == "report"
