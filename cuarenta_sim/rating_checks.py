"""Checks on Bradley-Terry ratings: where the misfit comes from, a fit without a player, and
intervals widened by the misfit (issue 18 item 8).

A single strength per player can misfit a tournament for one player alone: the uniformly
random player loses almost every game, and its few wins follow luck, not strength, so its
pairs can hold most of the deviance. :func:`deviance_shares` says how much of the misfit each
player's pairs carry; :func:`ratings_without` refits the ratings with some players left out
(their matches dropped); :func:`inflate` widens rating intervals by ``sqrt(deviance / (dispersion
* df))`` when that is above 1 (quasi-likelihood over-dispersion), so an interval printed beside a
misfit says how much the model misses. Game-agnostic: players are policy spec strings.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd

from .bradley_terry import BradleyTerryFit, bradley_terry_fit, ratings


def pair_deviance(fit: BradleyTerryFit) -> np.ndarray:
    """Each pair's contribution to ``fit.deviance`` (same order as ``fit.pairs``).

    ``2 [w log(w / (n p)) + (n - w) log((n - w) / (n (1 - p)))]`` with ``w`` the first
    player's wins of ``n`` games and ``p`` the model's chance.
    """
    out = []
    for _, r in fit.pairs.iterrows():
        n, w, p = float(r["games"]), float(r["a_wins"]), float(r["predicted"])
        d = 0.0
        for obs, exp in ((w, n * p), (n - w, n * (1.0 - p))):
            if obs > 0:
                d += 2.0 * obs * math.log(obs / exp)
        out.append(d)
    return np.asarray(out, dtype=np.float64)


def deviance_shares(fit: BradleyTerryFit) -> pd.DataFrame:
    """Share of the deviance carried by the pairs of each player.

    Returns
    -------
    DataFrame
        One row per player: ``policy``, ``deviance`` (sum over its pairs), ``share`` (of the
        total deviance; a pair counts for both its players, so shares add to 2), ``pairs``.
    """
    dev = pair_deviance(fit)
    total = float(dev.sum())
    players = list(dict.fromkeys([*fit.pairs["a"], *fit.pairs["b"]]))
    rows = []
    for p in players:
        mask = ((fit.pairs["a"] == p) | (fit.pairs["b"] == p)).to_numpy()
        d = float(dev[mask].sum())
        rows.append(
            {
                "policy": p,
                "deviance": d,
                "share": d / total if total > 0 else math.nan,
                "pairs": int(mask.sum()),
            }
        )
    return pd.DataFrame(rows)


def inflation(fit: BradleyTerryFit) -> float:
    """``sqrt(deviance / (dispersion * df))`` when above 1, else 1 (no widening); 1 when
    ``df == 0``."""
    if fit.df <= 0:
        return 1.0
    return max(1.0, math.sqrt(fit.deviance / (fit.dispersion * fit.df)))


def inflate(rating: pd.DataFrame, fit: BradleyTerryFit) -> pd.DataFrame:
    """``rating`` with ``lower_inflated`` / ``upper_inflated``: each side of the interval
    widened about the rating by :func:`inflation`, and the factor in ``inflation``."""
    c = inflation(fit)
    out = rating.copy()
    out["lower_inflated"] = out["rating"] - c * (out["rating"] - out["lower"])
    out["upper_inflated"] = out["rating"] + c * (out["upper"] - out["rating"])
    out["inflation"] = c
    return out


def is_excluded(spec: str, names: Sequence[str]) -> bool:
    """Whether a policy spec's name (before any ``(``) is one of ``names``."""
    return spec.split("(", 1)[0].strip() in names


def ratings_without(
    policies: Sequence[str],
    chica_pairs: Mapping[tuple[str, str], np.ndarray],
    exclude: Sequence[str] = ("random",),
    *,
    confidence: float = 0.95,
    bootstrap: int = 1000,
    seed: int = 0,
) -> tuple[pd.DataFrame, BradleyTerryFit, list[str]] | None:
    """Bradley-Terry ratings and fit with the players named in ``exclude`` left out.

    Parameters
    ----------
    policies : sequence of str
        The tournament's policy specs.
    chica_pairs : mapping of (a, b) to ndarray
        Per-pair chica wins of ``a`` (0 to 2 per duplicate pair) for every match played.
    exclude : sequence of str
        Policy names to leave out (``"random"``).
    confidence, bootstrap, seed
        As :func:`cuarenta_sim.bradley_terry.ratings`.

    Returns
    -------
    (ratings, fit, kept) or None
        :func:`inflate`-d ratings of the kept players, their :func:`bradley_terry_fit`, and
        the kept specs; None when nothing is excluded or fewer than 3 players remain (a fit
        of 2 is saturated).
    """
    kept = [p for p in policies if not is_excluded(p, exclude)]
    if len(kept) == len(policies) or len(kept) < 3:
        return None
    index = {p: i for i, p in enumerate(kept)}
    matches = [
        (index[a], index[b], np.asarray(w, dtype=np.float64))
        for (a, b), w in chica_pairs.items()
        if a in index and b in index
    ]
    fit = bradley_terry_fit(kept, matches)
    rating = ratings(kept, matches, confidence=confidence, bootstrap=bootstrap, seed=seed)
    return inflate(rating, fit), fit, kept
