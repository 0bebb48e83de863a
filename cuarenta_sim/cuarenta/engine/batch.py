"""Batch driver, single-game trace and warmup of the numba engine.

:func:`run_batch` is the only ``parallel=True`` kernel: a ``prange`` over blocks of games; each
block allocates its scratch once and plays its games one after the other
(:func:`cuarenta_sim.cuarenta.engine.play.play_data` per hand at level data,
:func:`cuarenta_sim.cuarenta.engine.play.play_game` per chica or mesa). A game's output goes to its
own
columns only, and all its randomness comes from ``(root, game, data, stream)`` (contract
section 2), so the output is identical whatever the number of threads, the block size or the
chunking of the caller.

Output layout (see :mod:`cuarenta_sim.cuarenta.engine.layout`): game ``g`` of a call covering games
``game0 .. game0 + n_games - 1`` writes its datas ``j < cap`` to record columns
``row0 + (g - game0) * cap + j``, its number of datas to ``counts[g - game0]`` and (levels chica
and mesa) its game record to column ``g - game0`` of ``game8`` / ``game16``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from numba import njit, prange

from ...limits import choice_index, game_index
from ...rng import root_from_seed
from ..policies import POLICY_NAMES, SeatPolicies, default_params, resolve_policies
from ..policies.kernel import N_PARAMS
from ..rules import KernelRules, RuleSet, resolve_rules
from .layout import (
    LEVEL_DATA,
    LEVELS,
    MAX_TRACE_PER_DATA,
    N_GAME8,
    N_GAME16,
    N_REC8,
    N_REC16_DATA,
    N_REC16_GAME,
    N_RNG,
    N_TRACE,
    N_WORK,
    W_PARAMS,
    W_POLICIES,
    W_TRACE_N,
)
from .moves import build_kernel_sums
from .play import play_data, play_game
from .state import Blocks, Scratch, Setup


@njit(cache=True)
def _play_games(
    rules,
    setup: Setup,
    level: np.int64,
    game_lo: np.int64,
    game_hi: np.int64,
    game0: np.int64,
    cap: np.int64,
    row0: np.int64,
    blocks: Blocks,
    counts: np.ndarray,
) -> np.int64:
    """Play games ``game_lo .. game_hi - 1`` with one set of scratch buffers (see module);
    return the trace rows written."""
    work = np.zeros(N_WORK, dtype=np.int64)
    rng = np.zeros(N_RNG, dtype=np.uint64)
    deck = np.empty(40, dtype=np.uint8)
    scratch = Scratch(work, rng, deck)
    policies = setup.policies
    for s in range(4):
        work[W_POLICIES + s] = policies[s, 0]
        for j in range(N_PARAMS):
            work[W_PARAMS + N_PARAMS * s + j] = policies[s, 1 + j]
    if level == LEVEL_DATA:
        row = row0 + game_lo - game0 if cap > 0 else -1
        play_data(
            rules,
            setup,
            level,
            game_lo,
            game_hi - game_lo,
            np.int64(0),
            np.int64(0),
            row,
            blocks,
            scratch,
        )
        for g in range(game_lo, game_hi):
            counts[g - game0] = 1
        return work[W_TRACE_N]
    for g in range(game_lo, game_hi):
        i = g - game0
        counts[i] = play_game(rules, setup, level, g, cap, row0 + i * cap, i, blocks, scratch)
    return work[W_TRACE_N]


@njit(cache=True, parallel=True)
def run_batch(
    rules,
    setup: Setup,
    level: np.int64,
    game0: np.int64,
    n_games: np.int64,
    block: np.int64,
    cap: np.int64,
    row0: np.int64,
    blocks: Blocks,
    counts: np.ndarray,
) -> None:
    """Play games ``game0 .. game0 + n_games - 1`` in parallel and fill the output blocks.

    Parameters
    ----------
    rules : KernelRules
        :meth:`cuarenta_sim.cuarenta.rules.RuleSet.to_kernel`.
    setup : Setup
        The players (2 or 4), the sum tables
        (:func:`cuarenta_sim.cuarenta.engine.moves.build_kernel_sums` of the rules'
        ``max_sum_cards``), the root of the random streams
        (:func:`cuarenta_sim.rng.root_from_seed`) and the per-seat policy rows
        (:class:`.state.Setup`; :func:`batch_setup` builds it).
    level : int
        0 data, 1 chica, 2 mesa (:data:`cuarenta_sim.cuarenta.engine.layout.LEVELS`).
    game0, n_games : int
        Games played (game = hand index at level data, chica / mesa index otherwise).
    block : int
        Games per parallel task (>= 1; any value gives the same output).
    cap, row0 : int
        Record columns: game ``g`` writes data ``j < cap`` to column
        ``row0 + (g - game0) * cap + j``; ``cap = 0`` writes no records.
    blocks : Blocks
        Record blocks: int8 (17, rows), int16 (12 at level data, else 16, rows), int64 (1,
        rows); game blocks: int8 (7, n_games), int16 (5, n_games), which may have 0 columns at
        level data; a trace of 0 rows (:func:`output_blocks`).
    counts : ndarray of int64, shape (n_games,)
        Output: datas played per game.
    """
    # numba's parallel loop takes tuples of arrays as they come (not built nor unpacked here).
    n_blocks = (n_games + block - 1) // block
    for b in prange(n_blocks):
        lo = game0 + b * block
        hi = min(lo + block, game0 + n_games)
        _play_games(rules, setup, level, lo, hi, game0, cap, row0, blocks, counts)


@njit(cache=True)
def trace_kernel(
    rules, setup: Setup, level: np.int64, game: np.int64, trace: np.ndarray
) -> tuple[np.int64, np.int64]:
    """Play one game with tracing and return ``(trace rows written, datas played)``.

    ``trace`` (int64, (capacity, 17)) must hold :data:`MAX_TRACE_PER_DATA` rows per data of the
    game; with 0 rows nothing is traced (a counting pass). Same code path as :func:`run_batch`.
    """
    blocks = Blocks(
        np.empty((N_REC8, 0), dtype=np.int8),
        np.empty((N_REC16_GAME, 0), dtype=np.int16),
        np.empty((1, 0), dtype=np.int64),
        np.empty((N_GAME8, 1), dtype=np.int8),
        np.empty((N_GAME16, 1), dtype=np.int16),
        trace,
    )
    counts = np.empty(1, dtype=np.int64)
    rows = _play_games(rules, setup, level, game, game + 1, game, 0, 0, blocks, counts)
    return rows, counts[0]


def batch_setup(args: tuple, root: int | np.uint64) -> tuple[KernelRules, Setup]:
    """Return the leading arguments of :func:`run_batch` (the kernel rules and the
    :class:`.state.Setup`) from :func:`kernel_args`'s tuple and the root of the random
    streams."""
    kr, players, policies, sums = args
    return kr, Setup(players, sums, np.uint64(root), policies)


def output_blocks(
    rec8: np.ndarray, rec16: np.ndarray, rec64: np.ndarray, game8: np.ndarray, game16: np.ndarray
) -> Blocks:
    """Return the :class:`.state.Blocks` of :func:`run_batch`: the given record and game
    blocks and a trace of 0 rows (a batch writes no trace)."""
    return Blocks(rec8, rec16, rec64, game8, game16, np.empty((0, N_TRACE), dtype=np.int64))


def level_code(level: str) -> int:
    """Return the kernel code of a level name (``"data"``, ``"chica"``, ``"mesa"``).

    Raises
    ------
    ValueError
        Unknown level (the message lists the accepted ones).
    """
    return choice_index(level, LEVELS, "level")


def policy_array(policy_ids: SeatPolicies | tuple[int, ...]) -> np.ndarray:
    """Return the per-seat policies as the int64 ``(4, POLICY_ROW)`` array the kernels take:
    the id, then the parameter row (defaults for a plain tuple of ids; unused seats 0)."""
    if not isinstance(policy_ids, SeatPolicies):
        policy_ids = SeatPolicies(
            policy_ids,
            [POLICY_NAMES[p] for p in policy_ids],
            [tuple(default_params()) for _ in policy_ids],
        )
    return policy_ids.kernel_array()


def trace_game(
    rules: RuleSet | str | dict[str, Any],
    players: int,
    policies: str | Sequence[str],
    seed: int,
    level: str,
    index: int,
) -> np.ndarray:
    """Play one data, chica or mesa with the numba engine and return its trace (contract 7).

    Parameters
    ----------
    rules : RuleSet, str or dict
        Preset name, slug, dict or RuleSet (:func:`cuarenta_sim.cuarenta.rules.resolve_rules`).
    players : int
        2 or 4 (R2.1).
    policies : str or sequence of str
        Policy names, see :func:`cuarenta_sim.cuarenta.policies.resolve_policies`.
    seed : int
        Non-negative seed (:func:`cuarenta_sim.rng.root_from_seed`).
    level : str
        ``"data"``, ``"chica"`` or ``"mesa"``.
    index : int
        The hand index (level data) or the chica / mesa index, >= 0.

    Returns
    -------
    ndarray of int64, shape (events, 17)
        The trace rows, columns :data:`cuarenta_sim.cuarenta.trace_format.TRACE_COLUMNS`; identical
        to
        the play of game ``index`` in ``simulate(..., seed=seed, level=level)``.

    Raises
    ------
    ValueError
        Bad rules, players, policies, seed, level or index.
    """
    ruleset = resolve_rules(rules)
    ids = resolve_policies(policies, players)
    code = level_code(level)
    index = game_index(index)
    if seed is None:
        raise ValueError("trace_game needs an explicit seed (a non-negative integer)")
    root, _ = root_from_seed(seed)
    kr, setup = batch_setup(kernel_args(ruleset, players, ids), root)
    args = (kr, setup, code, int(index))
    if code == LEVEL_DATA:
        n_datas = 1
    else:
        _, n_datas = trace_kernel(*args, np.empty((0, N_TRACE), dtype=np.int64))
    trace = np.empty((n_datas * MAX_TRACE_PER_DATA, N_TRACE), dtype=np.int64)
    rows, _ = trace_kernel(*args, trace)
    return trace[:rows].copy()


def kernel_args(
    ruleset: RuleSet, players: int, policy_ids: SeatPolicies | tuple[int, ...]
) -> tuple:
    """Return the leading arguments of :func:`run_batch`: rules, players, policies, tables."""
    kr: KernelRules = ruleset.to_kernel()
    return (
        kr,
        players,
        policy_array(policy_ids),
        build_kernel_sums(kr.max_sum_cards),
    )


def warmup() -> None:
    """Compile (or load from the on-disk cache) every kernel, by one tiny call of each.

    A cold compile takes tens of seconds; with a warm cache this only loads the machine code.
    """
    ruleset = RuleSet()
    for code in range(len(LEVELS)):
        n16 = N_REC16_DATA if code == LEVEL_DATA else N_REC16_GAME
        kr, setup = batch_setup(kernel_args(ruleset, 2, (0, 1)), 1)
        blocks = output_blocks(
            np.empty((N_REC8, 0), dtype=np.int8),
            np.empty((n16, 0), dtype=np.int16),
            np.empty((1, 0), dtype=np.int64),
            np.empty((N_GAME8, 1), dtype=np.int8),
            np.empty((N_GAME16, 1), dtype=np.int16),
        )
        run_batch(kr, setup, code, 0, 1, 1, 0, 0, blocks, np.empty(1, dtype=np.int64))
    trace_game(ruleset, 2, ("random", "greedy"), 0, "data", 0)
