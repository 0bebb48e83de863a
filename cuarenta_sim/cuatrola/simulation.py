"""Monte Carlo simulation of Cuatrola with the numba kernel: :func:`simulate_cuatrola`.

Every hand's and game's output depends only on ``(rules, policies, seed, level, index)``
(``docs/cuatrola_contract.md`` section 2): results are identical whatever the threads or the
chunk size. A game lasts at most ``2 * target - 1`` hands when failed contracts score for the
opponents (every hand then gives somebody a game point), so each game gets that many record
slots and the slots are compacted in game order; with ``failed_contract = nobody`` it gets
:data:`cuarenta_sim.cuatrola.engine.layout.MAX_HANDS` slots.

Columns of ``Results.hands`` (one row per hand, in game order then hand order; pair ``k`` is
seats ``k`` and ``k + 2``):

======================  =======  =============================================================
column                  dtype    meaning
======================  =======  =============================================================
game                    int64    level game: the game index
hand                    int64    level hand: the hand index; level game (int16): the hand's
                                 position in its game, from 0
dealer                  int8     dealer seat; the mano is ``(dealer + 1) % 4`` (C1.1)
trump                   int8     trump suit, 0..3 = o c e b (C1.4)
trump_card              int8     the card that made trump (id ``suit * 5 + rank``)
contract                int8     0 none (all passed), 1 solo, 2 cuatrola, 3 quintola (C2)
declarer                int8     declaring seat, -1 without contract
made                    int8     1 made, 0 failed, -1 without contract (C5)
tricks_0, tricks_1      int8     tricks taken per pair (5 in all)
points_0, points_1      int16    card points of the pair's tricks + 10 for the last trick
                                 (cantes apart; 130 in all without contract, C5.1)
cantes_0, cantes_1      int16    cante points per pair (C4)
game_points_0/1         int8     game points the hand gave each pair (C5)
score_0, score_1        int16    level game: scores after the hand
last_trick              int8     seat that won the fifth trick
dealt_0 .. dealt_3      int32    20-bit mask of the cards dealt to each seat (bit = card id)
======================  =======  =============================================================

Columns of ``Results.games`` (level game, one row per game): ``game`` (int64),
``first_dealer`` (int8), ``winner`` (int8: pair, -1 if truncated), ``score_0``, ``score_1``
(int16: final scores), ``hands`` (int16: hands played), ``truncated`` (bool: stopped after
``MAX_HANDS`` hands, only possible with ``failed_contract = nobody``).
"""

from __future__ import annotations

import datetime
import importlib.metadata
import math
import time
from collections.abc import Sequence
from typing import Any

import numba
import numpy as np
import pandas as pd

from ..results import Results
from ..rng import root_from_seed
from ..threading_layer import threading_layer
from .engine.batch import kernel_policies, level_code, run_batch
from .engine.layout import (
    G8_FIRST_DEALER,
    G8_TRUNCATED,
    G8_WINNER,
    G16_HANDS,
    G16_SCORE,
    LEVEL_HAND,
    MAX_HANDS,
    N_GAME8,
    N_GAME16,
    N_REC8,
    N_REC16,
    N_REC32,
    R8_LAST,
    R16_HAND,
    R16_SCORE,
    REC8_COLUMNS,
    REC16_COLUMNS,
    REC32_COLUMNS,
)
from .policies import resolve_bid_policies, resolve_play_policies
from .rules import CuatrolaRules, resolve

#: Version of the Cuatrola engine contract (bump on any change of play or records).
CUATROLA_ENGINE_VERSION = 1
#: Records kept per chunk (level hand: hands; level game: record slots).
CHUNK_RECORDS = 1 << 18


def record_capacity(rules: CuatrolaRules) -> int:
    """Record slots per game: ``2 * target - 1`` (the most hands a game can last when failed
    contracts score for the opponents), else :data:`MAX_HANDS`."""
    return 2 * rules.target - 1 if rules.failed_contract == "to_opponents" else MAX_HANDS


