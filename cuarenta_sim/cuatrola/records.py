"""Cuatrola's record blocks as the tidy frames of :class:`cuarenta_sim.results.Results`.

The kernels write column-major integer blocks (:mod:`.engine.layout`); these functions wrap
them as pandas frames without copying the columns. The columns are documented in
:mod:`cuarenta_sim.cuatrola.simulation` and ``docs/cuatrola_contract.md`` section 7.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from .engine.layout import (
    G8_FIRST_DEALER,
    G8_TRUNCATED,
    G8_WINNER,
    G16_HANDS,
    G16_SCORE,
    LEVEL_HAND,
    R8_LAST,
    R16_HAND,
    R16_SCORE,
    REC8_COLUMNS,
    REC16_COLUMNS,
    REC32_COLUMNS,
)


def hands_frame(
    code: int, rec8: np.ndarray, rec16: np.ndarray, rec32: np.ndarray, rec64: np.ndarray
) -> pd.DataFrame:
    """Wrap the kernel's record blocks (layout in :mod:`cuarenta_sim.cuatrola.engine.layout`)
    as the ``hands`` frame of :class:`cuarenta_sim.results.Results` (columns in
    :mod:`cuarenta_sim.cuatrola.simulation`), without copying the columns."""
    cols: dict[str, np.ndarray] = {}
    if code == LEVEL_HAND:
        cols["hand"] = rec64[0]
    else:
        cols["game"] = rec64[0]
        cols["hand"] = rec16[R16_HAND]
    for j, name in enumerate(REC8_COLUMNS[: R8_LAST - 2]):
        cols[name] = rec8[j]
    for j in range(R16_HAND + 1, R16_SCORE):
        cols[REC16_COLUMNS[j]] = rec16[j]
    for j in range(R8_LAST - 2, R8_LAST):
        cols[REC8_COLUMNS[j]] = rec8[j]
    if code != LEVEL_HAND:
        cols["score_0"] = rec16[R16_SCORE]
        cols["score_1"] = rec16[R16_SCORE + 1]
    cols["last_trick"] = rec8[R8_LAST]
    for j, name in enumerate(REC32_COLUMNS):
        cols[name] = rec32[j]
    return pd.DataFrame(cols, copy=False)


def games_frame(game8: np.ndarray, game16: np.ndarray) -> pd.DataFrame:
    """Wrap the kernel's game blocks as the ``games`` frame of
    :class:`cuarenta_sim.results.Results` (``game`` numbered from 0)."""
    n = game8.shape[1]
    return pd.DataFrame(
        {
            "game": np.arange(n, dtype=np.int64),
            "first_dealer": game8[G8_FIRST_DEALER],
            "winner": game8[G8_WINNER],
            "score_0": game16[G16_SCORE],
            "score_1": game16[G16_SCORE + 1],
            "hands": game16[G16_HANDS],
            "truncated": game8[G8_TRUNCATED].view(np.bool_),
        },
        copy=False,
    )
