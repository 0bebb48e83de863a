"""The one simulation pipeline of every game: :func:`simulate`, :func:`aggregate`,
:func:`check_simulation`.

A game plugs in through its :class:`cuarenta_sim.game.Game` (``make_spec``, ``run_range``,
``frames``, ``aggregate_frames``); everything else is shared and knows no game:

1. **validation** (:func:`check_simulation`, in :mod:`cuarenta_sim.simulation_check`): rules,
   players, policies, level, options, ``n``, seed, threads, chunk size, backend, dataset and a
   memory estimate, all before any work;
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
re-exports the names of its two parts (``__all__``).
"""

from __future__ import annotations

import math
import os
from typing import Any

from .aggregates import Aggregates
from .results import Results
from .simulation_check import MODES, ValidatedRun, check_simulation
from .simulation_run import TruncationWarning, chunk_task, run_validated

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
