"""``strength_vs_cost.png``: the log axis of decision speeds gets non-overlapping tick labels
(issue 18: matplotlib labelled the minor ticks of a one- or two-decade axis too)."""

from __future__ import annotations

import itertools

import pandas as pd
import pytest

from cuarenta_sim.cuarenta.strategy_figures import log_ticks, sweep_figure


def test_log_ticks_are_few_and_spread() -> None:
    assert log_ticks(600, 80_000) == [1e3, 2e3, 5e3, 1e4, 2e4, 5e4]
    assert log_ticks(600, 200_000) == [1e3, 5e3, 1e4, 5e4, 1e5]
    assert log_ticks(1500, 9000) == [2000.0, 5000.0]
    for lo, hi in ((600, 80_000), (1, 1e9), (3, 7)):
        ticks = log_ticks(lo, hi)
        assert len(ticks) <= 6 and all(lo <= t <= hi for t in ticks)
        assert all(b / a >= 2 for a, b in itertools.pairwise(ticks))
    with pytest.raises(ValueError):
        log_ticks(0, 10)


def test_sweep_figure_labels_only_the_major_ticks() -> None:
    sweep = {
        "sweep": [
            {"policy": pol, "samples": s, "win_rate": 0.5, "lower": 0.45, "upper": 0.55,
             "pairs": 400}
            for pol in ("pimc", "solver") for s in (4, 128)
        ]
    }  # fmt: skip
    speeds = pd.DataFrame(
        [
            {"policy": "pimc", "samples": 4, "wall_mean": 46_000.0},
            {"policy": "pimc", "samples": 128, "wall_mean": 1_800.0},
            {"policy": "solver", "samples": 4, "wall_mean": 6_300.0},
            {"policy": "solver", "samples": 128, "wall_mean": 700.0},
        ]
    )
    fig = sweep_figure(sweep, speeds)
    ax = fig.axes[0]
    fig.canvas.draw()
    lo, hi = ax.get_xlim()
    major = [t for t in ax.get_xticklabels() if lo <= t.get_position()[0] <= hi]
    labels = [t.get_text() for t in major]
    assert labels and all(labels) and len(labels) <= 6
    assert all(t.get_text() == "" for t in ax.get_xticklabels(minor=True))
    # Neighbouring labels do not overlap on the rendered axis.
    boxes = sorted((t.get_window_extent() for t in major), key=lambda b: b.x0)
    assert all(a.x1 < b.x0 for a, b in itertools.pairwise(boxes))
