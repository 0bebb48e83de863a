"""numba side of the built-in policies, dispatched by integer id (contract section 6).

The engine enumerates the legal plays of a turn in canonical order (contract section 3). A
stochastic policy (:func:`is_stochastic`) picks one with :func:`draw_below` from its seat's
policy stream; a deterministic one plays the first play of largest :func:`play_key`, computed
from the outcome of every play (the points it earns the acting side now or as a claim, and the
cards it captures). ``heuristic`` (:mod:`.heuristic`) and ``pimc`` (:mod:`.pimc`) take their
parameters from the seat's parameter row (offsets ``P_*`` below); ``pimc`` and ``solver``
(:mod:`.solverplay`) draw from the seat's search stream ``STREAM_SEARCH + seat`` (contract
section 2).

The kernels work on the engine's flat scratch arrays at offsets given as arguments (see
:mod:`cuarenta_sim.cuarenta.engine.layout`). Kernels: inputs are not validated.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ...rng import STREAM_POLICY, STREAM_SEARCH, nb_seed, nb_stream_key

#: ``plays[randbelow(len(plays))]`` from the seat's policy stream.
POLICY_RANDOM = 0
#: Most points (immediate + claim), then most cards; ties to the first play.
POLICY_GREEDY = 1

#: Weighted observable features and folk tactics (:mod:`.heuristic`).
POLICY_HEURISTIC = 2
#: Perfect-information Monte Carlo (:mod:`.pimc`).
POLICY_PIMC = 3
#: pimc whose samples are solved exactly (:mod:`.solverplay`).
POLICY_SOLVER = 4
#: Linear scorer of observable per-play features, trained on a teacher's play (:mod:`.learned`).
POLICY_LEARNED = 5

# ---- parameter row of a seat (int64, N_PARAMS): heuristic weights, then pimc settings; a
# ``learned`` seat's row holds its feature weights instead
P_CARDS = 0
P_CAIDA = 1
P_LIMPIA = 2
P_OPENINGS = 3
P_TRAIL_PAIR = 4
P_NO_ACE_TRAIL = 5
P_NO_RUN_START = 6
P_KEEP_TABLE = 7
P_HOLD_KNOWN = 8
P_RULES_38_30 = 9
P_SAMPLES = 10
P_DEPTH = 11
P_PLAYOUT = 12
P_LEAF_CARDS = 13
P_EXACT = 14
P_STOP = 15
#: ``learned`` reads its weights (one per feature, :data:`cuarenta_sim.cuarenta.engine.learned.
#: N_FEATURES`) from slots ``0 .. N_PARAMS - 1`` of its row instead of the slots above; the
#: row is as wide as the larger of that and the slots above.
N_PARAMS = 48
#: A seat's row in the kernels' policy array: the id, then the parameters.
POLICY_ROW = 1 + N_PARAMS
#: ``depth`` values of pimc: playouts to the end of the deal, or of the data.
DEPTH_DEAL = 0
DEPTH_DATA = 1
#: ``playout`` values of pimc.
PLAYOUT_GREEDY = 0
PLAYOUT_HEURISTIC = 1

#: ``solver``'s ``samples=auto`` (kernel value 0): samples per decision with 2 and with 4
#: players (:func:`solver_samples`). With 4 players three hands and the stock are hidden and a
#: play's value varies far more from sample to sample: 32 samples pick noise (46.6% of
#: duplicate chicas against the heuristic), 128 won 57.95% of 4,000, 256 won 60.62% of the
#: same 4,000 at half the speed (``benchmarks/README.md``).
AUTO_SAMPLES_2 = 32
AUTO_SAMPLES_4 = 256

#: Captured cards per play are below this, so ``points * CARDS_SPAN + cards`` orders plays.
CARDS_SPAN = 64

_U0 = np.uint64(0)
_U5 = np.uint64(5)
_U7 = np.uint64(7)
_U9 = np.uint64(9)
_U17 = np.uint64(17)
_U45 = np.uint64(45)
_U64 = np.uint64(64)


@njit(cache=True, inline="always")
def solver_samples(value: np.int64, n_players: np.int64) -> np.int64:
    """Samples per decision of a ``solver`` seat: its ``samples`` parameter, or for ``auto``
    (0) :data:`AUTO_SAMPLES_2` with 2 players and :data:`AUTO_SAMPLES_4` with 4."""
    if value != 0:
        return value
    return np.int64(AUTO_SAMPLES_2) if n_players == 2 else np.int64(AUTO_SAMPLES_4)


@njit(cache=True, inline="always")
def is_stochastic(policy: np.int64) -> bool:
    """True when policy ``policy`` draws from its seat's policy stream (contract section 2)."""
    return policy == POLICY_RANDOM


