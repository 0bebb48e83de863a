"""Outside opponents: our policies against OpenSpiel's own bots, in duplicate chicas.

A duplicate match between players ``a`` and ``b`` plays chica ``g`` twice through the OpenSpiel
game ``python_cuarenta`` (:mod:`cuarenta_sim.rl.openspiel`): once with ``a`` on side 0 and
once with ``a`` on side 1. The chance nodes are fed from the project's random streams, keyed
by ``(seed, chica)`` exactly as the reference engine draws them (first dealer from
``STREAM_GAME``, the deck of data ``d`` from ``shuffled_deck_py(root, g, d)``, contract
section 2), so both seatings see the same deals and the luck of the cards cancels. The unit of
every interval is the duplicate pair (:func:`cuarenta_sim.tournament.match_summary`).

Players (tournament-style specs, :func:`parse_player`):

* **Our policies**: any spec of :func:`cuarenta_sim.cuarenta.policies.parse_policy`
  (``greedy``, ``heuristic(...)``, ``pimc(samples=8)``, ...). A seat decides from its own
  observation only: :func:`cuarenta_sim.cuarenta.reference.game.observe` builds what the seat
  may see from the OpenSpiel state, :func:`cuarenta_sim.cuarenta.engine.decide.decide` (the numba
  kernel's decision code, which receives nothing but that observation) picks a play, and
  :data:`cuarenta_sim.cuarenta.actions.ACTION_OF` turns it into the OpenSpiel action.
  ``random`` (which ``decide`` refuses) plays the reference engine's random policy on the
  seat's policy stream. A searching policy gets a fresh search state per decision: the key is
  the next draw of the seat's search stream of the data (``STREAM_SEARCH + seat``, keyed by
  ``(seed, chica, data)``), seeded as every stream is.
* **openspiel-ismcts(...)**: :class:`open_spiel.python.algorithms.ismcts.ISMCTSBot` with
  :class:`open_spiel.python.algorithms.mcts.RandomRolloutEvaluator` (settings
  :class:`IsmctsSettings`). The game provides no ``resample_from_infostate``, so the bot gets
  :func:`resample_cuarenta` as its resampler: the hidden hands drawn uniformly among the deals
  consistent with the seat's information state (own hand, every play of the data, the
  rondas announced, R4).
* **openspiel-random**: :class:`open_spiel.python.bots.uniform_random.UniformRandomBot`.

The bots' randomness (tree policy, rollouts, resampling, the final choice) comes from
``numpy.random.RandomState`` generators seeded from the seat's search stream of the chica, so
a match is reproducible from its seed.
"""

from __future__ import annotations

import math
import re
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from ._extra import require

pyspiel = require("pyspiel")

from ..cuarenta.actions import ACTION_OF  # noqa: E402
from ..cuarenta.cards import N_CARDS  # noqa: E402
from ..cuarenta.engine.decide import decide  # noqa: E402
from ..cuarenta.policies import PolicySpec, parse_policy  # noqa: E402
from ..cuarenta.policies.kernel import POLICY_RANDOM  # noqa: E402
from ..cuarenta.reference.events import AnnounceEvent, PlayEvent  # noqa: E402
from ..cuarenta.reference.game import observe  # noqa: E402
from ..cuarenta.reference.policies import RandomPolicy  # noqa: E402
from ..cuarenta.reference.scoring import ronda_events  # noqa: E402
from ..cuarenta.reference.state import CARDS_PER_DEAL, rank_counts  # noqa: E402
from ..rng import (  # noqa: E402
    STREAM_GAME,
    STREAM_POLICY,
    STREAM_SEARCH,
    PyRng,
    root_from_seed,
    shuffled_deck_py,
)
from ..tournament import PAIR_COLUMNS, match_summary  # noqa: E402
from . import openspiel as _openspiel  # noqa: E402,F401  (registers python_cuarenta)

