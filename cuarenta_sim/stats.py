"""Estimates with honest error bars: DataFrame in, DataFrame out.

Every estimate comes with its sample size ``n``, a ``lower``/``upper`` interval at
``confidence`` and the ``method`` that made it:

* ``wilson``: Wilson score interval for a proportion; valid at 0/N and N/N; ``n == 0`` gives
  NaN bounds with ``defined = False`` (never an exception).
* ``normal``: mean +- z * s / sqrt(n) for a mean of i.i.d. per-data values (datas are
  independent by construction: each has its own random streams).
* ``ratio``: a ratio of sums over independent datas (e.g. caidas per play), with a delta-method
  (cluster-robust) standard error, so the dependence of plays within a data is respected.

Differences between two variants (rule sets) come in two kinds:

* **paired** (common random numbers: unit ``i`` of both samples played the same decks):
  ``paired`` (normal interval on the per-unit differences, for means and 0/1 outcomes),
  ``paired ratio`` (difference of two ratios of sums, delta method on the paired units) and
  ``paired log-ratio`` (relative difference ``a / b - 1``, delta method on the log scale). Each
  is exactly ``0`` with a zero-width interval when both samples are identical.
* **unpaired** (independent samples): ``welch`` for means, ``newcombe`` (hybrid score, built
  from two Wilson intervals) for proportions.

:func:`verdicts` says whether a difference is resolved by its interval.
"""

from __future__ import annotations

import math
from statistics import NormalDist

import numpy as np
import pandas as pd

#: Columns of every estimate frame, in order.
ESTIMATE_COLUMNS = ["metric", "estimate", "lower", "upper", "n", "method", "defined"]


def z_value(confidence: float) -> float:
    """Two-sided standard-normal quantile for ``confidence`` in (0, 1).

    Raises
    ------
    ValueError
        If ``confidence`` is not strictly between 0 and 1.
    """
    if not 0.0 < confidence < 1.0:
        raise ValueError(f"confidence must be strictly between 0 and 1, got {confidence!r}")
    return NormalDist().inv_cdf(0.5 + confidence / 2.0)


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
    """One proportion as an estimate row (``method = "wilson"``); see :data:`ESTIMATE_COLUMNS`."""
    p, lo, hi = wilson_interval(successes, trials, confidence)
    return {
        "metric": metric,
        "estimate": float(p),
        "lower": float(lo),
        "upper": float(hi),
        "n": int(trials),
        "method": "wilson",
        "defined": bool(trials > 0),
    }


def mean(metric: str, values: np.ndarray | pd.Series, confidence: float = 0.95) -> dict:
    """Mean of i.i.d. values with a normal interval (``method = "normal"``).

    ``n < 2`` gives NaN bounds and ``defined = False`` (``n == 0``: NaN estimate too).
    """
    x = np.asarray(values, dtype=np.float64)
    n = x.size
    est = float(x.mean()) if n else math.nan
    if n < 2:
        return _row(metric, est, math.nan, math.nan, n, "normal", False)
    half = z_value(confidence) * float(x.std(ddof=1)) / math.sqrt(n)
    return _row(metric, est, est - half, est + half, n, "normal", True)


