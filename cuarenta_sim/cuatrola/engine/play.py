"""The numba kernel of Cuatrola: one hand, one game (``docs/cuatrola_contract.md``).

State is bitmasks (bit ``card`` of a 20-bit hand) and small ints in a scratch int64 array; the
hot loop allocates nothing. Every function mirrors one of the reference engine
(:mod:`cuarenta_sim.cuatrola.reference`) and the trace rows are the same (contract section 6).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ...rng import (
    STREAM_GAME,
    STREAM_POLICY,
    STREAM_SEARCH,
    nb_init_stream,
    nb_randbelow,
    nb_shuffled_cards,
)
from ..policies import BID_ALWAYS, BID_NEVER, PLAY_GREEDY, PLAY_PIMC, PLAY_RANDOM
from ..trace_format import KIND_BID, KIND_CANTE, KIND_DEAL, KIND_END, KIND_PLAY, KIND_TRICK
from .layout import (
    G8_FIRST_DEALER,
    G8_TRUNCATED,
    G8_WINNER,
    G16_HANDS,
    G16_SCORE,
    MAX_HANDS,
    R8_CONTRACT,
    R8_DEALER,
    R8_DECLARER,
    R8_GP,
    R8_LAST,
    R8_MADE,
    R8_TRICKS,
    R8_TRUMP,
    R8_TRUMP_CARD,
    R16_CANTES,
    R16_HAND,
    R16_POINTS,
    R16_SCORE,
    W_EXCL,
    W_GP,
    W_HANDS,
    W_LAST,
    W_NPLAYED,
    W_PLAYED,
    W_RNG_SEARCH,
    W_SEATS,
    W_TRACE_N,
    W_TRICK,
)
from .pimc import observe, pimc_card
from .tricks import (
    POINTS,
    RANK_OF,
    SUIT_OF,
    cante,
    greedy_card,
    legal_mask,
    nth_bit,
    popcount,
    score_hand,
    trick_winner_pos,
)

_TRUMP_W = np.array([6, 5, 4, 4, 3], dtype=np.int64)
_PLAIN_W = np.array([3, 2, 0, 0, 0], dtype=np.int64)
_VALUES = np.array([1, 2, 4, 5], dtype=np.int64)


@njit(cache=True)
def declaration(
    bid_pol: np.ndarray,
    seat: np.int64,
    hand: np.int64,
    trump: np.int64,
    pair_score: np.int64,
    highest: np.int64,
    target: np.int64,
) -> np.int64:
    """The declaration of a bidding policy (row ``seat`` of ``bid_pol``, contract section 3)."""
    kind = bid_pol[seat, 0]
    if kind == BID_NEVER:
        return 0
    if kind == BID_ALWAYS:
        want = bid_pol[seat, 1]
    else:
        strength = 0
        for c in range(20):
            if (hand >> c) & 1:
                strength += _TRUMP_W[RANK_OF[c]] if SUIT_OF[c] == trump else _PLAIN_W[RANK_OF[c]]
        want = 0
        for code in range(1, 4):
            if strength >= bid_pol[seat, code]:
                want = code
    for d in range(want, highest, -1):
        if pair_score + _VALUES[d] <= target:
            return d
    return 0


@njit(cache=True)
def _emit(trace, work, kind, data, seat, card, value, a, b, s0, s1) -> None:
    """Append one trace row (contract section 6); called only when tracing."""
    i = work[W_TRACE_N]
    trace[i, 0] = kind
    trace[i, 1] = data
    trace[i, 2] = seat
    trace[i, 3] = card
    trace[i, 4] = value
    trace[i, 5] = a
    trace[i, 6] = b
    trace[i, 7] = s0
    trace[i, 8] = s1
    work[W_TRACE_N] = i + 1


@njit(cache=True)
def play_hand(
    rules,
    play_pol: np.ndarray,
    bid_pol: np.ndarray,
    root: np.uint64,
    game: np.int64,
    data: np.int64,
    dealer: np.int64,
    score0: np.int64,
    score1: np.int64,
    row: np.int64,
    rec8: np.ndarray,
    rec16: np.ndarray,
    rec32: np.ndarray,
    trace: np.ndarray,
    work: np.ndarray,
    rng: np.ndarray,
    deck: np.ndarray,
) -> None:
    """Play one hand (contract sections 2-5); game points to ``work[W_GP:W_GP+2]``, last
    trick's winner to ``work[W_LAST]``, the record to column ``row`` (if ``row >= 0``)."""
    tracing = trace.shape[0] > 0
    nb_shuffled_cards(deck, rng[16:20], root, game, data)
    for s in range(4):
        work[W_HANDS + s] = 0
    for k in range(4):
        seat = (dealer + 1 + k) % 4
        m = np.int64(0)
        for i in range(5):
            m |= np.int64(1) << deck[5 * k + i]
        work[W_HANDS + seat] = m
    trump_card = deck[19]
    trump = SUIT_OF[trump_card]
    mano = (dealer + 1) % 4
    if row >= 0:
        for s in range(4):
            rec32[s, row] = work[W_HANDS + s]
    search = False
    for s in range(4):
        if play_pol[s, 0] == PLAY_RANDOM:
            nb_init_stream(rng[4 * s : 4 * s + 4], root, game, data, STREAM_POLICY + s)
        elif play_pol[s, 0] == PLAY_PIMC:
            search = True
            rs = W_RNG_SEARCH + 4 * s
            nb_init_stream(rng[rs : rs + 4], root, game, data, STREAM_SEARCH + s)
    if search:
        work[W_PLAYED] = 0
        for s in range(4):
            work[W_EXCL + s] = 0
            work[W_NPLAYED + s] = 0
    if tracing:
        _emit(trace, work, KIND_DEAL, data, dealer, trump_card, trump, 0, 0, score0, score1)

    contract = 0
    declarer = -1
    for k in range(4):
        seat = (mano + k) % 4
        ps = score0 if seat % 2 == 0 else score1
        d = declaration(bid_pol, seat, work[W_HANDS + seat], trump, ps, contract, rules.target)
        if tracing:
            _emit(trace, work, KIND_BID, data, seat, -1, d, 0, 0, score0, score1)
        if d > contract:
            contract = d
            declarer = seat
        if d != 0 and rules.first_closes:
            break

    out = -1 if contract == 0 else (declarer + 2) % 4
    n_play = 4 if contract == 0 else 3
    if out != mano:
        leader = mano
    elif rules.lead_declarer:
        leader = declarer
    else:
        leader = (mano + 1) % 4
    tricks0 = 0
    tricks1 = 0
    pts0 = 0
    pts1 = 0
    cant0 = 0
    cant1 = 0
    sung = 0
    cantes_on = contract <= 1
    for t in range(5):
        nt = 0
        seat = leader
        while nt < n_play:
            if seat != out:
                hand = work[W_HANDS + seat]
                legal = legal_mask(hand, work, W_TRICK, nt, trump)
                kind = play_pol[seat, 0]
                if kind == PLAY_RANDOM:
                    n_legal = popcount(legal)
                    if n_legal > 1:
                        card = nth_bit(legal, nb_randbelow(rng[4 * seat : 4 * seat + 4], n_legal))
                    else:
                        card = nth_bit(legal, 0)
                elif kind == PLAY_GREEDY:
                    card = greedy_card(legal, work, W_TRICK, nt, seat, (seat + 2) % 4 != out, trump)
                elif popcount(legal) == 1:
                    card = nth_bit(legal, 0)
                else:
                    rs = W_RNG_SEARCH + 4 * seat
                    card = pimc_card(rules, work, rng[rs : rs + 4], play_pol[seat, 1], seat, legal,
                                     trump, trump_card, dealer, out, contract, declarer, mano, t,
                                     nt, pts0, pts1, tricks0, tricks1, sung)  # fmt: skip
                if search:
                    observe(work, seat, card, nt, trump)
                work[W_HANDS + seat] = hand & ~(np.int64(1) << card)
                work[W_TRICK + nt] = card
                work[W_SEATS + nt] = seat
                nt += 1
                if tracing:
                    _emit(trace, work, KIND_PLAY, data, seat, card, t, pts0, pts1, score0, score1)
            seat = (seat + 1) % 4
        pos = trick_winner_pos(work, W_TRICK, nt, trump)
        winner = work[W_SEATS + pos]
        value = 10 if t == 4 else 0
        for i in range(nt):
            value += POINTS[RANK_OF[work[W_TRICK + i]]]
        if winner % 2 == 0:
            tricks0 += 1
            pts0 += value
        else:
            tricks1 += 1
            pts1 += value
        if tracing:
            _emit(trace, work, KIND_TRICK, data, winner, -1, value, pts0, pts1, score0, score1)
        if cantes_on:
            singer, suit, cval = cante(work, W_HANDS, winner, out, trump, sung)
            if singer >= 0:
                sung |= 1 << suit
                if singer % 2 == 0:
                    pts0 += cval
                    cant0 += cval
                else:
                    pts1 += cval
                    cant1 += cval
                if tracing:
                    _emit(trace, work, KIND_CANTE, data, singer, suit, cval, pts0, pts1,
                          score0, score1)  # fmt: skip
        leader = winner

    gp0, gp1, made = score_hand(rules, contract, declarer, mano, pts0, pts1, tricks0, tricks1)
    if tracing:
        _emit(
            trace,
            work,
            KIND_END,
            data,
            declarer,
            contract,
            made,
            gp0,
            gp1,
            score0 + gp0,
            score1 + gp1,
        )
    work[W_GP] = gp0
    work[W_GP + 1] = gp1
    work[W_LAST] = leader
    if row >= 0:
        rec8[R8_DEALER, row] = dealer
        rec8[R8_TRUMP, row] = trump
        rec8[R8_TRUMP_CARD, row] = trump_card
        rec8[R8_CONTRACT, row] = contract
        rec8[R8_DECLARER, row] = declarer
        rec8[R8_MADE, row] = made
        rec8[R8_TRICKS, row] = tricks0
        rec8[R8_TRICKS + 1, row] = tricks1
        rec8[R8_GP, row] = gp0
        rec8[R8_GP + 1, row] = gp1
        rec8[R8_LAST, row] = leader
        rec16[R16_HAND, row] = data
        rec16[R16_POINTS, row] = pts0 - cant0
        rec16[R16_POINTS + 1, row] = pts1 - cant1
        rec16[R16_CANTES, row] = cant0
        rec16[R16_CANTES + 1, row] = cant1
        rec16[R16_SCORE, row] = score0 + gp0
        rec16[R16_SCORE + 1, row] = score1 + gp1


