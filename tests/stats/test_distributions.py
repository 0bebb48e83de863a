"""cuarenta_sim.distributions: t, beta, binomial and chi-square functions without scipy.

References are closed forms (exact) and published table values (10 significant digits, from
the standard tables, e.g. NIST/SEMATECH e-Handbook 1.3.6.7.2 and 1.3.6.7.4), compared to 1e-6.
"""

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cuarenta_sim import distributions as dist

# (p, df, quantile): Student t table values.
T_TABLE = [
    (0.975, 1, 12.706204736),
    (0.975, 2, 4.302652730),
    (0.975, 3, 3.182446305),
    (0.975, 4, 2.776445105),
    (0.975, 5, 2.570581836),
    (0.975, 10, 2.228138852),
    (0.975, 20, 2.085963447),
    (0.975, 30, 2.042272456),
    (0.975, 60, 2.000297822),
    (0.975, 100, 1.983971519),
    (0.975, 120, 1.979930405),
    (0.995, 1, 63.656741163),
    (0.995, 5, 4.032142984),
    (0.995, 10, 3.169272673),
    (0.995, 30, 2.749995654),
    (0.95, 1, 6.313751515),
    (0.95, 10, 1.812461123),
    (0.95, 20, 1.724718243),
]

# (x, df, upper tail): chi-square table quantiles at 5% and 1%.
CHI2_TABLE = [
    (3.841458821, 1, 0.05),
    (5.991464547, 2, 0.05),
    (7.814727903, 3, 0.05),
    (9.487729037, 4, 0.05),
    (11.07049769, 5, 0.05),
    (18.30703805, 10, 0.05),
    (43.77297183, 30, 0.05),
    (124.3421134, 100, 0.05),
    (6.634896601, 1, 0.01),
    (11.34486673, 3, 0.01),
    (23.20925116, 10, 0.01),
]


@pytest.mark.parametrize(("p", "df", "expected"), T_TABLE)
def test_t_quantiles_match_the_table(p: float, df: int, expected: float) -> None:
    assert dist.t_ppf(p, df) == pytest.approx(expected, abs=1e-6)
    assert dist.t_ppf(1.0 - p, df) == pytest.approx(-expected, abs=1e-6)


@given(st.floats(0.5005, 0.9995))
def test_t_quantiles_match_the_closed_forms_for_1_2_and_4_df(p: float) -> None:
    assert dist.t_ppf(p, 1) == pytest.approx(math.tan(math.pi * (p - 0.5)), rel=1e-9)
    assert dist.t_ppf(p, 2) == pytest.approx((2 * p - 1) / math.sqrt(2 * p * (1 - p)), rel=1e-9)
    a = 4 * p * (1 - p)
    q = math.cos(math.acos(math.sqrt(a)) / 3) / math.sqrt(a)
    assert dist.t_ppf(p, 4) == pytest.approx(2 * math.sqrt(q - 1), rel=1e-8)


def test_t_tends_to_the_normal_and_inverts_its_cdf() -> None:
    assert dist.t_ppf(0.975, 1e7) == pytest.approx(dist.z_value(0.95), abs=1e-6)
    for df in (1, 3, 7.5, 40):
        for p in (0.6, 0.9, 0.999):
            assert dist.t_cdf(dist.t_ppf(p, df), df) == pytest.approx(p, abs=1e-12)
    assert dist.t_cdf(0.0, 5) == 0.5


@pytest.mark.parametrize(("x", "df", "tail"), CHI2_TABLE)
def test_chi2_survival_matches_the_table(x: float, df: int, tail: float) -> None:
    assert dist.chi2_sf(x, df) == pytest.approx(tail, abs=1e-6)


@given(st.floats(0.0, 200.0))
def test_chi2_survival_matches_the_closed_forms(x: float) -> None:
    assert dist.chi2_sf(x, 1) == pytest.approx(math.erfc(math.sqrt(x / 2)), abs=1e-12)
    assert dist.chi2_sf(x, 2) == pytest.approx(math.exp(-x / 2), abs=1e-12)
    odd3 = math.erfc(math.sqrt(x / 2)) + math.sqrt(2 * x / math.pi) * math.exp(-x / 2)
    assert dist.chi2_sf(x, 3) == pytest.approx(odd3, abs=1e-12)
    assert dist.chi2_sf(x, 4) == pytest.approx(math.exp(-x / 2) * (1 + x / 2), abs=1e-12)


def test_chi2_far_tail_and_edges() -> None:
    # Deviance 1,536 on 3 df (the audit's Bradley-Terry misfit): p underflows to 0.
    assert dist.chi2_sf(1536.0, 3) < 1e-300
    assert dist.chi2_sf(0.0, 3) == 1.0 and dist.chi2_sf(-1.0, 3) == 1.0
    with pytest.raises(ValueError, match="df must be a positive"):
        dist.chi2_sf(1.0, 0)


@given(st.floats(0.0, 1.0), st.floats(0.1, 20.0))
def test_incomplete_beta_closed_forms(x: float, a: float) -> None:
    assert dist.betainc(a, 1.0, x) == pytest.approx(x**a, abs=1e-12)
    assert dist.betainc(1.0, a, x) == pytest.approx(1 - (1 - x) ** a, abs=1e-12)
    assert dist.betainc(a, a, 0.5) == pytest.approx(0.5, abs=1e-12)


def test_sign_test_exact_values() -> None:
    assert dist.sign_test_p(4, 4) == 0.125  # 2 * (1/2)^4
    assert dist.sign_test_p(0, 4) == 0.125
    assert dist.sign_test_p(6, 6) == 2 / 64
    assert dist.sign_test_p(5, 6) == pytest.approx(2 * 7 / 64)
    assert dist.sign_test_p(20, 20) == 2.0**-19
    assert dist.sign_test_p(3, 6) == 1.0 and dist.sign_test_p(0, 0) == 1.0
    # Beyond the exact-integer range the incomplete beta takes over, continuously.
    assert dist.binom_cdf(2480, 5000, 0.5) == pytest.approx(
        dist.betainc(5000 - 2480, 2481, 0.5), rel=1e-12
    )
    assert dist.binom_cdf(900, 2000, 0.5) == pytest.approx(
        dist.betainc(2000 - 900, 901, 0.5), rel=1e-9
    )
    with pytest.raises(ValueError, match="0 <= k <= n"):
        dist.sign_test_p(5, 4)


def test_clopper_pearson_reference_values() -> None:
    lo, hi = dist.clopper_pearson(3, 10)
    assert (lo, hi) == pytest.approx((0.0667395, 0.6524529), abs=1e-6)
    lo, hi = dist.clopper_pearson(0, 20)
    assert lo == 0.0 and hi == pytest.approx(1 - 0.025 ** (1 / 20), abs=1e-15)
    lo, hi = dist.clopper_pearson(20, 20)
    assert hi == 1.0 and lo == pytest.approx(0.025 ** (1 / 20), abs=1e-15)
    # Duality with the exact test: the 95% interval of 6/6 (p = 0.031) excludes 1/2.
    assert dist.clopper_pearson(6, 6)[0] > 0.5 and dist.clopper_pearson(4, 4)[0] < 0.5
    with pytest.raises(ValueError, match="n > 0"):
        dist.clopper_pearson(0, 0)


@pytest.mark.parametrize("bad", [0.0, 1.0, -0.5, float("nan")])
def test_quantiles_reject_probabilities_outside_the_open_unit_interval(bad: float) -> None:
    with pytest.raises(ValueError, match="strictly between 0 and 1"):
        dist.t_ppf(bad, 3)
