"""The one simulation pipeline of every game: :func:`simulate`, :func:`aggregate`,
:func:`check_simulation`.

A game plugs in through its :class:`cuarenta_sim.game.Game` (``make_spec``, ``run_range``,
``frames``, ``aggregate_frames``); everything else is shared and knows no game:

1. **validation** (:func:`check_simulation`): rules, players, policies, level, options, ``n``,
   seed, threads, chunk size, backend, dataset and a memory estimate, all before any work;
2. **chunks**: the units ``[0, n)`` are split into consecutive ranges
   (:func:`cuarenta_sim.distributed.chunk_ranges`); each chunk is one task
   (:func:`chunk_task`) that plays its range with the game's numba kernel;
3. **backends**: the tasks run in this process (``"local"``, numba threads) or on a Dask
   cluster (``"dask"``, :mod:`cuarenta_sim.distributed`), and their outputs are taken **in
   chunk order** whatever order they complete in;
4. **outputs**: :func:`simulate` concatenates the chunks' tidy frames into
   :class:`cuarenta_sim.results.Results`; :func:`aggregate` keeps only each chunk's integer
   counters (:mod:`cuarenta_sim.aggregates`) and merges them (memory stays flat as ``n``
   grows); with ``dataset=DIR`` the run is resumable (one counters marker per chunk in a
   :class:`cuarenta_sim.distributed.ChunkStore`, plus Parquet records with ``records=True``);
5. **provenance**: game, engine version, package and library versions, seed and root, rules,
   policies, counts, threads, chunks, timing, truncated games;
6. **progress** on stderr (:func:`cuarenta_sim.progress.progress_bar`).

Every unit's output depends only on ``(game, rules, players, policies, seed, level, index)``
(each game's engine contract, section 2), so results are identical whatever the threads, the
chunk size, the backend or the number of workers.
"""

from __future__ import annotations

import datetime
import importlib.metadata
import json
import math
import os
import sys
import time
import warnings
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

import numba
import numpy as np
import pandas as pd

from .aggregates import Aggregates
from .distributed import (
    BACKENDS,
    ChunkStore,
    chunk_ranges,
    dashboard_link,
    dask_client,
    dataset_lock,
    execute,
    require_dask,
)
from .game import Game, RunSpec, get_game
from .limits import (
    MAX_CHUNK_RECORDS,
    check_chunks,
    max_local_workers,
    run_size,
    whole_number,
)
from .memory import check_memory
from .progress import notify_work, progress_bar
from .results import Results, write_parquet_atomic
from .rng import root_from_seed
from .threading_layer import threading_layer
from .version import __version__

#: Chunk outputs of :func:`chunk_task`: tidy frames, counters, or counters plus Parquet files.
MODES = ("frames", "aggregates", "records")


class TruncationWarning(UserWarning):
    """Some games of a run were cut short by the engine's cap (``truncated`` games)."""


@dataclass(frozen=True)
class ValidatedRun:
    """A simulation whose every argument has been checked (:func:`check_simulation`).

    Attributes
    ----------
    game : Game
        The registered game.
    spec : RunSpec
        The game's picklable spec (rules, players, policies, level, root, keep_hands).
    n : int
        Units to simulate (hands at the hand level, else games).
    seed : int
        The seed used (drawn from OS entropy when None was given).
    root : int
        Root of the random streams.
    chunk : int
        Units per chunk.
    threads : int or None
        numba threads (local) or per task (Dask); None keeps the current setting.
    progress : bool
        Report progress on stderr.
    backend : str
        ``"local"`` or ``"dask"``.
    client : Any
        With Dask: a client, a scheduler address or None (a ``LocalCluster``).
    workers : int or None
        Worker processes of the embedded ``LocalCluster``.
    mode : str
        ``"frames"`` (:func:`simulate`), ``"aggregates"`` or ``"records"`` (:func:`aggregate`,
        the latter also writing Parquet records into the dataset).
    dataset : Path or None
        Directory of a resumable run.
    options : dict
        The game's extra options, defaults filled in.
    """

    game: Game
    spec: RunSpec
    n: int
    seed: int
    root: int
    chunk: int
    threads: int | None
    progress: bool
    backend: str
    client: Any
    workers: int | None
    mode: str
    dataset: Path | None
    options: dict[str, Any] = field(default_factory=dict)

    @property
    def level(self) -> str:
        """The simulated level."""
        return self.spec.level

    @property
    def ranges(self) -> list[tuple[int, int]]:
        """The chunks ``[start, stop)`` in order."""
        return chunk_ranges(self.n, self.chunk)


