"""The ``pimc`` lookahead of the Cuatrola kernel (twin of
:mod:`cuarenta_sim.cuatrola.reference.pimc`, contract section 4).

What a seat knows is kept in ``work`` while the hand is played (:func:`observe`): the cards
played, how many each seat played, and per seat a mask of cards it cannot hold, inferred from
the obligations of C3.3. A decision samples deals of the unseen cards consistent with that
(:func:`determinize`), plays every legal card out with ``greedy`` at every seat
(:func:`play_out`) and keeps the card with the best total.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ...rng import nb_randbelow
from .layout import (
    W_EXCL,
    W_HANDS,
    W_LEFT,
    W_NEED,
    W_NPLAYED,
    W_ORDER,
    W_PLAYED,
    W_SAMPLE_H,
    W_SIM_H,
    W_SIM_T,
    W_SUM,
    W_TRICK,
    W_UNSEEN,
)
from .tricks import (
    POINTS,
    RANK_OF,
    SUIT_OF,
    cante,
    greedy_card,
    legal_mask,
    score_hand,
    suit_bits,
    trick_tops,
    trick_winner_pos,
)

#: Shuffles tried per sampled deal before dealing without the inferred exclusions.
ATTEMPTS = 16
#: Weight of a game point against a card point in the objective.
GAME_POINT_WEIGHT = 1000


@njit(cache=True)
def observe(work: np.ndarray, seat: np.int64, card: np.int64, nt: np.int64, trump: np.int64):
    """Record that ``seat`` plays ``card`` on the trick ``work[W_TRICK : W_TRICK + nt]``: the
    card is played, and what the play reveals (C3.3) joins ``work[W_EXCL + seat]``."""
    work[W_PLAYED] |= np.int64(1) << card
    work[W_NPLAYED + seat] += 1
    if nt == 0:
        return
    led, trumped, top_led, top_trump = trick_tops(work, W_TRICK, nt, trump)
    s = SUIT_OF[card]
    r = RANK_OF[card]
    excl = np.int64(0)
    if s == led:
        if not (led != trump and trumped) and r >= top_led:
            excl = ((np.int64(1) << top_led) - 1) << (5 * led)
    else:
        excl = suit_bits(led)
        if trumped:
            if s != trump or r > top_trump:
                excl |= ((np.int64(1) << top_trump) - 1) << (5 * trump)
        elif s != trump:
            excl |= suit_bits(trump)
    work[W_EXCL + seat] |= excl


@njit(cache=True)
def determinize(
    work: np.ndarray,
    state: np.ndarray,
    me: np.int64,
    nu: np.int64,
    known_trump: bool,
    dealer: np.int64,
    trump_card: np.int64,
) -> None:
    """Deal the ``nu`` unseen cards ``work[W_UNSEEN:]`` to the other seats into
    ``work[W_SAMPLE_H:]`` (``work[W_NEED:]`` cards each), respecting the exclusions: up to
    :data:`ATTEMPTS` shuffles, each card to a uniformly drawn eligible seat; after that, the
    last order dealt to the seats in ascending order, exclusions ignored."""
    for k in range(nu):
        work[W_ORDER + k] = work[W_UNSEEN + k]
    for _ in range(ATTEMPTS):
        for i in range(nu - 1, 0, -1):
            j = nb_randbelow(state, i + 1)
            tmp = work[W_ORDER + i]
            work[W_ORDER + i] = work[W_ORDER + j]
            work[W_ORDER + j] = tmp
        for s in range(4):
            work[W_SAMPLE_H + s] = 0
            work[W_LEFT + s] = work[W_NEED + s]
        if known_trump:
            work[W_SAMPLE_H + dealer] = np.int64(1) << trump_card
        ok = True
        for k in range(nu):
            c = work[W_ORDER + k]
            n_elig = 0
            for s in range(4):
                if s != me and work[W_LEFT + s] > 0 and not (work[W_EXCL + s] >> c) & 1:
                    n_elig += 1
            if n_elig == 0:
                ok = False
                break
            pick = nb_randbelow(state, n_elig) if n_elig > 1 else 0
            for s in range(4):
                if s != me and work[W_LEFT + s] > 0 and not (work[W_EXCL + s] >> c) & 1:
                    if pick == 0:
                        work[W_SAMPLE_H + s] |= np.int64(1) << c
                        work[W_LEFT + s] -= 1
                        break
                    pick -= 1
        if ok:
            return
    for s in range(4):
        work[W_SAMPLE_H + s] = 0
        work[W_LEFT + s] = work[W_NEED + s]
    if known_trump:
        work[W_SAMPLE_H + dealer] = np.int64(1) << trump_card
    for k in range(nu):
        c = work[W_ORDER + k]
        for s in range(4):
            if s != me and work[W_LEFT + s] > 0:
                work[W_SAMPLE_H + s] |= np.int64(1) << c
                work[W_LEFT + s] -= 1
                break


@njit(cache=True)
def play_out(
    params, work: np.ndarray, pos, nt: np.int64, seat: np.int64
) -> tuple[np.int64, np.int64, np.int64, np.int64]:
    """Finish the hand in ``work[W_SIM_H:]`` / ``work[W_SIM_T:]`` with ``greedy`` play at
    every seat (cantes as in a real hand), from the position ``pos`` (the ``state`` record,
    :data:`~cuarenta_sim.cuatrola.engine.layout.STATE_DTYPE`: trump, contract, who sits out,
    the trick being played and the running counts, read and never written) with ``nt`` cards
    on the trick and ``seat`` next to act; return ``(gp0, gp1, pts0, pts1)``: game points
    (C5) and card points with cantes of each pair."""
    trump = pos.trump
    out = pos.out
    contract = pos.contract
    t = pos.trick
    pts0 = pos.total_0
    pts1 = pos.total_1
    tricks0 = pos.tricks_0
    tricks1 = pos.tricks_1
    sung = pos.sung
    n_play = 4 if out < 0 else 3
    while t < 5:
        while nt < n_play:
            if seat != out:
                hand = work[W_SIM_H + seat]
                legal = legal_mask(hand, work, W_SIM_T, nt, trump)
                card = greedy_card(legal, work, W_SIM_T, nt, seat, (seat + 2) % 4 != out, trump)
                work[W_SIM_H + seat] = hand & ~(np.int64(1) << card)
                work[W_SIM_T + nt] = card
                work[W_SIM_T + 4 + nt] = seat
                nt += 1
            seat = (seat + 1) % 4
        winner = work[W_SIM_T + 4 + trick_winner_pos(work, W_SIM_T, nt, trump)]
        value = 10 if t == 4 else 0
        for i in range(nt):
            value += POINTS[RANK_OF[work[W_SIM_T + i]]]
        if winner % 2 == 0:
            tricks0 += 1
            pts0 += value
        else:
            tricks1 += 1
            pts1 += value
        if contract <= 1:
            singer, suit, cval = cante(work, W_SIM_H, winner, out, trump, sung)
            if singer >= 0:
                sung |= 1 << suit
                if singer % 2 == 0:
                    pts0 += cval
                else:
                    pts1 += cval
        seat = winner
        nt = 0
        t += 1
    gp0, gp1, _ = score_hand(params, contract, pos.declarer, pos.mano, pts0, pts1, tricks0, tricks1)
    return gp0, gp1, pts0, pts1


@njit(cache=True)
def pimc_card(state, me: np.int64, legal: np.int64, rng: np.ndarray, params) -> np.int64:
    """The card ``pimc`` plays from ``legal`` (a mask of two or more cards) for seat ``me``
    in the position ``state`` (a :data:`~cuarenta_sim.cuatrola.engine.layout.STATE_DTYPE`
    record),
    drawing from the seat's lookahead stream ``rng`` (uint64[4]); ``params.play_pol[me, 1]``
    deals are sampled (module docstring)."""
    work = state.work
    samples = params.play_pol[me, 1]
    dealer = state.dealer
    trump_card = state.trump_card
    nt = state.n_trick
    my_hand = work[W_HANDS + me]
    played = work[W_PLAYED]
    known_trump = dealer != me and not (played >> trump_card) & 1
    unseen = ((np.int64(1) << 20) - 1) & ~my_hand & ~played
    if known_trump:
        unseen &= ~(np.int64(1) << trump_card)
    nu = 0
    for c in range(20):
        if (unseen >> c) & 1:
            work[W_UNSEEN + nu] = c
            nu += 1
    for s in range(4):
        work[W_NEED + s] = 0 if s == me else 5 - work[W_NPLAYED + s]
    if known_trump:
        work[W_NEED + dealer] -= 1
    n_legal = 0
    for c in range(20):
        if (legal >> c) & 1:
            work[W_SUM + n_legal] = 0
            n_legal += 1
    side = me % 2
    for _ in range(samples):
        determinize(work, rng, me, nu, known_trump, dealer, trump_card)
        i = 0
        for card in range(20):
            if not (legal >> card) & 1:
                continue
            for s in range(4):
                work[W_SIM_H + s] = my_hand if s == me else work[W_SAMPLE_H + s]
            for k in range(nt):
                work[W_SIM_T + k] = work[W_TRICK + k]
                work[W_SIM_T + 4 + k] = work[W_TRICK + 4 + k]
            work[W_SIM_H + me] = my_hand & ~(np.int64(1) << card)
            work[W_SIM_T + nt] = card
            work[W_SIM_T + 4 + nt] = me
            gp0, gp1, p0, p1 = play_out(params, work, state, nt + 1, (me + 1) % 4)
            if side == 0:
                work[W_SUM + i] += GAME_POINT_WEIGHT * (gp0 - gp1) + p0 - p1
            else:
                work[W_SUM + i] += GAME_POINT_WEIGHT * (gp1 - gp0) + p1 - p0
            i += 1
    best = -1
    best_total = 0
    i = 0
    for card in range(20):
        if (legal >> card) & 1:
            if best < 0 or work[W_SUM + i] > best_total:
                best, best_total = card, work[W_SUM + i]
            i += 1
    return best
