"""The accepted ranges of the numbers every public entry point takes (both games).

The engines hold game indices, counters and weights in 64-bit integers; a number outside the
range where that arithmetic is exact would wrap silently (an index ``2**64`` replaying index
0) or fail deep inside a run (``OverflowError``, ``MemoryError``). Every entry point checks
its numbers here first and refuses one outside its range with a ``ValueError`` naming the
range, before anything runs:

==================  ==========================================================================
number              accepted
==================  ==========================================================================
seed                any whole number >= 0 (``numpy.random.SeedSequence`` takes any size)
game index          0 .. :data:`MAX_GAME_INDEX` (``2**63 - 1``, an int64 in the kernels):
                    ``replay --index``, ``trace_game``, the reference ``play_game``
run size ``n``      1 .. :data:`MAX_RUN` (``2**53``: counts stay exact as floats in the
                    statistics), and at most :data:`MAX_CHUNKS` chunks of ``chunk_size``
``chunk_size``      1 .. :data:`MAX_CHUNK_RECORDS` hand records per chunk (``2**31``: the
                    int64 chunk sums of :mod:`cuarenta_sim.aggregates` cannot overflow)
study sizes         ``report --n``, ``--chicas``, ``--mesas``, ``--confirm-n``: 1 .. ``MAX_RUN``;
                    ``compare_rules``' ``n_datas``, ``n_chicas``, ``n_mesas``: 0 .. ``MAX_RUN``,
                    not all 0 (:func:`check_sizes`)
tournament          ``chicas`` 2 .. ``2 * MAX_RUN``, ``mesas`` 0 .. ``2 * MAX_RUN`` (even);
                    ``bootstrap`` 0 .. 1,000,000 (``bradley_terry.MAX_BOOTSTRAP``)
``workers``         1 .. 4 per CPU core (the processes of an embedded Dask ``LocalCluster``)
``n_envs``          1 .. what this machine's physical memory holds (the batched environment's
                    arrays, :func:`physical_memory`)
``start_index``     0 .. :data:`MAX_START_INDEX` (``2**62``) for the batched RL environment:
                    its game indices ``start_index + k * n_envs + i`` then stay below
                    ``2**63`` for the next ``2**62`` episodes (146 years at 10**9 a second)
==================  ==========================================================================

Rewards and other real parameters are finite numbers (:func:`finite_number`). Whole numbers are
Python ``int`` or numpy integers; ``bool``, floats (even ``1.0``) and NaN are refused (the
command line's option parser reads ``1.0`` as 1 and refuses ``2.5``). The learned policy's
weights have their own range (:data:`cuarenta_sim.cuarenta.policies.learned.WEIGHT_LIMIT`).
"""

from __future__ import annotations

import math
import os

import numpy as np

#: Largest game (or hand) index: the kernels hold it in an int64.
MAX_GAME_INDEX = 2**63 - 1
#: Largest run size ``n`` (games or hands): exactly representable as a float64.
MAX_RUN = 2**53
#: Most chunks of one run (the chunk list, a dataset's manifest and Dask's tasks stay small).
MAX_CHUNKS = 2**20
#: Most hand records of one chunk: int64 chunk sums of values below 2**15 cannot overflow
#: (:mod:`cuarenta_sim.aggregates`).
MAX_CHUNK_RECORDS = 2**31
#: Largest ``start_index`` of :class:`cuarenta_sim.rl.batched.BatchedCuarenta`.
MAX_START_INDEX = 2**62
#: Worker processes of an embedded Dask ``LocalCluster`` per CPU core of the machine.
WORKERS_PER_CORE = 4


