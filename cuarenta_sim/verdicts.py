"""Honest verdicts: small-sample rules, exact tests on discordant pairs, multiplicity, sizing.

The public names are importable from :mod:`cuarenta_sim.stats` as well (every report uses them
from there); this module exists so that ``stats.py`` stays readable.

Rules, with the constants that state them:

* **t or z** (:data:`T_MAX_N`): an interval or test built from a standard deviation estimated on
  ``n`` units uses Student's t with ``n - 1`` degrees of freedom when ``n < T_MAX_N`` and the
  normal quantile from ``T_MAX_N`` on (see :func:`critical_value`).
* **Exact or asymptotic** (:data:`EXACT_MAX_DISCORDANT`): paired 0/1 outcomes (a chica won
  under rule set A and under B on the same deck) are compared on their *discordant* pairs
  only. Below :data:`EXACT_MAX_DISCORDANT` discordant pairs the test is the exact two-sided
  binomial (McNemar exact) test and the interval is exact (Clopper-Pearson); from it on,
  the asymptotic score test and normal intervals (:func:`discordant_test`).
* **No variation** (:func:`no_variation_bound`): a sample whose values are all equal never gets
  a zero-width interval. It is flagged ``no_variation = True`` and bounded by the exact
  binomial bound on the share of units that could differ from the constant, ``1 -
  (alpha/2)^(1/n)`` (the two-sided form of the "rule of three": about ``3.69 / n`` at 95%).
* **Families** (:func:`holm`, :func:`benjamini_hochberg`, :func:`verdicts`): the verdicts of one
  table are a family; by default their p-values are adjusted by Holm's step-down method,
  which controls the family-wise error rate (the chance of *any* false "resolved").
* **Negligible**: with a stated practical ``margin``, an interval inside ``[-margin, +margin]``
  is called negligible, whatever its sign.
* **Sizing** (:func:`required_n`): how many units a target interval half-width needs.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Sequence

import numpy as np
import pandas as pd

from .distributions import (
    clopper_pearson,
    normal_two_sided_p,
    sign_test_p,
    t_ppf,
    t_sf,
    z_value,
)

#: Sample size from which intervals use the normal quantile instead of Student's t with
#: ``n - 1`` degrees of freedom. At ``n = 1000`` the t quantile exceeds the normal one by 0.12%
#: at 95% and 0.19% at 99% (tested), far below the sampling error of the standard deviation
#: itself (about ``1 / sqrt(2 n)`` = 2.2%), so switching there changes no conclusion, while
#: below it (t_29 is 4% wider than z at 95%, t_4 42%) z would make intervals too narrow.
T_MAX_N = 1000

#: Discordant pairs below which a paired comparison of 0/1 outcomes uses the exact binomial
#: (McNemar exact) test and Clopper-Pearson interval. The exact test is valid at any count;
#: the asymptotic score test is used from 100 discordant pairs on because there, over the
#: p-values that decide verdicts (0.001 to 0.1), its p-value is within a factor 1.31 of the
#: exact one (tested), while at 10 to 30 discordant pairs it is off by factors up to 1.9 to
#: 1.5, and on a handful of pairs by more (6 of 6: exact p = 0.031, normal 0.014) -- exactly
#: the regime of "resolved on a handful of pairs".
EXACT_MAX_DISCORDANT = 100

#: Values of the ``verdict`` column made by :func:`verdicts` (``"resolved: <name> higher"``
#: replaces ``"resolved"`` when names are given).
VERDICTS = ("resolved", "negligible", "identical", "not resolved", "undefined")

#: Multiple-comparison adjustments accepted by :func:`adjust_pvalues`.
ADJUSTMENTS = ("holm", "bh", "none")


# --------------------------------------------------------------------------- small-sample rules
def critical_value(confidence: float, n: int) -> float:
    """Two-sided critical value for an interval from ``n`` units with an estimated spread.

    Parameters
    ----------
    confidence : float
        Two-sided level in (0, 1).
    n : int
        Units (at least 2). The degrees of freedom are ``n - 1``.

    Returns
    -------
    float
        Student's t quantile ``t_{n-1}(1/2 + confidence/2)`` when ``n < T_MAX_N``, the
        standard-normal quantile otherwise (:data:`T_MAX_N`).

    Raises
    ------
    ValueError
        If ``confidence`` is outside (0, 1) or ``n < 2``.
    """
    z = z_value(confidence)
    if n < 2:
        raise ValueError(f"an estimated spread needs n >= 2 units, got {n!r}")
    if n < T_MAX_N:
        return t_ppf(0.5 + confidence / 2.0, float(n - 1))
    return z


def p_value_of_zero(estimate: float, se: float, df: float) -> float:
    """Two-sided p-value of ``estimate = 0`` from a standard error with ``df`` degrees of freedom.

    Student's t when ``df + 1 < T_MAX_N`` (:data:`T_MAX_N`), normal otherwise; 1 when the
    estimate is 0, 0 when the standard error is 0 and the estimate is not. NaN stays NaN.
    """
    if not (math.isfinite(estimate) and math.isfinite(se)):
        return math.nan
    if estimate == 0.0:
        return 1.0
    if se <= 0.0:
        return 0.0
    stat = abs(estimate) / se
    if df + 1 < T_MAX_N:
        return min(1.0, 2.0 * t_sf(stat, df))
    return normal_two_sided_p(stat)


def no_variation_bound(n: int, confidence: float = 0.95) -> float:
    """Upper bound on the share of units that differ, when ``n`` units showed no variation.

    Parameters
    ----------
    n : int
        Units observed, all with the same value (``n >= 1``).
    confidence : float
        Two-sided level; the bound is the exact Clopper-Pearson upper bound for ``0`` of ``n``.

    Returns
    -------
    float
        ``1 - (alpha/2)^(1/n)`` with ``alpha = 1 - confidence``: about ``3.69 / n`` at 95%
        (the one-sided "rule of three" ``3 / n`` is its 90%-two-sided counterpart).

    Raises
    ------
    ValueError
        If ``n < 1`` or ``confidence`` is outside (0, 1).
    """
    z_value(confidence)
    if n < 1:
        raise ValueError(f"a no-variation bound needs n >= 1 units, got {n!r}")
    return 1.0 - ((1.0 - confidence) / 2.0) ** (1.0 / n)


def constant_interval(
    value: float, n: int, confidence: float, value_range: tuple[float, float] | None
) -> tuple[float, float, bool]:
    """Interval for the mean of a sample of ``n`` equal values ``value`` (never zero-width).

    A share ``q <= u`` (:func:`no_variation_bound`) of the population may differ from
    ``value``; if every value lies in ``value_range = (lo, hi)``, the mean lies in
    ``[value - u (value - lo), value + u (hi - value)]``. Without a range no finite bound
    exists: NaN bounds.

    Returns
    -------
    (lower, upper, defined) : tuple
        ``defined`` is False (NaN bounds) when no range is given.

    Raises
    ------
    ValueError
        If the range is not ``lo < hi`` or does not contain ``value``.
    """
    if value_range is None:
        return math.nan, math.nan, False
    lo, hi = (float(v) for v in value_range)
    if not (lo < hi and lo <= value <= hi):
        raise ValueError(
            f"value_range must be (low, high) with low < high containing the values, got "
            f"{value_range!r} for a constant sample of {value!r}"
        )
    u = no_variation_bound(n, confidence)
    return value - u * (value - lo), value + u * (hi - value), True


# --------------------------------------------------------------------------- discordant pairs
def discordant_test(
    n_ab: int,
    n_ba: int,
    n: int | None = None,
    confidence: float = 0.95,
    cutoff: int = EXACT_MAX_DISCORDANT,
) -> dict:
    """Compare paired 0/1 outcomes on their discordant pairs (McNemar).

    Parameters
    ----------
    n_ab : int
        Pairs where A succeeded and B failed.
    n_ba : int
        Pairs where B succeeded and A failed.
    n : int, optional
        All pairs (concordant too); needed for the difference of proportions
        ``P(A) - P(B) = (n_ab - n_ba) / n``. ``None`` leaves the difference NaN.
    confidence : float
        Two-sided level.
    cutoff : int
        Discordant pairs from which the asymptotic path is used
        (:data:`EXACT_MAX_DISCORDANT`).

    Returns
    -------
    dict
        ``n_ab``, ``n_ba``, ``discordant`` (``n_ab + n_ba``), ``n``, ``share`` (``n_ab /
        discordant``, the share of discordant pairs favouring A) with ``share_lower`` /
        ``share_upper``, ``p_value`` (two-sided, of ``share = 1/2``, i.e. of ``P(A) =
        P(B)``), ``difference`` with ``lower`` / ``upper``, ``method`` and ``no_variation``.

        * ``discordant < cutoff``: ``method = "exact binomial"``: McNemar's exact test
          (:func:`cuarenta_sim.distributions.sign_test_p`) and the Clopper-Pearson interval
          of the share. The difference interval is the range of ``pi (2 theta - 1)`` over
          the Clopper-Pearson intervals of the discordant rate ``pi`` (of ``n``) and of the
          share ``theta``, each at level ``1 - alpha/2`` (Bonferroni, so the interval covers
          with probability at least ``confidence`` and also carries the uncertainty of how
          many pairs differ, which a handful of pairs leaves large).
        * otherwise ``method = "mcnemar score"``: the score statistic ``(n_ab - n_ba) /
          sqrt(discordant)`` (normal), the Wilson interval of the share (its inversion) and
          the paired interval of the difference (sd of the per-pair differences, Student t
          below :data:`T_MAX_N` pairs).
        * no discordant pair: ``p_value = 1``, ``no_variation = True``, share NaN; the
          difference is 0 with bounds ``+-`` :func:`no_variation_bound` (``n`` given).

    Raises
    ------
    ValueError
        On negative counts, or ``n`` smaller than the discordant pairs.
    """
    for name, v in (("n_ab", n_ab), ("n_ba", n_ba), ("cutoff", cutoff)):
        if isinstance(v, bool) or int(v) != v or v < 0:
            raise ValueError(f"{name} must be a non-negative whole number, got {v!r}")
    n_ab, n_ba = int(n_ab), int(n_ba)
    d = n_ab + n_ba
    if n is not None and (int(n) != n or n < d or n < 1):
        raise ValueError(f"n must be a whole number of pairs >= the {d} discordant, got {n!r}")
    z = z_value(confidence)
    out = {
        "n_ab": n_ab,
        "n_ba": n_ba,
        "discordant": d,
        "n": d if n is None else int(n),
        "difference": math.nan if n is None else (n_ab - n_ba) / n,
        "no_variation": d == 0,
    }
    if d == 0:
        u = math.nan if n is None else no_variation_bound(int(n), confidence)
        return {
            **out,
            "share": math.nan,
            "share_lower": math.nan,
            "share_upper": math.nan,
            "p_value": 1.0,
            "lower": -u,
            "upper": u,
            "method": "exact binomial",
        }
    if d < cutoff:
        s_lo, s_hi = clopper_pearson(n_ab, d, confidence)
        lower = upper = math.nan
        if n is not None:
            level = 1.0 - (1.0 - confidence) / 2.0
            t_lo, t_hi = clopper_pearson(n_ab, d, level)
            p_lo, p_hi = clopper_pearson(d, int(n), level)
            corners = [p * (2.0 * t - 1.0) for p in (p_lo, p_hi) for t in (t_lo, t_hi)]
            lower, upper = min(corners), max(corners)
        return {
            **out,
            "share": n_ab / d,
            "share_lower": s_lo,
            "share_upper": s_hi,
            "p_value": sign_test_p(n_ab, d),
            "lower": lower,
            "upper": upper,
            "method": "exact binomial",
        }
    share = n_ab / d
    denom = 1.0 + z * z / d
    centre = (share + z * z / (2.0 * d)) / denom
    half = z * math.sqrt(share * (1.0 - share) / d + z * z / (4.0 * d * d)) / denom
    lower = upper = math.nan
    if n is not None and n >= 2:
        diff = (n_ab - n_ba) / n
        # Sample variance of the per-pair differences (values -1, 0, +1).
        var = max(0.0, (d - n * diff * diff) / (n - 1))
        h = critical_value(confidence, int(n)) * math.sqrt(var / n)
        lower, upper = diff - h, diff + h
    return {
        **out,
        "share": share,
        "share_lower": max(0.0, centre - half),
        "share_upper": min(1.0, centre + half),
        "p_value": normal_two_sided_p((n_ab - n_ba) / math.sqrt(d)),
        "lower": lower,
        "upper": upper,
        "method": "mcnemar score",
    }


def is_binary(*samples: np.ndarray) -> bool:
    """True when the pooled samples are 0/1 outcomes: boolean, or containing both 0 and 1 and
    nothing else (a sample of only zeros could be counts that happened to stay at 0)."""
    if all(np.asarray(s).dtype == np.bool_ for s in samples):
        return True
    values = np.unique(np.concatenate([np.asarray(s, dtype=np.float64).ravel() for s in samples]))
    return values.size == 2 and values[0] == 0.0 and values[1] == 1.0


def paired_verdict(
    a: np.ndarray | pd.Series,
    b: np.ndarray | pd.Series,
    metric: str = "difference",
    confidence: float = 0.95,
    cutoff: int = EXACT_MAX_DISCORDANT,
) -> dict:
    """Difference ``P(A) - P(B)`` of paired 0/1 outcomes, tested on the discordant pairs.

    Parameters
    ----------
    a, b : array-like of 0/1 or bool, shape (n,)
        Outcome of unit ``i`` under A and under B (e.g. chica won by side 0 on deck ``i``
        under two rule sets).
    metric : str
        Name of the row.
    confidence : float
        Two-sided level.
    cutoff : int
        :data:`EXACT_MAX_DISCORDANT`.

    Returns
    -------
    dict
        An estimate row (``metric``, ``estimate``, ``lower``, ``upper``, ``n``, ``method``
        (``"paired exact"`` below the cut-off, ``"paired"`` from it on), ``defined``,
        ``no_variation``, ``p_value``) plus the :func:`discordant_test` keys ``n_ab``,
        ``n_ba``, ``discordant``, ``share``, ``share_lower``, ``share_upper``. With no
        discordant pair the difference is 0, flagged ``no_variation``, with bounds ``+-``
        :func:`no_variation_bound`.

    Raises
    ------
    ValueError
        If the samples differ in length, are empty, or hold values other than 0 and 1.
    """
    x = np.asarray(a)
    y = np.asarray(b)
    if x.shape != y.shape or x.ndim != 1 or x.size == 0:
        raise ValueError(
            f"paired outcomes must be two non-empty 1-d arrays of equal length, got "
            f"{x.shape} and {y.shape}"
        )
    xf, yf = x.astype(np.float64), y.astype(np.float64)
    if not (np.isin(xf, (0.0, 1.0)).all() and np.isin(yf, (0.0, 1.0)).all()):
        raise ValueError("paired_verdict needs 0/1 (or boolean) outcomes")
    n_ab = int(((xf == 1.0) & (yf == 0.0)).sum())
    n_ba = int(((xf == 0.0) & (yf == 1.0)).sum())
    t = discordant_test(n_ab, n_ba, n=x.size, confidence=confidence, cutoff=cutoff)
    defined = bool(np.isfinite(t["lower"]) and np.isfinite(t["upper"]))
    return {
        "metric": metric,
        "estimate": t["difference"],
        "lower": t["lower"],
        "upper": t["upper"],
        "n": int(x.size),
        "method": "paired exact" if t["method"] == "exact binomial" else "paired",
        "defined": defined,
        "no_variation": t["no_variation"],
        "p_value": t["p_value"],
        **{k: t[k] for k in ("n_ab", "n_ba", "discordant", "share", "share_lower", "share_upper")},
    }


# --------------------------------------------------------------------------- multiplicity
def _pvalues(p: Sequence[float] | np.ndarray) -> np.ndarray:
    arr = np.asarray(p, dtype=np.float64)
    if arr.ndim != 1:
        raise ValueError(f"p-values must be a 1-d sequence, got shape {arr.shape}")
    ok = np.isfinite(arr)
    if ((arr[ok] < 0.0) | (arr[ok] > 1.0)).any():
        raise ValueError("p-values must lie in [0, 1]")
    return arr


def holm(pvalues: Sequence[float] | np.ndarray) -> np.ndarray:
    """Holm step-down adjusted p-values (family-wise error rate control).

    Parameters
    ----------
    pvalues : sequence of float
        Raw p-values of one family; NaN entries are not tests (they stay NaN and do not count
        in the family size ``m``).

    Returns
    -------
    ndarray of float64
        ``p_(i) -> max_{j <= i} min(1, (m - j + 1) p_(j))`` over the sorted p-values, in the
        input order. Rejecting where the adjusted p-value is below ``alpha`` keeps the chance
        of any false rejection at most ``alpha`` under any dependence.

    Raises
    ------
    ValueError
        If a p-value is outside [0, 1] or the input is not 1-d.
    """
    arr = _pvalues(pvalues)
    out = np.full(arr.shape, np.nan)
    idx = np.flatnonzero(np.isfinite(arr))
    m = idx.size
    if m == 0:
        return out
    order = idx[np.argsort(arr[idx], kind="stable")]
    scaled = np.minimum(1.0, (m - np.arange(m)) * arr[order])
    out[order] = np.maximum.accumulate(scaled)
    return out


def benjamini_hochberg(pvalues: Sequence[float] | np.ndarray) -> np.ndarray:
    """Benjamini-Hochberg step-up adjusted p-values (false discovery rate control).

    Parameters
    ----------
    pvalues : sequence of float
        Raw p-values of one family; NaN entries stay NaN and do not count in ``m``.

    Returns
    -------
    ndarray of float64
        ``p_(i) -> min_{j >= i} min(1, m p_(j) / j)`` in the input order. Rejecting below
        ``alpha`` keeps the expected share of false discoveries at most ``alpha``
        (independent or positively dependent tests).

    Raises
    ------
    ValueError
        If a p-value is outside [0, 1] or the input is not 1-d.
    """
    arr = _pvalues(pvalues)
    out = np.full(arr.shape, np.nan)
    idx = np.flatnonzero(np.isfinite(arr))
    m = idx.size
    if m == 0:
        return out
    order = idx[np.argsort(arr[idx], kind="stable")]
    scaled = np.minimum(1.0, m * arr[order] / np.arange(1, m + 1))
    out[order] = np.minimum.accumulate(scaled[::-1])[::-1]
    return out


def adjust_pvalues(pvalues: Sequence[float] | np.ndarray, method: str = "holm") -> np.ndarray:
    """Adjust one family of p-values: ``"holm"`` (:func:`holm`), ``"bh"``
    (:func:`benjamini_hochberg`) or ``"none"``.

    Raises
    ------
    ValueError
        On an unknown method (see :data:`ADJUSTMENTS`) or invalid p-values.
    """
    if method == "holm":
        return holm(pvalues)
    if method == "bh":
        return benjamini_hochberg(pvalues)
    if method == "none":
        return _pvalues(pvalues).copy()
    raise ValueError(f"unknown adjustment {method!r}; accepted: {', '.join(ADJUSTMENTS)}")


# --------------------------------------------------------------------------- verdicts
def implied_p_value(estimate: float, lower: float, upper: float, confidence: float) -> float:
    """Two-sided p-value of 0 implied by an interval at ``confidence``.

    The standard error is read off the side of the interval facing 0 (``(estimate - lower) /
    z`` for a positive estimate), so the p-value is below ``1 - confidence`` exactly when the
    interval excludes 0, also for asymmetric (Wilson, log-ratio) and t intervals. NaN when the
    interval is not finite.
    """
    if not (math.isfinite(estimate) and math.isfinite(lower) and math.isfinite(upper)):
        return math.nan
    if estimate == 0.0:
        return 1.0
    side = estimate - lower if estimate > 0 else upper - estimate
    if side <= 0.0:
        return 0.0
    return normal_two_sided_p(z_value(confidence) * estimate / side)


def verdict_table(
    frame: pd.DataFrame,
    family: str | Sequence[str] | None = None,
    margin: float | str | np.ndarray | pd.Series | None = None,
    method: str = "holm",
    confidence: float = 0.95,
    names: tuple[str, str] | None = None,
) -> pd.DataFrame:
    """P-values, adjusted p-values and verdicts of difference rows; see :func:`verdicts`.

    Returns
    -------
    DataFrame, same index as ``frame``
        ``p_value`` (the frame's ``p_value`` column where finite, else
        :func:`implied_p_value`; NaN for identical and undefined rows), ``p_adjusted`` (within
        the row's family), ``family_size`` (tests in the row's family) and ``verdict``.
    """
    if method not in ADJUSTMENTS:
        raise ValueError(f"unknown adjustment {method!r}; accepted: {', '.join(ADJUSTMENTS)}")
    alpha = 1.0 - confidence
    z_value(confidence)
    est = frame["estimate"].to_numpy(dtype=np.float64)
    lo = frame["lower"].to_numpy(dtype=np.float64)
    hi = frame["upper"].to_numpy(dtype=np.float64)
    defined = (
        frame["defined"].to_numpy(dtype=bool) if "defined" in frame else np.ones(len(est), bool)
    )
    interval = defined & np.isfinite(lo) & np.isfinite(hi)
    if "no_variation" in frame:
        flag = frame["no_variation"].astype(object).fillna(False).to_numpy(dtype=bool)
    else:
        flag = np.zeros(len(est), dtype=bool)
    # Identical: no pair differed (flagged), or a legacy zero-width [0, 0] interval.
    identical = (flag & (est == 0.0)) | (interval & (est == 0.0) & (lo == 0.0) & (hi == 0.0))
    given = (
        frame["p_value"].to_numpy(dtype=np.float64)
        if "p_value" in frame
        else np.full(len(est), np.nan)
    )
    p = np.array(
        [
            g if math.isfinite(g) else (implied_p_value(e, lw, up, confidence) if ok else math.nan)
            for g, e, lw, up, ok in zip(given, est, lo, hi, interval, strict=True)
        ],
        dtype=np.float64,
    )
    p[identical] = np.nan
    undefined = ~identical & ~np.isfinite(p)
    if family is None:
        groups = [np.arange(len(est))]
    else:
        keys = [family] if isinstance(family, str) else list(family)
        groups = [
            np.asarray(ix) for ix in frame.groupby(keys, sort=False, dropna=False).indices.values()
        ]
    adjusted = np.full(len(est), np.nan)
    size = np.zeros(len(est), dtype=np.int64)
    for ix in groups:
        adjusted[ix] = adjust_pvalues(p[ix], method)
        size[ix] = int(np.isfinite(p[ix]).sum())
    if margin is None:
        negligible = np.zeros(len(est), dtype=bool)
    else:
        m = frame[margin].to_numpy(np.float64) if isinstance(margin, str) else margin
        m = np.broadcast_to(np.asarray(m, dtype=np.float64), est.shape)
        if (m[np.isfinite(m)] < 0).any():
            raise ValueError("margin must be non-negative")
        negligible = interval & ~identical & (lo >= -m) & (hi <= m)
    # Resolved needs the adjusted test *and*, where there is an interval, that interval to
    # exclude 0, so that a "resolved" row never shows an interval straddling 0 (the exact
    # path's interval is conservative: it also carries the uncertainty of the discordant rate).
    excludes = ~interval | (lo > 0.0) | (hi < 0.0)
    resolved = np.isfinite(adjusted) & (adjusted < alpha) & excludes
    if names is None:
        res_label = np.full(len(est), "resolved", dtype=object)
    else:
        a, b = names
        res_label = np.where(est > 0, f"resolved: {a} higher", f"resolved: {b} higher")
    verdict = np.where(
        identical,
        "identical",
        np.where(
            undefined,
            "undefined",
            np.where(negligible, "negligible", np.where(resolved, res_label, "not resolved")),
        ),
    )
    return pd.DataFrame(
        {"p_value": p, "p_adjusted": adjusted, "family_size": size, "verdict": verdict},
        index=frame.index,
    ).astype({"verdict": object})


def verdicts(
    frame: pd.DataFrame,
    family: str | Sequence[str] | None = None,
    margin: float | str | np.ndarray | pd.Series | None = None,
    method: str = "holm",
    confidence: float = 0.95,
    names: tuple[str, str] | None = None,
) -> pd.Series:
    """Say, for each difference (or effect) row, what its test and interval settle.

    Parameters
    ----------
    frame : DataFrame
        Rows with ``estimate``, ``lower``, ``upper`` (float) and ``defined`` (bool), e.g.
        differences from :func:`cuarenta_sim.stats.diff_paired`; optional ``p_value`` (float,
        two-sided, of a zero difference; where NaN or absent the p-value implied by the
        interval is used, :func:`implied_p_value`) and ``no_variation`` (bool).
    family : str or list of str, optional
        Columns whose values split the rows into families; ``None``: the whole frame is one
        family (every verdict of a table is corrected for the others).
    margin : float, str or array, optional
        Practical margin (in the units of ``estimate``; a column name gives one per row, for
        rows of different units). ``None``: no "negligible" verdict.
    method : {"holm", "bh", "none"}
        Adjustment over each family: Holm (family-wise error rate, the default),
        Benjamini-Hochberg (false discovery rate) or none.
    confidence : float
        The level of the intervals; ``alpha = 1 - confidence`` is the error rate controlled.
    names : (str, str), optional
        Names of A and B (the difference is A - B): "resolved" becomes ``"resolved: A
        higher"`` or ``"resolved: B higher"``.

    Returns
    -------
    Series of str, same index as ``frame``, name ``"verdict"``
        ``"identical"``: no pair differed (``no_variation`` and an estimate of 0, or a
        zero-width ``[0, 0]`` interval from older code); these and undefined rows are not
        tests and do not count in the family (an exact conditional test with no discordant
        pair can never reject, so leaving it out keeps the error rate).
        ``"negligible"``: the interval lies inside ``[-margin, +margin]`` (takes precedence:
        the practical answer is "no meaningful difference" even when the sign is resolved).
        ``"resolved"``: the adjusted p-value is below ``alpha`` and the interval, if there is
        one, excludes 0 (a constant non-zero shift in every pair has no interval, only its
        exact sign test).
        ``"not resolved"``: otherwise (the sample cannot tell the sign after the correction).
        ``"undefined"``: no p-value and no interval.

    Raises
    ------
    ValueError
        On an unknown method, a negative margin or a level outside (0, 1).
    """
    table = verdict_table(frame, family, margin, method, confidence, names)
    return table["verdict"].rename("verdict")


# --------------------------------------------------------------------------- sizing
def required_n(
    kind: str,
    target_half_width: float,
    p: float | None = None,
    sd: float | None = None,
    confidence: float = 0.95,
    design_effect: float = 1.0,
) -> int:
    """Units needed for an interval of half-width at most ``target_half_width``.

    Parameters
    ----------
    kind : {"proportion", "mean"}
        ``"proportion"``: ``n = z^2 p (1 - p) deff / h^2`` (the normal half-width; the Wilson
        half-width is at most this at these sizes). ``"mean"`` (also a paired difference,
        with the sd of the per-unit differences): the smallest ``n`` with
        ``c(n) sd sqrt(deff) / sqrt(n) <= h``, ``c`` the critical value actually used
        (:func:`critical_value`: Student t below :data:`T_MAX_N`).
    target_half_width : float
        Wanted half-width ``h`` (units of the estimate: 0.01 is one percentage point).
    p : float, optional
        Anticipated proportion, strictly in (0, 1); ``None``: the worst case 0.5.
    sd : float
        Standard deviation of one unit's value (``kind="mean"``, required).
    confidence : float
        Two-sided level.
    design_effect : float
        Variance inflation over independent units (>= 0; e.g. Kish's ``deff`` of duplicate
        pairs, below 1 when pairing helps).

    Returns
    -------
    int
        Units to run (at least 2).

    Raises
    ------
    ValueError
        On an unknown kind, a non-positive half-width, ``p`` outside (0, 1), a missing or
        non-positive ``sd``, or a negative design effect.
    """
    z = z_value(confidence)
    if not (
        isinstance(target_half_width, numbers.Real)
        and math.isfinite(target_half_width)
        and target_half_width > 0
    ):
        raise ValueError(f"target_half_width must be positive, got {target_half_width!r}")
    if not design_effect > 0:
        raise ValueError(f"design_effect must be positive, got {design_effect!r}")
    h = float(target_half_width)
    if kind == "proportion":
        q = 0.5 if p is None else p
        if not 0.0 < q < 1.0:
            raise ValueError(f"p must be strictly between 0 and 1 (None: worst case), got {p!r}")
        return max(2, math.ceil(z * z * q * (1.0 - q) * design_effect / (h * h) - 1e-9))
    if kind == "mean":
        if sd is None or not sd > 0:
            raise ValueError(f"kind='mean' needs a positive sd, got {sd!r}")
        s = float(sd) * math.sqrt(design_effect)
        n = max(2, math.ceil((z * s / h) ** 2 - 1e-9))
        while critical_value(confidence, n) * s / math.sqrt(n) > h:
            n += max(1, n // 100)
        while n > 2 and critical_value(confidence, n - 1) * s / math.sqrt(n - 1) <= h:
            n -= 1
        return n
    raise ValueError(f"unknown kind {kind!r}; accepted: 'proportion', 'mean'")
