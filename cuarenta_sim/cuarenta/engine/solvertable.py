"""The exact solver's data: position layout, options, transposition table (:mod:`.solver`).

Apart from the search so that each module stays short; :mod:`.solver` re-exports every
name. :func:`position_array` builds a position from rank counts.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

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
    return empty_table(bits)


@njit(cache=True)
def empty_table(bits: np.int64) -> SolverTable:
    """An empty :class:`SolverTable` of ``2**bits`` entries, built in numba: what
    :func:`new_table` returns after checking ``bits``, and the table a kernel allocates for
    one decision (:func:`cuarenta_sim.cuarenta.engine.solverplay.solver_play`)."""
    size = np.int64(1) << bits
    return SolverTable(
        np.full(size, -1, dtype=np.int64),
        np.full(size, -1, dtype=np.int64),
        np.zeros(size, dtype=np.int64),
        np.zeros(size, dtype=np.int64),
        np.zeros((MAX_TURNS + 1, MAX_MOVES), dtype=np.int64),
        np.zeros(40, dtype=np.int64),
        np.zeros(160, dtype=np.int64),
        np.zeros(N_STATS, dtype=np.int64),
    )


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
