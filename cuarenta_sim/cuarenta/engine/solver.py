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
  :mod:`.layout`), offsets ``POS_*`` of :mod:`.solvertable`; :func:`position_array` builds it
  from rank counts.
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

The search passes its state as a :class:`.state.Node` (issue 19: no kernel over 10
arguments); the layout, options and table types live in :mod:`.solvertable`.
"""

from __future__ import annotations

__all__ = [
    "BOUND_EXACT",
    "BOUND_LOWER",
    "BOUND_UPPER",
    "MAX_MOVES",
    "MAX_TURNS",
    "N_POS",
    "N_STATS",
    "POS_CLAIMS",
    "POS_DEAL",
    "POS_DEALER",
    "POS_FIRST_CLAIM",
    "POS_HANDS",
    "POS_LAST_CAPTURER",
    "POS_PILES",
    "POS_PLAYERS",
    "POS_PREV_RANK",
    "POS_RONDA",
    "POS_SCORES",
    "POS_TABLE",
    "POS_TABLE_CARDS",
    "POS_TURN",
    "STAT_GENERATION",
    "STAT_HITS",
    "STAT_NODES",
    "SolveOptions",
    "SolverTable",
    "new_table",
    "position_array",
    "solve_counts",
    "solve_position",
]

from collections.abc import Sequence

import numpy as np
from numba import njit

from ..rules import RuleSet
from .moves import (
    add_claim,
    apply_play,
    build_kernel_sums,
    claim_credit,
    end_credit,
    end_of_data_points,
    legal,
    nth_play,
)
from .solvertable import (
    BOUND_EXACT,
    BOUND_LOWER,
    BOUND_UPPER,
    MAX_MOVES,
    MAX_TURNS,
    N_POS,
    N_STATS,
    POS_CLAIMS,
    POS_DEAL,
    POS_DEALER,
    POS_FIRST_CLAIM,
    POS_HANDS,
    POS_LAST_CAPTURER,
    POS_PILES,
    POS_PLAYERS,
    POS_PREV_RANK,
    POS_RONDA,
    POS_SCORES,
    POS_TABLE,
    POS_TABLE_CARDS,
    POS_TURN,
    STAT_GENERATION,
    STAT_HITS,
    STAT_NODES,
    SolveOptions,
    SolverTable,
    new_table,
    position_array,
)
from .state import Node, Turn

_INF = np.int64(1) << 50
_HISTORY_CAP = (1 << 20) - 1
# Keys hold scores / 2 in 11 bits and claims / 2 in 8 bits; a state outside is searched
# without the table (never wrongly shared).
_SCORE_LIMIT = 2 << 11
_CLAIM_LIMIT = 2 << 8


@njit(cache=True, inline="always")
def _slot(ka: np.int64, kb: np.int64, size: np.int64) -> np.int64:
    """Table slot of a key (a 64-bit mix of both words; ``size`` a power of two)."""
    x = np.uint64(ka) ^ (np.uint64(kb) * np.uint64(0x9E3779B97F4A7C15))
    x ^= x >> np.uint64(31)
    x *= np.uint64(0xBF58476D1CE4E5B9)
    x ^= x >> np.uint64(29)
    return np.int64(x & np.uint64(size - 1))


@njit(cache=True, inline="always")
def _credit(
    side: np.int64,
    pts: np.int64,
    s0: np.int64,
    s1: np.int64,
    g0: np.int64,
    g1: np.int64,
    target: np.int64,
) -> tuple[np.int64, np.int64, np.int64, np.int64, bool]:
    """Credit ``pts`` points to ``side`` (scores ``s0, s1``, gains since the root ``g0, g1``);
    returns them and whether the side reached ``target`` with them (a credit of 0 reaches
    nothing: the target is only checked after points, R9.2)."""
    if pts == 0:
        return s0, s1, g0, g1, False
    if side == 0:
        return s0 + pts, s1, g0 + pts, g1, s0 + pts >= target
    return s0, s1 + pts, g0, g1 + pts, s1 + pts >= target


@njit(cache=True)
def _deal_end(rules, opts, pos: np.ndarray, me: np.int64, node: Node) -> np.int64:
    """Value for side ``me`` of the end of the deal after ``node``'s last play: its claims,
    first claimer first (R6.4, contract 5), then in the data's last deal the end-of-data
    count (R8), each credit followed by the target check (R9.2); at a deal horizon the leaf
    term."""
    s0 = node.s0
    s1 = node.s1
    p0 = node.p0
    p1 = node.p1
    c0 = node.c0
    c1 = node.c1
    first_claim = node.first_claim
    target = rules.target
    check = opts.check_target != 0
    g0 = np.int64(0)
    g1 = np.int64(0)
    winner = -1
    if c0 > 0 or c1 > 0:
        for k in range(2):
            side, pts = claim_credit(k, first_claim, c0, c1)
            s0, s1, g0, g1, reached = _credit(side, pts, s0, s1, g0, g1, target)
            if check and reached:
                winner = side
                break
    last_deal = pos[POS_DEAL] == 8 // pos[POS_PLAYERS] - 1
    if winner < 0 and last_deal:
        p0, p1, count0, count1, falla0, falla1, _c0, _c1 = end_of_data_points(
            rules, pos[POS_DEALER], p0, p1, node.table_cards, node.last_capturer, s0, s1
        )
        for k in range(4):
            side, pts, _is_count = end_credit(k, pos[POS_DEALER], count0, count1, falla0, falla1)
            s0, s1, g0, g1, reached = _credit(side, pts, s0, s1, g0, g1, target)
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
    turn: Turn,
    first: np.int64,
) -> np.int64:
    """Write the legal plays of a node to ``tt.moves[row]`` in search order; return how many.

    Entry: ``priority << 24 | (MAX_MOVES - 1 - k) << 16 | (i + 1) << 6 | kind << 4 | r`` for
    canonical play ``k`` = ``(r, kind, i)``, sorted descending: the table's play ``first`` (-1
    for none), then captures by points now plus claim, then cards captured, then trails; ties
    in canonical order. ``turn`` is the table side of the node (:class:`.state.Turn`).
    """
    plays = legal(hand, turn.table, rules, sums)
    n = plays.n
    buf = tt.moves[row]
    for k in range(n):
        r, kind, i = nth_play(plays, k)
        _t, _tc, _b, taken, _r, _c, _e, _l, now, lim, claim = apply_play(
            rules, sums, r, kind, i, turn
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
def _code_after(tt, code: np.int64, seat: np.int64, hand: np.int64, r: np.int64) -> np.int64:
    """The hand code of the key after ``seat`` (holding ``hand``) plays a card of rank ``r``."""
    count = (hand >> (4 * r)) & 15
    return code - (np.int64(1) << (5 * seat + tt.offsets[10 * seat + r] + count - 1))


@njit(cache=True, inline="always")
def _advance(
    rules,
    sums: np.ndarray,
    opts,
    pos: np.ndarray,
    seat: np.int64,
    prev_in_ronda: bool,
    play: tuple[np.int64, np.int64, np.int64],
    node: Node,
    code: np.int64,
    last_turn: bool,
) -> tuple[bool, np.int64, Node]:
    """Play ``play`` = ``(r, kind, i)`` of ``seat`` from ``node`` with the kernel's step
    (:func:`.moves.apply_play`); ``prev_in_ronda`` tells whether the node's previous trail is
    a ronda rank of its trailer, ``code`` is the hand code after the play
    (:func:`_code_after`).

    Returns ``(done, value, next)``: when ``done`` (the chica was won, R9.2, or the play was
    the deal's last) ``value`` is the play's whole value for the side of ``seat``; else it is
    the value of the points the play earns now, and ``next`` is the next turn's
    :class:`.state.Node`.
    """
    r, kind, i = play
    side = seat & 1
    s0 = node.s0
    s1 = node.s1
    p0 = node.p0
    p1 = node.p1
    c0 = node.c0
    c1 = node.c1
    first_claim = node.first_claim
    last_capturer = node.last_capturer
    turn = Turn(
        node.table, node.table_cards, node.prev_rank, prev_in_ronda, s0 if side == 0 else s1
    )
    table, table_cards, _b, taken, _r, _c, _e, _l, now, lim, claim = apply_play(
        rules, sums, r, kind, i, turn
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
    c0, c1, first_claim = add_claim(side, claim, c0, c1, first_claim)
    nxt = Node(
        code, table, table_cards, prev_rank, s0, s1, p0, p1, last_capturer, c0, c1, first_claim
    )
    if not done and last_turn:
        done = True
        gain += _deal_end(rules, opts, pos, side, nxt)
    return done, gain, nxt


@njit(cache=True)
def _search(
    rules,
    sums: np.ndarray,
    opts,
    pos: np.ndarray,
    hands: np.ndarray,
    tt,
    t: np.int64,
    node: Node,
    alpha: np.int64,
    beta: np.int64,
) -> np.int64:
    """Value for the side to move at turn ``t`` (< 5 * players) of ``node``
    (:class:`.state.Node`; ``hands`` holds every seat's packed hand), within ``(alpha,
    beta)`` (fail-soft).

    Self-recursive only: numba's cache does not load mutually recursive functions.
    """
    code = node.code
    table = node.table
    prev_rank = node.prev_rank
    s0 = node.s0
    s1 = node.s1
    c0 = node.c0
    c1 = node.c1
    tt.stats[STAT_NODES] += 1
    n_players = pos[POS_PLAYERS]
    seat = (pos[POS_DEALER] + 1 + t) % n_players
    # ---- transposition table probe (exact key: module docstring)
    size = tt.key_a.shape[0]
    cacheable = s0 < _SCORE_LIMIT and s1 < _SCORE_LIMIT and c0 < _CLAIM_LIMIT and c1 < _CLAIM_LIMIT
    # The last capturer matters only when it takes the leftovers (R8.1): else keyed as none.
    keyed_capturer = node.last_capturer if rules.leftovers_to_last_capturer != 0 else -1
    ka = table | ((prev_rank + 1) << 40) | ((keyed_capturer + 1) << 44) | (node.p0 << 46)
    kb = (
        code
        | ((s0 >> 1) << 20)
        | ((s1 >> 1) << 31)
        | ((c0 >> 1) << 42)
        | ((c1 >> 1) << 50)
        | ((node.first_claim + 1) << 58)
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
    turn = Turn(table, node.table_cards, prev_rank, prev_in_ronda, s)
    next_hand = hands[seat + 1 if seat + 1 < n_players else 0]
    n = _order(rules, sums, tt, t, seat, hand, next_hand, turn, first)
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
        code1 = _code_after(tt, code, seat, hand, r)
        done, v, child = _advance(
            rules, sums, opts, pos, seat, prev_in_ronda, (r, kind, i), node, code1, last_turn
        )
        if not done:
            gain = v
            hands[seat] = hand - (np.int64(1) << (4 * r))
            if j > 0:
                # Principal variation search: first test whether the play beats alpha with a
                # null window; only a play that does is searched again with the full window.
                v = gain - _search(
                    rules, sums, opts, pos, hands, tt, t + 1, child, gain - alpha - 1, gain - alpha
                )
            if j == 0 or alpha < v < beta:
                v = gain - _search(
                    rules, sums, opts, pos, hands, tt, t + 1, child, gain - beta, gain - alpha
                )
            hands[seat] = hand
        if v > best:
            best = v
            best_k = k
            if best > alpha:
                alpha = best
                if alpha >= beta:
                    break
    if best > alpha0:  # the best play raised alpha or cut off: favour such plays (history)
        br, bkind, _bi = nth_play(legal(hand, table, rules, sums), best_k)
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
    hand = hands[seat]
    plays = legal(hand, table, rules, sums)
    n = plays.n
    last_turn = t + 1 == 5 * n_players
    root = Node(
        code,
        table,
        pos[POS_TABLE_CARDS],
        prev_rank,
        pos[POS_SCORES],
        pos[POS_SCORES + 1],
        pos[POS_PILES],
        pos[POS_PILES + 1],
        pos[POS_LAST_CAPTURER],
        pos[POS_CLAIMS],
        pos[POS_CLAIMS + 1],
        pos[POS_FIRST_CLAIM],
    )
    for k in range(n):
        r, kind, i = nth_play(plays, k)
        code1 = _code_after(tt, code, seat, hand, r)
        done, v, child = _advance(
            rules, sums, opts, pos, seat, prev_in_ronda, (r, kind, i), root, code1, last_turn
        )
        if not done:
            hands[seat] = hand - (np.int64(1) << (4 * r))
            v -= _search(rules, sums, opts, pos, hands, tt, t + 1, child, -_INF, _INF)
            hands[seat] = hand
        values[k] = v
    return n


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
