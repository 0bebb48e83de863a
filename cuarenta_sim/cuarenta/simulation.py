"""Monte Carlo simulation of Cuarenta with the numba engine: :func:`simulate`.

The wrapper validates its arguments, derives the root of all random streams from the seed
(contract section 2), allocates the output and runs the parallel batch driver
(:func:`cuarenta_sim.cuarenta.engine.batch.run_batch`) chunk by chunk. Every game's output depends
only
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
import json
import math
import os
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

import numba
import numpy as np
import pandas as pd

from ..distributed import (
    BACKENDS,
    ChunkStore,
    chunk_ranges,
    dashboard_link,
    dask_client,
    execute,
    progress_bar,
    require_dask,
)
from ..results import Results, write_parquet_atomic
from ..rng import root_from_seed
from ..threading_layer import threading_layer
from .aggregates import Aggregates, aggregate_frames
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
from .records import games_frame, hands_frame
from .rules import RuleSet, resolve_rules

#: Default games per chunk, per level (bounded memory for the slot buffers of chica / mesa).
DEFAULT_CHUNK = {"data": 1 << 18, "chica": 1 << 15, "mesa": 1 << 13}
#: Record slots per game and chica: a chica lasts 3 (greedy) to 7 (random) datas on average;
#: in 10**5 random chicas of every preset at most 0.08% (quito_torneo) played more than 16.
SLOTS_PER_CHICA = 16
#: Largest slot count per game; longer games are re-run alone.
MAX_SLOTS = 256
#: What :func:`simulate` returns: record frames, merged counters, or counters plus a Parquet
#: dataset on disk.
OUTPUTS = ("frames", "aggregates", "dataset")


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
    backend: str = "local",
    client: Any = None,
    workers: int | None = None,
    output: str = "frames",
    dataset: str | os.PathLike[str] | None = None,
) -> Results | Aggregates:
    """Simulate ``n`` datas, chicas or mesas of Cuarenta and return their records.

    Parameters
    ----------
    rules : RuleSet, str or dict
        A preset name (``"quito"``, ``"cuenca"``, ``"pagat"``, ``"quito_torneo"``), a slug such
        as ``"quito(max_sum_cards=2)"``, a ``{"preset": ..., switch: value}`` dict or a
        :class:`cuarenta_sim.cuarenta.rules.RuleSet` (section S of the spec).
    players : int
        2, or 4 in two partnerships (R2.1).
    policies : str or sequence of str
        Policy specs (:data:`cuarenta_sim.cuarenta.policies.POLICIES`, optionally with parameters
        such
        as ``"pimc(samples=8)"``, :func:`cuarenta_sim.cuarenta.policies.parse_policy`): one for
        every
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
        At most ``numba.config.NUMBA_NUM_THREADS``. With ``backend="dask"``: numba threads of
        every task on the workers (default 1, one per Dask worker thread).
    chunk_size : int or None
        Games per chunk (a Dask task; progress granularity, memory); never changes the
        results. Default :data:`DEFAULT_CHUNK` of the level.
    progress : bool
        Show a tqdm progress bar (and, with Dask, print the dashboard link) on stderr.
    keep_hands : bool
        Keep the per-data records (``Results.hands``). ``False`` is for levels chica and mesa,
        where only the games are kept.
    backend : str
        ``"local"`` (this process) or ``"dask"`` (chunks as tasks on a Dask cluster;
        identical results).
    client : distributed.Client, str or None
        With ``backend="dask"``: an existing client, a scheduler address
        (``"tcp://host:8786"``) or None to start a ``LocalCluster`` for this call.
    workers : int or None
        Worker processes of the ``LocalCluster`` started when ``client`` is None (default:
        the number of cores).
    output : str
        ``"frames"``: return :class:`Results` (all records in memory); ``"aggregates"``:
        return :class:`cuarenta_sim.cuarenta.aggregates.Aggregates` (per-chunk integer counters
        merged
        in chunk order; memory stays flat as ``n`` grows); ``"dataset"``: also write every
        chunk's records as Parquet into ``dataset`` (read them with
        :meth:`Results.from_dataset`) and return the aggregates.
    dataset : str, path-like or None
        Directory of a resumable run (outputs ``"aggregates"`` and ``"dataset"``; required by
        ``"dataset"``): one counters file per chunk (and its Parquet files) plus a manifest.
        Re-running with the same directory and settings computes only the missing chunks;
        different settings are refused.

    Returns
    -------
    Results or Aggregates
        ``Results`` (``output="frames"``): ``hands`` (one row per data), ``games`` (levels
        chica / mesa) and ``provenance``; the columns are documented in
        :class:`cuarenta_sim.results.Results`. ``Aggregates`` otherwise: counters of the hands
        and games, the same summary tables (``summarize_hands``, ``summarize_games``,
        ``estimate_metrics``) and ``provenance`` (which also counts the chunks computed and
        reused).

    Raises
    ------
    ValueError
        Unknown rules, preset, switch, policy, level, backend or output; ``players`` not 2 or
        4; ``n`` or ``chunk_size`` not a positive integer; a bad seed; ``threads`` out of
        range; ``keep_hands=False`` at level data; ``client`` / ``workers`` without
        ``backend="dask"``; ``dataset`` with ``output="frames"`` or missing with
        ``"dataset"``; a ``dataset`` directory holding a run with other settings; Dask not
        installed.
    """
    ruleset = resolve_rules(rules)
    if isinstance(players, bool) or not isinstance(players, int) or players not in (2, 4):
        raise ValueError(f"players must be 2 or 4, got {players!r}")
    policy_ids = resolve_policies(policies, players)
    code = level_code(level)
    n = _positive_int(n, "n")
    if output not in OUTPUTS:
        raise ValueError(f"unknown output {output!r}; accepted: {', '.join(OUTPUTS)}")
    if keep_hands and output == "frames":
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
    if backend not in BACKENDS:
        raise ValueError(f"unknown backend {backend!r}; accepted: {', '.join(BACKENDS)}")
    if backend != "dask" and (client is not None or workers is not None):
        raise ValueError("client= and workers= are for backend='dask'")
    if dataset is not None and output == "frames":
        raise ValueError(
            "dataset= keeps a resumable run on disk; use it with output='aggregates' "
            "(counters only) or output='dataset' (counters and Parquet records)"
        )
    if output == "dataset" and dataset is None:
        raise ValueError("output='dataset' needs dataset=DIRECTORY for the Parquet files")
    if dataset is not None and seed is None:
        raise ValueError("a dataset run must be resumable: give an explicit seed, not None")
    if backend == "dask":
        require_dask()
    root, seed_used = root_from_seed(seed)
    spec = SimulationSpec(ruleset, players, policy_ids, code, root, keep_hands)
    ranges = chunk_ranges(n, chunk)

    store = None
    done: dict[int, Aggregates] = {}
    if dataset is not None:
        identity = _identity(spec, n, level, seed_used, chunk, output)
        store = ChunkStore(dataset, identity)
        store.open()
        files = _chunk_files(spec) if output == "dataset" else ()
        for i, (start, stop) in enumerate(ranges):
            saved = store.load(start, stop)
            if saved is not None and all(store.path(start, stop, f).exists() for f in files):
                done[i] = Aggregates.from_dict(saved)
    todo = [i for i in range(len(ranges)) if i not in done]

    previous_threads = numba.get_num_threads()
    local = backend == "local"
    if local and threads is not None:
        numba.set_num_threads(int(threads))
    task_threads = None if local else int(threads or 1)
    unit = LEVELS[code] if code else "hand"
    bar = progress_bar(n, unit, progress)
    if bar is not None and done:
        bar.update(sum(ranges[i][1] - ranges[i][0] for i in done))
    step = (lambda start, stop: bar.update(stop - start)) if bar is not None else None
    task = partial(chunk_task, spec, output, task_threads, store)
    assembler = _FrameAssembler(code, n, keep_hands) if output == "frames" else None
    merger = _OrderedMerge()
    for i, agg in done.items():
        merger.add(i, agg)

    def on_result(j: int, out: Any) -> None:
        if assembler is not None:
            assembler.add(out)
        else:
            merger.add(todo[j], Aggregates.from_dict(out))

    n_workers = 0
    try:
        used_threads = numba.get_num_threads() if local else task_threads
        t0 = time.perf_counter()
        if todo:
            if local:
                execute(task, [ranges[i] for i in todo], on_result, progress=step)
            else:
                with dask_client(client, workers) as dask:
                    n_workers = len(dask.scheduler_info().get("workers", {}))
                    link = dashboard_link(dask) if progress else None
                    if link:
                        print(f"Dask dashboard: {link}", file=sys.stderr, flush=True)
                    execute(
                        task,
                        [ranges[i] for i in todo],
                        on_result,
                        backend="dask",
                        client=dask,
                        progress=step,
                    )
        wall = time.perf_counter() - t0
        if store is not None:
            store.sweep()
    finally:
        numba.set_num_threads(previous_threads)
        if bar is not None:
            bar.close()

    if assembler is not None:
        hands, games = assembler.frames()
        datas = assembler.datas
    else:
        agg = merger.result(len(ranges))
        datas = _datas(agg)
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
    if backend != "local" or output != "frames":
        provenance.update(
            backend=backend,
            output=output,
            chunks=len(ranges),
            chunks_computed=len(todo),
            chunks_reused=len(done),
        )
        if dataset is not None:
            provenance["dataset"] = str(Path(dataset).resolve())
        if n_workers:
            provenance["workers"] = n_workers
        computed = datas - sum(_datas(a) for a in done.values())
        provenance["games_computed"] = sum(ranges[i][1] - ranges[i][0] for i in todo)
        provenance["datas_computed"] = computed
        provenance["hands_per_s"] = computed / max(wall, 1e-9)
        if level != "data":
            provenance["games_per_s"] = provenance["games_computed"] / max(wall, 1e-9)
    if assembler is not None:
        return Results(hands=hands, games=games, provenance=provenance)
    agg.provenance = provenance
    return agg


def _chunk_files(spec: SimulationSpec) -> tuple[str, ...]:
    """Suffixes of the Parquet files a dataset chunk of ``spec`` writes."""
    hands = ("hands.parquet",) if spec.keep_hands else ()
    return hands + (("games.parquet",) if spec.level != LEVEL_DATA else ())


def _datas(agg: Aggregates) -> int:
    """Datas counted by aggregates: hands counted, or the games' ``hands`` column summed."""
    if agg.hands is not None:
        return agg.hands.n
    assert agg.games is not None
    return agg.games["all"].sums["hands"]