@njit(cache=True)
def play_game(
    rules,
    play_pol: np.ndarray,
    bid_pol: np.ndarray,
    root: np.uint64,
    game: np.int64,
    col: np.int64,
    row0: np.int64,
    cap: np.int64,
    rec8: np.ndarray,
    rec16: np.ndarray,
    rec32: np.ndarray,
    rec64: np.ndarray,
    game8: np.ndarray,
    game16: np.ndarray,
    trace: np.ndarray,
    work: np.ndarray,
    rng: np.ndarray,
    deck: np.ndarray,
) -> np.int64:
    """Play game ``game`` to the target (C6); hand ``j < cap`` goes to record column
    ``row0 + j``, the game to column ``col`` of ``game8`` / ``game16``. Returns hands played."""
    nb_init_stream(rng[16:20], root, game, 0, STREAM_GAME)
    dealer = nb_randbelow(rng[16:20], 4)
    game8[G8_FIRST_DEALER, col] = dealer
    s0 = 0
    s1 = 0
    winner = -1
    n = 0
    for j in range(MAX_HANDS):
        row = row0 + j if j < cap else -1
        play_hand(
            rules,
            play_pol,
            bid_pol,
            root,
            game,
            j,
            dealer,
            s0,
            s1,
            row,
            rec8,
            rec16,
            rec32,
            trace,
            work,
            rng,
            deck,
        )
        if row >= 0:
            rec64[0, row] = game
        s0 += work[W_GP]
        s1 += work[W_GP + 1]
        n = j + 1
        if s0 >= rules.target:
            winner = 0
        elif s1 >= rules.target:
            winner = 1
        if winner >= 0:
            break
        dealer = work[W_LAST] if rules.rotate_last_trick else (dealer + 1) % 4
    game8[G8_WINNER, col] = winner
    game8[G8_TRUNCATED, col] = 1 if winner < 0 else 0
    game16[G16_SCORE, col] = s0
    game16[G16_SCORE + 1, col] = s1
    game16[G16_HANDS, col] = n
    return n
