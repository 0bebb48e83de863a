"""Legal plays and their outcomes on rank-count state (R5, R6, R7; contract sections 3 and 4).

Hands and the table are kept **packed**: 4 bits per rank, rank ``k`` in bits ``4k .. 4k+3``,
the layout of :mod:`cuarenta_sim.cuarenta.tables`. A packed int64 is the rank-count vector (at most
4
cards of a rank, R1.1) held in a register: removing a base is one subtraction, counts per rank
are SWAR operations, and the hot loop touches no array views (whose reference counting would
dominate its cost). Which sum bases a table holds is read from a table built once with the
SWAR test :func:`cuarenta_sim.cuarenta.tables.holds_packed`, keyed by the table's counts of A..6
(:func:`sum_key`). The legal plays are never listed: they are counted
(:func:`count_plays`), indexed (:func:`select_play`) or scanned for a policy's best
(:func:`best_play`), in the canonical order of contract section 3.

Kernels: inputs are not validated.
"""

from __future__ import annotations

import functools

import numpy as np
from numba import njit

from ..cards import N_NUMERIC
from ..policies.kernel import POLICY_GREEDY, play_key
from ..tables import SUM_PACKED, SUM_SIZE, SUM_START, holds_packed, pack_counts
from .layout import (
    AT38_CAIDA_OR_CARTON,
    AT38_NONE,
    AT38_ONLY_CAIDA,
    KIND_MATCH,
    KIND_SUM,
    KIND_TRAIL,
    N_SUM_KEYS,
    NO_SUM,
    SUM_KEY_CAPS,
    SUM_KEY_SHIFTS,
    SUMS_COUNT,
    SUMS_FIRST,
    SUMS_HELD,
    SUMS_LARGEST,
    SUMS_PACKED,
    SUMS_SIZE,
    SUMS_START,
)
from .state import Legal, Turn


@njit(cache=True, inline="always")
def run_length(table: np.int64, rank: np.int64) -> np.int64:
    """Cards the run (escalera, R5.4) takes after a capture with ``rank``.

    One card each of ``rank + 1``, ``rank + 2``, ... while present (7 is followed by J, K ends
    it). The base never holds ranks above the played one (a match is ``rank``, a sum's parts are
    lower), so the run can be read on the table before the base is removed. Branch-free: the
    first rank above ``rank`` missing from the table (ranks past K count as missing).
    """
    missing = ~(occupied(table) >> (4 * (rank + 1))) & NIBBLE_ONES
    return lowest_field(missing)


@njit(cache=True, inline="always")
def popcount(x: np.int64) -> np.int64:
    """Number of set bits of ``0 <= x < 2**62`` (SWAR)."""
    x = x - ((x >> 1) & 0x5555555555555555)
    x = (x & 0x3333333333333333) + ((x >> 2) & 0x3333333333333333)
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0F
    return byte_sum(x)


@njit(cache=True, inline="always")
def byte_sum(x: np.int64) -> np.int64:
    """Sum of the 8 bytes of ``0 <= x < 2**63`` when it is below 256 (shifts and adds: no
    multiplication that could overflow a signed integer)."""
    x += x >> 8
    x += x >> 16
    x += x >> 32
    return x & 0xFF


@njit(cache=True, inline="always")
def lowest_field(bits: np.int64) -> np.int64:
    """Index of the lowest 4-bit field holding a set bit of ``bits`` (> 0)."""
    return popcount((bits & -bits) - 1) >> 2


