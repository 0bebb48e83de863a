"""Intervals of the bidding study that respect what a bid can score (issue 18).

A bid's value in one hand takes one of two values (C5.2-C5.5): a hand without contract is
``+1`` for the pair that wins it and ``-1`` otherwise; a contract made scores its value ``v``
(2, 4, 5) and a failed one ``-v`` (``failed_contract = to_opponents``) or ``0`` (``nobody``).
So the EV of a bid is ``lost + (won - lost) * P(make)`` and its interval is the Wilson interval
of ``P(make)`` mapped the same way (:func:`two_valued_ev`): it never leaves the possible values
(a ``normal`` interval printed ``0.9963 [0.9892, 1.0035]`` for an EV bounded by 1) and it exists,
never zero-width, also when every hand of a class made its contract (Wilson at N/N). The gain
of a bid over passing lies between ``lost(bid) - won(pass)`` and ``won(bid) - lost(pass)``
(:func:`difference_range`); its ``paired`` interval is clipped to that range, and so are the
margins between two bids, the differences between positions and the value of a set of
thresholds (:func:`value_range`): a ``t`` interval of 3 hands once printed a margin of 2.3
[-7.1, 11.7] for bids that differ by at most 3.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike

from .contracts import DECLARATIONS, VALUES


def success_column(bid: str) -> str:
    """The 0/1 outcome column of ``bid``: ``won_pass`` for pass, else ``made_<bid>``."""
    return "won_pass" if bid == "pass" else f"made_{bid}"


def outcome_values(outcomes: pd.DataFrame, bid: str) -> tuple[float, float] | None:
    """``(lost, won)``: the value of ``bid`` in a hand lost (contract failed) and won (made).

    Parameters
    ----------
    outcomes : DataFrame
        Forced-declarer outcomes with ``value_<bid>`` and the :func:`success_column`.
    bid : str
        One of :data:`~cuarenta_sim.cuatrola.contracts.DECLARATIONS`.

    Returns
    -------
    (float, float) or None
        The two values when the value is a function of the outcome over every hand. A value
        never observed is taken from the rules: a win scores ``+v`` (C5.2-C5.4); a loss
        ``-v`` (C5.2, C5.5 ``to_opponents``: the lower of the two rule options, so the
        interval is never too narrow). ``None`` when the values are not two-valued in this
        way (e.g. synthetic outcomes): the caller keeps the ``normal`` interval.
    """
    value = outcomes[f"value_{bid}"].to_numpy(np.float64)
    won = outcomes[success_column(bid)].to_numpy(np.int64) == 1
    v = float(VALUES[DECLARATIONS.index(bid)])
    high, low = np.unique(value[won]), np.unique(value[~won])
    if high.size > 1 or low.size > 1:
        return None
    hi = float(high[0]) if high.size else v
    lo = float(low[0]) if low.size else -v
    return (lo, hi) if lo < hi else None


def two_valued_ev(p: pd.DataFrame, values: tuple[float, float]) -> pd.DataFrame:
    """EV rows from the Wilson rows of ``P(make)`` of a two-valued bid.

    Parameters
    ----------
    p : DataFrame
        :func:`cuarenta_sim.stats.grouped_proportions` rows (``n``, ``estimate``, ``lower``,
        ``upper``, ``no_variation``).
    values : (float, float)
        ``(lost, won)`` of :func:`outcome_values`.

    Returns
    -------
    DataFrame
        Same index: ``estimate``, ``lower``, ``upper`` (game points, within ``[lost, won]``),
        ``method`` (``"wilson"``), ``defined`` (``n > 0``; never zero-width) and
        ``no_variation`` (every hand of the class won, or every one lost).
    """
    lo, hi = values
    span = hi - lo
    out = pd.DataFrame(index=p.index)
    for col in ("estimate", "lower", "upper"):
        out[col] = lo + span * p[col].to_numpy(np.float64)
    out["method"] = "wilson"
    out["defined"] = p["n"].to_numpy() > 0
    out["no_variation"] = p["no_variation"].to_numpy(bool)
    return out


def difference_range(
    a: tuple[float, float] | None, b: tuple[float, float] | None
) -> tuple[float, float]:
    """Possible values of ``value(a) - value(b)`` in one hand, from the two bids' ``(lost, won)``
    (:func:`outcome_values`); ``(-inf, inf)`` if either is unknown. With ``b`` = pass it is the
    range of a gain over passing; with ``b`` the runner-up, of a margin."""
    if a is None or b is None:
        return (-np.inf, np.inf)
    return (a[0] - b[1], a[1] - b[0])


def value_range(values: Sequence[tuple[float, float] | None]) -> tuple[float, float]:
    """Possible values of one hand's value when it may come from any of these bids (e.g. a
    set of thresholds choosing the bid by strength); ``(-inf, inf)`` if one is unknown."""
    if not values or any(v is None for v in values):
        return (-np.inf, np.inf)
    return (min(v[0] for v in values if v), max(v[1] for v in values if v))


def pair_ranges(
    outcomes: pd.DataFrame, first: Sequence[object], second: Sequence[object]
) -> tuple[np.ndarray, np.ndarray]:
    """Lower and upper possible values of ``value(first[i]) - value(second[i])`` per row (e.g.
    best bid minus runner-up, :func:`difference_range`); ``-inf`` / ``inf`` where a bid is
    missing (an empty class) or not two-valued."""
    values = {b: outcome_values(outcomes, b) for b in DECLARATIONS}
    ranges = [
        difference_range(values[a], values[b]) if isinstance(a, str) else (-np.inf, np.inf)
        for a, b in zip(first, second, strict=True)
    ]
    out = np.array(ranges, dtype=np.float64).reshape(-1, 2)
    return out[:, 0], out[:, 1]


def clip_bounds(
    lower: ArrayLike, upper: ArrayLike, lo: ArrayLike, hi: ArrayLike
) -> tuple[np.ndarray, np.ndarray]:
    """Interval bounds clipped to the possible values ``[lo, hi]`` (NaN bounds stay NaN)."""
    return (
        np.clip(np.asarray(lower, dtype=np.float64), lo, hi),
        np.clip(np.asarray(upper, dtype=np.float64), lo, hi),
    )


def clip_gains(table: pd.DataFrame, ranges: dict[str, tuple[float, float]]) -> pd.DataFrame:
    """Clip the gain intervals of a class table (``bid``, ``gain_lower``, ``gain_upper``) to
    each bid's possible gains (:func:`difference_range` against pass); NaN bounds stay NaN."""
    out = table.copy()
    bids = out["bid"].astype(str).to_numpy()
    lo = np.array([ranges[b][0] for b in bids], dtype=np.float64)
    hi = np.array([ranges[b][1] for b in bids], dtype=np.float64)
    out["gain_lower"], out["gain_upper"] = clip_bounds(out["gain_lower"], out["gain_upper"], lo, hi)
    return out
