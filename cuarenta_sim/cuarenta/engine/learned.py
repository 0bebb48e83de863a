"""The ``learned`` policy in numba: a linear scorer of observable per-play features.

Every legal play (canonical order, contract section 3) gets the integer score
``sum_j w[j] * f[j]`` over the :data:`N_FEATURES` integer features below; the policy plays the
first play of largest score. Weights are int64 fixed point (the float model's coefficients
times :data:`WEIGHT_SCALE`, divided by the feature's scale, rounded; see
``benchmarks/train_learned.py``) and features are integers, so the pure-Python twin
(:func:`cuarenta_sim.cuarenta.reference.learned.learned_index`) reproduces every score exactly.
The weights come from the seat's parameter row (slots ``0 .. N_FEATURES - 1``): the model of
the table's player count in the weights file (:mod:`cuarenta_sim.cuarenta.policies.learned`).

Features (version :data:`FEATURE_VERSION`)
------------------------------------------
The first eleven reuse the ``heuristic``'s unweighted terms
(:func:`cuarenta_sim.cuarenta.engine.heuristic.play_terms`, one implementation): what the seat
observes and nothing else (contract section 6). With ``r`` the play's rank, ``c'`` the cards
it leaves on the table, ``P[q]`` the per-mille chance that the next player holds rank ``q``;
"blocked" is the heuristic's ``rules_38_30`` test (the side's score at or above
``carton_blocked_from``, R8.6, or at 38 under ``only_caida``, R9.1); "38 drop" is the other
side at 38 under a 38 rule that drops limpias (R9.1); "near" is a score at or above
``target - 10``:

==  ==================  ===============================================================
 0  points              points now: caida, limpia, claims (after blocks and the 38 rule)
 1  cards               cards captured (played card, base, run), 0 when blocked
 2  cards_blocked       cards captured when blocked, else 0
 3  caida               trail: ``P[r] x caida value`` (per mille points)
 4  limpia              ``max P[q] x 2`` over ranks emptying the table left, 0 on a 38 drop
 5  limpia_38           the same on a 38 drop, else 0
 6  openings            ``sum_q P[q] x cards q takes`` on the table left (per mille cards)
 7  pair                trail of a rank held two or more times
 8  ace                 trail of an ace
 9  run_start           table cards of ranks r+1, r+2, ... after a trail of r
10  keep                ``3 - c'`` when ``1 <= c' <= 2``
11  known               trail of a rank the next player is known to hold (R4)
12  trail               1 for a trail
13  trail_rank          ``r`` for a trail (A=0 .. K=9), else 0
14  face_trail          trail of a J, Q or K
15  sum                 capture by a sum (R5.2)
16  table_left          ``c'``
17  rank_left           cards of rank ``r`` still in the hand after the play
18  cards_pile          cards captured x cards already in the side's pile
19  points_near         points when the side's score is near the target
20  caida_near          the caida term when the other side's score is near the target
21  cards_deal          cards captured x deal index (0-based)
22  table_last_deal     ``c'`` in the data's last deal (leftovers, R8.1), else 0
23  openings_deal       openings x deal index
24  own_next            most cards a rank left in the hand would capture on the table left
25  own_limpia          1 if a rank left in the hand would empty the table left
26  next_best           ``max_q P[q] x cards q takes`` on the table left (per mille cards)
27  cards_carton        cards captured when the side's pile holds 14 or more (carton, R8.2)
28  points_opp_near     points when the other side's score is near the target
29  trail_unseen        trail: cards of rank ``r`` the seat has not seen (``4 - hand -
                        played``)
30  trail_2 .. trail_K  trail of that rank (one feature per rank 2..7, J, Q, K: 30-38)
39  capture_2 ..        capture played with that rank (one feature per rank 2..7, J, Q,
    capture_K           K: 39-47)
==  ==================  ===============================================================

Features 12-47 condition the terms on the play's kind and on public context (scores, piles,
deal), which a linear scorer cannot otherwise see: terms equal across a decision's plays do
not change its choice.

Speed: :func:`learned_play` builds no feature row. The per-decision context (scores near the
target, pile, deal, blocks, the 38 rule) is folded once into per-term weights and each play's
score is accumulated from :func:`play_features`, whose one scan of the table left
(:func:`cuarenta_sim.cuarenta.engine.heuristic.exposure_terms`) serves both the heuristic's
terms and the follow-up terms; :func:`decision_features` (the training script's rows) uses the
same :func:`play_features`, so the two cannot drift apart, and integer arithmetic keeps the
score equal to the dot product of the row and the weights. Measured (``benchmarks/README.md``,
``python benchmarks/policies.py --learned-only --chicas 20000 --chicas4 2000``; 2 shared cores
at a CPU share of 0.25): learned at both seats 30,820 datas/s (124,876 per CPU-second x 2
threads), 0.92 of the heuristic's 33,496 in the same run.

Weights: the default ``learned_v2`` (``policies/weights``) wins 56.25% [55.77%, 56.74%] (Wilson
95%) of 40,000 duplicate chicas against ``heuristic`` with 2 players, Quito, and 53.35% [51.80%,
54.89%] of 4,000 with 4 players (same command); ``learned_v1``, 53.55% [53.06%, 54.03%].
"""