@njit(cache=True, inline="always")
def _rotl(x: np.uint64, k: np.uint64) -> np.uint64:
    return (x << k) | (x >> (_U64 - k))


@njit(cache=True, inline="always")
def draw_below(
    s0: np.uint64, s1: np.uint64, s2: np.uint64, s3: np.uint64, n: np.int64
) -> tuple[np.int64, np.uint64, np.uint64, np.uint64, np.uint64]:
    """Unbiased integer in ``[0, n)`` from the xoshiro256** state ``(s0, s1, s2, s3)``.

    Returns the integer and the advanced state. The same draw as
    :func:`cuarenta_sim.rng.nb_randbelow` (xoshiro256** step, rejection below
    ``2**64 mod n``), on scalars so that the caller's hot loop handles no array.
    """
    un = np.uint64(n)
    while True:
        result = _rotl(s1 * _U5, _U7) * _U9
        t = s1 << _U17
        s2 ^= s0
        s3 ^= s1
        s1 ^= s2
        s0 ^= s3
        s2 ^= t
        s3 = _rotl(s3, _U45)
        # Accept iff result >= (2**64 - n) % n; that threshold is below n, so the division
        # that computes it is needed only when result < n (probability n / 2**64).
        if result >= un or result >= (_U0 - un) % un:
            return np.int64(result % un), s0, s1, s2, s3


@njit(cache=True)
def init_policy_streams(
    states: np.ndarray,
    states_off: np.int64,
    work: np.ndarray,
    policies_off: np.int64,
    n_players: np.int64,
    root: np.uint64,
    game: np.int64,
    data: np.int64,
) -> None:
    """Seed the policy stream of every stochastic seat of data ``(game, data)`` (contract 2),
    and the search stream of every ``pimc`` and ``solver`` seat.

    Seat ``s`` (policy id ``work[policies_off + s]``) gets stream ``STREAM_POLICY + s`` in
    ``states[states_off + 4 * s : states_off + 4 * s + 4]`` (uint64); a pimc seat gets
    ``STREAM_SEARCH + s`` in ``states[states_off + 16 + 4 * s : ... + 4]``.
    """
    for s in range(n_players):
        policy = work[policies_off + s]
        if is_stochastic(policy):
            s0, s1, s2, s3 = nb_seed(nb_stream_key(root, game, data, STREAM_POLICY + s))
            off = states_off + 4 * s
            states[off] = s0
            states[off + 1] = s1
            states[off + 2] = s2
            states[off + 3] = s3
        elif policy in (POLICY_PIMC, POLICY_SOLVER):
            s0, s1, s2, s3 = nb_seed(nb_stream_key(root, game, data, STREAM_SEARCH + s))
            off = states_off + 16 + 4 * s
            states[off] = s0
            states[off + 1] = s1
            states[off + 2] = s2
            states[off + 3] = s3


@njit(cache=True, inline="always")
def play_key(policy: np.int64, points: np.int64, cards: np.int64) -> np.int64:
    """Score of a play for a deterministic policy; the policy plays the first maximum.

    ``points``: what the play earns the acting side, immediate plus claim, after blocks and the
    38 rule (contract section 4); ``cards``: cards it captures (played card + base + run, 0 for
    a trail). ``greedy`` orders by points, then cards (contract section 6).
    """
    return points * CARDS_SPAN + cards