#: Prefix of the OpenSpiel bots' player specs.
BOT_PREFIX = "openspiel-"
#: The OpenSpiel bots by spec name.
BOTS = ("ismcts", "random")
#: Final policies of ISMCTS (``ISMCTSFinalPolicyType``), by spec word.
FINAL_POLICIES = ("max_visit_count", "normalized_visit_count", "max_value")
#: OpenSpiel's enum member of each final policy.
_FINAL_TYPES = {
    "max_visit_count": "MAX_VISIT_COUNT",
    "normalized_visit_count": "NORMALIZED_VISITED_COUNT",
    "max_value": "MAX_VALUE",
}
#: Child selection policies of ISMCTS (``ChildSelectionPolicy``), by spec word.
SELECTIONS = ("uct", "puct")
#: Resampling attempts before giving up (a consistent deal exists: the real one).
MAX_RESAMPLE_TRIES = 10_000

_BOT_RE = re.compile(r"^\s*openspiel-([a-z_]+)\s*(?:\((.*)\))?\s*$")


# ====================================================================== player specs
@dataclass(frozen=True)
class IsmctsSettings:
    """Configuration of OpenSpiel's IS-MCTS bot (``openspiel-ismcts(...)``).

    Attributes
    ----------
    simulations : int
        ``max_simulations``: simulations per decision (each from a resampled world).
    uct_c : float
        Exploration constant of the UCT (or PUCT) child selection.
    rollouts : int
        ``n_rollouts`` of the ``RandomRolloutEvaluator``: uniformly random playouts averaged
        at each new leaf.
    rollout_length : int
        ``max_length`` of the evaluator in steps (chance nodes included); 0 plays every
        rollout to the end of the chica. A cut rollout is worth the rewards gathered so far,
        which are zero unless ``point_reward`` is set.
    point_reward : float
        Reward per point of side difference in the bot's own copy of the game
        (``python_cuarenta`` parameter; the chica win is always worth 1). 0: the bot values
        the chica's result only, as the match does.
    final : str
        Final policy: ``max_visit_count`` (ties drawn at random), ``normalized_visit_count``
        (an action drawn in proportion to its visits) or ``max_value``.
    selection : str
        Child selection: ``uct`` or ``puct`` (uniform priors).
    world_samples : int
        ``max_world_samples``: -1 resamples a world for every simulation, ``k > 0`` reuses
        ``k`` sampled worlds.
    """

    simulations: int = 1000
    uct_c: float = 2.0
    rollouts: int = 1
    rollout_length: int = 0
    point_reward: float = 0.0
    final: str = "max_visit_count"
    selection: str = "uct"
    world_samples: int = -1

    @property
    def canonical(self) -> str:
        """The full spec, every parameter in order: ``openspiel-ismcts(simulations=...)``."""
        body = ",".join(f"{k}={_fmt(getattr(self, k))}" for k in _ISMCTS_PARAMS)
        return f"{BOT_PREFIX}ismcts({body})"

    def describe(self) -> dict[str, Any]:
        """The bot's configuration in OpenSpiel's own terms (for reports and provenance)."""
        return {
            "bot": "open_spiel.python.algorithms.ismcts.ISMCTSBot",
            "evaluator": f"RandomRolloutEvaluator(n_rollouts={self.rollouts}, max_length="
            f"{self.rollout_length or None})",
            "uct_c": self.uct_c,
            "max_simulations": self.simulations,
            "max_world_samples": self.world_samples,
            "final_policy_type": f"ISMCTSFinalPolicyType.{_FINAL_TYPES[self.final]}",
            "child_selection_policy": f"ChildSelectionPolicy.{self.selection.upper()}",
            "use_observation_string": False,
            "allow_inconsistent_action_sets": False,
            "resampler": "cuarenta_sim.rl.outside.resample_cuarenta",
            "game_rewards": f"win_reward=1, point_reward={_fmt(self.point_reward)}",
            "random_state": "numpy RandomState seeded from the seat's search stream "
            "(seed, chica, STREAM_SEARCH + seat)",
        }


def _fmt(v: object) -> str:
    if isinstance(v, float):
        return f"{v:g}"
    return str(v)


