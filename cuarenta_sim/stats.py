"""Estimates with honest error bars: DataFrame in, DataFrame out.

Every estimate comes with its sample size ``n``, a ``lower``/``upper`` interval at
``confidence``, the ``method`` that made it, ``defined`` (False: no interval), ``no_variation``
(True: the sample showed no variation at all) and, for differences, ``p_value`` (two-sided, of
a zero difference; NaN for single estimates):

* ``wilson``: Wilson score interval for a proportion; valid at 0/N and N/N (never zero-width);
  ``n == 0`` gives NaN bounds with ``defined = False`` (never an exception).
* ``t`` / ``normal``: mean +- c * s / sqrt(n) for a mean of i.i.d. per-data values (datas are
  independent by construction: each has its own random streams); ``c`` is Student's t with
  ``n - 1`` degrees of freedom below :data:`T_MAX_N` units (``method = "t"``), the normal
  quantile from there on (``"normal"``): :func:`critical_value`.
* ``ratio``: a ratio of sums over independent datas (e.g. caidas per play), with a delta-method
  (cluster-robust) standard error, so the dependence of plays within a data is respected.

Differences between two variants (rule sets) come in two kinds:

* **paired** (common random numbers: unit ``i`` of both samples played the same decks):
  ``paired`` (interval on the per-unit differences, for means and 0/1 outcomes), ``paired
  exact`` (0/1 outcomes with fewer than :data:`EXACT_MAX_DISCORDANT` discordant pairs: exact
  McNemar test and Clopper-Pearson bounds, :func:`paired_verdict`), ``paired ratio``
  (difference of two ratios of sums, delta method on the paired units) and ``paired
  log-ratio`` (relative difference ``a / b - 1``, delta method on the log scale).
* **unpaired** (independent samples): ``welch`` for means (Welch-Satterthwaite t),
  ``newcombe`` (hybrid score, built from two Wilson intervals) for proportions.

**Constant samples never get a zero-width interval.** When every unit has the same value
(identical paired samples, a mean of equal values, an exactly proportional ratio) the row is
flagged ``no_variation = True``; its interval is the bound :func:`constant_interval` derives
from :func:`no_variation_bound` (the share of units that could still differ, ``1 -
(alpha/2)^(1/n)``) when the range of the values is known (``value_range``, or 0/1 outcomes),
and NaN (``defined = False``: "no variation observed", no interval) otherwise.

:func:`verdicts` says what each difference's test settles, with Holm's correction over the
family of rows (:mod:`cuarenta_sim.verdicts`, whose public names are importable from here).
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from .distributions import sign_test_p, t_ppf
from .distributions import z_value as z_value
from .verdicts import ADJUSTMENTS as ADJUSTMENTS
from .verdicts import EXACT_MAX_DISCORDANT as EXACT_MAX_DISCORDANT
from .verdicts import T_MAX_N as T_MAX_N
from .verdicts import VERDICT_WORDS as VERDICT_WORDS
from .verdicts import VERDICTS as VERDICTS
from .verdicts import adjust_pvalues as adjust_pvalues
from .verdicts import benjamini_hochberg as benjamini_hochberg
from .verdicts import constant_interval as constant_interval
from .verdicts import critical_value as critical_value
from .verdicts import discordant_test as discordant_test
from .verdicts import holm as holm
from .verdicts import implied_p_value as implied_p_value
from .verdicts import is_binary as is_binary
from .verdicts import no_variation_bound as no_variation_bound
from .verdicts import p_value_of_zero as p_value_of_zero
from .verdicts import paired_verdict as paired_verdict
from .verdicts import required_n as required_n
from .verdicts import too_small as too_small
from .verdicts import verdict_table as verdict_table
from .verdicts import verdict_word as verdict_word
from .verdicts import verdicts as verdicts
from .verdicts import with_verdicts as with_verdicts

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
        :func:`constant_interval` (``value_range``), never a zero-width interval.
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
        return estimate_row(metric, est, lo, hi, n, method, ok, True, p)
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
        True`` and the :func:`constant_interval` (NaN, undefined, without ``value_range``).
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
        within the observed ones); NaN bounds (``defined = False``) without a range. Never a
        zero-width interval.

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
        return estimate_row(
            metric, r, r - (r - lo) * scale, r + (hi - r) * scale, n, "ratio", True, True
        )
    resid = y - r * x
    se = math.sqrt(float(resid.var(ddof=1)) * n) / x.sum()
    half = critical_value(confidence, n) * se
    return estimate_row(metric, r, r - half, r + half, n, "ratio", True)


# --------------------------------------------------------------------------- differences
def _few_differ_p(p: float, delta: np.ndarray) -> float:
    """Guard a p-value with the exact sign test when few units differ.

    With fewer than :data:`EXACT_MAX_DISCORDANT` nonzero per-unit differences ``delta`` the
    sampling distribution of a mean difference is far from normal (a handful of nonzero
    values among thousands of zeros), so the p-value is the larger of ``p`` and the exact
    sign test's on the signs of the nonzero differences: a verdict then needs the differing
    units to agree in direction, not only a mean large against its spread.
    """
    pos = int((delta > 0).sum())
    k = pos + int((delta < 0).sum())
    if 0 < k < EXACT_MAX_DISCORDANT and math.isfinite(p):
        return max(p, sign_test_p(pos, k))
    return p


def _constant_ratio_p(delta: np.ndarray) -> float:
    """P-value of two paired ratios whose per-unit linearisation shows no variation: 1 when no
    unit differs, else the exact sign test on the per-unit comparisons ``delta``."""
    pos = int((delta > 0).sum())
    k = pos + int((delta < 0).sum())
    return sign_test_p(pos, k)


def diff_paired(
    metric: str,
    a: np.ndarray | pd.Series,
    b: np.ndarray | pd.Series,
    confidence: float = 0.95,
    value_range: ValueRange = None,
    binary: bool | None = None,
) -> dict:
    """Mean of the paired differences ``a - b`` (same decks, common random numbers).

    Parameters
    ----------
    metric : str
        Name of the row.
    a, b : array-like of float, shape (n,)
        Per-unit values under A and B (0/1 outcomes, points, counts...).
    confidence : float
        Two-sided level.
    value_range : (float, float), optional
        Bounds of a possible per-unit *difference*; used only when every difference is equal.
    binary : bool, optional
        Whether ``a`` and ``b`` are 0/1 outcomes; ``None`` detects it (:func:`is_binary`:
        boolean, or 0 and 1 both present and nothing else).

    Returns
    -------
    dict
        An estimate row (:data:`ESTIMATE_COLUMNS`) with ``p_value`` (two-sided, of no
        difference):

        * 0/1 outcomes with 1 to ``EXACT_MAX_DISCORDANT - 1`` discordant pairs:
          :func:`paired_verdict` (``method = "paired exact"``: McNemar exact test, exact
          bounds);
        * otherwise ``method = "paired"``: Student t (below :data:`T_MAX_N` pairs) or normal
          interval on the per-unit differences, its p-value, guarded by the exact sign test
          when fewer than :data:`EXACT_MAX_DISCORDANT` pairs differ;
        * every difference equal (e.g. identical samples): ``no_variation = True``, the
          :func:`constant_interval` (``value_range``; ``(-1, 1)`` for 0/1 outcomes; NaN and
          ``defined = False`` when unknown), never ``[0, 0]``; ``p_value`` 1 for a zero
          difference, the sign test's ``2^(1-n)`` otherwise.

    Raises
    ------
    ValueError
        If ``a`` and ``b`` differ in length.
    """
    x = np.asarray(a)
    y = np.asarray(b)
    if x.shape != y.shape:
        raise ValueError(f"paired samples must have equal length, got {x.size} and {y.size}")
    xf, yf = x.astype(np.float64), y.astype(np.float64)
    delta = xf - yf
    n = delta.size
    is01 = n > 0 and (is_binary(x, y) if binary is None else bool(binary))
    if is01:
        discordant = int((delta != 0.0).sum())
        if 0 < discordant < EXACT_MAX_DISCORDANT and n >= 2:
            row = paired_verdict(xf, yf, metric, confidence)
            return {k: row[k] for k in ESTIMATE_COLUMNS}
        if value_range is None:
            value_range = (-1.0, 1.0)
    est = float(delta.mean()) if n else math.nan
    sd = float(delta.std(ddof=1)) if n > 1 else math.nan
    row = spread_row(
        metric,
        est,
        sd,
        n,
        confidence,
        "paired",
        constant=_is_constant(delta),
        value_range=value_range,
        test_zero=True,
    )
    if not row["no_variation"]:
        row["p_value"] = _few_differ_p(row["p_value"], delta)
    return row


def diff_means(
    metric: str,
    a: np.ndarray | pd.Series,
    b: np.ndarray | pd.Series,
    confidence: float = 0.95,
    value_range: ValueRange = None,
) -> dict:
    """Difference of two independent means ``mean(a) - mean(b)``, Welch interval.

    Parameters
    ----------
    metric : str
        Name of the row.
    a, b : array-like of float
        Independent samples.
    confidence : float
        Two-sided level.
    value_range : (float, float), optional
        Bounds of a possible value of one unit; used only when both samples are constant.

    Returns
    -------
    dict
        An estimate row, ``method = "welch"``: Student t with Welch-Satterthwaite degrees of
        freedom below :data:`T_MAX_N` (normal from there on), and its ``p_value``. ``n`` is
        ``len(a) + len(b)``; undefined (NaN bounds) when either sample has < 2 values. Both
        samples constant: ``no_variation = True``, bounds from each sample's
        :func:`constant_interval` at level ``1 - alpha/2`` (Bonferroni) when ``value_range``
        is given, else NaN; ``p_value`` 1 for equal constants, else the exact permutation
        p-value of two perfectly separated samples, ``2 / C(n_a + n_b, n_a)``. (One constant
        sample contributes no variance: its interval then rests on the other alone.)
    """
    x = np.asarray(a, dtype=np.float64)
    y = np.asarray(b, dtype=np.float64)
    n = x.size + y.size
    if x.size < 2 or y.size < 2:
        est = float(x.mean() - y.mean()) if x.size and y.size else math.nan
        return estimate_row(metric, est, math.nan, math.nan, n, "welch", False)
    est = float(x.mean() - y.mean())
    if _is_constant(x) and _is_constant(y):
        level = 1.0 - (1.0 - confidence) / 2.0
        ax, bx, ok = constant_interval(float(x[0]), x.size, level, value_range)
        ay, by, _ = constant_interval(float(y[0]), y.size, level, value_range)
        p = 1.0 if est == 0.0 else min(1.0, 2.0 / math.comb(n, x.size))
        return estimate_row(metric, est, ax - by, bx - ay, n, "welch", ok, True, p)
    vx, vy = float(x.var(ddof=1)) / x.size, float(y.var(ddof=1)) / y.size
    se = math.sqrt(vx + vy)
    df = (vx + vy) ** 2 / (vx * vx / (x.size - 1) + vy * vy / (y.size - 1))
    # Welch-Satterthwaite degrees of freedom play the role of n - 1 in critical_value.
    crit = t_ppf(0.5 + confidence / 2.0, df) if df + 1.0 < T_MAX_N else z_value(confidence)
    half = crit * se
    return estimate_row(
        metric, est, est - half, est + half, n, "welch", True, False, p_value_of_zero(est, se, df)
    )


def diff_proportions(
    metric: str, k1: int, n1: int, k2: int, n2: int, confidence: float = 0.95
) -> dict:
    """Difference ``k1/n1 - k2/n2`` of independent proportions, Newcombe's hybrid score interval.

    Built from the two Wilson intervals (Newcombe 1998, method 10), so it stays valid (and
    never zero-width) at 0/N and N/N; ``no_variation`` is True when both samples are at an
    edge. Undefined (NaN) when either ``n`` is 0. ``p_value`` is NaN (not dual to this
    interval; :func:`verdicts` reads it off the interval).
    """
    p1, l1, u1 = (float(v) for v in wilson_interval(k1, n1, confidence))
    p2, l2, u2 = (float(v) for v in wilson_interval(k2, n2, confidence))
    if n1 == 0 or n2 == 0:
        return estimate_row(metric, math.nan, math.nan, math.nan, n1 + n2, "newcombe", False)
    d = p1 - p2
    lower = d - math.sqrt((p1 - l1) ** 2 + (u2 - p2) ** 2)
    upper = d + math.sqrt((u1 - p1) ** 2 + (p2 - l2) ** 2)
    flat = k1 in (0, n1) and k2 in (0, n2)
    return estimate_row(metric, d, lower, upper, n1 + n2, "newcombe", True, flat)


# --------------------------------------------------------------------------- group-bys
def grouped_proportions(
    frame: pd.DataFrame, by: str | list[str], success: str, confidence: float = 0.95
) -> pd.DataFrame:
    """Wilson proportion of a 0/1 (or boolean) column per group, keeping empty groups.

    Parameters
    ----------
    frame : DataFrame
        One row per trial.
    by : str or list of str
        Grouping columns. Categorical columns keep every category, also those with no rows
        (``observed=False``): they come out with ``n = 0``, NaN estimate and bounds and
        ``defined = False``.
    success : str
        Column of 0/1 or boolean outcomes.
    confidence : float
        Two-sided confidence level.

    Returns
    -------
    DataFrame
        The ``by`` columns, then ``successes``, ``n``, ``estimate``, ``lower``, ``upper``,
        ``method`` (``"wilson"``), ``defined`` and ``no_variation`` (``0/N`` or ``N/N``,
        ``N > 0``; the Wilson interval there is never zero-width).
    """
    keys = [by] if isinstance(by, str) else list(by)
    g = frame.groupby(keys, observed=False, sort=True)[success]
    counts = g.agg(successes="sum", n="count").reset_index()
    counts["successes"] = counts["successes"].fillna(0).astype(np.int64)
    counts["n"] = counts["n"].astype(np.int64)
    p, lo, hi = wilson_interval(counts["successes"].to_numpy(), counts["n"].to_numpy(), confidence)
    counts["estimate"], counts["lower"], counts["upper"] = p, lo, hi
    counts["method"] = "wilson"
    counts["defined"] = counts["n"] > 0
    counts["no_variation"] = _flat_counts(counts["successes"], counts["n"])
    return counts


def _flat_counts(k: pd.Series | np.ndarray, n: pd.Series | np.ndarray) -> np.ndarray:
    k, n = np.asarray(k), np.asarray(n)
    return (n > 0) & ((k == 0) | (k == n))


def grouped_means(
    frame: pd.DataFrame, by: str | list[str], value: str, confidence: float = 0.95
) -> pd.DataFrame:
    """Mean of ``value`` per group with a t or normal interval, keeping empty groups.

    Each group is :func:`mean` of its rows: Student t below :data:`T_MAX_N` rows (``method
    = "t"``), normal from there on (``"normal"``).

    Returns
    -------
    DataFrame
        The ``by`` columns, then ``n``, ``estimate``, ``lower``, ``upper``, ``method``,
        ``defined`` (False for groups with fewer than 2 rows: NaN bounds) and
        ``no_variation`` (every row of the group equal: NaN bounds and ``defined = False``,
        "no variation observed", never a zero-width interval).
    """
    keys = [by] if isinstance(by, str) else list(by)
    g = frame.groupby(keys, observed=False, sort=True)[value]
    agg = g.agg(n="count", estimate="mean", sd="std", low="min", high="max").reset_index()
    agg["n"] = agg["n"].astype(np.int64)
    n = agg["n"].to_numpy()
    crit = np.array([critical_value(confidence, int(k)) if k >= 2 else np.nan for k in n])
    half = crit * agg["sd"].to_numpy(np.float64) / np.sqrt(np.where(n > 0, n, np.nan))
    flat = (n >= 2) & (agg["low"] == agg["high"]).to_numpy()
    ok = (n >= 2) & ~flat
    est = agg["estimate"].to_numpy(np.float64)
    agg["lower"] = np.where(ok, est - half, np.nan)
    agg["upper"] = np.where(ok, est + half, np.nan)
    agg["method"] = np.where(n < T_MAX_N, "t", "normal")
    agg["defined"] = ok
    agg["no_variation"] = flat
    return agg.drop(columns=["sd", "low", "high"])


# --------------------------------------------------------------------------- frames of counts
def proportions(
    counts: pd.DataFrame,
    successes: str = "successes",
    trials: str = "n",
    confidence: float = 0.95,
) -> pd.DataFrame:
    """Wilson proportions of a frame of counts, one per row, DataFrame in and out.

    Parameters
    ----------
    counts : DataFrame
        One row per proportion, with integer columns ``successes`` and ``trials`` and any
        key columns (kept as they are).
    successes, trials : str
        Names of the count columns, ``0 <= successes <= trials``.
    confidence : float
        Two-sided confidence level.

    Returns
    -------
    DataFrame
        A copy of ``counts`` plus ``estimate``, ``lower``, ``upper`` (float64), ``method``
        (``"wilson"``), ``defined`` and ``no_variation`` (bool). Rows with ``trials == 0``
        get NaN estimate and bounds and ``defined = False``; at ``0/N`` the lower bound is 0
        and at ``N/N`` the upper bound is 1 (Wilson stays valid, and never zero-width, at the
        edges), flagged ``no_variation``.

    Raises
    ------
    KeyError
        If a count column is missing.
    ValueError
        On negative counts or ``successes > trials``.
    """
    out = counts.copy()
    k = out[successes].to_numpy(dtype=np.int64)
    n = out[trials].to_numpy(dtype=np.int64)
    p, lo, hi = wilson_interval(k, n, confidence)
    out["estimate"] = np.asarray(p, dtype=np.float64).reshape(-1)
    out["lower"] = np.asarray(lo, dtype=np.float64).reshape(-1)
    out["upper"] = np.asarray(hi, dtype=np.float64).reshape(-1)
    out["method"] = "wilson"
    out["defined"] = n > 0
    out["no_variation"] = _flat_counts(k, n)
    return out


# --------------------------------------------------------------------------- paired ratios
def diff_paired_ratio(
    metric: str,
    num_a: np.ndarray | pd.Series,
    den_a: np.ndarray | pd.Series,
    num_b: np.ndarray | pd.Series,
    den_b: np.ndarray | pd.Series,
    confidence: float = 0.95,
) -> dict:
    """Difference ``sum(num_a)/sum(den_a) - sum(num_b)/sum(den_b)`` of two paired ratios.

    Unit ``i`` of sample ``a`` and unit ``i`` of sample ``b`` are paired (common random
    numbers, e.g. the same deck played under two rule sets), so the interval uses the per-unit
    linearisation of both ratios (delta method): ``z_i = (num_a_i - r_a den_a_i) / mean(den_a)
    - (num_b_i - r_b den_b_i) / mean(den_b)`` and ``se = sd(z) / sqrt(n)``
    (``method = "paired ratio"``), critical value Student t with ``n - 1`` degrees of freedom
    below :data:`T_MAX_N` pairs. ``p_value`` is the matching test of no difference, guarded by
    the exact sign test on the per-unit ratio comparisons ``num_a den_b - num_b den_a`` when
    fewer than :data:`EXACT_MAX_DISCORDANT` pairs differ. Identical samples (every ``z_i``
    0) give ``0`` flagged ``no_variation`` with NaN bounds (``defined = False``), never
    ``[0, 0]``.

    Parameters
    ----------
    metric : str
        Name of the row.
    num_a, den_a, num_b, den_b : array-like of float, shape (n,)
        Per-unit numerators and denominators (e.g. caidas and plays per data).
    confidence : float
        Two-sided confidence level.

    Returns
    -------
    dict
        An estimate row (:data:`ESTIMATE_COLUMNS`), ``n`` the number of pairs; undefined (NaN
        bounds, ``defined = False``) with fewer than 2 pairs or a denominator summing to 0.

    Raises
    ------
    ValueError
        If the four arrays differ in length.
    """
    ya, xa, yb, xb = (np.asarray(v, dtype=np.float64) for v in (num_a, den_a, num_b, den_b))
    if not ya.shape == xa.shape == yb.shape == xb.shape:
        raise ValueError(
            f"paired ratios need four arrays of equal length, got "
            f"{ya.size}, {xa.size}, {yb.size}, {xb.size}"
        )
    n = ya.size
    sa, sb = xa.sum(), xb.sum()
    if n < 2 or sa == 0 or sb == 0:
        est = ya.sum() / sa - yb.sum() / sb if sa and sb else math.nan
        return estimate_row(metric, float(est), math.nan, math.nan, n, "paired ratio", False)
    ra, rb = ya.sum() / sa, yb.sum() / sb
    z = (ya - ra * xa) / (sa / n) - (yb - rb * xb) / (sb / n)
    d = float(ra - rb)
    if not z.any():
        p = _constant_ratio_p(ya * xb - yb * xa)
        return estimate_row(metric, d, math.nan, math.nan, n, "paired ratio", False, True, p)
    se = float(z.std(ddof=1)) / math.sqrt(n)
    half = critical_value(confidence, n) * se
    p = _few_differ_p(p_value_of_zero(d, se, n - 1), ya * xb - yb * xa)
    return estimate_row(metric, d, d - half, d + half, n, "paired ratio", True, False, p)


def rel_diff_paired(
    metric: str,
    a: np.ndarray | pd.Series,
    b: np.ndarray | pd.Series,
    confidence: float = 0.95,
    den_a: np.ndarray | pd.Series | None = None,
    den_b: np.ndarray | pd.Series | None = None,
) -> dict:
    """Relative difference ``R_a / R_b - 1`` of two paired means (or ratios of sums).

    ``R = sum(a) / sum(den)`` with ``den`` all ones by default (a mean). The interval comes
    from the delta method on ``log(R_a / R_b)`` with the per-unit influence ``z_i = (a_i - R_a
    den_a_i) / sum(a) - (b_i - R_b den_b_i) / sum(b)``, ``se = sqrt(n var(z))``, mapped back
    with ``exp(.) - 1`` (``method = "paired log-ratio"``), so it stays inside ``(-1, inf)``;
    critical value Student t with ``n - 1`` degrees of freedom below :data:`T_MAX_N` pairs,
    ``p_value`` as for :func:`diff_paired_ratio` (on the log scale). Identical samples give
    ``0`` flagged ``no_variation`` with NaN bounds (``defined = False``), never ``[0, 0]``.

    Parameters
    ----------
    metric : str
        Name of the row.
    a, b : array-like of float, shape (n,)
        Paired per-unit values (numerators), non-negative.
    confidence : float
        Two-sided confidence level.
    den_a, den_b : array-like of float, shape (n,), optional
        Per-unit denominators; ``None`` means 1 per unit.

    Returns
    -------
    dict
        An estimate row (:data:`ESTIMATE_COLUMNS`) in units of a fraction (0.1 = +10%);
        undefined with fewer than 2 pairs, a zero sum of ``a``, ``b`` or a denominator, or
        ratios of opposite signs (no log-ratio).

    Raises
    ------
    ValueError
        If the arrays differ in length.
    """
    ya = np.asarray(a, dtype=np.float64)
    yb = np.asarray(b, dtype=np.float64)
    xa = np.ones_like(ya) if den_a is None else np.asarray(den_a, dtype=np.float64)
    xb = np.ones_like(yb) if den_b is None else np.asarray(den_b, dtype=np.float64)
    if not ya.shape == yb.shape == xa.shape == xb.shape:
        raise ValueError(
            f"paired samples must have equal length, got {ya.size}, {yb.size}, {xa.size}, {xb.size}"
        )
    n = ya.size
    Ya, Yb, Xa, Xb = ya.sum(), yb.sum(), xa.sum(), xb.sum()
    if n < 2 or 0.0 in (Ya, Yb, Xa, Xb):
        est = (Ya / Xa) / (Yb / Xb) - 1.0 if 0.0 not in (Ya, Yb, Xa, Xb) else math.nan
        return estimate_row(metric, float(est), math.nan, math.nan, n, "paired log-ratio", False)
    ra, rb = Ya / Xa, Yb / Xb
    q = ra / rb
    z = (ya - ra * xa) / Ya - (yb - rb * xb) / Yb
    if not z.any():
        p = _constant_ratio_p(ya * xb - yb * xa)
        return estimate_row(
            metric, float(q - 1.0), math.nan, math.nan, n, "paired log-ratio", False, True, p
        )
    if not q > 0.0:
        # Ratios of opposite signs (e.g. a mean advantage below 0 under one rule set and
        # above under the other) have no log-ratio: the relative change is undefined.
        return estimate_row(metric, float(q - 1.0), math.nan, math.nan, n, "paired log-ratio",
                            False)  # fmt: skip
    se = math.sqrt(float(z.var(ddof=1)) * n)
    half = critical_value(confidence, n) * se
    log_q = math.log(q)
    return estimate_row(
        metric,
        float(q - 1.0),
        math.expm1(log_q - half),
        math.expm1(log_q + half),
        n,
        "paired log-ratio",
        True,
        False,
        _few_differ_p(p_value_of_zero(log_q, se, n - 1), ya * xb - yb * xa),
    )


def diff_rel_diffs_paired(
    metric: str,
    a1: np.ndarray | pd.Series,
    b1: np.ndarray | pd.Series,
    a2: np.ndarray | pd.Series,
    b2: np.ndarray | pd.Series,
    confidence: float = 0.95,
) -> dict:
    """Difference ``(mean(a1) / mean(b1) - 1) - (mean(a2) / mean(b2) - 1)`` of two paired
    relative differences measured on the same units (e.g. the Quito-to-Cuenca change of chica
    length under one player model minus that under another, chica index by chica index).

    Each relative difference ``r_k = exp(L_k) - 1`` with ``L_k = log(sum(a_k) / sum(b_k))``
    has the per-unit influence ``(1 + r_k) z_k`` where ``z_k,i = a_k,i / sum(a_k) - b_k,i /
    sum(b_k)`` (the delta method of :func:`rel_diff_paired`); the influence of the difference
    is their difference unit by unit, so any correlation between the two measurements (same
    decks) is counted. ``se = sqrt(n var(influence))``, critical value Student t with
    ``n - 1`` degrees of freedom below :data:`T_MAX_N` units, else normal (``method =
    "paired delta"``). A constant influence gives the estimate flagged ``no_variation`` with
    NaN bounds, never a zero-width interval.

    Parameters
    ----------
    metric : str
        Name of the row.
    a1, b1, a2, b2 : array-like of float, shape (n,)
        Per-unit values: variant and baseline under the first measurement (``a1``, ``b1``) and
        under the second (``a2``, ``b2``); unit ``i`` is the same in all four. Non-negative.
    confidence : float
        Two-sided confidence level.

    Returns
    -------
    dict
        An estimate row (:data:`ESTIMATE_COLUMNS`) in units of a fraction (0.01 = 1
        percentage point); undefined with fewer than 2 units or a zero sum.

    Raises
    ------
    ValueError
        If the arrays differ in length.
    """
    arrays = [np.asarray(x, dtype=np.float64) for x in (a1, b1, a2, b2)]
    if len({x.shape for x in arrays}) != 1:
        raise ValueError(
            "paired samples must have equal length, got " + ", ".join(str(x.size) for x in arrays)
        )
    ya1, yb1, ya2, yb2 = arrays
    n = ya1.size
    sums = [float(x.sum()) for x in arrays]
    if n < 2 or 0.0 in sums:
        return estimate_row(metric, math.nan, math.nan, math.nan, n, "paired delta", False)
    q1, q2 = sums[0] / sums[1], sums[2] / sums[3]
    est = (q1 - 1.0) - (q2 - 1.0)
    infl = q1 * (ya1 / sums[0] - yb1 / sums[1]) - q2 * (ya2 / sums[2] - yb2 / sums[3])
    if _is_constant(infl):
        return estimate_row(metric, est, math.nan, math.nan, n, "paired delta", False, True)
    se = math.sqrt(float(infl.var(ddof=1)) * n)
    half = critical_value(confidence, n) * se
    return estimate_row(
        metric,
        est,
        est - half,
        est + half,
        n,
        "paired delta",
        True,
        False,
        p_value_of_zero(est, se, n - 1),
    )
