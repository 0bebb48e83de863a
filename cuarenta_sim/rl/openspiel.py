"""OpenSpiel games ``python_cuarenta`` and ``python_cuatrola`` (needs the ``rl`` extra).

Importing this module registers both with pyspiel::

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
(:class:`~cuarenta_sim.rl.cuarenta_game.CuarentaGame`,
:class:`~cuarenta_sim.rl.cuatrola_game.CuatrolaGame`).

Observations: the observation tensor is the environments' observation vector (what the seat
may know now). The information-state tensor appends the history of the current data (hand):
every play in order with its seat, and (Cuarenta) the rondas announced in each deal, so it is
perfect recall within a data (hand); earlier datas (hands) enter through the scores and the
dealer, which is all of them that bears on the rest of the game. The strings carry the same
content as text.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ._extra import require

pyspiel = require("pyspiel")

from ..cuarenta.cards import N_RANKS, card_name  # noqa: E402
from ..cuarenta.reference.events import AnnounceEvent, PlayEvent  # noqa: E402
from ..cuarenta.reference.state import deals_per_data  # noqa: E402
from ..cuarenta.rules import MAX_POINTS, RuleSet, from_slug  # noqa: E402
from ..cuatrola.cards import N_CARDS as CUATROLA_CARDS  # noqa: E402
from ..cuatrola.cards import format_card  # noqa: E402
from ..cuatrola.contracts import CONTRACTS, DECLARATIONS  # noqa: E402
from ..cuatrola.reference.game import MAX_HANDS  # noqa: E402
from ..cuatrola.rules import CuatrolaRules  # noqa: E402
from ..cuatrola.rules import from_slug as cuatrola_from_slug  # noqa: E402
from ..limits import finite_number  # noqa: E402
from . import cuarenta_actions, cuarenta_obs, cuatrola_obs  # noqa: E402
from .cuarenta_game import CHANCE, EPISODES, MAX_DATAS, CuarentaGame  # noqa: E402
from .cuatrola_game import EPISODES as CUATROLA_EPISODES  # noqa: E402
from .cuatrola_game import N_ACTIONS as CUATROLA_ACTIONS  # noqa: E402
from .cuatrola_game import CuatrolaGame  # noqa: E402
from .cuatrola_game import action_name as cuatrola_action_name  # noqa: E402

_COMMON = {"win_reward": 1.0, "point_reward": 0.0}
CUARENTA_PARAMETERS: dict[str, Any] = {
    "players": 2,
    "rules": "quito",
    "episode": "chica",
    **_COMMON,
}
CUATROLA_PARAMETERS: dict[str, Any] = {"players": 4, "rules": "ro", "episode": "game", **_COMMON}

_GameType = pyspiel.GameType


def _game_type(short: str, long: str, players: tuple[int, int], spec: dict[str, Any]) -> Any:
    return pyspiel.GameType(
        short_name=short,
        long_name=long,
        dynamics=_GameType.Dynamics.SEQUENTIAL,
        chance_mode=_GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=_GameType.Information.IMPERFECT_INFORMATION,
        utility=_GameType.Utility.ZERO_SUM,
        reward_model=_GameType.RewardModel.REWARDS,
        max_num_players=players[1],
        min_num_players=players[0],
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=spec,
    )


CUARENTA_TYPE = _game_type("python_cuarenta", "Python Cuarenta", (2, 4), CUARENTA_PARAMETERS)
CUATROLA_TYPE = _game_type("python_cuatrola", "Python Cuatrola", (4, 4), CUATROLA_PARAMETERS)


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


def _utility_bound(win: float, point: float, points: int) -> float:
    return abs(win) + abs(point) * points


# ====================================================================== Cuarenta
class CuarentaSpielGame(pyspiel.Game):
    """Cuarenta as an OpenSpiel game (module docstring).

    Parameters
    ----------
    params : dict, optional
        Game parameters (``players``, ``rules``, ``episode``, ``win_reward``,
        ``point_reward``).

    Raises
    ------
    ValueError
        Unknown parameter (the message lists the accepted ones) or a bad value.
    """

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        p = _params("python_cuarenta", dict(params or {}), CUARENTA_PARAMETERS)
        players = p["players"]
        if isinstance(players, bool) or players not in (2, 4):
            raise ValueError(f"python_cuarenta parameter players must be 2 or 4, got {players!r}")
        if p["episode"] not in EPISODES:
            raise ValueError(
                f"python_cuarenta parameter episode must be one of {', '.join(EPISODES)}, "
                f"got {p['episode']!r}"
            )
        self.rules: RuleSet = from_slug(_slug(p["rules"]))
        self.players = players
        self.episode = p["episode"]
        self.win_reward = p["win_reward"]
        self.point_reward = p["point_reward"]
        turns = N_RANKS * 4  # one play per card of a data
        datas = 1 if self.episode == "data" else MAX_DATAS
        # Points a side can gain in an episode: a chica stops at the target, and no single
        # step credits more than the largest rule value plus a full carton; a data is bounded
        # by its 40 turns and announcements.
        step_max = 2 * MAX_POINTS + 26
        points = self.rules.target + step_max if self.episode == "chica" else (turns + 8) * step_max
        bound = _utility_bound(self.win_reward, self.point_reward, points)
        info = pyspiel.GameInfo(
            num_distinct_actions=cuarenta_actions.N_ACTIONS,
            max_chance_outcomes=N_RANKS * 4,
            num_players=players,
            min_utility=-bound,
            max_utility=bound,
            utility_sum=0.0,
            max_game_length=turns * datas,
        )
        super().__init__(CUARENTA_TYPE, info, _plain(params, p))

    def new_initial_state(self) -> CuarentaSpielState:
        """Return the initial state: a chance node drawing the first dealer."""
        return CuarentaSpielState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> CuarentaObserver:
        """Return an observer: observation (default) or information state (perfect recall)."""
        return CuarentaObserver(self, iig_obs_type, params)


class _SpielState(pyspiel.State):
    """What both games' states share: players, chance, rewards."""

    def __init__(self, game: Any, core: Any) -> None:
        super().__init__(game)
        self.core = core
        self._win = game.win_reward
        self._point = game.point_reward
        self._n = game.players
        self._rewards = [0.0] * self._n
        self._returns = [0.0] * self._n

    def current_player(self) -> int:
        """The seat to act, or pyspiel's CHANCE / TERMINAL id."""
        c = self.core.current
        if c >= 0:
            return c
        if c == CHANCE:
            return pyspiel.PlayerId.CHANCE
        return pyspiel.PlayerId.TERMINAL

    def _legal_actions(self, player: int) -> list[int]:
        """Legal actions of ``player``, ascending."""
        if player != self.core.current:
            return []
        return list(self.core.legal_actions())

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """First dealer or the next card, uniform."""
        return self.core.chance_outcomes()

    def _apply_action(self, action: int) -> None:
        core = self.core
        core.clear_gained()
        if core.current == CHANCE:
            # Dealing the last card of a deal runs the announcements (R4), which may score.
            core.apply_chance(action)
        else:
            core.apply_action(action)
        gained = core.gained
        side = [self._point * (gained[0] - gained[1]), 0.0]
        side[1] = -side[0]
        if core.terminal:
            winner = core.winner
            if winner is not None:
                side[winner] += self._win
                side[1 - winner] -= self._win
        for s in range(self._n):
            self._rewards[s] = side[s % 2]
            self._returns[s] += side[s % 2]

    def is_terminal(self) -> bool:
        """True once the episode is over."""
        return self.core.terminal

    def rewards(self) -> list[float]:
        """Rewards of the last action, per player."""
        return list(self._rewards)

    def returns(self) -> list[float]:
        """Sum of the rewards so far, per player."""
        return list(self._returns)


