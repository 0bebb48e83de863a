"""cuarenta_sim.stats: frames of proportions, paired ratios, relative differences, verdicts."""

import math

import numpy as np
import pandas as pd
import pytest

from cuarenta_sim import stats

Z95 = 1.959963984540054


def test_proportions_frame_at_zero_all_and_no_trials() -> None:
    counts = pd.DataFrame(
        {"case": ["0/N", "N/N", "N=0", "mid"], "successes": [0, 25, 0, 5], "n": [25, 25, 0, 20]}
    )
    out = stats.proportions(counts)
    assert list(out.columns) == [
        "case",
        "successes",
        "n",
        "estimate",
        "lower",
        "upper",
        "method",
        "defined",
        "no_variation",
    ]
    assert list(out["no_variation"]) == [True, True, False, False]
    zero, full, empty, mid = (out.iloc[i] for i in range(4))
    assert zero["estimate"] == 0.0 and zero["lower"] == pytest.approx(0.0, abs=1e-15)
    assert zero["upper"] == pytest.approx(Z95**2 / (25 + Z95**2))
    assert full["estimate"] == 1.0 and full["upper"] == 1.0
    assert full["lower"] == pytest.approx(25 / (25 + Z95**2))
    assert math.isnan(empty["estimate"]) and math.isnan(empty["lower"])
    assert math.isnan(empty["upper"]) and not empty["defined"]
    assert zero["defined"] and full["defined"] and mid["defined"]
    assert mid["lower"] < 0.25 < mid["upper"]
    assert (out["method"] == "wilson").all()
    # The input frame is not modified.
    assert list(counts.columns) == ["case", "successes", "n"]


def test_proportions_frame_rejects_impossible_counts() -> None:
    with pytest.raises(ValueError, match="successes <= trials"):
        stats.proportions(pd.DataFrame({"successes": [3], "n": [2]}))


def test_paired_ratio_of_identical_samples_is_zero_without_a_zero_width_interval() -> None:
    rng = np.random.default_rng(1)
    y = rng.integers(0, 9, 400)
    x = rng.integers(30, 41, 400)
    row = stats.diff_paired_ratio("self", y, x, y, x)
    assert row["estimate"] == 0.0 and row["no_variation"] and row["p_value"] == 1.0
    # No variation observed: no interval at all rather than [0, 0].
    assert math.isnan(row["lower"]) and math.isnan(row["upper"]) and not row["defined"]
    assert row["method"] == "paired ratio" and row["n"] == 400


def test_paired_ratio_matches_the_delta_method_written_out() -> None:
    ya = np.array([3.0, 5, 2, 6, 4, 1])
    yb = np.array([2.0, 5, 1, 4, 4, 0])
    x = np.full(6, 40.0)
    row = stats.diff_paired_ratio("d", ya, x, yb, x)
    ra, rb = ya.sum() / x.sum(), yb.sum() / x.sum()
    # With equal constant denominators the paired ratio difference is a paired mean / 40.
    z = (ya - yb) / 40.0
    # n = 6 pairs: Student t with 5 degrees of freedom (table value), not the normal 1.96.
    half = 2.570581836 * z.std(ddof=1) / math.sqrt(6)
    assert row["estimate"] == pytest.approx(ra - rb)
    assert row["upper"] - row["estimate"] == pytest.approx(half)
    assert row["estimate"] - row["lower"] == pytest.approx(half)


def test_paired_ratio_undefined_and_errors() -> None:
    assert not stats.diff_paired_ratio("d", [1.0], [2.0], [1.0], [2.0])["defined"]
    zero = stats.diff_paired_ratio("d", [1.0, 2.0], [0.0, 0.0], [1.0, 1.0], [1.0, 1.0])
    assert not zero["defined"] and math.isnan(zero["estimate"])
    with pytest.raises(ValueError, match="equal length"):
        stats.diff_paired_ratio("d", [1.0, 2.0], [1.0], [1.0], [1.0])


def test_relative_difference_identical_known_and_undefined() -> None:
    a = np.array([3.0, 2, 4, 3, 5, 3])
    same = stats.rel_diff_paired("r", a, a)
    assert same["estimate"] == 0.0 and same["no_variation"] and same["p_value"] == 1.0
    assert math.isnan(same["lower"]) and math.isnan(same["upper"]) and not same["defined"]
    assert same["method"] == "paired log-ratio"
    b = 2.0 * a
    row = stats.rel_diff_paired("r", b, a)
    # b is exactly twice a: +100% with no variation to estimate an error from (no interval),
    # and every one of the 6 pairs in the same direction: exact sign test p = 2 / 2^6.
    assert row["estimate"] == pytest.approx(1.0) and row["no_variation"]
    assert math.isnan(row["lower"]) and math.isnan(row["upper"])
    assert row["p_value"] == pytest.approx(2.0 / 2**6)
    noisy = stats.rel_diff_paired("r", a + np.array([1.0, 0, 0, 1, 0, 0]), a)
    assert noisy["estimate"] == pytest.approx(2 / 20)
    assert noisy["lower"] < noisy["estimate"] < noisy["upper"]
    assert not stats.rel_diff_paired("r", [0.0, 0.0], [1.0, 2.0])["defined"]
    with pytest.raises(ValueError, match="equal length"):
        stats.rel_diff_paired("r", [1.0, 2.0], [1.0])


def test_relative_difference_of_ratios_uses_the_denominators() -> None:
    num = np.array([2.0, 4, 3, 5])
    den = np.array([10.0, 20, 10, 20])
    row = stats.rel_diff_paired("r", num, num, den_a=den, den_b=2 * den)
    assert row["estimate"] == pytest.approx(1.0)  # same numerators over half the denominators


def test_verdicts() -> None:
    frame = pd.DataFrame(
        {
            "estimate": [0.5, 0.0, 0.1, -0.3, np.nan, 0.0],
            "lower": [0.2, 0.0, -0.1, -0.5, np.nan, -0.1],
            "upper": [0.8, 0.0, 0.3, -0.1, np.nan, 0.1],
            "defined": [True, True, True, True, False, True],
        }
    )
    assert list(stats.verdicts(frame)) == [
        "resolved",
        "identical",
        "not resolved",
        "resolved",
        "undefined",
        "not resolved",
    ]
    assert set(stats.verdicts(frame)) <= set(stats.VERDICTS)
