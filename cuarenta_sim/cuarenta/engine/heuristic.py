"""The ``heuristic`` policy in numba: a weighted score of observable features per legal play.

Every legal play (canonical order, contract section 3) gets an integer score in milli-points;
the policy plays the first play of largest score. All arithmetic is on integers, so the
pure-Python twin (:class:`cuarenta_sim.cuarenta.reference.policies.HeuristicPolicy`) reproduces it
exactly. The weights are the seat's parameter row (``P_*`` of
:mod:`cuarenta_sim.cuarenta.policies.kernel`; names, defaults and meanings in
:data:`cuarenta_sim.cuarenta.policies.HEURISTIC_PARAMS`).

What the seat observes (contract section 6): its hand, the table, the cards already played
in the data (``played``, so ``unseen = 4 - hand - played`` per rank), its own ronda ranks of
the deal, the ranks the next player announced as a ronda and still holds (``next_known``),
the next player's hand size after the play, the scores and the previous trail. Hidden hands
and the stock are never read.

Score of a play, with ``T'`` the table it leaves (``c'`` cards), ``r`` its rank, and
``P[q]`` (per mille) the chance that the next player holds at least one card of rank ``q``:
``1 - C(U - u_q, h) / C(U, h)`` for ``u_q`` unseen cards of rank ``q`` among ``U`` unseen
cards and ``h`` cards in the next player's hand (0 when ``h`` is 0: the deal ends first)::

    1000 * points now (caida, limpia, claims; contract 4, after blocks and the 38 rule)
  + cards * cards captured                     (0 when the carton is blocked, see rules_38_30)
  - caida * P[r] * caida value / 1000          (trails: the next player's caida on it; the
                                                value is caida_en_ronda_points when r is the
                                                seat's ronda rank and the next side is below
                                                ronda_blocked_from, else 2)
  - limpia * max P[q] * 2 / 1000               (over ranks q whose best capture empties T';
                                                0 when T' is empty or the next side is at 38
                                                under a limpia-dropping 38 rule, rules_38_30)
  - openings * sum_q P[q] * cards(q, T') / 1000  (cards the next player's rank q would take)
  + trail_pair      (trail of a rank held two or more times)
  - no_ace_trail    (trail of an ace)
  - no_run_start * cards of ranks r+1, r+2, ... on T' a capture of the trail would run into
  - keep_table * (3 - c')  when 1 <= c' <= 2
  - hold_known      (trail of a rank the next player is known to hold, R4 announcements)

Integer divisions are of non-negative numbers (floor, identical in Python).

Tuned defaults
--------------
``cards=350, caida=1000, limpia=500, openings=100, trail_pair=450, no_ace_trail=0,
no_run_start=0, keep_table=0, hold_known=1000, rules_38_30=1``, from
``python benchmarks/tune_heuristic.py --passes 2 --chicas 20000 --seed 100`` (coordinate
search in duplicate chicas, Quito, 2 players; log in ``benchmarks/results/tune_heuristic.txt``):
starting from hand-set weights (``limpia=1000, trail_pair=300``, the rest as above) it accepted
``limpia=500`` and ``trail_pair=450``; on held-out decks the result wins 51.4% [50.9%, 51.9%]
of 40,000 duplicate chicas against the start and 85.8% [85.4%, 86.1%] against ``greedy``. Every
other candidate was rejected: switched on against the defaults, ``no_ace_trail`` at 250-1000
won 41-45% of the chicas, ``no_run_start`` 44-48%, ``keep_table`` 27-50% (as penalties on top
of the exposure terms these folk tactics hurt); ``hold_known`` barely changes a play (rondas are
rare and the caida term already sees the unseen count).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..policies.kernel import (
    P_CAIDA,
    P_CARDS,
    P_HOLD_KNOWN,
    P_KEEP_TABLE,
    P_LIMPIA,
    P_NO_ACE_TRAIL,
    P_NO_RUN_START,
    P_OPENINGS,
    P_RULES_38_30,
    P_TRAIL_PAIR,
)
from .layout import (
    AT38_NONE,
    AT38_ONLY_CAIDA,
    KIND_SUM,
    KIND_TRAIL,
    NO_SUM,
    SUMS_LARGEST,
    SUMS_PACKED,
    SUMS_SIZE,
)
from .moves import (
    NIBBLE_ONES,
    byte_sum,
    capture_points,
    legal,
    nth_play,
    run_length,
    sum_key,
)
from .state import View

#: Four cards of every rank, packed (R1.1).
FOUR_EACH = 4 * NIBBLE_ONES


@njit(cache=True, inline="always")
def packed_total(packed: np.int64) -> np.int64:
    """Number of cards in a packed rank-count vector."""
    return byte_sum((packed & 0x0F0F0F0F0F) + ((packed >> 4) & 0x0F0F0F0F0F))


@njit(cache=True)
def hold_chance(unseen_q: np.int64, unseen: np.int64, h: np.int64) -> np.int64:
    """Per mille chance that ``h`` cards drawn from ``unseen`` hold one of ``unseen_q``.

    ``1000 * (1 - C(unseen - unseen_q, h) / C(unseen, h))``, floored; 0 when ``h`` or
    ``unseen_q`` is 0.
    """
    if h <= 0 or unseen_q <= 0 or unseen <= 0:
        return np.int64(0)
    num = np.int64(1)
    den = np.int64(1)
    for i in range(h):
        num *= max(unseen - unseen_q - i, 0)
        den *= unseen - i
    return 1000 * (den - num) // den


@njit(cache=True, inline="always")
def best_capture(table: np.int64, q: np.int64, sums: np.ndarray) -> tuple[np.int64, np.int64]:
    """``(base cards, run cards)`` of the largest capture rank ``q`` makes on ``table``
    (match or largest allowed sum base, R5.1, R5.2, then the run, R5.4); ``(0, 0)`` when
    ``q`` captures nothing."""
    nbase = np.int64(1) if (table >> (4 * q)) & 15 != 0 else np.int64(0)
    if q < 7:
        i = (sums[SUMS_LARGEST + sum_key(table)] >> (6 * q)) & 63
        if i != NO_SUM and sums[SUMS_SIZE + i] > nbase:
            nbase = sums[SUMS_SIZE + i]
    if nbase == 0:
        return np.int64(0), np.int64(0)
    return nbase, run_length(table, q)


@njit(cache=True, inline="always")
def exposure_terms(
    after: np.int64,
    after_cards: np.int64,
    r: np.int64,
    kind: np.int64,
    chance: np.ndarray,
    own: np.int64,
    rules,
    sums: np.ndarray,
) -> tuple[np.int64, np.int64, np.int64, np.int64, np.int64, np.int64]:
    """What the table a play leaves offers: the exposure terms of :func:`play_terms` and, for
    the ``learned`` policy, the follow-up of the hand ``own`` left after the play, in one scan
    of the ranks (each rank's best capture is searched once).

    Parameters
    ----------
    after : int64
        Packed table left (``after_cards`` cards).
    r, kind : int
        The play's rank and kind.
    chance : ndarray of int64, shape (10,)
        Per mille chance that the next player holds each rank.
    own : int64
        Packed hand left after the play (0: the follow-up terms are not wanted; ranks the
        next player cannot hold are then skipped).
    rules : KernelRules
    sums : ndarray of int64

    Returns
    -------
    tuple of int64
        ``(risk, openings, keep, own_next, own_limpia, next_best)``: the largest ``P[q]`` over
        ranks whose best capture empties the table left (the limpia term is twice it); ``sum_q
        P[q] x cards q takes``; ``3 - c'`` when ``1 <= c' <= 2``; the most cards a rank of
        ``own`` takes on it; 1 if one of them empties it; ``max_q P[q] x cards q takes``.
    """
    zero = np.int64(0)
    risk = zero
    opening = zero
    keep = zero
    own_next = zero
    own_limpia = zero
    next_best = zero
    if after_cards > 0:
        for q in range(10):
            mine = (own >> (4 * q)) & 15 != 0
            if chance[q] == 0 and not mine:
                continue
            nb, rn = best_capture(after, q, sums)
            if nb == 0:
                continue
            opening += chance[q] * (1 + nb + rn)
            if mine:
                own_next = max(own_next, 1 + nb + rn)
                if nb + rn == after_cards:
                    own_limpia = np.int64(1)
            next_best = max(next_best, chance[q] * (1 + nb + rn))
            # A caida on the trail that also empties the table scores the caida only under
            # "todo dos" (R7.2): the caida term has counted it.
            todo_dos = kind == KIND_TRAIL and q == r and rules.caida_limpia_cumulative == 0
            if nb + rn == after_cards and chance[q] > risk and not todo_dos:
                risk = chance[q]
        if after_cards <= 2:
            keep = 3 - after_cards
    return risk, opening, keep, own_next, own_limpia, next_best


@njit(cache=True, inline="always")
def capture_terms(
    view: View,
    r: np.int64,
    kind: np.int64,
    i: np.int64,
    chance: np.ndarray,
    rules,
    sums: np.ndarray,
) -> tuple[np.int64, ...]:
    """The terms of :func:`play_terms` that do not look at the table left's captures.

    Parameters as in :func:`play_terms`.

    Returns
    -------
    tuple of int64
        ``(points, cards, caida, pair, ace, run_start, known, after_cards, after)`` as in
        :func:`play_terms`.
    """
    turn = view.turn
    table = turn.table
    table_cards = turn.table_cards
    zero = np.int64(0)
    points = zero
    cards = zero
    caida = zero
    pair = zero
    ace = zero
    run_start = zero
    known = zero
    if kind == KIND_TRAIL:
        after = table + (np.int64(1) << (4 * r))
        after_cards = table_cards + 1
        cv = np.int64(2)
        if (view.my_ronda >> (4 * r + 3)) & 1 != 0 and view.opp_score < rules.ronda_blocked_from:
            cv = rules.caida_en_ronda_points
        caida = chance[r] * cv
        if (view.hand >> (4 * r)) & 15 >= 2:
            pair = np.int64(1)
        if r == 0:
            ace = np.int64(1)
        run_start = run_length(after, r)
        if (view.next_known >> (4 * r)) & 15 != 0:
            known = np.int64(1)
    else:
        if kind == KIND_SUM:
            base = sums[SUMS_PACKED + i]
            nbase = sums[SUMS_SIZE + i]
        else:
            base = np.int64(1) << (4 * r)
            nbase = np.int64(1)
        run = run_length(table, r)
        _c, _e, _l, now, lim, claim = capture_points(rules, r, kind, base, nbase, run, turn)
        points = now + lim + claim
        cards = 1 + nbase + run
        after = table - base - ((NIBBLE_ONES & ((np.int64(1) << (4 * run)) - 1)) << (4 * (r + 1)))
        after_cards = table_cards - nbase - run
    return points, cards, caida, pair, ace, run_start, known, after_cards, after


@njit(cache=True, inline="always")
def play_terms(
    view: View,
    r: np.int64,
    kind: np.int64,
    i: np.int64,
    chance: np.ndarray,
    rules,
    sums: np.ndarray,
) -> tuple[np.int64, ...]:
    """The unweighted observable terms of one legal play (module docstring), shared by the
    ``heuristic`` and ``learned`` policies (:mod:`.learned`).

    Parameters
    ----------
    view : View
        What the seat observes (:class:`.state.View`; ``pile``, ``deal`` and ``n_players`` are
        not read).
    r, kind, i : int
        The play (:func:`cuarenta_sim.cuarenta.engine.moves.select_play`).
    chance : ndarray of int64, shape (10,)
        Per mille chance that the next player holds each rank (:func:`hold_chance`).
    rules : KernelRules
    sums : ndarray of int64
        Kernel sum tables.

    Returns
    -------
    tuple of int64
        ``(points, cards, caida, limpia, openings, pair, ace, run_start, keep, known,
        after_cards, after)``: points now (caida, limpia, claims after blocks and the 38 rule, R6,
        R7, R9.1); cards captured (played card, base, run; 0 for a trail); on a trail
        ``P[r] x caida value`` (per mille points; 0 for a capture); ``max P[q] x 2`` over
        the ranks that would empty the table left (per mille points); ``sum_q P[q] x cards
        q takes`` (per mille cards); on a trail 1 if the hand holds two or more of ``r``, 1
        if ``r`` is an ace, the table cards of ranks ``r+1, r+2, ...`` a capture of it
        would run into, 1 if the next player is known to hold ``r``; ``3 - c'`` when the
        table left holds ``1 <= c' <= 2`` cards (else 0); ``c'``; and the packed table
        left.
    """
    points, cards, caida, pair, ace, run_start, known, after_cards, after = capture_terms(
        view, r, kind, i, chance, rules, sums
    )
    risk, opening, keep, _own_next, _own_limpia, _next_best = exposure_terms(
        after, after_cards, r, kind, chance, np.int64(0), rules, sums
    )
    return (
        points,
        cards,
        caida,
        risk * 2,
        opening,
        pair,
        ace,
        run_start,
        keep,
        known,
        after_cards,
        after,
    )


@njit(cache=True)
def next_chances(hand: np.int64, played: np.int64, next_hand: np.int64) -> np.ndarray:
    """Per mille chance (int64, shape (10,)) that the next player, holding ``next_hand`` cards,
    holds each rank: :func:`hold_chance` on the unseen cards ``4 - hand - played``."""
    unseen = FOUR_EACH - hand - played
    n_unseen = packed_total(unseen)
    chance = np.zeros(10, dtype=np.int64)
    for q in range(10):
        chance[q] = hold_chance((unseen >> (4 * q)) & 15, n_unseen, next_hand)
    return chance


@njit(cache=True)
def heuristic_play(
    params: np.ndarray, view: View, rules, sums: np.ndarray
) -> tuple[np.int64, np.int64, np.int64]:
    """The heuristic's play (module docstring): the first legal play of largest score.

    Parameters
    ----------
    params : ndarray of int64
        The seat's parameter row: the weights at ``params[P_*]``.
    view : View
        What the seat observes (:class:`.state.View`): own hand, the table, the previous
        trail (-1 if none, R6.1) and whether it is its trailer's ronda rank, the acting side's
        and the other side's scores, the cards played in the data by everyone, the seat's
        ronda ranks of the deal, what the next player is known to hold (its announced ronda
        minus its plays), the next player's hand size after this play. ``pile``, ``deal`` and
        ``n_players`` are not read.
    rules : KernelRules
    sums : ndarray of int64
        Kernel sum tables.

    Returns
    -------
    tuple
        ``(rank, kind, i)`` as :func:`cuarenta_sim.cuarenta.engine.moves.select_play`.
    """
    hand = view.hand
    score = view.turn.score
    opp_score = view.opp_score
    plays = legal(hand, view.turn.table, rules, sums)
    if plays.n == 1:
        return nth_play(plays, 0)
    w_cards = params[P_CARDS]
    w_caida = params[P_CAIDA]
    w_limpia = params[P_LIMPIA]
    w_open = params[P_OPENINGS]
    w_pair = params[P_TRAIL_PAIR]
    w_ace = params[P_NO_ACE_TRAIL]
    w_run = params[P_NO_RUN_START]
    w_keep = params[P_KEEP_TABLE]
    w_known = params[P_HOLD_KNOWN]
    if params[P_RULES_38_30] != 0:
        at38 = rules.target - 2
        if score >= rules.carton_blocked_from or (score == at38 and rules.at_38 == AT38_ONLY_CAIDA):
            w_cards = 0
        if opp_score == at38 and rules.at_38 != AT38_NONE:
            w_limpia = 0
    chance = next_chances(hand, view.played, view.next_hand)
    best = np.int64(0)
    best_r = np.int64(-1)
    best_kind = np.int64(KIND_TRAIL)
    best_i = np.int64(-1)
    for k in range(plays.n):
        r, kind, i = nth_play(plays, k)
        points, cards, caida, limpia, opening, pair, ace, run, keep, known, _c, _t = play_terms(
            view, r, kind, i, chance, rules, sums
        )
        value = (
            1000 * points
            + w_cards * cards
            - w_caida * caida // 1000
            + w_pair * pair
            - w_ace * ace
            - w_run * run
            - w_known * known
            - w_limpia * limpia // 1000
            - w_open * opening // 1000
            - w_keep * keep
        )
        if best_r < 0 or value > best:
            best = value
            best_r = r
            best_kind = kind
            best_i = i
    return best_r, best_kind, best_i
