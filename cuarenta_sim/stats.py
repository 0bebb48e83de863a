"""Estimates with honest error bars: DataFrame in, DataFrame out.

Every estimate comes with its sample size ``n``, a ``lower``/``upper`` interval at
``confidence`` and the ``method`` that made it:

* ``wilson``: Wilson score interval for a proportion; valid at 0/N and N/N; ``n == 0`` gives
  NaN bounds with ``defined = False`` (never an exception).
* ``normal``: mean +- z * s / sqrt(n) for a mean of i.i.d. per-data values (datas are
  independent by construction: each has its own random streams).
* ``ratio``: a ratio of sums over independent datas (e.g. caidas per play), with a delta-method
  (cluster-robust) standard error, so the dependence of plays within a data is respected.
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
        lower = np.where(n > 0, np.clip(centre - half, 0.0, 1.0), np.nan)
        upper = np.where(n > 0, np.clip(centre + half, 0.0, 1.0), np.nan)
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


def summarize_hands(hands: pd.DataFrame, confidence: float = 0.95) -> pd.DataFrame:
    """Headline per-data statistics of a ``Results.hands`` frame, each with an interval.

    Parameters
    ----------
    hands : DataFrame
        One row per data with the columns of ``docs/engine_contract.md`` section 8 (at least
        ``dealer``, ``plays`` and, for k in {0, 1}, ``points_k``, ``cards_k``, ``rondas_k``,
        ``doble_rondas_k``, ``caidas_k``, ``limpias_k``).
    confidence : float
        Two-sided confidence level of every interval.

    Returns
    -------
    DataFrame
        Columns :data:`ESTIMATE_COLUMNS`; one row per metric: points per data of the dealer's
        and the non-dealer's side and their difference (the dealer's advantage), the chance a
        data has a ronda / doble ronda dealt, caidas and limpias per data and per play.
    """
    dealer_side = hands["dealer"].to_numpy() % 2
    pts0 = hands["points_0"].to_numpy(dtype=np.float64)
    pts1 = hands["points_1"].to_numpy(dtype=np.float64)
    pts_dealer = np.where(dealer_side == 0, pts0, pts1)
    pts_other = np.where(dealer_side == 0, pts1, pts0)
    rondas = hands["rondas_0"].to_numpy(np.int64) + hands["rondas_1"].to_numpy(np.int64)
    dobles = hands["doble_rondas_0"].to_numpy(np.int64) + hands["doble_rondas_1"].to_numpy(np.int64)
    caidas = hands["caidas_0"].to_numpy(np.int64) + hands["caidas_1"].to_numpy(np.int64)
    limpias = hands["limpias_0"].to_numpy(np.int64) + hands["limpias_1"].to_numpy(np.int64)
    plays = hands["plays"].to_numpy(np.int64)
    n = len(hands)
    rows = [
        mean("points per data, dealer's side", pts_dealer, confidence),
        mean("points per data, non-dealer's side", pts_other, confidence),
        mean("dealer's advantage (points per data)", pts_dealer - pts_other, confidence),
        proportion("P(a ronda is dealt in a data)", int((rondas > 0).sum()), n, confidence),
        proportion("P(a doble ronda is dealt in a data)", int((dobles > 0).sum()), n, confidence),
        mean("caidas per data", caidas, confidence),
        ratio("caidas per play", caidas, plays, confidence),
        mean("limpias per data", limpias, confidence),
        ratio("limpias per play", limpias, plays, confidence),
    ]
    return pd.DataFrame(rows, columns=ESTIMATE_COLUMNS)


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
