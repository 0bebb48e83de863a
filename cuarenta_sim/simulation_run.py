"""Running a validated simulation: chunks as tasks, outputs merged in chunk order, provenance.

:func:`run_validated` plays a :class:`ValidatedRun` (made by
:func:`cuarenta_sim.simulation.check_simulation`): the units
``[0, n)`` split into consecutive chunks (:func:`cuarenta_sim.distributed.chunk_ranges`), each
one task (:func:`chunk_task`) on this process's numba threads or a Dask cluster, their outputs
taken **in chunk order** whatever order they complete in: tidy frames concatenated into
:class:`cuarenta_sim.results.Results`, or integer counters merged into the game's
:class:`cuarenta_sim.aggregates.Aggregates`, resumable through a
:class:`cuarenta_sim.distributed.ChunkStore`. Progress goes to stderr; the provenance records
everything needed to reproduce and describe the run.

This module knows no game: a game plugs in through its :class:`cuarenta_sim.game.Game`.
"""

from __future__ import annotations

import datetime
import importlib.metadata
import json
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
    ChunkStore,
    chunk_ranges,
    dashboard_link,
    dask_client,
    dataset_lock,
    execute,
)
from .game import Game, RunSpec, get_game
from .progress import notify_work, progress_bar
from .results import Results, write_parquet_atomic
from .threading_layer import threading_layer
from .version import __version__

#: Chunk outputs of :func:`chunk_task`: tidy frames, counters, or counters plus Parquet files.
MODES = ("frames", "aggregates", "records")


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


class TruncationWarning(UserWarning):
    """Some games of a run were cut short by the engine's cap (``truncated`` games)."""


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
