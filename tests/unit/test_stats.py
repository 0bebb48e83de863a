"""Interval statistics (cuarenta_sim.stats): Wilson, normal mean, ratio of sums, summaries."""

import math

import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

from cuarenta_sim import stats
from cuarenta_sim.cuarenta import summaries

Z95 = 1.959963984540054


def test_z_value_known_quantiles() -> None:
    assert stats.z_value(0.95) == pytest.approx(Z95, rel=1e-12)
    assert stats.z_value(0.99) == pytest.approx(2.5758293035489, rel=1e-12)
    assert stats.z_value(0.6826894921370859) == pytest.approx(1.0, rel=1e-9)


@pytest.mark.parametrize("confidence", [0.0, 1.0, 1.5, -0.1])
def test_z_value_rejects_levels_outside_the_open_unit_interval(confidence: float) -> None:
    with pytest.raises(ValueError, match="strictly between 0 and 1"):
        stats.z_value(confidence)


@pytest.mark.parametrize(
    ("k", "n", "lower", "upper"),
    [
        # Newcombe (1998), Statistics in Medicine 17:857, table I, method 3 (score interval).
        (81, 263, 0.2553, 0.3662),
        (15, 148, 0.0624, 0.1605),
        (0, 20, 0.0, 0.1611),
        (1, 29, 0.0061, 0.1718),
    ],
)
def test_wilson_published_values(k: int, n: int, lower: float, upper: float) -> None:
    p, lo, hi = stats.wilson_interval(k, n)
    assert float(p) == pytest.approx(k / n)
    assert float(lo) == pytest.approx(lower, abs=1e-4)
    assert float(hi) == pytest.approx(upper, abs=1e-4)


def test_wilson_at_zero_successes() -> None:
    row = stats.proportion("p", 0, 10)
    assert row["estimate"] == 0.0
    assert row["lower"] == pytest.approx(0.0, abs=1e-15)  # exact 0 up to rounding
    assert row["upper"] == pytest.approx(Z95**2 / (10 + Z95**2), rel=1e-12)
    assert row["defined"] and row["n"] == 10 and row["method"] == "wilson"


def test_wilson_at_all_successes() -> None:
    row = stats.proportion("p", 10, 10)
    assert row["estimate"] == 1.0 and row["upper"] == 1.0
    assert row["lower"] == pytest.approx(10 / (10 + Z95**2), rel=1e-12)
    assert row["defined"]


def test_wilson_with_no_trials_is_nan_and_undefined() -> None:
    row = stats.proportion("p", 0, 0)
    assert math.isnan(row["estimate"]) and math.isnan(row["lower"]) and math.isnan(row["upper"])
    assert row["defined"] is False and row["n"] == 0


def test_wilson_is_vectorised_and_mixes_empty_groups() -> None:
    p, lo, hi = stats.wilson_interval(np.array([0, 3, 0]), np.array([0, 4, 5]))
    assert math.isnan(p[0]) and math.isnan(lo[0]) and math.isnan(hi[0])
    assert p[1] == 0.75 and 0.0 < lo[1] < 0.75 < hi[1] < 1.0
    assert p[2] == 0.0 and lo[2] == pytest.approx(0.0, abs=1e-15) and hi[2] > 0.0


def test_wilson_narrows_with_higher_confidence_lower() -> None:
    _, lo90, hi90 = stats.wilson_interval(30, 100, confidence=0.90)
    _, lo99, hi99 = stats.wilson_interval(30, 100, confidence=0.99)
    assert lo99 < lo90 < 0.3 < hi90 < hi99


@pytest.mark.parametrize(("k", "n"), [(-1, 5), (6, 5), (0, -1)])
def test_wilson_rejects_impossible_counts(k: int, n: int) -> None:
    with pytest.raises(ValueError, match="successes <= trials"):
        stats.wilson_interval(k, n)


