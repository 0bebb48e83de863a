"""Intervals that agree with their verdicts.

A table's verdicts are adjusted for multiplicity (Holm by default), so a marginal 95% interval
printed beside them can exclude 0 on a row that is "not resolved". This module gives each row
the interval **at the level its adjustment tested it**, so that a row is resolved exactly when
its printed interval excludes 0:

* **Holm** (:func:`step_levels`): sort the family's ``m`` p-values; the ``k``-th smallest of
  the ``r`` rejected rows was tested at ``alpha / (m - k + 1)`` and every row not rejected at
  ``alpha / (m - r)`` (the level of the step where Holm stopped). An interval dual to the row's
  test at that level excludes 0 exactly when the row is rejected: a rejected row has ``p_k <
  alpha / (m - k + 1)``; a row not rejected has ``p >= p_(r+1) >= alpha / (m - r)``. These are
  per-row intervals at the step-down levels, not simultaneous intervals (those would be
  Bonferroni's ``1 - alpha / m`` for every row).
* **Benjamini-Hochberg**: every row at ``1 - R alpha / m`` (``R`` rejections, at least 1), the
  false-coverage-rate intervals of Benjamini and Yekutieli (2005).
* **None**: every row at the nominal level.

The interval at a new level is recomputed from what the row carries (:func:`interval_at`):
exactly for paired 0/1 outcomes (Clopper-Pearson on the discordant pairs, conditional on
their number, scaled by their rate: :func:`conditional_exact_interval`, dual to the exact
McNemar test), by the ratio of
critical values for t and normal intervals (dual to their t / normal p-values), on the log
scale for log-ratios, and by the ratio of normal quantiles otherwise.
"""

from __future__ import annotations

import math

import numpy as np

from .distributions import clopper_pearson, z_value
from .small_sample import critical_value

#: Interval methods of the form ``estimate +- c(n) se`` with ``c`` Student's t with ``n - 1``
#: degrees of freedom below :data:`cuarenta_sim.verdicts.T_MAX_N` units, normal from there on.
T_METHODS = frozenset({"t", "normal", "paired", "paired ratio", "ratio", "paired delta"})

#: Interval methods on the log scale: ``exp(log(1 + r) +- c(n) se) - 1``.
LOG_METHODS = frozenset({"paired log-ratio"})

#: Method of paired 0/1 outcomes tested exactly on their discordant pairs.
EXACT_METHOD = "paired exact"


def t_or_z(confidence: float, n: float) -> float:
    """Two-sided critical value of ``n`` units: :func:`cuarenta_sim.verdicts.critical_value`
    (Student t below ``T_MAX_N`` units, normal from there on); normal when ``n`` is unknown or
    below 2."""
    if not (math.isfinite(n) and n >= 2):
        return z_value(confidence)
    return critical_value(confidence, int(n))


def conditional_exact_interval(
    n_pos: int, n_neg: int, n: int, confidence: float = 0.95
) -> tuple[float, float]:
    """Exact interval of ``P(A) - P(B)`` for paired 0/1 outcomes, dual to McNemar's exact test.

    With ``d = n_pos + n_neg`` discordant pairs, ``n_pos ~ Binomial(d, theta)`` given ``d``
    (the conditional model of McNemar's exact test) and ``P(A) - P(B) = pi (2 theta - 1)``
    with ``pi`` the rate of discordant pairs. The interval is the range of ``pi (2 theta -
    1)`` over the Clopper-Pearson interval of ``theta`` (``n_pos`` of ``d``, conditional on the
    discordant pairs) and that of ``pi`` (``d`` of ``n``), both at ``confidence``. Its sign is
    the sign of ``2 theta - 1`` at the bounds, so it **excludes 0 exactly when the two-sided
    exact binomial test of theta = 1/2** (:func:`cuarenta_sim.distributions.sign_test_p`)
    has ``p < 1 - confidence`` (the test inversion); the factor ``pi`` only scales it, and
    its interval carries how many pairs differ (coverage of the difference checked by
    simulation in the tests: at least 95% at 95% on a handful of pairs).

    Parameters
    ----------
    n_pos, n_neg : int
        Pairs where A succeeded and B failed, and the reverse.
    n : int
        All pairs, ``n >= n_pos + n_neg``, ``n >= 1``.
    confidence : float
        Two-sided level in (0, 1).

    Returns
    -------
    (lower, upper) : tuple of float
        With no discordant pair, ``+- u`` where ``u = 1 - (alpha/2)^(1/n)`` bounds the share of
        pairs that could differ (never zero-width).

    Raises
    ------
    ValueError
        On negative counts or ``n`` below the discordant pairs.
    """
    d = int(n_pos) + int(n_neg)
    if n_pos < 0 or n_neg < 0 or n < max(d, 1):
        raise ValueError(f"need 0 <= n_pos, n_neg and n >= n_pos + n_neg >= 0, n >= 1; got "
                         f"{n_pos!r}, {n_neg!r}, {n!r}")  # fmt: skip
    if d == 0:
        u = 1.0 - ((1.0 - confidence) / 2.0) ** (1.0 / n)
        return -u, u
    t_lo, t_hi = clopper_pearson(int(n_pos), d, confidence)
    p_lo, p_hi = clopper_pearson(d, int(n), confidence)
    corners = [p * (2.0 * t - 1.0) for p in (p_lo, p_hi) for t in (t_lo, t_hi)]
    return min(corners), max(corners)


