"""The kernel's decision code of one policy on one reference observation: :func:`decide`.

It lives in the engine (not in :mod:`cuarenta_sim.cuarenta.policies`, which the engine
imports) so that the import graph has no cycle. Used by the information-discipline tests
(``tests/policies/test_information_discipline.py``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ...rng import STREAM_SEARCH, PyRng, root_from_seed
from ..policies import (
    POLICY_GREEDY,
    POLICY_HEURISTIC,
    POLICY_LEARNED,
    POLICY_PIMC,
    POLICY_RANDOM,
    POLICY_SOLVER,
    parse_policy,
)
from ..tables import pack_counts
from .batch import kernel_args
from .heuristic import heuristic_play
from .layout import KIND_MATCH, KIND_TRAIL, SUMS_COUNT, SUMS_PACKED
from .learned import learned_play
from .moves import best_play, occupied, sum_key
from .pimc import pimc_play, pimc_totals
from .solverplay import solver_play


def decide(policy: str, obs: Any, search_state: Sequence[int] | None = None) -> int:
    """Run the numba kernel's decision code of a policy on one observation.

    The kernel functions (:func:`cuarenta_sim.cuarenta.engine.heuristic.heuristic_play`,
    :func:`cuarenta_sim.cuarenta.engine.pimc.pimc_play`, the greedy scan) receive exactly what
    ``obs`` holds, converted to packed rank counts: nothing else exists for them to read.
    Used by the information-discipline tests.

    Parameters
    ----------
    policy : str
        A deterministic policy spec: ``greedy``, ``heuristic(...)``, ``learned(...)``,
        ``pimc(...)`` or ``solver(...)``.
    obs : cuarenta_sim.cuarenta.reference.Observation
        The seat's observation (:func:`cuarenta_sim.cuarenta.reference.observe`).
    search_state : sequence of 4 ints, optional
        The xoshiro256** state of the seat's search stream (pimc; default: the stream of
        seed 0, game 0, data 0).

    Returns
    -------
    int
        Index into ``obs.plays`` of the play the kernel chooses.

    Raises
    ------
    ValueError
        A bad spec, or ``random`` (it decides by its policy stream alone).
    """
    spec = parse_policy(policy)
    if spec.id == POLICY_RANDOM:
        raise ValueError(
            "decide() runs deterministic policies: greedy, heuristic, learned, pimc, solver"
        )
    kr, _players, _arr, sums = kernel_args(obs.rules, obs.players, (spec.id,) * obs.players)
    params = spec.row(obs.players)
    hand = pack_counts(list(obs.hand))
    table = pack_counts(list(obs.table))
    table_cards = sum(obs.table)
    played = pack_counts(list(obs.played))
    prev_rank = -1 if obs.trail is None else obs.trail
    side = obs.seat % 2
    score = obs.scores[side]
    n = obs.players
    rondas = [pack_counts([8 if q in obs.rondas[o] else 0 for q in range(10)]) for o in range(n)]
    known = [pack_counts(list(obs.known[o])) for o in range(n)]
    if spec.id == POLICY_GREEDY:
        key = sum_key(table)
        captures = int(sums[SUMS_COUNT + key]) + occupied(table)
        r, kind, i = best_play(
            POLICY_GREEDY,
            hand,
            table,
            table_cards,
            captures,
            key,
            prev_rank,
            obs.trail_in_ronda,
            score,
            kr,
            sums,
        )
    elif spec.id == POLICY_HEURISTIC:
        nxt = (obs.seat + 1) % n
        r, kind, i = heuristic_play(
            params,
            0,
            hand,
            table,
            table_cards,
            prev_rank,
            obs.trail_in_ronda,
            score,
            obs.scores[1 - side],
            played,
            rondas[obs.seat],
            known[nxt],
            obs.hand_sizes[nxt],
            kr,
            sums,
        )
    elif spec.id == POLICY_LEARNED:
        nxt = (obs.seat + 1) % n
        r, kind, i = learned_play(
            params,
            0,
            hand,
            table,
            table_cards,
            prev_rank,
            obs.trail_in_ronda,
            score,
            obs.scores[1 - side],
            played,
            rondas[obs.seat],
            known[nxt],
            obs.hand_sizes[nxt],
            obs.piles[side],
            obs.deal,
            n,
            kr,
            sums,
        )
    else:
        # solver takes pimc's arguments (it samples with pimc's sampler).
        search = solver_play if spec.id == POLICY_SOLVER else pimc_play
        r, kind, i, *_ = search(*_pimc_args(params, obs, kr, sums, search_state))
    if kind == KIND_TRAIL:
        base: tuple[int, ...] = ()
    elif kind == KIND_MATCH:
        base = (int(r),)
    else:
        packed = int(sums[SUMS_PACKED + i])
        base = tuple(q for q in range(10) for _ in range((packed >> (4 * q)) & 15))
    for k, play in enumerate(obs.plays):
        if play.rank == r and play.base == base:
            return k
    raise AssertionError(f"kernel play {(r, base)} is not among the legal plays")


def _pimc_args(
    params: np.ndarray, obs: Any, kr: Any, sums: np.ndarray, search_state: Sequence[int] | None
) -> tuple:
    """The arguments of :func:`cuarenta_sim.cuarenta.engine.pimc.pimc_play` (and
    ``pimc_totals``, :func:`cuarenta_sim.cuarenta.engine.solverplay.solver_play`) for the
    observation ``obs``: only what it holds, packed."""
    if search_state is None:
        search_state = PyRng.for_stream(root_from_seed(0)[0], 0, 0, STREAM_SEARCH).s
    n = obs.players
    public = np.zeros(8, dtype=np.int64)
    for o in range(n):
        public[o] = pack_counts([8 if q in obs.rondas[o] else 0 for q in range(10)])
        public[4 + o] = pack_counts(list(obs.known[o]))
    s0, s1, s2, s3 = (np.uint64(v) for v in search_state)
    return (
        params,
        0,
        kr,
        n,
        sums,
        obs.seat,
        obs.dealer,
        obs.deal,
        obs.turn,
        pack_counts(list(obs.hand)),
        pack_counts(list(obs.table)),
        sum(obs.table),
        -1 if obs.trail is None else obs.trail,
        -1 if obs.trail_seat is None else obs.trail_seat,
        pack_counts(list(obs.played)),
        public,
        obs.scores[0],
        obs.scores[1],
        obs.piles[0],
        obs.piles[1],
        -1 if obs.last_capturer is None else obs.last_capturer,
        obs.stop_at_target,
        s0,
        s1,
        s2,
        s3,
    )


def pimc_values(
    policy: str, obs: Any, search_state: Sequence[int] | None = None
) -> tuple[np.ndarray, tuple[int, int, int, int]]:
    """pimc's total playout value of every legal play of an observation (the kernel's
    :func:`cuarenta_sim.cuarenta.engine.pimc.pimc_totals`, on what ``obs`` holds only).

    Parameters
    ----------
    policy : str
        A ``pimc(...)`` spec.
    obs : cuarenta_sim.cuarenta.reference.Observation
        The seat's observation.
    search_state : sequence of 4 ints, optional
        The seat's search stream state (default as in :func:`decide`).

    Returns
    -------
    tuple
        ``totals`` (int64, one per entry of ``obs.plays``: the sum over the samples of the
        playout values in milli-points; pimc plays the first largest; all 0 when only one
        play is legal) and the advanced stream state (4 ints).

    Raises
    ------
    ValueError
        A spec that is not ``pimc``.
    """
    spec = parse_policy(policy)
    if spec.id != POLICY_PIMC:
        raise ValueError(f"pimc_values() needs a pimc spec, got {spec.canonical}")
    kr, _players, _arr, sums = kernel_args(obs.rules, obs.players, (spec.id,) * obs.players)
    totals, s0, s1, s2, s3 = pimc_totals(
        *_pimc_args(spec.row(obs.players), obs, kr, sums, search_state)
    )
    return totals, (int(s0), int(s1), int(s2), int(s3))
