"""Trick mechanics of the Cuatrola kernel on bitmasks: legal cards (C3.3), the winner (C3.5),
the ``greedy`` rule, cantes (C4) and hand scoring (C5); shared by the hand loop
(:mod:`.play`) and the lookahead's play-outs (:mod:`.pimc`).

A trick lives in the scratch array ``work``: cards at ``work[tb : tb + nt]`` and their seats
at ``work[tb + 4 : tb + 4 + nt]``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

#: Suit and rank of each card id (lookup tables are faster than division in the hot loop).
SUIT_OF = np.array([c // 5 for c in range(20)], dtype=np.int64)
RANK_OF = np.array([c % 5 for c in range(20)], dtype=np.int64)
POINTS = np.array([11, 10, 4, 3, 2], dtype=np.int64)
#: The four aces.
_ACES = np.int64(1 | 1 << 5 | 1 << 10 | 1 << 15)
VALUES = np.array([1, 2, 4, 5], dtype=np.int64)


@njit(cache=True, inline="always")
def suit_bits(suit: np.int64) -> np.int64:
    """Mask of the five cards of ``suit``."""
    return np.int64(31) << (5 * suit)


@njit(cache=True, inline="always")
def trick_tops(
    work: np.ndarray, tb: np.int64, nt: np.int64, trump: np.int64
) -> tuple[np.int64, bool, np.int64, np.int64]:
    """What the obligations (C3.3) read from the ``nt >= 1`` cards of the trick
    ``work[tb : tb + nt]``: the led suit, whether a trump was played, and the best (lowest)
    rank played of the led suit and of trumps (5 when none)."""
    led = SUIT_OF[work[tb]]
    trumped = False
    top_led = 5
    top_trump = 5
    for i in range(nt):
        c = work[tb + i]
        s = SUIT_OF[c]
        r = RANK_OF[c]
        if s == trump:
            trumped = True
            if r < top_trump:
                top_trump = r
        if s == led and r < top_led:
            top_led = r
    return led, trumped, top_led, top_trump


@njit(cache=True)
def legal_mask(
    hand: np.int64, work: np.ndarray, tb: np.int64, nt: np.int64, trump: np.int64
) -> np.int64:
    """Mask of the legal cards of ``hand`` on the trick ``work[tb : tb + nt]`` (contract
    section 4; the trick's seats are at ``work[tb + 4 : tb + 8]``)."""
    if nt == 0:
        return hand
    led, trumped, top_led, top_trump = trick_tops(work, tb, nt, trump)
    of_led = hand & suit_bits(led)
    if of_led != 0:
        if led != trump and trumped:
            return of_led
        beaters = of_led & (((np.int64(1) << top_led) - 1) << (5 * led))
        return beaters if beaters != 0 else of_led
    mine = hand & suit_bits(trump)
    if mine == 0:
        return hand
    if trumped:
        over = mine & (((np.int64(1) << top_trump) - 1) << (5 * trump))
        return over if over != 0 else hand
    return mine


@njit(cache=True, inline="always")
def _beats(c: np.int64, b: np.int64, led: np.int64, trump: np.int64) -> bool:
    """Whether card ``c`` played after the winning card ``b`` takes the lead (C3.5)."""
    cs = SUIT_OF[c]
    bs = SUIT_OF[b]
    if cs == bs:
        return RANK_OF[c] < RANK_OF[b]
    return cs == trump or (cs == led and bs != trump)


@njit(cache=True)
def trick_winner_pos(work: np.ndarray, tb: np.int64, nt: np.int64, trump: np.int64) -> np.int64:
    """Position of the winning card of the trick ``work[tb : tb + nt]`` (C3.5)."""
    led = SUIT_OF[work[tb]]
    best = 0
    for i in range(1, nt):
        if _beats(work[tb + i], work[tb + best], led, trump):
            best = i
    return best


@njit(cache=True, inline="always")
def _cheap(c: np.int64, trump: np.int64) -> np.int64:
    """Key of the greedy rule: non-trumps first, then fewer points, then weaker."""
    return (1000 if SUIT_OF[c] == trump else 0) + 10 * POINTS[RANK_OF[c]] - RANK_OF[c]


#: de Bruijn table: index of the single set bit ``b`` of a 32-bit word is
#: ``_DEBRUIJN[((b * 0x077CB531) >> 27) & 31]``.
_DEBRUIJN = np.array(
    [0, 1, 28, 2, 29, 14, 24, 3, 30, 22, 20, 15, 25, 17, 4, 8,
     31, 27, 13, 23, 21, 19, 16, 7, 26, 12, 18, 6, 11, 5, 10, 9],
    dtype=np.int64,
)  # fmt: skip


@njit(cache=True, inline="always")
def nth_bit(mask: np.int64, k: np.int64) -> np.int64:
    """Index of the ``k``-th set bit (from 0, ascending) of a 20-bit mask."""
    for _ in range(k):
        mask &= mask - 1
    return bit_index(mask & -mask)


@njit(cache=True, inline="always")
def bit_index(low: np.int64) -> np.int64:
    """Index of the single set bit of ``low`` (below 2**32)."""
    return _DEBRUIJN[((low * 0x077CB531) >> 27) & 31]


@njit(cache=True, inline="always")
def popcount(mask: np.int64) -> np.int64:
    """Number of set bits of a mask below 2**32 (SWAR)."""
    m = mask - ((mask >> 1) & 0x55555555)
    m = (m & 0x33333333) + ((m >> 2) & 0x33333333)
    m = (m + (m >> 4)) & 0x0F0F0F0F
    return ((m * 0x01010101) & 0xFFFFFFFF) >> 24


@njit(cache=True)
def _cheapest(pool: np.int64, trump: np.int64) -> np.int64:
    """The card of ``pool`` with the smallest :func:`_cheap` key (first in canonical order)."""
    best = -1
    best_key = 0
    m = pool
    while m:
        low = m & -m
        m ^= low
        c = bit_index(low)
        k = _cheap(c, trump)
        if best < 0 or k < best_key:
            best, best_key = c, k
    return best


@njit(cache=True)
def greedy_card(
    legal: np.int64,
    work: np.ndarray,
    tb: np.int64,
    nt: np.int64,
    seat: np.int64,
    partner_plays: bool,
    trump: np.int64,
) -> np.int64:
    """The ``greedy`` rule (:mod:`cuarenta_sim.cuatrola.policies`) on a legal mask."""
    plain = legal & ~suit_bits(trump)
    if nt == 0:
        aces = plain & _ACES
        if aces:
            return bit_index(aces & -aces)
        return _cheapest(legal, trump)
    wpos = trick_winner_pos(work, tb, nt, trump)
    if partner_plays and work[tb + 4 + wpos] == (seat + 2) % 4:
        if plain == 0:
            return _cheapest(legal, trump)
        best = -1
        best_key = 0
        m = plain
        while m:
            low = m & -m
            m ^= low
            c = bit_index(low)
            k = -10 * POINTS[RANK_OF[c]] - RANK_OF[c]
            if best < 0 or k < best_key:
                best, best_key = c, k
        return best
    led = SUIT_OF[work[tb]]
    top = work[tb + wpos]
    winning = np.int64(0)
    m = legal
    while m:
        low = m & -m
        m ^= low
        if _beats(bit_index(low), top, led, trump):
            winning |= low
    return _cheapest(winning if winning != 0 else legal, trump)


@njit(cache=True)
def cante(
    work: np.ndarray, hb: np.int64, winner: np.int64, out: np.int64, trump: np.int64, sung: np.int64
) -> tuple[np.int64, np.int64, np.int64]:
    """The cante made after ``winner`` wins a trick (contract section 5), with the hands at
    ``work[hb : hb + 4]``: ``(singer, suit, value)``, or ``(-1, -1, 0)`` if none."""
    partner = (winner + 2) % 4
    n_sing = 1 if partner == out else 2
    for v in range(2):
        for i in range(n_sing):
            singer = winner if i == 0 else partner
            h = work[hb + singer]
            for suit in range(4):
                if (suit == trump) != (v == 0) or (sung >> suit) & 1:
                    continue
                if (h >> (5 * suit + 2)) & 3 == 3:
                    return singer, suit, np.int64(40 if v == 0 else 20)
    return np.int64(-1), np.int64(-1), np.int64(0)


@njit(cache=True)
def score_hand(
    params,
    contract: np.int64,
    declarer: np.int64,
    mano: np.int64,
    pts0: np.int64,
    pts1: np.int64,
    tricks0: np.int64,
    tricks1: np.int64,
) -> tuple[np.int64, np.int64, np.int64]:
    """Game points of a hand per pair and ``made`` (1, 0, -1 without contract), C5."""
    gp0 = 0
    gp1 = 0
    mano_pair = mano % 2
    if contract == 0:
        if pts0 > pts1 or (pts0 == pts1 and mano_pair == 0):
            gp0 = 1
        else:
            gp1 = 1
        return gp0, gp1, -1
    side = declarer % 2
    mine = pts0 if side == 0 else pts1
    theirs = pts1 if side == 0 else pts0
    my_tricks = tricks0 if side == 0 else tricks1
    if contract == 1:
        ok = mine > theirs or (mine == theirs and mano_pair == side)
    elif contract == 2:
        ok = my_tricks >= 4
    else:
        ok = my_tricks == 5
    v = VALUES[contract]
    if ok:
        if side == 0:
            gp0 = v
        else:
            gp1 = v
    elif not params.failed_to_nobody:
        if side == 0:
            gp1 = v
        else:
            gp0 = v
    return gp0, gp1, 1 if ok else 0