def step_levels(p: np.ndarray, adjusted: np.ndarray, method: str, alpha: float) -> np.ndarray:
    """Error rate at which each row of one family was tested (see the module docstring).

    Parameters
    ----------
    p : ndarray of float, shape (m_all,)
        Raw p-values of one family; NaN rows are not tests.
    adjusted : ndarray of float, shape (m_all,)
        Their adjusted p-values (same method).
    method : {"holm", "bh", "none"}
    alpha : float
        Family error rate.

    Returns
    -------
    ndarray of float, shape (m_all,)
        The per-row ``alpha`` of its interval; ``alpha`` for rows that are not tests.

    Raises
    ------
    ValueError
        On an unknown method.
    """
    out = np.full(p.shape, float(alpha))
    ok = np.isfinite(p)
    m = int(ok.sum())
    if m == 0 or method == "none":
        if method not in ("holm", "bh", "none"):
            raise ValueError(f"unknown adjustment {method!r}")
        return out
    rejected = ok & (adjusted < alpha)
    r = int(rejected.sum())
    if method == "bh":
        out[ok] = alpha * max(r, 1) / m
        return out
    if method != "holm":
        raise ValueError(f"unknown adjustment {method!r}")
    idx = np.flatnonzero(ok)
    order = idx[np.argsort(p[idx], kind="stable")]
    for rank, i in enumerate(order, start=1):
        out[i] = alpha / (m - rank + 1) if rejected[i] else alpha / max(m - r, 1)
    return out


def interval_at(
    estimate: float,
    lower: float,
    upper: float,
    n: float,
    method: str,
    confidence: float,
    level: float,
    n_pos: float = math.nan,
    n_neg: float = math.nan,
) -> tuple[float, float]:
    """The interval of one row at another two-sided ``level``.

    Parameters
    ----------
    estimate, lower, upper : float
        The row and its interval at ``confidence``.
    n : float
        Units (pairs) of the row.
    method : str
        Its interval method: :data:`EXACT_METHOD` with counts (recomputed exactly,
        :func:`conditional_exact_interval`), :data:`T_METHODS` (both sides scaled by
        ``c(level, n) / c(confidence, n)``, :func:`t_or_z`), :data:`LOG_METHODS` (the same on
        ``log(1 + x)``), anything else (each side scaled by the ratio of normal quantiles).
    confidence, level : float
        Old and new two-sided levels.
    n_pos, n_neg : float
        Pairs with a positive and a negative difference (needed for the exact method).

    Returns
    -------
    (lower, upper) : tuple of float
        Unchanged when not finite or when ``level == confidence``.
    """
    if not (math.isfinite(estimate) and math.isfinite(lower) and math.isfinite(upper)):
        return lower, upper
    if method == EXACT_METHOD and math.isfinite(n_pos) and math.isfinite(n_neg) and n >= 1:
        return conditional_exact_interval(int(n_pos), int(n_neg), int(n), level)
    if level == confidence:
        return lower, upper
    if method in T_METHODS:
        k = t_or_z(level, n) / t_or_z(confidence, n)
    else:
        k = z_value(level) / z_value(confidence)
    if method in LOG_METHODS and estimate > -1.0 and lower > -1.0:
        c = math.log1p(estimate)
        return (
            math.expm1(c - k * (c - math.log1p(lower))),
            math.expm1(c + k * (math.log1p(upper) - c)),
        )
    return estimate - k * (estimate - lower), estimate + k * (upper - estimate)