@functools.lru_cache(maxsize=16)
def build_kernel_sums(max_sum_cards: int) -> np.ndarray:
    """Return the flat ``sums`` array of the kernels for one ``max_sum_cards`` (layout in
    :mod:`.layout`; :data:`cuarenta_sim.cuarenta.rules.NEVER` for no limit, R5.2).

    The held-bases part is built with :func:`cuarenta_sim.cuarenta.tables.holds_packed` on the
    table of
    every key: the counts of ranks A..6 that the key encodes, other ranks empty. The array is
    cached and read-only.
    """
    held = np.zeros(N_SUM_KEYS, dtype=np.int64)
    count = np.zeros(N_SUM_KEYS, dtype=np.int64)
    largest = np.zeros(N_SUM_KEYS, dtype=np.int64)
    for key in range(N_SUM_KEYS):
        counts = [0] * 10
        for k, (cap, shift) in enumerate(zip(SUM_KEY_CAPS, SUM_KEY_SHIFTS, strict=True)):
            counts[k] = min((key >> shift) & ((1 << cap.bit_length()) - 1), cap)
        table = pack_counts(counts)
        for r in range(10):
            first_largest = NO_SUM
            for i in range(int(SUM_START[r]), int(SUM_START[r + 1])):
                if SUM_SIZE[i] <= max_sum_cards and holds_packed(table, int(SUM_PACKED[i])):
                    held[key] |= 1 << i
                    count[key] += 1 << (4 * r)
                    if first_largest == NO_SUM or SUM_SIZE[i] > SUM_SIZE[first_largest]:
                        first_largest = i
            if r < N_NUMERIC:
                largest[key] |= first_largest << (6 * r)
    firsts = sum(int(SUM_START[r]) << (6 * r) for r in range(N_NUMERIC))
    sums = np.concatenate(
        [SUM_START, SUM_PACKED.astype(np.int64), SUM_SIZE, held, count, largest, [firsts]]
    ).astype(np.int64)
    sums.flags.writeable = False
    return sums


@njit(cache=True, inline="always")
def sum_key(table: np.int64) -> np.int64:
    """Key of the packed ``table`` in the held-bases table (:data:`.layout.SUM_KEY_CAPS`)."""
    return (
        (table & 15)
        | min((table >> 4) & 15, 3) << 3
        | min((table >> 8) & 15, 2) << 5
        | min((table >> 12) & 15, 1) << 7
        | min((table >> 16) & 15, 1) << 8
        | min((table >> 20) & 15, 1) << 9
    )


NIBBLE_ONES = 0x1111111111  # bit 0 of each rank's 4-bit field


@njit(cache=True, inline="always")
def occupied(packed: np.int64) -> np.int64:
    """1 in every non-zero 4-bit field of ``packed`` (a rank present in a hand or table, a rank
    with options...), 0 elsewhere (SWAR)."""
    return (packed | (packed >> 1) | (packed >> 2) | (packed >> 3)) & NIBBLE_ONES


@njit(cache=True, inline="always")
def rank_options(hand: np.int64, captures: np.int64, capture_compulsory: np.int64) -> np.int64:
    """Number of legal plays of every rank held, packed 4 bits per rank (0 for ranks not held).

    ``captures``: the capture options of every played rank on the table (a match, R5.1, plus the
    allowed sum bases held, R5.2), packed 4 bits per rank: ``sums[SUMS_COUNT + sum_key(table)]
    + occupied(table)``. Adds the trail (R5.5; under ``capture_compulsory``
    only to a rank without capture). At most 1 + 1 + 12 = 14.
    """
    if capture_compulsory == 0:
        options = captures + NIBBLE_ONES
    else:
        options = captures + (~occupied(captures) & NIBBLE_ONES)
    return options & (occupied(hand) * 15)


@njit(cache=True, inline="always")
def count_plays(hand: np.int64, captures: np.int64, capture_compulsory: np.int64) -> np.int64:
    """Number of legal plays of a hand: the length of the canonical list (contract 3).

    ``captures`` as in :func:`rank_options`.
    """
    options = rank_options(hand, captures, capture_compulsory)
    return byte_sum((options & 0x0F0F0F0F0F) + ((options >> 4) & 0x0F0F0F0F0F))


