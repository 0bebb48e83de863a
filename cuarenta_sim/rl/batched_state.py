"""State layout, typed arguments and output writers of the batched Cuarenta environment.

The kernels of :mod:`.batched_kernel` (which re-exports every name here) keep the state of
``n_envs`` games in the arrays of :class:`Envs` (one int64 row of fields ``F_*`` per env) and
write a step's outputs to the arrays of :class:`Outputs`; :class:`EnvOptions` says how the
episodes run. The writers below fill one env's row of the outputs.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from ..cuarenta.engine.moves import NIBBLE_ONES

#: Size of the action space: every (played rank, base) of the game (contract 3).
N_ACTIONS = 53
#: Policy id of a seat whose actions come from the caller (``step``).
LEARNER = -1
#: Episode codes.
EPISODE_DATA = 0
EPISODE_CHICA = 1
#: Observation codes: none, the AEC float32 layout, its int8 compact variant.
OBS_NONE = 0
OBS_FULL = 1
OBS_COMPACT = 2
#: A chica not decided after this many datas is stopped, truncated (contract 5).
MAX_DATAS = 10_000

#: Adding 5 to every 4-bit count sets its bit 3 exactly for counts 3 and 4 (a ronda, R4).
RONDA_ADD = 5 * NIBBLE_ONES
RONDA_BITS = 8 * NIBBLE_ONES

# ---- fields of a state row (int64)
F_GAME = 0  # game index of the episode (the rng streams' ``game``)
F_EPISODE = 1  # episodes this env has started (k)
F_DATA = 2  # data position in the chica
F_DEALER = 3
F_DEAL = 4  # current deal, -1 before the first
F_TURN = 5  # turns played in the deal (5 * players once it is over)
F_TABLE = 6  # packed table
F_TABLE_CARDS = 7
F_PREV_RANK = 8  # previous trail (R6.1), -1 if none
F_PREV_SEAT = 9
F_LAST_CAPTURER = 10  # side, -1 if none (R8.1)
F_PLAYED = 11  # packed cards played in the data
F_CLAIMS = 12  # 2: end-of-deal claims per side (R6.4)
F_FIRST_CLAIM = 14
F_SCORES = 15  # 2
F_PILES = 17  # 2: cards captured per side
F_PILE_RANKS = 19  # 2: packed ranks captured per side (public: captures are face up)
F_HANDS = 21  # 4: packed hands
F_RONDA = 25  # 4: ronda ranks of the deal per seat (bit 3 of the rank's field, R4)
F_KNOWN = 29  # 4: announced ronda cards still held per seat (R4)
F_DEALS = 33  # 8: packed hands of every deal of the data, deal d, position p at 33 + d*n + p
F_LEGAL = 41  # legal action bits of the seat to act
F_SEAT = 42  # seat to act, -1 once terminated
F_DONE = 43  # 1 once the episode is over
F_DECISIONS = 44  # decisions taken in the episode
F_SKIPPED = 45  # episodes that ended before any decision (skipped)
F_GAINED = 46  # 2: points gained per side since the last step's output
F_WINNER = 48  # winning side at the end, -1 for none (a tie or truncated)
F_TRUNCATED = 49
N_FIELDS = 50

#: Bytes of a bool mask row (the 53 actions padded to whole uint64 words) and its words.
MASK_BYTES = 56
MASK_WORDS = 7
#: ``SPREAD[b]``: the 8 bits of ``b`` as 8 bytes 0/1 of a little-endian uint64 (bit k in
#: byte k), so a mask word is written in one store.
SPREAD = np.array(
    [sum(((b >> k) & 1) << (8 * k) for k in range(8)) for b in range(256)], dtype=np.uint64
)

#: ``rngs`` row: deck scratch, then the policy stream of seat s at RNG_POLICY + 4 s.
RNG_POLICY = 4
N_RNG = 20


class Envs(NamedTuple):
    """The state of ``n_envs`` games (module docstring).

    Attributes
    ----------
    st : ndarray of int64, shape (n_envs, N_FIELDS)
        One state row per env (fields ``F_*``).
    rngs : ndarray of uint64, shape (n_envs, N_RNG)
        Deck scratch and the seats' policy streams.
    decks : ndarray of uint8, shape (n_envs, 40)
        Deck scratch.
    """

    st: np.ndarray
    rngs: np.ndarray
    decks: np.ndarray


class EnvOptions(NamedTuple):
    """How the episodes run and what the step reports.

    Attributes
    ----------
    episode : int
        :data:`EPISODE_DATA` or :data:`EPISODE_CHICA`.
    index0 : int
        Game index of env 0's episode 0 (episode ``k`` of env ``i`` is game
        ``index0 + k * n_envs + i``).
    obs_mode : int
        :data:`OBS_NONE`, :data:`OBS_FULL` or :data:`OBS_COMPACT`.
    observer : int
        The seat whose observation is written at the end of an episode.
    auto_reset : bool
        An env whose episode ends starts the next one in the same step.
    win_reward, point_reward : float
        Reward of a won episode and per point gained (zero-sum between the sides).
    """

    episode: int
    index0: int
    obs_mode: int
    observer: int
    auto_reset: bool
    win_reward: float
    point_reward: float


class Outputs(NamedTuple):
    """The arrays a reset or a step writes (row ``i``: env ``i``).

    Attributes
    ----------
    obs : ndarray of float32 or int8, shape (n_envs, obs_dim)
        The observation of the seat to act (:func:`write_observation`).
    mask : ndarray of uint64, shape (n_envs, MASK_WORDS)
        The uint64 view of the bool action mask (n_envs, MASK_BYTES).
    reward : ndarray of float32, shape (n_envs, 1 or players)
        The step's reward per column (seat ``j``, or side 0 with one column).
    terminated, truncated : ndarray of bool, shape (n_envs,)
        Episode ended; ended truncated (contract 5).
    current : ndarray of int8, shape (n_envs,)
        Seat to act, -1 at the end.
    final_scores : ndarray of int16, shape (n_envs, 2)
        Side scores of an episode that ended in the step (not written by a reset).
    """

    obs: np.ndarray
    mask: np.ndarray
    reward: np.ndarray
    terminated: np.ndarray
    truncated: np.ndarray
    current: np.ndarray
    final_scores: np.ndarray


# ------------------------------------------------------------------ outputs
@njit(cache=True, inline="always")
def _counts(obs: np.ndarray, i: np.int64, at: np.int64, packed: np.int64, thermo: bool) -> None:
    """Write the rank counts of ``packed``: a thermometer of 4 cells per rank (full) or one
    count per rank (compact). Every cell is written (branch-free: no zeroing pass)."""
    for r in range(10):
        c = (packed >> (4 * r)) & 15
        if thermo:
            for k in range(4):
                obs[i, at + 4 * r + k] = c > k
        else:
            obs[i, at + r] = c


@njit(cache=True, inline="always")
def _flags(obs: np.ndarray, i: np.int64, at: np.int64, size: np.int64, hot: np.int64) -> None:
    """Write a one-hot block of ``size`` cells, cell ``hot`` set (none when ``hot < 0``)."""
    for j in range(size):
        obs[i, at + j] = j == hot


@njit(cache=True)
def write_observation(
    obs: np.ndarray,
    i: np.int64,
    st: np.ndarray,
    seat: np.int64,
    n_players: np.int64,
    target: np.int64,
    thermo: bool,
) -> None:
    """Write what ``seat`` of env ``i`` may know into row ``i`` of ``obs``.

    The layout of :func:`cuarenta_sim.rl.batched.observation_segments`: relative seats (slot 0
    the observer), own side first; full mode writes thermometer codes and fractions (float32),
    compact mode counts and plain integers (int8). Every cell of the row is written once.
    """
    n = n_players
    block = 40 if thermo else 10
    side = seat & 1
    at = 0
    _counts(obs, i, at, st[i, F_HANDS + seat], thermo)
    at += block
    _counts(obs, i, at, st[i, F_TABLE], thermo)
    at += block
    _counts(obs, i, at, st[i, F_PLAYED], thermo)
    at += block
    _counts(obs, i, at, st[i, F_PILE_RANKS + side], thermo)
    at += block
    _counts(obs, i, at, st[i, F_PILE_RANKS + 1 - side], thermo)
    at += block
    for k in range(1, n):  # known: announced ronda cards still held, other seats (R4)
        _counts(obs, i, at, st[i, F_KNOWN + (seat + k) % n], thermo)
        at += block
    for k in range(n):  # rondas announced in this deal
        mask = st[i, F_RONDA + (seat + k) % n]
        for r in range(10):
            obs[i, at + r] = (mask >> (4 * r + 3)) & 1
        at += 10
    # The trail a caida may be made on (R6.1) and whether it is its trailer's ronda (R6.4).
    prev_rank = st[i, F_PREV_RANK]
    _flags(obs, i, at, 10, prev_rank)
    in_ronda = prev_rank >= 0 and (st[i, F_RONDA + st[i, F_PREV_SEAT]] >> (4 * prev_rank + 3)) & 1
    obs[i, at + 10] = in_ronda
    at += 11
    _flags(obs, i, at, n, (st[i, F_DEALER] - seat) % n)
    at += n
    _flags(obs, i, at, 8 // n, st[i, F_DEAL])
    at += 8 // n
    for k in range(n):
        h = st[i, F_HANDS + (seat + k) % n]
        c = (h & 0x0F0F0F0F0F) + ((h >> 4) & 0x0F0F0F0F0F)
        c = (c + (c >> 8) + (c >> 16) + (c >> 24) + (c >> 32)) & 0xFF
        if thermo:
            obs[i, at + k] = c / 5.0
        else:
            obs[i, at + k] = c
    at += n
    for k in range(2):
        pile = st[i, F_PILES + (side + k) % 2]
        score = min(st[i, F_SCORES + (side + k) % 2], target)
        if thermo:
            obs[i, at + k] = pile / 40.0
            obs[i, at + 2 + k] = score / target
        else:
            obs[i, at + k] = pile
            obs[i, at + 2 + k] = score
    at += 4
    last = st[i, F_LAST_CAPTURER]
    _flags(obs, i, at, 2, -1 if last < 0 else (0 if last == side else 1))


@njit(cache=True, inline="always")
def _write_outputs(
    st: np.ndarray,
    i: np.int64,
    n_players: np.int64,
    target: np.int64,
    obs_mode: np.int64,
    observer: np.int64,
    mask: np.ndarray,
    current: np.ndarray,
    obs: np.ndarray,
) -> None:
    """Action mask, seat to act and observation of env ``i`` (at a decision or the end).

    ``mask`` is the uint64 view (n_envs, 7) of the bool mask (n_envs, 56): each group of 8
    legal bits becomes 8 bytes 0/1 through :data:`SPREAD` (little-endian byte order).
    """
    bits = st[i, F_LEGAL]
    for w in range(MASK_WORDS):
        mask[i, w] = SPREAD[(bits >> (8 * w)) & 255]
    seat = st[i, F_SEAT]
    current[i] = seat
    if obs_mode != OBS_NONE:
        # At the end nobody acts: the observation is the observer seat's.
        write_observation(
            obs, i, st, seat if seat >= 0 else observer, n_players, target, obs_mode == OBS_FULL
        )


@njit(cache=True, inline="always")
def _write_reward(
    st: np.ndarray,
    i: np.int64,
    reward: np.ndarray,
    win_reward: np.float64,
    point_reward: np.float64,
) -> None:
    """Reward of the step for every column of ``reward`` (seat ``j``, or side 0 when there is
    one column): zero-sum between the sides, points gained since the last output times
    ``point_reward``, plus ``win_reward`` for the winner of an ended episode."""
    diff = np.float64(st[i, F_GAINED] - st[i, F_GAINED + 1])
    st[i, F_GAINED] = 0
    st[i, F_GAINED + 1] = 0
    if st[i, F_DONE] != 0 and st[i, F_WINNER] >= 0:
        diff_win = win_reward if st[i, F_WINNER] == 0 else -win_reward
    else:
        diff_win = 0.0
    for j in range(reward.shape[1]):
        sign = 1.0 if j % 2 == 0 else -1.0
        reward[i, j] = sign * (point_reward * diff + diff_win)