def clustered_proportion(metric: str, score: np.ndarray | pd.Series, confidence: float = 0.95
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
        independent). Undefined (NaN) for no cluster.

    Raises
    ------
    ValueError
        If a score is outside [0, 1].
    """
    x = np.asarray(score, dtype=np.float64)
    n = x.size
    if n == 0:
        return _row(metric, math.nan, math.nan, math.nan, 0, "clustered wilson", False)
    if np.any((x < 0.0) | (x > 1.0)):
        raise ValueError("cluster scores must lie in [0, 1]")
    p = float(x.mean())
    var_mean = float(x.var(ddof=1)) / n if n > 1 else 0.0
    n_eff = p * (1.0 - p) / var_mean if var_mean > 0.0 else 2.0 * n
    est, lo, hi = wilson_interval(p * n_eff, n_eff, confidence)
    return _row(metric, float(est), float(lo), float(hi), n, "clustered wilson", True)


def ratio(
    metric: str,
    numerator: np.ndarray | pd.Series,
    denominator: np.ndarray | pd.Series,
    confidence: float = 0.95,
) -> dict:
    """Ratio of sums ``sum(num) / sum(den)`` over independent units, delta-method interval.

    ``n`` is the number of units (datas). Undefined (NaN, ``defined = False``) when there are
    fewer than 2 units or the denominator sums to 0.
    """
    y = np.asarray(numerator, dtype=np.float64)
    x = np.asarray(denominator, dtype=np.float64)
    n = y.size
    if n < 2 or x.sum() == 0:
        est = y.sum() / x.sum() if x.sum() else math.nan
        return _row(metric, float(est), math.nan, math.nan, n, "ratio", False)
    r = y.sum() / x.sum()
    resid = y - r * x
    se = math.sqrt(float(resid.var(ddof=1)) * n) / x.sum()
    half = z_value(confidence) * se
    return _row(metric, float(r), float(r - half), float(r + half), n, "ratio", True)


def _row(metric: str, est: float, lo: float, hi: float, n: int, method: str, ok: bool) -> dict:
    return {
        "metric": metric,
        "estimate": est,
        "lower": lo,
        "upper": hi,
        "n": int(n),
        "method": method,
        "defined": ok,
    }


# --------------------------------------------------------------------------- differences
def diff_paired(
    metric: str,
    a: np.ndarray | pd.Series,
    b: np.ndarray | pd.Series,
    confidence: float = 0.95,
) -> dict:
    """Mean of the paired differences ``a - b`` (same decks, common random numbers).

    Works for 0/1 outcomes (a paired difference of proportions) and for any per-unit values
    (points, counts). Normal interval on the per-unit differences (``method = "paired"``): when
    every difference is 0 the interval is exactly ``[0, 0]``.

    Raises
    ------
    ValueError
        If ``a`` and ``b`` differ in length.
    """
    x = np.asarray(a, dtype=np.float64)
    y = np.asarray(b, dtype=np.float64)
    if x.shape != y.shape:
        raise ValueError(f"paired samples must have equal length, got {x.size} and {y.size}")
    row = mean(metric, x - y, confidence)
    row["method"] = "paired"
    return row


def diff_means(
    metric: str,
    a: np.ndarray | pd.Series,
    b: np.ndarray | pd.Series,
    confidence: float = 0.95,
) -> dict:
    """Difference of two independent means ``mean(a) - mean(b)``, Welch normal interval.

    ``n`` is ``len(a) + len(b)``; undefined (NaN bounds) when either sample has < 2 values.
    """
    x = np.asarray(a, dtype=np.float64)
    y = np.asarray(b, dtype=np.float64)
    n = x.size + y.size
    if x.size < 2 or y.size < 2:
        est = float(x.mean() - y.mean()) if x.size and y.size else math.nan
        return _row(metric, est, math.nan, math.nan, n, "welch", False)
    est = float(x.mean() - y.mean())
    se = math.sqrt(float(x.var(ddof=1)) / x.size + float(y.var(ddof=1)) / y.size)
    half = z_value(confidence) * se
    return _row(metric, est, est - half, est + half, n, "welch", True)


def diff_proportions(
    metric: str, k1: int, n1: int, k2: int, n2: int, confidence: float = 0.95
) -> dict:
    """Difference ``k1/n1 - k2/n2`` of independent proportions, Newcombe's hybrid score interval.

    Built from the two Wilson intervals (Newcombe 1998, method 10), so it stays valid at 0/N
    and N/N. Undefined (NaN) when either ``n`` is 0.
    """
    p1, l1, u1 = (float(v) for v in wilson_interval(k1, n1, confidence))
    p2, l2, u2 = (float(v) for v in wilson_interval(k2, n2, confidence))
    if n1 == 0 or n2 == 0:
        return _row(metric, math.nan, math.nan, math.nan, n1 + n2, "newcombe", False)
    d = p1 - p2
    lower = d - math.sqrt((p1 - l1) ** 2 + (u2 - p2) ** 2)
    upper = d + math.sqrt((u1 - p1) ** 2 + (p2 - l2) ** 2)
    return _row(metric, d, lower, upper, n1 + n2, "newcombe", True)


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
        ``method`` (``"wilson"``) and ``defined``.
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
    return counts


def grouped_means(
    frame: pd.DataFrame, by: str | list[str], value: str, confidence: float = 0.95
) -> pd.DataFrame:
    """Mean of ``value`` per group with a normal interval, keeping empty groups.

    Returns
    -------
    DataFrame
        The ``by`` columns, then ``n``, ``estimate``, ``lower``, ``upper``, ``method``
        (``"normal"``) and ``defined`` (False for groups with fewer than 2 rows: NaN bounds).
    """
    keys = [by] if isinstance(by, str) else list(by)
    g = frame.groupby(keys, observed=False, sort=True)[value]
    agg = g.agg(n="count", estimate="mean", sd="std").reset_index()
    agg["n"] = agg["n"].astype(np.int64)
    half = z_value(confidence) * agg["sd"] / np.sqrt(agg["n"].where(agg["n"] > 0))
    ok = agg["n"] >= 2
    agg["lower"] = (agg["estimate"] - half).where(ok)
    agg["upper"] = (agg["estimate"] + half).where(ok)
    agg["method"] = "normal"
    agg["defined"] = ok
    return agg.drop(columns="sd")


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
        (``"wilson"``) and ``defined`` (bool). Rows with ``trials == 0`` get NaN estimate and
        bounds and ``defined = False``; at ``0/N`` the lower bound is 0 and at ``N/N`` the
        upper bound is 1 (Wilson stays valid at the edges).

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
    (``method = "paired ratio"``). Identical samples give exactly ``0`` and ``[0, 0]``.

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
        return _row(metric, float(est), math.nan, math.nan, n, "paired ratio", False)
    ra, rb = ya.sum() / sa, yb.sum() / sb
    z = (ya - ra * xa) / (sa / n) - (yb - rb * xb) / (sb / n)
    half = z_value(confidence) * float(z.std(ddof=1)) / math.sqrt(n)
    d = float(ra - rb)
    return _row(metric, d, d - half, d + half, n, "paired ratio", True)


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
    with ``exp(.) - 1`` (``method = "paired log-ratio"``), so it stays inside ``(-1, inf)``.
    Identical samples give exactly ``0`` and ``[0, 0]``.

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
        undefined with fewer than 2 pairs or a zero sum of ``a``, ``b`` or a denominator.

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
            f"paired samples must have equal length, got {ya.size}, {yb.size}, "
            f"{xa.size}, {xb.size}"
        )
    n = ya.size
    Ya, Yb, Xa, Xb = ya.sum(), yb.sum(), xa.sum(), xb.sum()
    if n < 2 or 0.0 in (Ya, Yb, Xa, Xb):
        est = (Ya / Xa) / (Yb / Xb) - 1.0 if 0.0 not in (Ya, Yb, Xa, Xb) else math.nan
        return _row(metric, float(est), math.nan, math.nan, n, "paired log-ratio", False)
    ra, rb = Ya / Xa, Yb / Xb
    q = ra / rb
    z = (ya - ra * xa) / Ya - (yb - rb * xb) / Yb
    se = math.sqrt(float(z.var(ddof=1)) * n)
    half = z_value(confidence) * se
    log_q = math.log(q)
    return _row(
        metric,
        float(q - 1.0),
        math.expm1(log_q - half),
        math.expm1(log_q + half),
        n,
        "paired log-ratio",
        True,
    )


# --------------------------------------------------------------------------- verdicts
#: Values of the ``verdict`` column made by :func:`verdicts`.
VERDICTS = ("resolved", "identical", "not resolved", "undefined")


def verdicts(frame: pd.DataFrame) -> pd.Series:
    """Say, for each difference (or effect) row, whether its interval resolves it.

    Parameters
    ----------
    frame : DataFrame
        Rows with ``estimate``, ``lower``, ``upper`` (float) and ``defined`` (bool), e.g.
        differences from :func:`diff_paired`.

    Returns
    -------
    Series of str, same index as ``frame``
        ``"identical"``: estimate and both bounds exactly 0 (paired samples that never
        differ); ``"resolved"``: the interval excludes 0, i.e. its half-width is smaller than
        the effect; ``"not resolved"``: the interval contains 0 (the sample cannot tell the
        sign of the effect); ``"undefined"``: no interval.
    """
    est = frame["estimate"].to_numpy(dtype=np.float64)
    lo = frame["lower"].to_numpy(dtype=np.float64)
    hi = frame["upper"].to_numpy(dtype=np.float64)
    ok = frame["defined"].to_numpy(dtype=bool) & np.isfinite(lo) & np.isfinite(hi)
    identical = ok & (est == 0.0) & (lo == 0.0) & (hi == 0.0)
    resolved = ok & ~identical & ((lo > 0.0) | (hi < 0.0))
    out = np.where(
        ~ok,
        "undefined",
        np.where(identical, "identical", np.where(resolved, "resolved", "not resolved")),
    )
    return pd.Series(out, index=frame.index, name="verdict", dtype=object)
