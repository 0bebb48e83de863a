"""The data, chica and mesa kernels (R3-R9; contract sections 2, 4, 5, 7 and 8).

:func:`play_data` plays datas on rank-count state and writes their records (contract 8) and,
when the trace buffer has rows, their trace rows (contract 7): the fast path and the trace mode
are the same code, the trace writes being skipped when ``trace`` has no rows.
:func:`play_game` plays one chica or one mesa.

Kernels: inputs are not validated; the wrappers in :mod:`cuarenta_sim.cuarenta.engine.batch` and
:mod:`cuarenta_sim.cuarenta.simulation` do that.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ...rng import STREAM_GAME, nb_init_stream, nb_randbelow, nb_shuffled_ranks
from ..policies.kernel import (
    N_PARAMS,
    POLICY_GREEDY,
    POLICY_HEURISTIC,
    POLICY_LEARNED,
    POLICY_SOLVER,
    draw_below,
    init_policy_streams,
    is_stochastic,
)
from .heuristic import heuristic_play
from .layout import (
    ACC_CAIDA_POINTS,
    ACC_CAIDAS,
    ACC_CAIDAS_EN_RONDA,
    ACC_CAIDAS_LIMPIAS,
    ACC_CARTON_POINTS,
    ACC_DOBLE_RONDAS,
    ACC_LIMPIA_POINTS,
    ACC_LIMPIAS,
    ACC_OTHER_POINTS,
    ACC_POINTS,
    ACC_RONDA_POINTS,
    ACC_RONDAS,
    EV_ANNOUNCE,
    EV_CLAIMS,
    EV_END,
    EV_PLAY,
    G8_AT_38,
    G8_FIRST_DEALER,
    G8_MESA_ZAPATERIA,
    G8_TRUNCATED,
    G8_WIN_KIND,
    G8_WINNER,
    G8_ZAPATERIA,
    G16_CHICAS,
    G16_HANDS,
    G16_SCORE,
    LEVEL_DATA,
    LEVEL_MESA,
    MAX_DATAS,
    N_ACC,
    N_ACC_COUNTS,
    R8_CARDS,
    R8_COUNTS,
    R8_DEALER,
    R8_ENDED,
    R8_LAST_CAPTURER,
    R8_LEFTOVER,
    R8_PLAYS,
    R16_CHICA,
    R16_HAND,
    R16_SCORE,
    RNG_POLICY,
    RNG_SEARCH,
    SUMS_COUNT,
    SUMS_FIRST,
    SUMS_HELD,
    W_ACC,
    W_HANDS,
    W_KNOWN,
    W_PARAMS,
    W_PILES,
    W_POLICIES,
    W_RONDA,
    W_SCORES,
    W_TRACE_N,
)
from .learned import learned_play
from .moves import (
    NIBBLE_ONES,
    add_claim,
    announcement,
    apply_play,
    best_play,
    claim_credit,
    count_plays,
    end_credit,
    end_of_data_points,
    occupied,
    select_play,
    sum_key,
)
from .pimc import pimc_play, plays_made
from .solverplay import solver_play
from .state import Blocks, Position, Scratch, Setup, Turn, View

#: Adding 5 to every 4-bit count sets its bit 3 exactly for counts 3 and 4 (a ronda, R4).
RONDA_ADD = 5 * NIBBLE_ONES
RONDA_BITS = 8 * NIBBLE_ONES


@njit(cache=True)
def emit(
    trace: np.ndarray,
    work: np.ndarray,
    kind: np.int64,
    data: np.int64,
    deal: np.int64,
    seat: np.int64,
    event: tuple,
) -> None:
    """Append one trace row (contract section 7) to ``trace`` (int64, (capacity, 17)).

    ``event`` holds the row's columns ``rank, base, run, caida, limpia, flag, pts0, pts1,
    claim0, claim1, cards`` (11 ints). The row goes at ``work[W_TRACE_N]``, which is
    incremented; ``score0``, ``score1`` are read from ``work[W_SCORES:]`` (after the step). The
    caller guarantees the capacity.
    """
    i = work[W_TRACE_N]
    trace[i, 0] = kind
    trace[i, 1] = data
    trace[i, 2] = deal
    trace[i, 3] = seat
    trace[i, 4] = event[0]
    trace[i, 5] = event[1]
    trace[i, 6] = event[2]
    trace[i, 7] = event[3]
    trace[i, 8] = event[4]
    trace[i, 9] = event[5]
    trace[i, 10] = event[6]
    trace[i, 11] = event[7]
    trace[i, 12] = event[8]
    trace[i, 13] = event[9]
    trace[i, 14] = work[W_SCORES]
    trace[i, 15] = work[W_SCORES + 1]
    trace[i, 16] = event[10]
    work[W_TRACE_N] = i + 1


# error_model="numpy": the divisions (turn order, policy draws) are by positive counts, so the
# zero-division checks of the default model are dead branches in the hot loop.
@njit(cache=True, error_model="numpy")
def play_data(
    rules,
    setup: Setup,
    level: np.int64,
    game: np.int64,
    n_games: np.int64,
    data: np.int64,
    dealer: np.int64,
    row: np.int64,
    blocks: Blocks,
    scratch: Scratch,
) -> tuple[np.int64, np.int64, bool]:
    """Play datas (R3-R9.2; contract sections 2, 4, 5) and write their records and trace.

    At level data: the hands ``game .. game + n_games - 1``, each the data ``(g, 0)`` dealt by
    seat ``g % n_players`` from 0-0 (contract 2). At levels chica and mesa: the one data
    ``(game, data)`` dealt by ``dealer`` (``n_games`` is 1). Playing a run of hands in one call
    spares the per-call reference counting of the array arguments.

    Parameters
    ----------
    rules : KernelRules
        :meth:`cuarenta_sim.cuarenta.rules.RuleSet.to_kernel`.
    setup : Setup
        The players (2 or 4, R2.1), the sum tables and the root of the random streams
        (:class:`.state.Setup`; ``(game, data)`` identify a data, contract section 2); its
        policy rows are not read (the policies are in ``scratch.work``).
    level : int
        :data:`LEVEL_DATA` (no target check, play to the last card) or chica / mesa.
    game, n_games, data, dealer : int
        The datas played, see above (``data`` and ``dealer`` are unused at level data).
    row : int
        Record column of the first data in ``blocks.rec8`` (int8, (17, rows)), ``rec16``
        (int16, (12 or 16, rows)) and ``rec64`` (int64, (1, rows): the game index); the next
        hands follow at level data; -1 to write no record. ``rec16`` rows 12.. (scores, hand,
        chica) are left to the caller.
    blocks : Blocks
        The output blocks (:class:`.state.Blocks`); trace rows are appended to
        ``blocks.trace`` (int64, (capacity, 17), at ``work[W_TRACE_N]``) when ``capacity > 0``.
        The game blocks are not written.
    scratch : Scratch
        ``work`` (int64, (N_WORK,)): scratch and state (:mod:`.layout`): the side scores
        before the data at ``W_SCORES`` (updated in place) and the policy ids at
        ``W_POLICIES`` are inputs; ``rng`` (uint64, (N_RNG,)): the random streams; ``deck``
        (uint8, (40,)): the deck's ranks.

    Returns
    -------
    tuple
        For the last data played, ``(win_kind, winner, at_38)``: 0, -1, False when the data was
        played out (always at level data); else the step kind that ended the chica
        (1 announcement, 2 play, 3 claims, 4 end of data), the winning side, and whether its
        score was ``target - 2`` at the start of that step.
    """
    n_players = setup.n_players
    sums = setup.sums
    root = setup.root
    rec8 = blocks.rec8
    rec16 = blocks.rec16
    rec64 = blocks.rec64
    trace = blocks.trace
    work = scratch.work
    rng = scratch.rng
    deck = scratch.deck
    tracing = trace.shape[0] > 0
    check_target = level != LEVEL_DATA
    target = rules.target
    at_38_score = target - 2
    firsts = sums[SUMS_FIRST]
    # Seats whose policy reads observations beyond the turn's state (heuristic, pimc): only
    # then are the played cards and the known ronda cards kept.
    smart = False
    for p in range(n_players):
        if work[W_POLICIES + p] >= POLICY_HEURISTIC:
            smart = True
    win_kind = 0
    winner = -1
    win_at_38 = False
    for g in range(game, game + n_games):
        row_g = row
        if level == LEVEL_DATA:
            data = np.int64(0)
            dealer = g % n_players
            row_g = row + g - game if row >= 0 else -1
            work[W_SCORES] = 0
            work[W_SCORES + 1] = 0
        for i in range(2 * N_ACC):
            work[W_ACC + i] = 0
        work[W_PILES] = 0
        work[W_PILES + 1] = 0
        table = np.int64(0)
        table_cards = np.int64(0)
        prev_rank = np.int64(-1)
        prev_seat = np.int64(-1)
        last_capturer = np.int64(-1)
        n_plays_done = 0
        played = np.int64(0)
        claims0 = 0
        claims1 = 0
        first_claim = -1
        win_kind = 0
        winner = -1
        win_at_38 = False

        nb_shuffled_ranks(deck, rng, root, g, data)
        init_policy_streams(rng, RNG_POLICY, work, W_POLICIES, n_players, root, g, data)

        n_deals = 8 // n_players  # 40 cards, 5 per seat per deal (R2.2)
        for d in range(n_deals):
            # ---- deal (R3.2; contract 2) and ronda ranks of the deal (R4)
            for p in range(n_players):
                seat = (dealer + 1 + p) % n_players
                h = np.int64(0)
                start = (d * n_players + p) * 5
                for c in range(start, start + 5):
                    h += np.int64(1) << (4 * np.int64(deck[c]))
                work[W_HANDS + seat] = h
                # Bit 3 of a rank's field is set in h + 5 exactly when the count is >= 3 (R4.1).
                mask = (h + RONDA_ADD) & RONDA_BITS
                work[W_RONDA + seat] = mask
                if smart:  # an announced ronda: its cards are known to be held (R4)
                    work[W_KNOWN + seat] = h & ((mask >> 3) * 15)
            if rules.caida_across_deals == 0:
                prev_rank = -1
            # ---- announcements in play order (R4.1-R4.3)
            for p in range(n_players):
                seat = (dealer + 1 + p) % n_players
                mask = work[W_RONDA + seat]
                if mask == 0:
                    continue
                side = seat & 1
                s = work[W_SCORES + side]
                r, flag, pts, win = announcement(rules, work[W_HANDS + seat], mask, s, check_target)
                if flag == 2:
                    work[W_ACC + 2 * ACC_DOBLE_RONDAS + side] += 1
                else:
                    work[W_ACC + 2 * ACC_RONDAS + side] += 1
                work[W_SCORES + side] += pts
                work[W_ACC + 2 * ACC_POINTS + side] += pts
                work[W_ACC + 2 * ACC_RONDA_POINTS + side] += pts
                if tracing:
                    event = (r, -1, 0, 0, 0, flag, pts * (1 - side), pts * side, 0, 0, 0)
                    emit(trace, work, EV_ANNOUNCE, data, d, seat, event)
                if win or (check_target and work[W_SCORES + side] >= target):
                    win_kind = EV_ANNOUNCE
                    winner = side
                    win_at_38 = s == at_38_score
                    break
            if win_kind != 0:
                break
            # ---- plays (R5-R7; contract 3, 4)
            seat = dealer
            for t in range(5 * n_players):
                seat = seat + 1 if seat + 1 < n_players else 0  # turn order from the leader (R3.3)
                side = seat & 1
                s = work[W_SCORES + side]
                hand = work[W_HANDS + seat]
                policy = work[W_POLICIES + seat]
                prev_in_ronda = (
                    prev_rank >= 0 and (work[W_RONDA + prev_seat] >> (4 * prev_rank + 3)) & 1 != 0
                )
                key = sum_key(table)
                captures = sums[SUMS_COUNT + key] + occupied(table)
                # Choose without building the canonical list (contract 3, 6).
                if is_stochastic(policy):
                    held = sums[SUMS_HELD + key]
                    n_legal = count_plays(hand, captures, rules.capture_compulsory)
                    off = RNG_POLICY + 4 * seat
                    k, rng[off], rng[off + 1], rng[off + 2], rng[off + 3] = draw_below(
                        rng[off], rng[off + 1], rng[off + 2], rng[off + 3], n_legal
                    )
                    r, kind, i = select_play(
                        hand, table, captures, held, firsts, rules.capture_compulsory, k
                    )
                elif policy == POLICY_GREEDY:
                    turn = Turn(table, table_cards, prev_rank, prev_in_ronda, s)
                    r, kind, i = best_play(policy, hand, captures, key, turn, rules, sums)
                else:
                    pos = Position(
                        seat,
                        dealer,
                        d,
                        t,
                        n_players,
                        check_target,
                        hand,
                        table,
                        table_cards,
                        prev_rank,
                        prev_seat,
                        played,
                        work[W_SCORES],
                        work[W_SCORES + 1],
                        work[W_PILES],
                        work[W_PILES + 1],
                        last_capturer,
                    )
                    r, kind, i = _observed_play(rules, sums, work, rng, pos, prev_in_ronda)
                work[W_HANDS + seat] = hand - (np.int64(1) << (4 * r))
                n_plays_done += 1
                if smart:
                    played += np.int64(1) << (4 * r)
                    known = work[W_KNOWN + seat]
                    if (known >> (4 * r)) & 15 != 0:
                        work[W_KNOWN + seat] = known - (np.int64(1) << (4 * r))
                turn = Turn(table, table_cards, prev_rank, prev_in_ronda, s)
                (table, table_cards, base, taken, run, caida, en_ronda, limpia, now, lim, claim) = (
                    apply_play(rules, sums, r, kind, i, turn)
                )
                if taken == 0:  # a trail: it becomes the previous trail (R6.1)
                    prev_rank = r
                    prev_seat = seat
                    if tracing:
                        event = (r, 0, 0, 0, 0, 0, 0, 0, 0, 0, work[W_PILES + side])
                        emit(trace, work, EV_PLAY, data, d, seat, event)
                    continue
                work[W_PILES + side] += taken
                last_capturer = side
                prev_rank = -1
                if caida:
                    work[W_ACC + 2 * ACC_CAIDAS + side] += 1
                    if en_ronda:
                        work[W_ACC + 2 * ACC_CAIDAS_EN_RONDA + side] += 1
                if limpia:
                    work[W_ACC + 2 * ACC_LIMPIAS + side] += 1
                    if caida:
                        work[W_ACC + 2 * ACC_CAIDAS_LIMPIAS + side] += 1
                claims0, claims1, first_claim = add_claim(
                    side, claim, claims0, claims1, first_claim
                )
                pts = now + lim
                work[W_SCORES + side] += pts
                work[W_ACC + 2 * ACC_POINTS + side] += pts
                work[W_ACC + 2 * ACC_CAIDA_POINTS + side] += now
                work[W_ACC + 2 * ACC_LIMPIA_POINTS + side] += lim
                if tracing:
                    event = (
                        r,
                        base,
                        run,
                        np.int64(caida),
                        np.int64(limpia),
                        np.int64(en_ronda),
                        pts * (1 - side),
                        pts * side,
                        claim * (1 - side),
                        claim * side,
                        work[W_PILES + side],
                    )
                    emit(trace, work, EV_PLAY, data, d, seat, event)
                if check_target and work[W_SCORES + side] >= target:
                    win_kind = EV_PLAY
                    winner = side
                    win_at_38 = s == at_38_score
                    break
            if win_kind != 0:
                break
            # ---- end-of-deal claims, first claimer first (R6.4 end_of_deal; contract 5)
            if claims0 > 0 or claims1 > 0:
                start0 = work[W_SCORES]
                start1 = work[W_SCORES + 1]
                got0 = 0
                got1 = 0
                for i in range(2):
                    side, pts = claim_credit(i, first_claim, claims0, claims1)
                    if pts == 0:
                        continue
                    work[W_SCORES + side] += pts
                    work[W_ACC + 2 * ACC_POINTS + side] += pts
                    work[W_ACC + 2 * ACC_CAIDA_POINTS + side] += pts
                    if side == 0:
                        got0 = pts
                    else:
                        got1 = pts
                    if check_target and work[W_SCORES + side] >= target:
                        win_kind = EV_CLAIMS
                        winner = side
                        win_at_38 = (start0 if side == 0 else start1) == at_38_score
                        break
                if tracing:
                    event = (-1, -1, 0, 0, 0, 0, got0, got1, 0, 0, 0)
                    emit(trace, work, EV_CLAIMS, data, d, -1, event)
                claims0 = 0
                claims1 = 0
                first_claim = -1
                if win_kind != 0:
                    break

        leftover = table_cards
        if win_kind == 0:
            win_kind, winner, win_at_38 = _end_of_data(
                rules, dealer, table_cards, last_capturer, check_target, work
            )
            if tracing:
                end0 = work[W_ACC + 2 * ACC_CARTON_POINTS] + work[W_ACC + 2 * ACC_OTHER_POINTS]
                end1 = (
                    work[W_ACC + 2 * ACC_CARTON_POINTS + 1] + work[W_ACC + 2 * ACC_OTHER_POINTS + 1]
                )
                event = (
                    -1,
                    -1,
                    0,
                    0,
                    0,
                    0,
                    end0,
                    end1,
                    0,
                    0,
                    64 * work[W_PILES] + work[W_PILES + 1],
                )
                emit(trace, work, EV_END, data, n_deals - 1, -1, event)

        if row_g >= 0:
            rec64[0, row_g] = g
            rec8[R8_DEALER, row_g] = dealer
            rec8[R8_CARDS, row_g] = work[W_PILES]
            rec8[R8_CARDS + 1, row_g] = work[W_PILES + 1]
            for i in range(2 * N_ACC_COUNTS):
                rec8[R8_COUNTS + i, row_g] = work[W_ACC + i]
            for i in range(2 * (N_ACC - N_ACC_COUNTS)):
                rec16[i, row_g] = work[W_ACC + 2 * N_ACC_COUNTS + i]
            rec8[R8_PLAYS, row_g] = n_plays_done
            rec8[R8_LEFTOVER, row_g] = leftover
            rec8[R8_LAST_CAPTURER, row_g] = last_capturer
            rec8[R8_ENDED, row_g] = 1 if win_kind != 0 else 0
    return win_kind, winner, win_at_38


@njit(cache=True)
def _observed_play(
    rules,
    sums: np.ndarray,
    work: np.ndarray,
    rng: np.ndarray,
    pos: Position,
    prev_in_ronda: bool,
) -> tuple[np.int64, np.int64, np.int64]:
    """The play of a ``heuristic``, ``learned``, ``pimc`` or ``solver`` seat (contract section
    6).

    Hands the policy the seat's observation only: ``pos`` (:class:`.state.Position`: its
    hand, the table, the played cards, the previous trail, scores, pile sizes, the last
    capturer and the turn; ``pos.turn`` is the number of turns already played in deal
    ``pos.deal``), whether the previous trail is a ronda rank of its trailer
    (``prev_in_ronda``), the ronda announcements of the deal and what they reveal
    (``W_RONDA``, ``W_KNOWN`` of ``work``); never another hand, nor the deck. The seat's
    policy id and parameter row are read from ``work``, its search stream from ``rng``.
    """
    seat = pos.seat
    n_players = pos.n_players
    params = work[W_PARAMS + N_PARAMS * seat : W_PARAMS + N_PARAMS * (seat + 1)]
    policy = work[W_POLICIES + seat]
    if policy in (POLICY_HEURISTIC, POLICY_LEARNED):
        side = seat & 1
        nxt = seat + 1 if seat + 1 < n_players else 0
        next_hand = 5 - plays_made(pos.turn + 1, (nxt - pos.dealer - 1) % n_players, n_players)
        view = View(
            pos.hand,
            Turn(pos.table, pos.table_cards, pos.prev_rank, prev_in_ronda, work[W_SCORES + side]),
            work[W_SCORES + 1 - side],
            pos.played,
            work[W_RONDA + seat],
            work[W_KNOWN + nxt],
            next_hand,
            work[W_PILES + side],
            pos.deal,
            n_players,
        )
        if policy == POLICY_HEURISTIC:
            return heuristic_play(params, view, rules, sums)
        return learned_play(params, view, rules, sums)
    public = np.empty(8, dtype=np.int64)
    for o in range(4):
        public[o] = work[W_RONDA + o] if o < n_players else 0
        public[4 + o] = work[W_KNOWN + o] if o < n_players else 0
    off = RNG_SEARCH + 4 * seat
    stream = (rng[off], rng[off + 1], rng[off + 2], rng[off + 3])
    if policy == POLICY_SOLVER:
        r, kind, i, stream = solver_play(params, pos, public, stream, rules, sums)
    else:
        r, kind, i, stream = pimc_play(params, pos, public, stream, rules, sums)
    rng[off], rng[off + 1], rng[off + 2], rng[off + 3] = stream
    return r, kind, i


@njit(cache=True)
def _end_of_data(
    rules,
    dealer: np.int64,
    table_cards: np.int64,
    last_capturer: np.int64,
    check_target: bool,
    work: np.ndarray,
) -> tuple[np.int64, np.int64, bool]:
    """Leftovers, counts and falla at the end of a data (R8, R9.1; contract 5 "End of data").

    Updates the piles, scores and tallies in ``work``; returns ``(win_kind, winner, at_38)``
    as :func:`play_data` (``win_kind`` 4 or 0). Carton and count points are judged on the
    scores at the start of this step, and credited non-dealer side first, then the dealer
    side, then the falla points received by each side in the same order, each followed by the
    target check.
    """
    target = rules.target
    at_38_score = target - 2
    start0 = work[W_SCORES]
    start1 = work[W_SCORES + 1]
    pile0, pile1, count0, count1, falla0, falla1, carton0, carton1 = end_of_data_points(
        rules, dealer, work[W_PILES], work[W_PILES + 1], table_cards, last_capturer, start0, start1
    )
    work[W_PILES] = pile0
    work[W_PILES + 1] = pile1
    win_kind = 0
    winner = -1
    for k in range(4):
        side, pts, is_count = end_credit(k, dealer, count0, count1, falla0, falla1)
        if pts == 0:
            continue
        is_carton = carton0 if side == 0 else carton1
        tally = ACC_CARTON_POINTS if is_count and is_carton else ACC_OTHER_POINTS
        work[W_ACC + 2 * tally + side] += pts
        work[W_ACC + 2 * ACC_POINTS + side] += pts
        work[W_SCORES + side] += pts
        if check_target and work[W_SCORES + side] >= target:
            win_kind = EV_END
            winner = side
            break
    # One exit: the reference counts of ``work`` are then elided.
    start = start0 if winner == 0 else start1
    return win_kind, winner, winner >= 0 and start == at_38_score


@njit(cache=True)
def play_game(
    rules,
    setup: Setup,
    level: np.int64,
    game: np.int64,
    cap: np.int64,
    row0: np.int64,
    gcol: np.int64,
    blocks: Blocks,
    scratch: Scratch,
) -> np.int64:
    """Play chica or mesa ``game`` and write its output (levels chica and mesa).

    R3.4, R9.2, R9.3; contract 5: the first dealer drawn from the game stream, the deal passing
    on after every data, datas until the chica (or the mesa) is decided, or :data:`MAX_DATAS`
    datas (truncated). Level data is played by :func:`play_data` directly.

    Parameters
    ----------
    level : int
        :data:`LEVEL_CHICA` or :data:`LEVEL_MESA`.
    cap, row0 : int
        Record slots of this game: data ``j`` (its position in the game) is written to column
        ``row0 + j`` of the record blocks when ``j < cap``; later datas are played but not
        recorded (the caller sees the true count in the return value).
    gcol : int
        Column of the game record blocks ``blocks.game8``, ``blocks.game16`` to write.
    rules, setup, blocks, scratch
        As in :func:`play_data` (the policy ids in ``scratch.work`` are inputs).

    Returns
    -------
    int
        Number of datas played.
    """
    n_players = setup.n_players
    rec16 = blocks.rec16
    game8 = blocks.game8
    game16 = blocks.game16
    work = scratch.work
    rng = scratch.rng
    nb_init_stream(rng, setup.root, game, 0, STREAM_GAME)
    first_dealer = nb_randbelow(rng, n_players)
    chicas_to_win = rules.chicas_to_win if level == LEVEL_MESA else 1
    chicas0 = 0
    chicas1 = 0
    chica = 0
    data = np.int64(0)
    winner = -1
    zapateria = False
    mesa_zapateria = False
    win_kind = 0
    win_at_38 = False
    truncated = False
    while True:
        work[W_SCORES] = 0
        work[W_SCORES + 1] = 0
        win_kind = 0
        while win_kind == 0:
            if data >= MAX_DATAS:
                truncated = True
                break
            row = row0 + data if data < cap else -1
            dealer = (first_dealer + data) % n_players
            win_kind, winner, win_at_38 = play_data(
                rules, setup, level, game, np.int64(1), data, dealer, row, blocks, scratch
            )
            data += 1
            if row >= 0:
                rec16[R16_SCORE, row] = work[W_SCORES]
                rec16[R16_SCORE + 1, row] = work[W_SCORES + 1]
                rec16[R16_HAND, row] = data - 1
                rec16[R16_CHICA, row] = chica
        if truncated:
            winner = -1
            win_kind = 0
            win_at_38 = False
            zapateria = False
            break
        zapateria = work[W_SCORES + 1 - winner] < rules.zapateria_below  # R9.3
        if winner == 0:
            chicas0 += 1
        else:
            chicas1 += 1
        chica += 1
        if chicas0 >= chicas_to_win or chicas1 >= chicas_to_win:
            break
        if chica == 1 and zapateria and rules.zapateria_ends_mesa != 0:
            mesa_zapateria = True
            break
    game8[G8_FIRST_DEALER, gcol] = first_dealer
    game8[G8_WINNER, gcol] = winner
    game8[G8_ZAPATERIA, gcol] = 1 if zapateria else 0
    game8[G8_AT_38, gcol] = 1 if win_at_38 else 0
    game8[G8_WIN_KIND, gcol] = win_kind
    game8[G8_TRUNCATED, gcol] = 1 if truncated else 0
    game8[G8_MESA_ZAPATERIA, gcol] = 1 if mesa_zapateria else 0
    game16[G16_SCORE, gcol] = work[W_SCORES]
    game16[G16_SCORE + 1, gcol] = work[W_SCORES + 1]
    game16[G16_HANDS, gcol] = data
    game16[G16_CHICAS, gcol] = chicas0
    game16[G16_CHICAS + 1, gcol] = chicas1
    return data
