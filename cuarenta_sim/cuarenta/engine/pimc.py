"""The ``pimc`` policy in numba: perfect-information Monte Carlo over the unseen cards.

At a decision with more than one legal play, the seat draws ``samples`` deals of the cards it
has not seen, plays every legal play out in every sample (the same samples for every play:
common random numbers) and plays the first play of largest total value (ties to the canonical
order, contract section 3). The pure-Python twin is
:class:`cuarenta_sim.cuarenta.reference.policies.PimcPolicy`; both use integer arithmetic only.

Observation conditioned on (all public, contract section 6)
------------------------------------------------------------
The seat's own hand; the table; the counts of every card played in the data so far (so the
unseen cards are ``4 - hand - played`` per rank); the deal number, the dealer and the turn,
hence every other seat's hand size and the stock size (``40 - 5 * players * (deal + 1)``);
the ronda announcements of the deal (R4): a seat that announced a ronda (doble ronda) of rank
``q`` was dealt 3 (4) of it, so it holds them minus the cards of rank ``q`` it has played
since (``known``); the previous trail, the scores, the pile sizes and the last capturer.

Sampling: the unseen cards minus the known ronda cards, listed by ascending rank, are shuffled
by Fisher-Yates (``i = m-1 .. 1``: swap ``i`` with ``randbelow(i + 1)``, the deck shuffle of
contract section 2) from the seat's search stream ``STREAM_SEARCH + seat`` of the data; the
other seats, from the seat after the decider round, each take their known cards plus the next
``hand size - known`` shuffled cards; the rest is the stock, dealt in later deals in order (the
``p``-th seat after the dealer takes the ``p``-th block of 5). Every assignment consistent with
the conditioned observations is equally likely. **Approximation**: the absence of an
announcement is not conditioned on (a sample may give a seat three of a rank dealt in this deal
although it announced nothing).

Playout and value
-----------------
From the sampled full state the decider's candidate play is applied, then every seat plays
``playout`` (``greedy``, or ``heuristic`` with the default weights) until the end of the deal
(``depth=deal``) or of the data (``depth=data``), scored exactly as contract sections 4-5:
caidas, limpias, caida en ronda and its claims (credited at the end of the deal), the blocks
and the 38 rule on the playout's running scores, and when the data's end is reached the
end-of-data count (R8: leftovers, carton, ties, falla, with the 38 rule). Rondas of later deals
are not scored (the same cards are dealt whatever the candidate). The value, in milli-points,
is 1000 times the decider side's points in the playout minus the other side's; at levels chica
and mesa a playout ends when a side reaches the target, and the value gains
``1000 * WIN_POINTS`` for a win (loses it for a loss); a playout that stops at the end of a deal
before the data's end adds ``leaf_cards`` per card the decider's side captured in it net of the
other side's (the carton the playout does not reach). Integer totals over the samples decide.

Defaults ``samples=32, depth=deal, playout=heuristic, leaf_cards=800``: the strongest setting
tried within the speed target (``benchmarks/README.md``: about 15,000 decisions/s on 2 cores,
64.4% [63.9%, 64.9%] of 40,000 duplicate chicas won against the tuned heuristic). Playouts
with ``greedy`` or to ``depth=data`` were weaker (noisier values, a cruder model of play).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..policies.kernel import (
    DEPTH_DEAL,
    P_DEPTH,
    P_LEAF_CARDS,
    P_PLAYOUT,
    P_SAMPLES,
    PLAYOUT_GREEDY,
    POLICY_GREEDY,
    draw_below,
)
from .heuristic import FOUR_EACH, heuristic_play, packed_total
from .layout import SUMS_COUNT
from .moves import (
    NIBBLE_ONES,
    add_claim,
    apply_play,
    best_play,
    claim_credit,
    end_credit,
    end_of_data_points,
    legal,
    nth_play,
    occupied,
    sum_key,
)
from .state import Legal, Position, Stream, Turn, View

#: Value of winning the chica inside a playout (levels chica and mesa), in points.
WIN_POINTS = 100

#: Adding 5 to every 4-bit count sets bit 3 exactly for counts 3 and 4 (a ronda, R4).
_RONDA_ADD = 5 * NIBBLE_ONES
_RONDA_BITS = 8 * NIBBLE_ONES

# Scratch layout of a playout (int64): scores, points gained, piles, then per seat the hand,
# the ronda mask and the known ronda cards, then the piles at the start of the playout.
ST_SCORE = 0
ST_GAIN = 2
ST_PILE = 4
ST_HANDS = 6
ST_RONDA = 10
ST_KNOWN = 14
ST_CARDS0 = 18
N_ST = 20


@njit(cache=True, inline="always")
def plays_made(turns: np.int64, position: np.int64, n_players: np.int64) -> np.int64:
    """Plays made in the current deal by the seat ``position`` places after the dealer's
    successor (0 = the leader), once ``turns`` turns of the deal have been played (R3.3)."""
    if turns <= position:
        return np.int64(0)
    return (turns - position + n_players - 1) // n_players


@njit(cache=True)
def end_counts(
    rules, dealer: np.int64, table_cards: np.int64, last_capturer: np.int64, st: np.ndarray
) -> np.int64:
    """Credit the end-of-data count (R8, R9.1; contract 5) to the playout scratch ``st``.

    The count is :func:`cuarenta_sim.cuarenta.engine.moves.end_of_data_points` (the one the
    simulator uses), credited in the order of :func:`.moves.end_credit`. Returns the side that
    reaches the target first (only meaningful when the caller checks the target), or -1.
    Every credit is added to the playout's gains, also after that side's win: pimc's value of
    a playout won at the end of the data (``_value``) includes the count of both sides.
    """
    pile0, pile1, count0, count1, falla0, falla1, _c0, _c1 = end_of_data_points(
        rules,
        dealer,
        st[ST_PILE],
        st[ST_PILE + 1],
        table_cards,
        last_capturer,
        st[ST_SCORE],
        st[ST_SCORE + 1],
    )
    st[ST_PILE] = pile0
    st[ST_PILE + 1] = pile1
    winner = -1
    for k in range(4):
        side, pts, _is_count = end_credit(k, dealer, count0, count1, falla0, falla1)
        st[ST_SCORE + side] += pts
        st[ST_GAIN + side] += pts
        if winner < 0 and pts > 0 and st[ST_SCORE + side] >= rules.target:
            winner = side
    return winner


@njit(cache=True, inline="always")
def _value(st: np.ndarray, me: np.int64, winner: np.int64, leaf: np.int64) -> np.int64:
    """The playout's value in milli-points: 1000 times the decider side's gain minus the
    other side's, +- 1000 * WIN_POINTS for a won / lost chica, plus ``leaf`` times the net
    cards captured in the playout (``st[ST_CARDS0:]`` holds the piles at its start)."""
    v = 1000 * (st[ST_GAIN + me] - st[ST_GAIN + 1 - me])
    if winner == me:
        v += 1000 * WIN_POINTS
    elif winner >= 0:
        v -= 1000 * WIN_POINTS
    if leaf != 0:
        v += leaf * (
            st[ST_PILE + me] - st[ST_CARDS0 + me] - st[ST_PILE + 1 - me] + st[ST_CARDS0 + 1 - me]
        )
    return v


@njit(cache=True)
def playout(
    rules,
    sums: np.ndarray,
    params: np.ndarray,
    pos: Position,
    first: tuple[np.int64, np.int64, np.int64],
    st: np.ndarray,
    stock: np.ndarray,
    stock_off: np.int64,
) -> np.int64:
    """Play a sampled full state out and return its value (module docstring).

    ``pos`` (:class:`.state.Position`) is the public state at the decision: the deciding
    seat (its side is valued), the dealer, the deal and turn, the table, the previous trail,
    the played cards and the last capturer (its hand, scores and piles are read from ``st``).
    ``st`` (int64, N_ST) holds the scores, zero gains, the piles and every seat's packed hand,
    ronda mask and known ronda cards; it is changed. ``stock[stock_off:]`` are the ranks of
    the stock in dealing order. The first turn plays ``first`` = ``(rank, kind, i)``; later
    turns the playout policy (``params[P_PLAYOUT]``; ``params`` is the seat's parameter row),
    to ``params[P_DEPTH]``.
    """
    n_players = pos.n_players
    check_target = pos.check_target
    me = pos.seat & 1
    dealer = pos.dealer
    table = pos.table
    table_cards = pos.table_cards
    prev_rank = pos.prev_rank
    prev_seat = pos.prev_seat
    played = pos.played
    last_capturer = pos.last_capturer
    first_r, first_kind, first_i = first
    n_deals = 8 // n_players
    target = rules.target
    depth = params[P_DEPTH]
    greedy = params[P_PLAYOUT] == PLAYOUT_GREEDY
    claims0 = 0
    claims1 = 0
    first_claim = -1
    d = pos.deal
    t = pos.turn
    while True:
        while t < 5 * n_players:
            seat = (dealer + 1 + t) % n_players
            side = seat & 1
            hand = st[ST_HANDS + seat]
            s = st[ST_SCORE + side]
            prev_in_ronda = (
                prev_rank >= 0 and (st[ST_RONDA + prev_seat] >> (4 * prev_rank + 3)) & 1 != 0
            )
            turn = Turn(table, table_cards, prev_rank, prev_in_ronda, s)
            if first_r >= 0:
                r, kind, i = first_r, first_kind, first_i
                first_r = -1
            elif greedy:
                key = sum_key(table)
                captures = sums[SUMS_COUNT + key] + occupied(table)
                r, kind, i = best_play(POLICY_GREEDY, hand, captures, key, turn, rules, sums)
            else:
                nxt = seat + 1 if seat + 1 < n_players else 0
                view = View(
                    hand,
                    turn,
                    st[ST_SCORE + 1 - side],
                    played,
                    st[ST_RONDA + seat],
                    st[ST_KNOWN + nxt],
                    packed_total(st[ST_HANDS + nxt]),
                    np.int64(0),
                    d,
                    n_players,
                )
                r, kind, i = heuristic_play(params, view, rules, sums)
            bit = np.int64(1) << (4 * r)
            st[ST_HANDS + seat] = hand - bit
            played += bit
            if (st[ST_KNOWN + seat] >> (4 * r)) & 15 != 0:
                st[ST_KNOWN + seat] -= bit
            t += 1
            table, table_cards, _b, taken, _r, _c, _e, _l, now, lim, claim = apply_play(
                rules, sums, r, kind, i, turn
            )
            if taken == 0:  # a trail: it becomes the previous trail (R6.1)
                prev_rank = r
                prev_seat = seat
                continue
            st[ST_PILE + side] += taken
            last_capturer = side
            prev_rank = -1
            claims0, claims1, first_claim = add_claim(side, claim, claims0, claims1, first_claim)
            pts = now + lim
            st[ST_SCORE + side] += pts
            st[ST_GAIN + side] += pts
            if check_target and st[ST_SCORE + side] >= target:
                return _value(st, me, side, 0)
        if claims0 > 0 or claims1 > 0:
            for k in range(2):
                side, pts = claim_credit(k, first_claim, claims0, claims1)
                st[ST_SCORE + side] += pts
                st[ST_GAIN + side] += pts
                if check_target and pts > 0 and st[ST_SCORE + side] >= target:
                    return _value(st, me, side, 0)
            claims0 = 0
            claims1 = 0
            first_claim = -1
        if d == n_deals - 1:
            winner = end_counts(rules, dealer, table_cards, last_capturer, st)
            return _value(st, me, winner if check_target else -1, 0)
        if depth == DEPTH_DEAL:
            return _value(st, me, -1, params[P_LEAF_CARDS])
        d += 1
        t = 0
        for p in range(n_players):
            seat = (dealer + 1 + p) % n_players
            h = np.int64(0)
            for c in range(stock_off, stock_off + 5):
                h += np.int64(1) << (4 * stock[c])
            stock_off += 5
            st[ST_HANDS + seat] = h
            mask = (h + _RONDA_ADD) & _RONDA_BITS
            st[ST_RONDA + seat] = mask
            st[ST_KNOWN + seat] = h & ((mask >> 3) * 15)
        if rules.caida_across_deals == 0:
            prev_rank = -1


@njit(cache=True)
def unseen_pool(
    hand: np.int64,
    played: np.int64,
    public: np.ndarray,
    seat: np.int64,
    dealer: np.int64,
    turn: np.int64,
    n_players: np.int64,
) -> tuple[np.ndarray, np.ndarray]:
    """The cards a seat has not seen and how many each other seat holds of them (R3, R4).

    Shared by ``pimc`` and ``solver`` (:mod:`.solverplay`): the unseen cards are ``4 - hand -
    played`` per rank minus the ronda cards other seats are known to hold (``public[4 + o]``).

    Returns
    -------
    pool : ndarray of int64, shape (m,)
        The ranks of the unseen cards, ascending.
    need : ndarray of int64, shape (4,)
        Per other seat, its hand size minus its known ronda cards (0 for ``seat``).
    """
    unseen = FOUR_EACH - hand - played
    need = np.zeros(4, dtype=np.int64)
    for o in range(n_players):
        if o == seat:
            continue
        unseen -= public[4 + o]
        position = (o - dealer - 1) % n_players
        need[o] = 5 - plays_made(turn, position, n_players) - packed_total(public[4 + o])
    m = packed_total(unseen)
    pool = np.empty(m, dtype=np.int64)
    c = 0
    for q in range(10):
        for _ in range((unseen >> (4 * q)) & 15):
            pool[c] = q
            c += 1
    return pool, need


@njit(cache=True, inline="always")
def deal_sample(
    pool: np.ndarray,
    buf: np.ndarray,
    need: np.ndarray,
    public: np.ndarray,
    hand: np.int64,
    seat: np.int64,
    n_players: np.int64,
    hands: np.ndarray,
    stream: Stream,
) -> tuple[np.int64, Stream]:
    """Draw one deal of the unseen cards (module docstring, "Sampling").

    ``buf`` (int64, same length as ``pool``) receives the shuffled pool; ``hands`` (int64, 4)
    every seat's packed hand (``seat`` keeps ``hand``; the others, from the seat after it
    round, their known ronda cards plus their ``need`` next shuffled cards). ``stream`` is the
    search stream's state. Returns the offset in ``buf`` where the stock starts, and the
    advanced stream.
    """
    s0, s1, s2, s3 = stream
    m = pool.shape[0]
    for j in range(m):
        buf[j] = pool[j]
    for j in range(m - 1, 0, -1):
        k, s0, s1, s2, s3 = draw_below(s0, s1, s2, s3, j + 1)
        tmp = buf[j]
        buf[j] = buf[k]
        buf[k] = tmp
    pos = 0
    hands[seat] = hand
    for step in range(1, n_players):
        o = (seat + step) % n_players
        h = public[4 + o]
        for j in range(pos, pos + need[o]):
            h += np.int64(1) << (4 * buf[j])
        pos += need[o]
        hands[o] = h
    return pos, (s0, s1, s2, s3)


@njit(cache=True)
def playout_values(
    rules,
    sums: np.ndarray,
    params: np.ndarray,
    pos: Position,
    plays: Legal,
    template: np.ndarray,
    st: np.ndarray,
    stock: np.ndarray,
    stock_off: np.int64,
    out: np.ndarray,
) -> None:
    """The playout value of every legal play (``plays``, :func:`.moves.legal`) on one sampled
    deal: ``out[k]`` (int64, at least ``plays.n``) receives :func:`playout` of play ``k`` from
    a fresh copy (in ``st``, int64 N_ST) of the sampled full state ``template`` (its hands
    filled in); ``stock[stock_off:]`` is the sample's stock. pimc's valuation of a sample, and
    the solver's before ``exact`` plays are left (:mod:`.solverplay`)."""
    for k in range(plays.n):
        r, kind, i = nth_play(plays, k)
        for j in range(N_ST):
            st[j] = template[j]
        out[k] = playout(rules, sums, params, pos, (r, kind, i), st, stock, stock_off)


