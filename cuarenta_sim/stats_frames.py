"""Estimates per group and from frames of counts (the group-by half of :mod:`cuarenta_sim.stats`).

Import them from :mod:`cuarenta_sim.stats`, the public API.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from .stats_estimates import wilson_interval
from .verdicts import (
    T_MAX_N,
    critical_value,
)


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
