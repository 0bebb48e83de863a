"""Headline estimates of a Cuatrola simulation, each with its interval (for the CLI summary).

Input: the ``hands`` and ``games`` frames of ``cuarenta_sim.simulate("cuatrola", ...)``
(columns documented in :mod:`cuarenta_sim.cuatrola.simulation`). Output: estimate frames with
:data:`cuarenta_sim.stats.ESTIMATE_COLUMNS`: ``wilson`` intervals for proportions, ``normal``
for means over independent hands or games.
"""

from __future__ import annotations

import pandas as pd

from ..stats import ESTIMATE_COLUMNS, mean, proportion
from .contracts import DECLARATIONS


def summarize_hands(hands: pd.DataFrame, confidence: float = 0.95) -> pd.DataFrame:
    """Per-hand estimates: how often each contract is declared and made, game points per hand.

    Parameters
    ----------
    hands : DataFrame
        ``Results.hands`` of a Cuatrola run (``contract`` int8: 0 none, 1 solo, 2 cuatrola,
        3 quintola; ``made``; ``dealer``; ``game_points_0/1``; ``cantes_0/1``).
    confidence : float
        Two-sided confidence level.

    Returns
    -------
    DataFrame
        One row per metric (:data:`cuarenta_sim.stats.ESTIMATE_COLUMNS`): ``declared`` and
        ``declared_<contract>`` (share of hands, Wilson), ``made_<contract>`` (share of that
        contract's hands made, C5), ``mano_pair_wins_no_contract`` (C5.2, share of all-pass
        hands won by the mano's pair), ``cante_made`` (share of hands with a cante, C4),
        ``game_points_per_hand`` (both pairs together, normal).
    """
    contract = hands["contract"].to_numpy()
    made = hands["made"].to_numpy()
    n = len(hands)
    rows = [proportion("declared", int((contract > 0).sum()), n, confidence)]
    for code, name in enumerate(DECLARATIONS):
        if code == 0:
            continue
        rows.append(proportion(f"declared_{name}", int((contract == code).sum()), n, confidence))
    for code, name in enumerate(DECLARATIONS):
        if code == 0:
            continue
        mine = contract == code
        rows.append(
            proportion(f"made_{name}", int((made[mine] == 1).sum()), int(mine.sum()), confidence)
        )
    none = contract == 0
    mano_pair = (hands["dealer"].to_numpy()[none] + 1) % 2
    points = hands[["game_points_0", "game_points_1"]].to_numpy()[none]
    mano_won = points[range(len(mano_pair)), mano_pair] > 0
    rows.append(
        proportion("mano_pair_wins_no_contract", int(mano_won.sum()), int(none.sum()), confidence)
    )
    cante = (hands["cantes_0"].to_numpy() > 0) | (hands["cantes_1"].to_numpy() > 0)
    rows.append(proportion("cante_made", int(cante.sum()), n, confidence))
    total = hands["game_points_0"].to_numpy(float) + hands["game_points_1"].to_numpy(float)
    rows.append(mean("game_points_per_hand", total, confidence))
    return pd.DataFrame(rows, columns=ESTIMATE_COLUMNS)


def summarize_games(games: pd.DataFrame, confidence: float = 0.95) -> pd.DataFrame:
    """Per-game estimates: the first dealer's pair's win rate and hands per game (C6).

    Parameters
    ----------
    games : DataFrame
        ``Results.games`` of a level-game run (``first_dealer``, ``winner``, ``hands``).
    confidence : float
        Two-sided confidence level.

    Returns
    -------
    DataFrame
        ``first_dealer_pair_wins`` (Wilson, finished games) and ``hands_per_game`` (normal).
    """
    finished = games["winner"].to_numpy() >= 0
    first_pair = games["first_dealer"].to_numpy()[finished] % 2
    wins = int((games["winner"].to_numpy()[finished] == first_pair).sum())
    rows = [
        proportion("first_dealer_pair_wins", wins, int(finished.sum()), confidence),
        mean("hands_per_game", games["hands"].to_numpy(float), confidence),
    ]
    return pd.DataFrame(rows, columns=ESTIMATE_COLUMNS)