from __future__ import annotations

__all__ = [
    "CARTON_NEAR",
    "FEATURE_NAMES",
    "FEATURE_VERSION",
    "NEAR_TARGET",
    "N_FEATURES",
    "WEIGHT_SCALE",
    "PlayFeatures",
    "decision_context",
    "decision_features",
    "fill_features",
    "learned_play",
    "play_features",
]

from typing import NamedTuple

import numpy as np
from numba import njit

from ..policies.learned import FEATURE_NAMES, FEATURE_VERSION, N_FEATURES, WEIGHT_SCALE
from .heuristic import capture_terms, exposure_terms, next_chances
from .layout import (
    AT38_NONE,
    AT38_ONLY_CAIDA,
    KIND_SUM,
    KIND_TRAIL,
)
from .moves import legal, nth_play
from .state import View

#: A score at or above ``target - NEAR_TARGET`` is near the target.
NEAR_TARGET = 10
#: A pile of at least this many cards is near the carton (20 cards, R8.2).
CARTON_NEAR = 14


class PlayFeatures(NamedTuple):
    """The play-dependent terms of one play (:func:`play_features`), int64: ``points``,
    ``cards``, ``caida``, ``limpia``, ``opening``, ``pair``, ``ace``, ``run`` (run start),
    ``keep``, ``known`` and ``after`` (the cards left on the table) as
    :func:`cuarenta_sim.cuarenta.engine.heuristic.play_terms`, then features 24, 25, 26
    (``own_next``, ``own_limpia``, ``next_best``) and ``unseen_r``, the unseen count of rank
    ``r`` (module docstring)."""

    points: int
    cards: int
    caida: int
    limpia: int
    opening: int
    pair: int
    ace: int
    run: int
    keep: int
    known: int
    after: int
    own_next: int
    own_limpia: int
    next_best: int
    unseen_r: int


@njit(cache=True, inline="always")
def play_features(
    view: View,
    r: np.int64,
    kind: np.int64,
    i: np.int64,
    chance: np.ndarray,
    rules,
    sums: np.ndarray,
) -> PlayFeatures:
    """The play-dependent terms of play ``(r, kind, i)``, before the context of the decision.

    One implementation for :func:`fill_features` (the feature rows of the training script) and
    :func:`learned_play` (the kernel's score, which never builds a feature row). The terms of
    :func:`cuarenta_sim.cuarenta.engine.heuristic.play_terms` come from the same two functions
    it calls (``capture_terms``, ``exposure_terms``). ``view`` is the seat's observation
    (:class:`.state.View`), ``chance`` the per mille chance (int64, shape (10,)) that the next
    player holds each rank.

    Returns
    -------
    PlayFeatures
        The terms by name (:class:`PlayFeatures`).
    """
    points, cards, caida, pair, ace, run, known, after, left = capture_terms(
        view, r, kind, i, chance, rules, sums
    )
    # One scan of the table left gives the heuristic's exposure terms, the hand's follow-up
    # and the next player's best single capture (each rank's capture searched once).
    hand = view.hand
    own = hand - (np.int64(1) << (4 * r))
    risk, opening, keep, own_next, own_limpia, next_best = exposure_terms(
        left, after, r, kind, chance, own, rules, sums
    )
    limpia = risk * 2
    unseen_r = 4 - ((hand >> (4 * r)) & 15) - ((view.played >> (4 * r)) & 15)
    return PlayFeatures(
        points, cards, caida, limpia, opening, pair, ace, run, keep, known, after, own_next,
        own_limpia, next_best, unseen_r,
    )  # fmt: skip