class _OrderedMerge:
    """Merge per-chunk aggregates strictly in chunk order, whatever order they arrive in."""

    def __init__(self) -> None:
        self.pending: dict[int, Aggregates] = {}
        self.next = 0
        self.total: Aggregates | None = None

    def add(self, i: int, agg: Aggregates) -> None:
        self.pending[i] = agg
        while self.next in self.pending:
            part = self.pending.pop(self.next)
            self.total = part if self.total is None else self.total.merge(part)
            self.next += 1

    def result(self, chunks: int) -> Aggregates:
        if self.next != chunks or self.total is None:
            raise RuntimeError(f"merged {self.next} of {chunks} chunks")
        return self.total


def _identity(
    spec: SimulationSpec, n: int, level: str, seed: int, chunk: int, output: str
) -> dict[str, Any]:
    """The settings a dataset directory is tied to: everything that fixes its chunks."""
    import cuarenta_sim

    prov = _provenance(
        spec.ruleset, spec.players, spec.policy_ids, n, level, seed, spec.root, 1, chunk,
        spec.keep_hands, 0, 0.0,
    )  # fmt: skip
    keys = ("engine_version", "seed", "root", "rules", "players", "policies", "level", "n",
            "chunk_size", "keep_hands")  # fmt: skip
    identity = {k: prov[k] for k in keys}
    identity["engine_version"] = cuarenta_sim.ENGINE_VERSION
    identity["records"] = output == "dataset"
    return identity


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