class CuarentaSpielState(_SpielState):
    """A Cuarenta state: a :class:`CuarentaGame` with explicit chance."""

    def __init__(self, game: CuarentaSpielGame) -> None:
        super().__init__(game, CuarentaGame(game.rules, game.players, game.episode, "explicit"))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            if self.core.dealer is None:
                return f"dealer player {action}"
            return f"deal {card_name(action)}"
        return cuarenta_actions.action_name(action)

    def __str__(self) -> str:
        g = self.core
        st = g.state
        parts = [f"scores {g.board.scores[0]}-{g.board.scores[1]}", f"data {g.data}"]
        if st is not None:
            parts.append(f"dealer {st.dealer} deal {st.deal}")
            parts.append("table " + (" ".join(card_name(c) for c in st.table) or "-"))
            for s in range(g.players):
                parts.append(f"p{s} " + (" ".join(card_name(c) for c in st.hands[s]) or "-"))
        return "; ".join(parts)


class CuarentaObserver:
    """Observation (default) or information state (``perfect_recall=True``) of Cuarenta.

    The observation tensor is :func:`cuarenta_sim.rl.cuarenta_obs.encode`; the information
    state appends ``history`` (per play of the data, in order: the relative seat and the
    action, ``40 x (players + 53)``) and ``announced`` (per deal and relative seat, the
    ronda ranks, ``deals x players x 10``).
    """

    def __init__(self, game: CuarentaSpielGame, iig_obs_type: Any, params: Any) -> None:
        if params:
            raise ValueError(f"observer parameters are not supported, got {params!r}")
        self.players = n = game.players
        self.perfect_recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        if iig_obs_type is not None and (
            not iig_obs_type.public_info
            or iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER
        ):
            raise ValueError(
                "python_cuarenta observes one player's view (public and own private "
                "information) only"
            )
        self.obs_size = cuarenta_obs.observation_size(n)
        pieces = [("observation", self.obs_size, (self.obs_size,))]
        self.plays = N_RANKS * 4
        self.deals = deals_per_data(n)
        if self.perfect_recall:
            width = n + cuarenta_actions.N_ACTIONS
            pieces.append(("history", self.plays * width, (self.plays, width)))
            pieces.append(("announced", self.deals * n * N_RANKS, (self.deals, n, N_RANKS)))
        self.tensor = np.zeros(sum(size for _, size, _ in pieces), np.float32)
        self.dict: dict[str, np.ndarray] = {}
        at = 0
        for name, size, shape in pieces:
            self.dict[name] = self.tensor[at : at + size].reshape(shape)
            at += size

    def _data_events(self, state: CuarentaSpielState) -> list[Any]:
        g = state.core
        return [
            e for e in g.events if isinstance(e, PlayEvent | AnnounceEvent) and e.data == g.data
        ]

    def set_from(self, state: CuarentaSpielState, player: int) -> None:
        """Fill :attr:`tensor` with ``player``'s view of ``state``."""
        cuarenta_obs.encode(state.core, player, self.dict["observation"])
        if not self.perfect_recall:
            return
        history, announced = self.dict["history"], self.dict["announced"]
        history.fill(0.0)
        announced.fill(0.0)
        n, turn = self.players, 0
        for e in self._data_events(state):
            rel = (e.seat - player) % n
            if isinstance(e, PlayEvent):
                history[turn, rel] = 1.0
                history[turn, n + cuarenta_actions.ACTION_OF[e.outcome.play]] = 1.0
                turn += 1
            else:
                announced[e.deal, rel, e.rank] = 1.0

    def string_from(self, state: CuarentaSpielState, player: int) -> str:
        """``player``'s view of ``state`` as text (same content as the tensor)."""
        g = state.core
        st = g.state
        side = player % 2
        s = g.board.scores
        parts = [f"p{player}", f"scores {s[side]}-{s[1 - side]}"]
        if st is None:
            return " ".join(parts)
        parts.append(f"data {g.data} deal {st.deal} dealer +{(st.dealer - player) % g.players}")
        parts.append("hand " + _ranks(st.hands[player]))
        if self.perfect_recall:
            for e in self._data_events(state):
                rel = (e.seat - player) % g.players
                if isinstance(e, PlayEvent):
                    name = cuarenta_actions.action_name(cuarenta_actions.ACTION_OF[e.outcome.play])
                    parts.append(f"+{rel}:{name}")
                else:
                    parts.append(f"+{rel}:ronda {card_name(4 * e.rank)[:-1]}")
            return " | ".join(parts)
        # The observation: everything of cuarenta_obs.encode, as text.
        parts.append("table " + _ranks(st.table))
        parts.append("played " + ",".join(str(c) for c in st.played))
        parts.append("piles " + _ranks(st.piles[side]) + " / " + _ranks(st.piles[1 - side]))
        parts.append(
            "rondas "
            + " ".join(
                f"+{k}:"
                + "".join(card_name(4 * r)[:-1] for r in st.rondas[(player + k) % g.players])
                for k in range(g.players)
            )
        )
        parts.append(
            "hand sizes "
            + ",".join(str(len(st.hands[(player + k) % g.players])) for k in range(g.players))
        )
        prev = st.previous_trail
        parts.append("trail " + ("-" if prev is None else card_name(4 * prev.rank)[:-1]))
        parts.append(
            "last capture "
            + (
                "-"
                if st.last_capturer is None
                else ("own" if st.last_capturer == side else "other")
            )
        )
        return " | ".join(parts)