@njit(cache=True, inline="always")
def select_play(
    hand: np.int64,
    table: np.int64,
    captures: np.int64,
    held: np.int64,
    firsts: np.int64,
    capture_compulsory: np.int64,
    k: np.int64,
) -> tuple[np.int64, np.int64, np.int64]:
    """Play ``k`` of the canonical list of legal plays (contract 3), without building the list.

    The list: for each rank held, ascending, the trail (R5.5; under ``capture_compulsory`` only
    when that rank has no capture), the match (R5.1), then the sum bases (R5.2, R5.3) the table
    holds with at most ``max_sum_cards`` cards, in the order of the sum tables.

    ``captures`` as in :func:`rank_options`; ``held`` is the bit mask of the allowed sum bases
    the table holds, ``sums[SUMS_HELD + sum_key(table)]``; ``firsts`` is ``sums[SUMS_FIRST]``;
    ``0 <= k <`` :func:`count_plays`.
    Returns ``(rank, kind, i)``: ``i`` is the index of the sum base in the sum tables for a
    sum, -1 otherwise. Scalars only, so that the call costs no reference counting.
    """
    options = rank_options(hand, captures, capture_compulsory)
    # The chosen rank is the number of ranks whose options all come before k; branch-free,
    # as the walk's exit would be mispredicted.
    r = 0
    before = 0
    end = 0
    for j in range(10):
        c = (options >> (4 * j)) & 15
        end += c
        passed = np.int64(end <= k)
        r += passed
        before += passed * c
    k -= before
    if capture_compulsory == 0 or (captures >> (4 * r)) & 15 == 0:
        if k == 0:
            return r, KIND_TRAIL, -1
        k -= 1
    if (table >> (4 * r)) & 15 != 0:
        if k == 0:
            return r, KIND_MATCH, -1
        k -= 1
    i = (firsts >> (6 * r)) & 63
    bits = held >> i
    while bits & 1 == 0 or k > 0:
        k -= bits & 1
        bits >>= 1
        i += 1
    return r, KIND_SUM, i


@njit(cache=True, inline="always")
def legal(hand: np.int64, table: np.int64, rules, sums: np.ndarray) -> Legal:
    """The legal plays of ``hand`` on ``table`` (:class:`.state.Legal`: the arguments of
    :func:`select_play` and their number, :func:`count_plays`); ``rules`` the kernel rules,
    ``sums`` the kernel sum tables."""
    key = sum_key(table)
    captures = sums[SUMS_COUNT + key] + occupied(table)
    compulsory = rules.capture_compulsory
    return Legal(
        hand,
        table,
        captures,
        sums[SUMS_HELD + key],
        sums[SUMS_FIRST],
        compulsory,
        count_plays(hand, captures, compulsory),
    )


@njit(cache=True, inline="always")
def nth_play(plays: Legal, k: np.int64) -> tuple[np.int64, np.int64, np.int64]:
    """Play ``k`` (``0 <= k < plays.n``) of the canonical list: :func:`select_play` on
    ``plays`` (:func:`legal`). Returns ``(rank, kind, i)``."""
    return select_play(
        plays.hand, plays.table, plays.captures, plays.held, plays.firsts, plays.compulsory, k
    )


