"""The ratings figure draws the intervals the ratings table prints (cold read: the text said
the intervals were widened x5.15 while `ratings_2p.png` drew the unwidened bootstrap)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from cuarenta_sim.cuarenta.strategy_figures import ratings_figure


def _whiskers(fig) -> np.ndarray:
    ax = fig.axes[0]
    segments = [seg for c in ax.collections for seg in c.get_segments()]
    return np.array(sorted((float(s[0][0]), float(s[1][0])) for s in segments))


def test_ratings_figure_draws_the_widened_intervals_of_the_table() -> None:
    rating = pd.DataFrame(
        {
            "policy": ["solver", "greedy"],
            "rating": [300.0, -100.0],
            "lower": [290.0, -110.0],
            "upper": [310.0, -90.0],
        }
    )
    plain = ratings_figure(rating, 2, misfit=False)
    assert np.allclose(_whiskers(plain), [[-110, -90], [290, 310]])
    widened = rating.assign(
        lower_inflated=[250.0, -150.0], upper_inflated=[350.0, -50.0], inflation=[5.0, 5.0]
    )
    fig = ratings_figure(widened, 2, misfit=True)
    assert np.allclose(_whiskers(fig), [[-150, -50], [250, 350]])
    assert "widened x5.00 by the misfit" in fig.axes[0].get_xlabel()
    assert "MISFIT" in fig.axes[0].get_title()
