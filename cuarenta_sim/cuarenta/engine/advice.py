"""The sampled values of the ``advise`` scenario in numba (:mod:`cuarenta_sim.cuarenta.advise`).

:func:`advise_samples` values every legal play of the deciding seat in ``samples`` worlds
drawn from what it cannot see, the **same worlds for every play** (common random numbers), and
returns one row of values per world. It reuses, unchanged, the pieces of the searching
policies: the unseen pool and the deal of a world (:func:`.pimc.unseen_pool`,
:func:`.pimc.deal_sample`, redrawn while it contradicts the deal's announcements:
:func:`.solverplay.ronda_world`, as the ``solver`` policy does), the exact solver
(:func:`.solver.solve_position`) and pimc's playout (:func:`.pimc.playout`). The pure-Python
twin is :func:`cuarenta_sim.cuarenta.reference.advice.advise_samples`.

Value of a play in one world (points, integer): the deciding side's points minus the other
side's from the position to the end of the data (R9.2: nothing is credited after a side
reaches the target),

* **solved exactly** (every hand of the world known; :mod:`.solver` with ``unit = 1``, no win
  bonus, the target checked, the claims of the deal so far credited at its end) when the
  position is in the data's last deal and at most ``exact_plays`` plays are left in it;
* otherwise **played on by** ``pimc(depth=data)``'s **heuristic playout** (every seat plays
  the tuned ``heuristic`` policy with its default weights, from the world's hands and stock to
  the end of the data, the end-of-data count included): the gains of the playout, plus the
  claims of the deal made before the position (credited at the deal's end whatever is played)
  when no side reached the target in the playout. Two approximations of the playout, both
  only at the target: those earlier claims are not ordered with the playout's own credits, and
  the end-of-data count credits both sides' counts after a side reaches the target.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .layout import SUMS_COUNT, SUMS_FIRST, SUMS_HELD
from .moves import count_plays, occupied, select_play, sum_key
from .pimc import (
    N_ST,
    ST_GAIN,
    ST_HANDS,
    ST_SCORE,
    fill_template,
    playout,
    unseen_pool,
)
from .solver import MAX_MOVES, POS_CLAIMS, POS_HANDS, SolveOptions, solve_position
from .solverplay import TABLE_BITS, ronda_world
from .solvertable import empty_table
from .state import Position

#: Slots of the ``setup`` array of :func:`advise_samples` (int64).
A_SAMPLES = 0  # worlds drawn
A_EXACT = 1  # solve a world exactly in the data's last deal with at most this many plays left
N_SETUP = 2


@njit(cache=True)
def advise_samples(
    params: np.ndarray,
    pos: Position,
    public: np.ndarray,
    stream: tuple[np.uint64, np.uint64, np.uint64, np.uint64],
    rules,
    sums: np.ndarray,
    setup: np.ndarray,
    posa: np.ndarray,
) -> tuple[np.ndarray, tuple[np.uint64, np.uint64, np.uint64, np.uint64]]:
    """The value of every legal play of ``pos.seat`` in each sampled world (module docstring).

    Parameters
    ----------
    params : ndarray of int64
        The parameter row of ``pimc(depth=data)`` (:meth:`PolicySpec.row
        <cuarenta_sim.cuarenta.policies.PolicySpec.row>`): the playout policy and its weights.
    pos : Position
        The public state from the deciding seat (:class:`.state.Position`, ``check_target``
        true: a scenario is a step of a chica).
    public : ndarray of int64, shape (8,)
        Per seat the ronda mask of the deal, then per seat the packed ronda cards it is known
        to hold (as :func:`.pimc.pimc_totals`).
    stream : tuple of 4 uint64
        The search stream's state.
    rules, sums
        The kernel rules (:meth:`RuleSet.to_kernel <cuarenta_sim.cuarenta.rules.RuleSet.to_kernel>`)
        and :func:`.moves.build_kernel_sums` of its ``max_sum_cards``.
    setup : ndarray of int64, shape (N_SETUP,)
        ``A_SAMPLES`` (>= 1) and ``A_EXACT``.
    posa : ndarray of int64, shape (N_POS,)
        The same position as the exact solver reads it
        (:func:`.solvertable.position_array`), the claims of the deal so far included; each
        world writes its hands at ``POS_HANDS`` (changed).

    Returns
    -------
    tuple
        ``vals`` (int64, shape (samples, n_legal)): row ``s`` the points value of every legal
        play in canonical order (contract section 3) in world ``s``; then the advanced stream.
    """
    hand = pos.hand
    table = pos.table
    seat = pos.seat
    n_players = pos.n_players
    turn = pos.turn
    me = seat & 1
    key = sum_key(table)
    captures = sums[SUMS_COUNT + key] + occupied(table)
    held = sums[SUMS_HELD + key]
    firsts = sums[SUMS_FIRST]
    compulsory = rules.capture_compulsory
    n_legal = count_plays(hand, captures, compulsory)
    samples = setup[A_SAMPLES]
    pending = posa[POS_CLAIMS + me] - posa[POS_CLAIMS + 1 - me]
    pool, need = unseen_pool(hand, pos.played, public, seat, pos.dealer, turn, n_players)
    exact = pos.deal == 8 // n_players - 1 and 5 * n_players - turn <= setup[A_EXACT]
    hands = np.zeros(4, dtype=np.int64)
    buf = np.empty(pool.shape[0], dtype=np.int64)
    opts = SolveOptions(1, 1, 0, 0)
    values = np.zeros(MAX_MOVES, dtype=np.int64)
    template = np.zeros(N_ST, dtype=np.int64)
    fill_template(template, pos, public)
    st = np.empty(N_ST, dtype=np.int64)
    tt = empty_table(TABLE_BITS if exact else 0)
    target = rules.target
    vals = np.zeros((samples, n_legal), dtype=np.int64)
    for s in range(samples):
        stock_at, stream = ronda_world(pool, buf, need, public, pos, hands, stream)
        if exact:
            for o in range(n_players):
                posa[POS_HANDS + o] = hands[o]
            solve_position(rules, sums, opts, posa, tt, values)
            for k in range(n_legal):
                vals[s, k] = values[k]
            continue
        for o in range(n_players):
            template[ST_HANDS + o] = hands[o]
        for k in range(n_legal):
            r, kind, i = select_play(hand, table, captures, held, firsts, compulsory, k)
            for j in range(N_ST):
                st[j] = template[j]
            playout(rules, sums, params, pos, (r, kind, i), st, buf, stock_at)
            v = st[ST_GAIN + me] - st[ST_GAIN + 1 - me]
            if st[ST_SCORE] < target and st[ST_SCORE + 1] < target:
                v += pending
            vals[s, k] = v
    return vals, stream


__all__ = ["A_EXACT", "A_SAMPLES", "N_SETUP", "advise_samples"]
