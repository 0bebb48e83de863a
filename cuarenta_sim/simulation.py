"""Monte Carlo simulation of Cuarenta with the numba engine: :func:`simulate`.

The wrapper validates its arguments, derives the root of all random streams from the seed
(contract section 2), allocates the output and runs the parallel batch driver
(:func:`cuarenta_sim.engine.batch.run_batch`) chunk by chunk. Every game's output depends only
on ``(rules, players, policies, seed, level, game index)``: results are identical whatever the
number of threads or the chunk size.

Output of levels chica and mesa
-------------------------------
A chica (mesa) plays a variable number of datas. Each chunk of games gets a slot buffer of
``cap`` records per game (:func:`record_capacity`, a few times the typical length); the driver
returns every game's true number of datas, the rare game that played more than ``cap`` is
re-run alone into a buffer of its exact size (it replays identically), and the records are
compacted in game order. This costs a re-run of at most a few games per thousand (measured),
against a counting pass that would double the work; the slot buffers of a default chunk take
about 30 MB.
"""

from __future__ import annotations

import datetime
import importlib.metadata
import math
import os
import time
from collections.abc import Sequence
from typing import Any

import numba
import numpy as np
import pandas as pd

from .engine.batch import kernel_args, level_code, run_batch
from .engine.layout import (
    LEVEL_DATA,
    LEVEL_MESA,
    LEVELS,
    N_GAME8,
    N_GAME16,
    N_REC8,
    N_REC16_DATA,
    N_REC16_GAME,
)
from .policies import SeatPolicies, resolve_policies
from .results import Results, games_frame, hands_frame
from .rng import root_from_seed
from .rules import RuleSet, resolve_rules

#: Default games per chunk, per level (bounded memory for the slot buffers of chica / mesa).
DEFAULT_CHUNK = {"data": 1 << 18, "chica": 1 << 15, "mesa": 1 << 13}
#: Record slots per game and chica: a chica lasts 3 (greedy) to 7 (random) datas on average;
#: in 10**5 random chicas of every preset at most 0.08% (quito_torneo) played more than 16.
SLOTS_PER_CHICA = 16
#: Largest slot count per game; longer games are re-run alone.
MAX_SLOTS = 256


def record_capacity(level: int, chicas_to_win: int) -> int:
    """Record slots per game in a chunk's buffer: 1 at level data, :data:`SLOTS_PER_CHICA`
    per chica at most played in a chica or mesa (R9.3), at most :data:`MAX_SLOTS`."""
    if level == LEVEL_DATA:
        return 1
    chicas = 2 * chicas_to_win - 1 if level == LEVEL_MESA else 1
    return min(SLOTS_PER_CHICA * chicas, MAX_SLOTS)


