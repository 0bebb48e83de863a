"""The shared convergence helper (issue 13 item 9): running estimates, band, replicates."""

from __future__ import annotations

import numpy as np
import pytest
from matplotlib.figure import Figure

from cuarenta_sim import stats
from cuarenta_sim.studies.convergence import convergence_note, running_estimates


def test_running_mean_ends_at_the_full_sample_estimate() -> None:
    rng = np.random.default_rng(1)
    main, other = rng.normal(2.0, 1.0, 500), rng.normal(2.0, 1.0, 200)
    frame = running_estimates([main, other], "mean", points=12)
    assert set(frame["replicate"]) == {0, 1}
    last = frame[frame["replicate"] == 0].iloc[-1]
    full = stats.mean("x", main)
    assert last["n"] == 500
    assert (last["estimate"], last["lower"], last["upper"]) == pytest.approx(
        (full["estimate"], full["lower"], full["upper"])
    )
    assert last["method"] == "t"  # below 1,000 units
    widths = frame[frame["replicate"] == 0].eval("upper - lower").to_numpy()
    assert widths[-1] < widths[0]


def test_running_proportion_uses_wilson() -> None:
    frame = running_estimates([np.array([1, 0] * 50)], "proportion", points=5)
    last = frame.iloc[-1]
    assert last["estimate"] == pytest.approx(0.5) and last["method"] == "wilson"


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (([np.ones(3)], "median"), "kind must be one of"),
        (([],), "at least one replicate"),
        (([np.array([])],), "replicate 0 has no units"),
    ],
)
def test_bad_input(args: tuple, needle: str) -> None:
    with pytest.raises(ValueError, match=needle):
        running_estimates(*args)


def test_note_text_and_figure() -> None:
    rng = np.random.default_rng(2)
    text, fig, frame = convergence_note(
        [rng.normal(0.0, 1.0, 400), rng.normal(0.0, 1.0, 100), rng.normal(0.0, 1.0, 100)],
        what="edge",
        unit="datas",
        reference=0.0,
    )
    assert isinstance(fig, Figure)
    ax = fig.axes[0]
    assert len(ax.collections) == 1  # the band of the main run
    assert len(ax.lines) >= 3  # main run, two replicates (and the reference line)
    assert "400 datas" in text and "2 replicate runs" in text and "stats.required_n" in text
    assert frame["replicate"].nunique() == 3
