"""A batched Cuarenta environment for fast learning: ``n_envs`` games stepped at once in numba.

pgx-style: the state of every game lives in preallocated numpy arrays, :meth:`BatchedCuarenta.step`
takes one action per env (an int64 array) and returns arrays: observations, legal-action masks,
rewards, terminations and the seat to act. A ``parallel=True`` numba kernel
(:mod:`cuarenta_sim.rl.batched_kernel`) runs a ``prange`` over the envs, with the numba
engine's own rules (legal plays, :func:`cuarenta_sim.cuarenta.engine.moves.apply_play`,
announcements, the end-of-data count, the kernel policies); the tests replay every transition
through the reference engine. ``docs/rl_batched.md`` is the user guide.

Actions
    The fixed Discrete(53) space of the AEC environment (``cuarenta_sim.cuarenta.actions``):
    every ``(played rank, base)`` in the engine's canonical order (contract section 3): by rank,
    then trail, match and the sum bases of :func:`cuarenta_sim.cuarenta.tables.enumerate_sum_bases`.
    :data:`ACTION_PLAYS` lists them; the legal actions sorted are the canonical legal plays.
Observations
    ``"full"``: float32, the AEC layout (``cuarenta_sim.cuarenta.observation``; 285 values with 2
    players, 387 with 4); ``"compact"``: int8, the same segments with every 4-cell thermometer
    replaced by the rank's count and every fraction by its integer (105 / 147 values);
    ``"none"``. :func:`observation_segments` gives the layout.
Episodes
    ``"data"``: one data from 0-0 played to its last card; ``"chica"``: datas until a side
    reaches the target (R9.2). Episode ``k`` of env ``i`` deals game ``start_index + k * n_envs
    + i`` of the seed (contract section 2): the decks and first dealer of the reference engine's
    ``play_game(..., seed, level=episode, index=game)``.
"""

from __future__ import annotations

import sys
from typing import Any, NamedTuple

import numba
import numpy as np

from ..cuarenta.actions import PLAYS, action_name
from ..cuarenta.engine.layout import KIND_MATCH, KIND_SUM, KIND_TRAIL
from ..cuarenta.engine.moves import build_kernel_sums
from ..cuarenta.engine.state import Setup
from ..cuarenta.policies import POLICIES, parse_policy
from ..cuarenta.policies.kernel import POLICY_GREEDY, POLICY_HEURISTIC, POLICY_RANDOM
from ..cuarenta.rules import RuleSet, resolve_rules
from ..cuarenta.tables import SUM_START, enumerate_sum_bases
from ..limits import MAX_START_INDEX, finite_number, physical_memory, whole_number
from ..rng import root_from_seed
from . import batched_kernel as bk
from . import batched_state as bs

#: Policies the batched kernel plays for a seat (it has no pimc search nor learned scorer).
_BATCHED_POLICIES = (POLICY_RANDOM, POLICY_GREEDY, POLICY_HEURISTIC)

#: Episode units.
EPISODES: tuple[str, ...] = ("data", "chica")
#: Observation modes.
OBSERVATIONS: tuple[str, ...] = ("none", "full", "compact")
#: Size of the action space.
N_ACTIONS: int = bs.N_ACTIONS
# The kernel's fixed-size mask must cover the AEC action space exactly.
if len(PLAYS) != N_ACTIONS:  # pragma: no cover - a broken build, not an input error
    raise ImportError(f"batched kernel has {N_ACTIONS} actions, the AEC space {len(PLAYS)}")


#: Every play ``(rank, base)`` by action id, the AEC environment's encoding
#: (:data:`cuarenta_sim.cuarenta.actions.PLAYS`): base ``()`` a trail, ``(rank,)`` a match,
#: else the sorted ranks of a sum (R5.1, R5.2).
ACTION_PLAYS: tuple[tuple[int, tuple[int, ...]], ...] = tuple((p.rank, p.base) for p in PLAYS)
#: Action id of each ``(rank, base)``.
ACTION_IDS: dict[tuple[int, tuple[int, ...]], int] = {p: a for a, p in enumerate(ACTION_PLAYS)}


