"""Exact perfect-information solver of the play of a Cuatrola hand, in numba (issue 22 item 1).

Alpha-beta over the remaining tricks of a hand with every hand known, the declarer's partner
sitting out a contract (C2.2), cantes (C4, as the built-in behaviour makes them,
``docs/cuatrola_contract.md`` section 5) and the last trick's 10 (C1.3). The value convention
is the brute force's (:mod:`cuarenta_sim.cuatrola.reference.solver`): **card points the pair
of the seat to move takes from the position to the end of the hand (the cards already in the
current trick, +10 for the fifth trick, cantes) minus the other side's**, every seat playing
perfectly for its side (the lone declarer against the two defenders); points won before the
position do not count. In a cuatrola or quintola (no cantes, C4.3) it is still the card-point
difference.

The typed state is one int64 array of :data:`STATE_SIZE` (offsets ``S_*``): the four hands as
20-bit masks, trump, the seat sitting out (-1 none), whether cantes are made, the suits sung
(4-bit mask), the current trick (cards and seats at the offsets :func:`.tricks.legal_mask`
reads), the seat to move and the trick number. The search plays and unplays in that array (no
allocation in the hot loop) and keeps a transposition table at trick starts (an ``int64``
array of :data:`TT_SIZE` x 4: two key words, value, bound), whose entries are tagged with a
generation so that a new solve needs no clearing.

Speed (one thread, shared 2-core machine, ``solve_batch`` from the first play of a hand, every
legal card valued): about 140 positions/s with four players and 460/s with three; the table
makes that 2.5 times faster than with a single entry (58/s and 174/s). Late in a hand (at most
12 plays left) thousands per second: ``python benchmarks/run.py cuatrola-solve``.

Public API: :class:`Solver`, :func:`state_of`, :func:`new_table`, :func:`solve_values`,
:func:`solve_batch`, :func:`warmup`.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..reference.solver import SolvePosition
from .tricks import POINTS, RANK_OF, bit_index, cante, legal_mask, popcount, trick_winner_pos

S_HANDS = 0  # 4 hand masks (the seat sitting out: 0)
S_TRUMP = 4
S_OUT = 5  # seat sitting out, -1 with all four playing
S_CANTES = 6  # 1 when cantes are made (no contract, solo: C4.3)
S_SUNG = 7  # mask of the suits sung
S_NT = 8  # cards in the current trick
S_TRICK = 9  # its cards (4 slots), then its seats at S_TRICK + 4 (legal_mask's layout)
S_SEAT = 17  # seat to move
S_TRICK_NO = 18  # 0..4
STATE_SIZE = 19
#: Entries of the transposition table (a power of two).
TT_SIZE = 1 << 16
_EXACT, _LOWER, _UPPER = 1, 2, 3
#: Above any value (|value| <= 130 card points + 100 of cantes).
INF = 10_000


def state_of(p: SolvePosition) -> np.ndarray:
    """The typed state (module docstring) of a :class:`SolvePosition`: int64 of
    :data:`STATE_SIZE`."""
    st = np.zeros(STATE_SIZE, dtype=np.int64)
    for s in range(4):
        st[S_HANDS + s] = sum(1 << c for c in p.hands[s])
    st[S_TRUMP] = p.trump
    st[S_OUT] = p.sits_out
    st[S_CANTES] = 1 if p.contract in (0, 1) else 0
    st[S_SUNG] = sum(1 << s for s in p.sung)
    st[S_NT] = len(p.trick)
    for i, (c, s) in enumerate(zip(p.trick, p.trick_seats, strict=True)):
        st[S_TRICK + i] = c
        st[S_TRICK + 4 + i] = s
    st[S_SEAT] = p.seat
    st[S_TRICK_NO] = p.trick_no
    return st


def new_table() -> np.ndarray:
    """An empty transposition table: int64 ``(TT_SIZE, 4)``."""
    return np.zeros((TT_SIZE, 4), dtype=np.int64)


@njit(cache=True, inline="always")
def _next_seat(st: np.ndarray, seat: np.int64) -> np.int64:
    s = (seat + 1) % 4
    if s == st[S_OUT]:
        s = (s + 1) % 4
    return s


@njit(cache=True)
def _search(
    st: np.ndarray, alpha: np.int64, beta: np.int64, tt: np.ndarray, gen: np.int64
) -> np.int64:
    """Value of ``st`` for the seat to move's pair (module docstring), fail-soft alpha-beta
    in the window ``(alpha, beta)``; ``st`` is restored on return. A full trick
    (``st[S_NT]`` = the players) is closed first, valued for the pair of its last player
    (``st[S_SEAT]``); one self-recursive function, as numba compiles no mutual recursion."""
    players = 3 if st[S_OUT] >= 0 else 4
    if st[S_NT] == players:
        # The trick holds its last card (played by the seat to move): its winner (C3.5),
        # points (C1.3, +10 on the fifth), the cante (C4), then the rest of the hand.
        side = st[S_SEAT] % 2
        trump = st[S_TRUMP]
        winner = st[S_TRICK + 4 + trick_winner_pos(st, S_TRICK, players, trump)]
        pts = np.int64(0)
        for i in range(players):
            pts += POINTS[RANK_OF[st[S_TRICK + i]]]
        trick_no = st[S_TRICK_NO]
        if trick_no == 4:
            pts += 10
            return pts if winner % 2 == side else -pts
        sung = st[S_SUNG]
        if st[S_CANTES]:
            _singer, suit, cval = cante(st, S_HANDS, winner, st[S_OUT], trump, sung)
            if suit >= 0:
                pts += cval
                st[S_SUNG] = sung | (np.int64(1) << suit)
        last = st[S_SEAT]
        c0, c1, c2, c3 = st[S_TRICK], st[S_TRICK + 1], st[S_TRICK + 2], st[S_TRICK + 3]
        s0, s1, s2, s3 = st[S_TRICK + 4], st[S_TRICK + 5], st[S_TRICK + 6], st[S_TRICK + 7]
        st[S_NT] = 0
        st[S_SEAT] = winner
        st[S_TRICK_NO] = trick_no + 1
        if winner % 2 == side:
            v = pts + _search(st, alpha - pts, beta - pts, tt, gen)
        else:
            v = -pts - _search(st, -beta - pts, -alpha - pts, tt, gen)
        st[S_TRICK_NO] = trick_no
        st[S_SUNG] = sung
        st[S_TRICK], st[S_TRICK + 1], st[S_TRICK + 2], st[S_TRICK + 3] = c0, c1, c2, c3
        st[S_TRICK + 4], st[S_TRICK + 5], st[S_TRICK + 6], st[S_TRICK + 7] = s0, s1, s2, s3
        st[S_NT] = players
        st[S_SEAT] = last
        return v
    seat = st[S_SEAT]
    side = seat % 2
    nt = st[S_NT]
    trump = st[S_TRUMP]
    slot = np.int64(-1)
    k1 = np.int64(0)
    k2 = np.int64(0)
    alpha0 = alpha
    if nt == 0:
        k1 = st[S_HANDS] | (st[S_HANDS + 1] << 20) | (seat << 40) | (st[S_SUNG] << 42)
        k2 = st[S_HANDS + 2] | (st[S_HANDS + 3] << 20) | (gen << 40)
        slot = ((k1 * 0x9E3779B97F4A7C15) ^ (k2 * 0xC2B2AE3D27D4EB4F)) >> 40
        slot = slot & (tt.shape[0] - 1)
        if tt[slot, 0] == k1 and tt[slot, 1] == k2:
            v = tt[slot, 2]
            flag = tt[slot, 3]
            if flag == _EXACT:
                return v
            if flag == _LOWER and v > alpha:
                alpha = v
            elif flag == _UPPER and v < beta:
                beta = v
            if alpha >= beta:
                return v
    hand = st[S_HANDS + seat]
    legal = legal_mask(hand, st, S_TRICK, nt, trump)
    best = -INF
    m = legal
    while m:
        low = m & -m
        m ^= low
        card = bit_index(low)
        st[S_HANDS + seat] = hand ^ low
        st[S_TRICK + nt] = card
        st[S_TRICK + 4 + nt] = seat
        nxt = _next_seat(st, seat) if nt + 1 < players else seat
        st[S_NT] = nt + 1
        st[S_SEAT] = nxt
        if nxt % 2 == side:
            v = _search(st, alpha, beta, tt, gen)
        else:
            v = -_search(st, -beta, -alpha, tt, gen)
        st[S_NT] = nt
        st[S_SEAT] = seat
        st[S_HANDS + seat] = hand
        if v > best:
            best = v
            if v > alpha:
                alpha = v
                if alpha >= beta:
                    break
    if slot >= 0:
        tt[slot, 0] = k1
        tt[slot, 1] = k2
        tt[slot, 2] = best
        tt[slot, 3] = _UPPER if best <= alpha0 else (_LOWER if best >= beta else _EXACT)
    return best


@njit(cache=True)
def _root_values(st: np.ndarray, tt: np.ndarray, gen: np.int64, out: np.ndarray) -> np.int64:
    """Exact value of every legal card of the seat to move into ``out[card]`` (the others
    untouched); returns the legal mask. ``st`` is restored."""
    seat = st[S_SEAT]
    side = seat % 2
    nt = st[S_NT]
    players = 3 if st[S_OUT] >= 0 else 4
    hand = st[S_HANDS + seat]
    legal = legal_mask(hand, st, S_TRICK, nt, st[S_TRUMP])
    m = legal
    while m:
        low = m & -m
        m ^= low
        card = bit_index(low)
        st[S_HANDS + seat] = hand ^ low
        st[S_TRICK + nt] = card
        st[S_TRICK + 4 + nt] = seat
        nxt = _next_seat(st, seat) if nt + 1 < players else seat
        st[S_NT] = nt + 1
        st[S_SEAT] = nxt
        # int64 bounds, not the int literals: a second signature of the recursive _search
        # would be loaded broken from numba's cache (numba issue 6713: a segfault).
        v = _search(st, np.int64(-INF), np.int64(INF), tt, gen)
        if nxt % 2 != side:
            v = -v
        st[S_NT] = nt
        st[S_SEAT] = seat
        st[S_HANDS + seat] = hand
        out[card] = v
    return legal


@njit(cache=True)
def solve_batch(states: np.ndarray, tt: np.ndarray, gen0: np.int64, values: np.ndarray) -> np.int64:
    """Solve every row of ``states`` (``(n, STATE_SIZE)`` int64): ``values[i, card]`` the value
    of each legal card (the others set to ``-INF``); generations ``gen0 + 1 ..``. Returns the
    number of legal cards in all."""
    total = np.int64(0)
    for i in range(states.shape[0]):
        for c in range(20):
            values[i, c] = -INF
        legal = _root_values(states[i], tt, gen0 + 1 + i, values[i])
        total += popcount(legal)
    return total


class Solver:
    """A numba solver with its own transposition table (reuse one for many positions)."""

    def __init__(self) -> None:
        self.tt = new_table()
        self.gen = 0
        self._values = np.empty((1, 20), dtype=np.int64)

    def values(self, p: SolvePosition) -> list[tuple[int, int]]:
        """``(card, value)`` for every legal card of the seat to move, canonical order (value:
        module docstring).

        Raises
        ------
        ValueError
            The seat to move holds no card (the hand is over).
        """
        if not p.hands[p.seat]:
            raise ValueError(f"seat {p.seat} holds no card: nothing to solve")
        if self.gen >= (1 << 22):
            self.tt[:] = 0
            self.gen = 0
        solve_batch(state_of(p)[None, :], self.tt, np.int64(self.gen), self._values)
        self.gen += 1
        return [(c, int(v)) for c, v in enumerate(self._values[0]) if v > -INF]


_SOLVER: Solver | None = None


def solve_values(p: SolvePosition) -> list[tuple[int, int]]:
    """``(card, value)`` of every legal card of ``p``'s seat to move, canonical order, with a
    shared :class:`Solver` (module docstring: value convention).

    Raises
    ------
    ValueError
        The seat to move holds no card.
    """
    global _SOLVER
    if _SOLVER is None:
        _SOLVER = Solver()
    return _SOLVER.values(p)


def warmup() -> None:
    """Compile the kernels (cached on disk) on a tiny position."""
    from ..reference.solver import random_position

    solve_values(random_position("ro", 0, 0, 3))


__all__ = [
    "INF",
    "STATE_SIZE",
    "TT_SIZE",
    "Solver",
    "new_table",
    "solve_batch",
    "solve_values",
    "state_of",
    "warmup",
]
