"""Memory model of a simulation: its peak resident memory, predicted before the run.

A run that keeps its records (:func:`cuarenta_sim.simulation.simulate`, the command line
without ``--aggregates-only``) holds every record in memory at the end, and more while the
chunks are joined and the summaries or the Parquet file (``--out``) are made. Its peak
resident set size grows linearly with ``n``:

    peak = base + bytes_per_unit * n                 (records kept)
    peak = base + bytes_per_unit * parquet * n       (records kept and written with --out)
    peak = base + bytes_per_unit * min(n, chunk)     (--aggregates-only / aggregate():
                                                      one chunk's records at a time)

``base`` (the interpreter, numpy, pandas, pyarrow and the loaded kernels) is per game;
``bytes_per_unit`` per game, level and player count; ``parquet`` per game and level. The
figures are **measured**, not derived from column widths: ``benchmarks/memory.py`` runs the
command line in subprocesses at several levels and sizes, reads each one's peak RSS
(``os.wait4``) and fits them (:data:`CALIBRATION` names the run). They are for the default
policies (``greedy``); policies that make longer chicas (``random``: about 7 datas a chica,
``greedy`` about 3) keep more records per chica or mesa, hence :data:`HEADROOM`. They are
the command line's peaks, which include the estimate tables computed from the records; a
bare :func:`cuarenta_sim.simulation.simulate` call peaks lower (``benchmarks/throughput.py``:
0.71 GiB for 10 million datas, against 1.8 GiB for ``cuarenta-sim simulate``), so the same
check is conservative in Python.

:func:`check_memory` compares the prediction with the memory actually available
(:func:`available_memory`: ``MemAvailable`` of ``/proc/meminfo``; where that file does not
exist, the physical memory from ``os.sysconf``; where neither is known the check is skipped)
and refuses, before anything is allocated, a run that cannot fit, with the largest ``n`` that
fits and the counters-only alternative (:class:`InsufficientMemoryError`).
"""

from __future__ import annotations

import math
import os
from typing import Any

#: The measurements that produced the coefficients below.
CALIBRATION = (
    "benchmarks/memory.py --fit, 2026-12-02 (2-core x86-64 Linux, 2 threads, greedy, seed 1; "
    "19 runs of 250 to 560 MiB); level chica's slope from issue 20's 30-million-chica run "
    "(21.9 GB peak); mesa and Cuatrola game slopes scaled alike (x1.25)"
)
#: Output modes: records kept in memory, records kept and written as Parquet (``--out``),
#: counters only (``--aggregates-only``, ``aggregate()``).
OUTPUTS = ("records", "parquet", "aggregates")
MIB = 2**20
#: Peak RSS of a run of 1,000 units, per game (bytes): interpreter, libraries, kernels.
BASE_BYTES: dict[str, int] = {"cuarenta": 257 * MIB, "cuatrola": 253 * MIB}
#: Peak bytes per unit (data, hand or game) with the records kept: (game, level, players).
#: Hand levels: ``(peak - base) / n`` of the benchmark's largest run (2,000,000 datas: 155,
#: the same as issue 20's 10-million-data run, 154; 1,000,000 Cuatrola hands: 77). Game
#: levels: the benchmark's slope (chica 572 / 542 at 400,000 chicas) grows with the run: the
#: 30-million-chica run of issue 20 peaked at 720 per chica (x1.25), so level chica takes that
#: figure and mesa (1,346 / 1,333 at 120,000 mesas) and Cuatrola game (1,055 at 40,000 games)
#: are scaled by the same 1.25 (not measured at that scale).
BYTES_PER_UNIT: dict[tuple[str, str, int], float] = {
    ("cuarenta", "data", 2): 155.0,
    ("cuarenta", "data", 4): 155.0,
    ("cuarenta", "chica", 2): 720.0,
    ("cuarenta", "chica", 4): 720.0,
    ("cuarenta", "mesa", 2): 1680.0,
    ("cuarenta", "mesa", 4): 1670.0,
    ("cuatrola", "hand", 4): 77.0,
    ("cuatrola", "game", 4): 1320.0,
}
#: Factor on ``bytes_per_unit`` when the records are also written as Parquet (``--out``):
#: measured parquet slope / records slope (Cuarenta's peak is reached before the writing).
PARQUET_FACTOR: dict[tuple[str, str], float] = {
    ("cuarenta", "data"): 1.0,
    ("cuarenta", "chica"): 1.0,
    ("cuarenta", "mesa"): 1.0,
    ("cuatrola", "hand"): 1.42,
    ("cuatrola", "game"): 1.57,
}
#: Factor between the prediction and the memory a run may use: a run is refused when
#: ``prediction * HEADROOM`` exceeds the available memory (policies that play longer chicas,
#: other processes growing meanwhile).
HEADROOM = 1.1
#: For a game or configuration the benchmark has not measured: peak bytes per unit are
#: ``FALLBACK_FACTOR * Game.record_bytes * spec.records_per_game()`` (the measured Cuarenta
#: level-data peak is about 2.7 times its 64 declared bytes per record) and the base that of
#: Cuarenta.
FALLBACK_FACTOR = 3.0


class InsufficientMemoryError(ValueError, MemoryError):
    """A run whose predicted peak memory exceeds the memory available (refused before it
    starts). A ``ValueError`` (bad input: exit 2 on the command line) and a
    ``MemoryError``."""