@njit(cache=True)
def best_play(
    policy: np.int64,
    hand: np.int64,
    captures: np.int64,
    key: np.int64,
    turn: Turn,
    rules,
    sums: np.ndarray,
) -> tuple[np.int64, np.int64, np.int64]:
    """The first play of the canonical list (:func:`select_play`) with the largest
    :func:`cuarenta_sim.cuarenta.policies.kernel.play_key` (deterministic policies, contract 6).

    Scans the canonical order without building the list; the points and cards of each play
    are those of :func:`play_outcome`. ``hand`` is the packed hand, ``turn`` the table side
    (:class:`.state.Turn`); ``captures`` as in :func:`select_play`, ``key`` is :func:`sum_key`
    of the table. Returns ``(rank, kind, i)`` like :func:`select_play`.

    For ``greedy`` without ``caida_by_sum`` only the first of the largest sum bases of a rank
    is considered: a sum then scores only a limpia (R7.1), which needs the largest base, and
    more cards rank higher (contract 6), so no other sum can be first.
    """
    compulsory = rules.capture_compulsory
    table = turn.table
    options = rank_options(hand, captures, compulsory)
    held = sums[SUMS_HELD + key]
    largest_only = policy == POLICY_GREEDY and rules.caida_by_sum == 0
    largest = sums[SUMS_LARGEST + key]
    held_ranks = occupied(options)
    capture_ranks = occupied(captures) & held_ranks
    trail_ranks = held_ranks if compulsory == 0 else held_ranks & ~capture_ranks
    best = np.int64(-1)
    best_rank = -1
    best_kind = KIND_TRAIL
    best_i = -1
    if trail_ranks != 0:
        # All trails score alike: the first one, the lowest rank, stands for them.
        best = play_key(policy, 0, 0)
        best_rank = lowest_field(trail_ranks)
    while capture_ranks != 0:
        r = lowest_field(capture_ranks)
        capture_ranks &= capture_ranks - 1
        # A capture equal to a trail of its own or a higher rank comes first (contract 3).
        trail_after = best_kind == KIND_TRAIL and best_rank >= r
        run = run_length(table, r)
        if (table >> (4 * r)) & 15 != 0:
            value = _capture_key(
                policy, rules, r, KIND_MATCH, np.int64(1) << (4 * r), np.int64(1), run, turn
            )
            if value > best or (value == best and trail_after):
                best, best_rank, best_kind, best_i = value, r, KIND_MATCH, -1
                trail_after = False
        if r >= N_NUMERIC:
            continue
        first = sums[SUMS_START + r]
        if largest_only:
            i = (largest >> (6 * r)) & 63
            bits = np.int64(0) if i == NO_SUM else np.int64(1)
        else:
            i = first
            bits = (held >> first) & ((np.int64(1) << (sums[SUMS_START + r + 1] - first)) - 1)
        while bits != 0:
            if bits & 1 != 0:
                value = _capture_key(
                    policy,
                    rules,
                    r,
                    KIND_SUM,
                    sums[SUMS_PACKED + i],
                    sums[SUMS_SIZE + i],
                    run,
                    turn,
                )
                if value > best or (value == best and trail_after):
                    best, best_rank, best_kind, best_i = value, r, KIND_SUM, i
                    trail_after = False
            bits >>= 1
            i += 1
    return best_rank, best_kind, best_i


@njit(cache=True, inline="always")
def _capture_key(policy, rules, rank, kind, base, nbase, run, turn):
    """The :func:`cuarenta_sim.cuarenta.policies.kernel.play_key` of a capture."""
    _c, _e, _l, now, lim, claim = capture_points(rules, rank, kind, base, nbase, run, turn)
    return play_key(policy, now + lim + claim, 1 + nbase + run)


@njit(cache=True, inline="always")
def play_outcome(
    rules,
    rank: np.int64,
    kind: np.int64,
    base: np.int64,
    nbase: np.int64,
    turn: Turn,
) -> tuple[np.int64, bool, bool, bool, np.int64, np.int64, np.int64]:
    """Events and points of a capture (contract section 4; R5.4, R6, R7, R9.1).

    Parameters
    ----------
    rules : KernelRules
        The switches (``caida_by_sum``, ``caida_limpia_cumulative``, ``ronda_blocked_from``,
        ``caida_en_ronda_points``, ``caida_en_ronda_end_of_deal``, ``at_38``, ``target``).
    rank, kind, base, nbase : int
        The play (a capture: ``kind`` is match or sum), its packed base and the base's cards.
    turn : Turn
        The table before the play, the previous trail and the acting side's score
        (:class:`.state.Turn`).

    Returns
    -------
    tuple
        ``(run, caida, caida_en_ronda, limpia, caida_now, limpia_points, claim)``: cards taken
        by the run (:func:`run_length`) and the result of :func:`capture_points`.
    """
    run = run_length(turn.table, rank)
    caida, en_ronda, limpia, now, lim, claim = capture_points(
        rules, rank, kind, base, nbase, run, turn
    )
    return run, caida, en_ronda, limpia, now, lim, claim


