"""OpenSpiel's IS-MCTS plays both games the standard way: no custom resampler, the games'
own ``resample_from_infostate`` (the core's ``resample``) draws the worlds."""

from __future__ import annotations

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import ismcts, mcts

import cuarenta_sim.rl.openspiel  # noqa: F401  (registers the games)


@pytest.mark.parametrize(
    "name",
    [
        "python_cuarenta(players=2,episode=data)",
        "python_cuarenta(rules=cuenca,players=4,episode=data)",
        "python_cuatrola(episode=hand)",
        "python_cuatrola(rules=online,episode=hand)",
    ],
)
def test_ismcts_plays_whole_episodes_without_a_resampler(name: str) -> None:
    game = pyspiel.load_game(name)
    n = game.num_players()
    evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(0))
    bots = [
        ismcts.ISMCTSBot(game, evaluator, 2.0, 8, random_state=np.random.RandomState(s))
        for s in range(n)
    ]
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    rng = np.random.default_rng(1)
    for _ in range(2):
        state = game.new_initial_state()
        decisions = 0
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = [o for o, _ in state.chance_outcomes()]
                state.apply_action(int(rng.choice(outcomes)))
                continue
            player = state.current_player()
            world = state.resample_from_infostate(player, sampler)
            assert world.information_state_string(player) == state.information_state_string(player)
            assert world.observation_tensor(player) == state.observation_tensor(player)
            assert world.returns() == state.returns()
            action = bots[player].step(state)
            assert action in state.legal_actions()
            state.apply_action(action)
            decisions += 1
        assert decisions > 0 and sum(state.returns()) == pytest.approx(0.0)