@dataclass(frozen=True)
class SimulationSpec:
    """Everything a chunk task needs to play any range of games of one simulation (picklable).

    Attributes
    ----------
    ruleset : RuleSet
        The rules (spec section S).
    players : int
        2 or 4.
    policy_ids : SeatPolicies
        :func:`cuarenta_sim.cuarenta.policies.resolve_policies` output, passed through unchanged to
        :func:`cuarenta_sim.cuarenta.engine.batch.kernel_args`.
    level : int
        Kernel level code (0 data, 1 chica, 2 mesa).
    root : int
        Root of the random streams (:func:`cuarenta_sim.rng.root_from_seed`).
    keep_hands : bool
        Produce the per-data records (levels chica / mesa; always True at level data).
    """

    ruleset: RuleSet
    players: int
    policy_ids: SeatPolicies
    level: int
    root: int
    keep_hands: bool


@dataclass
class RangeOutput:
    """Engine output of the games ``[start, stop)`` of a simulation.

    Attributes
    ----------
    start, stop : int
        Absolute game indices (hand index at level data).
    records : (rec8, rec16, rec64) or None
        Record blocks of the range's datas in game order (layout in
        :mod:`cuarenta_sim.cuarenta.engine.layout`); None when ``keep_hands`` is False.
    games : (game8, game16) or None
        Game blocks, one column per game (levels chica / mesa); None at level data.
    datas : int
        Datas played.
    """

    start: int
    stop: int
    records: tuple[np.ndarray, np.ndarray, np.ndarray] | None
    games: tuple[np.ndarray, np.ndarray] | None
    datas: int


