"""numba kernels of the batched Cuarenta environment (:mod:`cuarenta_sim.rl.batched`).

Every rule is the numba engine's own: legal plays from :func:`.moves.rank_options` and the sum
tables, a play from :func:`.moves.apply_play`, announcements from :func:`.moves.announcement`,
the end-of-data count from :func:`.moves.end_of_data_points` and :func:`.moves.end_credit`, the
opponents' choices from the kernel policies (:func:`.moves.select_play` with
:func:`.policies.kernel.draw_below`, :func:`.moves.best_play`,
:func:`.heuristic.heuristic_play`). This module only keeps the state of ``n_envs`` games in
preallocated arrays and walks the flow of ``docs/engine_contract.md`` section 5 (deal,
announcements, turns, end-of-deal claims, end of data, next data) one decision at a time, like
:func:`cuarenta_sim.cuarenta.engine.play.play_data` does in one go.

State of env ``i``: row ``i`` of the int64 array ``st`` (fields ``F_*`` below), its random
streams in row ``i`` of the uint64 array ``rngs`` (``[0:4]`` deck scratch, ``[4 + 4 s: 8 + 4 s]``
seat ``s``'s policy stream) and its deck scratch in row ``i`` of the uint8 array ``decks``.
The step writes the outputs in place and allocates nothing.

Kernels: inputs are not validated (the wrapper does it).
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from ..cuarenta.engine.heuristic import heuristic_play
from ..cuarenta.engine.layout import (
    KIND_MATCH,
    KIND_TRAIL,
    SUMS_COUNT,
    SUMS_FIRST,
    SUMS_HELD,
    SUMS_START,
)
from ..cuarenta.engine.moves import (
    NIBBLE_ONES,
    announcement,
    apply_play,
    best_play,
    count_plays,
    end_credit,
    end_of_data_points,
    lowest_field,
    occupied,
    rank_options,
    select_play,
    sum_key,
)
from ..cuarenta.engine.pimc import plays_made
from ..cuarenta.engine.state import Setup, Turn, View
from ..cuarenta.policies.kernel import (
    POLICY_GREEDY,
    POLICY_RANDOM,
    draw_below,
    init_policy_streams,
)
from ..rng import STREAM_GAME, nb_init_stream, nb_randbelow, nb_shuffled_ranks
from .batched_state import (
    EPISODE_CHICA,
    EPISODE_DATA,
    F_CLAIMS,
    F_DATA,
    F_DEAL,
    F_DEALER,
    F_DEALS,
    F_DECISIONS,
    F_DONE,
    F_EPISODE,
    F_FIRST_CLAIM,
    F_GAINED,
    F_GAME,
    F_HANDS,
    F_KNOWN,
    F_LAST_CAPTURER,
    F_LEGAL,
    F_PILE_RANKS,
    F_PILES,
    F_PLAYED,
    F_PREV_RANK,
    F_PREV_SEAT,
    F_RONDA,
    F_SCORES,
    F_SEAT,
    F_SKIPPED,
    F_TABLE,
    F_TABLE_CARDS,
    F_TRUNCATED,
    F_TURN,
    F_WINNER,
    LEARNER,
    MAX_DATAS,
    N_ACTIONS,
    N_FIELDS,
    RNG_POLICY,
    RONDA_ADD,
    RONDA_BITS,
    EnvOptions,
    Envs,
    Outputs,
    _write_outputs,
    _write_reward,
)


@njit(cache=True, inline="always")
def legal_bits(rules, sums: np.ndarray, hand: np.int64, table: np.int64) -> np.int64:
    """Bit mask of the legal action ids of ``hand`` on ``table`` (R5; contract 3).

    Action ids enumerate every ``(rank, base)`` in canonical order: rank ``r``'s trail is
    ``2 r + SUM_START[r]``, its match the next id, its sum base ``i`` (index in the sum tables)
    ``2 r + 2 + i``. The options of each rank held come from :func:`.moves.rank_options` (the
    trail under ``capture_compulsory``) and the held sum bases ``sums[SUMS_HELD + key]``.
    """
    key = sum_key(table)
    captures = sums[SUMS_COUNT + key] + occupied(table)
    options = rank_options(hand, captures, rules.capture_compulsory)
    held = sums[SUMS_HELD + key]
    bits = np.int64(0)
    held_ranks = occupied(options)
    while held_ranks != 0:
        r = lowest_field(held_ranks)
        held_ranks &= held_ranks - 1
        first = sums[SUMS_START + r]
        trail_id = 2 * r + first
        if rules.capture_compulsory == 0 or (captures >> (4 * r)) & 15 == 0:
            bits |= np.int64(1) << trail_id
        if (table >> (4 * r)) & 15 != 0:
            bits |= np.int64(1) << (trail_id + 1)
        n_sums = sums[SUMS_START + r + 1] - first
        if n_sums > 0:
            mine = (held >> first) & ((np.int64(1) << n_sums) - 1)
            bits |= mine << (trail_id + 2)
    return bits


@njit(cache=True)
def _choose(
    st: np.ndarray,
    rngs: np.ndarray,
    i: np.int64,
    policies: np.ndarray,
    rules,
    n_players: np.int64,
    sums: np.ndarray,
    seat: np.int64,
    policy: np.int64,
) -> tuple[np.int64, np.int64, np.int64]:
    """The play ``(rank, kind, sum index)`` of a kernel policy at env ``i``'s turn of ``seat``.

    Hands each policy what :func:`cuarenta_sim.cuarenta.engine.play.play_data` hands it
    (contract section 6): ``random`` draws from the seat's policy stream of the data,
    ``greedy`` scans the plays, ``heuristic`` reads the seat's observation.
    """
    hand = st[i, F_HANDS + seat]
    table = st[i, F_TABLE]
    table_cards = st[i, F_TABLE_CARDS]
    prev_rank = st[i, F_PREV_RANK]
    prev_in_ronda = (
        prev_rank >= 0 and (st[i, F_RONDA + st[i, F_PREV_SEAT]] >> (4 * prev_rank + 3)) & 1 != 0
    )
    side = seat & 1
    s = st[i, F_SCORES + side]
    key = sum_key(table)
    captures = sums[SUMS_COUNT + key] + occupied(table)
    if policy == POLICY_RANDOM:
        n_legal = count_plays(hand, captures, rules.capture_compulsory)
        off = RNG_POLICY + 4 * seat
        k, rngs[i, off], rngs[i, off + 1], rngs[i, off + 2], rngs[i, off + 3] = draw_below(
            rngs[i, off], rngs[i, off + 1], rngs[i, off + 2], rngs[i, off + 3], n_legal
        )
        return select_play(
            hand,
            table,
            captures,
            sums[SUMS_HELD + key],
            sums[SUMS_FIRST],
            rules.capture_compulsory,
            k,
        )
    turn = Turn(table, table_cards, prev_rank, prev_in_ronda, s)
    if policy == POLICY_GREEDY:
        return best_play(policy, hand, captures, key, turn, rules, sums)
    nxt = seat + 1 if seat + 1 < n_players else 0
    dealer = st[i, F_DEALER]
    next_hand = 5 - plays_made(st[i, F_TURN] + 1, (nxt - dealer - 1) % n_players, n_players)
    view = View(
        hand,
        turn,
        st[i, F_SCORES + 1 - side],
        st[i, F_PLAYED],
        st[i, F_RONDA + seat],
        st[i, F_KNOWN + nxt],
        next_hand,
        st[i, F_PILES + side],
        st[i, F_DEAL],
        n_players,
    )
    return heuristic_play(policies[seat, 1:], view, rules, sums)


@njit(cache=True, inline="always")
def _credit(st: np.ndarray, i: np.int64, side: np.int64, pts: np.int64) -> None:
    """Credit ``pts`` to ``side`` (R9.2): the score and the step's gained points."""
    st[i, F_SCORES + side] += pts
    st[i, F_GAINED + side] += pts