def _int_param(low: int, high: int) -> Callable[[str, str], int]:
    def parse(name: str, text: str) -> int:
        try:
            v = int(text)
        except ValueError:
            v = None
        if v is None or not low <= v <= high:
            raise ValueError(
                f"bad value {text!r} for openspiel-ismcts parameter {name}; accepted: a whole "
                f"number from {low} to {high}"
            )
        return v

    return parse


def _float_param(low: float, high: float) -> Callable[[str, str], float]:
    def parse(name: str, text: str) -> float:
        try:
            v = float(text)
        except ValueError:
            v = math.nan
        if not low <= v <= high:
            raise ValueError(
                f"bad value {text!r} for openspiel-ismcts parameter {name}; accepted: a number "
                f"from {low:g} to {high:g}"
            )
        return v

    return parse


def _choice_param(choices: Sequence[str]) -> Callable[[str, str], str]:
    def parse(name: str, text: str) -> str:
        if text not in choices:
            raise ValueError(
                f"bad value {text!r} for openspiel-ismcts parameter {name}; accepted: "
                f"{', '.join(choices)}"
            )
        return text

    return parse


def _world_samples(name: str, text: str) -> int:
    v = _int_param(-1, 1_000_000)(name, text)
    if v == 0:
        raise ValueError(
            f"bad value {text!r} for openspiel-ismcts parameter {name}; accepted: -1 "
            "(a new world every simulation) or a whole number from 1 to 1000000"
        )
    return v


_ISMCTS_PARAMS: dict[str, Callable[[str, str], Any]] = {
    "simulations": _int_param(1, 10_000_000),
    "uct_c": _float_param(0.0, 1e6),
    "rollouts": _int_param(1, 100_000),
    "rollout_length": _int_param(0, 10_000_000),
    "point_reward": _float_param(0.0, 1e6),
    "final": _choice_param(FINAL_POLICIES),
    "selection": _choice_param(SELECTIONS),
    "world_samples": _world_samples,
}


@dataclass(frozen=True)
class PlayerSpec:
    """A parsed player of an outside match: one of our policies or an OpenSpiel bot.

    Attributes
    ----------
    kind : str
        ``"policy"`` (ours), ``"ismcts"`` or ``"random"`` (OpenSpiel's bots).
    canonical : str
        The full spec (every parameter), as provenance records it.
    policy : PolicySpec or None
        Our policy's parsed spec (``kind == "policy"``).
    ismcts : IsmctsSettings or None
        The IS-MCTS configuration (``kind == "ismcts"``).
    """

    kind: str
    canonical: str
    policy: PolicySpec | None = None
    ismcts: IsmctsSettings | None = None

    def describe(self) -> dict[str, Any]:
        """The player's settings for reports: the spec and, for a bot, its configuration."""
        out: dict[str, Any] = {"spec": self.canonical, "kind": self.kind}
        if self.ismcts is not None:
            out["settings"] = self.ismcts.describe()
        elif self.kind == "random":
            out["settings"] = {
                "bot": "open_spiel.python.bots.uniform_random.UniformRandomBot",
                "rng": "numpy RandomState seeded from the seat's search stream "
                "(seed, chica, STREAM_SEARCH + seat)",
            }
        else:
            out["settings"] = {
                "entry_point": "cuarenta_sim.cuarenta.engine.decide.decide"
                if self.policy is not None and self.policy.id != POLICY_RANDOM
                else "cuarenta_sim.cuarenta.reference.policies.RandomPolicy",
                "observation": "cuarenta_sim.cuarenta.reference.game.observe (the seat's view)",
            }
        return out