def run_range(spec: SimulationSpec, start: int, stop: int) -> RangeOutput:
    """Play the games ``[start, stop)`` of ``spec`` with the current numba threads.

    The output depends only on ``spec`` and the game indices (contract section 2): running a
    simulation's games in any split into ranges, in any order, in any process, gives the same
    records.

    Raises
    ------
    ValueError
        If the range is empty or negative.
    """
    if not 0 <= start < stop:
        raise ValueError(f"need 0 <= start < stop, got [{start}, {stop})")
    args = kernel_args(spec.ruleset, spec.players, spec.policy_ids)
    uroot = np.uint64(spec.root)
    level = spec.level
    size = stop - start
    counts = np.empty(size, dtype=np.int64)
    block = _block(size, numba.get_num_threads())
    if level == LEVEL_DATA:
        rec8 = np.empty((N_REC8, size), dtype=np.int8)
        rec16 = np.empty((N_REC16_DATA, size), dtype=np.int16)
        rec64 = np.empty((1, size), dtype=np.int64)
        run_batch(
            *args,
            uroot,
            level,
            start,
            size,
            block,
            1,
            0,
            rec8,
            rec16,
            rec64,
            np.empty((N_GAME8, 0), dtype=np.int8),
            np.empty((N_GAME16, 0), dtype=np.int16),
            counts,
        )
        return RangeOutput(start, stop, (rec8, rec16, rec64), None, size)
    cap = record_capacity(level, spec.ruleset.chicas_to_win) if spec.keep_hands else 0
    blocks = _record_blocks(size * cap)
    g8 = np.empty((N_GAME8, size), dtype=np.int8)
    g16 = np.empty((N_GAME16, size), dtype=np.int16)
    run_batch(*args, uroot, level, start, size, block, cap, 0, *blocks, g8, g16, counts)
    records = None
    if spec.keep_hands:
        records = _compact(args, uroot, level, start, cap, counts, blocks)
    return RangeOutput(start, stop, records, (g8, g16), int(counts.sum()))