@given(st.integers(0, 10_000).flatmap(lambda n: st.tuples(st.integers(0, n), st.just(n))))
def test_wilson_brackets_the_estimate_inside_the_unit_interval(kn: tuple[int, int]) -> None:
    k, n = kn
    p, lo, hi = (float(x) for x in stats.wilson_interval(k, n))
    if n == 0:
        assert math.isnan(p) and math.isnan(lo) and math.isnan(hi)
    else:
        # Bounds may miss an exact 0 or 1 estimate by one rounding step.
        assert 0.0 <= lo <= p + 1e-15 and p - 1e-15 <= hi <= 1.0


def test_wilson_coverage_is_close_to_nominal() -> None:
    """Frequentist check: about 95% of intervals from binomial draws contain the true p."""
    rng = np.random.default_rng(2024)
    n, p_true = 60, 0.3
    k = rng.binomial(n, p_true, size=20_000)
    _, lo, hi = stats.wilson_interval(k, np.full_like(k, n))
    coverage = float(np.mean((lo <= p_true) & (p_true <= hi)))
    assert 0.93 < coverage < 0.97


def test_mean_known_values() -> None:
    row = stats.mean("m", [2.0, 4.0, 6.0, 8.0])
    sd = np.std([2, 4, 6, 8], ddof=1)
    assert row["estimate"] == 5.0
    # n = 4: Student t with 3 degrees of freedom (table value 3.182446305), not z.
    assert row["upper"] - 5.0 == pytest.approx(3.182446305 * sd / 2.0)
    assert 5.0 - row["lower"] == pytest.approx(3.182446305 * sd / 2.0)
    assert row["n"] == 4 and row["method"] == "t" and row["defined"]
    big = stats.mean("m", np.arange(2000.0) % 7)
    half = Z95 * np.std(np.arange(2000.0) % 7, ddof=1) / math.sqrt(2000)
    assert big["method"] == "normal" and big["upper"] - big["estimate"] == pytest.approx(half)


def test_mean_of_constant_values_is_flagged_never_zero_width() -> None:
    row = stats.mean("m", np.full(50, 3.0))
    assert row["estimate"] == 3.0 and row["no_variation"]
    assert math.isnan(row["lower"]) and math.isnan(row["upper"]) and not row["defined"]
    # With the range of a value known, the exact bound on the share of units that differ.
    bounded = stats.mean("m", np.zeros(50), value_range=(0.0, 1.0))
    assert bounded["lower"] == 0.0 and bounded["defined"]
    assert bounded["upper"] == pytest.approx(1.0 - 0.025 ** (1 / 50))


def test_mean_with_fewer_than_two_values_is_undefined() -> None:
    one = stats.mean("m", [7.0])
    assert one["estimate"] == 7.0 and math.isnan(one["lower"]) and not one["defined"]
    none = stats.mean("m", [])
    assert math.isnan(none["estimate"]) and none["n"] == 0 and not none["defined"]


def test_ratio_of_sums_and_delta_method_error() -> None:
    y = np.array([1.0, 0.0, 2.0, 1.0, 3.0])
    x = np.array([10.0, 12.0, 11.0, 9.0, 13.0])
    row = stats.ratio("r", y, x)
    r = y.sum() / x.sum()
    # Cluster-robust (delta-method) standard error of a ratio of sums, written out.
    se = math.sqrt(len(y) * np.sum((y - r * x) ** 2) / (len(y) - 1)) / x.sum()
    t4 = 2.776445105  # Student t, 4 degrees of freedom, 97.5% (5 units)
    assert row["estimate"] == pytest.approx(r)
    assert row["upper"] == pytest.approx(r + t4 * se)
    assert row["lower"] == pytest.approx(r - t4 * se)
    assert row["n"] == 5 and row["method"] == "ratio" and row["defined"]


def test_ratio_exactly_proportional_is_flagged_never_zero_width() -> None:
    x = np.array([10.0, 20.0, 30.0])
    row = stats.ratio("r", 0.25 * x, x)
    assert row["estimate"] == pytest.approx(0.25) and row["no_variation"]
    assert math.isnan(row["lower"]) and math.isnan(row["upper"]) and not row["defined"]