@njit(cache=True, inline="always")
def apply_play(
    rules,
    sums: np.ndarray,
    rank: np.int64,
    kind: np.int64,
    i: np.int64,
    turn: Turn,
) -> tuple[
    np.int64, np.int64, np.int64, np.int64, np.int64, bool, bool, bool, np.int64, np.int64, np.int64
]:
    """One play on the table: the step every kernel takes (contract section 4; R5-R7, R9.1).

    The single implementation of what a play does to the table and what it scores, used by the
    simulator (:func:`cuarenta_sim.cuarenta.engine.play.play_data`), pimc's playouts
    (:func:`cuarenta_sim.cuarenta.engine.pimc.playout`) and the exact solver
    (:mod:`cuarenta_sim.cuarenta.engine.solver`). The caller keeps the hand, the previous trail,
    the pile, the last capturer, the claims and the scores: a trail (``taken == 0``) becomes the
    previous trail; a capture clears it, makes the side the last capturer (R8.1) and adds
    ``taken`` cards to its pile.

    Parameters
    ----------
    rules : KernelRules
        :meth:`cuarenta_sim.cuarenta.rules.RuleSet.to_kernel`.
    sums : ndarray of int64, shape (N_SUMS,)
        Sum tables (:mod:`cuarenta_sim.cuarenta.engine.layout`).
    rank, kind, i : int
        The play, as :func:`select_play` returns it (``i``: the sum base's index, for a sum).
    turn : Turn
        The table before the play and its cards, the previous trail (-1 if none, R6.1) and
        whether it is a ronda rank of the trailing seat in this deal (R6.4), the acting side's
        score before the play (R6.4 block, R9.1): :class:`.state.Turn`.

    Returns
    -------
    tuple
        ``(table, table_cards, base, taken, run, caida, caida_en_ronda, limpia, caida_now,
        limpia_points, claim)``: the table after the play and its card count; the packed base
        (0 for a trail); the cards that go to the side's pile (played card + base + run, 0 for
        a trail); then as :func:`play_outcome` (all zero / false for a trail). The points
        credited now are ``caida_now + limpia_points``; ``claim`` is credited at the end of the
        deal (R6.4 ``end_of_deal``).
    """
    bit = np.int64(1) << (4 * rank)
    table = turn.table
    table_cards = turn.table_cards
    if kind == KIND_TRAIL:
        zero = np.int64(0)
        return (
            table + bit, table_cards + 1, zero, zero, zero, False, False, False, zero, zero, zero
        )  # fmt: skip
    if kind == KIND_SUM:
        base = sums[SUMS_PACKED + i]
        nbase = sums[SUMS_SIZE + i]
    else:
        base = bit
        nbase = np.int64(1)
    run, caida, en_ronda, limpia, now, lim, claim = play_outcome(
        rules, rank, kind, base, nbase, turn
    )
    # Remove the base, then one card of each rank rank + 1 .. rank + run (R5.4).
    table -= base + ((NIBBLE_ONES & ((np.int64(1) << (4 * run)) - 1)) << (4 * (rank + 1)))
    return (
        table,
        table_cards - nbase - run,
        base,
        1 + nbase + run,
        run,
        caida,
        en_ronda,
        limpia,
        now,
        lim,
        claim,
    )


@njit(cache=True, inline="always")
def announcement(
    rules, hand: np.int64, ronda_mask: np.int64, score: np.int64, check_target: bool
) -> tuple[np.int64, np.int64, np.int64, bool]:
    """A seat's ronda announcement after a deal (R4.1-R4.3, R9.1; contract 5, step 1).

    The single implementation of an announcement's value, used by the simulator
    (:func:`cuarenta_sim.cuarenta.engine.play.play_data`) and the batched RL environment
    (:mod:`cuarenta_sim.rl.batched_kernel`).

    Parameters
    ----------
    rules : KernelRules
        The switches.
    hand : int64
        The seat's packed hand as dealt.
    ronda_mask : int64
        Its ronda ranks (bit 3 of the rank's 4-bit field set), non-zero: five cards hold at
        most one ronda.
    score : int
        The side's score at the start of the step.
    check_target : bool
        A chica is being played (a ``win_chica`` doble ronda then wins it, R4.2).

    Returns
    -------
    tuple
        ``(rank, flag, points, win)``: the ronda rank, 1 ronda or 2 doble ronda, the points
        credited (0 when blocked by ``ronda_blocked_from`` or the 38 rule, and for a
        ``win_chica`` doble ronda, which instead sets ``win``).
    """
    r = lowest_field(ronda_mask)
    win = False
    if (hand >> (4 * r)) & 15 == 4:
        flag = np.int64(2)
        pts = np.int64(rules.doble_ronda_points)
        if pts < 0:  # win_chica: wins at any score; nothing credited (R4.2, R4.3)
            pts = np.int64(0)
            win = check_target
    else:
        flag = np.int64(1)
        pts = np.int64(rules.ronda_points)
    # The 38 rule's caida_or_carton and only_caida block rondas (R9.1).
    at_38_blocks = rules.at_38 == AT38_CAIDA_OR_CARTON or rules.at_38 == AT38_ONLY_CAIDA
    if score >= rules.ronda_blocked_from or (score == rules.target - 2 and at_38_blocks):
        pts = np.int64(0)
    return r, flag, pts, win