def check_simulation(
    game: str = "cuarenta",
    *,
    rules: Any = None,
    players: int | None = None,
    policies: Any = None,
    n: int | None = None,
    level: str | None = None,
    seed: int | None = 0,
    threads: int | None = None,
    chunk_size: int | None = None,
    progress: bool = False,
    keep_hands: bool = True,
    backend: str = "local",
    client: Any = None,
    workers: int | None = None,
    dataset: str | os.PathLike[str] | None = None,
    records: bool = False,
    aggregates: bool = False,
    **options: Any,
) -> ValidatedRun:
    """Check every argument of a simulation without simulating; raise on the first bad one.

    The command line calls it first so that bad input fails in well under a second.

    Parameters
    ----------
    game : str
        A registered game (:data:`cuarenta_sim.game.GAMES`).
    rules, players, policies, n, level
        Default: the game's (``Game.default_rules``, ``default_players``,
        ``default_policies``, ``default_n``, ``default_level``).
    seed, threads, chunk_size, progress, keep_hands, backend, client, workers
        As :func:`simulate`.
    dataset, records
        As :func:`aggregate`; only with ``aggregates=True``.
    aggregates : bool
        True for :func:`aggregate` (counters), False for :func:`simulate` (frames).
    **options
        The game's extra options (``Game.options``, e.g. Cuatrola's ``bid_policies``).

    Returns
    -------
    ValidatedRun

    Raises
    ------
    ValueError
        Unknown game, option, rules, preset, switch, policy, level or backend; bad players,
        ``n``, ``chunk_size``, seed, ``threads`` or ``workers`` (:mod:`cuarenta_sim.limits`);
        ``keep_hands=False`` at the hand level; ``client`` / ``workers`` without
        ``backend="dask"``; ``dataset`` without
        ``aggregate()``, ``records`` without ``dataset``, a dataset without an explicit seed;
        Dask not installed.
    InsufficientMemoryError
        A ``ValueError``: a run whose predicted peak memory (:mod:`cuarenta_sim.memory`)
        exceeds the memory available; the message gives the largest ``n`` that fits and names
        ``aggregate()`` and the command line's ``--aggregates-only``.
    """
    g = get_game(game)
    unknown = sorted(set(options) - set(g.options))
    if unknown:
        accepted = ", ".join(g.options) or "none"
        raise ValueError(
            f"unknown option {', '.join(unknown)} for game {g.name!r}; its extra options: "
            f"{accepted}"
        )
    opts = {name: options.get(name, opt.default) for name, opt in g.options.items()}
    rule_set = g.resolve_rules(g.default_rules if rules is None else rules)
    n = run_size(g.default_n if n is None else n)
    if not isinstance(progress, bool) or not isinstance(keep_hands, bool):
        raise ValueError("progress and keep_hands must be True or False")
    if not isinstance(records, bool):
        raise ValueError("records must be True or False")
    root, seed_used = root_from_seed(seed)
    spec = g.make_spec(
        rule_set,
        g.default_players if players is None else players,
        g.default_policies if policies is None else policies,
        g.default_level if level is None else level,
        root,
        keep_hands,
        **opts,
    )
    max_threads = numba.config.NUMBA_NUM_THREADS
    if threads is not None and (
        isinstance(threads, bool)
        or not isinstance(threads, int | np.integer)
        or not 1 <= threads <= max_threads
    ):
        raise ValueError(
            f"threads must be None or a whole number from 1 to {max_threads}, got {threads!r}"
        )
    if backend not in BACKENDS:
        raise ValueError(f"unknown backend {backend!r}; accepted: {', '.join(BACKENDS)}")
    if backend != "dask" and (client is not None or workers is not None):
        raise ValueError("client= and workers= are for backend='dask'")
    if workers is not None:
        whole_number(workers, "workers", 1, max_local_workers())
    if dataset is not None and not aggregates:
        raise ValueError(
            "dataset= keeps a resumable run on disk; use it with aggregate() (counters only, "
            "records=True to also write Parquet records)"
        )
    if records and dataset is None:
        raise ValueError("records=True writes Parquet files; give dataset=DIRECTORY")
    if dataset is not None and seed is None:
        raise ValueError("a dataset run must be resumable: give an explicit seed, not None")
    given = spec.default_chunk() if chunk_size is None else chunk_size
    given = whole_number(given, "chunk_size", 1, MAX_CHUNK_RECORDS)
    if keep_hands or aggregates:
        # Memory first: a run too large to fit is told its largest n, not a chunk size.
        check_memory(g, spec, n, "aggregates" if aggregates else "records", given)
    chunk = check_chunks(n, given, spec.default_chunk(), spec.records_per_game())
    if backend == "dask":
        require_dask()
    mode = "frames" if not aggregates else ("records" if records else "aggregates")
    return ValidatedRun(
        game=g,
        spec=spec,
        n=n,
        seed=seed_used,
        root=root,
        chunk=chunk,
        threads=None if threads is None else int(threads),
        progress=progress,
        backend=backend,
        client=client,
        workers=workers,
        mode=mode,
        dataset=None if dataset is None else Path(dataset),
        options=opts,
    )


