"""The PettingZoo AEC environment of any registered game with a core (needs the ``rl`` extra).

:class:`CardGameEnv` is a thin adapter over the game's step-level core
(:class:`cuarenta_sim.core.Core`, ``Game.core``): it knows no game. ``CuarentaEnv`` and
``CuatrolaEnv`` (and ``<Title>Env`` of any registered game) are its subclasses with the game
fixed. They follow the conventions of PettingZoo's classic card and board games:

* agents ``player_0 .. player_{n-1}`` are the seats; seat ``s`` plays for side (pair)
  ``s % 2`` (R2.1, C1.1); one seat acts at a time (``agent_selection``);
* an observation is a dict ``{"observation": float32 vector, "action_mask": int8 vector}``:
  the vector is what that seat may know (the core's ``encode``:
  :mod:`cuarenta_sim.cuarenta.observation`, :mod:`cuarenta_sim.cuatrola.observation`), the
  mask marks the legal actions of the seat to act (all zero for the others and after the end);
* actions are a fixed ``Discrete`` space (the core's ``n_actions``; Cuarenta:
  :data:`cuarenta_sim.cuarenta.actions.PLAYS`, 53 plays; Cuatrola: 20 cards and 4
  declarations, :mod:`cuarenta_sim.cuatrola.reference.step`);
* rewards are zero-sum between the two sides: after every step each seat receives
  ``point_reward * (points its side gained - points the opponents gained)`` (Cuarenta points,
  R9.2; Cuatrola game points of a hand, C5) and, when the episode ends,
  ``+win_reward`` (its side won the chica / game, or at episode ``data`` / ``hand`` scored
  more points in it), ``-win_reward`` (the opponents did) or 0 (a tie, a truncated game);
* ``reset(seed=s)`` starts game index 0 of seed ``s``; each later ``reset()`` without a seed
  plays the next game index of the same seed, so episode ``k`` after ``reset(seed=s)`` deals
  exactly the decks of the reference engine's game ``k`` (``play_game(..., seed=s,
  level=episode, index=k)``; Cuatrola: ``reference_trace(..., seed=s, level, index=k)``).
  Without any seed, fresh OS entropy is drawn (recorded in ``env.seed_used``).
  ``options`` are accepted and ignored (PettingZoo's API passes them);
* ``render()`` returns (``render_mode="ansi"``) or prints (``"human"``) a text view of the
  table with every hand shown: it is for people, not for the seats.

An illegal action raises :class:`ValueError` naming the legal ones; with
``illegal_action_penalty=p`` it instead ends the episode, the offending seat receiving ``p``
and the others 0, like PettingZoo's ``TerminateIllegalWrapper`` (without its warning).
``step`` after the episode has ended, or before ``reset``, raises :class:`ValueError`.
An episode may end before any seat acts (a ``win_chica`` doble ronda dealt in the first deal,
R4.2): ``reset`` then leaves every agent terminated with its reward to collect.
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np

from ._extra import require

require("pettingzoo")
require("gymnasium")

from gymnasium import spaces  # noqa: E402
from pettingzoo import AECEnv  # noqa: E402

from ..core import TERMINAL, Core, game_core  # noqa: E402
from ..game import DEFAULT_GAME, get_game  # noqa: E402
from ..limits import finite_number  # noqa: E402
from ..rng import root_from_seed  # noqa: E402

RENDER_MODES = ("ansi", "human")


def _check_reward(name: str, value: object) -> float:
    return finite_number(value, name)


class CardGameEnv(AECEnv):
    """A registered game as a PettingZoo AEC environment, through its core (module docstring).

    Parameters
    ----------
    game : str
        A registered game with a core (``"cuarenta"``, the default, ``"cuatrola"``, ...).
    rules : rule set, str, dict or None
        A preset, slug, dict or rule-set object of the game; ``None``: the core's default.
    players : int or None
        One of the core's ``player_counts``; ``None``: the first.
    episode : str or None
        One of the core's ``episodes`` (Cuarenta ``chica`` / ``data``, Cuatrola ``game`` /
        ``hand``); ``None``: the first.
    win_reward, point_reward : float
        Terminal and per-point rewards (module docstring); defaults 1 and 0.
    illegal_action_penalty : float or None
        ``None`` (default): an illegal action raises ValueError; a number: it ends the
        episode with that reward for the offending seat.
    render_mode : str or None
        ``None``, ``"ansi"`` or ``"human"``.

    Attributes
    ----------
    core : Core
        The game's step-level core.
    game : object
        The current episode's core state (``None`` before ``reset``); for Cuarenta a
        :class:`~cuarenta_sim.cuarenta.reference.step.CuarentaGame` (its ``events`` are the
        reference engine's step events).

    Raises
    ------
    ValueError
        Unknown game, or bad rules, players, episode, rewards or render mode; the message says
        what is accepted.
    """

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": list(RENDER_MODES),
        "is_parallelizable": False,
    }

    def __init__(
        self,
        game: str = DEFAULT_GAME,
        rules: Any = None,
        players: int | None = None,
        episode: str | None = None,
        win_reward: float = 1.0,
        point_reward: float = 0.0,
        illegal_action_penalty: float | None = None,
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        core = game_core(get_game(game))
        if players is None:
            players = core.player_counts[0]
        if isinstance(players, bool) or players not in core.player_counts:
            accepted = " or ".join(str(p) for p in core.player_counts)
            raise ValueError(f"players must be {accepted} for {core.name}, got {players!r}")
        episode = core.episodes[0] if episode is None else episode
        if episode not in core.episodes:
            raise ValueError(
                f"unknown episode {episode!r} for {core.title}; accepted: "
                f"{', '.join(core.episodes)}"
            )
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise ValueError(
                f"unknown render_mode {render_mode!r}; accepted: None, {', '.join(RENDER_MODES)}"
            )
        self.core: Core = core
        self.rules = core.resolve_rules(core.default_rules if rules is None else rules)
        self.episode = episode
        self.metadata = {**CardGameEnv.metadata, "name": f"{core.name}_v0"}
        self.win_reward = _check_reward("win_reward", win_reward)
        self.point_reward = _check_reward("point_reward", point_reward)
        self.illegal_action_penalty = (
            None
            if illegal_action_penalty is None
            else _check_reward("illegal_action_penalty", illegal_action_penalty)
        )
        self.render_mode = render_mode
        self.n_players = players
        self.possible_agents = [f"player_{s}" for s in range(players)]
        self.agents = []
        self._seat = {a: s for s, a in enumerate(self.possible_agents)}
        self.n_actions = n_actions = core.n_actions
        self.obs_size = obs_size = core.observation_size(players)
        # One space object per agent (PettingZoo seeds them separately).
        self.observation_spaces = {
            a: spaces.Dict(
                {
                    "observation": spaces.Box(0.0, 1.0, (obs_size,), np.float32),
                    "action_mask": spaces.Box(0, 1, (n_actions,), np.int8),
                }
            )
            for a in self.possible_agents
        }
        self.action_spaces = {a: spaces.Discrete(n_actions) for a in self.possible_agents}
        self.rewards = {}
        self._cumulative_rewards = {}
        self.terminations = {}
        self.truncations = {}
        self.infos = {}
        self._root: int | None = None
        self.seed_used: int | None = None
        self.game_index = -1
        self.game: Any = None
        self._scores = (0, 0)
        self._illegal_end = False

    # ------------------------------------------------------------------ spaces
    def observation_space(self, agent: str) -> spaces.Space:
        """Return the agent's observation space (the same object at every call)."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        """Return the agent's ``Discrete`` action space (the same object at every call)."""
        return self.action_spaces[agent]

    # ------------------------------------------------------------------ API
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start an episode: game index 0 of ``seed``, or the next game index.

        Parameters
        ----------
        seed : int or None
            A non-negative seed restarts the game indices at 0; ``None`` plays the next
            index (fresh OS entropy the first time).
        options : dict or None
            Ignored (part of PettingZoo's signature).

        Raises
        ------
        ValueError
            A negative or non-integer seed.
        """
        if seed is not None or self._root is None:
            self._root, self.seed_used = root_from_seed(seed)
            self.game_index = 0
        else:
            self.game_index += 1
        self.game = self.core.new_state(
            self.rules, self.n_players, self.episode, root=self._root, index=self.game_index
        )
        self._scores = (0, 0)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: {} for a in self.agents}
        self._illegal_end = False
        self._skip_agent_selection = None
        self._after_moves(self.possible_agents[0])
        if self.render_mode == "human":
            self.render()

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """Return what ``agent`` may know and its action mask (module docstring)."""
        seat = self._seat[agent]
        obs = np.empty(self.obs_size, np.float32)
        mask = np.zeros(self.n_actions, np.int8)
        game = self.game
        if game is None:
            obs.fill(0.0)
            return {"observation": obs, "action_mask": mask}
        self.core.encode(game, seat, obs)
        if not self._illegal_end and self.core.current_player(game) == seat:
            legal = self.core.legal_actions(game)
            mask[np.fromiter(legal, np.intp, len(legal))] = 1
        return {"observation": obs, "action_mask": mask}

    def step(self, action: int | np.integer | None) -> None:
        """Play ``action`` for ``agent_selection`` (``None`` for a finished agent).

        Raises
        ------
        ValueError
            Before ``reset``, after the episode's end, for an action that is not a whole
            number in the action space, or for an illegal action (without
            ``illegal_action_penalty``); the message says what is accepted.
        """
        if self.game is None:
            raise ValueError("call reset() before step()")
        if not self.agents:
            raise ValueError("the episode is over: call reset() to start a new one")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            if action is not None:
                raise ValueError(
                    f"{agent} has finished: the only accepted action is None "
                    "(the episode is over; call reset() after every agent has stepped)"
                )
            self._was_dead_step(action)
            return
        if (
            action is None
            or isinstance(action, bool)
            or not isinstance(action, int | np.integer)
            or not 0 <= action < self.n_actions
        ):
            raise ValueError(
                f"action must be a whole number from 0 to {self.n_actions - 1}, got {action!r}"
            )
        core, game = self.core, self.game
        legal = core.legal_actions(game)
        if int(action) not in legal:
            if self.illegal_action_penalty is None:
                label = core.action_label
                names = ", ".join(f"{a} ({label(a)})" for a in legal)
                raise ValueError(
                    f"action {int(action)} ({label(int(action))}) is not legal for "
                    f"{agent}; legal actions: {names}"
                )
            self._end_illegal(agent)
            return
        self._cumulative_rewards[agent] = 0.0
        core.apply(game, int(action))
        self._after_moves(agent)
        if self.render_mode == "human":
            self.render()

    def _after_moves(self, agent: str) -> None:
        """Set rewards, terminations and the next agent after the game moved on."""
        core, game = self.core, self.game
        before, self._scores = self._scores, core.scores(game)
        diff = self.point_reward * ((self._scores[0] - before[0]) - (self._scores[1] - before[1]))
        rewards = [diff, -diff]
        current = core.current_player(game)
        if current == TERMINAL:
            winner = core.winner(game)
            if winner is not None:
                rewards[winner] += self.win_reward
                rewards[1 - winner] -= self.win_reward
        for a in self.agents:
            self.rewards[a] = rewards[self._seat[a] % 2]
        self._accumulate_rewards()
        if current == TERMINAL:
            done = dict.fromkeys(self.agents, True)
            if core.truncated(game):
                self.truncations = done
            else:
                self.terminations = done
            # Every seat takes its final (None) step in turn order from the next seat.
            self.agent_selection = self.possible_agents[(self._seat[agent] + 1) % self.n_players]
        else:
            self.agent_selection = self.possible_agents[current]

    def _end_illegal(self, agent: str) -> None:
        """End the episode after an illegal action (``illegal_action_penalty``)."""
        self._cumulative_rewards[agent] = 0.0
        for a in self.agents:
            self.rewards[a] = 0.0
        self.rewards[agent] = float(self.illegal_action_penalty)  # type: ignore[arg-type]
        self._accumulate_rewards()
        self.terminations = dict.fromkeys(self.agents, True)
        self._illegal_end = True
        self.infos[agent] = {"illegal_action": True}

    def render(self) -> str | None:
        """Return (``"ansi"``) or print (``"human"``) the core's text view of the game;
        ``None`` without a render mode."""
        if self.render_mode is None or self.game is None:
            return None
        text = self.core.render(self.game)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to release (no window, no files)."""


_CLASSES: dict[str, type[CardGameEnv]] = {}


def env_class(game: str) -> type[CardGameEnv]:
    """Return the environment class of one registered game: :class:`CardGameEnv` with
    ``game`` fixed, named ``<Title>Env`` (``CuarentaEnv``), built once per game.

    Parameters
    ----------
    game : str
        A registered game with a core.

    Raises
    ------
    ValueError
        Unknown game, or a game without a core.
    """
    core = game_core(get_game(game))
    cls = _CLASSES.get(core.name)
    if cls is None:
        name = core.name

        def init(self: CardGameEnv, rules: Any = None, *args: Any, **kwargs: Any) -> None:
            CardGameEnv.__init__(self, name, rules, *args, **kwargs)

        cls = type(
            f"{core.title}Env",
            (CardGameEnv,),
            {"__init__": init, "__doc__": f"{core.title}: :class:`CardGameEnv` of {name!r}."},
        )
        _CLASSES[core.name] = cls
    return cls


def __getattr__(name: str) -> Any:
    """``CuarentaEnv``, ``CuatrolaEnv``: the class of the registered game of that title."""
    from ..game import GAMES

    for game in GAMES.values():
        if game.core is not None and f"{game.title}Env" == name:
            return env_class(game.name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
