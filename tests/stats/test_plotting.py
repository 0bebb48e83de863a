"""cuarenta_sim.plotting: every figure function draws on Axes (Agg backend), ax=None works."""

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest
from matplotlib.axes import Axes
from matplotlib.colors import to_rgba
from matplotlib.figure import Figure

from cuarenta_sim import plotting
from cuarenta_sim.cuarenta import analysis


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


def _est(**cols) -> pd.DataFrame:
    frame = pd.DataFrame(cols)
    frame["lower"] = frame["estimate"] - 0.1
    frame["upper"] = frame["estimate"] + 0.1
    frame["defined"] = True
    return frame


def test_points_by_source_groups_bars() -> None:
    frame = _est(
        source=["carton", "caida"] * 2,
        variant=["quito"] * 2 + ["cuenca"] * 2,
        estimate=[7.7, 9.1, 7.7, 9.1],
    )
    ax = Figure().subplots()
    assert plotting.points_by_source(frame, ax=ax) is ax
    assert len(ax.patches) == 4
    assert [t.get_text() for t in ax.get_xticklabels()] == ["carton", "caida"]
    assert ax.get_legend() is not None


def test_new_figure_when_ax_is_none() -> None:
    frame = _est(source=["carton"], variant=["quito"], estimate=[1.0])
    ax = plotting.points_by_source(frame)
    assert isinstance(ax, Axes) and ax.figure is not None


def test_length_distribution_with_zero_counts_and_undefined_rows() -> None:
    dist = analysis.length_distribution(np.array([1, 3, 3]))
    frame = pd.concat([dist.assign(variant="a"), dist.assign(variant="b")])
    ax = plotting.length_distribution(frame, ax=Figure().subplots())
    assert len(ax.patches) == 6
    empty = analysis.length_distribution(np.array([], dtype=int), max_length=2)
    ax = plotting.length_distribution(empty.assign(variant="a"), ax=Figure().subplots())
    assert len(ax.patches) == 2


def test_score_heatmap_leaves_empty_states_blank() -> None:
    grid = pd.DataFrame(
        {
            "own_score": pd.Categorical([0, 0, 2, 2]),
            "opponent_score": pd.Categorical([0, 2, 0, 2]),
            "estimate": [0.5, np.nan, 0.7, 0.4],
        }
    )
    fig = Figure()
    ax = plotting.score_heatmap(grid, ax=fig.subplots())
    data = ax.images[0].get_array()
    assert data.shape == (2, 2) and bool(data.mask[0, 1]) and int(data.mask.sum()) == 1
    assert len(fig.axes) == 2  # the colour bar


def test_tornado_sorts_by_absolute_effect_and_pales_unresolved_bars() -> None:
    frame = pd.DataFrame(
        {
            "variant": ["small", "big", "unclear"],
            "estimate": [0.1, -0.5, 0.2],
            "lower": [0.05, -0.6, -0.1],
            "upper": [0.15, -0.4, 0.5],
            "defined": True,
            "verdict": ["resolved", "resolved", "not resolved"],
        }
    )
    ax = plotting.tornado(frame, ax=Figure().subplots())
    labels = [t.get_text() for t in ax.get_yticklabels()]
    assert labels == ["small", "unclear", "big"]  # largest at the top
    colors = [p.get_facecolor() for p in ax.patches]
    assert colors[1] == to_rgba("lightgray")


def test_exact_vs_simulated_plots_relative_deviation() -> None:
    frame = pd.DataFrame(
        {
            "label": ["a", "b"],
            "exact": [0.2, 0.5],
            "estimate": [0.21, 0.5],
            "lower": [0.2, 0.49],
            "upper": [0.22, 0.51],
            "defined": [True, True],
        }
    )
    ax = plotting.exact_vs_simulated(frame, ax=Figure().subplots())
    x = ax.lines[0].get_xdata()
    assert x[0] == pytest.approx(5.0) and x[1] == pytest.approx(0.0)


def test_no_function_calls_show(monkeypatch: pytest.MonkeyPatch) -> None:
    def fail(*args, **kwargs):
        raise AssertionError("plt.show() called")

    monkeypatch.setattr(plt, "show", fail)
    frame = _est(source=["carton"], variant=["quito"], estimate=[1.0])
    plotting.points_by_source(frame)
    plotting.tornado(_est(variant=["x"], estimate=[1.0]))


def test_tornado_marks_cannot_act_and_has_a_legend_for_every_colour() -> None:
    """Issue 18 item 10: no zero bar for a flip that cannot act; grey = not resolved in the
    legend; possibly negligible hatched."""
    frame = pd.DataFrame(
        {
            "flip": ["a", "b", "c", "d", "e"],
            "estimate": [1.0, -0.5, 0.0, 0.2, 0.05],
            "lower": [0.5, -0.8, -0.1, -0.1, 0.01],
            "upper": [1.5, -0.2, 0.1, 0.5, 0.09],
            "verdict": ["resolved", "resolved", "identical", "not resolved",
                        "resolved, possibly negligible"],
            "cannot_act": [False, False, True, False, False],
        }
    )  # fmt: skip
    ax = plotting.tornado(frame, label="flip")
    assert [t.get_text().strip() for t in ax.texts] == ["cannot act"]
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    assert "not resolved / too small to tell" in labels
    assert "resolved, possibly negligible" in labels
    assert "no difference (inside the margin)" in labels
    widths = {p.get_y(): p.get_width() for p in ax.patches if hasattr(p, "get_width")}
    assert 0.0 in widths.values()  # the cannot-act row has no bar
    plt.close(ax.figure)
