"""Validation of a simulation's arguments, before any work: :func:`check_simulation` turns
the keywords of :func:`cuarenta_sim.simulation.simulate` / ``aggregate`` into a
:class:`ValidatedRun` or raises on the first bad one (rules, players, policies, level, options,
``n``, seed, threads, chunk size, backend, dataset and a memory estimate).

This module knows no game: a game plugs in through its :class:`cuarenta_sim.game.Game`.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numba
import numpy as np

from .distributed import BACKENDS, chunk_ranges, require_dask
from .game import Game, RunSpec, get_game
from .limits import MAX_CHUNK_RECORDS, check_chunks, max_local_workers, run_size, whole_number
from .memory import check_memory
from .rng import root_from_seed

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