@njit(cache=True, inline="always")
def end_of_data_points(
    rules,
    dealer: np.int64,
    pile0: np.int64,
    pile1: np.int64,
    table_cards: np.int64,
    last_capturer: np.int64,
    score0: np.int64,
    score1: np.int64,
) -> tuple[np.int64, np.int64, np.int64, np.int64, np.int64, np.int64, bool, bool]:
    """The end-of-data count (R8, R9.1; contract 5 "End of data"), before crediting.

    The single implementation of the count, used by the simulator, pimc's playouts and the
    exact solver; credit its points in the order of :func:`end_credit`.

    Parameters
    ----------
    rules : KernelRules
        The switches.
    dealer : int
        The dealer seat (the non-dealer side ``(dealer + 1) % 2`` wins ties, R8.3, R8.4).
    pile0, pile1 : int
        Cards captured by each side after the last play (before leftovers).
    table_cards : int
        Cards left on the table.
    last_capturer : int
        Side of the data's last capture, -1 if none (R8.1).
    score0, score1 : int
        Scores at the start of the step: the carton block (R8.6) and the 38 rule (R9.1) look
        at them.

    Returns
    -------
    tuple
        ``(pile0, pile1, count0, count1, falla0, falla1, carton0, carton1)``: the piles after
        leftovers (R8.1, never a limpia: R7.3), the count points of each side (carton R8.2 with
        the R8.6 block, 20-20 tie R8.3, both under 20 R8.4), the falla points each side
        receives (R8.5), after the 38 rule; ``carton_k`` is true when side ``k``'s count is a
        carton (even if blocked).
    """
    bare0 = pile0 == 0
    bare1 = pile1 == 0
    if rules.leftovers_to_last_capturer != 0 and last_capturer >= 0:
        if last_capturer == 0:
            pile0 += table_cards
        else:
            pile1 += table_cards
    non_dealer = (dealer + 1) & 1
    count0 = np.int64(0)
    count1 = np.int64(0)
    carton0 = False
    carton1 = False
    if pile0 >= 20 and pile0 > pile1:  # carton (R8.2, R8.6)
        carton0 = True
        if score0 < rules.carton_blocked_from:
            count0 = carton_points(pile0)
    elif pile1 >= 20 and pile1 > pile0:
        carton1 = True
        if score1 < rules.carton_blocked_from:
            count1 = carton_points(pile1)
    elif pile0 == 20 and pile1 == 20:  # R8.3
        if non_dealer == 0:
            count0 = np.int64(rules.tie_points_20)
        else:
            count1 = np.int64(rules.tie_points_20)
    elif pile0 > pile1:  # R8.4
        count0 = np.int64(2)
    elif pile1 > pile0:
        count1 = np.int64(2)
    elif non_dealer == 0:
        count0 = np.int64(2)
    else:
        count1 = np.int64(2)
    falla0 = np.int64(rules.falla_points if bare1 else 0)  # R8.5: received by side 0
    falla1 = np.int64(rules.falla_points if bare0 else 0)
    # 38 rule (R9.1): only_caida blocks every count; it and caida_or_carton block falla.
    only_caida = rules.at_38 == AT38_ONLY_CAIDA
    blocks_falla = only_caida or rules.at_38 == AT38_CAIDA_OR_CARTON
    at_38_score = rules.target - 2
    if score0 == at_38_score:
        if only_caida:
            count0 = np.int64(0)
        if blocks_falla:
            falla0 = np.int64(0)
    if score1 == at_38_score:
        if only_caida:
            count1 = np.int64(0)
        if blocks_falla:
            falla1 = np.int64(0)
    return pile0, pile1, count0, count1, falla0, falla1, carton0, carton1


