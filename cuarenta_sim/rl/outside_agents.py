"""The seats of an outside match (:mod:`cuarenta_sim.rl.outside`): one agent per seat and
chica, ``act(state)`` -> an OpenSpiel action of ``python_cuarenta``.

* :class:`PolicyAgent`: our policy decides from the seat's own observation only
  (:func:`cuarenta_sim.cuarenta.reference.game.observe`, then
  :func:`cuarenta_sim.cuarenta.engine.decide.decide`, or the reference random policy);
* :class:`RandomBotAgent`: OpenSpiel's ``UniformRandomBot``;
* :class:`IsmctsAgent`: OpenSpiel's ``ISMCTSBot`` on its own copy of the game, resampling its
  worlds with the game's ``resample_from_infostate`` (the Cuarenta core's
  :meth:`~cuarenta_sim.cuarenta.core.CuarentaCore.resample`) through :func:`resample_world`,
  its draws from the seat's search stream.

Every random draw comes from the project's streams keyed by ``(seed, chica, ...)``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ._extra import require

pyspiel = require("pyspiel")

from ..cuarenta.actions import ACTION_OF  # noqa: E402
from ..cuarenta.engine.decide import decide  # noqa: E402
from ..cuarenta.policies import PolicySpec  # noqa: E402
from ..cuarenta.policies.kernel import POLICY_RANDOM  # noqa: E402
from ..cuarenta.reference.game import observe  # noqa: E402
from ..cuarenta.reference.policies import RandomPolicy  # noqa: E402
from ..rng import STREAM_POLICY, STREAM_SEARCH, PyRng  # noqa: E402
from . import openspiel as _openspiel  # noqa: E402,F401  (registers python_cuarenta)
from .outside_players import FINAL_TYPES, IsmctsSettings, PlayerSpec  # noqa: E402


def resample_world(state: Any, player: int, rng: np.random.RandomState) -> Any:
    """A world ``player`` cannot tell from ``state``: the game's own ``resample_from_infostate``
    (for ``python_cuarenta`` the core's resample: the hidden hands drawn again, conditioned on
    the rondas announced and not announced in the deal, R4), its uniform draws taken from
    ``rng`` so that a match replays from its seed.

    Parameters
    ----------
    state : pyspiel.State
        A decision node of a registered game (``python_cuarenta``).
    player : int
        The seat whose information is kept (the seat to act, for IS-MCTS).
    rng : numpy.random.RandomState
        Source of the draws (``rng.random_sample()``, floats in ``[0, 1)``).

    Returns
    -------
    pyspiel.State
        A new state with the same information state string for ``player``.

    Raises
    ------
    ValueError
        If ``state`` is a chance or terminal node.
    """
    if state.is_chance_node() or state.is_terminal():
        raise ValueError("resample_world needs a decision node (a seat to act)")
    return state.resample_from_infostate(int(player), rng.random_sample)


def _random_state(rng: PyRng) -> np.random.RandomState:
    """A numpy RandomState seeded with 128 bits drawn from a project stream."""
    words = []
    for _ in range(2):
        v = rng.next64()
        words.extend((v & 0xFFFFFFFF, v >> 32))
    return np.random.RandomState(np.array(words, dtype=np.uint32))


class Agent:
    """One seat's player in one chica: ``act(state)`` returns the OpenSpiel action."""

    seat: int

    def act(self, state: Any) -> int:
        raise NotImplementedError

    def inform(self, action: int) -> None:
        """Hear an action (chance outcome or play) applied to the match state."""


class PolicyAgent(Agent):
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


class RandomBotAgent(Agent):
    """OpenSpiel's ``UniformRandomBot``."""

    def __init__(self, root: int, chica: int, seat: int) -> None:
        from open_spiel.python.bots.uniform_random import UniformRandomBot

        self.seat = seat
        rs = _random_state(PyRng.for_stream(root, chica, 0, STREAM_SEARCH + seat))
        self.bot = UniformRandomBot(seat, rs)

    def act(self, state: Any) -> int:
        return int(self.bot.step(state))


class IsmctsAgent(Agent):
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
            final_policy_type=ISMCTSFinalPolicyType[FINAL_TYPES[settings.final]],
            use_observation_string=False,
            allow_inconsistent_action_sets=False,
            child_selection_policy=ChildSelectionPolicy[settings.selection.upper()],
        )
        self.bot.set_resampler(lambda s, p: resample_world(s, p, resample_rs))

    def act(self, state: Any) -> int:
        return int(self.bot.step(self.state))

    def inform(self, action: int) -> None:
        self.state.apply_action(action)


def make_agent(
    spec: PlayerSpec, game_params: dict[str, Any], root: int, chica: int, seat: int
) -> Agent:
    """The agent of ``seat`` in chica ``chica`` (root ``root``) for a parsed player; an
    IS-MCTS bot loads its own ``python_cuarenta`` with ``game_params`` plus its reward."""
    if spec.kind == "policy":
        assert spec.policy is not None
        return PolicyAgent(spec.policy, root, chica, seat)
    if spec.kind == "random":
        return RandomBotAgent(root, chica, seat)
    assert spec.ismcts is not None
    return IsmctsAgent(spec.ismcts, game_params, root, chica, seat)