@njit(cache=True)
def pimc_totals(
    params: np.ndarray, pos: Position, public: np.ndarray, stream: Stream, rules, sums: np.ndarray
) -> tuple[np.ndarray, Stream]:
    """The total playout value of every legal play of ``pos.seat`` (module docstring) and the
    advanced search stream: what :func:`pimc_play` decides on, also the teacher's values for
    training (``benchmarks/train_learned.py``).

    Parameters
    ----------
    params : ndarray of int64
        The seat's parameter row: ``params[P_SAMPLES]``, ``P_DEPTH``, ``P_PLAYOUT`` and the
        heuristic weights.
    pos : Position
        The public state from the deciding seat (:class:`.state.Position`): the seat, dealer,
        deal (0-based) and turns already played in it, players, whether the target is checked
        (levels chica / mesa, R9.2), own hand, table, previous trail and its seat, the cards
        played in the data, scores, piles and the last capturing side (-1 if none).
    public : ndarray of int64, shape (8,)
        Per seat the ronda mask of the deal (bit 3 of the rank's field; announced, R4), then
        per seat the packed ronda cards it is known to hold.
    stream : tuple of 4 uint64
        The seat's search stream state.
    rules, sums
        As in :func:`cuarenta_sim.cuarenta.engine.play.play_data`.

    Returns
    -------
    tuple
        ``totals`` (int64, shape (n_legal,)): per legal play in canonical order (contract 3),
        the sum over the samples of its playout values in milli-points (divide by
        ``samples`` for the mean); then the stream state. With one legal play nothing is
        drawn and the total is 0.
    """
    hand = pos.hand
    n_players = pos.n_players
    seat = pos.seat
    plays = legal(hand, pos.table, rules, sums)
    n_legal = plays.n
    if n_legal == 1:
        return np.zeros(1, dtype=np.int64), stream
    samples = params[P_SAMPLES]
    pool, need = unseen_pool(hand, pos.played, public, seat, pos.dealer, pos.turn, n_players)
    m = pool.shape[0]
    buf = np.empty(m, dtype=np.int64)
    hands = np.zeros(4, dtype=np.int64)
    template = np.zeros(N_ST, dtype=np.int64)
    fill_template(template, pos, public)
    st = np.empty(N_ST, dtype=np.int64)
    totals = np.zeros(n_legal, dtype=np.int64)
    row = np.empty(n_legal, dtype=np.int64)
    for _s in range(samples):
        stock_at, stream = deal_sample(
            pool, buf, need, public, hand, seat, n_players, hands, stream
        )
        for o in range(n_players):
            template[ST_HANDS + o] = hands[o]
        playout_values(rules, sums, params, pos, plays, template, st, buf, stock_at, row)
        for k in range(n_legal):
            totals[k] += row[k]
    return totals, stream