def parse_player(spec: str) -> PlayerSpec:
    """Parse a player spec: a policy spec, ``openspiel-ismcts(...)`` or ``openspiel-random``.

    Parameters
    ----------
    spec : str
        ``greedy``, ``pimc(samples=8)``, ... (:func:`cuarenta_sim.cuarenta.policies.parse_policy`);
        ``openspiel-ismcts(simulations=1000,uct_c=2,rollouts=1)`` with any of the parameters
        of :class:`IsmctsSettings` (the others take their defaults); ``openspiel-random``.

    Returns
    -------
    PlayerSpec

    Raises
    ------
    ValueError
        Malformed spec, unknown bot, unknown or repeated parameter, bad value; the message
        lists what is accepted.
    """
    if not isinstance(spec, str):
        raise ValueError(f"a player spec must be a string, got {spec!r}")
    if not spec.strip().startswith(BOT_PREFIX):
        parsed = parse_policy(spec)
        return PlayerSpec("policy", parsed.canonical, policy=parsed)
    m = _BOT_RE.match(spec)
    if m is None:
        raise ValueError(
            f"malformed player spec {spec!r}; expected openspiel-ismcts(param=value,...) or "
            "openspiel-random"
        )
    bot, body = m.group(1), (m.group(2) or "").strip()
    if bot not in BOTS:
        raise ValueError(
            f"unknown OpenSpiel bot {bot!r}; accepted: " + ", ".join(BOT_PREFIX + b for b in BOTS)
        )
    if bot == "random":
        if body:
            raise ValueError(f"openspiel-random takes no parameters, got {body!r}")
        return PlayerSpec("random", f"{BOT_PREFIX}random")
    values: dict[str, Any] = {}
    if body:
        for item in body.split(","):
            if "=" not in item:
                raise ValueError(
                    f"malformed parameter {item.strip()!r} in player spec {spec!r}; "
                    "expected param=value"
                )
            key, text = (s.strip() for s in item.split("=", 1))
            if key not in _ISMCTS_PARAMS:
                raise ValueError(
                    f"unknown parameter {key!r} of openspiel-ismcts; accepted: "
                    + ", ".join(_ISMCTS_PARAMS)
                )
            if key in values:
                raise ValueError(f"parameter {key} given twice in player spec {spec!r}")
            values[key] = _ISMCTS_PARAMS[key](key, text)
    settings = IsmctsSettings(**values)
    return PlayerSpec("ismcts", settings.canonical, ismcts=settings)


# ====================================================================== resampling
def _data_events(core: Any) -> tuple[list[PlayEvent], list[AnnounceEvent]]:
    plays, announced = [], []
    for e in core.events:
        if getattr(e, "data", None) != core.data:
            continue
        if isinstance(e, PlayEvent):
            plays.append(e)
        elif isinstance(e, AnnounceEvent):
            announced.append(e)
    return plays, announced


