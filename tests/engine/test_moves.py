"""Kernel pieces: legal plays (R5, contract 3), play outcomes (R5.4, R6, R7), carton (R8.2)."""

from __future__ import annotations

import itertools
import random

import pytest

from cuarenta_sim.cuarenta.engine.layout import (
    KIND_MATCH,
    KIND_SUM,
    KIND_TRAIL,
    N_SUM_BASES,
    NO_SUM,
    SUMS_COUNT,
    SUMS_FIRST,
    SUMS_HELD,
    SUMS_LARGEST,
    SUMS_PACKED,
    SUMS_SIZE,
    SUMS_START,
)
from cuarenta_sim.cuarenta.engine.moves import (
    best_play,
    build_kernel_sums,
    carton_points,
    count_plays,
    occupied,
    play_outcome,
    run_length,
    select_play,
    sum_key,
)
from cuarenta_sim.cuarenta.engine.state import Turn
from cuarenta_sim.cuarenta.policies.kernel import POLICY_GREEDY
from cuarenta_sim.cuarenta.rules import NEVER, RuleSet
from cuarenta_sim.cuarenta.tables import (
    SUM_PACKED,
    SUM_SIZE,
    SUM_START,
    enumerate_sum_bases,
    holds_packed,
    pack_counts,
    pack_ranks,
)

A, J, Q, K = 0, 7, 8, 9


def rank(name: str) -> int:
    return "A234567JQK".index(name)


def packed(ranks: list[int]) -> int:
    return pack_ranks(ranks)


def brute_force_plays(
    hand: list[int], table: list[int], max_sum: int, compulsory: bool
) -> list[tuple[int, int, int, int]]:
    """Canonical legal plays (contract 3) by brute force over the table's sub-multisets."""
    plays = []
    table_sorted = sorted(table)
    for r in sorted(set(hand)):
        captures = []
        if r in table:
            captures.append((r, KIND_MATCH, pack_ranks([r]), 1))
        if r <= 6:
            numeric = [c for c in table_sorted if c <= 6]
            subsets = set()
            for size in range(2, len(numeric) + 1):
                for combo in itertools.combinations(numeric, size):
                    if sum(c + 1 for c in combo) == r + 1 and size <= max_sum:
                        subsets.add(tuple(sorted(combo)))
            for combo in sorted(subsets, key=lambda t: (len(t), t)):
                captures.append((r, KIND_SUM, pack_ranks(list(combo)), len(combo)))
        if not compulsory or not captures:
            plays.append((r, KIND_TRAIL, 0, 0))
        plays.extend(captures)
    return plays


def kernel_plays(hand: list[int], table: list[int], max_sum: int, compulsory: bool) -> list:
    """The canonical list as the kernel sees it: count_plays, then select_play for every k."""
    sums = build_kernel_sums(max_sum)
    h, t = packed(hand), packed(table)
    captures = int(sums[SUMS_COUNT + sum_key(t)]) + occupied(t)
    held = int(sums[SUMS_HELD + sum_key(t)])
    out = []
    for k in range(count_plays(h, captures, int(compulsory))):
        r, kind, i = select_play(h, t, captures, held, int(sums[SUMS_FIRST]), int(compulsory), k)
        if kind == KIND_SUM:
            out.append((r, kind, int(sums[SUMS_PACKED + i]), int(sums[SUMS_SIZE + i])))
        else:
            assert i == -1
            out.append(
                (r, kind, pack_ranks([r]) if kind == KIND_MATCH else 0, int(kind == KIND_MATCH))
            )
    return out


