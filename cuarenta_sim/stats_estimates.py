"""Single estimates with honest error bars (the estimate half of :mod:`cuarenta_sim.stats`).

Proportions (``wilson``, clustered Wilson), means (``t`` / ``normal``) and ratios of sums over
independent datas (``ratio``, delta method), each an :data:`ESTIMATE_COLUMNS` row; constant
samples get the :func:`~cuarenta_sim.verdicts.constant_interval` bound, never a zero-width
interval. Import them from :mod:`cuarenta_sim.stats`, the public API.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from .distributions import z_value
from .verdicts import (
    T_MAX_N,
    constant_interval,
    critical_value,
    no_variation_bound,
    p_value_of_zero,
)

#: Columns of every estimate frame, in order.
ESTIMATE_COLUMNS = [
    "metric",
    "estimate",
    "lower",
    "upper",
    "n",
    "method",
    "defined",
    "no_variation",
    "p_value",
]

#: ``(low, high)`` bounds of the possible values of one unit, or ``None`` (unknown).
ValueRange = tuple[float, float] | None

#: ``method`` of a single estimate (a mean or a ratio) whose sample showed no variation at all
#: (e.g. 0 events in every unit) and whose interval is therefore not a ``t`` / ``normal`` /
#: delta-method interval (those would be zero-width) but the bound of
#: :func:`~cuarenta_sim.verdicts.constant_interval`: at most a share ``1 - (alpha/2)^(1/n)`` of
#: the ``n`` units may differ (the exact Clopper-Pearson upper bound for 0 of ``n``; 0.72% for
#: 513 units at 95%), for a ratio times the largest unit's share of the mean denominator.
NO_VARIATION_METHOD = "clopper-pearson bound"


def wilson_interval(
    successes: np.ndarray | int, trials: np.ndarray | int, confidence: float = 0.95
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Wilson score interval for proportions, vectorised.

    Parameters
    ----------
    successes, trials : int or array of int
        Counts, ``0 <= successes <= trials``.
    confidence : float
        Two-sided confidence level.

    Returns
    -------
    (estimate, lower, upper) : arrays of float64
        ``successes / trials`` and the Wilson bounds; NaN where ``trials == 0``.

    Raises
    ------
    ValueError
        On negative counts or ``successes > trials``.
    """
    k = np.asarray(successes, dtype=np.float64)
    n = np.asarray(trials, dtype=np.float64)
    if np.any(k < 0) or np.any(n < 0) or np.any(k > n):
        raise ValueError("need 0 <= successes <= trials")
    z = z_value(confidence)
    with np.errstate(invalid="ignore", divide="ignore"):
        p = k / n
        denom = 1.0 + z * z / n
        centre = (p + z * z / (2.0 * n)) / denom
        half = z * np.sqrt(p * (1.0 - p) / n + z * z / (4.0 * n * n)) / denom
        # Exact 0 and 1 at the edges (0/N, N/N) rather than rounding residue.
        lower = np.where(n > 0, np.where(k == 0, 0.0, np.clip(centre - half, 0.0, 1.0)), np.nan)
        upper = np.where(n > 0, np.where(k == n, 1.0, np.clip(centre + half, 0.0, 1.0)), np.nan)
        p = np.where(n > 0, p, np.nan)
    return p, lower, upper


def proportion(metric: str, successes: int, trials: int, confidence: float = 0.95) -> dict:
    """One proportion as an estimate row (``method = "wilson"``); see :data:`ESTIMATE_COLUMNS`.

    ``no_variation`` is True at ``0/N`` and ``N/N`` (the Wilson bound there is about ``3.84 /
    N`` at 95%, never zero-width).
    """
    p, lo, hi = wilson_interval(successes, trials, confidence)
    return estimate_row(
        metric,
        float(p),
        float(lo),
        float(hi),
        int(trials),
        "wilson",
        bool(trials > 0),
        no_variation=bool(trials > 0 and successes in (0, trials)),
    )


def estimate_row(
    metric: str,
    est: float,
    lo: float,
    hi: float,
    n: int,
    method: str,
    ok: bool,
    no_variation: bool = False,
    p_value: float = math.nan,
) -> dict:
    """One estimate row (the columns of :data:`ESTIMATE_COLUMNS`), flags and counts cast to
    ``bool`` / ``int`` / ``float`` so rows from sums and from arrays compare equal.

    Parameters
    ----------
    metric : str
        Name of the row.
    est, lo, hi : float
        Estimate and interval bounds (NaN where undefined).
    n : int
        Sample size.
    method : str
        Interval method (``"wilson"``, ``"t"``, ``"ratio"``...).
    ok : bool
        Whether the interval is defined (column ``defined``).
    no_variation : bool
        Every unit had the same value.
    p_value : float
        Two-sided p-value of "the quantity is zero" (NaN when not tested).

    Returns
    -------
    dict
    """
    return {
        "metric": metric,
        "estimate": est,
        "lower": lo,
        "upper": hi,
        "n": int(n),
        "method": method,
        "defined": bool(ok),
        "no_variation": bool(no_variation),
        "p_value": float(p_value),
    }


