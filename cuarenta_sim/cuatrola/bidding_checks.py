"""Cuatrola bidding study: the value of being mano and the exact check of trumps held.

Split from :mod:`cuarenta_sim.cuatrola.bidding` (importable from there too).
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pandas as pd

from ..stats import (
    ESTIMATE_COLUMNS,
    diff_means,
    diff_proportions,
    mean,
    proportion,
    wilson_interval,
)
from .bidding_intervals import clip_bounds, difference_range, outcome_values
from .bidding_verdicts import difference_verdicts
from .contracts import DECLARATIONS


# --------------------------------------------------------------------------- value of mano
def mano_table(outcomes: pd.DataFrame, confidence: float = 0.95) -> pd.DataFrame:
    """The value of being mano, every row an estimate with its method.

    Rows (``ESTIMATE_COLUMNS`` plus ``bid``): P(the mano's pair wins an all-pass hand)
    (``wilson``) and its game points per hand minus the other pair's (``wilson``: ``2 P - 1``
    with the Wilson bounds mapped alike, since an all-pass hand is worth +-1, C5.2); then for
    each bid the mano minus the dealer and the mano minus the other three positions pooled, of
    P(make) (``newcombe``) and of EV (``welch``; different deals, so unpaired). ``verdict``
    (Holm over the difference rows, intervals at their Holm level:
    :func:`.bidding_verdicts.difference_verdicts`; EV differences clipped to the possible ones,
    :func:`.bidding_intervals.difference_range`) says whether a difference's interval excludes 0
    (``"-"`` for the proportion, whose reference is 50%, not 0).

    Parameters
    ----------
    outcomes : DataFrame
        :attr:`BiddingExperiment.outcomes`.
    confidence : float
        Two-sided confidence level.

    Returns
    -------
    DataFrame
    """
    mano_won = outcomes["mano_won_pass"].to_numpy(np.int64)
    won = proportion(
        "P(the mano's pair wins an all-pass hand)", int(mano_won.sum()), len(mano_won), confidence
    )
    # +-1 per hand (C5.2): 2 P(win) - 1, the Wilson bounds mapped alike (never outside +-1).
    points = {
        **won,
        "metric": "game points per all-pass hand, mano's pair minus the other",
        **{k: 2.0 * won[k] - 1.0 for k in ("estimate", "lower", "upper")},
    }
    rows = [{**won, "bid": "pass"}, {**points, "bid": "pass"}]
    pos = outcomes["position"].astype(str).to_numpy()
    is_mano = pos == "mano"
    for bid in DECLARATIONS:  # the bids of bidding.BIDS, in that order
        success = outcomes["won_pass" if bid == "pass" else f"made_{bid}"].to_numpy(np.int64)
        value = outcomes[f"value_{bid}"].to_numpy(np.float64)
        for label, other in (("dealer", pos == "dealer"), ("other positions", ~is_mano)):
            rows.append(
                {
                    **diff_proportions(
                        f"P(make), mano minus {label}",
                        int(success[is_mano].sum()),
                        int(is_mano.sum()),
                        int(success[other].sum()),
                        int(other.sum()),
                        confidence,
                    ),
                    "bid": bid,
                }
            )
            rows.append(
                {
                    **diff_means(
                        f"EV, mano minus {label}", value[is_mano], value[other], confidence
                    ),
                    "bid": bid,
                }
            )
    out = pd.DataFrame(rows, columns=[*ESTIMATE_COLUMNS, "bid"])
    res = difference_verdicts(out, (out["method"] != "wilson").to_numpy(), confidence)
    # An EV difference between positions lies within +-(won - lost) of its bid.
    ranges = {b: difference_range(outcome_values(outcomes, b), outcome_values(outcomes, b))
              for b in DECLARATIONS}  # fmt: skip
    ev = (res["method"] == "welch").to_numpy()
    lo = np.array([ranges[b][0] if e else -np.inf for b, e in zip(res["bid"], ev, strict=True)])
    hi = np.array([ranges[b][1] if e else np.inf for b, e in zip(res["bid"], ev, strict=True)])
    res["lower"], res["upper"] = clip_bounds(res["lower"], res["upper"], lo, hi)
    return res


# --------------------------------------------------------------------------- exact check
def exact_trumps_distribution(dealer: bool) -> list[Fraction]:
    """Exact distribution of the number of trumps in a 5-card hand (index = trumps, 0..5).

    The dealer's fifth card is the trump card (C1.4), so the other 4 trumps lie among the 19
    other cards: the dealer holds ``1 + H`` trumps, a non-dealer ``H'``, with ``H`` and ``H'``
    hypergeometric (4 trumps among 19 cards, 4 resp. 5 of them drawn).

    Parameters
    ----------
    dealer : bool
        The dealer's hand (True) or another seat's (False).

    Returns
    -------
    list of Fraction, length 6, summing to 1
    """
    drawn = 4 if dealer else 5
    total = math.comb(19, drawn)
    out = [Fraction(0)] * 6
    for k in range(0, 5):
        out[k + (1 if dealer else 0)] = Fraction(math.comb(4, k) * math.comb(15, drawn - k), total)
    return out


def trumps_check(outcomes: pd.DataFrame, confidence: float = 0.95) -> pd.DataFrame:
    """Simulated distribution of trumps held vs the exact one, for the dealer and the others.

    Returns
    -------
    DataFrame
        One row per (``hand_of``: ``"dealer"`` / ``"non-dealer"``, ``trumps`` 0..5):
        ``exact`` (float), ``count``, ``n``, ``estimate``, ``lower``, ``upper`` (``wilson``),
        ``method``, ``defined`` and ``within`` (the exact value lies in the interval; a
        probability of 0 must be observed 0 times).
    """
    is_dealer = outcomes["position"].astype(str).to_numpy() == "dealer"
    trumps = outcomes["trumps"].astype(np.int64).to_numpy()
    rows = []
    for label, sel in (("dealer", is_dealer), ("non-dealer", ~is_dealer)):
        exact = exact_trumps_distribution(label == "dealer")
        counts = np.bincount(trumps[sel], minlength=6)
        n = int(sel.sum())
        for k in range(6):
            p, lo, hi = (float(v) for v in wilson_interval(int(counts[k]), n, confidence))
            e = float(exact[k])
            rows.append(
                {
                    "hand_of": label,
                    "trumps": k,
                    "exact": e,
                    "count": int(counts[k]),
                    "n": n,
                    "estimate": p,
                    "lower": lo,
                    "upper": hi,
                    "method": "wilson",
                    "defined": n > 0,
                    "within": bool(counts[k] == 0) if e == 0 else bool(lo <= e <= hi),
                }
            )
    return pd.DataFrame(rows)


def exact_mean_trumps(dealer: bool) -> float:
    """Exact mean number of trumps in a hand (:func:`exact_trumps_distribution`): ``1 + 16/19``
    for the dealer, ``20/19`` for another seat."""
    return float(sum(k * p for k, p in enumerate(exact_trumps_distribution(dealer))))


def trumps_difference(outcomes: pd.DataFrame, confidence: float = 0.95) -> pd.DataFrame:
    """Mean trumps held by the dealer and by another seat, and their difference.

    The dealer keeps the trump card (C1.4) but that card is one of the 5 trumps the others no
    longer share, so the exact difference is ``1 - 4/19`` (about 0.79), not one trump.

    Parameters
    ----------
    outcomes : DataFrame
        :attr:`BiddingExperiment.outcomes` (``position``, ``trumps``).
    confidence : float
        Two-sided confidence level.

    Returns
    -------
    DataFrame
        Rows ``hand_of`` = ``"dealer"``, ``"non-dealer"`` (mean trumps per hand, ``normal`` /
        ``t``) and ``"dealer - non-dealer"`` (``welch``, different hands), with
        :data:`~cuarenta_sim.stats.ESTIMATE_COLUMNS` and ``exact`` (the exact value).
    """
    is_dealer = outcomes["position"].astype(str).to_numpy() == "dealer"
    trumps = outcomes["trumps"].to_numpy(np.float64)
    ed, eo = exact_mean_trumps(True), exact_mean_trumps(False)
    rows = [
        {**mean("mean trumps held, dealer", trumps[is_dealer], confidence), "exact": ed},
        {**mean("mean trumps held, non-dealer", trumps[~is_dealer], confidence), "exact": eo},
        {
            **diff_means(
                "mean trumps held, dealer minus non-dealer",
                trumps[is_dealer],
                trumps[~is_dealer],
                confidence,
            ),
            "exact": ed - eo,
        },
    ]
    out = pd.DataFrame(rows)
    out.insert(0, "hand_of", ["dealer", "non-dealer", "dealer - non-dealer"])
    return out
