"""Precomputed capture tables for the numba engine (R5.2 sums), built in plain Python at import.

A sum base for a played numeric rank ``r`` (value ``r + 1``) is a multiset of 2 or more numeric
table ranks whose values add up to ``r + 1`` (R5.2). Which multisets exist does not depend on
the table or the rules, so they are enumerated once here, in the canonical option order of
``docs/engine_contract.md``: by size, then lexicographically by the sorted rank tuple. At run
time the engine keeps those present on the table and within ``max_sum_cards``.

Each multiset is stored *packed*: 4 bits per rank, rank ``k`` in bits ``4k .. 4k+3`` (counts are
at most 4). With the table packed the same way, "the table holds the multiset" is one SWAR test
(:func:`holds_packed`), used by the kernel.
"""

from __future__ import annotations

import numpy as np

from .cards import N_NUMERIC, N_RANKS, N_SUITS

#: Guard bit of every 4-bit field (bit 3), used by :func:`holds_packed`.
GUARD = sum(8 << (4 * k) for k in range(N_RANKS))


def enumerate_sum_bases(value: int) -> list[tuple[int, ...]]:
    """Return the multisets of >= 2 numeric ranks (A..7, <= 4 each) whose values add to ``value``.

    Parameters
    ----------
    value : int
        The played card's sum value, 1..7 (R1.2).

    Returns
    -------
    list of tuple of int
        Sorted rank tuples (rank code = value - 1), in canonical order: by size, then
        lexicographic.
    """
    out: list[tuple[int, ...]] = []

    def extend(prefix: list[int], remaining: int, smallest: int) -> None:
        if remaining == 0:
            if len(prefix) >= 2:
                out.append(tuple(prefix))
            return
        for rank in range(smallest, N_NUMERIC):
            v = rank + 1
            if v > remaining:
                break
            if prefix.count(rank) >= N_SUITS:
                continue
            prefix.append(rank)
            extend(prefix, remaining - v, rank)
            prefix.pop()

    extend([], value, 0)
    out.sort(key=lambda t: (len(t), t))
    return out


def pack_counts(counts: list[int] | np.ndarray) -> int:
    """Pack a 10-long rank-count vector into an int, 4 bits per rank."""
    return sum(int(c) << (4 * k) for k, c in enumerate(counts))


def pack_ranks(ranks: tuple[int, ...] | list[int]) -> int:
    """Pack a multiset of rank codes into an int, 4 bits per rank."""
    return sum(1 << (4 * r) for r in ranks)


def holds_packed(table_packed: int, base_packed: int) -> bool:
    """True when every 4-bit count of ``table_packed`` is at least that of ``base_packed``.

    SWAR: with each field's guard bit set, ``8 + t - b`` stays in ``4..12`` for counts
    ``0..4``, so the subtraction never borrows across fields and the guard bit survives
    exactly when ``t >= b``.
    """
    return ((table_packed | GUARD) - base_packed) & GUARD == GUARD


def build_sum_tables() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Return ``(start, packed, size)``: the sum bases of every played rank, as flat arrays.

    Returns
    -------
    start : ndarray, int64, shape (11,)
        Bases of played rank ``r`` are rows ``start[r]:start[r + 1]`` (empty for J, Q, K,
        which never sum, R1.2).
    packed : ndarray, uint64, shape (n,)
        Packed multisets (see :func:`pack_ranks`).
    size : ndarray, int64, shape (n,)
        Number of table cards in each base.
    """
    start = [0]
    packed: list[int] = []
    size: list[int] = []
    for r in range(N_RANKS):
        if r < N_NUMERIC:
            for base in enumerate_sum_bases(r + 1):
                packed.append(pack_ranks(base))
                size.append(len(base))
        start.append(len(packed))
    return (
        np.array(start, dtype=np.int64),
        np.array(packed, dtype=np.uint64),
        np.array(size, dtype=np.int64),
    )


SUM_START, SUM_PACKED, SUM_SIZE = build_sum_tables()