def parallel_block(size: int, threads: int) -> int:
    """Games (or hands) per parallel task of a game's kernel over ``size`` items with
    ``threads`` numba threads: small enough to balance the threads, large enough that the
    per-task scratch allocation is negligible. Never changes the results."""
    return max(1, min(256, math.ceil(size / (8 * threads))))


def simulate(
    game: str = "cuarenta",
    *,
    rules: Any = None,
    players: int | None = None,
    policies: Any = None,
    n: int | None = None,
    level: str | None = None,
    seed: int | None = 0,
    threads: int | None = None,
    chunk_size: int | None = None,
    progress: bool = False,
    keep_hands: bool = True,
    backend: str = "local",
    client: Any = None,
    workers: int | None = None,
    **options: Any,
) -> Results:
    """Simulate ``n`` hands or games of ``game`` and return their records.

    Parameters
    ----------
    game : str
        ``"cuarenta"`` (default) or ``"cuatrola"`` (:data:`cuarenta_sim.game.GAMES`).
    rules : rule set, str, dict or None
        A preset name (Cuarenta: ``"quito"``, ``"cuenca"``, ``"pagat"``, ``"quito_torneo"``;
        Cuatrola: ``"ro"``, ``"online"``), a slug such as ``"quito(max_sum_cards=2)"``, a
        ``{"preset": ..., switch: value}`` dict or the game's rule-set object. Default: the
        game's default preset.
    players : int or None
        Cuarenta: 2, or 4 in two partnerships (R2.1); Cuatrola: 4. Default: the game's.
    policies : str, sequence of str or None
        Play policy specs (``cuarenta-sim policies``): one for every seat, two per side (or
        pair), or one per seat. Provenance records each seat's canonical spec.
    n : int or None
        Units: hands (Cuarenta level ``"data"``, Cuatrola ``"hand"``) or games, > 0.
        Default: the game's ``default_n``.
    level : str or None
        Cuarenta ``"data"``, ``"chica"`` or ``"mesa"`` (R2.2, R9); Cuatrola ``"hand"`` or
        ``"game"`` (C6). Default: the hand level.
    seed : int or None
        Non-negative seed of all randomness; ``None`` draws OS entropy, recorded in the
        provenance.
    threads : int or None
        numba threads for this call (restored afterwards); ``None`` keeps the current setting.
        At most ``numba.config.NUMBA_NUM_THREADS``. With ``backend="dask"``: numba threads of
        every task on the workers (default 1, one per Dask worker thread).
    chunk_size : int or None
        Units per chunk (a task; progress granularity, memory); never changes the results.
    progress : bool
        Report progress on stderr (and, with Dask, print the dashboard link).
    keep_hands : bool
        Keep the per-hand records (``Results.hands``); ``False`` only at a game level.
    backend : str
        ``"local"`` (this process) or ``"dask"`` (chunks as tasks on a Dask cluster;
        identical results).
    client : distributed.Client, str or None
        With ``backend="dask"``: an existing client, a scheduler address
        (``"tcp://host:8786"``) or None to start a ``LocalCluster`` for this call.
    workers : int or None
        Worker processes of the ``LocalCluster`` started when ``client`` is None.
    **options
        The game's extra options (``Game.options``): Cuatrola's ``bid_policies``.

    Returns
    -------
    Results
        ``hands`` (one row per hand), ``games`` (game levels) and ``provenance``; the columns
        are documented in :class:`cuarenta_sim.results.Results` (Cuarenta) and
        :mod:`cuarenta_sim.cuatrola.simulation` (Cuatrola).

    Raises
    ------
    ValueError
        Any bad argument (:func:`check_simulation`).

    Warns
    -----
    TruncationWarning
        When some games were cut short by the engine's cap (also counted in the provenance,
        key ``truncated``).
    """
    run = check_simulation(
        game,
        rules=rules,
        players=players,
        policies=policies,
        n=n,
        level=level,
        seed=seed,
        threads=threads,
        chunk_size=chunk_size,
        progress=progress,
        keep_hands=keep_hands,
        backend=backend,
        client=client,
        workers=workers,
        **options,
    )
    out = run_validated(run)
    assert isinstance(out, Results)
    return out