def _ranks(cards: list[int]) -> str:
    names = sorted(cards)
    return "".join(card_name(c)[:-1] for c in names) or "-"


# ====================================================================== Cuatrola
class CuatrolaSpielGame(pyspiel.Game):
    """Cuatrola as an OpenSpiel game (module docstring).

    Parameters
    ----------
    params : dict, optional
        ``players`` (4), ``rules``, ``episode``, ``win_reward``, ``point_reward``.

    Raises
    ------
    ValueError
        Unknown parameter (the message lists the accepted ones) or a bad value.
    """

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        p = _params("python_cuatrola", dict(params or {}), CUATROLA_PARAMETERS)
        if isinstance(p["players"], bool) or p["players"] != 4:
            raise ValueError(f"python_cuatrola parameter players must be 4, got {p['players']!r}")
        if p["episode"] not in CUATROLA_EPISODES:
            raise ValueError(
                f"python_cuatrola parameter episode must be one of "
                f"{', '.join(CUATROLA_EPISODES)}, got {p['episode']!r}"
            )
        self.rules: CuatrolaRules = cuatrola_from_slug(_slug(p["rules"]))
        self.players = 4
        self.episode = p["episode"]
        self.win_reward = p["win_reward"]
        self.point_reward = p["point_reward"]
        hands = 1 if self.episode == "hand" else MAX_HANDS
        # Game points: a hand gives at most 5 (quintola, C5); a game stops at the target.
        points = 5 if self.episode == "hand" else self.rules.target + 5
        bound = _utility_bound(self.win_reward, self.point_reward, points)
        info = pyspiel.GameInfo(
            num_distinct_actions=CUATROLA_ACTIONS,
            max_chance_outcomes=CUATROLA_CARDS,
            num_players=4,
            min_utility=-bound,
            max_utility=bound,
            utility_sum=0.0,
            max_game_length=hands * (4 + CUATROLA_CARDS),
        )
        super().__init__(CUATROLA_TYPE, info, _plain(params, p))

    def new_initial_state(self) -> CuatrolaSpielState:
        """Return the initial state: a chance node drawing the first dealer."""
        return CuatrolaSpielState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> CuatrolaObserver:
        """Return an observer: observation (default) or information state (perfect recall)."""
        return CuatrolaObserver(self, iig_obs_type, params)


