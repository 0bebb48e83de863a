"""PettingZoo AEC environments of Cuarenta and Cuatrola (needs the ``rl`` extra).

Both follow the conventions of PettingZoo's classic card and board games:

* agents ``player_0 .. player_{n-1}`` are the seats; seat ``s`` plays for side (pair)
  ``s % 2`` (R2.1, C1.1); one seat acts at a time (``agent_selection``);
* an observation is a dict ``{"observation": float32 vector, "action_mask": int8 vector}``:
  the vector is what that seat may know (:mod:`cuarenta_sim.rl.cuarenta_obs`,
  :mod:`cuarenta_sim.rl.cuatrola_obs`), the mask marks the legal actions of the seat to act
  (all zero for the others and after the end);
* actions are a fixed ``Discrete`` space (Cuarenta: :data:`cuarenta_actions.PLAYS`, 53 plays;
  Cuatrola: 20 cards and 4 declarations, :mod:`cuarenta_sim.rl.cuatrola_game`);
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

from collections.abc import Callable
from typing import Any, ClassVar

import numpy as np

from ._extra import require

require("pettingzoo")
require("gymnasium")

from gymnasium import spaces  # noqa: E402
from pettingzoo import AECEnv  # noqa: E402

from ..cuarenta.cards import card_name  # noqa: E402
from ..cuarenta.reference.events import (  # noqa: E402
    AnnounceEvent,
    ClaimsEvent,
    EndEvent,
    PlayEvent,
)
from ..cuarenta.rules import RuleSet, resolve_rules  # noqa: E402
from ..cuatrola.cards import format_card  # noqa: E402
from ..cuatrola.contracts import CONTRACTS, DECLARATIONS  # noqa: E402
from ..cuatrola.rules import CuatrolaRules  # noqa: E402
from ..cuatrola.rules import resolve_rules as resolve_cuatrola  # noqa: E402
from ..limits import finite_number  # noqa: E402
from ..rng import root_from_seed  # noqa: E402
from . import cuarenta_actions, cuarenta_obs, cuatrola_obs  # noqa: E402
from .cuarenta_game import EPISODES as CUARENTA_EPISODES  # noqa: E402
from .cuarenta_game import CuarentaGame  # noqa: E402
from .cuatrola_game import EPISODES as CUATROLA_EPISODES  # noqa: E402
from .cuatrola_game import N_ACTIONS as CUATROLA_ACTIONS  # noqa: E402
from .cuatrola_game import CuatrolaGame  # noqa: E402
from .cuatrola_game import action_name as cuatrola_action_name  # noqa: E402

RENDER_MODES = ("ansi", "human")


def _check_reward(name: str, value: object) -> float:
    return finite_number(value, name)


class _CardGameEnv(AECEnv):
    """What both games' environments share: seats, rewards, masks, seeding, errors."""

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": list(RENDER_MODES),
        "is_parallelizable": False,
    }

    def __init__(
        self,
        players: int,
        n_actions: int,
        obs_size: int,
        win_reward: float,
        point_reward: float,
        illegal_action_penalty: float | None,
        render_mode: str | None,
    ) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise ValueError(
                f"unknown render_mode {render_mode!r}; accepted: None, {', '.join(RENDER_MODES)}"
            )
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
        self.n_actions = n_actions
        self.obs_size = obs_size
        obs_space = spaces.Dict(
            {
                "observation": spaces.Box(0.0, 1.0, (obs_size,), np.float32),
                "action_mask": spaces.Box(0, 1, (n_actions,), np.int8),
            }
        )
        # One space object per agent (PettingZoo seeds them separately).
        self.observation_spaces = {
            a: obs_space if s == 0 else _copy_dict_space(obs_space)
            for s, a in enumerate(self.possible_agents)
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
        self._illegal_end = False

    # ------------------------------------------------------------------ spaces
    def observation_space(self, agent: str) -> spaces.Space:
        """Return the agent's observation space (the same object at every call)."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        """Return the agent's ``Discrete`` action space (the same object at every call)."""
        return self.action_spaces[agent]

    # ------------------------------------------------------------------ game hooks
    def _new_game(self, root: int, index: int) -> Any:
        raise NotImplementedError

    def _encode(self, seat: int, out: np.ndarray) -> np.ndarray:
        raise NotImplementedError

    def _action_label(self, action: int) -> str:
        raise NotImplementedError

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
        self.game = self._new_game(self._root, self.game_index)
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
        obs = self._encode(self._seat[agent], np.empty(self.obs_size, np.float32))
        mask = np.zeros(self.n_actions, np.int8)
        game = self.game
        if game is not None and not self._illegal_end and game.current == self._seat[agent]:
            legal = game.legal_actions()
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
        game = self.game
        legal = game.legal_actions()
        if int(action) not in legal:
            if self.illegal_action_penalty is None:
                names = ", ".join(f"{a} ({self._action_label(a)})" for a in legal)
                raise ValueError(
                    f"action {int(action)} ({self._action_label(int(action))}) is not legal for "
                    f"{agent}; legal actions: {names}"
                )
            self._end_illegal(agent)
            return
        self._cumulative_rewards[agent] = 0.0
        game.clear_gained()
        game.apply_action(int(action))
        self._after_moves(agent)
        if self.render_mode == "human":
            self.render()

    def _after_moves(self, agent: str) -> None:
        """Set rewards, terminations and the next agent after the game moved on."""
        game = self.game
        gained = game.gained
        diff = self.point_reward * (gained[0] - gained[1])
        rewards = [diff, -diff]
        if game.terminal:
            winner = game.winner
            if winner is not None:
                rewards[winner] += self.win_reward
                rewards[1 - winner] -= self.win_reward
        for a in self.agents:
            self.rewards[a] = rewards[self._seat[a] % 2]
        self._accumulate_rewards()
        if game.terminal:
            done = dict.fromkeys(self.agents, True)
            if game.truncated:
                self.truncations = done
            else:
                self.terminations = done
            # Every seat takes its final (None) step in turn order from the next seat.
            self.agent_selection = self.possible_agents[(self._seat[agent] + 1) % self.n_players]
        else:
            self.agent_selection = self.possible_agents[game.current]

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
        """Return (``"ansi"``) or print (``"human"``) a text view of the game; ``None``
        without a render mode."""
        if self.render_mode is None or self.game is None:
            return None
        text = self._render_text()
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def _render_text(self) -> str:
        raise NotImplementedError

    def close(self) -> None:
        """Nothing to release (no window, no files)."""


def _copy_dict_space(space: spaces.Dict) -> spaces.Dict:
    return spaces.Dict(
        {
            "observation": spaces.Box(0.0, 1.0, space["observation"].shape, np.float32),
            "action_mask": spaces.Box(0, 1, space["action_mask"].shape, np.int8),
        }
    )


class CuarentaEnv(_CardGameEnv):
    """Cuarenta for 2 or 4 players under any rule set, as a PettingZoo AEC environment.

    Parameters
    ----------
    rules : RuleSet, str or dict
        A preset (``quito``, ``cuenca``, ``pagat``, ``quito_torneo``), a slug such as
        ``"quito(max_sum_cards=2)"``, a dict or a RuleSet (``resolve_rules``).
    players : int
        2 or 4 (R2.1); with 4, seats 0 and 2 form side 0.
    episode : str
        ``"chica"`` (default): datas until a side reaches the target (R9.2); ``"data"``:
        one data from 0-0 to its last card (scores keep growing past the target).
    win_reward, point_reward : float
        Terminal and per-point rewards (module docstring); defaults 1 and 0.
    illegal_action_penalty : float or None
        ``None`` (default): an illegal action raises ValueError; a number: it ends the
        episode with that reward for the offending seat.
    render_mode : str or None
        ``None``, ``"ansi"`` or ``"human"``.

    Notes
    -----
    Observation: ``Box(0, 1, (285,) or (387,), float32)``, see
    :mod:`cuarenta_sim.rl.cuarenta_obs`. Actions: ``Discrete(53)``, one per
    ``(rank, base)`` play (:mod:`cuarenta_sim.rl.cuarenta_actions`); the legal ones sorted are
    the reference engine's canonical legal plays. The underlying
    :class:`~cuarenta_sim.rl.cuarenta_game.CuarentaGame` is ``env.game`` (its ``events`` are
    the reference engine's step events).
    """

    def __init__(
        self,
        rules: RuleSet | str | dict[str, Any] = "quito",
        players: int = 2,
        episode: str = "chica",
        win_reward: float = 1.0,
        point_reward: float = 0.0,
        illegal_action_penalty: float | None = None,
        render_mode: str | None = None,
    ) -> None:
        if isinstance(players, bool) or players not in (2, 4):
            raise ValueError(f"players must be 2 or 4 for Cuarenta, got {players!r}")
        if episode not in CUARENTA_EPISODES:
            raise ValueError(
                f"unknown episode {episode!r} for Cuarenta; accepted: "
                f"{', '.join(CUARENTA_EPISODES)}"
            )
        self.rules = resolve_rules(rules)
        self.episode = episode
        self.metadata = {**_CardGameEnv.metadata, "name": "cuarenta_v0"}
        super().__init__(
            players,
            cuarenta_actions.N_ACTIONS,
            cuarenta_obs.observation_size(players),
            win_reward,
            point_reward,
            illegal_action_penalty,
            render_mode,
        )

    def _new_game(self, root: int, index: int) -> CuarentaGame:
        return CuarentaGame(self.rules, self.n_players, self.episode, "streams", root, index)

    def _encode(self, seat: int, out: np.ndarray) -> np.ndarray:
        return cuarenta_obs.encode(self.game, seat, out)

    def _action_label(self, action: int) -> str:
        return cuarenta_actions.action_name(action)

    def _render_text(self) -> str:
        g: CuarentaGame = self.game
        st = g.state
        lines = [
            f"Cuarenta {self.rules.slug()}, {self.n_players} players, episode {self.episode} "
            f"(game {self.game_index}); scores {g.board.scores[0]}-{g.board.scores[1]}"
        ]
        if st is not None:
            lines.append(f"data {g.data}, deal {st.deal + 1}, dealer player_{st.dealer}")
            lines.append("table: " + (" ".join(card_name(c) for c in st.table) or "-"))
            for s in range(self.n_players):
                hand = " ".join(card_name(c) for c in st.hands[s]) or "-"
                mark = " <- to play" if g.current == s else ""
                lines.append(f"player_{s} (side {s % 2}): {hand}{mark}")
            lines.append(f"piles: {len(st.piles[0])}-{len(st.piles[1])}")
        for e in g.events[-3:]:
            lines.append("  " + _describe_cuarenta(e))
        if g.terminal:
            lines.append(_end_line(g.winner, g.truncated, "side"))
        return "\n".join(lines)


def _describe_cuarenta(e: object) -> str:
    """One line of a Cuarenta step event, for render()."""
    if isinstance(e, PlayEvent):
        name = cuarenta_actions.action_name(cuarenta_actions.ACTION_OF[e.outcome.play])
        extra = [k for k, v in (("caida", e.outcome.caida), ("limpia", e.outcome.limpia)) if v]
        pts = f", +{sum(e.points)}" if sum(e.points) else ""
        return f"player_{e.seat} played {name}" + (f" ({', '.join(extra)})" if extra else "") + pts
    if isinstance(e, AnnounceEvent):
        kind = "doble ronda" if e.flag == 2 else "ronda"
        return f"player_{e.seat} announced {kind} of {card_name(4 * e.rank)[:-1]}"
    if isinstance(e, ClaimsEvent):
        return f"claims credited {e.points[0]}-{e.points[1]}"
    if isinstance(e, EndEvent):
        c0, c1 = e.count.cards
        return f"end of data: cards {c0}-{c1}, points {e.points[0]}-{e.points[1]}"
    return str(e)


def _end_line(winner: int | None, truncated: bool, unit: str) -> str:
    if truncated:
        return "episode over: truncated"
    return "episode over: " + ("tie" if winner is None else f"{unit} {winner} wins")


class CuatrolaEnv(_CardGameEnv):
    """Cuatrola (4 players, bidding and play) under any rule set, as a PettingZoo AEC env.

    Parameters
    ----------
    rules : CuatrolaRules, str or dict
        A preset (``ro``, ``online``), a slug such as ``"ro(failed_contract=nobody)"``, a
        dict or a CuatrolaRules.
    episode : str
        ``"game"`` (default): hands until a pair reaches the target (C6); ``"hand"``: one
        hand from 0-0.
    win_reward, point_reward, illegal_action_penalty, render_mode
        As for :class:`CuarentaEnv`; points are game points (C5).

    Notes
    -----
    Observation: ``Box(0, 1, (268,), float32)``, see :mod:`cuarenta_sim.rl.cuatrola_obs`.
    Actions: ``Discrete(24)``: ``0..19`` a card, ``20..23`` pass / solo / cuatrola /
    quintola. The declarer's partner sits out a contract (C2.2) and never acts in that hand.
    """

    def __init__(
        self,
        rules: CuatrolaRules | str | dict[str, Any] = "ro",
        episode: str = "game",
        win_reward: float = 1.0,
        point_reward: float = 0.0,
        illegal_action_penalty: float | None = None,
        render_mode: str | None = None,
    ) -> None:
        if episode not in CUATROLA_EPISODES:
            raise ValueError(
                f"unknown episode {episode!r} for Cuatrola; accepted: "
                f"{', '.join(CUATROLA_EPISODES)}"
            )
        self.rules = resolve_cuatrola(rules)
        self.episode = episode
        self.metadata = {**_CardGameEnv.metadata, "name": "cuatrola_v0"}
        super().__init__(
            4,
            CUATROLA_ACTIONS,
            cuatrola_obs.OBSERVATION_SIZE,
            win_reward,
            point_reward,
            illegal_action_penalty,
            render_mode,
        )

    def _new_game(self, root: int, index: int) -> CuatrolaGame:
        return CuatrolaGame(self.rules, self.episode, "streams", root, index)

    def _encode(self, seat: int, out: np.ndarray) -> np.ndarray:
        return cuatrola_obs.encode(self.game, seat, out)

    def _action_label(self, action: int) -> str:
        return cuatrola_action_name(action)

    def _render_text(self) -> str:
        g: CuatrolaGame = self.game
        lines = [
            f"Cuatrola {self.rules.slug()}, episode {self.episode} (game {self.game_index}); "
            f"scores {g.scores[0]}-{g.scores[1]}"
        ]
        if g.trump_card >= 0:
            lines.append(
                f"hand {g.hand_index}, dealer player_{g.dealer}, trump card "
                f"{format_card(g.trump_card)}"
            )
            if g.bidding:
                bids = ", ".join(
                    f"player_{s} {DECLARATIONS[b]}" for s, b in enumerate(g.bids) if b >= 0
                )
                lines.append("bidding: " + (bids or "-"))
            else:
                who = f" by player_{g.declarer}" if g.declarer >= 0 else ""
                lines.append(
                    f"contract {CONTRACTS[g.contract]}{who}; trick {min(g.trick_no, 4) + 1}; "
                    f"tricks {g.tricks[0]}-{g.tricks[1]}, points {g.points[0]}-{g.points[1]}"
                )
                trick = " ".join(
                    f"{format_card(c)}(player_{s})"
                    for c, s in zip(g.trick, g.trick_seats, strict=True)
                )
                lines.append("trick: " + (trick or "-"))
            for s in range(4):
                hand = " ".join(format_card(c) for c in sorted(g.hands[s])) or "-"
                mark = " <- to act" if g.current == s else ""
                lines.append(f"player_{s} (pair {s % 2}): {hand}{mark}")
        if g.terminal:
            lines.append(_end_line(g.winner, g.truncated, "pair"))
        return "\n".join(lines)


#: Environment class of each game.
ENVS: dict[str, Callable[..., _CardGameEnv]] = {"cuarenta": CuarentaEnv, "cuatrola": CuatrolaEnv}