def aggregate(
    game: str = "cuarenta",
    *,
    rules: Any = None,
    players: int | None = None,
    policies: Any = None,
    n: int | None = None,
    level: str | None = None,
    seed: int | None = 0,
    threads: int | None = None,
    chunk_size: int | None = None,
    progress: bool = False,
    keep_hands: bool = True,
    backend: str = "local",
    client: Any = None,
    workers: int | None = None,
    dataset: str | os.PathLike[str] | None = None,
    records: bool = False,
    **options: Any,
) -> Aggregates:
    """Simulate like :func:`simulate` but keep only merged integer counters.

    Each chunk reduces its records to :class:`cuarenta_sim.aggregates.Counters`, merged in
    chunk order: memory stays flat as ``n`` grows, and the game's summary tables
    (``Game.summaries``) equal those of the frames of the same run to rounding.

    Parameters
    ----------
    game, rules, players, policies, n, level, seed, threads, chunk_size, progress, keep_hands,
    backend, client, workers, **options
        As :func:`simulate`.
    dataset : str, path-like or None
        Directory of a resumable run: one counters file per chunk plus a manifest.
        Re-running with the same directory and settings computes only the missing chunks;
        different settings are refused.
    records : bool
        Also write every chunk's records as Parquet into ``dataset`` (read them with
        :meth:`cuarenta_sim.results.Results.from_dataset`).

    Returns
    -------
    Aggregates
        The game's subclass of :class:`cuarenta_sim.aggregates.Aggregates`, with provenance
        (which also counts the chunks computed and reused).

    Raises
    ------
    ValueError
        Any bad argument (:func:`check_simulation`); a ``dataset`` holding another run.
    """
    run = check_simulation(
        game,
        rules=rules,
        players=players,
        policies=policies,
        n=n,
        level=level,
        seed=seed,
        threads=threads,
        chunk_size=chunk_size,
        progress=progress,
        keep_hands=keep_hands,
        backend=backend,
        client=client,
        workers=workers,
        dataset=dataset,
        records=records,
        aggregates=True,
        **options,
    )
    out = run_validated(run)
    assert isinstance(out, Aggregates)
    return out


def chunk_task(
    game: str,
    spec: RunSpec,
    mode: str,
    threads: int | None,
    store: ChunkStore | None,
    start: int,
    stop: int,
) -> tuple[pd.DataFrame | None, pd.DataFrame | None] | dict[str, Any]:
    """One chunk of a simulation, as run by :func:`cuarenta_sim.distributed.execute`.

    Plays ``[start, stop)`` of ``spec`` with ``threads`` numba threads (None: the current
    setting) through the registered ``game`` and returns, in mode ``"frames"``, its
    ``(hands, games)`` frames; otherwise the chunk's aggregates as a dict. With a ``store``
    the chunk's counters (and in mode ``"records"`` its records as ``hands.parquet`` /
    ``games.parquet``) are written first, atomically, and the chunk marked complete. Pure:
    the same arguments always give the same return value and the same files. The game is
    named, not passed, so that the task pickles small and a Dask worker looks it up in its
    own registry.
    """
    g = get_game(game)
    previous = numba.get_num_threads()
    if threads is not None:
        numba.set_num_threads(int(threads))
    try:
        out = g.run_range(spec, start, stop)
    finally:
        numba.set_num_threads(previous)
    hands, games = g.frames(spec, out)
    if mode == "frames":
        return hands, games
    agg = g.aggregate_frames(spec.level, hands, games).to_dict()
    if store is not None:
        if mode == "records":
            meta = json.dumps({**store.identity, "range": [start, stop]}, sort_keys=True)
            if hands is not None:
                write_parquet_atomic(hands, store.path(start, stop, "hands.parquet"), meta)
            if games is not None:
                write_parquet_atomic(games, store.path(start, stop, "games.parquet"), meta)
        store.complete(start, stop, agg)
    return agg


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


