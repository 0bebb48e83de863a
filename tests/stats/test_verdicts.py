"""Honest verdicts (cuarenta_sim.verdicts, re-exported by cuarenta_sim.stats): exact tests on
discordant pairs, Holm and Benjamini-Hochberg over a family, negligible effects, sizing."""

import math

import numpy as np
import pandas as pd
import pytest

from cuarenta_sim import stats
from cuarenta_sim.distributions import normal_two_sided_p, sign_test_p


def _paired(n_ab: int, n_ba: int, same: int) -> tuple[np.ndarray, np.ndarray]:
    """0/1 outcomes under A and B: n_ab pairs won only by A, n_ba only by B, `same` both won."""
    a = np.r_[np.ones(n_ab), np.zeros(n_ba), np.ones(same), np.zeros(1000)]
    b = np.r_[np.zeros(n_ab), np.ones(n_ba), np.ones(same), np.zeros(1000)]
    return a, b


def test_four_of_four_discordant_pairs_are_not_resolved() -> None:
    test = stats.discordant_test(4, 0, n=5000)
    assert test["p_value"] == 0.125 and test["method"] == "exact binomial"
    assert test["discordant"] == 4 and test["share"] == 1.0
    assert test["lower"] < 0.0 < test["upper"]
    a, b = _paired(4, 0, 200)
    row = stats.diff_paired("won", a, b)
    assert row["method"] == "paired exact" and row["p_value"] == 0.125
    assert stats.verdicts(pd.DataFrame([row])).iloc[0] == "not resolved"
    # The old normal interval on the per-pair differences would have resolved it.
    d = a - b
    half = stats.z_value(0.95) * d.std(ddof=1) / math.sqrt(d.size)
    assert d.mean() - half > 0.0


def test_twenty_of_twenty_discordant_pairs_are_resolved() -> None:
    a, b = _paired(20, 0, 50)
    row = stats.paired_verdict(a, b, "won")
    assert row["p_value"] == 2.0**-19 and row["discordant"] == 20
    assert 0.0 < row["lower"] < row["estimate"] <= row["upper"]
    verdict = stats.verdicts(pd.DataFrame([row]), names=("quito", "cuenca")).iloc[0]
    assert verdict == "resolved: quito higher"
    flipped = stats.paired_verdict(b, a, "won")
    assert stats.verdicts(pd.DataFrame([flipped]), names=("quito", "cuenca")).iloc[0] == (
        "resolved: cuenca higher"
    )


def test_exact_interval_is_conservative_and_covers() -> None:
    """Coverage of the exact difference interval on a handful of discordant pairs."""
    rng = np.random.default_rng(7)
    n, p_ab, p_ba = 400, 0.012, 0.004  # about 6 discordant pairs per run
    truth = p_ab - p_ba
    hits = 0
    runs = 1000
    for _ in range(runs):
        n_ab, n_ba, _rest = rng.multinomial(n, [p_ab, p_ba, 1 - p_ab - p_ba])
        t = stats.discordant_test(int(n_ab), int(n_ba), n=n)
        hits += t["lower"] <= truth <= t["upper"]
    assert hits / runs >= 0.95


def test_exact_interval_is_dual_to_the_exact_test() -> None:
    # 6 of 6 discordant pairs: exact p = 0.031 < 0.05, and the exact interval (the test
    # inversion) excludes 0 -- the old Bonferroni bounds reached 0 and contradicted the p.
    a, b = _paired(6, 0, 100)
    row = stats.paired_verdict(a, b)
    assert row["p_value"] == 2 / 64 and row["lower"] > 0.0
    assert stats.verdicts(pd.DataFrame([row])).iloc[0] == "resolved"
    a, b = _paired(5, 0, 100)
    row = stats.paired_verdict(a, b)
    assert row["p_value"] == 2 / 32 and row["lower"] <= 0.0
    assert stats.verdicts(pd.DataFrame([row])).iloc[0] == "not resolved"
    a, b = _paired(9, 0, 100)
    row = stats.paired_verdict(a, b)
    assert row["lower"] > 0.0 and stats.verdicts(pd.DataFrame([row])).iloc[0] == "resolved"


