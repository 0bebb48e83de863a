"""The strategies pair tables print, beside each Holm-adjusted verdict, the interval at the
level Holm tested the row (issue 18: they printed the marginal clustered Wilson interval,
which can exclude 50% on a row Holm leaves unresolved)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from cuarenta_sim.cuarenta.strategy_tables import MATCH_HEADERS, match_rows, pair_verdicts
from cuarenta_sim.cuarenta.tactics import pair_test
from cuarenta_sim.tournament import PAIR_COLUMNS


def _pairs(a_wins: list[float]) -> pd.DataFrame:
    a = np.array(a_wins, dtype=np.float64)
    n = len(a)
    return pd.DataFrame(
        {
            "game": np.arange(n),
            "a_wins": a,
            "games": np.full(n, 2),
            "a_points": (20 * a).astype(np.int64) + 5,
            "b_points": (20 * (2 - a)).astype(np.int64) + 5,
            "datas": np.full(n, 6),
        },
        columns=list(PAIR_COLUMNS),
    )


def _matches(n_matches: int) -> pd.DataFrame:
    rows = []
    for i in range(n_matches):
        # 115 pairs won twice, 85 lost twice, 800 split: p = 0.034 alone.
        t = pair_test(_pairs([2.0] * 115 + [0.0] * 85 + [1.0] * 800))
        w = 0.5 + t["effect"]
        rows.append(
            {"a": f"p{i}", "b": "q", "level": "chica", "pairs": 1000, "win_rate": w,
             "lower": w - 0.012, "upper": w + 0.012, "points_per_data": 0.5, "ppd_lower": 0.1,
             "ppd_upper": 0.9, **t}
        )  # fmt: skip
    return pd.DataFrame(rows)


def test_interval_beside_the_verdict_is_at_the_holm_level() -> None:
    m = pair_verdicts(_matches(5))
    # Each row alone would resolve (its marginal interval excludes 50%); Holm over 5 does not.
    assert (m["lower"] > 0.5).all() and (m["effect_lower"] > 0).all()
    assert (m["pair_verdict"] == "not resolved").all()
    assert (m["verdict_lower"] <= 0).all() and (m["test_level"] > 0.95).all()
    rows = match_rows(m)
    col = MATCH_HEADERS.index("a wins - 50%, pp [interval at the Holm level]")
    for row, (_, r) in zip(rows, m.iterrows(), strict=True):
        lo = float(row[col].split("[")[1].split(",")[0])
        assert lo <= 0 and lo == round(100 * r["verdict_lower"], 1)
        assert row[-1] == "not resolved"
    # Alone, the same match is resolved and its printed interval excludes 0.
    one = pair_verdicts(_matches(1))
    assert one["pair_verdict"].iloc[0] == "a better" and one["verdict_lower"].iloc[0] > 0
    assert "interval at the Holm level" in MATCH_HEADERS[col]
    assert "95%, clustered Wilson" in MATCH_HEADERS[3]