def _concat(parts: list[pd.DataFrame | None]) -> pd.DataFrame | None:
    """The chunks' frames as one frame (in chunk order), or None when none was kept."""
    kept = [p for p in parts if p is not None]
    parts.clear()
    if not kept:
        return None
    if len(kept) == 1:
        return kept[0]
    if any(not isinstance(dtype, np.dtype) for dtype in kept[0].dtypes):
        return pd.concat(kept, ignore_index=True)
    # Column by column, releasing each chunk's column once copied: the peak stays near one
    # copy of the records (pd.concat would hold every chunk and the result together).
    names = list(kept[0].columns)
    arrays = [{c: p[c].to_numpy() for c in names} for p in kept]
    kept.clear()
    columns = {c: np.concatenate([a.pop(c) for a in arrays]) for c in names}
    return pd.DataFrame(columns, copy=False)


def _identity(run: ValidatedRun) -> dict[str, Any]:
    """The settings a dataset directory is tied to: everything that fixes its chunks."""
    return {
        "game": run.game.name,
        "engine_version": run.game.engine_version,
        "seed": run.seed,
        "root": run.root,
        **run.spec.provenance(),
        "level": run.level,
        "n": run.n,
        "chunk_size": run.chunk,
        "keep_hands": run.spec.keep_hands,
        "records": run.mode == "records",
    }


def _chunk_files(run: ValidatedRun) -> tuple[str, ...]:
    """Suffixes of the Parquet files a dataset chunk writes."""
    if run.mode != "records":
        return ()
    hands = ("hands.parquet",) if run.spec.keep_hands else ()
    return hands + (("games.parquet",) if run.level != run.game.levels[0] else ())


def run_validated(run: ValidatedRun) -> Results | Aggregates:
    """Run a :class:`ValidatedRun`: :class:`Results` in mode ``"frames"``, else the game's
    aggregates. :func:`simulate` and :func:`aggregate` call this after validating. A dataset
    is held for the run (:func:`cuarenta_sim.distributed.dataset_lock`; ValueError if busy)."""
    with dataset_lock(run.dataset):
        return _run_validated(run)


