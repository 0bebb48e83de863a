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
from .state import Position, Turn, View


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
    view = observation_view(obs)
    turn = view.turn
    hand = view.hand
    table = turn.table
    if spec.id == POLICY_GREEDY:
        key = sum_key(table)
        captures = int(sums[SUMS_COUNT + key]) + occupied(table)
        r, kind, i = best_play(POLICY_GREEDY, hand, captures, key, turn, kr, sums)
    elif spec.id == POLICY_HEURISTIC:
        r, kind, i = heuristic_play(params, view, kr, sums)
    elif spec.id == POLICY_LEARNED:
        r, kind, i = learned_play(params, view, kr, sums)
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


def observation_view(obs: Any) -> View:
    """The :class:`.state.View` of a reference observation: what it holds, packed (the
    argument of the ``heuristic`` and ``learned`` kernels, and of
    :func:`cuarenta_sim.cuarenta.engine.learned.decision_features`)."""
    n = obs.players
    side = obs.seat % 2
    nxt = (obs.seat + 1) % n
    turn = Turn(
        pack_counts(list(obs.table)),
        sum(obs.table),
        -1 if obs.trail is None else obs.trail,
        bool(obs.trail_in_ronda),
        obs.scores[side],
    )
    return View(
        pack_counts(list(obs.hand)),
        turn,
        obs.scores[1 - side],
        pack_counts(list(obs.played)),
        pack_counts([8 if q in obs.rondas[obs.seat] else 0 for q in range(10)]),
        pack_counts(list(obs.known[nxt])),
        obs.hand_sizes[nxt],
        obs.piles[side],
        obs.deal,
        n,
    )


def observation_position(obs: Any) -> Position:
    """The :class:`.state.Position` of a reference observation (the argument of the
    ``pimc`` and ``solver`` kernels with :func:`observation_public`)."""
    return Position(
        obs.seat,
        obs.dealer,
        obs.deal,
        obs.turn,
        obs.players,
        bool(obs.stop_at_target),
        pack_counts(list(obs.hand)),
        pack_counts(list(obs.table)),
        sum(obs.table),
        -1 if obs.trail is None else obs.trail,
        -1 if obs.trail_seat is None else obs.trail_seat,
        pack_counts(list(obs.played)),
        obs.scores[0],
        obs.scores[1],
        obs.piles[0],
        obs.piles[1],
        -1 if obs.last_capturer is None else obs.last_capturer,
    )


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
    stream = tuple(np.uint64(v) for v in search_state)
    return params, observation_position(obs), public, stream, kr, sums


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
    totals, (s0, s1, s2, s3) = pimc_totals(
        *_pimc_args(spec.row(obs.players), obs, kr, sums, search_state)
    )
    return totals, (int(s0), int(s1), int(s2), int(s3))
