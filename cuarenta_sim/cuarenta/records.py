"""Cuarenta's record blocks as the tidy frames of :class:`cuarenta_sim.results.Results`.

The kernels write column-major integer blocks (:mod:`.engine.layout`); these functions wrap
them as pandas frames without copying the columns. The columns are documented in
:class:`cuarenta_sim.results.Results` and ``docs/engine_contract.md`` section 8.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from .engine.layout import (
    G8_AT_38,
    G8_FIRST_DEALER,
    G8_MESA_ZAPATERIA,
    G8_TRUNCATED,
    G8_WIN_KIND,
    G8_WINNER,
    G8_ZAPATERIA,
    G16_CHICAS,
    G16_HANDS,
    G16_SCORE,
    LEVEL_DATA,
    LEVEL_MESA,
    R8_ENDED,
    R8_PLAYS,
    R16_CHICA,
    R16_HAND,
    R16_SCORE,
    REC8_COLUMNS,
    REC16_COLUMNS,
)


def hands_frame(level: int, rec8: np.ndarray, rec16: np.ndarray, rec64: np.ndarray) -> pd.DataFrame:
    """Wrap the engine's record blocks (layout in :mod:`cuarenta_sim.cuarenta.engine.layout`) as the
    ``hands`` frame of :class:`Results`, without copying the columns."""
    cols: dict[str, np.ndarray] = {}
    if level == LEVEL_DATA:
        cols["hand"] = rec64[0]
    else:
        cols["game"] = rec64[0]
        if level == LEVEL_MESA:
            cols["chica"] = rec16[R16_CHICA]
        cols["hand"] = rec16[R16_HAND]
    for j, name in enumerate(REC8_COLUMNS[:R8_PLAYS]):
        cols[name] = rec8[j]
    for j, name in enumerate(REC16_COLUMNS[:R16_SCORE]):
        cols[name] = rec16[j]
    for j in range(R8_PLAYS, R8_ENDED):
        name = REC8_COLUMNS[j]
        cols[name] = rec8[j]
    if level != LEVEL_DATA:
        cols["score_0"] = rec16[R16_SCORE]
        cols["score_1"] = rec16[R16_SCORE + 1]
        cols["ended"] = rec8[R8_ENDED].view(np.bool_)
    return pd.DataFrame(cols, copy=False)


def games_frame(level: int, game8: np.ndarray, game16: np.ndarray) -> pd.DataFrame:
    """Wrap the engine's game blocks as the ``games`` frame of :class:`Results`."""
    n = game8.shape[1]
    cols: dict[str, np.ndarray] = {
        "game": np.arange(n, dtype=np.int64),
        "first_dealer": game8[G8_FIRST_DEALER],
        "winner": game8[G8_WINNER],
        "score_0": game16[G16_SCORE],
        "score_1": game16[G16_SCORE + 1],
        "hands": game16[G16_HANDS],
        "zapateria": game8[G8_MESA_ZAPATERIA if level == LEVEL_MESA else G8_ZAPATERIA].view(
            np.bool_
        ),
        "decided_at_38": game8[G8_AT_38].view(np.bool_),
        "win_kind": game8[G8_WIN_KIND],
        "truncated": game8[G8_TRUNCATED].view(np.bool_),
    }
    if level == LEVEL_MESA:
        cols["chicas_0"] = game16[G16_CHICAS]
        cols["chicas_1"] = game16[G16_CHICAS + 1]
    return pd.DataFrame(cols, copy=False)
