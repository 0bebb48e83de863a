"""The ``solver`` policy in numba: perfect-information Monte Carlo with exactly solved samples.

Like ``pimc`` (:mod:`.pimc`), at a decision with more than one legal play the seat draws
``samples`` deals of the cards it has not seen from its search stream ``STREAM_SEARCH + seat``
(the shared sampler :func:`.pimc.unseen_pool` / :func:`.pimc.deal_sample`) and plays the first
legal play (canonical order, contract section 3) of largest total value over the samples. The
pure-Python twin is :func:`cuarenta_sim.cuarenta.reference.search.solver_index`.

What differs from pimc
----------------------
* **Exact values.** When at most ``exact`` plays are left in the deal (this one included),
  every sample is solved exactly with :func:`.solver.solve_position`: the value of each legal
  play under best play of both sides to the end of the deal, or in the data's last deal to the
  end of the data (R8 count included), in pimc's milli-points (``unit = 1000``, ``win_bonus =
  1000 * WIN_POINTS``, ``leaf_cards`` per net card captured at a deal horizon). Earlier in the
  deal (too many lines to solve quickly) a sample is valued by pimc's heuristic playout to the
  end of the deal instead: ``exact`` is the deterministic node budget of the policy (the solve
  of a position with ``p`` plays left visits up to roughly ``p!`` lines).
* **Perfect information is played exactly.** When the unseen cards all belong to one other
  seat and there is no stock (2 players, the data's last deal: 40 cards, R3, so the other hand
  is the unseen cards), the position is solved once, exactly, whatever ``exact``; nothing is
  drawn.
* **No announcement is conditioned on too.** A sample that gives another seat three or more
  cards of a rank it announced no ronda of in this deal (R4: rondas are announced whenever
  dealt), or more cards of an announced rank than it is known to hold, is redrawn (up to
  :data:`MAX_REDRAWS` times; then the last draw is kept). This conditions on the hands held now;
  a seat that held three of a rank at the deal and has played one since is not excluded (the
  plays of each seat in the deal are not part of the observation the kernel passes).
* **Early stopping.** With ``stop = z > 0``, after each sample from the :data:`MIN_STOP`-th
  on, the decision ends when the current leader ``b`` (first largest total) beats every other
  play ``j`` on the paired per-sample differences ``d = v_b - v_j``: ``sum d > 0`` and
  ``(k - 1) (sum d)^2 > z^2 (k sum d^2 - (sum d)^2)`` after ``k`` samples (the mean difference
  exceeds ``z`` standard errors), or ``d`` was 0 in every sample (the plays are
  indistinguishable and ``b`` wins the tie). Integer arithmetic only.

Values exclude the claims already made in the deal and later rondas, as pimc's (they do not
depend on the play chosen, except near the target). One transposition table per decision is
allocated (:data:`TABLE_BITS`) only when a solve is needed; the numba loop owns it, so threads
never share one.

Defaults ``samples=auto, exact=6, stop=0, leaf_cards=800``; ``samples=auto`` (kernel value 0,
:func:`cuarenta_sim.cuarenta.policies.kernel.solver_samples`) is 32 samples with 2 players and
256 with 4. With 2 players (``benchmarks/README.md``, Quito, 2,000 duplicate chicas each
against pimc's defaults): ``exact=6`` won 60.7% [58.5%, 62.8%] at about 8,900 decisions/s (2
threads, CPU-share adjusted), ``exact=8`` 59.8% at about 3,000; ``samples=16`` 56.4% (``exact=8,
stop=2``). With 4 players three hands and the stock are hidden and the playouts run up to 19
plays, so a play's value varies far more from sample to sample: against the heuristic in
duplicate chicas 8 samples won 21.8% (1,000 chicas), 32 samples 46.6% (2,000), 128 samples
58.5% (1,000) -- the search was picking sampling noise, not a wrong value (given the true
hands, the same search wins 99% of 200 chicas). On 4,000 duplicate chicas against the
heuristic (``policies.py --only4``, 2 threads, shared machine): 128 samples won 57.95% [56.41%,
59.47%] at about 1,650 decisions/s CPU-adjusted, 256 samples (the default with 4 players)
60.62% [59.10%, 62.13%] at about 845. Early
stopping (``stop=2``) lost strength with 4 players (43% against 48% without, 32 samples), so it
is off by default.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..policies.kernel import P_EXACT, P_LEAF_CARDS, P_SAMPLES, P_STOP, solver_samples
from .moves import legal, nth_play
from .pimc import (
    N_ST,
    ST_HANDS,
    WIN_POINTS,
    deal_sample,
    fill_template,
    first_best,
    playout_values,
    unseen_pool,
)
from .solver import (
    MAX_MOVES,
    N_POS,
    POS_CLAIMS,
    POS_DEAL,
    POS_DEALER,
    POS_FIRST_CLAIM,
    POS_HANDS,
    POS_LAST_CAPTURER,
    POS_PILES,
    POS_PLAYERS,
    POS_PREV_RANK,
    POS_RONDA,
    POS_SCORES,
    POS_TABLE,
    POS_TABLE_CARDS,
    POS_TURN,
    SolveOptions,
    solve_position,
)
from .solvertable import empty_table
from .state import Position, Stream

#: Samples before early stopping is tested.
MIN_STOP = 4
#: Redraws of a sample that contradicts the ronda announcements, at most.
MAX_REDRAWS = 64
#: Transposition table entries per decision: ``2**TABLE_BITS``.
TABLE_BITS = 14


@njit(cache=True)
def contradicts_rondas(
    hands: np.ndarray, public: np.ndarray, seat: np.int64, n_players: np.int64
) -> bool:
    """True when a sampled hand of another seat contradicts the deal's announcements (R4):
    three or more of a rank it announced no ronda of, or more of an announced rank than the
    cards of it the seat is known to hold (``public``: as :func:`.pimc.pimc_play`)."""
    for o in range(n_players):
        if o == seat:
            continue
        h = hands[o]
        mask = public[o]
        known = public[4 + o]
        for q in range(10):
            c = (h >> (4 * q)) & 15
            if (mask >> (4 * q + 3)) & 1 != 0:
                if c > (known >> (4 * q)) & 15:
                    return True
            elif c >= 3:
                return True
    return False


@njit(cache=True)
def ronda_world(
    pool: np.ndarray,
    buf: np.ndarray,
    need: np.ndarray,
    public: np.ndarray,
    pos: Position,
    hands: np.ndarray,
    stream: Stream,
) -> tuple[np.int64, Stream]:
    """Draw one world of the unseen cards for ``pos.seat`` (:func:`.pimc.deal_sample`, the
    other arguments and the returns as there), redrawn while it :func:`contradicts_rondas`
    (R4), at most :data:`MAX_REDRAWS` times; the last draw is kept. The sampler of the
    ``solver`` policy and of advice (:mod:`.advice`)."""
    seat = pos.seat
    n_players = pos.n_players
    stock_at = np.int64(0)
    for _t in range(MAX_REDRAWS + 1):
        stock_at, stream = deal_sample(
            pool, buf, need, public, pos.hand, seat, n_players, hands, stream
        )
        if not contradicts_rondas(hands, public, seat, n_players):
            break
    return stock_at, stream


@njit(cache=True)
def clearly_best(vals: np.ndarray, k: np.int64, n_legal: np.int64, best: np.int64, z: np.int64):
    """The early-stopping test of the module docstring on the first ``k`` rows of ``vals``
    (int64, (samples, n_legal)): does play ``best`` beat every other play?"""
    z2 = z * z
    for j in range(n_legal):
        if j == best:
            continue
        d_sum = np.int64(0)
        d_sq = np.int64(0)
        for s in range(k):
            d = vals[s, best] - vals[s, j]
            d_sum += d
            d_sq += d * d
        if d_sum == 0 and d_sq == 0:
            continue
        if d_sum <= 0:
            return False
        if (k - 1) * d_sum * d_sum <= z2 * (k * d_sq - d_sum * d_sum):
            return False
    return True


@njit(cache=True)
def solver_play(
    params: np.ndarray, pos: Position, public: np.ndarray, stream: Stream, rules, sums: np.ndarray
) -> tuple[np.int64, np.int64, np.int64, Stream]:
    """The solver play of ``pos.seat`` (module docstring) and the advanced search stream.

    Arguments and returns as :func:`cuarenta_sim.cuarenta.engine.pimc.pimc_play`; the parameter
    row's ``P_SAMPLES``, ``P_EXACT``, ``P_STOP``, ``P_LEAF_CARDS`` and the heuristic weights
    (the playouts) are read. With one legal play nothing is drawn.
    """
    hand = pos.hand
    table = pos.table
    seat = pos.seat
    n_players = pos.n_players
    turn = pos.turn
    plays = legal(hand, table, rules, sums)
    n_legal = plays.n
    if n_legal == 1:
        r, kind, i = nth_play(plays, 0)
        return r, kind, i, stream
    pool, need = unseen_pool(hand, pos.played, public, seat, pos.dealer, turn, n_players)
    m = pool.shape[0]
    holders = 0
    held_cards = 0
    for o in range(n_players):
        if need[o] > 0:
            holders += 1
            held_cards += need[o]
    determinate = holders <= 1 and held_cards == m
    leaf = params[P_LEAF_CARDS]
    exact = determinate or 5 * n_players - turn <= params[P_EXACT]
    samples = np.int64(1) if determinate else solver_samples(params[P_SAMPLES], n_players)
    z = params[P_STOP]
    hands = np.zeros(4, dtype=np.int64)
    buf = np.empty(m, dtype=np.int64)
    # The position every sample shares; only the hands change.
    posa = np.zeros(N_POS, dtype=np.int64)
    posa[POS_PLAYERS] = n_players
    posa[POS_DEALER] = pos.dealer
    posa[POS_DEAL] = pos.deal
    posa[POS_TURN] = turn
    for o in range(n_players):
        posa[POS_RONDA + o] = public[o]
    posa[POS_TABLE] = table
    posa[POS_TABLE_CARDS] = pos.table_cards
    posa[POS_PREV_RANK] = pos.prev_rank
    posa[POS_SCORES] = pos.score0
    posa[POS_SCORES + 1] = pos.score1
    posa[POS_PILES] = pos.pile0
    posa[POS_PILES + 1] = pos.pile1
    posa[POS_LAST_CAPTURER] = pos.last_capturer
    posa[POS_CLAIMS] = 0
    posa[POS_CLAIMS + 1] = 0
    posa[POS_FIRST_CLAIM] = -1
    opts = SolveOptions(1 if pos.check_target else 0, 1000, 1000 * WIN_POINTS, leaf)
    values = np.zeros(MAX_MOVES, dtype=np.int64)
    template = np.zeros(N_ST, dtype=np.int64)
    st = np.empty(N_ST, dtype=np.int64)
    if exact:
        tt = empty_table(TABLE_BITS)
    else:
        tt = empty_table(0)
        fill_template(template, pos, public)
    vals = np.zeros((samples, n_legal), dtype=np.int64)
    totals = np.zeros(n_legal, dtype=np.int64)
    for s in range(samples):
        if determinate:
            # Every unseen card is in the one other hand that is not empty: nothing to draw.
            for o in range(n_players):
                hands[o] = public[4 + o]
            hands[seat] = hand
            for o in range(n_players):
                if need[o] > 0:
                    for j in range(m):
                        hands[o] += np.int64(1) << (4 * pool[j])
            stock_at = m
        else:
            stock_at, stream = ronda_world(pool, buf, need, public, pos, hands, stream)
        if exact:
            for o in range(n_players):
                posa[POS_HANDS + o] = hands[o]
            solve_position(rules, sums, opts, posa, tt, values)
            for k in range(n_legal):
                vals[s, k] = values[k]
        else:
            for o in range(n_players):
                template[ST_HANDS + o] = hands[o]
            playout_values(rules, sums, params, pos, plays, template, st, buf, stock_at, vals[s])
        best = 0
        for k in range(n_legal):
            totals[k] += vals[s, k]
            if totals[k] > totals[best]:
                best = k
        if z > 0 and MIN_STOP <= s + 1 < samples and clearly_best(vals, s + 1, n_legal, best, z):
            break
    r, kind, i = nth_play(plays, first_best(totals))
    return r, kind, i, stream