def physical_memory() -> int | None:
    """Bytes of physical memory of this machine, or None where the system does not say."""
    try:
        return int(os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES"))
    except (ValueError, OSError, AttributeError):
        return None


def max_local_workers() -> int:
    """Most worker processes of an embedded local cluster: :data:`WORKERS_PER_CORE` per core."""
    return WORKERS_PER_CORE * (os.cpu_count() or 1)


def is_whole(value: object) -> bool:
    """True for a Python or numpy integer that is not a ``bool``."""
    return isinstance(value, int | np.integer) and not isinstance(value, bool | np.bool_)


def whole_number(value: object, name: str, low: int, high: int | None = None) -> int:
    """``value`` as an ``int`` when it is a whole number in ``[low, high]``.

    Parameters
    ----------
    value : object
        The number given.
    name : str
        How the message names it (``"n"``, ``"--index"``...).
    low, high : int
        The accepted range, inclusive; ``high`` None for no upper bound.

    Returns
    -------
    int

    Raises
    ------
    ValueError
        Not a whole number (``bool``, float, NaN, anything else) or outside the range; the
        message names the range.
    """
    if is_whole(value):
        number = int(value)  # type: ignore[call-overload]
        if low <= number and (high is None or number <= high):
            return number
    kind = {0: "a non-negative whole number", 1: "a positive whole number"}.get(low)
    if kind is None:
        accepted = f"a whole number from {low:,}" + ("" if high is None else f" to {high:,}")
    else:
        accepted = kind + ("" if high is None else f" up to {high:,}")
    raise ValueError(f"{name} must be {accepted}, got {value!r}")


def finite_number(value: object, name: str) -> float:
    """``value`` as a float when it is a finite real number (int, float or numpy number).

    Raises
    ------
    ValueError
        A ``bool``, NaN, an infinity, an integer too large for a float (beyond about
        ``1.8e308``) or anything else.
    """
    if isinstance(value, int | float | np.integer | np.floating) and not isinstance(
        value, bool | np.bool_
    ):
        try:
            number = float(value)
        except OverflowError:
            number = math.inf
        if math.isfinite(number):
            return number
    raise ValueError(f"{name} must be a finite number, got {value!r}")


def choice_index(value: object, accepted: tuple[str, ...], name: str) -> int:
    """The position of ``value`` in ``accepted`` (a level name to its kernel code).

    Parameters
    ----------
    value : object
        The name given.
    accepted : tuple of str
        The accepted names, in code order.
    name : str
        What the name is, for the message (``"level"``, ``"Cuatrola level"``).

    Raises
    ------
    ValueError
        Not one of ``accepted`` (the message lists them).
    """
    if not isinstance(value, str) or value not in accepted:
        raise ValueError(f"unknown {name} {value!r}; accepted: {', '.join(accepted)}")
    return accepted.index(value)


def game_index(value: object, name: str = "index") -> int:
    """A game (or hand) index: a whole number from 0 to :data:`MAX_GAME_INDEX`.

    Raises
    ------
    ValueError
        Anything else (the message names the range).
    """
    return whole_number(value, name, 0, MAX_GAME_INDEX)


def run_size(value: object, name: str = "n") -> int:
    """A run size: a whole number from 1 to :data:`MAX_RUN`.

    Raises
    ------
    ValueError
        Anything else (the message names the range).
    """
    return whole_number(value, name, 1, MAX_RUN)


def check_sizes(sizes: dict[str, object]) -> None:
    """Check the per-level sizes of a run that plays several levels (``n_datas``,
    ``n_chicas``, ``n_mesas``): each a whole number from 0 (the level skipped) to
    :data:`MAX_RUN`, and at least one of them above 0.

    Raises
    ------
    ValueError
        A bad size, or every size 0 (nothing would be simulated); the message names them.
    """
    for name, value in sizes.items():
        whole_number(value, name, 0, MAX_RUN)
    if not any(sizes.values()):
        raise ValueError(
            f"{', '.join(sizes)} are all 0: nothing would be simulated; give at least one "
            f"level a size from 1 to {MAX_RUN:,}"
        )


def check_chunks(
    n: int, chunk: object, default: int, records_per_game: float, name: str = "chunk_size"
) -> int:
    """The games per chunk of a run of ``n`` games: ``chunk`` (None: ``default``), checked.

    Parameters
    ----------
    n : int
        Run size (already a whole number >= 1).
    chunk : object
        The chunk size given, or None.
    default : int
        The game's default chunk size.
    records_per_game : float
        Upper estimate of hand records per game (1 at a hand level).
    name : str
        How the message names the chunk size.

    Returns
    -------
    int

    Raises
    ------
    ValueError
        Not a whole number from 1 to :data:`MAX_CHUNK_RECORDS`, a chunk of more than
        :data:`MAX_CHUNK_RECORDS` records, or more than :data:`MAX_CHUNKS` chunks; the message
        gives the accepted chunk sizes.
    """
    chunk = default if chunk is None else whole_number(chunk, name, 1, MAX_CHUNK_RECORDS)
    largest = max(1, int(MAX_CHUNK_RECORDS // max(records_per_game, 1.0)))
    smallest = -(-n // MAX_CHUNKS)
    if min(chunk, n) > largest:
        raise ValueError(
            f"{name} must be at most {largest:,} games here (a chunk holds at most "
            f"{MAX_CHUNK_RECORDS:,} hand records), got {chunk:,}"
        )
    if smallest > largest:
        raise ValueError(
            f"n={n:,} needs more than {MAX_CHUNKS:,} chunks of at most {largest:,} games; "
            f"give n up to {MAX_CHUNKS * largest:,} (split a larger run by seed)"
        )
    if -(-n // chunk) > MAX_CHUNKS:
        raise ValueError(
            f"n={n:,} in chunks of {chunk:,} makes more than {MAX_CHUNKS:,} chunks; give "
            f"{name} from {smallest:,} to {largest:,}"
        )
    return chunk