def _kernel_plays() -> np.ndarray:
    """``(rank, kind, sum index)`` of every action id, for the kernel (int64, (53, 3))."""
    out = np.empty((N_ACTIONS, 3), dtype=np.int64)
    for a, (rank, base) in enumerate(ACTION_PLAYS):
        if not base:
            out[a] = (rank, KIND_TRAIL, -1)
        elif base == (rank,):
            out[a] = (rank, KIND_MATCH, -1)
        else:
            # Sum bases of a rank sit in the sum tables in enumerate_sum_bases order.
            i = int(SUM_START[rank]) + enumerate_sum_bases(rank + 1).index(base)
            out[a] = (rank, KIND_SUM, i)
    out.flags.writeable = False
    return out


_KERNEL_PLAYS = _kernel_plays()


def observation_segments(players: int, observation: str = "full") -> list[tuple[str, int]]:
    """Return the ``(name, size)`` segments of the observation vector, in order.

    Seats are relative (slot 0 the observer, slot ``k`` the seat ``k`` places after it), "own"
    is the observer's side. Full mode (float32, values in [0, 1]): rank counts as thermometers
    of 4 cells per rank (cell ``k`` is 1 when the count exceeds ``k``; ranks ``A..7 J Q K``),
    hand sizes / 5, piles / 40, scores capped at the target / target. Compact mode (int8): one
    cell per rank holding the count, hand sizes, piles and capped scores as integers.

    ==============  ===========  =========================================================
    segment         cells        content
    ==============  ===========  =========================================================
    hand            10 c         own hand
    table           10 c         the table
    played          10 c         cards played in this data, by everyone
    captured_own    10 c         cards in the own side's pile (public: captures are face up)
    captured_other  10 c         cards in the opponents' pile
    known           10 c (n-1)   per other seat, announced ronda cards still held (R4)
    rondas          10 n         per seat, ranks announced as ronda in this deal (R4)
    trail           10           rank a caida may be made on now (R6.1), one-hot
    trail_in_ronda  1            it is a ronda rank of its trailer (R6.4)
    dealer          n            the dealer's slot, one-hot
    deal            8 / n        the deal of the data, one-hot (R2.2)
    hand_sizes      n            cards in each seat's hand
    piles           2            own, other side's cards captured
    scores          2            own, other side's score
    last_capturer   2            own / other side made the last capture (R8.1)
    ==============  ===========  =========================================================

    ``c`` is 4 (full) or 1 (compact), ``n`` the players. Full mode is the layout of the AEC
    environment's ``cuarenta.observation`` (285 values with 2 players, 387 with 4).

    Raises
    ------
    ValueError
        Bad ``players`` or ``observation``.
    """
    _check_players(players)
    if observation not in OBSERVATIONS:
        raise ValueError(
            f"unknown observation {observation!r}; accepted: {', '.join(OBSERVATIONS)}"
        )
    if observation == "none":
        return []
    n = players
    c = 4 if observation == "full" else 1
    return [
        ("hand", 10 * c),
        ("table", 10 * c),
        ("played", 10 * c),
        ("captured_own", 10 * c),
        ("captured_other", 10 * c),
        ("known", 10 * c * (n - 1)),
        ("rondas", 10 * n),
        ("trail", 10),
        ("trail_in_ronda", 1),
        ("dealer", n),
        ("deal", 8 // n),
        ("hand_sizes", n),
        ("piles", 2),
        ("scores", 2),
        ("last_capturer", 2),
    ]


def _check_players(players: object) -> None:
    if isinstance(players, bool) or players not in (2, 4):
        raise ValueError(f"players must be 2 or 4, got {players!r}")


def env_bytes(players: int, observation: str) -> int:
    """Bytes of the arrays one env of :class:`BatchedCuarenta` holds (state, streams, deck,
    observation, mask, reward and flags)."""
    dim = sum(size for _, size in observation_segments(players, observation))
    obs = dim * (1 if observation == "compact" else 4)
    return 8 * (bs.N_FIELDS + bs.N_RNG) + 40 + obs + bs.MASK_BYTES + 4 * players + 3 + 4


def _check_envs_memory(n_envs: int, players: int, observation: str) -> None:
    """Refuse, before allocating, more envs than this machine's physical memory holds."""
    total = physical_memory()
    if total is None:
        return
    most = max(1, total // env_bytes(players, observation))
    if n_envs > most:
        raise ValueError(
            f"n_envs must be a positive whole number up to {most:,} here ({players} players, "
            f"observation {observation!r}: {env_bytes(players, observation):,} bytes an env, "
            f"{total / 2**30:,.1f} GiB of memory), got {n_envs!r}"
        )


class BatchedStep(NamedTuple):
    """What :meth:`BatchedCuarenta.reset` and :meth:`BatchedCuarenta.step` return.

    The arrays are the environment's own buffers, overwritten by the next call: copy what
    you keep.

    Attributes
    ----------
    observation : ndarray, (n_envs, obs_dim)
        float32 (``"full"``), int8 (``"compact"``) or float32 with 0 columns (``"none"``):
        what the seat to act may know (:func:`observation_segments`).
    action_mask : ndarray of bool, (n_envs, 53)
        The legal actions of the seat to act; all False for a terminated env (a view of a
        (n_envs, 56) buffer: rows are not contiguous with each other).
    reward : ndarray of float32, (n_envs, players) or (n_envs, 1)
        Per seat (no opponent) or for the learner's side 0 (with an opponent).
    terminated : ndarray of bool, (n_envs,)
        The episode ended in this step (with auto-reset the env already shows the next one).
    truncated : ndarray of bool, (n_envs,)
        A chica stopped undecided after 10,000 datas (also ``terminated``).
    current_player : ndarray of int8, (n_envs,)
        The seat to act, -1 for a terminated env.
    """

    observation: np.ndarray
    action_mask: np.ndarray
    reward: np.ndarray
    terminated: np.ndarray
    truncated: np.ndarray
    current_player: np.ndarray


class BatchedCuarenta:
    """``n_envs`` Cuarenta games stepped at once (pgx-style arrays in and out).

    Parameters
    ----------
    n_envs : int
        Number of games, >= 1, at most what the machine's physical memory holds
        (:func:`env_bytes` each).
    rules : str, dict or RuleSet
        A preset (``quito``, ``cuenca``, ``pagat``, ``quito_torneo``), slug, dict or RuleSet.
    players : int
        2 or 4; seat ``s`` plays for side ``s % 2`` (R2.1).
    episode : str
        ``"data"`` (one data from 0-0, played to its last card) or ``"chica"`` (datas until a
        side reaches the target, R9.2).
    opponent : str or None
        None: the caller plays every seat (multi-agent; ``current_player`` says which).
        A policy spec (``"random"``, ``"greedy"``, ``"heuristic"`` or
        ``"heuristic(cards=300,...)"``): it plays side 1's seats inside the kernel and the
        caller plays side 0 (seat 0, and seat 2 with 4 players): a single-agent view.
    seed : int
        Non-negative seed of the random streams (:func:`cuarenta_sim.rng.root_from_seed`).
    threads : int or None
        numba threads for the kernels (default: numba's setting); results never depend on it.
    observation : str
        ``"full"`` (default), ``"compact"`` or ``"none"``.
    auto_reset : bool
        True (default): an env whose episode ends reports it (``terminated``, reward,
        :attr:`final_scores`) and is at once at the first decision of its next episode.
        False: it stays terminated (action -1 only) until :meth:`reset`.
    win_reward, point_reward : float
        Rewards, zero-sum between the sides: each step every seat gets ``point_reward *``
        (points its side gained - points the other side gained) and, when the episode ends,
        ``+win_reward`` for the winning side, ``-win_reward`` for the other (at episode
        ``data``: the side with more points; nothing on a tie or a truncated chica). Points
        gained before an episode's first decision are paid with its first step.
    start_index : int
        Game index of env 0's first episode (see the module docstring), from 0 to ``2**62``
        (:data:`cuarenta_sim.limits.MAX_START_INDEX`): the game indices stay below ``2**63``
        for the next ``2**62`` episodes.

    Raises
    ------
    ValueError
        Any bad parameter; the message says what is accepted.

    Notes
    -----
    An episode decided before its first decision (a ``win_chica`` doble ronda in the first
    deal of a chica, R4.2) has no transition: it is skipped, the env goes on with its next
    episode index, and :attr:`skipped_episodes` counts it.
    """

    def __init__(
        self,
        n_envs: int,
        rules: RuleSet | str | dict[str, Any] = "quito",
        players: int = 2,
        episode: str = "data",
        opponent: str | None = None,
        seed: int = 0,
        threads: int | None = None,
        observation: str = "full",
        auto_reset: bool = True,
        win_reward: float = 1.0,
        point_reward: float = 0.0,
        start_index: int = 0,
    ) -> None:
        whole_number(n_envs, "n_envs", 1)
        _check_players(players)
        if episode not in EPISODES:
            raise ValueError(f"unknown episode {episode!r}; accepted: {', '.join(EPISODES)}")
        if observation not in OBSERVATIONS:
            raise ValueError(
                f"unknown observation {observation!r}; accepted: {', '.join(OBSERVATIONS)}"
            )
        _check_envs_memory(int(n_envs), int(players), observation)
        if seed is None:
            raise ValueError("seed must be a non-negative integer (an explicit seed)")
        root, _ = root_from_seed(seed)
        if threads is not None and (
            isinstance(threads, bool)
            or not isinstance(threads, int | np.integer)
            or not 1 <= threads <= numba.config.NUMBA_NUM_THREADS
        ):
            raise ValueError(
                f"threads must be None or an integer from 1 to {numba.config.NUMBA_NUM_THREADS},"
                f" got {threads!r}"
            )
        if not isinstance(auto_reset, bool):
            raise ValueError(f"auto_reset must be True or False, got {auto_reset!r}")
        for name, value in (("win_reward", win_reward), ("point_reward", point_reward)):
            finite_number(value, name)
        # Game indices start_index + k * n_envs + i stay below 2**63 (int64) for the next
        # 2**62 episodes (cuarenta_sim.limits).
        whole_number(start_index, "start_index", 0, MAX_START_INDEX)
        self.ruleset = resolve_rules(rules)
        self.n_envs = int(n_envs)
        self.players = int(players)
        self.episode = episode
        self.seed = int(seed)
        self.threads = None if threads is None else int(threads)
        self.observation_mode = observation
        self.auto_reset = auto_reset
        self.win_reward = float(win_reward)
        self.point_reward = float(point_reward)
        self.start_index = int(start_index)
        self.opponent = None if opponent is None else _opponent_spec(opponent)
        self._root = np.uint64(root)
        self._rules = self.ruleset.to_kernel()
        self._sums = build_kernel_sums(self._rules.max_sum_cards)
        # Seat policies: LEARNER for the caller's seats, the opponent's row for side 1.
        self._policies = np.zeros((4, 1 + len(self._default_row())), dtype=np.int64)
        self._policies[:, 0] = bs.LEARNER
        self._policies[:, 1:] = self._default_row()
        if self.opponent is not None:
            spec = parse_policy(self.opponent)
            for s in (1, 3):
                self._policies[s, 0] = spec.id
                self._policies[s, 1:] = spec.row()
        n = self.n_envs
        self._st = np.zeros((n, bs.N_FIELDS), dtype=np.int64)
        self._rngs = np.zeros((n, bs.N_RNG), dtype=np.uint64)
        self._decks = np.zeros((n, 40), dtype=np.uint8)
        dim = sum(size for _, size in observation_segments(self.players, observation))
        dtype = np.int8 if observation == "compact" else np.float32
        self._obs = np.zeros((n, dim), dtype=dtype)
        # The kernel writes the mask 8 actions per uint64 store (padded to 56 columns); the
        # caller sees the first 53 columns.
        if sys.byteorder != "little":  # pragma: no cover - numba targets are little-endian
            raise RuntimeError("the batched environment needs a little-endian machine")
        self._mask_bytes = np.zeros((n, bs.MASK_BYTES), dtype=np.bool_)
        self._mask_words = self._mask_bytes.view(np.uint64)
        self._mask = self._mask_bytes[:, :N_ACTIONS]
        self._reward = np.zeros((n, 1 if self.opponent is not None else self.players), np.float32)
        self._terminated = np.zeros(n, dtype=np.bool_)
        self._truncated = np.zeros(n, dtype=np.bool_)
        self._current = np.zeros(n, dtype=np.int8)
        self._final_scores = np.zeros((n, 2), dtype=np.int16)
        self._obs_code = OBSERVATIONS.index(observation)  # = bs.OBS_NONE / OBS_FULL / OBS_COMPACT
        self._started = False

    @staticmethod
    def _default_row() -> np.ndarray:
        from ..cuarenta.policies import default_params

        return default_params()

    # ----------------------------------------------------------------- properties
    @property
    def observation_size(self) -> int:
        """Length of an observation vector (0 for ``"none"``)."""
        return int(self._obs.shape[1])

    @property
    def legal_action_bits(self) -> np.ndarray:
        """int64 (n_envs,): bit ``a`` set when action ``a`` is legal (a read-only view)."""
        view = self._st[:, bs.F_LEGAL]
        view.flags.writeable = False
        return view

    @property
    def scores(self) -> np.ndarray:
        """int64 (n_envs, 2): the current episode's scores of sides 0 and 1 (a copy)."""
        return self._st[:, bs.F_SCORES : bs.F_SCORES + 2].copy()

    @property
    def final_scores(self) -> np.ndarray:
        """int16 (n_envs, 2): scores at the end of the last episode each env finished (valid
        where the last step's ``terminated`` is True; a copy)."""
        return self._final_scores.copy()

    @property
    def episode_index(self) -> np.ndarray:
        """int64 (n_envs,): game index of each env's current episode (a copy)."""
        return self._st[:, bs.F_GAME].copy()

    @property
    def skipped_episodes(self) -> int:
        """Episodes decided before their first decision, skipped (see the class notes)."""
        return int(self._st[:, bs.F_SKIPPED].sum())

    # ----------------------------------------------------------------- calls
    def _threads(self) -> int:
        old = numba.get_num_threads()
        if self.threads is not None:
            numba.set_num_threads(self.threads)
        return old

    def _outputs(self) -> BatchedStep:
        return BatchedStep(
            self._obs, self._mask, self._reward, self._terminated, self._truncated, self._current
        )

    def reset(self, seed: int | None = None) -> BatchedStep:
        """Start episode 0 of every env (game index ``start_index + i``) and return its first
        decision (rewards 0).

        Parameters
        ----------
        seed : int, optional
            A new seed (non-negative integer); default the current one.

        Raises
        ------
        ValueError
            A bad seed.
        """
        if seed is not None:
            root, _ = root_from_seed(seed)
            self.seed = int(seed)
            self._root = np.uint64(root)
        old = self._threads()
        try:
            bk.reset_kernel(*self._kernel_args())
        finally:
            numba.set_num_threads(old)
        self._started = True
        return self._outputs()

    def step(self, actions: np.ndarray) -> BatchedStep:
        """Play one action in every env and return the next decisions.

        Parameters
        ----------
        actions : ndarray of int, shape (n_envs,)
            A legal action id of the seat to act in each env (its ``action_mask``); -1 for an
            env that stays terminated (``auto_reset=False``).

        Returns
        -------
        BatchedStep
            The arrays of the next decision of every env (see :class:`BatchedStep`).

        Raises
        ------
        ValueError
            Before :meth:`reset`; ``actions`` not an integer numpy array of shape (n_envs,);
            an illegal action (the message names the env, the seat and the legal actions),
            or an action other than -1 for a terminated env. Nothing is stepped then.
        """
        if not self._started:
            raise ValueError("call reset() before step()")
        if not isinstance(actions, np.ndarray):
            raise ValueError(
                f"actions must be a numpy integer array of shape ({self.n_envs},), "
                f"got {type(actions).__name__}"
            )
        if actions.shape != (self.n_envs,):
            raise ValueError(f"actions must have shape ({self.n_envs},), got {actions.shape}")
        if actions.dtype.kind not in "iu":
            raise ValueError(f"actions must have an integer dtype, got {actions.dtype}")
        # One array type for the kernel (a strided or other-integer array would compile anew).
        actions = np.ascontiguousarray(actions, dtype=np.int64)
        bad = int(bk.check_actions(self._st, actions))
        if bad >= 0:
            raise ValueError(self._bad_action_message(bad, int(actions[bad])))
        old = self._threads()
        try:
            rules, envs, setup, options, out = self._kernel_args()
            bk.step_kernel(rules, envs, setup, options, _KERNEL_PLAYS, actions, out)
        finally:
            numba.set_num_threads(old)
        return self._outputs()

    def _kernel_args(self) -> tuple:
        """The arguments of :func:`.batched_kernel.reset_kernel` (the leading ones of
        :func:`.batched_kernel.step_kernel`, which adds the action arrays before ``out``)."""
        envs = bs.Envs(self._st, self._rngs, self._decks)
        setup = Setup(self.players, self._sums, np.uint64(self._root), self._policies)
        options = bs.EnvOptions(
            EPISODES.index(self.episode),
            self.start_index,
            self._obs_code,
            0,
            bool(self.auto_reset),
            float(self.win_reward),
            float(self.point_reward),
        )
        out = bs.Outputs(
            self._obs,
            self._mask_words,
            self._reward,
            self._terminated,
            self._truncated,
            self._current,
            self._final_scores,
        )
        return self._rules, envs, setup, options, out

    def _bad_action_message(self, i: int, action: int) -> str:
        if self._st[i, bs.F_DONE]:
            return (
                f"env {i} is terminated (auto_reset=False): its action must be -1, got {action};"
                " call reset() to start new episodes"
            )
        bits = int(self._st[i, bs.F_LEGAL])
        legal = [a for a in range(N_ACTIONS) if bits >> a & 1]
        names = ", ".join(f"{a} ({action_name(a)})" for a in legal)
        seat = int(self._st[i, bs.F_SEAT])
        return f"env {i}: action {action} is not legal for seat {seat}; legal actions: {names}"

    def policy_actions(self, policy: str) -> np.ndarray:
        """Return the action a deterministic kernel policy would take in every env now.

        Parameters
        ----------
        policy : str
            ``"greedy"`` or ``"heuristic"`` (with optional parameters): it sees what the seat
            to act may know (contract section 6), as when it plays as an opponent.

        Returns
        -------
        ndarray of int64, shape (n_envs,)
            Action ids; -1 for a terminated env. Useful for baselines and imitation.

        Raises
        ------
        ValueError
            Before :meth:`reset`, or a policy that is not greedy or heuristic.
        """
        if not self._started:
            raise ValueError("call reset() before policy_actions()")
        spec = parse_policy(policy)
        if spec.id not in _BATCHED_POLICIES or spec.id == POLICY_RANDOM:
            raise ValueError(
                f"policy_actions takes a deterministic kernel policy (greedy, heuristic), "
                f"got {policy!r}; for random actions use random_actions()"
            )
        row = np.concatenate([[spec.id], spec.row()]).astype(np.int64)
        out = np.empty(self.n_envs, dtype=np.int64)
        old = self._threads()
        try:
            bk.policy_actions_kernel(
                self._st, self._rngs, self._rules, self.players, self._sums, row, out
            )
        finally:
            numba.set_num_threads(old)
        return out

    def random_actions(self, states: np.ndarray) -> np.ndarray:
        """Return a uniformly random legal action per env (-1 for a terminated env).

        Parameters
        ----------
        states : ndarray of uint64, shape (n_envs, 4)
            One xoshiro256** state per env, advanced in place (:func:`random_states`).

        Raises
        ------
        ValueError
            ``states`` of the wrong shape or dtype.
        """
        if (
            not isinstance(states, np.ndarray)
            or states.dtype != np.uint64
            or states.shape != (self.n_envs, 4)
        ):
            raise ValueError(f"states must be a uint64 array of shape ({self.n_envs}, 4)")
        out = np.empty(self.n_envs, dtype=np.int64)
        old = self._threads()
        try:
            bk.random_legal_actions(self._st[:, bs.F_LEGAL], states, out)
        finally:
            numba.set_num_threads(old)
        return out


def random_states(n_envs: int, seed: int) -> np.ndarray:
    """Return ``n_envs`` xoshiro256** states (uint64, (n_envs, 4)) for
    :meth:`BatchedCuarenta.random_actions`: env ``i`` gets stream ``STREAM_POLICY`` of game
    ``i``, data 0 of ``seed`` (:mod:`cuarenta_sim.rng`).

    Raises
    ------
    ValueError
        Bad ``n_envs`` or ``seed``.
    """
    from ..rng import STREAM_POLICY, PyRng

    if isinstance(n_envs, bool) or not isinstance(n_envs, int | np.integer) or n_envs < 1:
        raise ValueError(f"n_envs must be a positive integer, got {n_envs!r}")
    root, _ = root_from_seed(seed)
    out = np.empty((n_envs, 4), dtype=np.uint64)
    for i in range(n_envs):
        out[i] = PyRng.for_stream(root, i, 0, STREAM_POLICY).s
    return out


def _opponent_spec(opponent: object) -> str:
    """Check an opponent policy spec (random, greedy or heuristic) and return it canonical."""
    if not isinstance(opponent, str):
        raise ValueError(
            f"opponent must be None or a policy spec (random, greedy, heuristic(...)), "
            f"got {opponent!r}"
        )
    spec = parse_policy(opponent)
    if spec.id not in _BATCHED_POLICIES:
        accepted = ", ".join(p for p in POLICIES if POLICIES[p].id in _BATCHED_POLICIES)
        raise ValueError(f"opponent {opponent!r} is not supported; accepted: {accepted}")
    return spec.canonical