def random_state(rng: random.Random) -> tuple[list[int], list[int]]:
    deck = [c // 4 for c in range(40)]
    rng.shuffle(deck)
    n_hand = rng.randint(1, 5)
    n_table = rng.randint(0, 12)
    return deck[:n_hand], deck[n_hand : n_hand + n_table]


def test_sum_tables_match_cuarenta_tables() -> None:
    """The kernel's sum tables are those of cuarenta_sim.cuarenta.tables, in canonical order
    (R5.2)."""
    sums = build_kernel_sums(NEVER)
    assert sums[SUMS_START : SUMS_START + 11].tolist() == SUM_START.tolist()
    assert sums[SUMS_PACKED : SUMS_PACKED + N_SUM_BASES].tolist() == SUM_PACKED.tolist()
    assert sums[SUMS_SIZE : SUMS_SIZE + N_SUM_BASES].tolist() == SUM_SIZE.tolist()
    for r in range(7):
        bases = enumerate_sum_bases(r + 1)
        assert [pack_ranks(b) for b in bases] == SUM_PACKED[
            SUM_START[r] : SUM_START[r + 1]
        ].tolist()


@pytest.mark.parametrize("max_sum", [NEVER, 2, 3])
def test_held_sums_and_counts_vs_holds_packed(max_sum: int) -> None:
    """The held-bases table agrees with tables.holds_packed on every table of A..6 counts."""
    sums = build_kernel_sums(max_sum)
    for counts6 in itertools.product(range(5), repeat=6):
        if sum(counts6) > 14:
            continue
        counts = [*counts6, 0, 0, 0, 0]
        table = pack_counts(counts)
        key = sum_key(table)
        expect = [
            i
            for i in range(N_SUM_BASES)
            if SUM_SIZE[i] <= max_sum and holds_packed(table, int(SUM_PACKED[i]))
        ]
        held = int(sums[SUMS_HELD + key])
        assert [i for i in range(N_SUM_BASES) if held >> i & 1] == expect
        per_rank = int(sums[SUMS_COUNT + key])
        for r in range(10):
            n_r = sum(1 for i in expect if SUM_START[r] <= i < SUM_START[r + 1])
            assert (per_rank >> (4 * r)) & 15 == n_r


@pytest.mark.parametrize(
    "max_sum,compulsory", [(NEVER, False), (2, False), (NEVER, True), (3, True)]
)
def test_legal_plays_vs_brute_force(max_sum: int, compulsory: bool) -> None:
    """count_plays and select_play give the canonical list of contract 3."""
    rng = random.Random(1234 + max_sum + compulsory)
    for _ in range(1500):
        hand, table = random_state(rng)
        expect = brute_force_plays(hand, table, max_sum, compulsory)
        assert kernel_plays(hand, table, max_sum, compulsory) == expect


def test_largest_and_first_sums() -> None:
    """The per-rank first largest sum base and the packed first indices of the sums array."""
    sums = build_kernel_sums(NEVER)
    firsts = int(sums[SUMS_FIRST])
    assert [(firsts >> (6 * r)) & 63 for r in range(7)] == SUM_START[:7].tolist()
    rng = random.Random(5)
    for _ in range(300):
        _, table = random_state(rng)
        t = packed(table)
        largest = int(sums[SUMS_LARGEST + sum_key(t)])
        for r in range(7):
            held = [
                i
                for i in range(SUM_START[r], SUM_START[r + 1])
                if holds_packed(t, int(SUM_PACKED[i]))
            ]
            expect = NO_SUM
            if held:
                size = max(SUM_SIZE[i] for i in held)
                expect = min(i for i in held if SUM_SIZE[i] == size)
            assert (largest >> (6 * r)) & 63 == expect


@pytest.mark.parametrize(
    "rules",
    [
        RuleSet.preset("cuenca"),
        RuleSet(caida_by_sum=True, max_sum_cards=3),
        RuleSet(capture_compulsory=True, caida_en_ronda_points=10),
    ],
    ids=["cuenca", "caida_by_sum", "compulsory"],
)
def test_best_play_is_first_maximum_of_greedy_key(rules: RuleSet) -> None:
    """best_play scans the canonical list: most points, then most cards, first one (contract 6)."""
    rng = random.Random(99)
    kr = rules.to_kernel()
    sums = build_kernel_sums(kr.max_sum_cards)
    compulsory = rules.capture_compulsory
    for _ in range(1500):
        hand, table = random_state(rng)
        prev = rng.choice([-1, *table]) if table else -1
        in_ronda = rng.random() < 0.3
        score = rng.choice([0, 10, 38])
        h, t = packed(hand), packed(table)
        plays = kernel_plays(hand, table, kr.max_sum_cards, compulsory)
        assert plays == brute_force_plays(hand, table, kr.max_sum_cards, compulsory)
        keys = []
        for r, kind, base, nbase in plays:
            if kind == KIND_TRAIL:
                keys.append(0)
                continue
            turn = Turn(t, len(table), prev, in_ronda, score)
            run, _c, _e, _l, now, lim, claim = play_outcome(kr, r, kind, base, nbase, turn)
            keys.append((now + lim + claim) * 64 + 1 + nbase + run)
        captures = int(sums[SUMS_COUNT + sum_key(t)]) + occupied(t)
        turn = Turn(t, len(table), prev, in_ronda, score)
        r, kind, i = best_play(POLICY_GREEDY, h, captures, sum_key(t), turn, kr, sums)
        best = plays[keys.index(max(keys))]
        assert (r, kind) == best[:2]
        if kind == KIND_SUM:
            assert int(sums[SUMS_PACKED + i]) == best[2]


def outcome(
    played: str,
    base: list[str],
    table: list[str],
    *,
    prev: str | None = None,
    prev_in_ronda: bool = False,
    score: int = 0,
    rules: RuleSet | None = None,
) -> dict[str, int]:
    kr = (rules or RuleSet()).to_kernel()
    r = rank(played)
    base_ranks = [rank(b) for b in base]
    kind = KIND_MATCH if base_ranks == [r] else KIND_SUM
    turn = Turn(
        packed([rank(c) for c in table]),
        len(table),
        rank(prev) if prev else -1,
        prev_in_ronda,
        score,
    )
    run, caida, en_ronda, limpia, now, lim, claim = play_outcome(
        kr, r, kind, packed(base_ranks), len(base_ranks), turn
    )
    return {
        "run": run,
        "caida": int(caida),
        "en_ronda": int(en_ronda),
        "limpia": int(limpia),
        "now": now,
        "limpia_points": lim,
        "claim": claim,
    }


def test_examples_e1_to_e6_runs_and_limpias() -> None:
    """E1, E2, E3, E5, E6 of the spec: runs (R5.4) and limpia (R7.1)."""
    assert outcome("5", ["5"], ["5", "K"])["run"] == 0  # E1
    assert outcome("3", ["3"], ["3", "4", "5", "7", "J"])["run"] == 2  # E2: 4 5, gap at 6
    assert outcome("5", ["2", "3"], ["2", "3", "Q"])["run"] == 0  # E3
    e5 = outcome("7", ["3", "4"], ["3", "4", "J", "Q", "K"])  # E5: sum, run J Q K, limpia
    assert (e5["run"], e5["limpia"], e5["limpia_points"]) == (3, 1, 2)
    assert outcome("7", ["7"], ["7", "J", "Q", "2"])["run"] == 2  # E6: 7 -> J Q
    assert run_length(packed([rank("6"), J]), rank("5")) == 1  # 6, then no 7: J not reached
    assert run_length(packed([rank("7"), J, Q, K]), rank("6")) == 4  # 7 is followed by J


def test_caidas_e8_e10_e11_e12() -> None:
    """Caida only on a match of the just-trailed rank (R6.1, R6.2); todo dos (R7.2)."""
    e8 = outcome("5", ["2", "3"], ["5", "2", "3", "6"], prev="5")
    assert e8["caida"] == 0  # E8: the sum with the trailed 5 is no caida
    assert outcome("5", ["5"], ["5", "2", "3", "6"], prev="5")["caida"] == 1
    e10 = outcome("6", ["6"], ["2", "6"], prev="6")
    assert (e10["caida"], e10["now"], e10["limpia"]) == (1, 2, 0)
    quito = outcome("6", ["6"], ["6"], prev="6")  # E11
    assert quito["now"] + quito["limpia_points"] == 2
    cuenca = outcome("6", ["6"], ["6"], prev="6", rules=RuleSet.preset("cuenca"))
    assert cuenca["now"] + cuenca["limpia_points"] == 4
    e12 = outcome("5", ["2", "3"], ["2", "3"], prev="3")
    assert (e12["caida"], e12["limpia"], e12["limpia_points"]) == (0, 1, 2)
    by_sum = outcome(
        "5",
        ["2", "3"],
        ["2", "3"],
        prev="3",
        rules=RuleSet(caida_by_sum=True, caida_limpia_cumulative=True),
    )
    assert (by_sum["caida"], by_sum["now"], by_sum["limpia_points"]) == (1, 2, 2)


def test_caida_en_ronda_and_38_rule() -> None:
    """R6.4 bonus and timing, blocked from ronda_blocked_from; R9.1 at 38 (E16, E17)."""
    pagat = RuleSet.preset("pagat")
    claim = outcome("4", ["4"], ["4", "J"], prev="4", prev_in_ronda=True, rules=pagat)
    assert (claim["en_ronda"], claim["now"], claim["claim"]) == (1, 0, 10)
    blocked = outcome("4", ["4"], ["4", "J"], prev="4", prev_in_ronda=True, score=30, rules=pagat)
    assert (blocked["en_ronda"], blocked["now"], blocked["claim"]) == (1, 2, 0)
    now = outcome(
        "4",
        ["4"],
        ["4", "J"],
        prev="4",
        prev_in_ronda=True,
        rules=RuleSet(caida_en_ronda_points=10),
    )
    assert (now["now"], now["claim"]) == (10, 0)
    for preset in ("quito", "cuenca", "pagat", "quito_torneo"):  # E16: limpia at 38 scores 0
        e16 = outcome("5", ["2", "3"], ["2", "3"], score=38, rules=RuleSet.preset(preset))
        assert e16["limpia"] == 1 and e16["limpia_points"] == 0
        e17 = outcome("4", ["4"], ["4", "J"], prev="4", score=38, rules=RuleSet.preset(preset))
        assert e17["now"] == 2  # E17: a caida at 38 always counts
    assert (
        outcome("5", ["2", "3"], ["2", "3"], score=38, rules=RuleSet(at_38="none"))["limpia_points"]
        == 2
    )


@pytest.mark.parametrize(
    "cards,points", [(20, 6), (21, 8), (22, 8), (23, 10), (24, 10), (26, 12), (30, 16), (40, 26)]
)
def test_carton_formula(cards: int, points: int) -> None:
    """R8.2: n - 14 for even n, n - 13 for odd n."""
    assert carton_points(cards) == points