def resample_cuarenta(state: Any, player: int, rng: np.random.RandomState) -> Any:
    """Return a copy of ``state`` with the hands hidden from ``player`` dealt afresh.

    The hidden cards are the other seats' hands and the cards not dealt yet (at a decision
    node of ``python_cuarenta`` the deal in progress has been dealt whole). Each other seat
    gets as many cards as it holds, drawn uniformly from them, subject to what ``player``
    knows: the seat still holds the cards of the rondas it announced in this deal minus those
    it has played since (R4), and its whole deal (cards played in this deal plus its hand)
    makes exactly the announcements it made, no more (a ronda is announced whenever dealt,
    R4.1). Rejection sampling from the uniform deal makes the draw uniform among the
    consistent deals. Ranks are what the information state records; physical card ids of a
    rank are taken from the hidden pool.

    Parameters
    ----------
    state : CuarentaSpielState
        A decision node of ``python_cuarenta``.
    player : int
        The seat whose information is kept (the seat to act, for IS-MCTS).
    rng : numpy.random.RandomState
        Source of the draw.

    Returns
    -------
    CuarentaSpielState
        A state with the same information state string for ``player``.

    Raises
    ------
    ValueError
        If ``state`` is a chance or terminal node.
    RuntimeError
        If no consistent deal was drawn in :data:`MAX_RESAMPLE_TRIES` attempts.
    """
    core = state.core
    st = core.state
    if core.current < 0 or st is None:
        raise ValueError("resample_cuarenta needs a decision node (a seat to act)")
    new = state.clone()
    ncore = new.core
    nst = ncore.state
    n = core.players
    others = [o for o in range(n) if o != player]
    dealt = set(st.deck)
    hidden = [c for o in others for c in st.hands[o]] + [
        c for c in range(N_CARDS) if c not in dealt
    ]
    plays, announced = _data_events(core)
    played_now = {o: [0] * 10 for o in others}
    for e in plays:
        if e.deal == st.deal and e.seat in played_now:
            played_now[e.seat][e.outcome.play.rank] += 1
    calls = {
        o: sorted((e.flag, e.rank) for e in announced if e.deal == st.deal and e.seat == o)
        for o in others
    }
    by_rank: list[list[int]] = [[] for _ in range(10)]
    for c in hidden:
        by_rank[c // 4].append(c)
    for _ in range(MAX_RESAMPLE_TRIES):
        pool = [list(cs) for cs in by_rank]
        for cs in pool:
            rng.shuffle(cs)
        hands: dict[int, list[int]] = {}
        for o in others:
            # The announced rondas' cards still held are known: they go to their seat first.
            forced: list[int] = []
            for flag, rank in calls[o]:
                keep = (4 if flag == 2 else 3) - played_now[o][rank]
                forced.extend(pool[rank].pop() for _ in range(keep))
            hands[o] = forced
        rest = [c for cs in pool for c in cs]
        rng.shuffle(rest)
        at = 0
        ok = True
        for o in others:
            need = len(st.hands[o]) - len(hands[o])
            hands[o] = hands[o] + rest[at : at + need]
            at += need
            whole = rank_counts(hands[o])
            for q in range(10):
                whole[q] += played_now[o][q]
            if sorted((f, r) for f, r in ronda_events(whole)) != calls[o]:
                ok = False
                break
        if ok:
            break
    else:
        raise RuntimeError(
            f"no deal consistent with seat {player}'s information in {MAX_RESAMPLE_TRIES} draws"
        )
    # Rewrite the hands and the deck positions of the current deal (the deck records which
    # cards are dealt: chance outcomes are the cards not in it).
    order = nst.play_order()
    deck = list(nst.deck)
    for o in others:
        old = set(st.hands[o])
        p = order.index(o)
        start = (nst.deal * n + p) * CARDS_PER_DEAL
        fresh = iter(hands[o])
        for k in range(start, start + CARDS_PER_DEAL):
            if deck[k] in old:
                deck[k] = next(fresh)
        nst.hands[o] = sorted(hands[o])
    nst.deck = deck
    ncore._legal = None
    return new


# ====================================================================== agents
def _random_state(rng: PyRng) -> np.random.RandomState:
    """A numpy RandomState seeded with 128 bits drawn from a project stream."""
    words = []
    for _ in range(2):
        v = rng.next64()
        words.extend((v & 0xFFFFFFFF, v >> 32))
    return np.random.RandomState(np.array(words, dtype=np.uint32))


class _Agent:
    """One seat's player in one chica: ``act(state)`` returns the OpenSpiel action."""

    seat: int

    def act(self, state: Any) -> int:
        raise NotImplementedError

    def inform(self, action: int) -> None:
        """Hear an action (chance outcome or play) applied to the match state."""


class _PolicyAgent(_Agent):
    """Our policy: the seat's observation -> ``decide`` -> action id."""

    def __init__(self, spec: PolicySpec, root: int, chica: int, seat: int) -> None:
        self.spec, self.root, self.chica, self.seat = spec, root, chica, seat
        self.random = spec.id == POLICY_RANDOM
        self._data = -1
        self._stream: PyRng | None = None

    def act(self, state: Any) -> int:
        core = state.core
        if core.data != self._data:
            # Contract 2: the seat's policy stream of the data (random), or its search stream.
            self._data = core.data
            stream = (STREAM_POLICY if self.random else STREAM_SEARCH) + self.seat
            self._stream = PyRng.for_stream(self.root, self.chica, core.data, stream)
        assert self._stream is not None
        obs = observe(core.state, self.seat, core.board)
        if self.random:
            k = RandomPolicy().choose(obs, self._stream)
        else:
            k = decide(self.spec.canonical, obs, PyRng(self._stream.next64()).s)
        return ACTION_OF[obs.plays[k]]


class _RandomBotAgent(_Agent):
    """OpenSpiel's ``UniformRandomBot``."""

    def __init__(self, root: int, chica: int, seat: int) -> None:
        from open_spiel.python.bots.uniform_random import UniformRandomBot

        self.seat = seat
        rs = _random_state(PyRng.for_stream(root, chica, 0, STREAM_SEARCH + seat))
        self.bot = UniformRandomBot(seat, rs)

    def act(self, state: Any) -> int:
        return int(self.bot.step(state))


class _IsmctsAgent(_Agent):
    """OpenSpiel's ``ISMCTSBot`` searching its own copy of the game (its reward settings)."""

    def __init__(
        self,
        settings: IsmctsSettings,
        game_params: dict[str, Any],
        root: int,
        chica: int,
        seat: int,
    ) -> None:
        from open_spiel.python.algorithms.ismcts import (
            ChildSelectionPolicy,
            ISMCTSBot,
            ISMCTSFinalPolicyType,
        )
        from open_spiel.python.algorithms.mcts import RandomRolloutEvaluator

        self.seat = seat
        stream = PyRng.for_stream(root, chica, 0, STREAM_SEARCH + seat)
        bot_rs, eval_rs, resample_rs = (_random_state(stream) for _ in range(3))
        self.game = pyspiel.load_game(
            "python_cuarenta", {**game_params, "point_reward": settings.point_reward}
        )
        self.state = self.game.new_initial_state()
        evaluator = RandomRolloutEvaluator(
            n_rollouts=settings.rollouts,
            random_state=eval_rs,
            max_length=settings.rollout_length or None,
        )
        self.bot = ISMCTSBot(
            self.game,
            evaluator,
            settings.uct_c,
            settings.simulations,
            max_world_samples=settings.world_samples,
            random_state=bot_rs,
            final_policy_type=ISMCTSFinalPolicyType[_FINAL_TYPES[settings.final]],
            use_observation_string=False,
            allow_inconsistent_action_sets=False,
            child_selection_policy=ChildSelectionPolicy[settings.selection.upper()],
        )
        self.bot.set_resampler(lambda s, p: resample_cuarenta(s, p, resample_rs))

    def act(self, state: Any) -> int:
        return int(self.bot.step(self.state))

    def inform(self, action: int) -> None:
        self.state.apply_action(action)


# ====================================================================== playing
@dataclass
class ChicaResult:
    """One chica of an outside match.

    Attributes
    ----------
    winner : int
        Winning side, or -1 for a chica stopped without a winner (contract 5).
    scores : tuple of int
        Final scores of sides 0 and 1 (points scored in the chica, R9.2).
    datas : int
        Datas played.
    decisions : list of int
        Decisions taken by each side (one per play, R5).
    seconds : list of float
        Wall time each side spent deciding.
    actions : list of int
        Every play, as OpenSpiel action ids, in order.
    """

    winner: int
    scores: tuple[int, int]
    datas: int
    decisions: list[int] = field(default_factory=lambda: [0, 0])
    seconds: list[float] = field(default_factory=lambda: [0.0, 0.0])
    actions: list[int] = field(default_factory=list)


def _agent(
    spec: PlayerSpec, game_params: dict[str, Any], root: int, chica: int, seat: int
) -> _Agent:
    if spec.kind == "policy":
        assert spec.policy is not None
        return _PolicyAgent(spec.policy, root, chica, seat)
    if spec.kind == "random":
        return _RandomBotAgent(root, chica, seat)
    assert spec.ismcts is not None
    return _IsmctsAgent(spec.ismcts, game_params, root, chica, seat)


def play_chica(
    sides: Sequence[str | PlayerSpec],
    *,
    rules: str = "quito",
    players: int = 2,
    root: int,
    chica: int,
) -> ChicaResult:
    """Play one chica of ``python_cuarenta`` with the given player on each side.

    Parameters
    ----------
    sides : sequence of 2 specs
        The player of side 0 and of side 1 (:func:`parse_player`); with 4 players each seat
        of a side gets its own copy (R2.1: seat ``s`` plays for side ``s % 2``).
    rules : str
        Preset or slug (section S).
    players : int
        2 or 4.
    root : int
        Root of the random streams (``cuarenta_sim.rng.root_from_seed``).
    chica : int
        The chica index: first dealer from ``(root, chica, 0, STREAM_GAME)``, the deck of data
        ``d`` from ``shuffled_deck_py(root, chica, d)``, the seats' streams keyed by it.

    Returns
    -------
    ChicaResult

    Raises
    ------
    ValueError
        Bad spec, rules or players.
    """
    specs = [s if isinstance(s, PlayerSpec) else parse_player(s) for s in sides]
    if len(specs) != 2:
        raise ValueError(f"give one player per side (2), got {len(specs)}")
    params = {"rules": rules, "players": players}
    game = pyspiel.load_game("python_cuarenta", params)
    state = game.new_initial_state()
    agents = [_agent(specs[s % 2], params, root, chica, s) for s in range(players)]
    result = ChicaResult(winner=-1, scores=(0, 0), datas=0)
    core = state.core
    while not state.is_terminal():
        if state.is_chance_node():
            if core.dealer is None:
                # R3.4, contract 2: the first dealer from the chica's game stream.
                action = PyRng.for_stream(root, chica, 0, STREAM_GAME).randbelow(players)
            else:
                # The deck of this data, dealt by position (contract section 2).
                deck = shuffled_deck_py(root, chica, core.data)
                action = deck[len(core.state.deck)]
        else:
            seat = state.current_player()
            t = time.perf_counter()
            action = agents[seat].act(state)
            result.seconds[seat % 2] += time.perf_counter() - t
            result.decisions[seat % 2] += 1
            result.actions.append(action)
        state.apply_action(action)
        for agent in agents:
            agent.inform(action)
    winner = core.winner
    result.winner = -1 if winner is None else int(winner)
    result.scores = (int(core.board.scores[0]), int(core.board.scores[1]))
    result.datas = core.data + 1
    return result


@dataclass
class OutsideMatch:
    """A duplicate match between two players of :func:`parse_player`.

    Attributes
    ----------
    a, b : str
        Canonical specs.
    pairs : DataFrame
        One row per chica index, columns :data:`cuarenta_sim.tournament.PAIR_COLUMNS`
        (``a_wins`` 0 to 2, a chica without a winner counting half; points over both
        seatings; datas of both).
    decisions : dict
        Decisions taken by ``a`` and by ``b`` (keys ``"a"``, ``"b"``).
    seconds : dict
        Wall time spent deciding by ``a`` and by ``b``.
    wall : float
        Wall time of the match.
    """

    a: str
    b: str
    pairs: pd.DataFrame
    decisions: dict[str, int]
    seconds: dict[str, float]
    wall: float

    def summary(self, confidence: float = 0.95) -> dict[str, Any]:
        """:func:`cuarenta_sim.tournament.match_summary` plus the decision rates.

        Returns
        -------
        dict
            ``a``, ``b``, the match summary (``pairs``, ``games``, ``win_rate`` with the
            clustered Wilson ``lower`` / ``upper``, ``points_per_data`` with ``ppd_lower`` /
            ``ppd_upper``, ...), ``a_decisions_per_s``, ``b_decisions_per_s`` (decisions per
            second of deciding time, float) and ``wall_seconds``.
        """
        out: dict[str, Any] = {"a": self.a, "b": self.b, **match_summary(self.pairs, confidence)}
        for k in ("a", "b"):
            secs = self.seconds[k]
            out[f"{k}_decisions"] = self.decisions[k]
            out[f"{k}_decisions_per_s"] = self.decisions[k] / secs if secs > 0 else math.nan
        out["wall_seconds"] = self.wall
        return out


def play_outside_duplicate(
    a: str,
    b: str,
    *,
    rules: str = "quito",
    players: int = 2,
    n: int = 10,
    seed: int = 0,
    first: int = 0,
    progress: Callable[[str], None] | None = None,
) -> OutsideMatch:
    """Play ``n`` duplicate pairs of chicas between players ``a`` and ``b`` through OpenSpiel.

    Chica ``g`` (``first <= g < first + n``) is played with ``a`` on side 0, then with ``a`` on
    side 1, on the same deals (:func:`play_chica` with the same ``root`` and index). Every
    pairing of a benchmark on the same seed sees the same decks.

    Parameters
    ----------
    a, b : str
        Player specs (:func:`parse_player`).
    rules : str
        Preset or slug.
    players : int
        2 or 4.
    n : int
        Duplicate pairs (chicas per seating), > 0.
    seed : int
        Seed of the random streams.
    first : int
        First chica index (to split a match into chunks).
    progress : callable, optional
        Receives one line per duplicate pair.

    Returns
    -------
    OutsideMatch

    Raises
    ------
    ValueError
        Bad spec, rules, players, ``n`` or ``seed``.
    """
    if isinstance(n, bool) or not isinstance(n, int) or n < 1:
        raise ValueError(f"n must be a whole number >= 1 (duplicate pairs), got {n!r}")
    if isinstance(first, bool) or not isinstance(first, int) or first < 0:
        raise ValueError(f"first must be a non-negative whole number, got {first!r}")
    root, _ = root_from_seed(seed)
    pa, pb = parse_player(a), parse_player(b)
    t0 = time.perf_counter()
    rows = []
    decisions = {"a": 0, "b": 0}
    seconds = {"a": 0.0, "b": 0.0}
    for g in range(first, first + n):
        a_wins = 0.0
        pts = [0, 0]
        datas = 0
        for a_side in (0, 1):
            sides = (pa, pb) if a_side == 0 else (pb, pa)
            r = play_chica(sides, rules=rules, players=players, root=root, chica=g)
            a_wins += 0.5 if r.winner < 0 else float(r.winner == a_side)
            pts[0] += r.scores[a_side]
            pts[1] += r.scores[1 - a_side]
            datas += r.datas
            decisions["a"] += r.decisions[a_side]
            decisions["b"] += r.decisions[1 - a_side]
            seconds["a"] += r.seconds[a_side]
            seconds["b"] += r.seconds[1 - a_side]
        rows.append((g, a_wins, 2, pts[0], pts[1], datas))
        if progress is not None:
            progress(
                f"{pa.canonical} vs {pb.canonical}: chica {g}: {a_wins:g}/2, points "
                f"{pts[0]}-{pts[1]} ({time.perf_counter() - t0:.1f} s)"
            )
    pairs = pd.DataFrame(rows, columns=list(PAIR_COLUMNS)).astype(
        {
            "game": np.int64,
            "a_wins": np.float64,
            "games": np.int64,
            "a_points": np.int64,
            "b_points": np.int64,
            "datas": np.int64,
        }
    )
    return OutsideMatch(
        pa.canonical, pb.canonical, pairs, decisions, seconds, time.perf_counter() - t0
    )


def tournament_play(
    *, rules: str = "quito", players: int = 2, seed: int = 0
) -> Callable[[str, str, str, int], pd.DataFrame]:
    """Return a ``play(a, b, level, n)`` for :func:`cuarenta_sim.tournament.run_tournament`.

    With it a round-robin tournament takes OpenSpiel's bots as players next to our policies
    (``("greedy", "pimc(samples=8)", "openspiel-ismcts(simulations=50)", "openspiel-random")``),
    every match a :func:`play_outside_duplicate` on the same seed (same decks).

    Parameters
    ----------
    rules : str
        Preset or slug.
    players : int
        2 or 4.
    seed : int
        Seed of every match.

    Returns
    -------
    callable
        ``play(a, b, level, n) -> DataFrame`` with :data:`cuarenta_sim.tournament.PAIR_COLUMNS`;
        it raises ``ValueError`` for a level other than ``chica`` (the OpenSpiel game plays
        chicas, not mesas).
    """

    def play(a: str, b: str, level: str, n: int) -> pd.DataFrame:
        if level != "chica":
            raise ValueError(
                f"outside matches are played at level chica only, got {level!r}; set mesas=0"
            )
        return play_outside_duplicate(a, b, rules=rules, players=players, n=n, seed=seed).pairs

    return play


__all__ = [
    "BOTS",
    "ChicaResult",
    "IsmctsSettings",
    "OutsideMatch",
    "PlayerSpec",
    "parse_player",
    "play_chica",
    "play_outside_duplicate",
    "resample_cuarenta",
    "tournament_play",
]
