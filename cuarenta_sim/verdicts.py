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
* **Intervals that agree with verdicts** (:mod:`cuarenta_sim.verdict_intervals`): each row's
  printed interval is at the level its adjustment tested it, so "resolved" holds exactly when
  the printed interval excludes 0.
* **Negligible** ("no difference"): with a stated practical ``margin``, an interval that
  contains 0 and lies inside ``[-margin, +margin]`` is called negligible; a resolved interval
  (it excludes 0) that reaches inside the margin is "resolved, possibly negligible".
* **Too small to tell** (:func:`too_small`): not resolved with an interval wider than the
  difference the run was sized to detect.
* **Sizing** (:func:`required_n`, in :mod:`cuarenta_sim.sizing`): how many units a target
  interval half-width needs.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

import numpy as np
import pandas as pd

from .distributions import (
    clopper_pearson,
    normal_two_sided_p,
    sign_test_p,
    z_value,
)
from .sizing import required_n as required_n
from .small_sample import T_MAX_N as T_MAX_N
from .small_sample import constant_interval as constant_interval
from .small_sample import critical_value as critical_value
from .small_sample import no_variation_bound as no_variation_bound
from .small_sample import p_value_of_zero as p_value_of_zero
from .verdict_intervals import conditional_exact_interval, interval_at, step_levels

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
VERDICTS = (
    "resolved",
    "resolved, possibly negligible",
    "negligible",
    "identical",
    "not resolved",
    "too small to tell",
    "undefined",
)

#: How each verdict reads in a report (the words of every report's tables and sentences).
VERDICT_WORDS = {
    "resolved": "resolved",
    "resolved, possibly negligible": "resolved, possibly negligible",
    "negligible": "no difference",
    "identical": "identical",
    "not resolved": "not resolved",
    "too small to tell": "too small to tell",
    "undefined": "undefined",
}


def verdict_word(verdict: str) -> str:
    """The printed word of a verdict (:data:`VERDICT_WORDS`; ``"resolved: A higher"`` kept).

    Raises
    ------
    KeyError
        On a value :func:`verdicts` never makes.
    """
    if verdict.startswith("resolved"):
        return verdict
    return VERDICT_WORDS[verdict]


#: Multiple-comparison adjustments accepted by :func:`adjust_pvalues`.
ADJUSTMENTS = ("holm", "bh", "none")


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
          the Clopper-Pearson intervals of the share ``theta`` (conditional on the
          discordant pairs) and of the discordant rate ``pi``, both at ``confidence``
          (:func:`cuarenta_sim.verdict_intervals.conditional_exact_interval`): its sign is
          that of ``2 theta - 1``, so it excludes 0 exactly when ``p_value < 1 -
          confidence`` (the test inversion), and it carries how many pairs differ.
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
            lower, upper = conditional_exact_interval(n_ab, n_ba, int(n), confidence)
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