def test_discordant_cutoff_switches_to_the_score_test() -> None:
    below = stats.discordant_test(60, 39, n=10_000)
    above = stats.discordant_test(60, 40, n=10_000)
    assert below["method"] == "exact binomial" and below["p_value"] == sign_test_p(60, 99)
    assert above["method"] == "mcnemar score"
    assert above["p_value"] == pytest.approx(normal_two_sided_p(20 / math.sqrt(100)))
    assert above["share_lower"] < 0.6 < above["share_upper"]


def test_documented_cutoff_figures() -> None:
    """EXACT_MAX_DISCORDANT's docstring: at 100 discordant pairs the score test's p-value is
    within a factor 1.31 of the exact one over p in [0.001, 0.1]; at 10 within 1.9."""

    def worst(d: int) -> float:
        ratios = []
        for k in range(d + 1):
            exact = sign_test_p(k, d)
            if 0.001 <= exact <= 0.1:
                score = normal_two_sided_p((2 * k - d) / math.sqrt(d))
                ratios.append(max(exact / score, score / exact))
        return max(ratios)

    assert stats.EXACT_MAX_DISCORDANT == 100
    assert worst(100) < 1.31 and 1.8 < worst(10) < 1.9
    assert sign_test_p(6, 6) == pytest.approx(0.031, abs=5e-4)
    assert normal_two_sided_p(6 / math.sqrt(6)) == pytest.approx(0.014, abs=5e-4)


def test_no_discordant_pair_is_identical_with_a_bound() -> None:
    a, b = _paired(0, 0, 30)
    row = stats.paired_verdict(a, b)
    u = stats.no_variation_bound(a.size)
    assert row["no_variation"] and row["estimate"] == 0.0
    assert (row["lower"], row["upper"]) == pytest.approx((-u, u)) and u > 0
    assert stats.verdicts(pd.DataFrame([row])).iloc[0] == "identical"


def test_paired_verdict_rejects_non_binary_outcomes() -> None:
    with pytest.raises(ValueError, match="0/1"):
        stats.paired_verdict([0, 2], [1, 0])
    with pytest.raises(ValueError, match="equal length"):
        stats.paired_verdict([0, 1], [1])


def test_few_differing_pairs_guard_non_binary_differences_with_the_sign_test() -> None:
    a = np.r_[np.full(4, 3.0), np.zeros(5000)]
    b = np.zeros(a.size)
    row = stats.diff_paired("points", a, b)
    assert row["method"] == "paired" and row["p_value"] == 0.125
    assert stats.verdicts(pd.DataFrame([row])).iloc[0] == "not resolved"


# --------------------------------------------------------------------------- multiplicity
def test_holm_matches_hand_computed_values() -> None:
    # Sorted 0.005, 0.01, 0.03, 0.04 times 4, 3, 2, 1: 0.02, 0.03, 0.06, 0.04 -> running max.
    adj = stats.holm([0.01, 0.04, 0.03, 0.005])
    np.testing.assert_allclose(adj, [0.03, 0.06, 0.06, 0.02])
    # NaN entries are not tests: they stay NaN and do not count in m.
    adj = stats.holm([0.01, np.nan, 0.04])
    np.testing.assert_allclose(adj, [0.02, np.nan, 0.04])
    # Capped at 1 and monotone in the raw p-values: 0.8 * 2 -> 1, then max(1, 0.9).
    np.testing.assert_allclose(stats.holm([0.9, 0.8]), [1.0, 1.0])


