"""Bradley-Terry ratings of a duplicate tournament, and their goodness of fit.

* :func:`ratings`: Bradley-Terry strengths fitted by Hunter's MM algorithm
  (:func:`bradley_terry`) to every pair's game wins, on the Elo scale (``400 log10`` odds,
  mean 0), with a percentile bootstrap that resamples each deal (game index) in every match
  together, since every match plays the same decks (:func:`bootstrap_draws`).
* :func:`bradley_terry_fit`: a single strength per policy only summarises the head-to-head
  table when results are transitive; the deviance on its degrees of freedom against a
  chi-square tests that and raises the ``misfit`` flag when the model does not fit.

Game-independent; :mod:`cuarenta_sim.tournament` plays the matches these rate.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from . import stats
from .distributions import chi2_sf
from .limits import whole_number

#: Most bootstrap replicates of :func:`ratings` (its ``(bootstrap, k)`` array stays small).
MAX_BOOTSTRAP = 1_000_000
#: Pseudo-wins added to each direction of every match before fitting Bradley-Terry, so that a
#: policy that won (or lost) every game still gets a finite rating. Half a game in tens of
#: thousands moves ratings by well under one Elo point.
BT_PSEUDO_WINS = 0.5
ELO_SCALE = 400.0 / math.log(10.0)
#: Level of the Bradley-Terry goodness-of-fit test below which ratings are flagged ``misfit``.
BT_MISFIT_ALPHA = 0.05


def bradley_terry(wins: np.ndarray, *, tol: float = 1e-10, max_iter: int = 10_000) -> np.ndarray:
    """Bradley-Terry strengths by Hunter's MM algorithm.

    Parameters
    ----------
    wins : ndarray of float64, shape (k, k)
        ``wins[i, j]``: games ``i`` won against ``j`` (diagonal ignored). Every policy must
        have won and lost at least something (add pseudo-wins, :data:`BT_PSEUDO_WINS`), and
        the comparison graph must be connected.
    tol : float
        Stop when no log-strength moves by more than this.
    max_iter : int
        Iteration cap.

    Returns
    -------
    ndarray of float64, shape (k,)
        Log-strengths ``theta`` with mean 0: P(i beats j) = 1 / (1 + exp(theta_j - theta_i)).

    Raises
    ------
    ValueError
        If ``wins`` is not square, has negative entries, or a policy has no win or no loss.
    """
    w = np.asarray(wins, dtype=np.float64).copy()
    if w.ndim != 2 or w.shape[0] != w.shape[1] or w.shape[0] < 2:
        raise ValueError(f"wins must be a square matrix of at least 2 policies, got {w.shape}")
    np.fill_diagonal(w, 0.0)
    if (w < 0).any():
        raise ValueError("wins must be non-negative")
    total_wins = w.sum(axis=1)
    if (total_wins <= 0).any() or (w.sum(axis=0) <= 0).any():
        raise ValueError("every policy needs at least one win and one loss (add pseudo-wins)")
    games = w + w.T
    p = np.ones(w.shape[0])
    for _ in range(max_iter):
        denom = (games / (p[:, None] + p[None, :])).sum(axis=1)
        new = total_wins / denom
        new /= math.exp(np.log(new).mean())
        done = np.abs(np.log(new) - np.log(p)).max() < tol
        p = new
        if done:
            break
    theta = np.log(p)
    return theta - theta.mean()


def _wins_matrix(k: int, matches: Sequence[tuple[int, int, np.ndarray]]) -> np.ndarray:
    w = np.zeros((k, k))
    for i, j, a_wins in matches:
        won = float(a_wins.sum())
        lost = 2.0 * a_wins.size - won
        w[i, j] += won + BT_PSEUDO_WINS
        w[j, i] += lost + BT_PSEUDO_WINS
    return w


def bootstrap_draws(sizes: Sequence[int], rng: np.random.Generator) -> list[np.ndarray]:
    """Indices of one bootstrap replicate of every match, shared deals resampled together.

    Every match of a tournament plays game indices ``0 .. m - 1`` on one seed, so entry ``g``
    of every match was dealt the same decks: deal ``g`` is one unit shared by all matches. One
    replicate draws ``M = max(sizes)`` deal indices with replacement from ``0 .. M - 1``; a
    match of ``M`` pairs takes the whole draw, a shorter match of ``m`` pairs the drawn
    indices below ``m`` (in draw order), so a deal drawn ``c`` times counts ``c`` times in
    *every* match that played it. A shorter match's replicate size is random (binomial with
    mean ``m``), as in the Poisson bootstrap.

    Parameters
    ----------
    sizes : sequence of int
        Duplicate pairs of each match (its game indices are ``0 .. size - 1``).
    rng : numpy Generator
        Source of the draw.

    Returns
    -------
    list of ndarray of int64
        One index array per match; matches of the largest size share the same array object.
    """
    if not sizes:
        return []
    m_max = max(sizes)
    draw = rng.integers(0, m_max, m_max)
    return [draw if m == m_max else draw[draw < m] for m in sizes]


def ratings(
    policies: Sequence[str],
    matches: Sequence[tuple[int, int, np.ndarray]],
    *,
    confidence: float = 0.95,
    bootstrap: int = 1000,
    seed: int = 0,
) -> pd.DataFrame:
    """Bradley-Terry ratings on the Elo scale with a bootstrap over duplicate pairs.

    Parameters
    ----------
    policies : sequence of str
        The ``k`` policy specs.
    matches : sequence of (i, j, a_wins)
        One entry per match: indices of the two policies and the per-pair wins of ``i``
        (float64 array, values 0 to 2, :func:`play_duplicate`'s ``a_wins``).
    confidence : float
        Two-sided level of the percentile bootstrap interval.
    bootstrap : int
        Bootstrap replicates, 0 to :data:`MAX_BOOTSTRAP`. Each draws game indices with replacement
        and applies the *same* draw to every match (:func:`bootstrap_draws`): entry ``g`` of every
        match was dealt the same decks (one seed for the whole tournament), so a deal that favours
        one style of play favours it in every match, and the ratings' uncertainty must carry that
        shared luck. A shorter match (fewer pairs, e.g. a slow search policy's) keeps the drawn
        deals it played.
    seed : int
        Seed of the bootstrap draws (a generator of its own: the draws never touch a game's
        streams).

    Returns
    -------
    DataFrame
        One row per policy, sorted by rating: ``policy``, ``rating`` (Elo points, mean 0),
        ``lower``, ``upper``, ``n`` (games played), ``method`` (``"bradley-terry bootstrap"``).
        Read them only with :func:`bradley_terry_fit`: when ``misfit`` is raised no single
        strength per policy reproduces the head-to-head table.
    """
    stats.z_value(confidence)
    bootstrap = whole_number(bootstrap, "bootstrap", 0, MAX_BOOTSTRAP)
    seed = whole_number(seed, "seed", 0)
    k = len(policies)
    theta = bradley_terry(_wins_matrix(k, matches))
    rng = np.random.default_rng(seed)
    boot = np.empty((bootstrap, k))
    sizes = [w.size for _, _, w in matches]
    for rep in range(bootstrap):
        draws = bootstrap_draws(sizes, rng)
        resampled = [(i, j, w[d]) for (i, j, w), d in zip(matches, draws, strict=True)]
        boot[rep] = bradley_terry(_wins_matrix(k, resampled))
    alpha = (1.0 - confidence) / 2.0
    lo, hi = np.quantile(boot, [alpha, 1.0 - alpha], axis=0) if bootstrap else (theta, theta)
    played = np.zeros(k, dtype=np.int64)
    for i, j, w in matches:
        played[i] += 2 * w.size
        played[j] += 2 * w.size
    frame = pd.DataFrame(
        {
            "policy": list(policies),
            "rating": ELO_SCALE * theta,
            "lower": ELO_SCALE * np.asarray(lo),
            "upper": ELO_SCALE * np.asarray(hi),
            "n": played,
            "method": "bradley-terry bootstrap",
        }
    )
    return frame.sort_values("rating", ascending=False, ignore_index=True)


@dataclass(frozen=True)
class BradleyTerryFit:
    """Goodness of fit of Bradley-Terry ratings to the head-to-head results.

    Attributes
    ----------
    deviance : float
        ``2 sum [w log(w / (n p)) + (n - w) log((n - w) / (n (1 - p)))]`` over the pairs of
        policies that played: ``w`` games won by the first of ``n``, ``p`` the model's chance.
    df : int
        Pairs that played minus the ``k - 1`` free strengths (0: the model is saturated and
        cannot misfit, e.g. two policies).
    dispersion : float
        ``max(1, pooled design effect)`` of the duplicate pairs: the variance of the per-pair
        score relative to independent games. When games of a pair are positively correlated
        the deviance overstates the misfit, so it is divided by this (quasi-likelihood);
        duplicate play usually correlates them negatively, and the deviance is then left as
        is (conservative).
    p_value : float
        ``P(chi2_df > deviance / dispersion)`` (:func:`cuarenta_sim.distributions.chi2_sf`);
        NaN when ``df == 0``.
    misfit : bool
        ``p_value < BT_MISFIT_ALPHA``: the ratings do not summarise the head-to-head table
        (e.g. intransitive results); quote the table, not the ratings.
    pairs : DataFrame
        One row per pair: ``a``, ``b``, ``games``, ``a_wins``, ``observed`` (``a``'s win
        rate), ``predicted`` (the model's), ``residual`` (Pearson, ``(w - n p) / sqrt(n p
        (1 - p))``), ``design_effect``, ``elo_gap`` (the model's, ``a`` minus ``b``) and
        ``observed_gap`` (the Elo gap the head-to-head win rate alone implies).
    """

    deviance: float
    df: int
    dispersion: float
    p_value: float
    misfit: bool
    pairs: pd.DataFrame

    def warning(self) -> str:
        """One line for reports: empty when the model fits, else what the misfit means."""
        if not self.misfit:
            return ""
        return (
            f"Bradley-Terry misfit: deviance {self.deviance:,.1f} on {self.df} df "
            f"(p = {self.p_value:.2g}); a single rating per policy does not reproduce the "
            f"head-to-head results, read the head-to-head table instead."
        )


def bradley_terry_fit(
    policies: Sequence[str], matches: Sequence[tuple[int, int, np.ndarray]]
) -> BradleyTerryFit:
    """Test whether Bradley-Terry strengths reproduce every pair's results.

    Parameters
    ----------
    policies : sequence of str
        The ``k`` policy specs.
    matches : sequence of (i, j, a_wins)
        As in :func:`ratings`: policy indices and the per-pair wins of ``i`` (0 to 2 per
        duplicate pair).

    Returns
    -------
    BradleyTerryFit
        The strengths are those of :func:`ratings` (fitted with :data:`BT_PSEUDO_WINS`); the
        deviance compares the observed wins with them.

    Raises
    ------
    ValueError
        If a match has no duplicate pair, or :func:`bradley_terry` rejects the wins.
    """
    k = len(policies)
    theta = bradley_terry(_wins_matrix(k, matches))
    rows = []
    deviance = 0.0
    scores = []
    for i, j, w in matches:
        w = np.asarray(w, dtype=np.float64)
        if w.size == 0:
            raise ValueError(f"match {policies[i]} vs {policies[j]} has no duplicate pair")
        n = 2.0 * w.size
        won = float(w.sum())
        p = 1.0 / (1.0 + math.exp(theta[j] - theta[i]))
        for obs, exp in ((won, n * p), (n - won, n * (1.0 - p))):
            if obs > 0:
                deviance += 2.0 * obs * math.log(obs / exp)
        rate = won / n
        score = w / 2.0
        binom_var = rate * (1.0 - rate) / 2.0  # variance of one pair's score if independent
        var = float(score.var(ddof=1)) if w.size > 1 else math.nan
        deff = var / binom_var if binom_var > 0 and math.isfinite(var) else math.nan
        scores.append((w.size, deff))
        clipped = min(max(rate, 0.5 / n), 1.0 - 0.5 / n)
        rows.append(
            {
                "a": policies[i],
                "b": policies[j],
                "games": int(n),
                "a_wins": won,
                "observed": rate,
                "predicted": p,
                "residual": (won - n * p) / math.sqrt(n * p * (1.0 - p)),
                "design_effect": deff,
                "elo_gap": ELO_SCALE * (theta[i] - theta[j]),
                "observed_gap": ELO_SCALE * math.log(clipped / (1.0 - clipped)),
            }
        )
    # The deviance can come out a hair below 0 from rounding when the fit is exact.
    deviance = max(0.0, deviance)
    played = {frozenset((i, j)) for i, j, _ in matches}
    df = len(played) - (k - 1)
    weights = [(m, d) for m, d in scores if math.isfinite(d)]
    pooled = sum(m * d for m, d in weights) / sum(m for m, _ in weights) if weights else 1.0
    dispersion = max(1.0, pooled)
    p_value = chi2_sf(deviance / dispersion, df) if df > 0 else math.nan
    return BradleyTerryFit(
        deviance=deviance,
        df=df,
        dispersion=dispersion,
        p_value=p_value,
        misfit=bool(df > 0 and p_value < BT_MISFIT_ALPHA),
        pairs=pd.DataFrame(rows),
    )
