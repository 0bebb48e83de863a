"""Brute force checks of the legal-play enumeration (R5.1, R5.2, R5.5; contract section 3).

On random tables, the reference enumeration must equal (a) every subset of the physical table
cards tried with itertools, and (b) the packed sum tables of ``cuarenta_sim.cuarenta.tables``
filtered
with ``holds_packed``, in the same canonical order.
"""

from __future__ import annotations

from itertools import combinations

from hypothesis import given, settings
from hypothesis import strategies as st

from cuarenta_sim.cuarenta.cards import RANK_VALUES
from cuarenta_sim.cuarenta.reference import Play, capture_bases, card_options, legal_plays
from cuarenta_sim.cuarenta.rules import RuleSet
from cuarenta_sim.cuarenta.tables import SUM_PACKED, SUM_SIZE, SUM_START, holds_packed, pack_counts

tables = st.lists(st.integers(0, 4), min_size=10, max_size=10).filter(lambda t: sum(t) <= 16)
limits = st.sampled_from([None, 2, 3, 4])


def brute_force_bases(rank: int, table: list[int], limit: int | None) -> list[tuple[int, ...]]:
    """Match, then every distinct multiset of >= 2 table cards summing to the rank's value."""
    cards = [r for r in range(10) for _ in range(table[r])]
    found: set[tuple[int, ...]] = set()
    if rank < 7:
        for size in range(2, len(cards) + 1):
            if limit is not None and size > limit:
                break
            for combo in combinations(cards, size):
                if all(r < 7 for r in combo) and sum(RANK_VALUES[r] for r in combo) == rank + 1:
                    found.add(tuple(sorted(combo)))
    sums = sorted(found, key=lambda b: (len(b), b))
    return ([(rank,)] if table[rank] else []) + sums


@settings(max_examples=400, deadline=None)
@given(table=tables, rank=st.integers(0, 9), limit=limits)
def test_capture_bases_equal_brute_force(table: list[int], rank: int, limit: int | None) -> None:
    rules = RuleSet(max_sum_cards=limit)
    assert capture_bases(rank, table, rules) == brute_force_bases(rank, table, limit)


@settings(max_examples=400, deadline=None)
@given(table=tables, rank=st.integers(0, 9), limit=limits)
def test_capture_bases_equal_packed_tables(table: list[int], rank: int, limit: int | None) -> None:
    packed_table = pack_counts(table)
    expected = []
    for i in range(SUM_START[rank], SUM_START[rank + 1]):
        base = int(SUM_PACKED[i])
        if (limit is None or SUM_SIZE[i] <= limit) and holds_packed(packed_table, base):
            expected.append(base)
    sums = [b for b in capture_bases(rank, table, RuleSet(max_sum_cards=limit)) if len(b) > 1]
    assert [pack_counts([b.count(r) for r in range(10)]) for b in sums] == expected


@settings(max_examples=300, deadline=None)
@given(
    table=tables,
    hand=st.lists(st.integers(0, 9), min_size=1, max_size=5),
    compulsory=st.booleans(),
    limit=limits,
)
def test_legal_plays_canonical_order(
    table: list[int], hand: list[int], compulsory: bool, limit: int | None
) -> None:
    """Contract 3: ranks ascending, per rank trail (unless compulsory and it can capture),
    match, sums; one entry per distinct rank."""
    rules = RuleSet(max_sum_cards=limit, capture_compulsory=compulsory)
    counts = [hand.count(r) for r in range(10)]
    expected = []
    for rank in sorted(set(hand)):
        bases = brute_force_bases(rank, table, limit)
        if not (compulsory and bases):
            expected.append(Play(rank, ()))
        expected.extend(Play(rank, b) for b in bases)
    plays = legal_plays(counts, table, rules)
    assert plays == expected
    assert len(set(plays)) == len(plays)
    for rank in set(hand):
        assert [p.base for p in plays if p.rank == rank] == card_options(rank, table, rules)
