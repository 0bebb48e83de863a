"""Printed intervals agree with their verdicts (issue 18 item 2, finding 1).

Verdicts are Holm-adjusted; the interval printed beside each one is at the level Holm tested
its row, so "resolved" holds exactly when the printed interval excludes 0. Paired 0/1
outcomes get the exact interval that inverts McNemar's exact test.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cuarenta_sim import stats
from cuarenta_sim.distributions import sign_test_p
from cuarenta_sim.verdict_intervals import conditional_exact_interval, interval_at, step_levels


def _excludes(lo: float, hi: float) -> bool:
    return lo > 0.0 or hi < 0.0


# --------------------------------------------------------------------------- exact duality
def test_conditional_exact_interval_is_dual_to_mcnemar_exact_on_many_random_cases() -> None:
    rng = np.random.default_rng(18)
    checked = 0
    for _ in range(1500):
        d = int(rng.integers(1, 100))
        n_pos = int(rng.integers(0, d + 1))
        n = d + int(rng.integers(0, 5000))
        conf = float(rng.choice([0.95, 0.99, 1 - 0.05 / 7, 1 - 0.05 / 30, 0.9]))
        lo, hi = conditional_exact_interval(n_pos, d - n_pos, n, conf)
        p = sign_test_p(n_pos, d)
        if abs(p - (1 - conf)) < 1e-9:
            continue  # exactly on the boundary: neither side is wrong
        assert _excludes(lo, hi) == (p < 1 - conf), (n_pos, d, n, conf, p, lo, hi)
        assert lo < hi
        assert lo <= (n_pos - (d - n_pos)) / n <= hi
        checked += 1
    assert checked > 1400


def test_exact_paired_row_reads_the_same_from_interval_and_p() -> None:
    # 6 of 6 discordant pairs one way: exact p = 0.031 < 0.05, so the interval excludes 0.
    t = stats.discordant_test(6, 0, n=500)
    assert t["p_value"] == pytest.approx(0.03125)
    assert t["lower"] > 0
    # 5 of 5: p = 0.0625, the interval reaches 0.
    t = stats.discordant_test(5, 0, n=500)
    assert t["lower"] <= 0 < t["upper"]


# --------------------------------------------------------------------------- Holm levels
def test_holm_levels_are_the_step_down_levels() -> None:
    p = np.array([0.001, 0.04, 0.012, 0.3])
    adj = stats.holm(p)
    alpha = step_levels(p, adj, "holm", 0.05)
    # sorted: 0.001 (rank 1, rejected at .05/4), 0.012 (rank 2, rejected at .05/3),
    # 0.04 (rank 3: 2 x 0.04 = 0.08, stops) and 0.3: both at .05/(4-2).
    assert alpha == pytest.approx([0.05 / 4, 0.05 / 2, 0.05 / 3, 0.05 / 2])


def test_the_issue_example_prints_an_interval_that_contains_zero() -> None:
    # heuristic 4p P(side dealing first wins): 0.82 pp [0.08, 1.55] marginal, p about 0.03,
    # in a family of 11 metrics the others resolved or not: Holm does not reject it, and
    # the printed interval must then contain 0.
    est = [0.0082] + [0.5] * 9 + [0.001]
    lo = [0.0008] + [0.45] * 9 + [-0.01]
    hi = [0.0155] + [0.55] * 9 + [0.012]
    frame = pd.DataFrame({"estimate": est, "lower": lo, "upper": hi, "n": 6250,
                          "method": "paired", "defined": True})  # fmt: skip
    out = stats.with_verdicts(frame)
    row = out.iloc[0]
    assert row["verdict"] == "not resolved"
    assert row["lower"] < 0 < row["upper"]
    assert row["lower_marginal"] == pytest.approx(0.0008)
    assert (out["verdict"].iloc[1:10] == "resolved").all()


# --------------------------------------------------------------------------- property
_methods = st.sampled_from(["paired", "paired ratio", "normal", "wilson", "paired exact"])


@st.composite
def _frames(draw: st.DrawFn) -> pd.DataFrame:
    m = draw(st.integers(1, 12))
    rows = []
    for i in range(m):
        method = draw(_methods)
        n = draw(st.sampled_from([30, 400, 999, 1000, 25_000]))
        if method == "paired exact":
            d = draw(st.integers(0, 99))
            pos = draw(st.integers(0, d))
            nn = max(n, d, 1)
            t = stats.discordant_test(pos, d - pos, n=nn)
            rows.append({"estimate": t["difference"], "lower": t["lower"], "upper": t["upper"],
                         "n": nn, "method": method, "defined": True, "no_variation": d == 0,
                         "p_value": t["p_value"], "n_pos": pos, "n_neg": d - pos})  # fmt: skip
            continue
        est = draw(st.floats(-1, 1, allow_nan=False))
        se = draw(st.floats(1e-4, 1))
        c = stats.critical_value(0.95, n) if method != "wilson" else 1.959963984540054
        p = stats.p_value_of_zero(est, se, n - 1) if method != "wilson" else math.nan
        guard = draw(st.booleans()) and method == "paired"
        if guard and math.isfinite(p):
            p = max(p, draw(st.floats(0, 1)))  # an exact sign test guarding the mean
        rows.append({"estimate": est, "lower": est - c * se, "upper": est + c * se, "n": n,
                     "method": method, "defined": True, "no_variation": False, "p_value": p,
                     "n_pos": math.nan, "n_neg": math.nan})  # fmt: skip
        rows[-1]["family"] = i % 3
    frame = pd.DataFrame(rows)
    frame["family"] = [i % 3 for i in range(m)]
    frame["margin"] = draw(st.sampled_from([0.0, 0.01, 0.2]))
    frame["detectable"] = draw(st.sampled_from([0.05, 0.5, math.inf]))
    return frame


@settings(max_examples=150, deadline=None)
@given(frame=_frames(), method=st.sampled_from(["holm", "bh", "none"]))
def test_every_verdict_agrees_with_its_printed_interval(frame: pd.DataFrame, method: str) -> None:
    out = stats.with_verdicts(frame, family="family", margin="margin", method=method,
                              detectable="detectable")  # fmt: skip
    for _, r in out.iterrows():
        v = r["verdict"]
        if v in ("identical", "undefined"):
            continue
        excl = _excludes(r["lower"], r["upper"])
        if v == "negligible":
            # Inside the margin: "no difference" whatever the sign (the margin logic).
            assert -r["margin"] <= r["lower"] and r["upper"] <= r["margin"]
            continue
        assert v.startswith("resolved") == excl, r.to_dict()
        if v == "resolved":
            assert r["lower"] > r["margin"] or r["upper"] < -r["margin"]
        if v == "resolved, possibly negligible":
            assert not (r["lower"] > r["margin"] or r["upper"] < -r["margin"])
        if v == "too small to tell":
            half = (r["upper_marginal"] - r["lower_marginal"]) / 2
            assert half > r["detectable"]
        # The printed interval always contains the marginal one (never narrower).
        assert r["lower"] <= r["lower_marginal"] + 1e-12
        assert r["upper"] >= r["upper_marginal"] - 1e-12


def test_guarded_mean_shows_an_interval_reaching_zero() -> None:
    # Six pairs differ (five +3, one -1, among 200): the t interval excludes 0, the exact
    # sign test (p = 0.22) does not reject; the printed interval reaches 0.
    a = np.zeros(200)
    a[:5] = 3.0
    a[5] = -1.0
    row = stats.diff_paired("x", a, np.zeros(200))
    assert row["lower"] > 0  # marginal t interval
    out = stats.with_verdicts(pd.DataFrame([row]))
    assert out["verdict"].iloc[0] == "not resolved"
    assert bool(out["guarded"].iloc[0])
    assert out["lower"].iloc[0] <= 0.0 < out["upper"].iloc[0]


# --------------------------------------------------------------------------- categories
def test_resolved_possibly_negligible_and_too_small() -> None:
    frame = pd.DataFrame(
        {
            "estimate": [0.05, 0.5, 0.0, 0.001],
            "lower": [0.01, 0.4, -0.3, -0.001],
            "upper": [0.09, 0.6, 0.3, 0.003],
            "n": 10_000,
            "method": "paired",
            "defined": True,
            "p_value": [1e-6, 1e-20, 1.0, 0.3],
        }
    )
    out = stats.with_verdicts(frame, margin=0.02, detectable=0.1, method="none")
    assert list(out["verdict"]) == [
        "resolved, possibly negligible",
        "resolved",
        "too small to tell",
        "negligible",
    ]
    assert stats.too_small(0.3, 0.1) and not stats.too_small(0.05, 0.1)
    assert not stats.too_small(math.nan, 0.1)
    assert stats.verdict_word("negligible") == "no difference"
    assert set(out["verdict"]) <= set(stats.VERDICTS)


def test_interval_at_is_dual_to_the_t_p_value() -> None:
    for n in (5, 50, 999, 1000, 10**6):
        se, est = 0.1, 0.25
        c = stats.critical_value(0.95, n)
        p = stats.p_value_of_zero(est, se, n - 1)
        for level in (0.95, 0.99, 1 - 0.05 / 11):
            lo, hi = interval_at(est, est - c * se, est + c * se, n, "paired", 0.95, level)
            assert _excludes(lo, hi) == (p < 1 - level)


def test_with_verdicts_keeps_the_metric_level_column() -> None:
    """Regression: the test level must not overwrite a metric's level (data, chica, mesa),
    which the sensitivity tornado reads to mark flips that cannot act."""
    frame = pd.DataFrame({"estimate": [0.5], "lower": [0.4], "upper": [0.6], "n": 100,
                          "method": "paired", "defined": True, "level": ["data"]})  # fmt: skip
    out = stats.with_verdicts(frame)
    assert out["level"].iloc[0] == "data"
    assert out["test_level"].iloc[0] == pytest.approx(0.95)


# --------------------------------------------------------------------------- margins
def test_margins_relative_to_the_base_rate_where_that_is_the_natural_scale() -> None:
    """Finding 7: with absolute margins the same ~-0.1 pp effect on the share of points from
    "other" was "no difference" under learned (-0.0967 [-0.0990, -0.0944] pp, inside +-0.1)
    and "resolved" under greedy (-0.1539 pp). Relative to the base (0.5% of 1.43% = 0.007 pp)
    both are resolved; probabilities of game outcomes keep an absolute 0.1 pp."""
    from cuarenta_sim.cuarenta.studies.common import (
        ABSOLUTE_MARGIN_METRICS,
        RELATIVE_MARGIN,
        apply_verdicts,
        detectable_of,
        margin_of,
    )

    assert margin_of("share_other", 0.014315) == pytest.approx(RELATIVE_MARGIN * 0.014315)
    assert margin_of("points", 21.378) == pytest.approx(0.005 * 21.378)
    assert margin_of("first_dealer_wins", 0.54) == pytest.approx(0.001)
    assert "first_dealer_wins" in ABSOLUTE_MARGIN_METRICS
    assert margin_of("points") == pytest.approx(0.01)  # base unknown: the absolute fallback
    assert detectable_of("datas_per_chica", 3.39) == pytest.approx(0.015 * 3.39)
    assert detectable_of("zapateria", 0.10) == pytest.approx(0.015)
    frame = pd.DataFrame(
        {
            "metric": "share_other",
            "model": ["learned", "greedy"],
            "estimate": [-0.000967, -0.001539],
            "lower": [-0.000990, -0.001554],
            "upper": [-0.000944, -0.001524],
            "n": [1_000_000, 250_000],
            "method": "paired ratio",
            "defined": True,
            "no_variation": False,
            "p_value": [1e-50, 1e-50],
            "baseline_value": [0.014315, 0.01536],
        }
    )
    out = apply_verdicts(frame, ["model"])
    assert list(out["verdict"]) == ["resolved", "resolved"]
    # The old absolute margin (0.1 pp) would have called the learned row possibly negligible
    # (its interval lies inside that margin); never "no difference": its sign is resolved.
    old = stats.with_verdicts(frame, family="model", margin=0.001)
    assert list(old["verdict"]) == ["resolved, possibly negligible", "resolved"]


def test_no_difference_never_beside_an_interval_that_excludes_0() -> None:
    """An interval wholly inside the margin but excluding 0 has a settled sign: it reads
    "resolved, possibly negligible", never "no difference" (issue 18, cold read)."""
    frame = pd.DataFrame(
        {
            "estimate": [0.0045, 0.0001],
            "lower": [0.0032, -0.0010],
            "upper": [0.0058, 0.0012],
            "n": [1_000_000, 1_000_000],
            "method": "paired",
            "defined": True,
            "no_variation": False,
            "p_value": [1e-12, 0.8],
        }
    )
    out = stats.with_verdicts(frame, family=None, margin=0.06)
    assert list(out["verdict"]) == ["resolved, possibly negligible", "negligible"]
    resolved = out["verdict"].str.startswith("resolved")
    excludes = (out["lower"] > 0) | (out["upper"] < 0)
    assert (resolved == excludes).all()