def mean_method(n: int) -> str:
    """``method`` of a mean of ``n`` values: ``"t"`` below :data:`T_MAX_N`, else ``"normal"``."""
    return "t" if n < T_MAX_N else "normal"


def spread_row(
    metric: str,
    est: float,
    sd: float,
    n: int,
    confidence: float,
    method: str,
    *,
    constant: bool,
    value_range: ValueRange = None,
    test_zero: bool = False,
) -> dict:
    """An estimate row ``est +- c(n) sd / sqrt(n)``, or the no-variation bound.

    The one place where a mean-like interval is made from an estimate, a standard deviation
    and a size, for code that has those from running sums (e.g. streaming aggregates) rather
    than from the values.

    Parameters
    ----------
    metric : str
        Name of the row.
    est : float
        The mean (or mean difference).
    sd : float
        Sample standard deviation of one unit's value (``ddof = 1``).
    n : int
        Units; fewer than 2 gives NaN bounds and ``defined = False``.
    confidence : float
        Two-sided level; ``c(n)`` is :func:`critical_value` (Student t below
        :data:`T_MAX_N`).
    method : str
        Value of the ``method`` column.
    constant : bool
        Whether every unit had the same value: then ``no_variation = True`` and the
        :func:`constant_interval` (``value_range``), never a zero-width interval; for a single
        estimate (``test_zero`` False) with a defined bound the ``method`` column then reads
        :data:`NO_VARIATION_METHOD`, the method that made the bound.
    value_range : (float, float), optional
        Bounds of a possible value, used only when ``constant``.
    test_zero : bool
        Fill ``p_value`` with the two-sided test of ``est = 0`` (differences).

    Returns
    -------
    dict
        An estimate row (:data:`ESTIMATE_COLUMNS`).
    """
    if n < 2:
        return estimate_row(metric, est, math.nan, math.nan, n, method, False)
    if constant:
        lo, hi, ok = constant_interval(est, n, confidence, value_range)
        # Every unit equal: 0 is either what every pair showed (p = 1) or n pairs all share
        # one sign (exact sign test, 2 * 2^-n).
        p = (1.0 if est == 0.0 else min(1.0, 2.0 * 0.5**n)) if test_zero else math.nan
        # a single estimate's bound is not made by ``method``: say which method made it
        bound = NO_VARIATION_METHOD if ok and not test_zero else method
        return estimate_row(metric, est, lo, hi, n, bound, ok, True, p)
    se = sd / math.sqrt(n)
    half = critical_value(confidence, n) * se
    p = p_value_of_zero(est, se, n - 1) if test_zero else math.nan
    return estimate_row(metric, est, est - half, est + half, n, method, True, False, p)


def _is_constant(x: np.ndarray) -> bool:
    return bool(x.size > 0 and x.min() == x.max())


def mean(
    metric: str,
    values: np.ndarray | pd.Series,
    confidence: float = 0.95,
    value_range: ValueRange = None,
) -> dict:
    """Mean of i.i.d. values with a t (``n <`` :data:`T_MAX_N`) or normal interval.

    Parameters
    ----------
    metric : str
        Name of the row.
    values : array-like of float, shape (n,)
        One value per independent unit (data, chica...).
    confidence : float
        Two-sided level.
    value_range : (float, float), optional
        Bounds of a possible value; used only when the sample shows no variation.

    Returns
    -------
    dict
        An estimate row (:data:`ESTIMATE_COLUMNS`), ``method`` ``"t"`` below
        :data:`T_MAX_N` values, ``"normal"`` from there on. ``n < 2`` gives NaN bounds and
        ``defined = False`` (``n == 0``: NaN estimate too). Equal values: ``no_variation =
        True`` and the :func:`constant_interval` (``method =`` :data:`NO_VARIATION_METHOD`; NaN,
        undefined, without ``value_range``).
    """
    x = np.asarray(values, dtype=np.float64)
    n = x.size
    est = float(x.mean()) if n else math.nan
    sd = float(x.std(ddof=1)) if n > 1 else math.nan
    return spread_row(
        metric,
        est,
        sd,
        n,
        confidence,
        mean_method(n),
        constant=_is_constant(x),
        value_range=value_range,
    )