def available_memory() -> tuple[int, str] | None:
    """The memory a new run may use now, in bytes, and where the figure comes from.

    Returns
    -------
    (int, str) or None
        ``MemAvailable`` of ``/proc/meminfo`` (Linux: free memory plus reclaimable caches),
        else physical memory (``os.sysconf``, for systems without ``/proc``), else None
        (unknown: the check is skipped).
    """
    try:
        with open("/proc/meminfo", encoding="ascii") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024, "MemAvailable"
    except (OSError, ValueError, IndexError):
        pass
    try:
        total = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError, AttributeError):
        return None
    return (int(total), "physical memory") if total > 0 else None


def coefficients(
    game: str, level: str, players: int, output: str = "records", fallback_unit: float = 0.0
) -> tuple[float, float]:
    """The model's ``(base, slope)`` in bytes and bytes per unit for one configuration.

    Parameters
    ----------
    game, level : str
        A registered game and one of its levels.
    players : int
        Player count (the nearest measured one of the level is used when it was not measured).
    output : str
        One of :data:`OUTPUTS`. For ``"aggregates"`` the slope is that of ``"records"``
        (it applies to one chunk, see :func:`predict_peak`).
    fallback_unit : float
        Peak bytes per unit when the configuration was not measured (:data:`FALLBACK_FACTOR`).

    Raises
    ------
    ValueError
        An unknown output mode.
    """
    if output not in OUTPUTS:
        raise ValueError(f"unknown output {output!r}; accepted: {', '.join(OUTPUTS)}")
    base = float(BASE_BYTES.get(game, BASE_BYTES["cuarenta"]))
    measured = {p: b for (g, lv, p), b in BYTES_PER_UNIT.items() if g == game and lv == level}
    if measured:
        slope = measured[min(measured, key=lambda p: (abs(p - players), -p))]
    else:
        slope = float(fallback_unit)
    if output == "parquet":
        slope *= PARQUET_FACTOR.get((game, level), max(PARQUET_FACTOR.values()))
    return base, slope


def predict_peak(
    game: str,
    level: str,
    players: int,
    n: int,
    output: str = "records",
    chunk: int | None = None,
    fallback_unit: float = 0.0,
) -> int:
    """Predicted peak resident memory (bytes) of a run of ``n`` units.

    Parameters
    ----------
    game, level, players, output, fallback_unit
        As :func:`coefficients`.
    n : int
        Units (datas / hands, or games at a game level), >= 0.
    chunk : int or None
        Units per chunk; with ``output="aggregates"`` only one chunk's records are held
        (None: ``n``).

    Returns
    -------
    int
        Bytes; non-decreasing in ``n``.
    """
    base, slope = coefficients(game, level, players, output, fallback_unit)
    held = n if output != "aggregates" or chunk is None else min(n, chunk)
    return math.ceil(base + slope * held)


def largest_n(
    game: str,
    level: str,
    players: int,
    available: int,
    output: str = "records",
    fallback_unit: float = 0.0,
) -> int:
    """The largest ``n`` whose prediction times :data:`HEADROOM` fits in ``available`` bytes
    (0 when even the base does not)."""
    base, slope = coefficients(game, level, players, output, fallback_unit)
    room = available / HEADROOM - base
    if room <= 0:
        return 0
    if slope <= 0:
        return 2**63 - 1
    n = int(room // slope)
    while (
        n > 0
        and predict_peak(game, level, players, n, output, None, fallback_unit) * HEADROOM
        > available
    ):
        n -= 1
    return n


def check_memory(
    game: Any,
    spec: Any,
    n: int,
    output: str = "records",
    chunk: int | None = None,
    available: tuple[int, str] | None = None,
) -> int:
    """Refuse, before allocating, a run whose predicted peak does not fit in memory.

    Parameters
    ----------
    game : cuarenta_sim.game.Game
        The registered game (its ``name``, ``record_bytes``, ``unit()``).
    spec : RunSpec
        The run's spec (``level``, ``provenance()["players"]``, ``records_per_game()``).
    n : int
        Units of the run.
    output : str
        One of :data:`OUTPUTS`.
    chunk : int or None
        Units per chunk (for ``"aggregates"``).
    available : (int, str) or None
        Bytes available and their source; default :func:`available_memory`.

    Returns
    -------
    int
        The predicted peak (bytes).

    Raises
    ------
    InsufficientMemoryError
        One line: the prediction, the memory available, the largest ``n`` that fits and
        the counters-only alternative (``--aggregates-only``, ``aggregate()``).
    """
    players = int(spec.provenance().get("players", 0))
    fallback = FALLBACK_FACTOR * game.record_bytes * spec.records_per_game()
    need = predict_peak(game.name, spec.level, players, n, output, chunk, fallback)
    have = available if available is not None else available_memory()
    if have is None or need * HEADROOM <= have[0]:
        return need
    unit = game.unit(spec.level)
    fits = largest_n(game.name, spec.level, players, have[0], output, fallback)
    kept = {
        "records": "with its records kept",
        "parquet": "with its records kept and written by --out",
        "aggregates": "with counters only",
    }[output]
    largest = f"the largest --n that fits is {fits:,}" if fits else "no --n fits in that memory"
    alternative = (
        "" if output == "aggregates"
        else "; or keep counters only, whose memory stays flat as n grows: --aggregates-only "
        "(aggregate() in Python)"
    )  # fmt: skip
    raise InsufficientMemoryError(
        f"n={n:,} {unit} {kept} needs about {need / 2**30:,.1f} GiB at its peak (memory "
        f"model, benchmarks/memory.py) but {have[0] / 2**30:,.1f} GiB is available "
        f"({have[1]}); {largest}{alternative}"
    )