def test_benjamini_hochberg_matches_hand_computed_values() -> None:
    # Sorted 0.005, 0.01, 0.03, 0.04 times 4/1, 4/2, 4/3, 4/4: 0.02, 0.02, 0.04, 0.04.
    adj = stats.benjamini_hochberg([0.01, 0.04, 0.03, 0.005])
    np.testing.assert_allclose(adj, [0.02, 0.04, 0.04, 0.02])
    assert (
        stats.benjamini_hochberg([0.01, 0.04, 0.03, 0.005]) <= stats.holm([0.01, 0.04, 0.03, 0.005])
    ).all()
    with pytest.raises(ValueError, match=r"\[0, 1\]"):
        stats.holm([1.5])
    with pytest.raises(ValueError, match="unknown adjustment"):
        stats.adjust_pvalues([0.1], "bonferroni-ish")


def _family(p: list[float]) -> pd.DataFrame:
    return pd.DataFrame(
        {
            "estimate": [0.1] * len(p),
            "lower": [0.05] * len(p),
            "upper": [0.15] * len(p),
            "defined": True,
            "p_value": p,
        }
    )


def test_holm_over_a_family_of_verdicts() -> None:
    frame = _family([0.02, 0.03, 0.04, 0.001])
    # Alone, each is below 0.05; over the family only the smallest survives Holm.
    assert list(stats.verdicts(frame, method="none")) == ["resolved"] * 4
    assert list(stats.verdicts(frame)) == ["not resolved"] * 3 + ["resolved"]
    table = stats.verdict_table(frame)
    np.testing.assert_allclose(table["p_adjusted"], [0.06, 0.06, 0.06, 0.004])
    assert (table["family_size"] == 4).all()
    # BH is less strict: 0.001*4, 0.02*4/2, 0.03*4/3, 0.04 -> all at most 0.04.
    assert list(stats.verdicts(frame, method="bh")) == ["resolved"] * 4
    # Two families of two: each corrected for its own size only.
    # x: 0.03, 0.04 -> 0.06, 0.06; y: 0.001, 0.02 -> 0.002, 0.02.
    frame["table"] = ["y", "x", "x", "y"]
    assert list(stats.verdicts(frame, family="table")) == [
        "resolved",
        "not resolved",
        "not resolved",
        "resolved",
    ]


def test_identical_and_undefined_rows_are_not_tests_of_the_family() -> None:
    frame = pd.concat(
        [
            _family([0.02]),
            pd.DataFrame(
                {
                    "estimate": [0.0, np.nan],
                    "lower": [np.nan, np.nan],
                    "upper": [np.nan, np.nan],
                    "defined": [False, False],
                    "no_variation": [True, False],
                    "p_value": [1.0, np.nan],
                }
            ),
        ],
        ignore_index=True,
    )
    table = stats.verdict_table(frame)
    assert list(table["verdict"]) == ["resolved", "identical", "undefined"]
    assert table["family_size"].iloc[0] == 1


def test_p_value_implied_by_the_interval_agrees_with_it() -> None:
    # Without a p_value column the verdict at family size 1 is the interval's.
    frame = pd.DataFrame(
        {
            "estimate": [0.5, 0.0, 0.1, -0.3, np.nan, 0.0, 0.2],
            "lower": [0.2, 0.0, -0.1, -0.5, np.nan, -0.1, 0.0],
            "upper": [0.8, 0.0, 0.3, -0.1, np.nan, 0.1, 0.5],
            "defined": [True, True, True, True, False, True, True],
        }
    )
    for i in (0, 2, 3, 6):
        one = frame.iloc[[i]]
        resolved = bool(one["lower"].iloc[0] > 0 or one["upper"].iloc[0] < 0)
        assert (stats.verdicts(one).iloc[0] == "resolved") == resolved
    p = stats.implied_p_value(0.2, 0.0, 0.5, 0.95)
    assert p == pytest.approx(0.05)  # the interval touches 0: p is exactly alpha


