"""No interval function of cuarenta_sim.stats returns a zero-width interval from a constant
sample: it flags ``no_variation`` and gives the exact no-variation bound, or no interval."""

import math

import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

from cuarenta_sim import stats

sizes = st.integers(min_value=2, max_value=300)
values = st.integers(min_value=-50, max_value=50).map(float)
levels = st.sampled_from([0.8, 0.9, 0.95, 0.99])


def _never_zero_width(row: dict) -> None:
    lo, hi = row["lower"], row["upper"]
    if row["defined"]:
        assert math.isfinite(lo) and math.isfinite(hi)
        assert lo < hi, row
    else:
        assert math.isnan(lo) and math.isnan(hi)


@given(sizes, values, levels)
def test_single_estimates_of_constant_samples(n: int, c: float, conf: float) -> None:
    x = np.full(n, c)
    row = stats.mean("m", x, conf)
    assert row["no_variation"] and row["estimate"] == c
    _never_zero_width(row)
    bounded = stats.mean("m", x, conf, value_range=(-50.0, 50.0) if c != 50 else (0.0, 50.0))
    _never_zero_width(bounded)
    assert bounded["defined"] and bounded["lower"] <= c <= bounded["upper"]
    ratio = stats.ratio("r", x * 0 + abs(c) + 1, np.arange(1, n + 1) * 0 + 2.0, conf)
    assert ratio["no_variation"]
    _never_zero_width(ratio)
    score = stats.clustered_proportion("s", np.full(n, 0.5 if c > 0 else 0.0), conf)
    assert score["no_variation"]
    _never_zero_width(score)


@given(sizes, st.booleans(), levels)
def test_proportions_at_zero_and_all(n: int, all_won: bool, conf: float) -> None:
    k = n if all_won else 0
    row = stats.proportion("p", k, n, conf)
    assert row["no_variation"]
    _never_zero_width(row)
    _, lo, hi = stats.wilson_interval(k, n, conf)
    assert lo < hi
    frame = stats.proportions(pd.DataFrame({"successes": [k], "n": [n]}), confidence=conf)
    assert frame["no_variation"].iloc[0] and frame["lower"].iloc[0] < frame["upper"].iloc[0]
    grouped = stats.grouped_proportions(
        pd.DataFrame({"g": ["a"] * n, "won": [int(all_won)] * n}), "g", "won", conf
    )
    assert grouped["no_variation"].iloc[0] and grouped["lower"].iloc[0] < grouped["upper"].iloc[0]
    diff = stats.diff_proportions("d", k, n, n - k, n, conf)
    assert diff["no_variation"]
    _never_zero_width(diff)


@given(sizes, values, levels)
def test_grouped_means_of_constant_groups(n: int, c: float, conf: float) -> None:
    frame = pd.DataFrame({"g": ["a"] * n + ["b"] * 3, "v": [c] * n + [1.0, 2.0, 4.0]})
    out = stats.grouped_means(frame, "g", "v", conf).set_index("g")
    assert out.loc["a", "no_variation"] and not out.loc["a", "defined"]
    assert math.isnan(out.loc["a", "lower"]) and math.isnan(out.loc["a", "upper"])
    assert not out.loc["b", "no_variation"] and out.loc["b", "lower"] < out.loc["b", "upper"]


@given(sizes, values, st.integers(0, 5).map(float), levels)
def test_paired_differences_of_constant_shifts(n: int, c: float, shift: float, conf: float) -> None:
    rng = np.random.default_rng(n)
    b = rng.integers(0, 40, n).astype(float) + c
    a = b + shift
    row = stats.diff_paired("d", a, b, conf)
    assert row["no_variation"] and row["estimate"] == shift
    _never_zero_width(row)
    # A constant non-zero shift in every pair: the exact sign test, 2^(1-n).
    assert row["p_value"] == (1.0 if shift == 0 else min(1.0, 2.0 ** (1 - n)))
    bounded = stats.diff_paired("d", a, b, conf, value_range=(-10.0, 10.0))
    _never_zero_width(bounded)
    assert bounded["defined"]
    welch = stats.diff_means("w", np.full(n, c + shift), np.full(n + 1, c), conf)
    assert welch["no_variation"]
    _never_zero_width(welch)
    den = rng.integers(1, 9, n).astype(float)
    ratio = stats.diff_paired_ratio("r", b, den, b, den, conf)
    assert ratio["no_variation"]
    _never_zero_width(ratio)
    rel = stats.rel_diff_paired("r", np.abs(b) + 1, np.abs(b) + 1, conf)
    assert rel["no_variation"]
    _never_zero_width(rel)