def simulate(
    rules: RuleSet | str | dict[str, Any] = "quito",
    players: int = 2,
    policies: str | Sequence[str] = ("greedy", "greedy"),
    n: int = 1_000_000,
    level: str = "data",
    seed: int | None = 0,
    threads: int | None = None,
    chunk_size: int | None = None,
    progress: bool = False,
    keep_hands: bool = True,
) -> Results:
    """Simulate ``n`` datas, chicas or mesas of Cuarenta and return their records.

    Parameters
    ----------
    rules : RuleSet, str or dict
        A preset name (``"quito"``, ``"cuenca"``, ``"pagat"``, ``"quito_torneo"``), a slug such
        as ``"quito(max_sum_cards=2)"``, a ``{"preset": ..., switch: value}`` dict or a
        :class:`cuarenta_sim.rules.RuleSet` (section S of the spec).
    players : int
        2, or 4 in two partnerships (R2.1).
    policies : str or sequence of str
        Policy specs (:data:`cuarenta_sim.policies.POLICIES`, optionally with parameters such
        as ``"pimc(samples=8)"``, :func:`cuarenta_sim.policies.parse_policy`): one for every
        seat, two per side, or one per seat. Provenance records each seat's canonical spec.
    n : int
        Number of datas (level ``"data"``), chicas or mesas, > 0.
    level : str
        ``"data"`` (independent hands from 0-0, dealer ``i % players``), ``"chica"`` (games to
        ``target`` points) or ``"mesa"`` (matches of chicas), R2.2, R9.
    seed : int or None
        Non-negative seed of all randomness; ``None`` draws OS entropy, recorded in the
        provenance.
    threads : int or None
        numba threads for this call (restored afterwards); ``None`` keeps the current setting.
        At most ``numba.config.NUMBA_NUM_THREADS``.
    chunk_size : int or None
        Games per batch (progress granularity, memory); never changes the results.
    progress : bool
        Show a tqdm progress bar.
    keep_hands : bool
        Keep the per-data records (``Results.hands``). ``False`` is for levels chica and mesa,
        where only the games are kept.

    Returns
    -------
    Results
        ``hands`` (one row per data), ``games`` (levels chica / mesa) and ``provenance``; the
        columns are documented in :class:`cuarenta_sim.results.Results`.

    Raises
    ------
    ValueError
        Unknown rules, preset, switch, policy or level; ``players`` not 2 or 4; ``n`` or
        ``chunk_size`` not a positive integer; a bad seed; ``threads`` out of range;
        ``keep_hands=False`` at level data.
    """
    ruleset = resolve_rules(rules)
    if isinstance(players, bool) or not isinstance(players, int) or players not in (2, 4):
        raise ValueError(f"players must be 2 or 4, got {players!r}")
    policy_ids = resolve_policies(policies, players)
    code = level_code(level)
    n = _positive_int(n, "n")
    if keep_hands:
        _check_result_memory(n, code, ruleset.chicas_to_win)
    chunk = DEFAULT_CHUNK[level] if chunk_size is None else _positive_int(chunk_size, "chunk_size")
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
    if not keep_hands and code == LEVEL_DATA:
        raise ValueError(
            "keep_hands=False keeps no output at level 'data'; use level 'chica' or 'mesa'"
        )
    root, seed_used = root_from_seed(seed)

    previous_threads = numba.get_num_threads()
    if threads is not None:
        numba.set_num_threads(int(threads))
    try:
        used_threads = numba.get_num_threads()
        t0 = time.perf_counter()
        hands, games, datas = _run(
            ruleset, players, policy_ids, n, code, root, chunk, used_threads, progress, keep_hands
        )
        wall = time.perf_counter() - t0
    finally:
        numba.set_num_threads(previous_threads)

    provenance = _provenance(
        ruleset,
        players,
        policy_ids,
        n,
        level,
        seed_used,
        root,
        used_threads,
        chunk,
        keep_hands,
        datas,
        wall,
    )
    return Results(hands=hands, games=games, provenance=provenance)


#: Result bytes per data record (measured 50, see benchmarks/README.md) plus headroom.
RECORD_BYTES = 64


def _check_result_memory(n: int, level: int, chicas_to_win: int) -> None:
    """Refuse, before allocating, a run whose records cannot fit in this machine's memory.

    A chica plays about 3 datas (greedy) to 7 (random); the estimate uses 8 per chica played.

    Raises
    ------
    ValueError
        With the estimated size and how to proceed (smaller ``n``, or ``keep_hands=False``).
    """
    datas_per_game = (
        1 if level == LEVEL_DATA else 8 * (2 * chicas_to_win - 1 if level == LEVEL_MESA else 1)
    )
    need = n * datas_per_game * RECORD_BYTES
    try:
        total = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError, AttributeError):
        return
    if need > total:
        raise ValueError(
            f"n={n:,} needs about {need / 2**30:,.1f} GiB of per-data records but this machine "
            f"has {total / 2**30:,.1f} GiB; use a smaller n (split the run by seed or range) "
            f"or keep_hands=False at level chica/mesa"
        )


def _positive_int(value: object, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int | np.integer) or value <= 0:
        raise ValueError(f"{name} must be a positive whole number, got {value!r}")
    return int(value)


