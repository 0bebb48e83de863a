"""OpenSpiel games ``python_<game>`` of every registered game with a core (needs the ``rl``
extra): ``python_cuarenta``, ``python_cuatrola``.

One generic adapter (:class:`SpielGame`, :class:`SpielState`, :class:`SpielObserver`) over the
game's step-level core (:class:`cuarenta_sim.core.Core`); it knows no game. Importing this
module registers every registered game that has a core (:func:`register_games` registers games
added later)::

    import pyspiel
    import cuarenta_sim.rl.openspiel  # noqa: F401  (registers the games)

    game = pyspiel.load_game("python_cuarenta(rules=quito,players=2)")
    game = pyspiel.load_game("python_cuarenta(rules=quito;max_sum_cards:2,players=4)")
    game = pyspiel.load_game("python_cuatrola(rules=online,episode=hand)")

Game parameters (an unknown one is an error listing the accepted ones):

``python_cuarenta``
    ``players`` (2 or 4, default 2), ``rules`` (a preset, or a preset with switches written
    ``quito;max_sum_cards:2;capture_compulsory:true``, since OpenSpiel's game strings keep
    parentheses, commas and ``=`` for themselves; default ``quito``), ``episode``
    (``chica`` or ``data``), ``win_reward`` (1.0), ``point_reward`` (0.0).
``python_cuatrola``
    ``players`` (4, the only choice), ``rules`` (``ro``, ``online`` or e.g.
    ``ro;failed_contract:nobody``), ``episode``
    (``game`` or ``hand``), ``win_reward``, ``point_reward``.

Both are sequential, imperfect-information, explicitly stochastic and zero-sum between the two
sides: every player of a side gets the same rewards (``rewards()`` after each action,
``returns()`` their sum), defined as in the PettingZoo environments
(:mod:`cuarenta_sim.rl.pettingzoo_env`). Chance nodes deal: the first dealer (uniform over the
seats, R3.4 / C1.4), then every card of a data (hand) one at a time, uniform over the cards not
dealt yet; the deck is dealt by position exactly as the reference engine deals a shuffled deck
(contract section 2). Actions are those of the environments (Cuarenta: 53 ``(rank, base)``
plays; Cuatrola: 20 cards and 4 declarations), and every rule runs in the reference engine
(:class:`~cuarenta_sim.cuarenta.reference.step.CuarentaGame`,
:class:`~cuarenta_sim.cuatrola.reference.step.CuatrolaGame`).

Observations: the observation tensor is the environments' observation vector (what the seat
may know now). The information-state tensor appends the history of the current data (hand):
every play in order with its seat, and (Cuarenta) the rondas announced in each deal, so it is
perfect recall within a data (hand); earlier datas (hands) enter through the scores and the
dealer, which is all of them that bears on the rest of the game. The strings carry the same
content as text.

``resample_from_infostate(player, sampler)`` (the core's ``resample``) returns a world the
player cannot tell from the state: the cards hidden from it drawn again, conditioned on
everything public and its own cards (Cuarenta: the rondas announced, or not, in the deal;
Cuatrola: the trump card, the cantes, every play and so the voids shown), so OpenSpiel's
``pyspiel.ISMCTSBot(seed, evaluator, uct_c, max_simulations, ...)`` plays these games without
a custom resampler. The resampled state keeps the original's ``history()`` (the chance
outcomes it lists are the original world's).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ._extra import require

pyspiel = require("pyspiel")

from ..core import CHANCE, TERMINAL, Core, game_core, games_with_core  # noqa: E402
from ..game import get_game  # noqa: E402
from ..limits import finite_number  # noqa: E402

_COMMON = {"win_reward": 1.0, "point_reward": 0.0}
_GameType = pyspiel.GameType


def parameters(core: Core) -> dict[str, Any]:
    """The game parameters of ``python_<game>`` and their defaults: ``players``, ``rules``,
    ``episode`` (the core's defaults), ``win_reward`` (1.0), ``point_reward`` (0.0)."""
    return {
        "players": core.player_counts[0],
        "rules": core.default_rules,
        "episode": core.episodes[0],
        **_COMMON,
    }


def _game_type(core: Core) -> Any:
    return pyspiel.GameType(
        short_name=f"python_{core.name}",
        long_name=f"Python {core.title}",
        dynamics=_GameType.Dynamics.SEQUENTIAL,
        chance_mode=_GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=_GameType.Information.IMPERFECT_INFORMATION,
        utility=_GameType.Utility.ZERO_SUM,
        reward_model=_GameType.RewardModel.REWARDS,
        max_num_players=max(core.player_counts),
        min_num_players=min(core.player_counts),
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=parameters(core),
    )


def _params(game: str, given: dict[str, Any], spec: dict[str, Any]) -> dict[str, Any]:
    """Check the parameters against ``spec`` and fill in the defaults."""
    unknown = sorted(set(given) - set(spec))
    if unknown:
        raise ValueError(
            f"unknown {game} parameter {', '.join(unknown)}; accepted: {', '.join(spec)}"
        )
    out = {**spec, **given}
    for name in _COMMON:
        out[name] = finite_number(out[name], f"{game} parameter {name}")
    return out


def _plain(given: dict[str, Any] | None, checked: dict[str, Any]) -> dict[str, Any]:
    """The parameters given, as the checked plain Python values OpenSpiel's C++ side takes
    (a numpy integer or an int beyond 32 bits there raised TypeError / RuntimeError)."""
    return {k: int(checked[k]) if k == "players" else checked[k] for k in given or {}}


def _slug(rules: object) -> str:
    """The ``rules`` parameter as a rules slug.

    OpenSpiel's game strings keep parentheses, commas and ``=`` for themselves, so in a game
    string the switches are written ``preset;switch:value;switch:value``
    (``quito;max_sum_cards:2``); a parameter dict may also give the slug itself
    (``quito(max_sum_cards=2)``).
    """
    if not isinstance(rules, str):
        raise ValueError(
            f"rules must be a preset, or preset;switch:value;... in a game string, got {rules!r}"
        )
    if "(" in rules:
        return rules
    preset, *switches = rules.split(";")
    if not switches:
        return preset
    return f"{preset}(" + ",".join(s.replace(":", "=", 1) for s in switches) + ")"


class SpielGame(pyspiel.Game):
    """A registered game as an OpenSpiel game (module docstring); one subclass per game
    (:func:`spiel_game_class`) fixes :attr:`core_name`.

    Parameters
    ----------
    params : dict, optional
        Game parameters (:func:`parameters`).

    Raises
    ------
    ValueError
        Unknown parameter (the message lists the accepted ones) or a bad value.
    """

    #: The registry name of the game (set by each subclass).
    core_name = ""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        core = game_core(get_game(self.core_name))
        short = f"python_{core.name}"
        spec = parameters(core)
        p = _params(short, dict(params or {}), spec)
        players = p["players"]
        if isinstance(players, bool) or players not in core.player_counts:
            accepted = " or ".join(str(n) for n in core.player_counts)
            raise ValueError(f"{short} parameter players must be {accepted}, got {players!r}")
        if p["episode"] not in core.episodes:
            raise ValueError(
                f"{short} parameter episode must be one of {', '.join(core.episodes)}, "
                f"got {p['episode']!r}"
            )
        self.core = core
        self.rules = core.resolve_rules(_slug(p["rules"]))
        self.players = players
        self.episode = p["episode"]
        self.win_reward = p["win_reward"]
        self.point_reward = p["point_reward"]
        points = core.max_points(self.rules, players, self.episode)
        bound = abs(self.win_reward) + abs(self.point_reward) * points
        info = pyspiel.GameInfo(
            num_distinct_actions=core.n_actions,
            max_chance_outcomes=core.max_chance_outcomes,
            num_players=players,
            min_utility=-bound,
            max_utility=bound,
            utility_sum=0.0,
            max_game_length=core.max_game_length(self.rules, players, self.episode),
        )
        super().__init__(_TYPES[core.name], info, _plain(params, p))

    def new_initial_state(self) -> SpielState:
        """Return the initial state: a chance node drawing the first dealer."""
        return SpielState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> SpielObserver:
        """Return an observer: observation (default) or information state (perfect recall)."""
        return SpielObserver(self, iig_obs_type, params)


class SpielState(pyspiel.State):
    """An OpenSpiel state over a core state with explicit chance.

    Attributes
    ----------
    core : object
        The core's state (Cuarenta: a ``CuarentaGame``); the name is kept from the
        per-game states this adapter replaces.
    game_core : Core
        The game's core.
    """

    def __init__(self, game: SpielGame, core_state: Any = None) -> None:
        super().__init__(game)
        self.game_core: Core = game.core
        if core_state is None:
            core_state = game.core.new_state(
                game.rules, game.players, game.episode, chance="explicit"
            )
        self.core = core_state
        self._win = game.win_reward
        self._point = game.point_reward
        self._n = game.players
        self._rewards = [0.0] * self._n
        self._returns = [0.0] * self._n

    def current_player(self) -> int:
        """The seat to act, or pyspiel's CHANCE / TERMINAL id."""
        c = self.game_core.current_player(self.core)
        if c >= 0:
            return c
        if c == CHANCE:
            return pyspiel.PlayerId.CHANCE
        return pyspiel.PlayerId.TERMINAL

    def _legal_actions(self, player: int) -> list[int]:
        """Legal actions of ``player``, ascending."""
        if player != self.game_core.current_player(self.core):
            return []
        return list(self.game_core.legal_actions(self.core))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """First dealer or the next card, uniform."""
        return self.game_core.chance_outcomes(self.core)

    def _apply_action(self, action: int) -> None:
        core, state = self.game_core, self.core
        before = core.scores(state)
        # Dealing the last card of a deal may score (announcements, R4).
        core.apply(state, action)
        after = core.scores(state)
        side = [self._point * ((after[0] - before[0]) - (after[1] - before[1])), 0.0]
        side[1] = -side[0]
        if core.current_player(state) == TERMINAL:
            winner = core.winner(state)
            if winner is not None:
                side[winner] += self._win
                side[1 - winner] -= self._win
        for s in range(self._n):
            self._rewards[s] = side[s % 2]
            self._returns[s] += side[s % 2]

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return self.game_core.chance_label(self.core, action)
        return self.game_core.action_label(action)

    def is_terminal(self) -> bool:
        """True once the episode is over."""
        return self.game_core.current_player(self.core) == TERMINAL

    def rewards(self) -> list[float]:
        """Rewards of the last action, per player."""
        return list(self._rewards)

    def returns(self) -> list[float]:
        """Sum of the rewards so far, per player."""
        return list(self._returns)

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> SpielState:
        """Return a state ``player_id`` cannot tell from this one (the core's ``resample``).

        Parameters
        ----------
        player_id : int
            The seat whose information is kept.
        probability_sampler : callable
            ``probability_sampler()`` -> float in ``[0, 1)`` (OpenSpiel passes a
            ``UniformProbabilitySampler``).

        Returns
        -------
        SpielState
            Same information state string and tensor for ``player_id``, same rewards and
            returns; the other hands drawn again (module docstring).
        """
        new = self.clone()
        new.core = self.game_core.resample(self.core, int(player_id), probability_sampler)
        return new

    def __str__(self) -> str:
        return self.game_core.state_string(self.core)


class SpielObserver:
    """Observation (default) or information state (``perfect_recall=True``) of one seat.

    The observation tensor is the core's ``encode``; the information state appends the
    core's ``info_pieces`` (Cuarenta: ``history`` and ``announced``; Cuatrola: ``history``).
    """

    def __init__(self, game: SpielGame, iig_obs_type: Any, params: Any) -> None:
        if params:
            raise ValueError(f"observer parameters are not supported, got {params!r}")
        self.core = core = game.core
        self.perfect_recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        if iig_obs_type is not None and (
            not iig_obs_type.public_info
            or iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER
        ):
            raise ValueError(
                f"python_{core.name} observes one player's view (public and own private "
                "information) only"
            )
        size = core.observation_size(game.players)
        pieces: list[tuple[str, tuple[int, ...]]] = [("observation", (size,))]
        if self.perfect_recall:
            pieces += core.info_pieces(game.players)
        self.tensor = np.zeros(sum(math.prod(shape) for _, shape in pieces), np.float32)
        self.dict: dict[str, np.ndarray] = {}
        at = 0
        for name, shape in pieces:
            n = math.prod(shape)
            self.dict[name] = self.tensor[at : at + n].reshape(shape)
            at += n
        self._info = {name: self.dict[name] for name, _ in pieces[1:]}

    def set_from(self, state: SpielState, player: int) -> None:
        """Fill :attr:`tensor` with ``player``'s view of ``state``."""
        self.core.encode(state.core, player, self.dict["observation"])
        if self.perfect_recall:
            self.core.encode_info(state.core, player, self._info)

    def string_from(self, state: SpielState, player: int) -> str:
        """``player``'s view of ``state`` as text (same content as the tensor)."""
        return self.core.observation_string(state.core, player, self.perfect_recall)


_TYPES: dict[str, Any] = {}
_CLASSES: dict[str, type[SpielGame]] = {}


def spiel_game_class(name: str) -> type[SpielGame]:
    """Return the OpenSpiel game class of a registered game (``<Title>SpielGame``),
    registering ``python_<name>`` with pyspiel the first time.

    Raises
    ------
    ValueError
        Unknown game, or a game without a core.
    """
    core = game_core(get_game(name))
    cls = _CLASSES.get(core.name)
    if cls is None:
        _TYPES[core.name] = game_type = _game_type(core)
        cls = type(f"{core.title}SpielGame", (SpielGame,), {"core_name": core.name})
        pyspiel.register_game(game_type, cls)
        _CLASSES[core.name] = cls
    return cls


def register_games() -> list[str]:
    """Register ``python_<game>`` for every registered game with a core not registered yet.

    Returns
    -------
    list of str
        The OpenSpiel short names of all the games this module registered.
    """
    for name in games_with_core():
        spiel_game_class(name)
    return [f"python_{name}" for name in _CLASSES]


def __getattr__(name: str) -> Any:
    """``CuarentaSpielGame``, ``CuatrolaSpielGame``: the class of the game of that title."""
    from ..game import GAMES

    for game in GAMES.values():
        if game.core is not None and f"{game.title}SpielGame" == name:
            return spiel_game_class(game.name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


register_games()

__all__ = [
    "SpielGame",
    "SpielObserver",
    "SpielState",
    "parameters",
    "register_games",
    "spiel_game_class",
]