def test_negligible_inside_the_margin() -> None:
    frame = pd.DataFrame(
        {
            "estimate": [0.001, 0.001, 0.3, 0.0005],
            "lower": [-0.002, -0.02, 0.1, 0.0001],
            "upper": [0.004, 0.02, 0.5, 0.0009],
            "defined": True,
            "margin": [0.005, 0.005, 0.005, 0.005],
        }
    )
    out = stats.verdicts(frame, margin="margin")
    # Inside the margin: negligible when the sign is not settled; a resolved sign inside the
    # margin (last row, [0.0001, 0.0009]) is "resolved, possibly negligible", never "no
    # difference" beside an interval that excludes 0.
    assert list(out) == [
        "negligible",
        "not resolved",
        "resolved",
        "resolved, possibly negligible",
    ]
    assert list(stats.verdicts(frame, margin=0.005)) == list(out)
    with pytest.raises(ValueError, match="non-negative"):
        stats.verdicts(frame, margin=-1.0)


def test_verdicts_stay_in_the_documented_set() -> None:
    frame = _family([0.2, 0.001])
    assert set(stats.verdicts(frame, margin=0.2)) <= set(stats.VERDICTS)


# --------------------------------------------------------------------------- sizing
@pytest.mark.parametrize(("p", "target"), [(None, 0.01), (0.3, 0.02), (0.05, 0.005)])
def test_required_n_for_a_proportion_round_trips(p: float | None, target: float) -> None:
    n = stats.required_n("proportion", target, p=p)
    truth = 0.5 if p is None else p
    assert n == math.ceil(stats.z_value(0.95) ** 2 * truth * (1 - truth) / target**2)
    rng = np.random.default_rng(11)
    k = rng.binomial(n, truth, size=200)
    _, lo, hi = stats.wilson_interval(k, np.full_like(k, n))
    half = (hi - lo) / 2
    assert np.median(half) == pytest.approx(target, rel=0.03)
    assert stats.required_n("proportion", target, p=p, design_effect=0.5) == pytest.approx(
        n / 2, abs=1
    )


def test_required_n_for_a_mean_uses_t_at_small_n() -> None:
    n = stats.required_n("mean", 1.0, sd=2.0)
    # z alone would say ceil((1.96 * 2)^2) = 16; with t_{n-1} it takes a few more.
    assert n > 16
    assert stats.critical_value(0.95, n) * 2.0 / math.sqrt(n) <= 1.0
    assert stats.critical_value(0.95, n - 1) * 2.0 / math.sqrt(n - 1) > 1.0
    rng = np.random.default_rng(3)
    widths = []
    for _ in range(300):
        row = stats.mean("x", rng.normal(10.0, 2.0, n))
        widths.append((row["upper"] - row["lower"]) / 2)
    assert np.mean(widths) == pytest.approx(1.0, rel=0.06)


@pytest.mark.parametrize(
    ("kwargs", "needle"),
    [
        ({"kind": "median", "target_half_width": 0.1}, "unknown kind"),
        ({"kind": "proportion", "target_half_width": 0.0}, "positive"),
        ({"kind": "proportion", "target_half_width": 0.1, "p": 1.0}, "strictly between"),
        ({"kind": "mean", "target_half_width": 0.1}, "positive sd"),
        ({"kind": "mean", "target_half_width": 0.1, "sd": 1.0, "design_effect": 0}, "design"),
    ],
)
def test_required_n_rejects_bad_input(kwargs: dict, needle: str) -> None:
    with pytest.raises(ValueError, match=needle):
        stats.required_n(**kwargs)


def test_t_below_the_rule_and_z_from_it() -> None:
    assert stats.critical_value(0.95, 5) == pytest.approx(2.776445105, abs=1e-6)
    assert stats.critical_value(0.95, stats.T_MAX_N) == stats.z_value(0.95)
    below = stats.critical_value(0.95, stats.T_MAX_N - 1)
    # The documented figures: t exceeds z by 0.12% (95%) and 0.19% (99%) at the switch.
    assert below / stats.z_value(0.95) - 1 == pytest.approx(0.0012, abs=5e-5)
    assert stats.critical_value(0.99, stats.T_MAX_N - 1) / stats.z_value(0.99) - 1 == (
        pytest.approx(0.0019, abs=5e-5)
    )
    with pytest.raises(ValueError, match="n >= 2"):
        stats.critical_value(0.95, 1)
