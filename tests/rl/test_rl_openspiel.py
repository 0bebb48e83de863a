"""The OpenSpiel games: OpenSpiel's own checks, the reference engine, parameters."""

from __future__ import annotations

import numpy as np
import pyspiel
import pytest
from open_spiel.python.observation import make_observation

import cuarenta_sim.rl.openspiel  # noqa: F401  (registers the games)
from cuarenta_sim.cuarenta import observation as cuarenta_obs
from cuarenta_sim.cuarenta.actions import action_of
from cuarenta_sim.cuarenta.reference import play_game
from cuarenta_sim.cuarenta.reference.events import PlayEvent
from cuarenta_sim.cuatrola import observation as cuatrola_obs
from cuarenta_sim.cuatrola.reference import reference_trace
from cuarenta_sim.cuatrola.reference.game import first_dealer
from cuarenta_sim.cuatrola.reference.step import BID0
from cuarenta_sim.cuatrola.trace_format import KIND_BID, KIND_PLAY
from cuarenta_sim.rng import STREAM_GAME, PyRng, root_from_seed, shuffled_cards_py

GAMES = [
    "python_cuarenta(rules=quito,players=2)",
    "python_cuarenta(rules=pagat,players=4)",
    "python_cuarenta(rules=quito_torneo;max_sum_cards:3;capture_compulsory:true,episode=data)",
    "python_cuatrola(rules=ro)",
    "python_cuatrola(rules=online,episode=hand,point_reward=0.5)",
]


@pytest.mark.parametrize("name", GAMES)
def test_openspiel_random_sim_test(name: str) -> None:
    """OpenSpiel's own consistency checks (legal actions, chance, clones, observations,
    returns, serialisation by history) over random playouts."""
    game = pyspiel.load_game(name)
    pyspiel.random_sim_test(game, num_sims=3, serialize=True, verbose=False)


@pytest.mark.parametrize("name", ["python_cuarenta(players=4)", "python_cuatrola"])
def test_python_observation_api(name: str) -> None:
    """OpenSpiel's Python observation helper (as its Python games' tests use it) gets the
    observation and the information state with their named pieces."""
    game = pyspiel.load_game(name)
    state = game.new_initial_state()
    rng = np.random.default_rng(1)
    while state.is_chance_node():
        outcomes = [o for o, _ in state.chance_outcomes()]
        state.apply_action(int(rng.choice(outcomes)))
    player = state.current_player()
    assert player >= 0
    info = make_observation(game, pyspiel.IIGObservationType(perfect_recall=True))
    info.set_from(state, player)
    assert "observation" in info.dict and "history" in info.dict
    assert np.array_equal(info.tensor, np.array(state.information_state_tensor(player)))
    assert info.string_from(state, player) == state.information_state_string(player)
    obs = make_observation(game)
    obs.set_from(state, player)
    assert np.array_equal(obs.tensor, np.array(state.observation_tensor(player)))
    assert obs.string_from(state, player) == state.observation_string(player)
    with pytest.raises(ValueError, match="one player's view"):
        make_observation(
            game,
            pyspiel.IIGObservationType(
                perfect_recall=False, private_info=pyspiel.PrivateInfoType.NONE
            ),
        )


@pytest.mark.parametrize("name", GAMES)
def test_game_string_tensors_and_clone(name: str) -> None:
    game = pyspiel.load_game(name)
    assert pyspiel.load_game(str(game)).get_parameters() == game.get_parameters()
    n = game.num_players()
    size = cuatrola_obs.OBSERVATION_SIZE if "cuatrola" in name else cuarenta_obs.observation_size(n)
    assert game.observation_tensor_shape() == [size]
    assert game.information_state_tensor_shape()[0] > size
    state = game.new_initial_state()
    rng = np.random.default_rng(0)
    while state.is_chance_node():
        outcomes, probs = zip(*state.chance_outcomes(), strict=True)
        assert sum(probs) == pytest.approx(1.0)
        state.apply_action(int(rng.choice(outcomes)))
    player = state.current_player()
    assert len(state.observation_tensor(player)) == size
    assert len(state.information_state_tensor(player)) == game.information_state_tensor_size()
    clone = state.clone()
    action = state.legal_actions()[0]
    clone.apply_action(action)
    # The clone moved on; the original did not.
    assert state.current_player() == player and action in state.legal_actions()
    assert clone.history() == [*state.history(), action]
    assert state.information_state_string(player) != clone.information_state_string(player)


def test_observation_tensor_is_the_environment_observation() -> None:
    from cuarenta_sim.rl import make_env

    game = pyspiel.load_game("python_cuarenta(players=2)")
    state = game.new_initial_state()
    env = make_env("cuarenta")
    env.reset(seed=0)
    # Replay the environment's chance (dealer, then the deck) into the OpenSpiel state.
    core = env.unwrapped.game
    state.apply_action(core.state.dealer)
    for card in core.state.deck[:10]:
        state.apply_action(card)
    seat = state.current_player()
    assert seat == core.current
    obs = env.observe(env.possible_agents[seat])
    assert np.array_equal(np.array(state.observation_tensor(seat), np.float32), obs["observation"])
    assert state.legal_actions() == np.flatnonzero(obs["action_mask"]).tolist()