@njit(cache=True)
def pimc_play(
    params: np.ndarray, pos: Position, public: np.ndarray, stream: Stream, rules, sums: np.ndarray
) -> tuple[np.int64, np.int64, np.int64, Stream]:
    """The pimc play of ``pos.seat`` (module docstring) and the advanced search stream: the
    first legal play of largest total in :func:`pimc_totals` (same parameters).

    Returns
    -------
    tuple
        ``(rank, kind, i)`` as :func:`cuarenta_sim.cuarenta.engine.moves.select_play`, then the
        stream state. With one legal play nothing is drawn.
    """
    totals, stream = pimc_totals(params, pos, public, stream, rules, sums)
    r, kind, i = nth_play(legal(pos.hand, pos.table, rules, sums), first_best(totals))
    return r, kind, i, stream


@njit(cache=True, inline="always")
def first_best(totals: np.ndarray) -> np.int64:
    """Index of the first largest of ``totals`` (int64, shape (n,), n >= 1): the play a
    search chooses (ties to the canonical order, contract section 3)."""
    best = 0
    for k in range(1, len(totals)):
        if totals[k] > totals[best]:
            best = k
    return best


@njit(cache=True, inline="always")
def fill_template(template: np.ndarray, pos: Position, public: np.ndarray) -> None:
    """Write the scores, piles (also as the piles at the playout's start) and every seat's
    ronda mask and known ronda cards (``public``) of ``pos`` to a playout scratch ``template``
    (int64, N_ST); the hands are left to the caller."""
    template[ST_SCORE] = pos.score0
    template[ST_SCORE + 1] = pos.score1
    template[ST_PILE] = pos.pile0
    template[ST_PILE + 1] = pos.pile1
    template[ST_CARDS0] = pos.pile0
    template[ST_CARDS0 + 1] = pos.pile1
    for o in range(pos.n_players):
        template[ST_RONDA + o] = public[o]
        template[ST_KNOWN + o] = public[4 + o]