def _run(
    ruleset: RuleSet,
    players: int,
    policy_ids: SeatPolicies,
    n: int,
    level: int,
    root: int,
    chunk: int,
    threads: int,
    progress: bool,
    keep_hands: bool,
) -> tuple[pd.DataFrame | None, pd.DataFrame | None, int]:
    """Run the batch driver over ``n`` games in chunks; return (hands, games, datas)."""
    args = kernel_args(ruleset, players, policy_ids)
    uroot = np.uint64(root)
    bar = None
    if progress:
        from tqdm.auto import tqdm

        bar = tqdm(total=n, unit=LEVELS[level] if level else "hand", unit_scale=True)
    try:
        if level == LEVEL_DATA:
            rec8 = np.empty((N_REC8, n), dtype=np.int8)
            rec16 = np.empty((N_REC16_DATA, n), dtype=np.int16)
            rec64 = np.empty((1, n), dtype=np.int64)
            no8 = np.empty((N_GAME8, 0), dtype=np.int8)
            no16 = np.empty((N_GAME16, 0), dtype=np.int16)
            for start in range(0, n, chunk):
                size = min(chunk, n - start)
                counts = np.empty(size, dtype=np.int64)
                run_batch(
                    *args,
                    uroot,
                    level,
                    start,
                    size,
                    _block(size, threads),
                    1,
                    start,
                    rec8,
                    rec16,
                    rec64,
                    no8,
                    no16,
                    counts,
                )
                if bar is not None:
                    bar.update(size)
            return hands_frame(level, rec8, rec16, rec64), None, n

        cap = record_capacity(level, ruleset.chicas_to_win) if keep_hands else 0
        game8 = np.empty((N_GAME8, n), dtype=np.int8)
        game16 = np.empty((N_GAME16, n), dtype=np.int16)
        parts: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []
        datas = 0
        for start in range(0, n, chunk):
            size = min(chunk, n - start)
            counts = np.empty(size, dtype=np.int64)
            blocks = _record_blocks(size * cap)
            g8 = np.empty((N_GAME8, size), dtype=np.int8)
            g16 = np.empty((N_GAME16, size), dtype=np.int16)
            run_batch(
                *args,
                uroot,
                level,
                start,
                size,
                _block(size, threads),
                cap,
                0,
                *blocks,
                g8,
                g16,
                counts,
            )
            game8[:, start : start + size] = g8
            game16[:, start : start + size] = g16
            datas += int(counts.sum())
            if keep_hands:
                parts.append(_compact(args, uroot, level, start, cap, counts, blocks))
            if bar is not None:
                bar.update(size)
        hands = None
        if keep_hands:
            rec8, rec16, rec64 = (np.concatenate([p[i] for p in parts], axis=1) for i in range(3))
            parts.clear()
            hands = hands_frame(level, rec8, rec16, rec64)
        return hands, games_frame(level, game8, game16), datas
    finally:
        if bar is not None:
            bar.close()


def _block(size: int, threads: int) -> int:
    """Games per parallel task: small enough to balance the threads, large enough that the
    per-task scratch allocation is negligible. Never changes the results."""
    return max(1, min(256, math.ceil(size / (8 * threads))))


def _record_blocks(rows: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    return (
        np.empty((N_REC8, rows), dtype=np.int8),
        np.empty((N_REC16_GAME, rows), dtype=np.int16),
        np.empty((1, rows), dtype=np.int64),
    )


def _compact(
    args: tuple,
    root: np.uint64,
    level: int,
    start: int,
    cap: int,
    counts: np.ndarray,
    blocks: tuple[np.ndarray, np.ndarray, np.ndarray],
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Gather the records of a chunk's games from their slots, in game order, re-running the
    games longer than ``cap`` alone into buffers of their exact size."""
    kept = np.minimum(counts, cap)
    offsets = np.concatenate([[0], np.cumsum(counts)])
    game = np.repeat(np.arange(len(counts)), kept)
    position = np.arange(len(game)) - np.repeat(np.cumsum(kept) - kept, kept)
    slot_rows = game * cap + position
    dest = offsets[game] + position
    total = int(offsets[-1])
    out = tuple(np.empty((b.shape[0], total), dtype=b.dtype) for b in blocks)
    for o, b in zip(out, blocks, strict=True):
        o[:, dest] = b[:, slot_rows]
    for i in np.nonzero(counts > cap)[0]:
        c = int(counts[i])
        full = _record_blocks(c)
        run_batch(
            *args,
            root,
            level,
            start + int(i),
            1,
            1,
            c,
            0,
            *full,
            np.empty((N_GAME8, 1), dtype=np.int8),
            np.empty((N_GAME16, 1), dtype=np.int16),
            np.empty(1, dtype=np.int64),
        )
        for o, f in zip(out, full, strict=True):
            o[:, offsets[i] : offsets[i] + c] = f
    return out


def _provenance(
    ruleset: RuleSet,
    players: int,
    policy_ids: SeatPolicies,
    n: int,
    level: str,
    seed: int | None,
    root: int,
    threads: int,
    chunk: int,
    keep_hands: bool,
    datas: int,
    wall: float,
) -> dict[str, Any]:
    import cuarenta_sim

    rate = max(wall, 1e-9)
    prov: dict[str, Any] = {
        "package_version": cuarenta_sim.__version__,
        "engine_version": cuarenta_sim.ENGINE_VERSION,
        "numba": numba.__version__,
        "numpy": np.__version__,
        "pandas": pd.__version__,
        "pyarrow": importlib.metadata.version("pyarrow"),
        "seed": seed,
        "root": root,
        "rules": ruleset.slug(),
        "rules_switches": ruleset.to_dict(),
        "policies": list(policy_ids.specs),
        "players": players,
        "level": level,
        "n": n,
        "threads": threads,
        "chunk_size": chunk,
        "keep_hands": keep_hands,
        "datas": datas,
        "wall_time_s": wall,
        "hands_per_s": datas / rate,
        "created": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
    }
    if level != "data":
        prov["games_per_s"] = n / rate
    return prov
