"""Exact perfect-information solver of a deal's end: alpha-beta over both sides (numba).

With every hand known, the rest of a deal is a two-player zero-sum game between the sides
(seats alternate sides, R2.1, so the player to move is always the other side's after every
turn). :func:`solve_position` gives the exact value of every legal play of the seat to move: the
deciding side's points minus the other side's from the position to the end of the deal, or,
in the last deal of a data, to the end of the data. Points are those of the game itself, from
the kernel's own step, claims and count (:func:`.moves.apply_play`, :func:`.moves.claim_credit`,
:func:`.moves.end_of_data_points`, :func:`.moves.end_credit`): caidas, limpias, caida en ronda
and its end-of-deal claims (R6, R7), the end-of-data count (R8) with every threshold and block
judged on the running scores (R4.3, R6.4, R8.6, R9.1); when a side reaches the target the
chica ends at once and nothing is credited after (R9.2). Rondas are not part of it: they are
announced before the deal's first play.

Value
-----
In integer units: ``unit`` per point of the deciding side minus the other side's;
``+ win_bonus`` when the deciding side wins the chica in the line, ``- win_bonus`` when
the other side does (only with ``check_target``); at a **deal horizon** (a deal that is not the
data's last: the search stops after its claims), ``+ leaf_cards`` per card the deciding side
captured since the root net of the other side's (unless the chica was won). The ``solve``
scenario uses ``unit = 1``, ``win_bonus = 0``, ``leaf_cards = 0`` (:class:`SolveOptions`).

Entry point
-----------
``solve_position(rules, sums, opts, pos, tt, values) -> n_legal`` with

* ``rules``: :meth:`cuarenta_sim.cuarenta.rules.RuleSet.to_kernel`; ``sums``:
  :func:`.moves.build_kernel_sums` of its ``max_sum_cards``;
* ``opts``: :class:`SolveOptions`;
* ``pos``: int64 array of length :data:`N_POS`, the full state in the kernel's representation
  (packed hands and table as in :mod:`.moves`, ronda masks as ``W_RONDA`` of
  :mod:`.layout`), offsets ``POS_*`` below; :func:`position_array` builds it from rank counts.
  It is the state pimc's playouts start from (:func:`.pimc.pimc_play`: the sampled hands, the
  public ronda masks, the table, the previous trail, scores, piles, last capturer) plus the
  claims of the deal so far;
* ``tt``: a :class:`SolverTable` from :func:`new_table` (the transposition table; it may be
  reused across calls: every call starts a new generation, so old entries are never read);
* ``values``: int64 array of at least :data:`MAX_MOVES` slots; ``values[k]`` receives the exact
  value of legal play ``k`` in the canonical order of contract section 3
  (:func:`.moves.select_play` ``k``).

It returns the number of legal plays. The search is allocation-free: the move buffers live in
``tt``; per call it visits ``tt.stats[STAT_NODES]`` nodes. Inputs are not validated (kernel).
A table is scratch of one search at a time: give every thread (``prange`` block) its own.
For a pimc-style policy, write each sampled full state into ``pos`` (its hands at
``POS_HANDS``, the public ronda masks at ``POS_RONDA``...) and average ``values`` over the
samples; before the last deal the value stops at the deal's end (``leaf_cards`` then stands for
the carton not reached, like pimc's ``depth=deal``).

Search
------
Negamax alpha-beta (fail-soft, principal variation search: every play after a node's first is
first tested with a null window) with a transposition table on an exact packed key of the
state (two int64 words: the table, the previous trail, the last capturer when it takes the
leftovers, side 0's pile; which of its root cards every seat still holds, 5 bits per seat, the
scores and the pending claims), so a stored value is never used for another state; bounds are
stored with their kind (exact, lower, upper) and the best play is tried first. Move ordering:
the table's play, then captures by points earned now (and claimed), then by cards captured,
then trails the next player cannot match (R6.1), then the other trails; within a class by a
history count of the plays found best; ties keep the canonical order. Each root play is
searched with a full window, so every value is exact.
Recursion is self-recursion only (numba's cache does not load mutually recursive functions).

Speed (``benchmarks/solver.py``, one thread, shared 2-core machine): from the start of the last
deal about 80 positions/s with 2 players (5,000 nodes each) and 0.5 positions/s with 4
players (700,000 nodes each); from a random turn of it, hundreds to thousands per second.

Not done (issue 12, item 1): :func:`.pimc.pimc_play` still takes 26 positional arguments;
:data:`N_POS` position arrays (this module) are the typed state a later refactor can pass.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

import numpy as np
from numba import njit

from ..rules import RuleSet
from .layout import SUMS_COUNT, SUMS_FIRST, SUMS_HELD
from .moves import (
    apply_play,
    build_kernel_sums,
    claim_credit,
    count_plays,
    end_credit,
    end_of_data_points,
    occupied,
    select_play,
    sum_key,
)

# ----------------------------------------------------------------------- position layout
#: Offsets in the position array (int64, :data:`N_POS`).
POS_PLAYERS = 0  # 2 or 4
POS_DEALER = 1  # the dealer seat
POS_DEAL = 2  # the deal, 0-based; the last one is 8 // players - 1
POS_TURN = 3  # turns already played in the deal, 0 .. 5 * players - 1
POS_HANDS = 4  # 4: packed hand per seat (4 bits per rank)
POS_RONDA = 8  # 4: per seat, bit 3 of a rank's field set for its ronda ranks of the deal (R4)
POS_TABLE = 12  # packed table
POS_TABLE_CARDS = 13  # cards on the table
POS_PREV_RANK = 14  # rank of the previous trail a caida may be made on, -1 if none (R6.1)
POS_SCORES = 15  # 2: side scores
POS_PILES = 17  # 2: cards captured per side in the data
POS_LAST_CAPTURER = 19  # side of the data's last capture, -1 if none (R8.1)
POS_CLAIMS = 20  # 2: points claimed in this deal, credited at its end (R6.4 end_of_deal)
POS_FIRST_CLAIM = 22  # side that claimed first in this deal, -1 if none
N_POS = 23

#: Largest number of legal plays of a turn: 5 ranks held, each a trail, a match and at most
#: 12 sums (:func:`.moves.rank_options`).
MAX_MOVES = 80
#: Turns in a deal at most (4 players x 5 cards).
MAX_TURNS = 20

# ----------------------------------------------------------------------- table entries
BOUND_EXACT = 1
BOUND_LOWER = 2
BOUND_UPPER = 3
#: ``stats`` slots of :class:`SolverTable`: the current generation, nodes searched in the last
#: call, table hits in the last call.
STAT_GENERATION = 0
STAT_NODES = 1
STAT_HITS = 2
N_STATS = 3

_INF = np.int64(1) << 50
_HISTORY_CAP = (1 << 20) - 1
# Keys hold scores / 2 in 11 bits and claims / 2 in 8 bits; a state outside is searched
# without the table (never wrongly shared).
_SCORE_LIMIT = 2 << 11
_CLAIM_LIMIT = 2 << 8


class SolveOptions(NamedTuple):
    """What the solver's value counts (module docstring, "Value").

    Attributes
    ----------
    check_target : int
        1: a side reaching the target wins the chica at once and nothing is credited after
        (R9.2; levels chica / mesa and scenarios); 0: scores grow past it (level data).
    unit : int
        Value of one point (1 for points, 1000 for pimc's milli-points).
    win_bonus : int
        Added for a chica won by the deciding side in the line, subtracted for one lost.
    leaf_cards : int
        At a deal horizon, per card captured by the deciding side since the root, net of the
        other side's.
    """

    check_target: int = 1
    unit: int = 1
    win_bonus: int = 0
    leaf_cards: int = 0


class SolverTable(NamedTuple):
    """The transposition table and search scratch (arrays, reused across calls).

    Attributes
    ----------
    key_a, key_b : ndarray of int64, shape (size,)
        The exact packed key of the stored state (module docstring).
    value : ndarray of int64, shape (size,)
        Its value for the side to move, or a bound of it.
    info : ndarray of int64, shape (size,)
        ``bound | move << 2 | generation << 16``: the kind of bound (:data:`BOUND_EXACT`...),
        the canonical index of the best play found, the call that stored it.
    moves : ndarray of int64, shape (MAX_TURNS + 1, MAX_MOVES)
        Per turn of the deal, the ordered plays of the node being searched.
    offsets : ndarray of int64, shape (40,)
        Per seat and rank, the number of the seat's root cards of lower rank (hand codes).
    history : ndarray of int64, shape (160,)
        Per seat, rank and play kind, how often such a play was best in the current call
        (weighted by the turns left; move ordering only).
    stats : ndarray of int64, shape (N_STATS,)
        Generation and counters (``STAT_*``).
    """

    key_a: np.ndarray
    key_b: np.ndarray
    value: np.ndarray
    info: np.ndarray
    moves: np.ndarray
    offsets: np.ndarray
    history: np.ndarray
    stats: np.ndarray


def new_table(bits: int = 18) -> SolverTable:
    """Return an empty :class:`SolverTable` of ``2**bits`` entries (32 bytes each).

    Parameters
    ----------
    bits : int
        0 .. 26; 0 gives a one-entry table (the search is then almost without it).

    Returns
    -------
    SolverTable

    Raises
    ------
    ValueError
        If ``bits`` is not a whole number from 0 to 26.
    """
    if isinstance(bits, bool) or not isinstance(bits, int) or not 0 <= bits <= 26:
        raise ValueError(f"bits must be a whole number from 0 to 26, got {bits!r}")
    size = 1 << bits
    return SolverTable(
        key_a=np.full(size, -1, dtype=np.int64),
        key_b=np.full(size, -1, dtype=np.int64),
        value=np.zeros(size, dtype=np.int64),
        info=np.zeros(size, dtype=np.int64),
        moves=np.zeros((MAX_TURNS + 1, MAX_MOVES), dtype=np.int64),
        offsets=np.zeros(40, dtype=np.int64),
        history=np.zeros(160, dtype=np.int64),
        stats=np.zeros(N_STATS, dtype=np.int64),
    )


@njit(cache=True, inline="always")
def _slot(ka: np.int64, kb: np.int64, size: np.int64) -> np.int64:
    """Table slot of a key (a 64-bit mix of both words; ``size`` a power of two)."""
    x = np.uint64(ka) ^ (np.uint64(kb) * np.uint64(0x9E3779B97F4A7C15))
    x ^= x >> np.uint64(31)
    x *= np.uint64(0xBF58476D1CE4E5B9)
    x ^= x >> np.uint64(29)
    return np.int64(x & np.uint64(size - 1))


@njit(cache=True)
def _deal_end(
    rules,
    opts,
    pos: np.ndarray,
    me: np.int64,
    s0: np.int64,
    s1: np.int64,
    p0: np.int64,
    p1: np.int64,
    table_cards: np.int64,
    last_capturer: np.int64,
    c0: np.int64,
    c1: np.int64,
    first_claim: np.int64,
) -> np.int64:
    """Value for side ``me`` of the end of the deal: its claims, first claimer first (R6.4,
    contract 5), then in the data's last deal the end-of-data count (R8), each credit followed
    by the target check (R9.2); at a deal horizon the leaf term."""
    target = rules.target
    check = opts.check_target != 0
    g0 = np.int64(0)
    g1 = np.int64(0)
    winner = -1
    if c0 > 0 or c1 > 0:
        for k in range(2):
            side, pts = claim_credit(k, first_claim, c0, c1)
            if pts == 0:
                continue
            if side == 0:
                s0 += pts
                g0 += pts
                reached = s0 >= target
            else:
                s1 += pts
                g1 += pts
                reached = s1 >= target
            if check and reached:
                winner = side
                break
    last_deal = pos[POS_DEAL] == 8 // pos[POS_PLAYERS] - 1
    if winner < 0 and last_deal:
        p0, p1, count0, count1, falla0, falla1, _c0, _c1 = end_of_data_points(
            rules, pos[POS_DEALER], p0, p1, table_cards, last_capturer, s0, s1
        )
        for k in range(4):
            side, pts, _is_count = end_credit(k, pos[POS_DEALER], count0, count1, falla0, falla1)
            if pts == 0:
                continue
            if side == 0:
                s0 += pts
                g0 += pts
                reached = s0 >= target
            else:
                s1 += pts
                g1 += pts
                reached = s1 >= target
            if check and reached:
                winner = side
                break
    v = opts.unit * (g0 - g1)
    if winner >= 0:
        v += opts.win_bonus if winner == 0 else -opts.win_bonus
    elif not last_deal and opts.leaf_cards != 0:
        root0 = pos[POS_PILES]
        root1 = pos[POS_PILES + 1]
        v += opts.leaf_cards * ((p0 - root0) - (p1 - root1))
    return v if me == 0 else -v


@njit(cache=True)
def _order(
    rules,
    sums: np.ndarray,
    tt,
    row: np.int64,
    seat: np.int64,
    hand: np.int64,
    next_hand: np.int64,
    table: np.int64,
    table_cards: np.int64,
    prev_rank: np.int64,
    prev_in_ronda: bool,
    score: np.int64,
    first: np.int64,
) -> np.int64:
    """Write the legal plays of a node to ``tt.moves[row]`` in search order; return how many.

    Entry: ``priority << 24 | (MAX_MOVES - 1 - k) << 16 | (i + 1) << 6 | kind << 4 | r`` for
    canonical play ``k`` = ``(r, kind, i)``, sorted descending: the table's play ``first`` (-1
    for none), then captures by points now plus claim, then cards captured, then trails; ties
    in canonical order.
    """
    key = sum_key(table)
    captures = sums[SUMS_COUNT + key] + occupied(table)
    held = sums[SUMS_HELD + key]
    firsts = sums[SUMS_FIRST]
    compulsory = rules.capture_compulsory
    n = count_plays(hand, captures, compulsory)
    buf = tt.moves[row]
    for k in range(n):
        r, kind, i = select_play(hand, table, captures, held, firsts, compulsory, k)
        _t, _tc, _b, taken, _r, _c, _e, _l, now, lim, claim = apply_play(
            rules, sums, r, kind, i, table, table_cards, prev_rank, prev_in_ronda, score
        )
        if k == first:
            priority = np.int64(1) << 38
        else:
            hist = min(tt.history[40 * seat + 4 * r + kind], _HISTORY_CAP)
            if taken > 0:
                priority = ((2 + 64 * (now + lim + claim) + taken) << 20) + hist
            elif (next_hand >> (4 * r)) & 15 == 0:
                priority = (np.int64(1) << 20) + hist  # a trail the next player cannot match
            else:
                priority = hist
        entry = (priority << 24) | ((MAX_MOVES - 1 - k) << 16) | ((i + 1) << 6) | (kind << 4) | r
        j = k
        while j > 0 and buf[j - 1] < entry:  # insertion sort, descending
            buf[j] = buf[j - 1]
            j -= 1
        buf[j] = entry
    return n


@njit(cache=True, inline="always")
def _advance(
    rules,
    sums: np.ndarray,
    opts,
    pos: np.ndarray,
    tt,
    code: np.int64,
    seat: np.int64,
    hand: np.int64,
    r: np.int64,
    kind: np.int64,
    i: np.int64,
    table: np.int64,
    table_cards: np.int64,
    prev_rank: np.int64,
    prev_in_ronda: bool,
    s0: np.int64,
    s1: np.int64,
    p0: np.int64,
    p1: np.int64,
    last_capturer: np.int64,
    c0: np.int64,
    c1: np.int64,
    first_claim: np.int64,
    last_turn: bool,
):
    """Play ``(r, kind, i)`` of ``seat`` with the kernel's step (:func:`.moves.apply_play`).

    Returns ``(done, value, code, table, table_cards, prev_rank, s0, s1, p0, p1,
    last_capturer, c0, c1, first_claim)``: when ``done`` (the chica was won, R9.2, or the play
    was the deal's last) ``value`` is the play's whole value for the side of ``seat``; else it
    is the value of the points the play earns now, and the rest is the next turn's state
    (``code``: its hand code).
    """
    side = seat & 1
    table, table_cards, _b, taken, _r, _c, _e, _l, now, lim, claim = apply_play(
        rules,
        sums,
        r,
        kind,
        i,
        table,
        table_cards,
        prev_rank,
        prev_in_ronda,
        s0 if side == 0 else s1,
    )
    pts = now + lim
    gain = opts.unit * pts
    if side == 0:
        s0 += pts
        reached = s0 >= rules.target
    else:
        s1 += pts
        reached = s1 >= rules.target
    done = False
    if opts.check_target != 0 and reached:
        done = True  # R9.2: the chica ends at once, nothing is credited after
        gain += opts.win_bonus
    if taken == 0:
        prev_rank = r
    else:
        prev_rank = np.int64(-1)
        last_capturer = side
        if side == 0:
            p0 += taken
        else:
            p1 += taken
    if claim > 0:
        if side == 0:
            c0 += claim
        else:
            c1 += claim
        if first_claim < 0:
            first_claim = side
    if not done and last_turn:
        done = True
        gain += _deal_end(
            rules,
            opts,
            pos,
            side,
            s0,
            s1,
            p0,
            p1,
            table_cards,
            last_capturer,
            c0,
            c1,
            first_claim,
        )
    count = (hand >> (4 * r)) & 15
    code -= np.int64(1) << (5 * seat + tt.offsets[10 * seat + r] + count - 1)
    return (
        done,
        gain,
        code,
        table,
        table_cards,
        prev_rank,
        s0,
        s1,
        p0,
        p1,
        last_capturer,
        c0,
        c1,
        first_claim,
    )


@njit(cache=True)
def _search(
    rules,
    sums: np.ndarray,
    opts,
    pos: np.ndarray,
    hands: np.ndarray,
    tt,
    t: np.int64,
    code: np.int64,
    table: np.int64,
    table_cards: np.int64,
    prev_rank: np.int64,
    s0: np.int64,
    s1: np.int64,
    p0: np.int64,
    p1: np.int64,
    last_capturer: np.int64,
    c0: np.int64,
    c1: np.int64,
    first_claim: np.int64,
    alpha: np.int64,
    beta: np.int64,
) -> np.int64:
    """Value for the side to move at turn ``t`` (< 5 * players) of the state given by the
    arguments (``code``: the hand code of the key), within ``(alpha, beta)`` (fail-soft).

    Self-recursive only: numba's cache does not load mutually recursive functions.
    """
    tt.stats[STAT_NODES] += 1
    n_players = pos[POS_PLAYERS]
    seat = (pos[POS_DEALER] + 1 + t) % n_players
    # ---- transposition table probe (exact key: module docstring)
    size = tt.key_a.shape[0]
    cacheable = s0 < _SCORE_LIMIT and s1 < _SCORE_LIMIT and c0 < _CLAIM_LIMIT and c1 < _CLAIM_LIMIT
    # The last capturer matters only when it takes the leftovers (R8.1): else keyed as none.
    keyed_capturer = last_capturer if rules.leftovers_to_last_capturer != 0 else -1
    ka = table | ((prev_rank + 1) << 40) | ((keyed_capturer + 1) << 44) | (p0 << 46)
    kb = (
        code
        | ((s0 >> 1) << 20)
        | ((s1 >> 1) << 31)
        | ((c0 >> 1) << 42)
        | ((c1 >> 1) << 50)
        | ((first_claim + 1) << 58)
    )
    slot = _slot(ka, kb, size)
    generation = tt.stats[STAT_GENERATION]
    first = np.int64(-1)
    if cacheable and tt.key_a[slot] == ka and tt.key_b[slot] == kb:
        info = tt.info[slot]
        if info >> 16 == generation:
            tt.stats[STAT_HITS] += 1
            bound = info & 3
            stored = tt.value[slot]
            if (
                bound == BOUND_EXACT
                or (bound == BOUND_LOWER and stored >= beta)
                or (bound == BOUND_UPPER and stored <= alpha)
            ):
                return stored
            first = (info >> 2) & 255
    # ---- plays, in search order
    hand = hands[seat]
    s = s0 if seat & 1 == 0 else s1
    prev_seat = seat - 1 if seat > 0 else n_players - 1
    prev_in_ronda = prev_rank >= 0 and (pos[POS_RONDA + prev_seat] >> (4 * prev_rank + 3)) & 1 != 0
    n = _order(
        rules,
        sums,
        tt,
        t,
        seat,
        hand,
        hands[seat + 1 if seat + 1 < n_players else 0],
        table,
        table_cards,
        prev_rank,
        prev_in_ronda,
        s,
        first,
    )
    key = sum_key(table)
    captures = sums[SUMS_COUNT + key] + occupied(table)
    held = sums[SUMS_HELD + key]
    firsts = sums[SUMS_FIRST]
    compulsory = rules.capture_compulsory
    last_turn = t + 1 == 5 * n_players
    alpha0 = alpha
    best = -_INF
    best_k = np.int64(0)
    for j in range(n):
        entry = tt.moves[t, j]
        k = MAX_MOVES - 1 - ((entry >> 16) & 255)
        r = entry & 15
        kind = (entry >> 4) & 3
        i = ((entry >> 6) & 1023) - 1
        (done, v, code1, table1, cards1, prev1, s01, s11, p01, p11, last1, c01, c11, first1) = (
            _advance(
                rules,
                sums,
                opts,
                pos,
                tt,
                code,
                seat,
                hand,
                r,
                kind,
                i,
                table,
                table_cards,
                prev_rank,
                prev_in_ronda,
                s0,
                s1,
                p0,
                p1,
                last_capturer,
                c0,
                c1,
                first_claim,
                last_turn,
            )
        )
        if not done:
            gain = v
            hands[seat] = hand - (np.int64(1) << (4 * r))
            if j > 0:
                # Principal variation search: first test whether the play beats alpha with a
                # null window; only a play that does is searched again with the full window.
                v = gain - _search(
                    rules, sums, opts, pos, hands, tt, t + 1, code1, table1, cards1, prev1,
                    s01, s11, p01, p11, last1, c01, c11, first1, gain - alpha - 1, gain - alpha,
                )  # fmt: skip
            if j == 0 or alpha < v < beta:
                v = gain - _search(
                    rules, sums, opts, pos, hands, tt, t + 1, code1, table1, cards1, prev1,
                    s01, s11, p01, p11, last1, c01, c11, first1, gain - beta, gain - alpha,
                )  # fmt: skip
            hands[seat] = hand
        if v > best:
            best = v
            best_k = k
            if best > alpha:
                alpha = best
                if alpha >= beta:
                    break
    if best > alpha0:  # the best play raised alpha or cut off: favour such plays (history)
        br, bkind, _bi = select_play(hand, table, captures, held, firsts, compulsory, best_k)
        tt.history[40 * seat + 4 * br + bkind] += 5 * n_players - t
    if cacheable:
        if best <= alpha0:
            bound = BOUND_UPPER
        elif best >= beta:
            bound = BOUND_LOWER
        else:
            bound = BOUND_EXACT
        tt.key_a[slot] = ka
        tt.key_b[slot] = kb
        tt.value[slot] = best
        tt.info[slot] = bound | (best_k << 2) | (generation << 16)
    return best


@njit(cache=True)
def solve_position(rules, sums: np.ndarray, opts, pos: np.ndarray, tt, values: np.ndarray):
    """Exact value of every legal play of the seat to move (module docstring).

    Parameters
    ----------
    rules : KernelRules
        :meth:`cuarenta_sim.cuarenta.rules.RuleSet.to_kernel`.
    sums : ndarray of int64, shape (N_SUMS,)
        :func:`cuarenta_sim.cuarenta.engine.moves.build_kernel_sums` for the rules.
    opts : SolveOptions
        What the value counts.
    pos : ndarray of int64, shape (N_POS,)
        The position (``POS_*`` layout); not changed.
    tt : SolverTable
        Transposition table and scratch; a new generation starts.
    values : ndarray of int64, shape (>= MAX_MOVES,)
        Receives the value of legal play ``k`` (canonical order, contract section 3) at ``k``.

    Returns
    -------
    int
        The number of legal plays (0 when the seat to move holds no card).
    """
    n_players = pos[POS_PLAYERS]
    t = pos[POS_TURN]
    seat = (pos[POS_DEALER] + 1 + t) % n_players
    tt.stats[STAT_GENERATION] += 1
    tt.stats[STAT_NODES] = 0
    tt.stats[STAT_HITS] = 0
    tt.history[:] = 0
    hands = np.empty(4, dtype=np.int64)
    code = np.int64(0)
    for o in range(4):
        h = pos[POS_HANDS + o] if o < n_players else np.int64(0)
        hands[o] = h
        below = np.int64(0)
        for q in range(10):
            tt.offsets[10 * o + q] = below
            below += (h >> (4 * q)) & 15
        code |= ((np.int64(1) << below) - 1) << (5 * o)
    table = pos[POS_TABLE]
    prev_rank = pos[POS_PREV_RANK]
    prev_seat = seat - 1 if seat > 0 else n_players - 1
    prev_in_ronda = prev_rank >= 0 and (pos[POS_RONDA + prev_seat] >> (4 * prev_rank + 3)) & 1 != 0
    key = sum_key(table)
    captures = sums[SUMS_COUNT + key] + occupied(table)
    held = sums[SUMS_HELD + key]
    firsts = sums[SUMS_FIRST]
    compulsory = rules.capture_compulsory
    hand = hands[seat]
    n = count_plays(hand, captures, compulsory)
    last_turn = t + 1 == 5 * n_players
    for k in range(n):
        r, kind, i = select_play(hand, table, captures, held, firsts, compulsory, k)
        (done, v, code1, table1, cards1, prev1, s01, s11, p01, p11, last1, c01, c11, first1) = (
            _advance(
                rules,
                sums,
                opts,
                pos,
                tt,
                code,
                seat,
                hand,
                r,
                kind,
                i,
                table,
                pos[POS_TABLE_CARDS],
                prev_rank,
                prev_in_ronda,
                pos[POS_SCORES],
                pos[POS_SCORES + 1],
                pos[POS_PILES],
                pos[POS_PILES + 1],
                pos[POS_LAST_CAPTURER],
                pos[POS_CLAIMS],
                pos[POS_CLAIMS + 1],
                pos[POS_FIRST_CLAIM],
                last_turn,
            )
        )
        if not done:
            hands[seat] = hand - (np.int64(1) << (4 * r))
            v -= _search(
                rules,
                sums,
                opts,
                pos,
                hands,
                tt,
                t + 1,
                code1,
                table1,
                cards1,
                prev1,
                s01,
                s11,
                p01,
                p11,
                last1,
                c01,
                c11,
                first1,
                -_INF,
                _INF,
            )
            hands[seat] = hand
        values[k] = v
    return n


def position_array(
    players: int,
    dealer: int,
    deal: int,
    turn: int,
    hands: list[list[int]],
    rondas: list[list[int]],
    table: list[int],
    prev_rank: int,
    scores: tuple[int, int],
    piles: tuple[int, int],
    last_capturer: int,
    claims: tuple[int, int] = (0, 0),
    first_claim: int = -1,
) -> np.ndarray:
    """Build the position array of :func:`solve_position` from rank counts.

    Parameters
    ----------
    players, dealer : int
        2 or 4; the dealer seat.
    deal, turn : int
        The deal (0-based) and the turns already played in it (the seat to move is
        ``(dealer + 1 + turn) % players``).
    hands : list of list of int
        Per seat, 10 rank counts of its hand.
    rondas : list of list of int
        Per seat, its ronda ranks of this deal (dealt three or four times, R4, R6.4).
    table : list of int
        10 rank counts of the table.
    prev_rank : int
        Rank of the previous seat's trail a caida may be made on, -1 if none (R6.1).
    scores, piles : tuple of int
        Side scores; cards captured per side in the data.
    last_capturer : int
        Side of the last capture of the data, -1 if none.
    claims : tuple of int
        Points claimed per side earlier in this deal, not yet credited (R6.4 ``end_of_deal``).
    first_claim : int
        The side that claimed first in this deal (-1 if none).

    Returns
    -------
    ndarray of int64, shape (N_POS,)
        Inputs are not validated (the ``solve`` scenario validates its own).
    """
    pos = np.zeros(N_POS, dtype=np.int64)
    pos[POS_PLAYERS] = players
    pos[POS_DEALER] = dealer
    pos[POS_DEAL] = deal
    pos[POS_TURN] = turn
    for seat in range(players):
        pos[POS_HANDS + seat] = sum(int(c) << (4 * q) for q, c in enumerate(hands[seat]))
        pos[POS_RONDA + seat] = sum(8 << (4 * q) for q in rondas[seat])
    pos[POS_TABLE] = sum(int(c) << (4 * q) for q, c in enumerate(table))
    pos[POS_TABLE_CARDS] = sum(table)
    pos[POS_PREV_RANK] = prev_rank
    pos[POS_SCORES : POS_SCORES + 2] = scores
    pos[POS_PILES : POS_PILES + 2] = piles
    pos[POS_LAST_CAPTURER] = last_capturer
    pos[POS_CLAIMS : POS_CLAIMS + 2] = claims
    pos[POS_FIRST_CLAIM] = first_claim
    return pos


def solve_counts(
    rules: RuleSet,
    players: int,
    dealer: int,
    deal: int,
    turn: int,
    hands: Sequence[Sequence[int]],
    rondas: Sequence[Sequence[int]],
    table: Sequence[int],
    prev_rank: int,
    scores: Sequence[int],
    piles: Sequence[int],
    last_capturer: int,
    claims: Sequence[int] = (0, 0),
    first_claim: int = -1,
    *,
    options: SolveOptions | None = None,
    tt: SolverTable | None = None,
) -> list[int]:
    """Solve a position given as rank counts: :func:`position_array` then
    :func:`solve_position`.

    Parameters
    ----------
    rules : RuleSet
        The rules.
    players, dealer, deal, turn, hands, rondas, table, prev_rank, scores, piles, last_capturer,
    claims, first_claim
        As :func:`position_array` (not validated).
    options : SolveOptions, optional
        Default: points only, the target checked (``SolveOptions()``).
    tt : SolverTable, optional
        A table to reuse; default a new one of :func:`new_table`.

    Returns
    -------
    list of int
        The value of every legal play of the seat to move, canonical order (contract 3).
    """
    pos = position_array(
        players,
        dealer,
        deal,
        turn,
        [list(h) for h in hands],
        [list(r) for r in rondas],
        list(table),
        prev_rank,
        (scores[0], scores[1]),
        (piles[0], piles[1]),
        last_capturer,
        (claims[0], claims[1]),
        first_claim,
    )
    kernel_rules = rules.to_kernel()
    values = np.zeros(MAX_MOVES, dtype=np.int64)
    n = solve_position(
        kernel_rules,
        build_kernel_sums(kernel_rules.max_sum_cards),
        SolveOptions() if options is None else options,
        pos,
        new_table() if tt is None else tt,
        values,
    )
    return [int(v) for v in values[:n]]