@njit(cache=True, inline="always")
def decision_context(view: View, rules) -> tuple[bool, bool, bool]:
    """The tests of the module docstring that hold for every play of a decision.

    Returns
    -------
    tuple of bool
        ``(blocked, drop38, last_deal)``: the side's score at or above
        ``carton_blocked_from`` (R8.6) or at 38 under ``only_caida`` (R9.1); the other side at
        38 under a 38 rule that drops limpias (R9.1); the deal is the data's last.
    """
    score = view.turn.score
    at38 = rules.target - 2
    blocked = score >= rules.carton_blocked_from or (
        score == at38 and rules.at_38 == AT38_ONLY_CAIDA
    )
    drop38 = view.opp_score == at38 and rules.at_38 != AT38_NONE
    last_deal = view.deal == 8 // view.n_players - 1
    return blocked, drop38, last_deal


@njit(cache=True, inline="always")
def fill_features(
    out: np.ndarray,
    row: np.int64,
    view: View,
    r: np.int64,
    kind: np.int64,
    i: np.int64,
    chance: np.ndarray,
    rules,
    sums: np.ndarray,
) -> None:
    """Write the features (module docstring) of play ``(r, kind, i)`` to ``out[row, :]``.

    ``out`` is int64 of shape ``(rows, N_FEATURES)``; ``view`` the seat's observation
    (:class:`.state.View`: ``played`` the packed counts of the cards played in the data,
    ``pile`` the acting side's pile size, ``deal`` the deal index); ``chance`` as in
    :func:`play_features`.
    """
    f = play_features(view, r, kind, i, chance, rules, sums)
    points = f.points
    cards = f.cards
    caida = f.caida
    limpia = f.limpia
    opening = f.opening
    after = f.after
    blocked, drop38, last_deal = decision_context(view, rules)
    score = view.turn.score
    opp_score = view.opp_score
    pile = view.pile
    deal = view.deal
    trail = kind == KIND_TRAIL
    out[row, 0] = points
    out[row, 1] = 0 if blocked else cards
    out[row, 2] = cards if blocked else 0
    out[row, 3] = caida
    out[row, 4] = 0 if drop38 else limpia
    out[row, 5] = limpia if drop38 else 0
    out[row, 6] = opening
    out[row, 7] = f.pair
    out[row, 8] = f.ace
    out[row, 9] = f.run
    out[row, 10] = f.keep
    out[row, 11] = f.known
    out[row, 12] = 1 if trail else 0
    out[row, 13] = r if trail else 0
    out[row, 14] = 1 if trail and r >= 7 else 0
    out[row, 15] = 1 if kind == KIND_SUM else 0
    out[row, 16] = after
    out[row, 17] = ((view.hand >> (4 * r)) & 15) - 1
    out[row, 18] = cards * pile
    out[row, 19] = points if score >= rules.target - NEAR_TARGET else 0
    out[row, 20] = caida if opp_score >= rules.target - NEAR_TARGET else 0
    out[row, 21] = cards * deal
    out[row, 22] = after if last_deal else 0
    out[row, 23] = opening * deal
    out[row, 24] = f.own_next
    out[row, 25] = f.own_limpia
    out[row, 26] = f.next_best
    out[row, 27] = cards if pile >= CARTON_NEAR else 0
    out[row, 28] = points if opp_score >= rules.target - NEAR_TARGET else 0
    out[row, 29] = f.unseen_r if trail else 0
    for q in range(1, 10):
        out[row, 29 + q] = 1 if trail and r == q else 0
        out[row, 38 + q] = 1 if not trail and r == q else 0


