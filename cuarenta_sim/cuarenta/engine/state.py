"""The typed state the numba kernels pass each other (issue 19: no kernel over 10 arguments).

Every type here is a ``NamedTuple``: numba passes it by value as a plain struct (a namedtuple
of scalars costs nothing over its fields as separate arguments; one of arrays costs what the
arrays would), so grouping arguments changes neither a result nor the speed. Fields are
int64 (packed hands and tables as in :mod:`.moves`: 4 bits per rank) unless said otherwise.

* :class:`Turn`: what a play's outcome depends on besides the play (contract section 4);
  the argument of :func:`.moves.apply_play`, :func:`.moves.play_outcome`,
  :func:`.moves.capture_points` and :func:`.moves.best_play`.
* :class:`View`: what the ``heuristic`` and ``learned`` policies observe (contract section 6).
* :class:`Position`: the public state of a data from the deciding seat, what ``pimc`` and
  ``solver`` sample from (with the ``public`` ronda array, :func:`.pimc.pimc_play`).
* :class:`Setup`, :class:`Blocks`, :class:`Scratch`: the constants of a batch (beside the
  rules), its output blocks and one thread's scratch (:mod:`.play`, :mod:`.batch`).
* :class:`Node`: one node of the exact solver's search (:mod:`.solver`).
* :class:`Legal`: the legal plays of a hand on a table, not listed (:func:`.moves.legal`).

A policy kernel has one short signature: ``(params, view or position[, public, stream],
rules, sums)``, the seat's parameter row first (``P_*`` of
:mod:`cuarenta_sim.cuarenta.policies.kernel`), and returns ``(rank, kind, i)`` as
:func:`.moves.select_play` (then the advanced stream, for the searching policies). A
``stream`` is the 4-word state ``(s0, s1, s2, s3)`` (uint64) of :mod:`cuarenta_sim.rng`.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

__all__ = ["Blocks", "Legal", "Node", "Position", "Scratch", "Setup", "Stream", "Turn", "View"]


#: A search stream's state ``(s0, s1, s2, s3)`` (uint64, :mod:`cuarenta_sim.rng`).
Stream = tuple[np.uint64, np.uint64, np.uint64, np.uint64]


class Legal(NamedTuple):
    """The legal plays of a hand on a table without the list (contract section 3; R5.1-R5.5):
    what :func:`.moves.nth_play` needs to give play ``k`` of the canonical order.

    Attributes
    ----------
    hand, table : int64
        Packed hand and table.
    captures : int64
        Capture options of every rank on the table, packed (:func:`.moves.rank_options`).
    held : int64
        Bit mask of the allowed sum bases the table holds.
    firsts : int64
        ``sums[SUMS_FIRST]``: per rank the index of its first sum base.
    compulsory : int64
        The rules' ``capture_compulsory``.
    n : int64
        Number of legal plays (:func:`.moves.count_plays`).
    """

    hand: int
    table: int
    captures: int
    held: int
    firsts: int
    compulsory: int
    n: int


class Turn(NamedTuple):
    """The table side of a play (contract section 4; R5-R7, R9.1).

    Attributes
    ----------
    table : int64
        Packed table before the play.
    table_cards : int64
        Cards on it.
    prev_rank : int64
        Rank of the previous trail a caida may be made on, -1 if none (R6.1).
    prev_in_ronda : bool
        That rank is among the trailing seat's ronda ranks of the deal (R6.4).
    score : int64
        The acting side's score before the play (R6.4 block, R9.1).
    """

    table: int
    table_cards: int
    prev_rank: int
    prev_in_ronda: bool
    score: int


class View(NamedTuple):
    """What the ``heuristic`` and ``learned`` policies observe at a seat's turn (contract 6).

    Attributes
    ----------
    hand : int64
        Packed own hand.
    turn : Turn
        The table, the previous trail and the side's score.
    opp_score : int64
        The other side's score.
    played : int64
        Packed counts of the cards played in the data so far, by everyone.
    my_ronda : int64
        The seat's ronda ranks of the deal (bit 3 of the rank's field, as ``W_RONDA``).
    next_known : int64
        Packed counts the next player is known to hold (its announced ronda minus its plays).
    next_hand : int64
        Cards in the next player's hand after this play.
    pile : int64
        Cards in the acting side's pile (``learned`` only).
    deal : int64
        Deal index in the data, 0-based (``learned`` only).
    n_players : int64
        2 or 4 (``learned`` only: ``8 // n_players`` deals).
    """

    hand: int
    turn: Turn
    opp_score: int
    played: int
    my_ronda: int
    next_known: int
    next_hand: int
    pile: int
    deal: int
    n_players: int


class Position(NamedTuple):
    """The public state of a data seen from the deciding seat (``pimc``, ``solver``, R3-R4).

    Attributes
    ----------
    seat, dealer : int64
        The deciding seat and the dealer.
    deal, turn : int64
        The deal (0-based) and the turns already played in it.
    n_players : int64
        2 or 4.
    check_target : bool
        Levels chica / mesa: a side reaching the target wins (R9.2).
    hand : int64
        Packed own hand.
    table, table_cards : int64
        Packed table and its card count.
    prev_rank, prev_seat : int64
        The previous trail and its seat (-1 if none).
    played : int64
        Packed counts of the cards played in the data so far.
    score0, score1, pile0, pile1 : int64
        Side scores and pile sizes.
    last_capturer : int64
        Side of the data's last capture, -1 if none.
    """

    seat: int
    dealer: int
    deal: int
    turn: int
    n_players: int
    check_target: bool
    hand: int
    table: int
    table_cards: int
    prev_rank: int
    prev_seat: int
    played: int
    score0: int
    score1: int
    pile0: int
    pile1: int
    last_capturer: int


class Setup(NamedTuple):
    """What every data of a batch shares besides the rules.

    The rules (:class:`cuarenta_sim.cuarenta.rules.KernelRules`) travel beside it: numba's
    parallel loop cannot take a tuple nested in a tuple.

    Attributes
    ----------
    n_players : int64
        2 or 4 (R2.1).
    sums : ndarray of int64, shape (N_SUMS,)
        :func:`.moves.build_kernel_sums` of the rules' ``max_sum_cards``.
    root : uint64
        Root of the random streams (:func:`cuarenta_sim.rng.root_from_seed`); ``(game,
        data)`` identify a data (contract section 2).
    policies : ndarray of int64, shape (4, POLICY_ROW)
        Per seat the policy id, then its parameter row
        (:meth:`cuarenta_sim.cuarenta.policies.SeatPolicies.kernel_array`).
    """

    n_players: int
    sums: np.ndarray
    root: np.uint64
    policies: np.ndarray


class Blocks(NamedTuple):
    """The output blocks of a batch (layout in :mod:`.layout`).

    Attributes
    ----------
    rec8, rec16, rec64 : ndarray
        Record blocks: int8 ``(N_REC8, rows)``, int16 ``(N_REC16_DATA or N_REC16_GAME,
        rows)``, int64 ``(1, rows)``.
    game8, game16 : ndarray
        Game blocks: int8 ``(N_GAME8, games)``, int16 ``(N_GAME16, games)``; may have 0
        columns at level data.
    trace : ndarray of int64, shape (capacity, N_TRACE)
        Trace rows (contract section 7); capacity 0 traces nothing.
    """

    rec8: np.ndarray
    rec16: np.ndarray
    rec64: np.ndarray
    game8: np.ndarray
    game16: np.ndarray
    trace: np.ndarray


class Scratch(NamedTuple):
    """One thread's scratch and per-data state.

    Attributes
    ----------
    work : ndarray of int64, shape (N_WORK,)
        Scores, piles, hands, rondas, policy ids and rows (``W_*`` of :mod:`.layout`).
    rng : ndarray of uint64, shape (N_RNG,)
        The random streams (``RNG_*``).
    deck : ndarray of uint8, shape (40,)
        The deck's ranks.
    """

    work: np.ndarray
    rng: np.ndarray
    deck: np.ndarray


class Node(NamedTuple):
    """One node of the exact solver's search (:mod:`.solver`): the state after a play.

    Attributes
    ----------
    code : int64
        Hand code of the transposition key (the cards still held).
    table, table_cards, prev_rank : int64
        The table, its cards and the previous trail (-1 if none).
    s0, s1, p0, p1 : int64
        Side scores and pile sizes.
    last_capturer : int64
        Side of the last capture, -1 if none.
    c0, c1, first_claim : int64
        Points claimed per side in the deal (R6.4 ``end_of_deal``) and the first claimer.
    """

    code: int
    table: int
    table_cards: int
    prev_rank: int
    s0: int
    s1: int
    p0: int
    p1: int
    last_capturer: int
    c0: int
    c1: int
    first_claim: int
