"""Cuarenta's summary tables: headline estimates of hands and games, rules tables, the
``simulate --report`` document.

Estimates carry their interval and method (:mod:`cuarenta_sim.stats`); tables are rendered by
the game-independent :mod:`cuarenta_sim.reports`.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..stats import ESTIMATE_COLUMNS, mean, proportion, ratio
from .rules import PRESETS, SWITCHES, RuleSet


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


def summarize_games(
    games: pd.DataFrame, level: str = "chica", confidence: float = 0.95
) -> pd.DataFrame:
    """Headline per-game statistics of a ``Results.games`` frame, each with an interval.

    Parameters
    ----------
    games : DataFrame
        One row per chica (level ``"chica"``) or mesa (level ``"mesa"``) with the columns of
        ``docs/engine_contract.md`` section 8: at least ``winner``, ``hands``, ``zapateria``
        and ``truncated``; at level mesa also ``chicas_0`` and ``chicas_1``.
    level : {"chica", "mesa"}
        What one row is; only changes the metric names and adds chicas per mesa.
    confidence : float
        Two-sided confidence level of every interval.

    Returns
    -------
    DataFrame
        Columns :data:`cuarenta_sim.stats.ESTIMATE_COLUMNS`; rows: the chance side 0 wins
        (Wilson, over games that finished), datas per game (normal), at level mesa chicas per
        mesa (normal), the zapateria rate (Wilson; R9.3: at level mesa, mesas ended by a
        first-chica zapateria) and the share of truncated games (Wilson).

    Raises
    ------
    ValueError
        If ``level`` is not ``"chica"`` or ``"mesa"``.
    """
    if level not in ("chica", "mesa"):
        raise ValueError(f"summarize_games needs level 'chica' or 'mesa', got {level!r}")
    truncated = games["truncated"].to_numpy().astype(bool)
    finished = games.loc[~truncated]
    winner = finished["winner"].to_numpy(np.int64)
    zap = finished["zapateria"].to_numpy().astype(bool)
    rows = [
        proportion(
            f"P(side 0 wins the {level})", int((winner == 0).sum()), len(finished), confidence
        ),
        mean(f"datas per {level}", games["hands"].to_numpy(np.float64), confidence),
    ]
    if level == "mesa":
        chicas = games["chicas_0"].to_numpy(np.int64) + games["chicas_1"].to_numpy(np.int64)
        rows.append(mean("chicas per mesa", chicas, confidence))
        rows.append(
            proportion(
                "P(mesa won by a first-chica zapateria)", int(zap.sum()), len(finished), confidence
            )
        )
    else:
        rows.append(proportion("P(zapateria)", int(zap.sum()), len(finished), confidence))
    rows.append(proportion(f"P({level} truncated)", int(truncated.sum()), len(games), confidence))
    return pd.DataFrame(rows, columns=ESTIMATE_COLUMNS)


def rules_rows(rules: RuleSet) -> list[list[str]]:
    """Rows ``[switch, value, nearest preset's value]`` for every switch of a rule set.

    Parameters
    ----------
    rules : RuleSet
        The rules to describe.

    Returns
    -------
    list of list of str
        One row per switch in declaration order; the third cell is the value in the preset
        named by ``rules.slug()``, marked with ``*`` where ``rules`` differs from it.
    """
    base = PRESETS[rules.slug().split("(", 1)[0]]
    rows = []
    for name in SWITCHES:
        value, default = getattr(rules, name), getattr(base, name)
        mark = "" if value == default else " *"
        rows.append([name, format_switch(value), format_switch(default) + mark])
    return rows


def format_switch(value: object) -> str:
    """Format a switch value as slugs and the spec write it.

    Parameters
    ----------
    value : bool, int, str or None
        A :class:`cuarenta_sim.cuarenta.rules.RuleSet` field value.

    Returns
    -------
    str
        ``"true"`` / ``"false"`` for booleans, ``"None"`` for None, ``str(value)`` otherwise.
    """
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)