@njit(cache=True)
def decision_features(view: View, rules, sums: np.ndarray) -> np.ndarray:
    """The features of every legal play of a decision: int64, shape ``(n_legal, N_FEATURES)``,
    rows in canonical order (contract section 3).

    Parameters
    ----------
    view : View
        What the seat observes (:class:`.state.View`): packed own hand; the table and its
        cards, the previous trail (-1 if none, R6.1) and whether it is its trailer's ronda
        rank, the acting side's score; the other side's score; the packed counts of the cards
        played in the data so far; the seat's ronda ranks of the deal (bit 3 of the rank's
        field); the packed counts the next player is known to hold (announced ronda minus its
        plays); cards in the next player's hand after this play; cards in the acting side's
        pile; the deal index (0-based) and the players (2 or 4: ``8 // n_players`` deals).
    rules : KernelRules
    sums : ndarray of int64
        Kernel sum tables.

    Returns
    -------
    ndarray of int64, shape (n_legal, N_FEATURES)
        Used by :func:`learned_play` and by the training script (``benchmarks/train_learned.py``).
    """
    hand = view.hand
    plays = legal(hand, view.turn.table, rules, sums)
    chance = next_chances(hand, view.played, view.next_hand)
    out = np.empty((plays.n, N_FEATURES), dtype=np.int64)
    for k in range(plays.n):
        r, kind, i = nth_play(plays, k)
        fill_features(out, k, view, r, kind, i, chance, rules, sums)
    return out


@njit(cache=True)
def learned_play(
    params: np.ndarray, view: View, rules, sums: np.ndarray
) -> tuple[np.int64, np.int64, np.int64]:
    """The learned play: the first legal play of largest ``sum_j w[j] * f[j]``.

    Parameters
    ----------
    params : ndarray of int64
        The seat's parameter row: the weights at ``params[0 : N_FEATURES]``.
    view, rules, sums
        As in :func:`decision_features`.

    Returns
    -------
    tuple
        ``(rank, kind, i)`` as :func:`cuarenta_sim.cuarenta.engine.moves.select_play`.
    """
    hand = view.hand
    plays = legal(hand, view.turn.table, rules, sums)
    if plays.n == 1:
        return nth_play(plays, 0)
    # The context of the decision folds into per-term weights once (integer arithmetic, so
    # the score equals the dot product of the feature row and the weights exactly); no
    # feature row is built.
    w = params
    score = view.turn.score
    opp_score = view.opp_score
    pile = view.pile
    deal = view.deal
    near = rules.target - NEAR_TARGET
    blocked, drop38, last_deal = decision_context(view, rules)
    w_points = w[0] + (w[19] if score >= near else 0) + (w[28] if opp_score >= near else 0)
    w_cards = (
        (w[2] if blocked else w[1])
        + w[18] * pile
        + w[21] * deal
        + (w[27] if pile >= CARTON_NEAR else 0)
    )
    w_caida = w[3] + (w[20] if opp_score >= near else 0)
    w_limpia = w[5] if drop38 else w[4]
    w_open = w[6] + w[23] * deal
    w_after = w[16] + (w[22] if last_deal else 0)
    chance = next_chances(hand, view.played, view.next_hand)
    best = 0
    best_value = np.int64(0)
    for k in range(plays.n):
        r, kind, i = nth_play(plays, k)
        f = play_features(view, r, kind, i, chance, rules, sums)
        value = (
            w_points * f.points
            + w_cards * f.cards
            + w_caida * f.caida
            + w_limpia * f.limpia
            + w_open * f.opening
            + w[7] * f.pair
            + w[8] * f.ace
            + w[9] * f.run
            + w[10] * f.keep
            + w[11] * f.known
            + w_after * f.after
            + w[17] * (((hand >> (4 * r)) & 15) - 1)
            + w[24] * f.own_next
            + w[25] * f.own_limpia
            + w[26] * f.next_best
        )
        if kind == KIND_TRAIL:
            value += w[12] + w[13] * r + w[29] * f.unseen_r
            if r >= 7:
                value += w[14]
            if r >= 1:
                value += w[29 + r]
        else:
            if kind == KIND_SUM:
                value += w[15]
            if r >= 1:
                value += w[38 + r]
        if k == 0 or value > best_value:
            best = k
            best_value = value
    return nth_play(plays, best)
