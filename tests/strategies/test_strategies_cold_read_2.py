"""Second cold read of the strategies report (issue 18, branch i18-fix2-sg): the cost sentence
names its chicas and interval method, the `random` sentence says its deal explanation is not
tested. Small synthetic inputs."""

from __future__ import annotations

from types import SimpleNamespace

import pandas as pd

from cuarenta_sim.cuarenta.strategy_claims import _cost_claim, ratings_without_claim
from cuarenta_sim.studies.claims import check_claims, render_claim


def _point(samples: int, w: float) -> dict:
    return {"policy": "solver", "samples": samples, "win_rate": w, "lower": w - 0.03,
            "upper": w + 0.03, "chicas": 800}  # fmt: skip


def test_cost_sentence_names_chicas_and_method() -> None:
    """Cold read: "`solver` wins 43.0% [39.9, 46.1] at 4 samples" had no n and no method."""
    sweep = {"sweep": [_point(4, 0.43), _point(128, 0.665)], "sweep_settings": {"players": 2}}
    speeds = pd.DataFrame(
        [{"policy": "solver", "samples": s, "wall_mean": r, "wall_min": r - 10,
          "wall_max": r + 10, "repeats": 3} for s, r in ((4, 11_233.0), (128, 1_066.0))]
    )  # fmt: skip
    claim = _cost_claim(sweep, speeds, 2)
    assert claim is not None
    check_claims([claim])
    text = render_claim(claim)
    assert "43.0% [40.0, 46.0] of 800 chicas at 4 samples" in text
    assert "66.5% [63.5, 69.5] of 800 chicas at 128" in text
    assert "clustered Wilson over duplicate pairs" in text


def test_random_deal_explanation_is_not_claimed_as_tested() -> None:
    """Cold read: "the few it wins follow the deal, not a strength" was never tested."""
    fit = SimpleNamespace(deviance=12.34, df=3, dispersion=1.0, p_value=0.0063, misfit=True)
    check = {
        "random_share": 0.76,
        "fit_without": fit,
        "kept": ["greedy", "heuristic"],
        "without": pd.DataFrame({"inflation": [2.03]}),
    }
    claim = ratings_without_claim(check, 2)
    assert claim is not None
    text = render_claim(claim)
    assert "follow the deal, not a strength" not in text
    assert "likely follow the deal rather than a strength (not tested here)" in text
