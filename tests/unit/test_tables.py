"""Precomputed sum tables (R5.2) against brute force."""

import itertools
import random

from cuarenta_sim.cuarenta.cards import N_NUMERIC
from cuarenta_sim.cuarenta.tables import (
    SUM_PACKED,
    SUM_SIZE,
    SUM_START,
    enumerate_sum_bases,
    holds_packed,
    pack_counts,
    pack_ranks,
)

NUMERIC_DECK = [r for r in range(N_NUMERIC) for _ in range(4)]


def brute_force_bases(value: int) -> set[tuple[int, ...]]:
    """Every sub-multiset of the 28 numeric cards with >= 2 cards and values adding to value."""
    found: set[tuple[int, ...]] = set()
    for size in range(2, value + 1):
        for combo in itertools.combinations(NUMERIC_DECK, size):
            if sum(r + 1 for r in combo) == value:
                found.add(tuple(sorted(combo)))
    return found


def test_sum_bases_equal_brute_force_and_are_canonically_ordered() -> None:
    for value in range(1, 8):
        bases = enumerate_sum_bases(value)
        assert set(bases) == brute_force_bases(value)
        assert len(bases) == len(set(bases))
        assert bases == sorted(bases, key=lambda t: (len(t), t))
    # E9: for a played 6 the two-card sums come first: A+5, 2+4, 3+3.
    assert enumerate_sum_bases(6)[:3] == [(0, 4), (1, 3), (2, 2)]
    assert enumerate_sum_bases(1) == []


def test_flat_tables_match_enumeration() -> None:
    assert SUM_START.shape == (11,)
    for r in range(10):
        rows = range(SUM_START[r], SUM_START[r + 1])
        expected = enumerate_sum_bases(r + 1) if r < N_NUMERIC else []  # R1.2: faces never sum
        assert [int(SUM_PACKED[i]) for i in rows] == [pack_ranks(b) for b in expected]
        assert [int(SUM_SIZE[i]) for i in rows] == [len(b) for b in expected]


def test_holds_packed_equals_count_comparison() -> None:
    rnd = random.Random(11)
    for _ in range(20_000):
        table = [rnd.randint(0, 4) for _ in range(10)]
        base = [rnd.randint(0, 4) for _ in range(10)]
        expected = all(t >= b for t, b in zip(table, base, strict=True))
        assert holds_packed(pack_counts(table), pack_counts(base)) == expected