@njit(cache=True, inline="always")
def end_credit(
    k: np.int64,
    dealer: np.int64,
    count0: np.int64,
    count1: np.int64,
    falla0: np.int64,
    falla1: np.int64,
) -> tuple[np.int64, np.int64, bool]:
    """Credit ``k`` (0..3) of the end-of-data count, in the order of contract 5 (R9.2).

    The count points of the non-dealer side, of the dealer side, then the falla points
    received by the non-dealer side, by the dealer side. Returns ``(side, points, is_count)``;
    the caller credits ``points`` to ``side`` and checks the target after each.
    """
    non_dealer = (dealer + 1) & 1
    side = non_dealer if k % 2 == 0 else 1 - non_dealer
    if k < 2:
        return side, count0 if side == 0 else count1, True
    return side, falla0 if side == 0 else falla1, False


@njit(cache=True, inline="always")
def claim_credit(
    k: np.int64, first_claim: np.int64, claims0: np.int64, claims1: np.int64
) -> tuple[np.int64, np.int64]:
    """Credit ``k`` (0, 1) of the end-of-deal claims (R6.4 ``end_of_deal``; contract 5).

    The side that claimed first in the deal (``first_claim``), then the other; returns
    ``(side, points)`` (points may be 0). The caller credits them and checks the target after
    each, as for every credit (R9.2).
    """
    side = first_claim if k == 0 else 1 - first_claim
    return side, claims0 if side == 0 else claims1


@njit(cache=True, inline="always")
def add_claim(
    side: np.int64, claim: np.int64, claims0: np.int64, claims1: np.int64, first_claim: np.int64
) -> tuple[np.int64, np.int64, np.int64]:
    """Record ``claim`` points claimed by ``side`` for the end of the deal (R6.4
    ``end_of_deal``): returns the deal's claims per side and its first claimer (-1 if none)
    after it; a claim of 0 changes nothing. :func:`claim_credit` credits them."""
    if claim > 0:
        if side == 0:
            claims0 += claim
        else:
            claims1 += claim
        if first_claim < 0:
            first_claim = side
    return claims0, claims1, first_claim


@njit(cache=True, inline="always")
def capture_points(
    rules,
    rank: np.int64,
    kind: np.int64,
    base: np.int64,
    nbase: np.int64,
    run: np.int64,
    turn: Turn,
) -> tuple[bool, bool, bool, np.int64, np.int64, np.int64]:
    """Events and points of a capture whose run takes ``run`` cards (contract section 4).

    Parameters as in :func:`play_outcome` (``turn.table`` is not read). Returns ``(caida,
    caida_en_ronda, limpia, caida_now, limpia_points, claim)``: the three events (R6.1-R6.4,
    R7.1); points credited now for the caida and for the limpia (R7.2, R9.1); points claimed
    for the end of the deal (a bonus caida en ronda under ``end_of_deal``).
    """
    prev_rank = turn.prev_rank
    score = turn.score
    caida_by_sum = rules.caida_by_sum
    ronda_blocked_from = rules.ronda_blocked_from
    at_38 = rules.at_38
    limpia = turn.table_cards - nbase - run == 0
    caida = False
    if prev_rank >= 0:
        if kind == KIND_MATCH:
            caida = rank == prev_rank
        elif caida_by_sum != 0:
            caida = (base >> (4 * prev_rank)) & 15 != 0
    en_ronda = caida and turn.prev_in_ronda
    caida_points = 0
    claim = 0
    if caida:
        caida_points = 2
        if en_ronda and score < ronda_blocked_from:
            caida_points = rules.caida_en_ronda_points
            if rules.caida_en_ronda_end_of_deal != 0:
                claim = caida_points
                caida_points = 0
    limpia_points = 0
    at_38_blocks = score == rules.target - 2 and at_38 != AT38_NONE  # R9.1: no limpia at 38
    if limpia and not (caida and rules.caida_limpia_cumulative == 0) and not at_38_blocks:
        limpia_points = 2
    return caida, en_ronda, limpia, caida_points, limpia_points, claim


@njit(cache=True, inline="always")
def carton_points(cards: np.int64) -> np.int64:
    """Carton points for a pile of ``cards >= 20`` (R8.2): ``n - 14`` even, ``n - 13`` odd."""
    return cards - 14 + (cards & 1)
