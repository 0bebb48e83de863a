"""A third game that fills only the contract (``toy_duel``: rules and a core) gets the
PettingZoo environment, the OpenSpiel game, IS-MCTS and the JSON form through one
registration, with no edit outside its module."""

from __future__ import annotations

import warnings
from collections.abc import Iterator

import numpy as np
import pyspiel
import pytest
import toy_duel
from open_spiel.python.algorithms import ismcts, mcts
from pettingzoo.test import api_test

from cuarenta_sim import game as registry
from cuarenta_sim.core import Core, from_json, history_records, returns, to_json


@pytest.fixture
def toy() -> Iterator[None]:
    """Register the toy game for one test (the one registration), and remove it after."""
    registry.register(toy_duel.GAME)
    try:
        yield
    finally:
        registry.unregister("toy")


def test_the_toy_core_fills_the_protocol() -> None:
    assert isinstance(toy_duel.CORE, Core)


def test_pettingzoo_env_through_the_registration(toy: None) -> None:
    from cuarenta_sim.rl import make_env

    env = make_env("toy", point_reward=0.5)
    with warnings.catch_warnings():
        # PettingZoo's api_test warns on every dict-observation env it does not allow-list
        # by name (tests/rl/test_rl_pettingzoo.py lists these warnings).
        warnings.simplefilter("ignore")
        api_test(env, num_cycles=50)
    assert env.metadata["name"] == "toy_v0" and env.action_space("player_0").n == 6
    env.reset(seed=3)
    total = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        _, reward, term, trunc, _ = env.last()
        total[agent] += reward
        mask = env.observe(agent)["action_mask"]
        env.step(None if term or trunc else int(np.flatnonzero(mask)[0]))
    core, state = toy_duel.CORE, env.unwrapped.game
    assert list(total.values()) == returns(core, state, 1.0, 0.5)
    with pytest.raises(ValueError, match="players must be 2 for toy"):
        make_env("toy", players=4)


def test_openspiel_game_and_ismcts_through_the_registration(toy: None) -> None:
    from cuarenta_sim.rl import openspiel

    assert "python_toy" in openspiel.register_games()
    game = pyspiel.load_game("python_toy(rules=low)")
    pyspiel.random_sim_test(game, num_sims=5, serialize=True, verbose=False)
    evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(0))
    bot = ismcts.ISMCTSBot(game, evaluator, 2.0, 20, random_state=np.random.RandomState(1))
    rng = np.random.default_rng(2)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = [o for o, _ in state.chance_outcomes()]
            state.apply_action(int(rng.choice(outcomes)))
        else:
            state.apply_action(bot.step(state))
    assert sum(state.returns()) == 0.0 and abs(state.returns()[0]) <= 1.0


def test_json_and_history_through_the_registration(toy: None) -> None:
    core = toy_duel.CORE
    state = core.new_state("low", root=11, index=4)
    core.apply(state, core.legal_actions(state)[0])
    text = to_json(core, state)
    again = from_json(text)  # finds the toy core in the registry by name
    assert to_json(core, again) == text and again.hands == state.hands
    assert [r["label"] for r in history_records(core, state)] == [f"card {core.history(state)[0]}"]


def test_what_the_toy_does_not_provide_says_so(toy: None) -> None:
    with pytest.raises(NotImplementedError, match="no 'make_spec'"):
        registry.GAMES["toy"].make_spec("high", 2, "random", "duel", 0, True)