@pytest.mark.parametrize(("rules", "players"), [("quito", 2), ("pagat", 4)])
def test_cuarenta_chance_nodes_deal_like_the_reference(rules: str, players: int) -> None:
    """Differential: feeding the reference engine's first dealer and decks in as chance
    outcomes, and its plays as actions, reproduces its trace and rewards its winner."""
    seed = 17
    log = play_game(rules, players, "random", seed=seed, level="chica", index=0)
    game = pyspiel.load_game(f"python_cuarenta(rules={rules},players={players})")
    state = game.new_initial_state()
    state.apply_action(log.first_dealer)
    decks = iter(e.deck for e in log.events if type(e).__name__ == "DataStart")
    plays = iter(action_of(e.outcome.play) for e in log.events if isinstance(e, PlayEvent))
    deck: list[int] = []
    while not state.is_terminal():
        if state.is_chance_node():
            if not deck:
                deck = list(next(decks))
            state.apply_action(deck.pop(0))
        else:
            state.apply_action(next(plays))
    core = state.core
    trace = np.array([e.row() for e in core.events]).reshape(-1, 17)
    assert np.array_equal(trace, log.trace)
    winner = log.game["winner"]
    assert state.returns() == [1.0 if s % 2 == winner else -1.0 for s in range(players)]


def test_cuatrola_chance_nodes_deal_like_the_reference() -> None:
    seed, rules = 6, "ro"
    ref = reference_trace(rules, "random", "threshold", seed, "game", 0)
    root, _ = root_from_seed(seed)
    game = pyspiel.load_game("python_cuatrola(rules=ro)")
    state = game.new_initial_state()
    state.apply_action(first_dealer(root, 0))
    actions = iter(
        BID0 + r[4] if r[0] == KIND_BID else r[3] for r in ref if r[0] in (KIND_BID, KIND_PLAY)
    )
    deck: list[int] = []
    while not state.is_terminal():
        if state.is_chance_node():
            if not deck:
                deck = shuffled_cards_py(root, 0, state.core.hand_index, 20)
            state.apply_action(deck.pop(0))
        else:
            state.apply_action(next(actions))
    assert state.core.trace == ref
    assert PyRng.for_stream(root, 0, 0, STREAM_GAME).randbelow(4) == first_dealer(root, 0)
    s0, s1 = ref[-1][7], ref[-1][8]
    winner = int(s1 > s0)
    assert state.returns() == [1.0 if s % 2 == winner else -1.0 for s in range(4)]


def test_rewards_sum_to_returns_and_are_zero_sum() -> None:
    game = pyspiel.load_game("python_cuarenta(players=4,point_reward=0.5,win_reward=2.0)")
    state = game.new_initial_state()
    rng = np.random.default_rng(3)
    total = np.zeros(4)
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = [o for o, _ in state.chance_outcomes()]
            state.apply_action(int(rng.choice(outcomes)))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
        total += state.rewards()
    assert np.allclose(total, state.returns())
    assert sum(state.returns()) == pytest.approx(0.0)
    scores = state.core.board.scores
    win = 2.0 if state.core.winner == 0 else -2.0
    assert state.returns()[0] == pytest.approx(0.5 * (scores[0] - scores[1]) + win)


@pytest.mark.parametrize(
    ("name", "message"),
    [
        (
            "python_cuarenta(foo=1)",
            "Unknown parameter 'foo'. Available parameters are: episode, players, point_reward, "
            "rules, win_reward",
        ),
        ("python_cuatrola(bar=2)", "Unknown parameter 'bar'. Available parameters are: episode"),
        ("python_cuarenta(players=3)", "players must be 2 or 4, got 3"),
        ("python_cuatrola(players=2)", "players must be 4, got 2"),
        ("python_cuarenta(episode=mesa)", "episode must be one of chica, data"),
        ("python_cuarenta(rules=nope)", "unknown preset 'nope'; accepted: quito"),
        ("python_cuarenta(rules=quito;nope:1)", "unknown switch"),
        ("python_cuatrola(rules=ro;target:0)", "switch target must be"),
    ],
)
def test_bad_game_parameters_name_what_is_accepted(name: str, message: str) -> None:
    with pytest.raises((ValueError, pyspiel.SpielError), match=message.replace("(", r"\(")):
        pyspiel.load_game(name)


def test_illegal_action_and_chance_errors() -> None:
    game = pyspiel.load_game("python_cuatrola")
    state = game.new_initial_state()
    with pytest.raises(
        ValueError, match=r"chance outcome 7 is not possible here; accepted: \[0, 1"
    ):
        state.core.apply_chance(7)
    state.apply_action(0)  # dealer seat 0: the mano is seat 1
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    with pytest.raises(ValueError, match=r"is not legal for seat 1; legal: 20 \(pass\)"):
        state.core.apply_action(3)