def simulate_cuatrola(
    rules: CuatrolaRules | str | dict[str, Any] = "ro",
    play_policies: str | Sequence[str] = "greedy",
    bid_policies: str | Sequence[str] = "threshold",
    n: int = 100_000,
    level: str = "hand",
    seed: int | None = 0,
    threads: int | None = None,
    chunk_size: int | None = None,
    progress: bool = False,
    keep_hands: bool = True,
) -> Results:
    """Simulate ``n`` hands or games of Cuatrola and return their records.

    Parameters
    ----------
    rules : CuatrolaRules, str or dict
        ``"ro"``, ``"online"``, a slug such as ``"ro(failed_contract=nobody)"``, a
        ``{"preset": ..., switch: value}`` dict or a :class:`CuatrolaRules`.
    play_policies, bid_policies : str or sequence of str
        One name for all seats, two (pair 0 = seats 0, 2; pair 1 = seats 1, 3) or four (per
        seat); see :mod:`cuarenta_sim.cuatrola.policies`.
    n : int
        Hands (level ``"hand"``: independent hands at 0-0, dealer ``i % 4``) or games (level
        ``"game"``: to ``target`` game points), > 0.
    level : str
        ``"hand"`` or ``"game"``.
    seed : int or None
        Non-negative seed; ``None`` draws OS entropy, recorded in the provenance.
    threads : int or None
        numba threads for this call (restored afterwards); ``None`` keeps the current setting.
    chunk_size : int or None
        Hands / games per batch (memory, progress granularity); never changes the results.
    progress : bool
        Show a tqdm progress bar.
    keep_hands : bool
        Keep the per-hand records; ``False`` only at level game.

    Returns
    -------
    Results
        ``hands`` and (level game) ``games`` frames, columns in the module docstring, and the
        ``provenance`` (``game = "cuatrola"``, seed, root, rules slug, policies, threads...).

    Raises
    ------
    ValueError
        Unknown rules, policy or level; bad ``n``, ``chunk_size``, seed or ``threads``;
        ``keep_hands=False`` at level hand.
    """
    ruleset = resolve(rules)
    plays, bids = kernel_policies(play_policies, bid_policies)
    code = level_code(level)
    n = _positive_int(n, "n")
    cap = 1 if code == LEVEL_HAND else record_capacity(ruleset)
    default_chunk = max(1, CHUNK_RECORDS // cap)
    chunk = default_chunk if chunk_size is None else _positive_int(chunk_size, "chunk_size")
    max_threads = numba.config.NUMBA_NUM_THREADS
    if threads is not None and (
        isinstance(threads, bool)
        or not isinstance(threads, int | np.integer)
        or not 1 <= threads <= max_threads
    ):
        raise ValueError(
            f"threads must be None or a whole number from 1 to {max_threads}, got {threads!r}"
        )
    if not isinstance(progress, bool) or not isinstance(keep_hands, bool):
        raise ValueError("progress and keep_hands must be True or False")
    if not keep_hands and code == LEVEL_HAND:
        raise ValueError("keep_hands=False keeps no output at level 'hand'; use level 'game'")
    root, seed_used = root_from_seed(seed)
    previous = numba.get_num_threads()
    if threads is not None:
        numba.set_num_threads(int(threads))
    try:
        used = numba.get_num_threads()
        t0 = time.perf_counter()
        hands, games, n_hands = _run(
            ruleset, plays, bids, n, code, np.uint64(root), chunk, cap, used, progress, keep_hands
        )
        wall = time.perf_counter() - t0
    finally:
        numba.set_num_threads(previous)
    import cuarenta_sim

    rate = max(wall, 1e-9)
    provenance: dict[str, Any] = {
        "game": "cuatrola",
        "package_version": cuarenta_sim.__version__,
        "engine_version": CUATROLA_ENGINE_VERSION,
        "numba": numba.__version__,
        # Which numba layer ran the kernels (cuarenta_sim.threading_layer; None if none ran).
        "threading_layer": threading_layer(),
        "numpy": np.__version__,
        "pandas": pd.__version__,
        "pyarrow": importlib.metadata.version("pyarrow"),
        "seed": seed_used,
        "root": root,
        "rules": ruleset.slug(),
        "rules_switches": ruleset.to_dict(),
        "play_policies": [p.name() for p in resolve_play_policies(play_policies)],
        "bid_policies": [p.name() for p in resolve_bid_policies(bid_policies)],
        "level": level,
        "n": n,
        "threads": used,
        "chunk_size": chunk,
        "keep_hands": keep_hands,
        "hands_played": n_hands,
        "wall_time_s": wall,
        "hands_per_s": n_hands / rate,
        "created": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
    }
    if code != LEVEL_HAND:
        provenance["games_per_s"] = n / rate
    return Results(hands=hands, games=games, provenance=provenance)


def _positive_int(value: object, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int | np.integer) or value <= 0:
        raise ValueError(f"{name} must be a positive whole number, got {value!r}")
    return int(value)


def _blocks(rows: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    return (
        np.empty((N_REC8, rows), dtype=np.int8),
        np.empty((N_REC16, rows), dtype=np.int16),
        np.empty((N_REC32, rows), dtype=np.int32),
        np.empty((1, rows), dtype=np.int64),
    )


def _block(size: int, threads: int) -> int:
    """Items per parallel task; never changes the results."""
    return max(1, min(256, math.ceil(size / (8 * threads))))


def _run(
    rules: CuatrolaRules,
    plays: np.ndarray,
    bids: np.ndarray,
    n: int,
    code: int,
    root: np.uint64,
    chunk: int,
    cap: int,
    threads: int,
    progress: bool,
    keep_hands: bool,
) -> tuple[pd.DataFrame | None, pd.DataFrame | None, int]:
    """Run the batch driver in chunks; return (hands frame, games frame, hands played)."""
    kr = rules.to_kernel()
    bar = None
    if progress:
        from tqdm.auto import tqdm

        bar = tqdm(total=n, unit="hand" if code == LEVEL_HAND else "game", unit_scale=True)
    try:
        if code == LEVEL_HAND:
            blocks = _blocks(n)
            no8 = np.empty((N_GAME8, 0), dtype=np.int8)
            no16 = np.empty((N_GAME16, 0), dtype=np.int16)
            for start in range(0, n, chunk):
                size = min(chunk, n - start)
                counts = np.empty(size, dtype=np.int64)
                run_batch(
                    kr,
                    plays,
                    bids,
                    root,
                    code,
                    start,
                    size,
                    _block(size, threads),
                    1,
                    start,
                    *blocks,
                    no8,
                    no16,
                    counts,
                )
                if bar is not None:
                    bar.update(size)
            return _hands_frame(code, *blocks), None, n
        game8 = np.empty((N_GAME8, n), dtype=np.int8)
        game16 = np.empty((N_GAME16, n), dtype=np.int16)
        parts: list[tuple[np.ndarray, ...]] = []
        total = 0
        slots = cap if keep_hands else 0
        for start in range(0, n, chunk):
            size = min(chunk, n - start)
            counts = np.empty(size, dtype=np.int64)
            blocks = _blocks(size * slots)
            run_batch(
                kr,
                plays,
                bids,
                root,
                code,
                start,
                size,
                _block(size, threads),
                slots,
                0,
                *blocks,
                game8[:, start : start + size],
                game16[:, start : start + size],
                counts,
            )
            total += int(counts.sum())
            if keep_hands:
                kept = np.minimum(counts, cap)
                game = np.repeat(np.arange(size), kept)
                position = np.arange(len(game)) - np.repeat(np.cumsum(kept) - kept, kept)
                rows = game * cap + position
                parts.append(tuple(b[:, rows] for b in blocks))
            if bar is not None:
                bar.update(size)
        hands = None
        if keep_hands:
            merged = [np.concatenate([p[i] for p in parts], axis=1) for i in range(4)]
            parts.clear()
            hands = _hands_frame(code, *merged)
        return hands, _games_frame(game8, game16), total
    finally:
        if bar is not None:
            bar.close()


def _hands_frame(
    code: int, rec8: np.ndarray, rec16: np.ndarray, rec32: np.ndarray, rec64: np.ndarray
) -> pd.DataFrame:
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


def _games_frame(game8: np.ndarray, game16: np.ndarray) -> pd.DataFrame:
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
