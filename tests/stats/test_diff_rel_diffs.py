"""``stats.diff_rel_diffs_paired``: a difference of two paired relative differences (issue 12,
the learned-as-a-proxy target: Quito-to-Cuenca change under one player model minus another)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from cuarenta_sim import stats


def _lengths(rng: np.random.Generator, n: int, shrink: float) -> tuple[np.ndarray, np.ndarray]:
    base = rng.poisson(9.0, n).astype(float) + 1.0
    variant = np.maximum(1.0, np.round(base * shrink + rng.normal(0.0, 1.0, n)))
    return variant, base


def test_estimate_is_the_difference_of_the_two_relative_differences() -> None:
    rng = np.random.default_rng(1)
    a1, b1 = _lengths(rng, 500, 0.94)
    a2, b2 = _lengths(rng, 500, 0.91)
    row = stats.diff_rel_diffs_paired("x", a1, b1, a2, b2)
    r1 = stats.rel_diff_paired("r1", a1, b1)["estimate"]
    r2 = stats.rel_diff_paired("r2", a2, b2)["estimate"]
    assert row["estimate"] == pytest.approx(r1 - r2, abs=1e-12)
    assert row["method"] == "paired delta" and row["defined"]
    assert row["lower"] < row["estimate"] < row["upper"]


def test_independent_measurements_add_variances() -> None:
    # With independent samples the half-width is that of the two intervals in quadrature.
    rng = np.random.default_rng(2)
    a1, b1 = _lengths(rng, 4000, 0.94)
    a2, b2 = _lengths(rng, 4000, 0.94)
    row = stats.diff_rel_diffs_paired("x", a1, b1, a2, b2)
    h1 = [stats.rel_diff_paired("r", a, b) for a, b in ((a1, b1), (a2, b2))]
    # rel_diff_paired's interval is on the log scale: its half-width there is log-based.
    halves = [
        (math.log1p(h["upper"]) - math.log1p(h["lower"])) / 2 * (1 + h["estimate"]) for h in h1
    ]
    expected = math.hypot(*halves)
    assert (row["upper"] - row["lower"]) / 2 == pytest.approx(expected, rel=0.05)


def test_identical_measurements_have_no_variation_not_zero_width() -> None:
    rng = np.random.default_rng(3)
    a, b = _lengths(rng, 300, 0.9)
    row = stats.diff_rel_diffs_paired("x", a, b, a, b)
    assert row["estimate"] == 0.0
    assert row["no_variation"] and not row["defined"]
    assert math.isnan(row["lower"]) and math.isnan(row["upper"])


def test_coverage_near_nominal() -> None:
    # 300 seeded replicates of a true difference of 0: the 95% interval covers 0 in 90-99%.
    rng = np.random.default_rng(4)
    covered = 0
    reps = 300
    for _ in range(reps):
        a1, b1 = _lengths(rng, 400, 0.93)
        a2, b2 = _lengths(rng, 400, 0.93)
        row = stats.diff_rel_diffs_paired("x", a1, b1, a2, b2)
        covered += row["lower"] <= 0.0 <= row["upper"]
    assert 0.90 <= covered / reps <= 0.99


def test_unequal_lengths_raise_one_line() -> None:
    with pytest.raises(ValueError, match="equal length"):
        stats.diff_rel_diffs_paired("x", [1.0, 2.0], [1.0, 2.0], [1.0], [1.0])