def test_zero_events_bound_carries_the_method_that_made_it() -> None:
    """0 events in 513 decks (the odds report's seen=4 row) is not a delta-method interval:
    the row names the exact Clopper-Pearson bound, 1 - 0.025^(1/513) = 0.717% (issue 18)."""
    hits, trials = np.zeros(513), np.ones(513)
    row = stats.ratio("seen=4", hits, trials, 0.95, (0.0, 1.0))
    assert row["no_variation"] and row["defined"]
    assert row["method"] == stats.NO_VARIATION_METHOD == "clopper-pearson bound"
    assert row["lower"] == 0.0 and row["upper"] == pytest.approx(1.0 - 0.025 ** (1 / 513))
    assert row["upper"] == pytest.approx(0.00717, abs=5e-6)
    mean_row = stats.mean("m", np.zeros(50), value_range=(0.0, 1.0))
    assert mean_row["method"] == stats.NO_VARIATION_METHOD
    # no bound without a range, and a varying sample keeps its own method
    assert stats.ratio("r", np.zeros(3), np.ones(3))["method"] == "ratio"
    assert stats.ratio("r", np.array([0.0, 1.0, 0.0]), np.ones(3))["method"] == "ratio"
    # a paired difference keeps its method (its interval is rescaled by the verdict layer)
    same = stats.diff_paired("d", np.zeros(40), np.zeros(40))
    assert same["method"] != stats.NO_VARIATION_METHOD


def test_methods_note_describes_the_no_variation_bound() -> None:
    from cuarenta_sim.studies import templates

    note = str(templates.macros("methods.md.j2").methods_note())
    assert f"`{stats.NO_VARIATION_METHOD}` =" in note and "1 - (alpha/2)^(1/n)" in note


def test_ratio_undefined_cases() -> None:
    zero = stats.ratio("r", [0.0, 0.0], [0.0, 0.0])
    assert math.isnan(zero["estimate"]) and not zero["defined"]
    single = stats.ratio("r", [1.0], [4.0])
    assert single["estimate"] == 0.25 and math.isnan(single["upper"]) and not single["defined"]


def _hands(rows: list[dict]) -> pd.DataFrame:
    base = {
        f"{name}_{k}": 0
        for k in (0, 1)
        for name in ("points", "cards", "rondas", "doble_rondas", "caidas", "limpias")
    }
    return pd.DataFrame([{**base, "dealer": 0, "plays": 40, **r} for r in rows])


def test_summarize_hands_rows_and_dealer_side() -> None:
    hands = _hands(
        [
            {"dealer": 0, "points_0": 6, "points_1": 2, "rondas_0": 1, "caidas_1": 2},
            {"dealer": 1, "points_0": 4, "points_1": 8, "limpias_0": 1},
            {"dealer": 3, "points_0": 0, "points_1": 2, "doble_rondas_1": 1},  # 4 players
            {"dealer": 2, "points_0": 2, "points_1": 0, "caidas_0": 1, "caidas_1": 1},
        ]
    )
    out = summaries.summarize_hands(hands)
    assert list(out.columns) == stats.ESTIMATE_COLUMNS
    by = out.set_index("metric")
    assert by.loc["points per data, dealer's side", "estimate"] == pytest.approx(
        (6 + 8 + 2 + 2) / 4
    )
    assert by.loc["points per data, non-dealer's side", "estimate"] == pytest.approx(
        (2 + 4 + 0 + 0) / 4
    )
    assert by.loc["dealer's advantage (points per data)", "estimate"] == pytest.approx(3.0)
    assert by.loc["P(a ronda is dealt in a data)", "estimate"] == pytest.approx(0.25)
    assert by.loc["P(a doble ronda is dealt in a data)", "method"] == "wilson"
    assert by.loc["caidas per data", "estimate"] == pytest.approx(1.0)
    assert by.loc["caidas per play", "estimate"] == pytest.approx(4 / 160)
    assert by.loc["limpias per play", "method"] == "ratio"
    assert (out["n"] == 4).all() and out["defined"].all()


def test_summarize_hands_of_an_empty_frame_is_undefined_not_an_error() -> None:
    out = summaries.summarize_hands(_hands([{}]).iloc[:0])
    assert len(out) == 9 and not out["defined"].any() and (out["n"] == 0).all()