@given(sizes, st.integers(0, 1), levels)
def test_paired_binary_outcomes_without_discordant_pairs(n: int, won: int, conf: float) -> None:
    a = np.r_[np.full(n, won), 1 - won]
    row = stats.paired_verdict(a, a.copy(), confidence=conf)
    u = stats.no_variation_bound(a.size, conf)
    assert row["no_variation"] and (row["lower"], row["upper"]) == pytest.approx((-u, u))
    _never_zero_width(row)
    test = stats.discordant_test(0, 0, n=n, confidence=conf)
    assert test["lower"] < test["upper"] and test["p_value"] == 1.0


@given(st.lists(st.integers(-3, 3).map(float), min_size=2, max_size=60), levels)
def test_no_interval_function_returns_zero_width_on_any_sample(
    xs: list[float], conf: float
) -> None:
    x = np.array(xs)
    y = np.roll(x, 1)
    for row in (
        stats.mean("m", x, conf),
        stats.diff_paired("d", x, y, conf),
        stats.diff_means("w", x, y, conf),
        stats.ratio("r", np.abs(x), np.abs(y) + 1, conf),
        stats.rel_diff_paired("q", np.abs(x) + 1, np.abs(y) + 1, conf),
        stats.diff_paired_ratio("p", np.abs(x), np.abs(y) + 1, np.abs(y), np.abs(x) + 1, conf),
    ):
        _never_zero_width(row)


def test_no_variation_bound_is_the_exact_rule_of_three() -> None:
    assert stats.no_variation_bound(100) == pytest.approx(1 - 0.025**0.01)
    assert stats.no_variation_bound(1000) * 1000 == pytest.approx(3.69, abs=0.01)
    # The one-sided 95% "rule of three" 3/n is the 90% two-sided bound.
    assert stats.no_variation_bound(1000, 0.90) * 1000 == pytest.approx(3.0, abs=0.01)
    with pytest.raises(ValueError, match="n >= 1"):
        stats.no_variation_bound(0)
    with pytest.raises(ValueError, match="value_range"):
        stats.mean("m", np.full(5, 3.0), value_range=(4.0, 9.0))


@given(sizes, st.integers(0, 9), levels)
def test_streaming_aggregates_flag_constant_samples_as_the_records_do(
    n: int, c: int, conf: float
) -> None:
    from cuarenta_sim.cuarenta.aggregates import mean_from_sums, ratio_from_sums

    got = mean_from_sums("m", n, c * n, c * c * n, conf)
    want = stats.mean("m", np.full(n, float(c)), conf)
    assert got.keys() == want.keys() and got["no_variation"] and want["no_variation"]
    for key in ("n", "method", "defined"):
        assert got[key] == want[key]
    assert math.isnan(got["lower"]) and math.isnan(got["upper"]) and math.isnan(want["upper"])
    assert got["estimate"] == pytest.approx(want["estimate"])
    x = np.arange(1, n + 1)
    y = c * x
    r = ratio_from_sums(
        "r", n, int(y.sum()), int(x.sum()), int((y * y).sum()), int((x * x).sum()),
        int((x * y).sum()), conf,
    )  # fmt: skip
    assert r["no_variation"] and not r["defined"] and math.isnan(r["upper"])
    assert stats.ratio("r", y, x, conf)["no_variation"]
