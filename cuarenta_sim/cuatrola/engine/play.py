"""The numba kernel of Cuatrola: one hand, one game (``docs/cuatrola_contract.md``).

Every kernel takes the typed state of :mod:`.layout`: ``params`` (a
:data:`~.layout.PARAMS_DTYPE` record, read only), ``state`` (a :data:`~.layout.STATE_DTYPE`
record: the position's named fields, the hand's trace rows and its scratch arrays) and, where
rows are written, ``trace`` or the record blocks. Cards are bitmasks (bit ``card`` of a 20-bit
hand); the hot loop allocates nothing. A hand is played in steps that mirror the
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
from ..trace_format import (
    KIND_BID,
    KIND_CANTE,
    KIND_DEAL,
    KIND_END,
    KIND_PLAY,
    KIND_TRICK,
    N_TRACE,
)
from .layout import (
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


@njit(cache=True, inline="always")
def bid_policy(state, seat: np.int64, rng: np.ndarray, params) -> np.int64:
    """The declaration (0 pass .. 3 quintola) of ``seat``'s bidding policy (row ``seat`` of
    ``params.bid_pol``, contract section 3) in the position ``state``: above the highest so
    far (C2.1) and not past the target (C2.3). ``rng`` (the seat's stream) is not drawn from:
    the built-in bidding policies are deterministic."""
    bid_pol = params.bid_pol
    kind = bid_pol[seat, 0]
    if kind == BID_NEVER:
        return 0
    if kind == BID_ALWAYS:
        want = bid_pol[seat, 1]
    else:
        hand = state.work[W_HANDS + seat]
        trump = state.trump
        strength = 0
        for c in range(20):
            if (hand >> c) & 1:
                strength += _TRUMP_W[RANK_OF[c]] if SUIT_OF[c] == trump else _PLAIN_W[RANK_OF[c]]
        want = 0
        for code in range(1, 4):
            if strength >= bid_pol[seat, code]:
                want = code
    pair_score = state.score_0 if seat % 2 == 0 else state.score_1
    for d in range(want, state.contract, -1):
        if pair_score + _VALUES[d] <= params.target:
            return d
    return 0


@njit(cache=True, inline="always")
def play_policy(state, seat: np.int64, rng: np.ndarray, params) -> np.int64:
    """The card ``seat`` plays in the position ``state`` by its play policy (row ``seat`` of
    ``params.play_pol``): ``random`` draws from ``rng`` (the seat's policy stream), ``greedy``
    is :func:`~.tricks.greedy_card`, ``pimc`` searches with ``rng`` as its lookahead stream
    (:func:`~.pimc.pimc_card`); a single legal card is played without drawing."""
    work = state.work
    nt = state.n_trick
    trump = state.trump
    legal = legal_mask(work[W_HANDS + seat], work, W_TRICK, nt, trump)
    kind = params.play_pol[seat, 0]
    if kind == PLAY_RANDOM:
        n_legal = popcount(legal)
        if n_legal > 1:
            return nth_bit(legal, nb_randbelow(rng, n_legal))
        return nth_bit(legal, 0)
    if kind == PLAY_GREEDY:
        return greedy_card(legal, work, W_TRICK, nt, seat, (seat + 2) % 4 != state.out, trump)
    if popcount(legal) == 1:
        return nth_bit(legal, 0)
    return pimc_card(state, seat, legal, rng, params)


@njit(cache=True, inline="always")
def _emit(state, kind, seat, card, value, a, b) -> None:
    """Append one trace row (contract section 6) to the hand's rows ``state.rows`` if the
    state traces; hand index and scores come from the position."""
    if not state.tracing:
        return
    i = state.n_rows
    rows = state.rows
    rows[i, 0] = kind
    rows[i, 1] = state.hand
    rows[i, 2] = seat
    rows[i, 3] = card
    rows[i, 4] = value
    rows[i, 5] = a
    rows[i, 6] = b
    rows[i, 7] = state.score_0
    rows[i, 8] = state.score_1
    state.n_rows = i + 1


@njit(cache=True)
def flush_trace(state, trace) -> None:
    """Append the hand's trace rows (``state.rows[:state.n_rows]``) to ``trace`` after the
    ``state.work[W_TRACE_N]`` rows already there; nothing if the state does not trace."""
    if not state.tracing:
        return
    work = state.work
    i = work[W_TRACE_N]
    rows = state.rows
    for r in range(state.n_rows):
        for c in range(N_TRACE):
            trace[i + r, c] = rows[r, c]
    work[W_TRACE_N] = i + state.n_rows


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
    state.game = game
    state.hand = hand
    state.dealer = dealer
    state.score_0 = score_0
    state.score_1 = score_1


@njit(cache=True)
def deal(params, state) -> None:
    """Deal the hand set by :func:`new_hand` (C1): shuffle the deck stream of ``(game,
    hand)``, five cards to each seat from the mano, the last card dealt turns trump (C1.4);
    reset the position's counts, seed the seats' streams, emit the deal row."""
    work = state.work
    rng = state.rng
    deck = state.deck
    root = params.root
    game = state.game
    data = state.hand
    dealer = state.dealer
    state.n_rows = 0
    nb_shuffled_cards(deck, rng[RNG_DECK : RNG_DECK + 4], root, game, data)
    for k in range(4):
        seat = (dealer + 1 + k) % 4
        m = np.int64(0)
        for i in range(5):
            m |= np.int64(1) << deck[5 * k + i]
        work[W_HANDS + seat] = m
        state.dealt[seat] = m
    state.trump_card = deck[19]
    state.trump = SUIT_OF[deck[19]]
    state.mano = (dealer + 1) % 4
    state.contract = 0
    state.declarer = -1
    state.out = -1
    state.leader = state.mano
    state.trick = 0
    state.n_trick = 0
    state.total_0 = 0
    state.total_1 = 0
    state.tricks_0 = 0
    state.tricks_1 = 0
    state.cantes_0 = 0
    state.cantes_1 = 0
    state.sung = 0
    search = 0
    for s in range(4):
        kind = params.play_pol[s, 0]
        if kind == PLAY_RANDOM:
            nb_init_stream(rng[4 * s : 4 * s + 4], root, game, data, STREAM_POLICY + s)
        elif kind == PLAY_PIMC:
            search = 1
            nb_init_stream(rng[4 * s : 4 * s + 4], root, game, data, STREAM_SEARCH + s)
    state.search = search
    if search:
        work[W_PLAYED] = 0
        for s in range(4):
            work[W_EXCL + s] = 0
            work[W_NPLAYED + s] = 0
    _emit(state, KIND_DEAL, dealer, state.trump_card, state.trump, 0, 0)


@njit(cache=True)
def bidding(params, state) -> None:
    """The bidding (C2): one round from the mano by :func:`bid_policy` (closed by the first
    declaration under ``first_closes``); sets the contract, the declarer, who sits out and
    who leads the first trick (C3.1)."""
    mano = state.mano
    rng = state.rng
    for k in range(4):
        seat = (mano + k) % 4
        d = bid_policy(state, seat, rng[4 * seat : 4 * seat + 4], params)
        _emit(state, KIND_BID, seat, -1, d, 0, 0)
        if d > state.contract:
            state.contract = d
            state.declarer = seat
        if d != 0 and params.first_closes:
            break
    if state.contract == 0:
        state.out = -1
        state.leader = mano
    else:
        state.out = (state.declarer + 2) % 4
        if state.out != mano:
            state.leader = mano
        elif params.lead_declarer:
            state.leader = state.declarer
        else:
            state.leader = (mano + 1) % 4


@njit(cache=True, inline="always")
def play_card(state, seat: np.int64, card: np.int64) -> None:
    """``seat`` plays ``card`` on the current trick: what it reveals is observed (if a seat
    searches), the card leaves the hand, joins the trick, and the play row is emitted."""
    work = state.work
    nt = state.n_trick
    if state.search:
        observe(work, seat, card, nt, state.trump)
    work[W_HANDS + seat] &= ~(np.int64(1) << card)
    work[W_TRICK + nt] = card
    work[W_SEATS + nt] = seat
    state.n_trick = nt + 1
    _emit(state, KIND_PLAY, seat, card, state.trick, state.total_0, state.total_1)


@njit(cache=True)
def play_trick(params, state) -> None:
    """Play the current trick (C3): every seat but the one out, from the leader, plays its
    policy's card; the winner (C3.5) takes the trick's points (+10 for the last, C5.1), a
    cante may follow (C4, solo or no contract only) and the winner leads the next trick."""
    work = state.work
    rng = state.rng
    n_play = 4 if state.contract == 0 else 3
    t = state.trick
    out = state.out
    seat = state.leader
    state.n_trick = 0
    while state.n_trick < n_play:
        if seat != out:
            card = play_policy(state, seat, rng[4 * seat : 4 * seat + 4], params)
            play_card(state, seat, card)
        seat = (seat + 1) % 4
    nt = state.n_trick
    trump = state.trump
    winner = work[W_SEATS + trick_winner_pos(work, W_TRICK, nt, trump)]
    value = 10 if t == 4 else 0
    for i in range(nt):
        value += POINTS[RANK_OF[work[W_TRICK + i]]]
    if winner % 2 == 0:
        state.tricks_0 += 1
        state.total_0 += value
    else:
        state.tricks_1 += 1
        state.total_1 += value
    _emit(state, KIND_TRICK, winner, -1, value, state.total_0, state.total_1)
    if state.contract <= 1:
        singer, suit, cval = cante(work, W_HANDS, winner, out, trump, state.sung)
        if singer >= 0:
            state.sung |= 1 << suit
            if singer % 2 == 0:
                state.total_0 += cval
                state.cantes_0 += cval
            else:
                state.total_1 += cval
                state.cantes_1 += cval
            _emit(state, KIND_CANTE, singer, suit, cval, state.total_0, state.total_1)
    state.leader = winner
    state.trick = t + 1
    state.n_trick = 0


@njit(cache=True)
def finish_hand(params, state) -> None:
    """Score the hand (C5): ``made`` and the game points (``gp_0``, ``gp_1``) go to the
    position and to its scores, and the end row is emitted."""
    gp0, gp1, made = score_hand(
        params,
        state.contract,
        state.declarer,
        state.mano,
        state.total_0,
        state.total_1,
        state.tricks_0,
        state.tricks_1,
    )
    state.made = made
    state.gp_0 = gp0
    state.gp_1 = gp1
    state.score_0 += gp0
    state.score_1 += gp1
    _emit(state, KIND_END, state.declarer, state.contract, made, gp0, gp1)


@njit(cache=True)
def store_record(state, rec8, rec16, rec32, rec64, row: np.int64) -> None:
    """Write the record of the hand just played to column ``row`` of the record blocks
    (layouts in :mod:`.layout`; ``rec64`` gets the position's ``game``)."""
    for s in range(4):
        rec32[s, row] = state.dealt[s]
    rec8[R8_DEALER, row] = state.dealer
    rec8[R8_TRUMP, row] = state.trump
    rec8[R8_TRUMP_CARD, row] = state.trump_card
    rec8[R8_CONTRACT, row] = state.contract
    rec8[R8_DECLARER, row] = state.declarer
    rec8[R8_MADE, row] = state.made
    rec8[R8_TRICKS, row] = state.tricks_0
    rec8[R8_TRICKS + 1, row] = state.tricks_1
    rec8[R8_GP, row] = state.gp_0
    rec8[R8_GP + 1, row] = state.gp_1
    rec8[R8_LAST, row] = state.leader
    rec16[R16_HAND, row] = state.hand
    rec16[R16_POINTS, row] = state.total_0 - state.cantes_0
    rec16[R16_POINTS + 1, row] = state.total_1 - state.cantes_1
    rec16[R16_CANTES, row] = state.cantes_0
    rec16[R16_CANTES + 1, row] = state.cantes_1
    rec16[R16_SCORE, row] = state.score_0
    rec16[R16_SCORE + 1, row] = state.score_1
    rec64[0, row] = state.game


@njit(cache=True)
def play_hand(params, state) -> None:
    """Play the hand set by :func:`new_hand` (contract sections 2-5): afterwards the
    position holds its result (``made``, ``gp_0``, ``gp_1``), the scores after it, the last
    trick's winner (``leader``) and, if it traces, the hand's trace rows (``rows``)."""
    deal(params, state)
    bidding(params, state)
    for _ in range(5):
        play_trick(params, state)
    finish_hand(params, state)


@njit(cache=True)
def play_game(params, state, trace, rec8, rec16, rec32, rec64, row0, cap) -> None:
    """Play the game ``state.game`` to the target (C6); hand ``j < cap`` goes to record
    column ``row0 + j``. Afterwards the position holds ``first_dealer``, ``winner`` (-1 if
    truncated after :data:`~.layout.MAX_HANDS` hands), the final scores and
    ``hands_played``."""
    game = state.game
    rng = state.rng[RNG_DECK : RNG_DECK + 4]
    nb_init_stream(rng, params.root, game, 0, STREAM_GAME)
    dealer = nb_randbelow(rng, 4)
    state.first_dealer = dealer
    s0 = 0
    s1 = 0
    winner = -1
    n = 0
    for j in range(MAX_HANDS):
        new_hand(state, game, j, dealer, s0, s1)
        play_hand(params, state)
        flush_trace(state, trace)
        if j < cap:
            store_record(state, rec8, rec16, rec32, rec64, row0 + j)
        s0 = state.score_0
        s1 = state.score_1
        n = j + 1
        if s0 >= params.target:
            winner = 0
        elif s1 >= params.target:
            winner = 1
        if winner >= 0:
            break
        dealer = state.leader if params.rotate_last_trick else (dealer + 1) % 4
    state.winner = winner
    state.hands_played = n