@njit(cache=True)
def _play(
    st: np.ndarray,
    i: np.int64,
    rules,
    sums: np.ndarray,
    seat: np.int64,
    play: tuple[np.int64, np.int64, np.int64],
    check_target: bool,
) -> bool:
    """Seat ``seat`` of env ``i`` plays ``play`` = ``(rank, kind, si)`` (R5-R7, R9.1;
    contract 4).

    Moves the card, applies :func:`.moves.apply_play`, credits the immediate points, keeps the
    end-of-deal claims, and returns whether the play won the chica (``check_target``, R9.2).
    """
    rank, kind, si = play
    side = seat & 1
    s = st[i, F_SCORES + side]
    bit = np.int64(1) << (4 * rank)
    st[i, F_HANDS + seat] -= bit
    st[i, F_PLAYED] += bit
    if (st[i, F_KNOWN + seat] >> (4 * rank)) & 15 != 0:
        st[i, F_KNOWN + seat] -= bit
    prev_rank = st[i, F_PREV_RANK]
    prev_in_ronda = (
        prev_rank >= 0 and (st[i, F_RONDA + st[i, F_PREV_SEAT]] >> (4 * prev_rank + 3)) & 1 != 0
    )
    turn = Turn(st[i, F_TABLE], st[i, F_TABLE_CARDS], prev_rank, prev_in_ronda, s)
    table, table_cards, base, taken, run, _caida, _en_ronda, _limpia, now, lim, claim = apply_play(
        rules, sums, rank, kind, si, turn
    )
    st[i, F_TABLE] = table
    st[i, F_TABLE_CARDS] = table_cards
    st[i, F_TURN] += 1
    if taken == 0:  # a trail becomes the previous trail (R6.1)
        st[i, F_PREV_RANK] = rank
        st[i, F_PREV_SEAT] = seat
        return False
    st[i, F_PILES + side] += taken
    # The played card, the base, then one card of each rank rank + 1 .. rank + run (R5.4).
    run_cards = (NIBBLE_ONES & ((np.int64(1) << (4 * run)) - 1)) << (4 * (rank + 1))
    st[i, F_PILE_RANKS + side] += bit + base + run_cards
    st[i, F_LAST_CAPTURER] = side
    st[i, F_PREV_RANK] = -1
    if claim > 0:
        if st[i, F_FIRST_CLAIM] < 0:
            st[i, F_FIRST_CLAIM] = side
        st[i, F_CLAIMS + side] += claim
    _credit(st, i, side, now + lim)
    return check_target and st[i, F_SCORES + side] >= rules.target


