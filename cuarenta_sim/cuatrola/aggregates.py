"""Cuatrola's counters: the features of a hand and of a game, and the tables they rebuild.

Each chunk of a run reduces its records to :class:`cuarenta_sim.aggregates.Counters` of the
features below; the merged counters rebuild the tables of :mod:`.summaries`
(:func:`.summaries.summarize_hands`, :func:`.summaries.summarize_games`): the same rows,
counts, estimates and methods, bounds equal to rounding.

Public API: :func:`hand_features`, :func:`game_features`, :class:`Aggregates`,
:func:`aggregate_frames`, :func:`aggregate_results`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from .. import stats
from ..aggregates import Aggregates as BaseAggregates
from ..aggregates import Counters, mean_row
from .contracts import DECLARATIONS

#: Record columns that identify a row or hold a card mask rather than measure it.
SKIPPED = ("game", "hand", "dealt_0", "dealt_1", "dealt_2", "dealt_3")


def hand_features(hands: pd.DataFrame) -> dict[str, np.ndarray]:
    """Integer features of every hand of a ``Results.hands`` frame.

    Returns
    -------
    dict of str to ndarray, shape (rows,)
        Every record column except the indices and the ``dealt_k`` masks, then
        ``made_<contract>`` (that contract declared and made, C5), ``mano_pair_wins_no_contract``
        (an all-pass hand won by the mano's pair, C5.2), ``cante_made`` (a cante sung, C4) and
        ``game_points`` (both pairs' game points of the hand).
    """
    out = {c: hands[c].to_numpy() for c in hands.columns if c not in SKIPPED}
    contract = hands["contract"].to_numpy()
    made = hands["made"].to_numpy()
    for code, name in enumerate(DECLARATIONS):
        if code:
            out[f"made_{name}"] = (contract == code) & (made == 1)
    gp = hands[["game_points_0", "game_points_1"]].to_numpy()
    mano_pair = (hands["dealer"].to_numpy().astype(np.int64) + 1) % 2
    out["mano_pair_wins_no_contract"] = (contract == 0) & (gp[np.arange(len(gp)), mano_pair] > 0)
    out["cante_made"] = (hands["cantes_0"].to_numpy() > 0) | (hands["cantes_1"].to_numpy() > 0)
    out["game_points"] = np.add(gp[:, 0], gp[:, 1], dtype=np.int32)
    return out


def game_features(games: pd.DataFrame) -> dict[str, np.ndarray]:
    """Integer features of every game of a ``Results.games`` frame: every column except
    ``game``, then ``first_dealer_pair_wins`` (the pair of the first dealer won, C6)."""
    out = {c: games[c].to_numpy() for c in games.columns if c != "game"}
    winner = games["winner"].to_numpy(np.int64)
    out["first_dealer_pair_wins"] = winner == games["first_dealer"].to_numpy(np.int64) % 2
    return out


@dataclass
class Aggregates(BaseAggregates):
    """Merged counters of a Cuatrola run, with provenance.

    Attributes
    ----------
    level : str
        ``"hand"`` or ``"game"``.
    hands : Counters or None
        Counters of :func:`hand_features`; None when the run kept no hands.
    games : dict of str to Counters, or None
        Level game: counters of :func:`game_features` of all games (``"all"``) and of the
        finished ones (``"finished"``, winner >= 0).
    provenance : dict
        As ``Results.provenance``.
    """

    def summarize_hands(self, confidence: float = 0.95) -> pd.DataFrame:
        """The table of :func:`.summaries.summarize_hands`, from the counters.

        Raises
        ------
        ValueError
            If the run kept no hands.
        """
        c = self._hands()
        n = c.n
        none = c.count_equal("contract", 0)
        rows = [stats.proportion("declared", n - none, n, confidence)]
        for code, name in enumerate(DECLARATIONS):
            if code:
                rows.append(
                    stats.proportion(
                        f"declared_{name}", c.count_equal("contract", code), n, confidence
                    )
                )
        for code, name in enumerate(DECLARATIONS):
            if code:
                rows.append(
                    stats.proportion(
                        f"made_{name}",
                        c.sums[f"made_{name}"],
                        c.count_equal("contract", code),
                        confidence,
                    )
                )
        rows.append(
            stats.proportion(
                "mano_pair_wins_no_contract", c.sums["mano_pair_wins_no_contract"], none,
                confidence,
            )
        )  # fmt: skip
        rows.append(stats.proportion("cante_made", c.sums["cante_made"], n, confidence))
        rows.append(mean_row(c, "game_points_per_hand", "game_points", confidence))
        return pd.DataFrame(rows, columns=stats.ESTIMATE_COLUMNS)

    def summarize_games(self, confidence: float = 0.95) -> pd.DataFrame:
        """The table of :func:`.summaries.summarize_games`, from the counters.

        Raises
        ------
        ValueError
            At level hand (no games).
        """
        games = self._games()
        done, every = games["finished"], games["all"]
        rows = [
            stats.proportion(
                "first_dealer_pair_wins", done.sums["first_dealer_pair_wins"], done.n, confidence
            ),
            mean_row(every, "hands_per_game", "hands", confidence),
        ]
        return pd.DataFrame(rows, columns=stats.ESTIMATE_COLUMNS)


def aggregate_frames(
    level: str, hands: pd.DataFrame | None, games: pd.DataFrame | None
) -> Aggregates:
    """Counters of record frames (``Results.hands`` / ``Results.games``), no provenance."""
    game_counters = None
    if games is not None:
        features = game_features(games)
        finished = games["winner"].to_numpy() >= 0
        game_counters = {
            "all": Counters.from_arrays(features),
            "finished": Counters.from_arrays({k: v[finished] for k, v in features.items()}),
        }
    return Aggregates(
        level=level,
        hands=None if hands is None else Counters.from_arrays(hand_features(hands)),
        games=game_counters,
    )


def aggregate_results(results: Any) -> Aggregates:
    """:class:`Aggregates` of a :class:`cuarenta_sim.results.Results` (same provenance):
    equal, counter for counter, to :func:`cuarenta_sim.simulation.aggregate` of the same
    run."""
    level = results.provenance.get("level", "hand")
    agg = aggregate_frames(level, results.hands, results.games)
    agg.provenance = dict(results.provenance)
    return agg
