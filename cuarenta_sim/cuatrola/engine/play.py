"""The numba kernel of Cuatrola: one hand, one game (``docs/cuatrola_contract.md``).

Every kernel takes the typed state of :mod:`.layout`: ``params``
(:class:`~.layout.KernelParams`, read only), ``state`` (:class:`~.layout.HandState`: the
position ``state.pos[0]``, a record of named fields, and the scratch arrays) and, where records
are written, ``out`` (:class:`~.layout.KernelOutput`). Cards are bitmasks (bit ``card`` of a
20-bit hand); the hot loop allocates nothing. A hand is played in steps that mirror the
reference engine (:mod:`cuarenta_sim.cuatrola.reference`): :func:`new_hand`, :func:`deal`
(C1), :func:`bidding` (C2), :func:`play_trick` five times (C3, C4, each play chosen by
:func:`play_policy` and applied by :func:`play_card`), :func:`finish_hand` (C5); the trace
rows are the reference engine's (contract section 6). Policies have one signature
``(state, seat, rng, params)``: :func:`bid_policy` and :func:`play_policy`.
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
    RNG_DECK,
    W_EXCL,
    W_HANDS,
    W_NPLAYED,
    W_PLAYED,
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
def bid_policy(state, seat: np.int64, rng: np.ndarray, params) -> np.int64:
    """The declaration (0 pass .. 3 quintola) of ``seat``'s bidding policy (row ``seat`` of
    ``params.bid_pol``, contract section 3) in the position ``state``: above the highest so
    far (C2.1) and not past the target (C2.3). ``rng`` (the seat's stream) is not drawn from:
    the built-in bidding policies are deterministic."""
    pos = state.pos[0]
    bid_pol = params.bid_pol
    kind = bid_pol[seat, 0]
    if kind == BID_NEVER:
        return 0
    if kind == BID_ALWAYS:
        want = bid_pol[seat, 1]
    else:
        hand = state.work[W_HANDS + seat]
        trump = pos.trump
        strength = 0
        for c in range(20):
            if (hand >> c) & 1:
                strength += _TRUMP_W[RANK_OF[c]] if SUIT_OF[c] == trump else _PLAIN_W[RANK_OF[c]]
        want = 0
        for code in range(1, 4):
            if strength >= bid_pol[seat, code]:
                want = code
    pair_score = pos.score_0 if seat % 2 == 0 else pos.score_1
    for d in range(want, pos.contract, -1):
        if pair_score + _VALUES[d] <= params.target:
            return d
    return 0


@njit(cache=True)
def play_policy(state, seat: np.int64, rng: np.ndarray, params) -> np.int64:
    """The card ``seat`` plays in the position ``state`` by its play policy (row ``seat`` of
    ``params.play_pol``): ``random`` draws from ``rng`` (the seat's policy stream), ``greedy``
    is :func:`~.tricks.greedy_card`, ``pimc`` searches with ``rng`` as its lookahead stream
    (:func:`~.pimc.pimc_card`); a single legal card is played without drawing."""
    pos = state.pos[0]
    work = state.work
    nt = pos.n_trick
    trump = pos.trump
    legal = legal_mask(work[W_HANDS + seat], work, W_TRICK, nt, trump)
    kind = params.play_pol[seat, 0]
    if kind == PLAY_RANDOM:
        n_legal = popcount(legal)
        if n_legal > 1:
            return nth_bit(legal, nb_randbelow(rng, n_legal))
        return nth_bit(legal, 0)
    if kind == PLAY_GREEDY:
        return greedy_card(legal, work, W_TRICK, nt, seat, (seat + 2) % 4 != pos.out, trump)
    if popcount(legal) == 1:
        return nth_bit(legal, 0)
    return pimc_card(state, seat, legal, rng, params)


@njit(cache=True)
def _emit(state, kind, seat, card, value, a, b) -> None:
    """Append one trace row (contract section 6) if ``state`` traces: hand index and scores
    come from the position."""
    trace = state.trace
    if trace.shape[0] == 0:
        return
    pos = state.pos[0]
    work = state.work
    i = work[W_TRACE_N]
    trace[i, 0] = kind
    trace[i, 1] = pos.hand
    trace[i, 2] = seat
    trace[i, 3] = card
    trace[i, 4] = value
    trace[i, 5] = a
    trace[i, 6] = b
    trace[i, 7] = pos.score_0
    trace[i, 8] = pos.score_1
    work[W_TRACE_N] = i + 1


@njit(cache=True)
def new_hand(
    state,
    game: np.int64,
    hand: np.int64,
    dealer: np.int64,
    score_0: np.int64,
    score_1: np.int64,
) -> None:
    """Set the key of the next hand in the position: hand ``hand`` of game ``game`` (the
    random streams' key), the dealer and the pairs' scores before it."""
    pos = state.pos[0]
    pos.game = game
    pos.hand = hand
    pos.dealer = dealer
    pos.score_0 = score_0
    pos.score_1 = score_1


@njit(cache=True)
def deal(params, state) -> None:
    """Deal the hand set by :func:`new_hand` (C1): shuffle the deck stream of ``(game,
    hand)``, five cards to each seat from the mano, the last card dealt turns trump (C1.4);
    reset the position's counts, seed the seats' streams, emit the deal row."""
    pos = state.pos[0]
    work = state.work
    rng = state.rng
    deck = state.deck
    root = params.root
    game = pos.game
    data = pos.hand
    dealer = pos.dealer
    nb_shuffled_cards(deck, rng[RNG_DECK : RNG_DECK + 4], root, game, data)
    for k in range(4):
        seat = (dealer + 1 + k) % 4
        m = np.int64(0)
        for i in range(5):
            m |= np.int64(1) << deck[5 * k + i]
        work[W_HANDS + seat] = m
    pos.trump_card = deck[19]
    pos.trump = SUIT_OF[deck[19]]
    pos.mano = (dealer + 1) % 4
    pos.contract = 0
    pos.declarer = -1
    pos.out = -1
    pos.leader = pos.mano
    pos.trick = 0
    pos.n_trick = 0
    pos.total_0 = 0
    pos.total_1 = 0
    pos.tricks_0 = 0
    pos.tricks_1 = 0
    pos.cantes_0 = 0
    pos.cantes_1 = 0
    pos.sung = 0
    search = 0
    for s in range(4):
        kind = params.play_pol[s, 0]
        if kind == PLAY_RANDOM:
            nb_init_stream(rng[4 * s : 4 * s + 4], root, game, data, STREAM_POLICY + s)
        elif kind == PLAY_PIMC:
            search = 1
            nb_init_stream(rng[4 * s : 4 * s + 4], root, game, data, STREAM_SEARCH + s)
    pos.search = search
    if search:
        work[W_PLAYED] = 0
        for s in range(4):
            work[W_EXCL + s] = 0
            work[W_NPLAYED + s] = 0
    _emit(state, KIND_DEAL, dealer, pos.trump_card, pos.trump, 0, 0)


@njit(cache=True)
def bidding(params, state) -> None:
    """The bidding (C2): one round from the mano by :func:`bid_policy` (closed by the first
    declaration under ``first_closes``); sets the contract, the declarer, who sits out and
    who leads the first trick (C3.1)."""
    pos = state.pos[0]
    mano = pos.mano
    for k in range(4):
        seat = (mano + k) % 4
        d = bid_policy(state, seat, state.rng[4 * seat : 4 * seat + 4], params)
        _emit(state, KIND_BID, seat, -1, d, 0, 0)
        if d > pos.contract:
            pos.contract = d
            pos.declarer = seat
        if d != 0 and params.first_closes:
            break
    if pos.contract == 0:
        pos.out = -1
        pos.leader = mano
    else:
        pos.out = (pos.declarer + 2) % 4
        if pos.out != mano:
            pos.leader = mano
        elif params.lead_declarer:
            pos.leader = pos.declarer
        else:
            pos.leader = (mano + 1) % 4


@njit(cache=True)
def play_card(state, seat: np.int64, card: np.int64) -> None:
    """``seat`` plays ``card`` on the current trick: what it reveals is observed (if a seat
    searches), the card leaves the hand, joins the trick, and the play row is emitted."""
    pos = state.pos[0]
    work = state.work
    nt = pos.n_trick
    if pos.search:
        observe(work, seat, card, nt, pos.trump)
    work[W_HANDS + seat] &= ~(np.int64(1) << card)
    work[W_TRICK + nt] = card
    work[W_SEATS + nt] = seat
    pos.n_trick = nt + 1
    _emit(state, KIND_PLAY, seat, card, pos.trick, pos.total_0, pos.total_1)


@njit(cache=True)
def play_trick(params, state) -> None:
    """Play the current trick (C3): every seat but the one out, from the leader, plays its
    policy's card; the winner (C3.5) takes the trick's points (+10 for the last, C5.1), a
    cante may follow (C4, solo or no contract only) and the winner leads the next trick."""
    pos = state.pos[0]
    work = state.work
    rng = state.rng
    n_play = 4 if pos.contract == 0 else 3
    t = pos.trick
    seat = pos.leader
    pos.n_trick = 0
    while pos.n_trick < n_play:
        if seat != pos.out:
            card = play_policy(state, seat, rng[4 * seat : 4 * seat + 4], params)
            play_card(state, seat, card)
        seat = (seat + 1) % 4
    nt = pos.n_trick
    trump = pos.trump
    winner = work[W_SEATS + trick_winner_pos(work, W_TRICK, nt, trump)]
    value = 10 if t == 4 else 0
    for i in range(nt):
        value += POINTS[RANK_OF[work[W_TRICK + i]]]
    if winner % 2 == 0:
        pos.tricks_0 += 1
        pos.total_0 += value
    else:
        pos.tricks_1 += 1
        pos.total_1 += value
    _emit(state, KIND_TRICK, winner, -1, value, pos.total_0, pos.total_1)
    if pos.contract <= 1:
        singer, suit, cval = cante(work, W_HANDS, winner, pos.out, trump, pos.sung)
        if singer >= 0:
            pos.sung |= 1 << suit
            if singer % 2 == 0:
                pos.total_0 += cval
                pos.cantes_0 += cval
            else:
                pos.total_1 += cval
                pos.cantes_1 += cval
            _emit(state, KIND_CANTE, singer, suit, cval, pos.total_0, pos.total_1)
    pos.leader = winner
    pos.trick = t + 1
    pos.n_trick = 0


@njit(cache=True)
def finish_hand(params, state, out, row: np.int64) -> None:
    """Score the hand (C5): the game points go to the position's scores, the end row is
    emitted and, if ``row >= 0``, the hand's record goes to column ``row`` of ``out``."""
    pos = state.pos[0]
    gp0, gp1, made = score_hand(
        params,
        pos.contract,
        pos.declarer,
        pos.mano,
        pos.total_0,
        pos.total_1,
        pos.tricks_0,
        pos.tricks_1,
    )
    pos.score_0 += gp0
    pos.score_1 += gp1
    _emit(state, KIND_END, pos.declarer, pos.contract, made, gp0, gp1)
    if row >= 0:
        rec8 = out.rec8
        rec16 = out.rec16
        rec8[R8_DEALER, row] = pos.dealer
        rec8[R8_TRUMP, row] = pos.trump
        rec8[R8_TRUMP_CARD, row] = pos.trump_card
        rec8[R8_CONTRACT, row] = pos.contract
        rec8[R8_DECLARER, row] = pos.declarer
        rec8[R8_MADE, row] = made
        rec8[R8_TRICKS, row] = pos.tricks_0
        rec8[R8_TRICKS + 1, row] = pos.tricks_1
        rec8[R8_GP, row] = gp0
        rec8[R8_GP + 1, row] = gp1
        rec8[R8_LAST, row] = pos.leader
        rec16[R16_HAND, row] = pos.hand
        rec16[R16_POINTS, row] = pos.total_0 - pos.cantes_0
        rec16[R16_POINTS + 1, row] = pos.total_1 - pos.cantes_1
        rec16[R16_CANTES, row] = pos.cantes_0
        rec16[R16_CANTES + 1, row] = pos.cantes_1
        rec16[R16_SCORE, row] = pos.score_0
        rec16[R16_SCORE + 1, row] = pos.score_1


@njit(cache=True)
def play_hand(params, state, out, row: np.int64) -> None:
    """Play the hand set by :func:`new_hand` (contract sections 2-5): afterwards the
    position holds its scores (``score_0``, ``score_1``) and the last trick's winner
    (``leader``); its record goes to column ``row`` of ``out`` (if ``row >= 0``)."""
    deal(params, state)
    if row >= 0:
        for s in range(4):
            out.rec32[s, row] = state.work[W_HANDS + s]
    bidding(params, state)
    for _ in range(5):
        play_trick(params, state)
    finish_hand(params, state, out, row)


@njit(cache=True)
def play_game(
    params, state, out, game: np.int64, col: np.int64, row0: np.int64, cap: np.int64
) -> np.int64:
    """Play game ``game`` to the target (C6); hand ``j < cap`` goes to record column
    ``row0 + j`` of ``out``, the game to column ``col`` of ``out.game8`` / ``out.game16``.
    Returns the hands played."""
    rng = state.rng[RNG_DECK : RNG_DECK + 4]
    pos = state.pos[0]
    nb_init_stream(rng, params.root, game, 0, STREAM_GAME)
    dealer = nb_randbelow(rng, 4)
    out.game8[G8_FIRST_DEALER, col] = dealer
    s0 = 0
    s1 = 0
    winner = -1
    n = 0
    for j in range(MAX_HANDS):
        row = row0 + j if j < cap else -1
        new_hand(state, game, j, dealer, s0, s1)
        play_hand(params, state, out, row)
        if row >= 0:
            out.rec64[0, row] = game
        s0 = pos.score_0
        s1 = pos.score_1
        n = j + 1
        if s0 >= params.target:
            winner = 0
        elif s1 >= params.target:
            winner = 1
        if winner >= 0:
            break
        dealer = pos.leader if params.rotate_last_trick else (dealer + 1) % 4
    out.game8[G8_WINNER, col] = winner
    out.game8[G8_TRUNCATED, col] = 1 if winner < 0 else 0
    out.game16[G16_SCORE, col] = s0
    out.game16[G16_SCORE + 1, col] = s1
    out.game16[G16_HANDS, col] = n
    return n