class _FrameAssembler:
    """Collect range outputs, given in game order, into the frames of :class:`Results`."""

    def __init__(self, level: int, n: int, keep_hands: bool) -> None:
        self.level = level
        self.keep_hands = keep_hands
        self.datas = 0
        self.parts: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []
        if level == LEVEL_DATA:
            self.rec = (
                np.empty((N_REC8, n), dtype=np.int8),
                np.empty((N_REC16_DATA, n), dtype=np.int16),
                np.empty((1, n), dtype=np.int64),
            )
        else:
            self.game = (
                np.empty((N_GAME8, n), dtype=np.int8),
                np.empty((N_GAME16, n), dtype=np.int16),
            )

    def add(self, out: RangeOutput) -> None:
        self.datas += out.datas
        if self.level == LEVEL_DATA:
            assert out.records is not None
            for full, part in zip(self.rec, out.records, strict=True):
                full[:, out.start : out.stop] = part
            return
        assert out.games is not None
        for full, part in zip(self.game, out.games, strict=True):
            full[:, out.start : out.stop] = part
        if self.keep_hands:
            assert out.records is not None
            self.parts.append(out.records)

    def frames(self) -> tuple[pd.DataFrame | None, pd.DataFrame | None]:
        if self.level == LEVEL_DATA:
            return hands_frame(self.level, *self.rec), None
        hands = None
        if self.keep_hands:
            rec8, rec16, rec64 = (
                np.concatenate([p[i] for p in self.parts], axis=1) for i in range(3)
            )
            self.parts.clear()
            hands = hands_frame(self.level, rec8, rec16, rec64)
        return hands, games_frame(self.level, *self.game)


def range_frames(spec: SimulationSpec, out: RangeOutput) -> tuple[pd.DataFrame | None, ...]:
    """The hands and games frames of one range's output, with absolute game indices."""
    hands = None if out.records is None else hands_frame(spec.level, *out.records)
    games = None
    if out.games is not None:
        games = games_frame(spec.level, *out.games)
        games["game"] = np.arange(out.start, out.stop, dtype=np.int64)
    return hands, games


def chunk_task(
    spec: SimulationSpec,
    output: str,
    threads: int | None,
    store: ChunkStore | None,
    start: int,
    stop: int,
) -> RangeOutput | dict[str, Any]:
    """One chunk of a simulation, as run by :func:`cuarenta_sim.distributed.execute`.

    Plays ``[start, stop)`` with ``threads`` numba threads (None: the current setting) and
    returns, for ``output="frames"``, the :class:`RangeOutput`; otherwise the chunk's
    :class:`cuarenta_sim.cuarenta.aggregates.Aggregates` as a dict. With a ``store``, the chunk's
    counters (and for ``output="dataset"`` its records as ``hands.parquet`` /
    ``games.parquet``) are written first, atomically, and the chunk marked complete. Pure:
    the same arguments always give the same return value and the same files.
    """
    previous = numba.get_num_threads()
    if threads is not None:
        numba.set_num_threads(int(threads))
    try:
        out = run_range(spec, start, stop)
    finally:
        numba.set_num_threads(previous)
    if output == "frames":
        return out
    hands, games = range_frames(spec, out)
    agg = aggregate_frames(LEVELS[spec.level], hands, games).to_dict()
    if store is not None:
        if output == "dataset":
            meta = json.dumps({**store.identity, "range": [start, stop]}, sort_keys=True)
            if hands is not None:
                write_parquet_atomic(hands, store.path(start, stop, "hands.parquet"), meta)
            if games is not None:
                write_parquet_atomic(games, store.path(start, stop, "games.parquet"), meta)
        store.complete(start, stop, agg)
    return agg


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
        "game": "cuarenta",
        "package_version": cuarenta_sim.__version__,
        "engine_version": cuarenta_sim.ENGINE_VERSION,
        "numba": numba.__version__,
        # Which numba layer ran the kernels (cuarenta_sim.threading_layer; None if none ran).
        "threading_layer": threading_layer(),
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