def clustered_proportion(
    metric: str, score: np.ndarray | pd.Series, confidence: float = 0.95
) -> dict:
    """Proportion from clusters of outcomes, Wilson interval on the effective sample size.

    Used for duplicate play, where a cluster is the pair of games dealt the same cards: the
    outcomes of a cluster are correlated, so neither a Wilson interval over the outcomes nor a
    normal interval over the clusters (which can leave [0, 1]) is right. The effective sample
    size is ``p (1 - p) / var(mean score)`` (Kish's design effect), and the Wilson interval is
    computed on it (``method = "clustered wilson"``).

    Parameters
    ----------
    metric : str
        Name of the estimate row.
    score : array of float
        Per-cluster share of successes, each in [0, 1] (e.g. 0, 0.5, 1 for a pair of games).
    confidence : float
        Two-sided confidence level.

    Returns
    -------
    dict
        An estimate row (:data:`ESTIMATE_COLUMNS`); ``n`` is the number of clusters. When the
        scores do not vary the effective size is taken as ``2 * n`` (both outcomes of a pair
        independent) and ``no_variation`` is True; the Wilson interval is never zero-width.
        Undefined (NaN) for no cluster.

    Raises
    ------
    ValueError
        If a score is outside [0, 1].
    """
    x = np.asarray(score, dtype=np.float64)
    n = x.size
    if n == 0:
        return estimate_row(metric, math.nan, math.nan, math.nan, 0, "clustered wilson", False)
    if np.any((x < 0.0) | (x > 1.0)):
        raise ValueError("cluster scores must lie in [0, 1]")
    p = float(x.mean())
    constant = _is_constant(x)
    var_mean = float(x.var(ddof=1)) / n if n > 1 and not constant else 0.0
    n_eff = p * (1.0 - p) / var_mean if var_mean > 0.0 else 2.0 * n
    est, lo, hi = wilson_interval(p * n_eff, n_eff, confidence)
    return estimate_row(
        metric, float(est), float(lo), float(hi), n, "clustered wilson", True, constant
    )


def ratio(
    metric: str,
    numerator: np.ndarray | pd.Series,
    denominator: np.ndarray | pd.Series,
    confidence: float = 0.95,
    value_range: ValueRange = None,
) -> dict:
    """Ratio of sums ``sum(num) / sum(den)`` over independent units, delta-method interval.

    Parameters
    ----------
    metric : str
        Name of the row.
    numerator, denominator : array-like of float, shape (n,)
        Per-unit sums (e.g. caidas and plays of one data); denominators non-negative.
    confidence : float
        Two-sided level.
    value_range : (float, float), optional
        Bounds of a possible per-unit ratio ``num_i / den_i`` (e.g. ``(0, 1)`` for hits out
        of trials); used only when the sample shows no variation.

    Returns
    -------
    dict
        An estimate row (:data:`ESTIMATE_COLUMNS`, ``method = "ratio"``), ``n`` the number of
        units (datas); the critical value is Student's t with ``n - 1`` degrees of freedom
        below :data:`T_MAX_N` units (:func:`critical_value`). Undefined (NaN, ``defined =
        False``) with fewer than 2 units or a denominator summing to 0. When every unit has
        the same ratio ``c`` (``num_i sum(den) == sum(num) den_i``) there is no variation to
        estimate the error from: ``no_variation = True``, and with ``value_range = (lo, hi)``
        the bound ``[c - w (c - lo), c + w (hi - c)]``, where ``w = min(1, u max(den) /
        mean(den))`` bounds the share of the denominator held by units that could differ
        (``u`` of :func:`no_variation_bound`; plug-in: such units' denominators are assumed
        within the observed ones), with ``method =`` :data:`NO_VARIATION_METHOD` (the bound is
        not a delta-method interval); NaN bounds (``defined = False``, ``method = "ratio"``)
        without a range. Never a zero-width interval.

    Raises
    ------
    ValueError
        If ``value_range`` does not contain the constant ratio.
    """
    y = np.asarray(numerator, dtype=np.float64)
    x = np.asarray(denominator, dtype=np.float64)
    n = y.size
    if n < 2 or x.sum() == 0:
        est = y.sum() / x.sum() if x.sum() else math.nan
        return estimate_row(metric, float(est), math.nan, math.nan, n, "ratio", False)
    r = float(y.sum() / x.sum())
    if np.array_equal(y * x.sum(), y.sum() * x):
        if value_range is None:
            return estimate_row(metric, r, math.nan, math.nan, n, "ratio", False, True)
        lo, hi, _ = constant_interval(r, n, confidence, value_range)
        u = no_variation_bound(n, confidence)
        w = min(1.0, u * float(x.max()) / float(x.mean()))
        scale = w / u
        lower, upper = r - (r - lo) * scale, r + (hi - r) * scale
        return estimate_row(metric, r, lower, upper, n, NO_VARIATION_METHOD, True, True)
    resid = y - r * x
    se = math.sqrt(float(resid.var(ddof=1)) * n) / x.sum()
    half = critical_value(confidence, n) * se
    return estimate_row(metric, r, r - half, r + half, n, "ratio", True)
