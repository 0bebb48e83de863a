"""Batch driver and single-hand / single-game trace of the Cuatrola kernel.

:func:`run_batch` is the only ``parallel=True`` kernel: a ``prange`` over blocks of hands
(level hand) or games (level game); each block allocates its scratch once. A hand's or game's
output goes to its own columns only and all its randomness comes from ``(root, game, data,
stream)``, so the output is identical whatever the threads, block size or chunking.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from numba import njit, prange

from ...limits import choice_index, game_index
from ...rng import root_from_seed
from ..policies import (
    bid_policy_array,
    play_policy_array,
    resolve_bid_policies,
    resolve_play_policies,
)
from ..rules import CuatrolaRules, resolve_rules
from ..trace_format import MAX_TRACE_PER_HAND, N_TRACE
from .layout import (
    G8_FIRST_DEALER,
    G8_TRUNCATED,
    G8_WINNER,
    G16_HANDS,
    G16_SCORE,
    LEVEL_HAND,
    LEVELS,
    MAX_HANDS,
    STATE_DTYPE,
    W_TRACE_N,
    KernelOutput,
    empty_output,
    kernel_params,
)
from .play import flush_trace, new_hand, play_game, play_hand, store_record


@njit(cache=True)
def _play_block(params, level, lo, hi, game0, cap, row0, out, trace):
    """Play hands / games ``lo .. hi - 1`` in one ``state`` record (scratch allocated once);
    returns the trace rows written."""
    states = np.zeros(1, dtype=STATE_DTYPE)
    state = states[0]
    state.tracing = 1 if trace.shape[0] > 0 else 0
    p = params[0]
    rec8, rec16, rec32, rec64, game8, game16, counts = out
    for g in range(lo, hi):
        i = g - game0
        if level == LEVEL_HAND:
            new_hand(state, g, 0, g % 4, 0, 0)
            play_hand(p, state)
            flush_trace(state, trace)
            if cap > 0:
                store_record(state, rec8, rec16, rec32, rec64, row0 + i)
            counts[i] = 1
        else:
            state.game = g
            play_game(p, state, trace, rec8, rec16, rec32, rec64, row0 + i * cap, cap)
            game8[G8_FIRST_DEALER, i] = state.first_dealer
            game8[G8_WINNER, i] = state.winner
            game8[G8_TRUNCATED, i] = 1 if state.winner < 0 else 0
            game16[G16_SCORE, i] = state.score_0
            game16[G16_SCORE + 1, i] = state.score_1
            game16[G16_HANDS, i] = state.hands_played
            counts[i] = state.hands_played
    return state.work[W_TRACE_N]


@njit(cache=True, parallel=True)
def run_batch(
    params: np.ndarray,
    level: np.int64,
    game0: np.int64,
    n: np.int64,
    block: np.int64,
    cap: np.int64,
    row0: np.int64,
    out: KernelOutput,
) -> None:
    """Play hands (level hand) or games (level game) ``game0 .. game0 + n - 1`` in parallel.

    Parameters
    ----------
    params : ndarray of :data:`~cuarenta_sim.cuatrola.engine.layout.PARAMS_DTYPE`, shape (1,)
        Rules, the seats' play and bidding policy rows and the root of the random streams
        (:func:`cuarenta_sim.cuatrola.engine.layout.kernel_params`).
    level : int
        0 hand, 1 game (:data:`cuarenta_sim.cuatrola.engine.layout.LEVELS`).
    game0, n : int
        The hands / games played.
    block : int
        Hands / games per parallel task (>= 1; any value gives the same output).
    cap, row0 : int
        Records: at level hand, hand ``g`` goes to column ``row0 + g - game0`` (``cap = 0``
        writes none); at level game, hand ``j < cap`` of game ``g`` to column
        ``row0 + (g - game0) * cap + j``.
    out : KernelOutput
        Record blocks (``cap`` slots per game), game blocks (``n`` columns at level game, any
        at level hand) and ``counts`` (int64, shape (n,)): hands played per game (1 at level
        hand), all written in place.
    """
    n_blocks = (n + block - 1) // block
    for b in prange(n_blocks):
        lo = game0 + b * block
        hi = min(lo + block, game0 + n)
        trace = np.empty((0, N_TRACE), dtype=np.int64)
        _play_block(params, level, lo, hi, game0, cap, row0, out, trace)


@njit(cache=True)
def _trace_one(params, level, index, out, trace):
    """Play hand / game ``index`` alone into ``trace`` (``index + 1`` in int64 arithmetic, as
    a batch computes its bounds, so the largest index plays too); returns the rows written."""
    return _play_block(params, level, index, index + 1, index, 0, 0, out, trace)


def level_code(level: str) -> int:
    """Return the kernel code of a level name (``"hand"`` or ``"game"``).

    Raises
    ------
    ValueError
        Unknown level (the message lists the accepted ones).
    """
    return choice_index(level, LEVELS, "Cuatrola level")


def kernel_policies(
    play_policies: str | Sequence[str], bid_policies: str | Sequence[str]
) -> tuple[np.ndarray, np.ndarray]:
    """Return the play (int64[4, 2]) and bidding (int64[4, 4]) policy arrays of the kernel.

    Raises
    ------
    ValueError
        Unknown policy names or a wrong number of them.
    """
    plays = play_policy_array(resolve_play_policies(play_policies))
    return plays, bid_policy_array(resolve_bid_policies(bid_policies))


def trace_game(
    rules: CuatrolaRules | str | dict[str, Any],
    play_policies: str | Sequence[str],
    bid_policies: str | Sequence[str],
    seed: int,
    level: str,
    index: int,
) -> np.ndarray:
    """Play hand or game ``index`` with the numba kernel and return its trace (contract 6).

    Returns
    -------
    ndarray of int64, shape (rows, 9)
        Columns :data:`cuarenta_sim.cuatrola.trace_format.TRACE_COLUMNS`; the same play as
        item ``index`` of ``simulate("cuatrola", ..., seed=seed, level=level)``.

    Raises
    ------
    ValueError
        Bad rules, policies, seed, level or index.
    """
    ruleset = resolve_rules(rules)
    plays, bids = kernel_policies(play_policies, bid_policies)
    code = level_code(level)
    index = game_index(index)
    if seed is None:
        raise ValueError("trace_game needs an explicit seed (a non-negative integer)")
    root, _ = root_from_seed(seed)
    hands = 1 if code == LEVEL_HAND else MAX_HANDS
    trace = np.empty((hands * MAX_TRACE_PER_HAND, N_TRACE), dtype=np.int64)
    params = kernel_params(ruleset.to_kernel(), plays, bids, root)
    rows = _trace_one(params, code, int(index), empty_output(1), trace)
    return trace[:rows].copy()


def warmup() -> None:
    """Compile (or load from numba's on-disk cache) the Cuatrola kernels: one tiny call of
    :func:`run_batch` per level and one :func:`trace_game`.

    A cold compile takes tens of seconds on a 2-core machine; with a warm cache this only loads
    the machine code.
    """
    plays, bids = kernel_policies("greedy", "threshold")
    params = kernel_params(CuatrolaRules().to_kernel(), plays, bids, 1)
    for code in range(len(LEVELS)):
        run_batch(params, code, 0, 1, 1, 0, 0, empty_output(1))
    trace_game(CuatrolaRules(), "greedy", "threshold", 0, "hand", 0)
