"""Verdicts of the bidding tables: the gain of each bid over passing, Holm over the table.

Every (class, bid) row of a :func:`cuarenta_sim.cuatrola.bidding.class_table` tests "EV(bid) =
EV(pass)" on the same deals; one table is one family, adjusted by Holm
(:func:`cuarenta_sim.verdicts.verdict_table`), and the gain's printed interval is at the level
Holm tested its row, so a bid "beats passing" exactly when that interval lies above 0
(:func:`beats_pass`). A bid that gains the same amount on every hand of its class has no
spread to build an interval from: its row is flagged ``no_variation`` with no interval (never a
zero-width one) and tested by the exact sign test (every one of ``n`` hands the same sign: ``p
= 2^(1-n)``).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pandas as pd

from ..verdicts import critical_value, p_value_of_zero, verdict_table, with_verdicts


def gain_p_values(gain: pd.DataFrame, confidence: float) -> np.ndarray:
    """Two-sided p-values of "no gain" for rows of :func:`cuarenta_sim.stats.grouped_means`.

    Parameters
    ----------
    gain : DataFrame
        ``estimate``, ``upper``, ``n``, ``no_variation`` (one row per class).
    confidence : float
        The level of the intervals (their half-width gives the standard error).

    Returns
    -------
    ndarray of float
        Student t / normal p-value of the mean (dual to its interval); for a class with no
        variation, 1 when the gain is 0, else the exact sign test ``min(1, 2^(1-n))``; NaN
        below 2 hands.
    """
    out = np.full(len(gain), np.nan)
    for i, (est, hi, n, flat) in enumerate(
        zip(gain["estimate"], gain["upper"], gain["n"], gain["no_variation"], strict=True)
    ):
        n = int(n)
        if n < 2 or not math.isfinite(est):
            continue
        if bool(flat):
            out[i] = 1.0 if est == 0.0 else min(1.0, 2.0 * 0.5**n)
            continue
        se = (hi - est) / critical_value(confidence, n)
        out[i] = p_value_of_zero(est, se, n - 1)
    return out


def apply_gain_verdicts(table: pd.DataFrame, confidence: float) -> pd.DataFrame:
    """Holm over every gain row of a class table; intervals at each row's Holm level.

    Parameters
    ----------
    table : DataFrame
        Rows with ``gain``, ``gain_lower``, ``gain_upper``, ``gain_defined``,
        ``gain_no_variation``, ``gain_p_value``, ``n`` and ``gain_ci_method`` (``t`` /
        ``normal``).
    confidence : float

    Returns
    -------
    DataFrame
        ``table`` with ``gain_lower`` / ``gain_upper`` at the Holm level of the row (the
        marginal ones kept as ``gain_lower_marginal`` / ``gain_upper_marginal``),
        ``gain_p_adjusted``, ``gain_level`` and ``gain_verdict``.
    """
    frame = pd.DataFrame(
        {
            "estimate": table["gain"].to_numpy(np.float64),
            "lower": table["gain_lower"].to_numpy(np.float64),
            "upper": table["gain_upper"].to_numpy(np.float64),
            "defined": table["gain_defined"].to_numpy(bool),
            "no_variation": table["gain_no_variation"].to_numpy(bool),
            "p_value": table["gain_p_value"].to_numpy(np.float64),
            "n": table["n"].to_numpy(np.float64),
            "method": table["gain_ci_method"].astype(str).to_numpy(),
        },
        index=table.index,
    )
    vt = verdict_table(frame, method="holm", confidence=confidence)
    out = table.copy()
    out["gain_lower_marginal"] = out["gain_lower"]
    out["gain_upper_marginal"] = out["gain_upper"]
    out["gain_lower"] = vt["lower_adj"]
    out["gain_upper"] = vt["upper_adj"]
    out["gain_p_adjusted"] = vt["p_adjusted"]
    out["gain_level"] = vt["test_level"]
    out["gain_verdict"] = vt["verdict"]
    return out


def beats_pass(row: pd.Series | dict[str, Any]) -> bool:
    """Whether a bid beats passing: its gain is resolved (Holm) and positive.

    A bid that gains in every hand of its class by the same amount (no variation, no
    interval) beats passing when its exact sign test survives Holm; otherwise its gain's
    interval at the Holm level lies above 0.
    """
    verdict = str(row.get("gain_verdict", ""))
    gain = float(row.get("gain", math.nan))
    return verdict.startswith("resolved") and math.isfinite(gain) and gain > 0.0


def difference_verdicts(out: pd.DataFrame, rows: np.ndarray, confidence: float) -> pd.DataFrame:
    """Holm over the difference ``rows`` of an estimate table, intervals at their Holm levels.

    Parameters
    ----------
    out : DataFrame
        Estimate rows (:data:`cuarenta_sim.stats.ESTIMATE_COLUMNS`), single estimates and
        differences mixed.
    rows : ndarray of bool
        Which rows are differences (one family); the others get verdict ``"-"`` and keep their
        interval.
    confidence : float

    Returns
    -------
    DataFrame
        ``out`` with ``verdict`` and, on the difference rows, ``lower`` / ``upper`` at the level
        Holm tested each (marginal ones in ``lower_marginal`` / ``upper_marginal``).
    """
    res = out.copy()
    res["verdict"] = "-"
    res["lower_marginal"], res["upper_marginal"] = res["lower"], res["upper"]
    if rows.any():
        sub = with_verdicts(res[rows], confidence=confidence)
        for col in ("lower", "upper", "verdict"):
            res.loc[rows, col] = sub[col].to_numpy()
    return res
