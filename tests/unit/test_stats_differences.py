"""Differences with intervals and group-bys that keep empty groups (cuarenta_sim.stats)."""

import numpy as np
import pandas as pd
import pytest

from cuarenta_sim import stats


def test_paired_difference_of_identical_samples_is_zero_never_zero_width() -> None:
    x = np.random.default_rng(0).integers(0, 30, size=500)
    row = stats.diff_paired("self", x, x)
    assert row["estimate"] == 0.0 and row["no_variation"] and row["p_value"] == 1.0
    assert np.isnan(row["lower"]) and np.isnan(row["upper"]) and not row["defined"]
    assert row["method"] == "paired" and row["n"] == 500
    # 0/1 outcomes bound the difference of a pair by 1: the exact no-variation bound.
    won = np.arange(500) % 2
    bounded = stats.diff_paired("won", won, won)
    u = 1.0 - 0.025 ** (1 / 500)
    assert (bounded["lower"], bounded["upper"]) == pytest.approx((-u, u))
    assert bounded["defined"] and bounded["no_variation"]


def test_paired_difference_rejects_unequal_lengths() -> None:
    with pytest.raises(ValueError, match="equal length"):
        stats.diff_paired("x", [1, 2], [1])


def test_newcombe_hybrid_interval_reference_values() -> None:
    """Newcombe (1998), Statistics in Medicine 17:873, table II: 56/70 vs 48/80."""
    row = stats.diff_proportions("d", 56, 70, 48, 80)
    assert row["estimate"] == pytest.approx(0.2)
    assert row["lower"] == pytest.approx(0.0524, abs=1e-4)
    assert row["upper"] == pytest.approx(0.3339, abs=1e-4)
    edge = stats.diff_proportions("d", 0, 10, 10, 10)
    assert edge["estimate"] == -1.0 and edge["lower"] == pytest.approx(-1.0)
    assert -1.0 < edge["upper"] < -0.5
    empty = stats.diff_proportions("d", 0, 0, 1, 2)
    assert not empty["defined"] and np.isnan(empty["lower"])


def test_welch_difference() -> None:
    a = np.array([1.0, 2, 3, 4])
    b = np.array([2.0, 2, 2, 2, 2])
    row = stats.diff_means("d", a, b)
    assert row["estimate"] == pytest.approx(0.5)
    # b is constant: Welch-Satterthwaite df = 3, Student t 3.182446305 (table).
    assert row["upper"] - row["estimate"] == pytest.approx(3.182446305 * np.sqrt(a.var(ddof=1) / 4))
    assert not stats.diff_means("d", [1.0], b)["defined"]


def test_grouped_proportions_keep_zero_count_groups() -> None:
    frame = pd.DataFrame(
        {
            "rules": pd.Categorical(["quito", "quito", "quito"], categories=["quito", "cuenca"]),
            "won": [1, 0, 1],
        }
    )
    out = stats.grouped_proportions(frame, "rules", "won")
    assert list(out["rules"]) == ["quito", "cuenca"]
    quito, cuenca = out.iloc[0], out.iloc[1]
    assert (quito["successes"], quito["n"]) == (2, 3) and quito["defined"]
    assert cuenca["n"] == 0 and not cuenca["defined"] and np.isnan(cuenca["lower"])


def test_grouped_means_keep_zero_count_groups() -> None:
    frame = pd.DataFrame(
        {"side": pd.Categorical([0, 0, 0, 1], categories=[0, 1, 2]), "points": [2, 4, 6, 8]}
    )
    out = stats.grouped_means(frame, "side", "points")
    assert list(out["n"]) == [3, 1, 0]
    assert out.loc[0, "estimate"] == 4 and out.loc[0, "defined"]
    assert not out.loc[1, "defined"] and np.isnan(out.loc[1, "upper"])
    assert np.isnan(out.loc[2, "estimate"])


def test_wilson_at_the_edges() -> None:
    p, lo, hi = stats.wilson_interval(0, 50)
    assert p == 0 and lo == 0 and 0 < hi < 0.1
    p, lo, hi = stats.wilson_interval(50, 50)
    assert p == 1 and hi == 1 and 0.9 < lo < 1
    row = stats.proportion("empty", 0, 0)
    assert not row["defined"] and np.isnan(row["estimate"]) and np.isnan(row["upper"])
