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

from ...limits import game_index
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
    LEVEL_HAND,
    LEVELS,
    MAX_HANDS,
    N_GAME8,
    N_GAME16,
    N_REC8,
    N_REC16,
    N_REC32,
    N_RNG,
    N_WORK,
    W_TRACE_N,
)
from .play import play_game, play_hand


@njit(cache=True)
def _play_block(
    rules,
    play_pol,
    bid_pol,
    root,
    level,
    lo,
    hi,
    game0,
    cap,
    row0,
    rec8,
    rec16,
    rec32,
    rec64,
    game8,
    game16,
    counts,
    trace,
):
    """Play hands / games ``lo .. hi - 1`` with one set of scratch buffers."""
    work = np.zeros(N_WORK, dtype=np.int64)
    rng = np.zeros(N_RNG, dtype=np.uint64)
    deck = np.empty(20, dtype=np.int64)
    for g in range(lo, hi):
        i = g - game0
        if level == LEVEL_HAND:
            row = row0 + i if cap > 0 else -1
            play_hand(
                rules,
                play_pol,
                bid_pol,
                root,
                g,
                0,
                g % 4,
                0,
                0,
                row,
                rec8,
                rec16,
                rec32,
                trace,
                work,
                rng,
                deck,
            )
            if row >= 0:
                rec64[0, row] = g
            counts[i] = 1
        else:
            counts[i] = play_game(
                rules,
                play_pol,
                bid_pol,
                root,
                g,
                i,
                row0 + i * cap,
                cap,
                rec8,
                rec16,
                rec32,
                rec64,
                game8,
                game16,
                trace,
                work,
                rng,
                deck,
            )
    return work[W_TRACE_N]


@njit(cache=True, parallel=True)
def run_batch(
    rules,
    play_pol: np.ndarray,
    bid_pol: np.ndarray,
    root: np.uint64,
    level: np.int64,
    game0: np.int64,
    n: np.int64,
    block: np.int64,
    cap: np.int64,
    row0: np.int64,
    rec8: np.ndarray,
    rec16: np.ndarray,
    rec32: np.ndarray,
    rec64: np.ndarray,
    game8: np.ndarray,
    game16: np.ndarray,
    counts: np.ndarray,
) -> None:
    """Play hands (level hand) or games (level game) ``game0 .. game0 + n - 1`` in parallel.

    Parameters
    ----------
    rules : CuatrolaKernelRules
        :meth:`cuarenta_sim.cuatrola.rules.CuatrolaRules.to_kernel`.
    play_pol : ndarray of int64, shape (4, 2)
        :func:`cuarenta_sim.cuatrola.policies.play_policy_array`.
    bid_pol : ndarray of int64, shape (4, 4)
        :func:`cuarenta_sim.cuatrola.policies.bid_policy_array`.
    root : uint64
        Root of the random streams.
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
    rec8, rec16, rec32, rec64 : ndarray
        Record blocks (:mod:`cuarenta_sim.cuatrola.engine.layout`).
    game8, game16 : ndarray
        Game blocks, ``n`` columns at level game (any at level hand).
    counts : ndarray of int64, shape (n,)
        Output: hands played per game (1 at level hand).
    """
    n_blocks = (n + block - 1) // block
    for b in prange(n_blocks):
        lo = game0 + b * block
        hi = min(lo + block, game0 + n)
        _play_block(
            rules,
            play_pol,
            bid_pol,
            root,
            level,
            lo,
            hi,
            game0,
            cap,
            row0,
            rec8,
            rec16,
            rec32,
            rec64,
            game8,
            game16,
            counts,
            np.empty((0, N_TRACE), dtype=np.int64),
        )


@njit(cache=True)
def _trace_one(rules, play_pol, bid_pol, root, level, index, trace):
    rec8 = np.empty((N_REC8, 0), dtype=np.int8)
    rec16 = np.empty((N_REC16, 0), dtype=np.int16)
    rec32 = np.empty((N_REC32, 0), dtype=np.int32)
    rec64 = np.empty((1, 0), dtype=np.int64)
    game8 = np.empty((N_GAME8, 1), dtype=np.int8)
    game16 = np.empty((N_GAME16, 1), dtype=np.int16)
    counts = np.empty(1, dtype=np.int64)
    return _play_block(
        rules,
        play_pol,
        bid_pol,
        root,
        level,
        index,
        index + 1,
        index,
        0,
        0,
        rec8,
        rec16,
        rec32,
        rec64,
        game8,
        game16,
        counts,
        trace,
    )


def level_code(level: str) -> int:
    """Return the kernel code of a level name (``"hand"`` or ``"game"``).

    Raises
    ------
    ValueError
        Unknown level (the message lists the accepted ones).
    """
    if not isinstance(level, str) or level not in LEVELS:
        raise ValueError(f"unknown Cuatrola level {level!r}; accepted: {', '.join(LEVELS)}")
    return LEVELS.index(level)


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
    rows = _trace_one(ruleset.to_kernel(), plays, bids, np.uint64(root), code, int(index), trace)
    return trace[:rows].copy()


def warmup() -> None:
    """Compile (or load from numba's on-disk cache) the Cuatrola kernels: one tiny call of
    :func:`run_batch` per level and one :func:`trace_game`.

    A cold compile takes tens of seconds on a 2-core machine; with a warm cache this only loads
    the machine code.
    """
    rules = CuatrolaRules().to_kernel()
    plays, bids = kernel_policies("greedy", "threshold")
    for code in range(len(LEVELS)):
        run_batch(
            rules, plays, bids, np.uint64(1), code, 0, 1, 1, 0, 0,
            np.empty((N_REC8, 0), dtype=np.int8), np.empty((N_REC16, 0), dtype=np.int16),
            np.empty((N_REC32, 0), dtype=np.int32), np.empty((1, 0), dtype=np.int64),
            np.empty((N_GAME8, 1), dtype=np.int8), np.empty((N_GAME16, 1), dtype=np.int16),
            np.empty(1, dtype=np.int64),
        )  # fmt: skip
    trace_game(CuatrolaRules(), "greedy", "threshold", 0, "hand", 0)