def _run_validated(run: ValidatedRun) -> Results | Aggregates:
    game, spec = run.game, run.spec
    ranges = run.ranges
    store = None
    done: dict[int, Aggregates] = {}
    if run.dataset is not None:
        store = ChunkStore(run.dataset, _identity(run))
        store.open()
        files = _chunk_files(run)
        for i, (start, stop) in enumerate(ranges):
            saved = store.load(start, stop)
            if saved is not None and all(store.path(start, stop, f).exists() for f in files):
                done[i] = game.aggregates_from_dict(saved)
    todo = [i for i in range(len(ranges)) if i not in done]

    previous_threads = numba.get_num_threads()
    local = run.backend == "local"
    if local and run.threads is not None:
        numba.set_num_threads(run.threads)
    task_threads = None if local else int(run.threads or 1)
    bar = progress_bar(run.n, game.unit(run.level), run.progress, desc="simulate")
    if bar is not None and done:
        bar.update(sum(ranges[i][1] - ranges[i][0] for i in done))
    count = [sum(ranges[i][1] - ranges[i][0] for i in done)]

    def step(start: int, stop: int) -> None:
        count[0] += stop - start
        if bar is not None:
            bar.update(stop - start)
        notify_work(count[0], run.n, game.unit(run.level))

    task = partial(chunk_task, game.name, spec, run.mode, task_threads, store)
    hand_parts: list[pd.DataFrame | None] = []
    game_parts: list[pd.DataFrame | None] = []
    merger = _OrderedMerge()
    for i, agg in done.items():
        merger.add(i, agg)

    def on_result(j: int, out: Any) -> None:
        if run.mode == "frames":
            hand_parts.append(out[0])
            game_parts.append(out[1])
        else:
            merger.add(todo[j], game.aggregates_from_dict(out))

    n_workers = 0
    try:
        used_threads = numba.get_num_threads() if local else task_threads
        t0 = time.perf_counter()
        if todo:
            chunks = [ranges[i] for i in todo]
            if local:
                execute(task, chunks, on_result, progress=step)
            else:
                with dask_client(run.client, run.workers) as dask:
                    n_workers = len(dask.scheduler_info().get("workers", {}))
                    link = dashboard_link(dask) if run.progress else None
                    if link:
                        print(f"Dask dashboard: {link}", file=sys.stderr, flush=True)
                    execute(task, chunks, on_result, backend="dask", client=dask, progress=step)
        wall = time.perf_counter() - t0
        if store is not None:
            store.sweep()
    finally:
        numba.set_num_threads(previous_threads)
        if bar is not None:
            bar.close()

    result: Results | Aggregates
    if run.mode == "frames":
        hands, games = _concat(hand_parts), _concat(game_parts)
        hand_count = len(hands) if hands is not None else _sum(games, "hands")
        truncated = _sum(games, "truncated")
        result = Results(hands=hands, games=games, provenance={})
    else:
        result = merger.result(len(ranges))
        hand_count = result.hands_played
        truncated = result.truncated
    provenance = _provenance(run, used_threads, hand_count, truncated, wall)
    if not local or run.mode != "frames":
        computed = hand_count - sum(a.hands_played for a in done.values())
        games_computed = sum(ranges[i][1] - ranges[i][0] for i in todo)
        provenance.update(
            backend=run.backend,
            output="frames" if run.mode == "frames" else "aggregates",
            records=run.mode == "records",
            chunks=len(ranges),
            chunks_computed=len(todo),
            chunks_reused=len(done),
            games_computed=games_computed,
            hands_computed=computed,
            hands_per_s=computed / max(wall, 1e-9),
        )
        if run.level != game.levels[0]:
            provenance["games_per_s"] = games_computed / max(wall, 1e-9)
        if run.dataset is not None:
            provenance["dataset"] = str(run.dataset.resolve())
        if n_workers:
            provenance["workers"] = n_workers
    result.provenance = provenance
    if truncated:
        unit = game.unit(run.level)
        warnings.warn(
            f"{truncated:,} of {run.n:,} {unit} were truncated (cut short by the engine's cap "
            f"on their length, see {game.spec_doc}); they count as played but have no winner "
            f"(provenance 'truncated')",
            TruncationWarning,
            stacklevel=3,
        )
    return result


def _sum(frame: pd.DataFrame | None, column: str) -> int:
    """Sum of an integer or boolean column, 0 without a frame."""
    return 0 if frame is None else int(frame[column].to_numpy().sum(dtype=np.int64))


def _provenance(
    run: ValidatedRun, threads: int | None, hands: int, truncated: int, wall: float
) -> dict[str, Any]:
    """Everything needed to reproduce and describe the run (JSON-serialisable)."""
    rate = max(wall, 1e-9)
    prov: dict[str, Any] = {
        "game": run.game.name,
        "package_version": __version__,
        "engine_version": run.game.engine_version,
        "numba": numba.__version__,
        # Which numba layer ran the kernels (cuarenta_sim.threading_layer; None if none ran).
        "threading_layer": threading_layer(),
        "numpy": np.__version__,
        "pandas": pd.__version__,
        "pyarrow": importlib.metadata.version("pyarrow"),
        "seed": run.seed,
        "root": run.root,
        **run.spec.provenance(),
        "level": run.level,
        "n": run.n,
        "threads": threads,
        "chunk_size": run.chunk,
        "keep_hands": run.spec.keep_hands,
        "hands_played": hands,
        "wall_time_s": wall,
        "hands_per_s": hands / rate,
        "created": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
    }
    if run.level != run.game.levels[0]:
        prov["games_per_s"] = run.n / rate
        prov["truncated"] = truncated
    return prov