def _adjusted(
    pvalues: Sequence[float] | np.ndarray, adjust: Callable[[np.ndarray, int], np.ndarray]
) -> np.ndarray:
    """Adjusted p-values in the input order: ``adjust(sorted_p, m)`` maps the ``m`` finite
    p-values, sorted ascending (stable), to their adjusted values; NaN entries stay NaN."""
    arr = _pvalues(pvalues)
    out = np.full(arr.shape, np.nan)
    idx = np.flatnonzero(np.isfinite(arr))
    if idx.size == 0:
        return out
    order = idx[np.argsort(arr[idx], kind="stable")]
    out[order] = adjust(arr[order], idx.size)
    return out


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

    def step_down(p: np.ndarray, m: int) -> np.ndarray:
        return np.maximum.accumulate(np.minimum(1.0, (m - np.arange(m)) * p))

    return _adjusted(pvalues, step_down)


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

    def step_up(p: np.ndarray, m: int) -> np.ndarray:
        return np.minimum.accumulate(np.minimum(1.0, m * p / np.arange(1, m + 1))[::-1])[::-1]

    return _adjusted(pvalues, step_up)


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
    detectable: float | str | np.ndarray | pd.Series | None = None,
) -> pd.DataFrame:
    """P-values, adjusted p-values, verdicts and the intervals that agree with them.

    See :func:`verdicts` for the parameters and the verdict rules.

    Returns
    -------
    DataFrame, same index as ``frame``
        ``p_value`` (the frame's ``p_value`` column where finite, else
        :func:`implied_p_value`; NaN for identical and undefined rows), ``p_adjusted`` (within
        the row's family), ``family_size`` (tests in the row's family), ``test_level`` (two-sided
        level of the row's interval: the level its adjustment tested it at,
        :func:`cuarenta_sim.verdict_intervals.step_levels`), ``lower_adj`` / ``upper_adj``
        (the row's interval at ``test_level``, :func:`cuarenta_sim.verdict_intervals.interval_at`:
        the interval to print beside the verdict), ``guarded`` (True where the interval at
        ``test_level`` excluded 0 although the row's test did not reject, e.g. a mean whose
        p-value is guarded by the exact sign test: the printed interval is then extended to 0,
        the hull of the interval and the value the test could not reject) and ``verdict``.
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
    given = _column(frame, "p_value", len(est))
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
    row_alpha = np.full(len(est), alpha)
    for ix in groups:
        adjusted[ix] = adjust_pvalues(p[ix], method)
        size[ix] = int(np.isfinite(p[ix]).sum())
        row_alpha[ix] = step_levels(p[ix], adjusted[ix], method, alpha)
    level = 1.0 - row_alpha
    lo_adj, hi_adj = _intervals_at(frame, est, lo, hi, interval, confidence, level)
    excludes = ~interval | (lo_adj > 0.0) | (hi_adj < 0.0)
    resolved = np.isfinite(adjusted) & (adjusted < alpha) & excludes
    # A row its test did not reject never shows an interval excluding 0: the hull with 0.
    guarded = interval & ~resolved & ~identical & ((lo_adj > 0.0) | (hi_adj < 0.0))
    lo_adj = np.where(guarded, np.minimum(lo_adj, 0.0), lo_adj)
    hi_adj = np.where(guarded, np.maximum(hi_adj, 0.0), hi_adj)
    m = _per_row(frame, margin, len(est), "margin")
    negligible = interval & ~identical & (lo_adj >= -m) & (hi_adj <= m)
    beyond = (lo_adj > m) | (hi_adj < -m) | ~np.isfinite(m)
    h = _per_row(frame, detectable, len(est), "detectable")
    # Too small: the run's own (marginal) interval is wider than the detectable difference.
    wide = interval & np.isfinite(h) & ((hi - lo) / 2.0 > h)
    verdict = np.full(len(est), "not resolved", dtype=object)
    verdict[~resolved & ~negligible & wide] = "too small to tell"
    word = np.where(beyond, "resolved", "resolved, possibly negligible")
    if names is not None:
        a, b = names
        word = np.array(
            [f"{w}: {a if e > 0 else b} higher" for w, e in zip(word, est, strict=True)],
            dtype=object,
        )
    verdict[resolved] = word[resolved]
    # "No difference" only where the sign is not settled: an interval wholly inside the margin
    # that excludes 0 is resolved (its sign is settled) and possibly negligible.
    verdict[negligible & ~resolved] = "negligible"
    verdict[undefined] = "undefined"
    verdict[identical] = "identical"
    return pd.DataFrame(
        {
            "p_value": p,
            "p_adjusted": adjusted,
            "family_size": size,
            "test_level": level,
            "lower_adj": lo_adj,
            "upper_adj": hi_adj,
            "guarded": guarded,
            "verdict": verdict,
        },
        index=frame.index,
    ).astype({"verdict": object})


def _column(frame: pd.DataFrame, name: str, n: int) -> np.ndarray:
    return frame[name].to_numpy(dtype=np.float64) if name in frame else np.full(n, np.nan)


def _per_row(
    frame: pd.DataFrame, value: float | str | np.ndarray | pd.Series | None, n: int, what: str
) -> np.ndarray:
    """A per-row threshold (margin or detectable difference): NaN where not given."""
    if value is None:
        return np.full(n, np.nan)
    v = frame[value].to_numpy(np.float64) if isinstance(value, str) else value
    v = np.broadcast_to(np.asarray(v, dtype=np.float64), (n,)).copy()
    if (v[np.isfinite(v)] < 0).any():
        raise ValueError(f"{what} must be non-negative")
    return v


def _intervals_at(
    frame: pd.DataFrame,
    est: np.ndarray,
    lo: np.ndarray,
    hi: np.ndarray,
    interval: np.ndarray,
    confidence: float,
    level: np.ndarray,
) -> tuple[np.ndarray, np.ndarray]:
    """Every row's interval at its ``level`` (:func:`verdict_intervals.interval_at`)."""
    n = _column(frame, "n", len(est))
    methods = frame["method"].astype(str).to_numpy() if "method" in frame else [""] * len(est)
    pos, neg = _column(frame, "n_pos", len(est)), _column(frame, "n_neg", len(est))
    out_lo, out_hi = lo.copy(), hi.copy()
    for i in np.flatnonzero(interval):
        out_lo[i], out_hi[i] = interval_at(
            est[i], lo[i], hi[i], n[i], methods[i], confidence, level[i], pos[i], neg[i]
        )
    return out_lo, out_hi


def with_verdicts(frame: pd.DataFrame, **kwargs: object) -> pd.DataFrame:
    """A copy of ``frame`` whose intervals and verdicts agree (:func:`verdict_table`).

    ``lower`` / ``upper`` become the intervals at each row's test level (the marginal ones
    are kept as ``lower_marginal`` / ``upper_marginal``); ``p_value``, ``p_adjusted``,
    ``family_size``, ``test_level``, ``guarded`` and ``verdict`` are (re)set. Keyword arguments go
    to :func:`verdict_table`.

    Raises
    ------
    ValueError
        As :func:`verdict_table`.
    """
    out = frame.copy()
    table = verdict_table(out, **kwargs)  # type: ignore[arg-type]
    out["lower_marginal"], out["upper_marginal"] = out["lower"], out["upper"]
    out["lower"], out["upper"] = table["lower_adj"], table["upper_adj"]
    for col in ("p_value", "p_adjusted", "family_size", "test_level", "guarded", "verdict"):
        out[col] = table[col]
    return out