class CuatrolaSpielState(_SpielState):
    """A Cuatrola state: a :class:`CuatrolaGame` with explicit chance."""

    def __init__(self, game: CuatrolaSpielGame) -> None:
        super().__init__(game, CuatrolaGame(game.rules, game.episode, "explicit"))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            if self.core.dealer is None:
                return f"dealer player {action}"
            return f"deal {format_card(action)}"
        return cuatrola_action_name(action)

    def __str__(self) -> str:
        g = self.core
        parts = [f"scores {g.scores[0]}-{g.scores[1]}", f"hand {g.hand_index}"]
        if g.trump_card >= 0:
            parts.append(f"dealer {g.dealer} trump {format_card(g.trump_card)}")
            parts.append("contract " + ("bidding" if g.bidding else CONTRACTS[g.contract]))
            for s in range(4):
                parts.append(
                    f"p{s} " + (" ".join(format_card(c) for c in sorted(g.hands[s])) or "-")
                )
            parts.append("trick " + (" ".join(format_card(c) for c in g.trick) or "-"))
        return "; ".join(parts)


class CuatrolaObserver:
    """Observation (default) or information state (``perfect_recall=True``) of Cuatrola.

    The observation tensor is :func:`cuarenta_sim.rl.cuatrola_obs.encode`; the information
    state appends ``history``: per card played in the hand, in order, its relative seat and
    the card (``20 x 24``).
    """

    def __init__(self, game: CuatrolaSpielGame, iig_obs_type: Any, params: Any) -> None:
        if params:
            raise ValueError(f"observer parameters are not supported, got {params!r}")
        self.perfect_recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        if iig_obs_type is not None and (
            not iig_obs_type.public_info
            or iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER
        ):
            raise ValueError(
                "python_cuatrola observes one player's view (public and own private "
                "information) only"
            )
        size = cuatrola_obs.OBSERVATION_SIZE
        pieces = [("observation", size, (size,))]
        if self.perfect_recall:
            width = 4 + CUATROLA_CARDS
            pieces.append(("history", CUATROLA_CARDS * width, (CUATROLA_CARDS, width)))
        self.tensor = np.zeros(sum(s for _, s, _ in pieces), np.float32)
        self.dict: dict[str, np.ndarray] = {}
        at = 0
        for name, s, shape in pieces:
            self.dict[name] = self.tensor[at : at + s].reshape(shape)
            at += s

    @staticmethod
    def _plays(state: CuatrolaSpielState) -> list[tuple[int, int]]:
        """``(seat, card)`` of every card played in the current hand, in order."""
        g = state.core
        return [(r[2], r[3]) for r in g.trace if r[0] == 3 and r[1] == g.hand_index]

    def set_from(self, state: CuatrolaSpielState, player: int) -> None:
        """Fill :attr:`tensor` with ``player``'s view of ``state``."""
        cuatrola_obs.encode(state.core, player, self.dict["observation"])
        if not self.perfect_recall:
            return
        history = self.dict["history"]
        history.fill(0.0)
        for k, (seat, card) in enumerate(self._plays(state)):
            history[k, (seat - player) % 4] = 1.0
            history[k, 4 + card] = 1.0

    def string_from(self, state: CuatrolaSpielState, player: int) -> str:
        """``player``'s view of ``state`` as text (same content as the tensor)."""
        g = state.core
        pair = player % 2
        parts = [f"p{player}", f"scores {g.scores[pair]}-{g.scores[1 - pair]}"]
        if g.trump_card < 0:
            return " ".join(parts)
        assert g.dealer is not None
        parts.append(
            f"hand {g.hand_index} dealer +{(g.dealer - player) % 4} "
            f"trump {format_card(g.trump_card)}"
        )
        parts.append("cards " + (" ".join(format_card(c) for c in sorted(g.hands[player])) or "-"))
        parts.append(
            "bids "
            + " ".join(
                f"+{k}:{DECLARATIONS[b] if (b := g.bids[(player + k) % 4]) >= 0 else '-'}"
                for k in range(4)
            )
        )
        if self.perfect_recall:
            parts.append(
                "plays "
                + " ".join(f"+{(s - player) % 4}:{format_card(c)}" for s, c in self._plays(state))
            )
            return " | ".join(parts)
        if not g.bidding:
            parts.append(f"contract {CONTRACTS[g.contract]}")
            if g.declarer >= 0:
                parts.append(f"declarer +{(g.declarer - player) % 4}")
        parts.append(
            "trick "
            + " ".join(
                f"+{(s - player) % 4}:{format_card(c)}"
                for c, s in zip(g.trick, g.trick_seats, strict=True)
            )
        )
        parts.append(
            "played "
            + " ".join(
                f"+{k}:" + "".join(format_card(c) for c in sorted(g.played[(player + k) % 4]))
                for k in range(4)
            )
        )
        parts.append(f"tricks {g.tricks[pair]}-{g.tricks[1 - pair]}")
        parts.append(f"points {g.points[pair]}-{g.points[1 - pair]}")
        parts.append(
            "sung " + " ".join(f"+{(p - player) % 4}:{format_card(5 * s)[1]}" for p, s in g.cantes)
        )
        return " | ".join(parts)


pyspiel.register_game(CUARENTA_TYPE, CuarentaSpielGame)
pyspiel.register_game(CUATROLA_TYPE, CuatrolaSpielGame)

__all__ = [
    "CUARENTA_PARAMETERS",
    "CUATROLA_PARAMETERS",
    "CuarentaSpielGame",
    "CuatrolaSpielGame",
]
