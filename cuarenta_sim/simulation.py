"""The one simulation pipeline of every game: :func:`simulate`, :func:`aggregate`,
:func:`check_simulation`.

A game plugs in through its :class:`cuarenta_sim.game.Game` (``make_spec``, ``run_range``,
``frames``, ``aggregate_frames``); everything else is shared and knows no game:

1. **validation** (:func:`check_simulation`): rules, players, policies, level, options, ``n``,
   seed, threads, chunk size, backend, dataset and a memory estimate, all before any work;
2. **chunks**: the units ``[0, n)`` are split into consecutive ranges
   (:func:`cuarenta_sim.distributed.chunk_ranges`); each chunk is one task
   (:func:`chunk_task`) that plays its range with the game's numba kernel; steps 2 to 6 are
   :func:`run_validated` (:mod:`cuarenta_sim.simulation_run`);
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
chunk size, the backend or the number of workers. This module holds the public calls and
re-exports the names of the run's module (``__all__``).
"""

from __future__ import annotations

import math
import os
from pathlib import Path
from typing import Any

import numba
import numpy as np

from .aggregates import Aggregates
from .distributed import BACKENDS, require_dask
from .game import get_game
from .limits import MAX_CHUNK_RECORDS, check_chunks, max_local_workers, run_size, whole_number
from .memory import check_memory
from .results import Results
from .rng import root_from_seed
from .simulation_run import MODES, TruncationWarning, ValidatedRun, chunk_task, run_validated

__all__ = [
    "MODES",
    "TruncationWarning",
    "ValidatedRun",
    "aggregate",
    "check_simulation",
    "chunk_task",
    "parallel_block",
    "run_validated",
    "simulate",
]


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
    out = _run_call(locals())
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
    out = _run_call(locals(), aggregates=True)
    assert isinstance(out, Aggregates)
    return out


def _run_call(arguments: dict[str, Any], **mode: Any) -> Results | Aggregates:
    """Validate the arguments of one :func:`simulate` or :func:`aggregate` call (its
    ``locals()``, the game's extra options under ``options``) and run it.

    ``mode`` adds :func:`check_simulation` keywords the public function does not take
    (``aggregates=True``). Raises what :func:`check_simulation` raises.
    """
    given = dict(arguments)
    options = given.pop("options")
    return run_validated(check_simulation(**given, **mode, **options))