@njit(cache=True)
def _start_data(
    st: np.ndarray,
    rngs: np.ndarray,
    decks: np.ndarray,
    i: np.int64,
    policies: np.ndarray,
    n_players: np.int64,
    root: np.uint64,
) -> None:
    """Shuffle and split the deck of data ``(game, data)`` of env ``i`` (contract 2) and seed
    its seats' policy streams; the deals are dealt later, one at a time (R3.2)."""
    game = st[i, F_GAME]
    data = st[i, F_DATA]
    deck = decks[i]
    nb_shuffled_ranks(deck, rngs[i, 0:4], root, game, data)
    for d in range(8 // n_players):
        for p in range(n_players):
            h = np.int64(0)
            start = (d * n_players + p) * 5
            for c in range(start, start + 5):
                h += np.int64(1) << (4 * np.int64(deck[c]))
            st[i, F_DEALS + d * n_players + p] = h
    # The learner seats' ids (LEARNER) are neither stochastic nor pimc: no stream for them.
    ids = policies[:, 0]
    init_policy_streams(rngs[i], RNG_POLICY, ids, 0, n_players, root, game, data)
    st[i, F_DEAL] = -1
    st[i, F_TURN] = 5 * n_players
    st[i, F_TABLE] = 0
    st[i, F_TABLE_CARDS] = 0
    st[i, F_PREV_RANK] = -1
    st[i, F_PREV_SEAT] = -1
    st[i, F_LAST_CAPTURER] = -1
    st[i, F_PLAYED] = 0
    st[i, F_CLAIMS] = 0
    st[i, F_CLAIMS + 1] = 0
    st[i, F_FIRST_CLAIM] = -1
    st[i, F_PILES] = 0
    st[i, F_PILES + 1] = 0
    st[i, F_PILE_RANKS] = 0
    st[i, F_PILE_RANKS + 1] = 0
    for s in range(4):
        st[i, F_HANDS + s] = 0
        st[i, F_RONDA + s] = 0
        st[i, F_KNOWN + s] = 0


@njit(cache=True)
def _end(st: np.ndarray, i: np.int64, winner: np.int64, truncated: bool) -> None:
    """Mark env ``i``'s episode over."""
    st[i, F_DONE] = 1
    st[i, F_SEAT] = -1
    st[i, F_LEGAL] = 0
    st[i, F_WINNER] = winner
    st[i, F_TRUNCATED] = 1 if truncated else 0


@njit(cache=True)
def _advance(
    st: np.ndarray,
    rngs: np.ndarray,
    decks: np.ndarray,
    i: np.int64,
    rules,
    n_players: np.int64,
    sums: np.ndarray,
    root: np.uint64,
    episode: np.int64,
    policies: np.ndarray,
) -> None:
    """Run env ``i``'s game until a learner seat must act or the episode ends (contract 5).

    Deals, announcements (R4), the kernel policies' turns, end-of-deal claims (R6.4) and the
    end-of-data count (R8) happen here; at episode ``chica`` every credit is followed by the
    target check (R9.2) and the datas follow one another, the deal passing on (R3.4). The
    per-env helpers take the arrays themselves, not the tuples of :mod:`.batched_state`: an
    array taken out of a tuple costs two atomic reference-count updates per call.
    """
    check_target = episode == EPISODE_CHICA
    n_deals = 8 // n_players
    per_deal = 5 * n_players
    while True:
        if st[i, F_TURN] < per_deal:
            seat = (st[i, F_DEALER] + 1 + st[i, F_TURN]) % n_players
            policy = policies[seat, 0]
            if policy == LEARNER:
                st[i, F_SEAT] = seat
                st[i, F_LEGAL] = legal_bits(rules, sums, st[i, F_HANDS + seat], st[i, F_TABLE])
                return
            play = _choose(st, rngs, i, policies, rules, n_players, sums, seat, policy)
            if _play(st, i, rules, sums, seat, play, check_target):
                _end(st, i, seat & 1, False)
                return
            continue
        # ---- the deal is over: end-of-deal claims, first claimer first (contract 5)
        first = st[i, F_FIRST_CLAIM]
        if first >= 0:
            for k in range(2):
                side = first if k == 0 else 1 - first
                pts = st[i, F_CLAIMS + side]
                if pts == 0:
                    continue
                _credit(st, i, side, pts)
                if check_target and st[i, F_SCORES + side] >= rules.target:
                    _end(st, i, side, False)
                    return
            st[i, F_CLAIMS] = 0
            st[i, F_CLAIMS + 1] = 0
            st[i, F_FIRST_CLAIM] = -1
        dealer = st[i, F_DEALER]
        d = st[i, F_DEAL] + 1
        if d < n_deals:
            # ---- deal d (R3.2; contract 2), its ronda ranks and announcements (R4)
            st[i, F_DEAL] = d
            st[i, F_TURN] = 0
            if rules.caida_across_deals == 0:
                st[i, F_PREV_RANK] = -1
            for p in range(n_players):
                seat = (dealer + 1 + p) % n_players
                h = st[i, F_DEALS + d * n_players + p]
                st[i, F_HANDS + seat] = h
                mask = (h + RONDA_ADD) & RONDA_BITS
                st[i, F_RONDA + seat] = mask
                st[i, F_KNOWN + seat] = h & ((mask >> 3) * 15)
            for p in range(n_players):
                seat = (dealer + 1 + p) % n_players
                mask = st[i, F_RONDA + seat]
                if mask == 0:
                    continue
                side = seat & 1
                _r, _flag, pts, win = announcement(
                    rules, st[i, F_HANDS + seat], mask, st[i, F_SCORES + side], check_target
                )
                _credit(st, i, side, pts)
                if win or (check_target and st[i, F_SCORES + side] >= rules.target):
                    _end(st, i, side, False)
                    return
            continue
        # ---- end of data (R8, R9.1): leftovers, counts and falla, credited in order
        s0 = st[i, F_SCORES]
        s1 = st[i, F_SCORES + 1]
        pile0, pile1, count0, count1, falla0, falla1, _c0, _c1 = end_of_data_points(
            rules, dealer, st[i, F_PILES], st[i, F_PILES + 1], st[i, F_TABLE_CARDS],
            st[i, F_LAST_CAPTURER], s0, s1,
        )  # fmt: skip
        last = st[i, F_LAST_CAPTURER]
        if pile0 + pile1 > st[i, F_PILES] + st[i, F_PILES + 1]:  # leftovers taken (R8.1)
            st[i, F_PILE_RANKS + last] += st[i, F_TABLE]
            st[i, F_TABLE] = 0
            st[i, F_TABLE_CARDS] = 0
        st[i, F_PILES] = pile0
        st[i, F_PILES + 1] = pile1
        for k in range(4):
            side, pts, _is_count = end_credit(k, dealer, count0, count1, falla0, falla1)
            if pts == 0:
                continue
            _credit(st, i, side, pts)
            if check_target and st[i, F_SCORES + side] >= rules.target:
                _end(st, i, side, False)
                return
        if not check_target:  # episode data: played to its last card (contract 5)
            s0 = st[i, F_SCORES]
            s1 = st[i, F_SCORES + 1]
            _end(st, i, 0 if s0 > s1 else (1 if s1 > s0 else -1), False)
            return
        data = st[i, F_DATA] + 1
        if data >= MAX_DATAS:
            _end(st, i, -1, True)
            return
        st[i, F_DATA] = data
        st[i, F_DEALER] = (dealer + 1) % n_players  # R3.4: the deal passes on
        _start_data(st, rngs, decks, i, policies, n_players, root)


@njit(cache=True)
def _start_episode(
    st: np.ndarray,
    rngs: np.ndarray,
    decks: np.ndarray,
    i: np.int64,
    rules,
    n_players: np.int64,
    sums: np.ndarray,
    root: np.uint64,
    policies: np.ndarray,
    options: EnvOptions,
) -> None:
    """Start env ``i``'s next episode and run it to its first learner decision.

    Episode ``k`` of env ``i`` is game ``options.index0 + k * n_envs + i`` of the rng streams
    (contract 2): at episode ``data`` the hand of that index (dealer ``game % players``),
    at episode ``chica`` the chica of that index (first dealer from its ``STREAM_GAME``
    stream). An episode decided before any learner decision (a ``win_chica`` doble ronda in
    the first deal, R4.2) is skipped and counted in ``F_SKIPPED``; its points are dropped.
    """
    n_envs = st.shape[0]
    index0 = options.index0
    episode = options.episode
    while True:
        k = st[i, F_EPISODE]
        game = index0 + k * n_envs + i
        st[i, F_EPISODE] = k + 1
        st[i, F_GAME] = game
        st[i, F_DATA] = 0
        st[i, F_SCORES] = 0
        st[i, F_SCORES + 1] = 0
        st[i, F_GAINED] = 0
        st[i, F_GAINED + 1] = 0
        st[i, F_DONE] = 0
        st[i, F_DECISIONS] = 0
        st[i, F_WINNER] = -1
        st[i, F_TRUNCATED] = 0
        if episode == EPISODE_DATA:
            st[i, F_DEALER] = game % n_players
        else:
            nb_init_stream(rngs[i, 0:4], root, game, 0, STREAM_GAME)
            st[i, F_DEALER] = nb_randbelow(rngs[i, 0:4], n_players)
        _start_data(st, rngs, decks, i, policies, n_players, root)
        _advance(st, rngs, decks, i, rules, n_players, sums, root, episode, policies)
        if st[i, F_DONE] == 0:
            return
        st[i, F_SKIPPED] += 1


#: Envs per task of the parallel kernels: each task takes the arrays out of the typed
#: arguments once (any block size gives the same outputs: an env's step reads only its rows).
ENV_BLOCK = 64


@njit(cache=True)
def _reset_block(
    rules, envs: Envs, setup: Setup, options: EnvOptions, out: Outputs, lo: np.int64
) -> None:
    """Start episode 0 of envs ``lo .. lo + ENV_BLOCK - 1`` and write their first outputs."""
    st, rngs, decks = envs
    n_players = setup.n_players
    sums = setup.sums
    root = setup.root
    policies = setup.policies
    reward = out.reward
    terminated = out.terminated
    truncated = out.truncated
    mask = out.mask
    current = out.current
    obs = out.obs
    target = rules.target
    for i in range(lo, min(lo + ENV_BLOCK, st.shape[0])):
        for f in range(N_FIELDS):
            st[i, f] = 0
        _start_episode(st, rngs, decks, i, rules, n_players, sums, root, policies, options)
        for j in range(reward.shape[1]):
            reward[i, j] = 0.0
        terminated[i] = False
        truncated[i] = False
        _write_outputs(
            st, i, n_players, target, options.obs_mode, options.observer, mask, current, obs
        )


@njit(cache=True, parallel=True)
def reset_kernel(rules, envs: Envs, setup: Setup, options: EnvOptions, out: Outputs) -> None:
    """Start episode 0 of every env and write the outputs of its first decision.

    ``rules`` are the kernel rules, ``setup`` the players, sum tables, root of the random
    streams and per-seat policy rows (:class:`cuarenta_sim.cuarenta.engine.state.Setup`; a
    seat whose id is :data:`LEARNER` is the caller's). The reward is zero; points gained
    before that decision (announcements, opponents' plays) are reported with the first
    step's reward.
    """
    # The parallel body hands its tuple arguments whole to a kernel: numba's parfor loses a
    # write through a tuple argument's array made in the body itself.
    n_blocks = (envs.st.shape[0] + ENV_BLOCK - 1) // ENV_BLOCK
    for b in prange(n_blocks):
        _reset_block(rules, envs, setup, options, out, b * ENV_BLOCK)


@njit(cache=True)
def check_actions(st: np.ndarray, actions: np.ndarray) -> np.int64:
    """Index of the first env whose action is not legal, -1 if all are.

    A terminated env (no auto-reset) must get action -1; an env at a decision an action id
    whose bit is set in its legal bits.
    """
    for i in range(st.shape[0]):
        a = actions[i]
        if st[i, F_DONE] != 0:
            if a != -1:
                return i
        elif a < 0 or a >= N_ACTIONS or (st[i, F_LEGAL] >> a) & 1 == 0:
            return i
    return np.int64(-1)


@njit(cache=True)
def _step_block(
    rules,
    envs: Envs,
    setup: Setup,
    options: EnvOptions,
    action_plays: np.ndarray,
    actions: np.ndarray,
    out: Outputs,
    lo: np.int64,
) -> None:
    """One step of envs ``lo .. lo + ENV_BLOCK - 1`` (:func:`step_kernel`)."""
    st, rngs, decks = envs
    n_players = setup.n_players
    sums = setup.sums
    root = setup.root
    policies = setup.policies
    reward = out.reward
    terminated = out.terminated
    truncated = out.truncated
    final_scores = out.final_scores
    mask = out.mask
    current = out.current
    obs = out.obs
    target = rules.target
    episode = options.episode
    check_target = episode == EPISODE_CHICA
    for i in range(lo, min(lo + ENV_BLOCK, st.shape[0])):
        if st[i, F_DONE] != 0:
            for j in range(reward.shape[1]):
                reward[i, j] = 0.0
            terminated[i] = True
            truncated[i] = st[i, F_TRUNCATED] != 0
            continue
        a = actions[i]
        seat = st[i, F_SEAT]
        st[i, F_DECISIONS] += 1
        play = (action_plays[a, 0], action_plays[a, 1], action_plays[a, 2])
        if _play(st, i, rules, sums, seat, play, check_target):
            _end(st, i, seat & 1, False)
        else:
            _advance(st, rngs, decks, i, rules, n_players, sums, root, episode, policies)
        _write_reward(st, i, reward, options.win_reward, options.point_reward)
        done = st[i, F_DONE] != 0
        terminated[i] = done
        truncated[i] = st[i, F_TRUNCATED] != 0
        if done:
            final_scores[i, 0] = st[i, F_SCORES]
            final_scores[i, 1] = st[i, F_SCORES + 1]
            if options.auto_reset:
                _start_episode(st, rngs, decks, i, rules, n_players, sums, root, policies, options)
        _write_outputs(
            st, i, n_players, target, options.obs_mode, options.observer, mask, current, obs
        )


@njit(cache=True, parallel=True)
def step_kernel(
    rules,
    envs: Envs,
    setup: Setup,
    options: EnvOptions,
    action_plays: np.ndarray,
    actions: np.ndarray,
    out: Outputs,
) -> None:
    """Apply one legal action per env (checked by :func:`check_actions`) and run each game to
    its next learner decision; write the outputs in place.

    ``action_plays`` (int64, (53, 3)): the ``(rank, kind, sum index)`` of every action id;
    ``actions`` (int64, (n_envs,)) the action of each env. A terminated env without
    auto-reset (action -1) is left as it is, reward 0. With ``options.auto_reset`` an env
    whose episode ends reports the end (``terminated``, the reward, ``final_scores``) and is
    already at the first decision of its next episode. Other arguments as
    :func:`reset_kernel`.
    """
    n_blocks = (envs.st.shape[0] + ENV_BLOCK - 1) // ENV_BLOCK
    for b in prange(n_blocks):
        _step_block(rules, envs, setup, options, action_plays, actions, out, b * ENV_BLOCK)


@njit(cache=True, parallel=True)
def policy_actions_kernel(
    st: np.ndarray,
    rngs: np.ndarray,
    rules,
    n_players: np.int64,
    sums: np.ndarray,
    policy: np.ndarray,
    out: np.ndarray,
) -> None:
    """The action id a deterministic kernel policy (row ``policy``: ``greedy`` or
    ``heuristic`` id, then parameters) would take at every env's decision, from what the
    acting seat may know; -1 for a terminated env."""
    policies = np.empty((4, policy.shape[0]), dtype=np.int64)
    for s in range(4):
        for j in range(policy.shape[0]):
            policies[s, j] = policy[j]
    pid = policy[0]
    for i in prange(st.shape[0]):
        if st[i, F_DONE] != 0:
            out[i] = -1
            continue
        seat = st[i, F_SEAT]
        r, kind, si = _choose(st, rngs, i, policies, rules, n_players, sums, seat, pid)
        first = sums[SUMS_START + r]
        if kind == KIND_TRAIL:
            out[i] = 2 * r + first
        elif kind == KIND_MATCH:
            out[i] = 2 * r + first + 1
        else:
            out[i] = 2 * r + 2 + si


@njit(cache=True, parallel=True)
def random_legal_actions(mask_bits: np.ndarray, states: np.ndarray, out: np.ndarray) -> None:
    """Uniformly random legal action per env, from env ``i``'s xoshiro256** state
    ``states[i]`` (uint64[4], advanced); -1 where no action is legal. For benchmarks and
    random baselines: the draw stays in numba."""
    for i in prange(mask_bits.shape[0]):
        bits = mask_bits[i]
        if bits == 0:
            out[i] = -1
            continue
        n = np.int64(0)
        b = bits
        while b != 0:
            b &= b - 1
            n += 1
        k, states[i, 0], states[i, 1], states[i, 2], states[i, 3] = draw_below(
            states[i, 0], states[i, 1], states[i, 2], states[i, 3], n
        )
        b = bits
        for _ in range(k):
            b &= b - 1
        low = b & -b
        a = np.int64(0)
        while (np.int64(1) << a) != low:
            a += 1
        out[i] = a
