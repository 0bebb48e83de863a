"""Differences between two variants (the difference half of :mod:`cuarenta_sim.stats`).

Paired differences on common random numbers (``paired``, ``paired exact``, ``paired ratio``,
``paired log-ratio``) and unpaired ones (``welch``, ``newcombe``), each an
:data:`~cuarenta_sim.stats_estimates.ESTIMATE_COLUMNS` row with its two-sided ``p_value`` of a
zero difference. Import them from :mod:`cuarenta_sim.stats`, the public API.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from .distributions import sign_test_p, t_ppf, z_value
from .stats_estimates import (
    ESTIMATE_COLUMNS,
    ValueRange,
    _is_constant,
    estimate_row,
    spread_row,
    wilson_interval,
)
from .verdicts import (
    EXACT_MAX_DISCORDANT,
    T_MAX_N,
    constant_interval,
    critical_value,
    is_binary,
    p_value_of_zero,
    paired_verdict,
)


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