def verdicts(
    frame: pd.DataFrame,
    family: str | Sequence[str] | None = None,
    margin: float | str | np.ndarray | pd.Series | None = None,
    method: str = "holm",
    confidence: float = 0.95,
    names: tuple[str, str] | None = None,
    detectable: float | str | np.ndarray | pd.Series | None = None,
) -> pd.Series:
    """Say, for each difference (or effect) row, what its test and interval settle.

    Parameters
    ----------
    frame : DataFrame
        Rows with ``estimate``, ``lower``, ``upper`` (float) and ``defined`` (bool), e.g.
        differences from :func:`cuarenta_sim.stats.diff_paired`; optional ``p_value`` (float,
        two-sided, of a zero difference; where NaN or absent the p-value implied by the
        interval is used, :func:`implied_p_value`), ``no_variation`` (bool), ``n`` and
        ``method`` (to recompute the interval at the row's test level) and ``n_pos`` /
        ``n_neg`` (pairs with a positive / negative difference: the exact interval of paired
        0/1 outcomes).
    family : str or list of str, optional
        Columns whose values split the rows into families; ``None``: the whole frame is one
        family (every verdict of a table is corrected for the others).
    margin : float, str or array, optional
        Practical margin (in the units of ``estimate``; a column name gives one per row, for
        rows of different units or margins relative to each row's baseline). ``None``: no
        "negligible" verdict and no "possibly negligible".
    method : {"holm", "bh", "none"}
        Adjustment over each family: Holm (family-wise error rate, the default),
        Benjamini-Hochberg (false discovery rate) or none.
    confidence : float
        The level of the intervals; ``alpha = 1 - confidence`` is the error rate controlled.
    names : (str, str), optional
        Names of A and B (the difference is A - B): "resolved" becomes ``"resolved: A
        higher"`` or ``"resolved: B higher"``.
    detectable : float, str or array, optional
        The difference the run was sized to detect (units of ``estimate``; a column name gives
        one per row). ``None``: no "too small to tell" verdict.

    Returns
    -------
    Series of str, same index as ``frame``, name ``"verdict"``
        Every verdict is read off the row's interval **at the level its adjustment tested
        it** (:func:`verdict_table`'s ``lower_adj`` / ``upper_adj``, the interval a report
        prints), so a row is resolved exactly when that interval excludes 0:

        ``"identical"``: no pair differed (``no_variation`` and an estimate of 0, or a
        zero-width ``[0, 0]`` interval from older code); these and undefined rows are not
        tests and do not count in the family (an exact conditional test with no discordant
        pair can never reject, so leaving it out keeps the error rate).
        ``"negligible"`` (printed "no difference", :data:`VERDICT_WORDS`): not resolved, and
        the interval (which contains 0) lies inside ``[-margin, +margin]``. A resolved row
        whose interval lies inside the margin is "resolved, possibly negligible": its sign is
        settled, so "no difference" would contradict its interval.
        ``"resolved"``: the adjusted p-value is below ``alpha``, the interval excludes 0 and
        lies wholly beyond the margin (a constant non-zero shift in every pair has no
        interval, only its exact sign test).
        ``"resolved, possibly negligible"``: resolved, but the interval reaches inside
        ``[-margin, +margin]``: the sign is settled, the size may not matter.
        ``"too small to tell"``: not resolved, and the interval's half-width exceeds the
        ``detectable`` difference: a difference of that size would be resolved less than half
        the time, so the row says nothing for or against an effect of that size (:func:`too_small`;
        never counted for or against agreement).
        ``"not resolved"``: otherwise (the sample cannot tell the sign after the correction,
        though it could have told a difference of the detectable size).
        ``"undefined"``: no p-value and no interval.

    Raises
    ------
    ValueError
        On an unknown method, a negative margin or detectable difference, or a level outside
        (0, 1).
    """
    table = verdict_table(frame, family, margin, method, confidence, names, detectable)
    return table["verdict"].rename("verdict")


def too_small(half_width: float, detectable: float) -> bool:
    """Whether an interval of ``half_width`` is too wide to tell a ``detectable`` difference.

    A two-sided test at the interval's level resolves a true difference ``delta`` about half
    the time when ``delta`` equals the half-width (the estimate falls on either side of the
    bound with equal chance), less when smaller: a run whose half-width exceeds the difference
    it is meant to detect has under 50% power for it. Sizing a run to a half-width ``h``
    (:func:`cuarenta_sim.sizing.required_n`) makes it able to tell differences of ``h`` and
    more.

    Parameters
    ----------
    half_width : float
        Half-width of the interval as printed (at the row's test level); NaN: not too small
        (nothing to judge).
    detectable : float
        The stated detectable difference, same units, positive.

    Returns
    -------
    bool
    """
    return bool(math.isfinite(half_width) and half_width > detectable)
