"""The PettingZoo environments: PettingZoo's own checks, the reference engine, bad input."""

from __future__ import annotations

import importlib
import re
import subprocess
import sys
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from cuarenta_sim.cuarenta.actions import action_of
from cuarenta_sim.cuarenta.reference import play_game
from cuarenta_sim.cuarenta.reference.events import PlayEvent
from cuarenta_sim.cuatrola.reference import reference_trace
from cuarenta_sim.cuatrola.reference.step import BID0
from cuarenta_sim.cuatrola.trace_format import KIND_BID, KIND_PLAY
from cuarenta_sim.rl import INSTALL_HINT, make_env

CONFIGS: list[dict[str, Any]] = [
    {"game": "cuarenta", "rules": "quito", "players": 2},
    {"game": "cuarenta", "rules": "pagat", "players": 4},
    {"game": "cuarenta", "rules": "quito_torneo", "players": 2, "episode": "data"},
    {"game": "cuatrola", "rules": "ro"},
    {"game": "cuatrola", "rules": "online", "episode": "hand", "point_reward": 0.5},
]
#: Warnings PettingZoo's api_test gives every dict-observation environment: it allow-lists
#: its own classic games (the same {"observation", "action_mask"} convention) by name, and it
#: checks the (all-zero, correctly) action mask of agents whose episode has ended.
DICT_OBS_WARNINGS = (
    "Observation is not a NumPy array",
    "Observation space for each agent probably should be gymnasium.spaces.box or "
    "gymnasium.spaces.discrete",
    "Action mask numpy array is all zeros (no legal actions).",
)


def _ids(cfg: dict[str, Any]) -> str:
    return "-".join(str(v) for v in cfg.values())


@pytest.mark.parametrize("cfg", CONFIGS, ids=_ids)
def test_pettingzoo_api_test(cfg: dict[str, Any], capsys: pytest.CaptureFixture[str]) -> None:
    env = make_env(**cfg)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(env, num_cycles=1000)
    assert "Passed API test" in capsys.readouterr().out
    unexpected = [str(w.message) for w in caught if str(w.message) not in DICT_OBS_WARNINGS]
    assert unexpected == []


@pytest.mark.parametrize("cfg", CONFIGS, ids=_ids)
def test_pettingzoo_seed_test(cfg: dict[str, Any]) -> None:
    seed_test(lambda: make_env(**cfg), num_cycles=1000)


def _play_random(env: Any, seed: int, rng: np.random.Generator) -> list[int]:
    """Play one episode with random legal actions; return the actions."""
    env.reset(seed=seed)
    actions = []
    for agent in env.agent_iter():
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            env.step(None)
            continue
        a = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        actions.append(a)
        env.step(a)
        del agent
    return actions


def test_seeded_reset_repeats_and_next_reset_moves_on() -> None:
    env = make_env("cuarenta")
    first = _play_random(env, 5, np.random.default_rng(0))
    again = _play_random(env, 5, np.random.default_rng(0))
    assert first == again
    env.reset(seed=5)
    deck0 = env.unwrapped.game.state.deck
    env.reset()
    assert env.game_index == 1 and env.unwrapped.game.state.deck != deck0


@pytest.mark.parametrize(
    ("rules", "players"), [("quito", 2), ("cuenca", 4), ("pagat", 2), ("quito_torneo", 4)]
)
@pytest.mark.parametrize("episode", ["chica", "data"])
def test_cuarenta_env_reproduces_the_reference_trace(
    rules: str, players: int, episode: str
) -> None:
    """Differential: the reference engine plays seeded games with random policies; the
    environment, reset with the same seed and fed the same plays, deals the same decks and
    produces the same trace row for row (contract section 7), and rewards the winner."""
    seed = 21
    env = make_env("cuarenta", rules=rules, players=players, episode=episode, point_reward=1.0)
    for index in range(2):
        log = play_game(rules, players, "random", seed=seed, level=episode, index=index)
        plays = [action_of(e.outcome.play) for e in log.events if isinstance(e, PlayEvent)]
        if index == 0:
            env.reset(seed=seed)
        else:
            env.reset()
        returns = dict.fromkeys(env.possible_agents, 0.0)
        it = iter(plays)
        for agent in env.agent_iter():
            _, reward, term, trunc, _ = env.last()
            returns[agent] += reward
            env.step(None if term or trunc else next(it))
        assert next(it, None) is None
        trace = np.array([e.row() for e in env.unwrapped.game.events]).reshape(-1, 17)
        assert np.array_equal(trace, log.trace)
        s0, s1 = log.trace[-1, 14], log.trace[-1, 15]
        winner = log.game["winner"] if episode == "chica" else (None if s0 == s1 else int(s1 > s0))
        win = [0.0, 0.0] if winner is None else [1.0 - 2 * winner, 2 * winner - 1.0]
        for s, agent in enumerate(env.possible_agents):
            side = s % 2
            points = (s0 - s1) if side == 0 else (s1 - s0)
            assert returns[agent] == pytest.approx(points + win[side])


@pytest.mark.parametrize(
    "rules", ["ro", "online", "ro(failed_contract=nobody,first_lead=declarer)"]
)
@pytest.mark.parametrize("episode", ["game", "hand"])
def test_cuatrola_env_reproduces_the_reference_trace(rules: str, episode: str) -> None:
    """Differential: same deals, same trace rows (Cuatrola contract section 6) and the
    winning pair rewarded, for seeded reference games with random play and threshold bids."""
    seed = 9
    env = make_env("cuatrola", rules=rules, episode=episode)
    for index in range(3):
        ref = reference_trace(rules, "random", "threshold", seed, episode, index)
        actions = [
            BID0 + r[4] if r[0] == KIND_BID else r[3] for r in ref if r[0] in (KIND_BID, KIND_PLAY)
        ]
        if index == 0:
            env.reset(seed=seed)
        else:
            env.reset()
        returns = dict.fromkeys(env.possible_agents, 0.0)
        it = iter(actions)
        for agent in env.agent_iter():
            _, reward, term, trunc, _ = env.last()
            returns[agent] += reward
            env.step(None if term or trunc else next(it))
        assert next(it, None) is None
        assert env.unwrapped.game.trace == ref
        s0, s1 = ref[-1][7], ref[-1][8]
        winner = None if s0 == s1 else int(s1 > s0)
        for s, agent in enumerate(env.possible_agents):
            want = 0.0 if winner is None else (1.0 if s % 2 == winner else -1.0)
            assert returns[agent] == want


def test_illegal_action_raises_with_the_legal_ones() -> None:
    env = make_env("cuarenta")
    env.reset(seed=1)
    obs, *_ = env.last()
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    with pytest.raises(ValueError, match=r"is not legal for player_\d; legal actions: \d+ \("):
        env.step(illegal)
    with pytest.raises(ValueError, match="whole number from 0 to 52"):
        env.step(53)
    with pytest.raises(ValueError, match="whole number from 0 to 52"):
        env.step("7")  # type: ignore[arg-type]
    env = make_env("cuatrola")
    env.reset(seed=1)
    with pytest.raises(ValueError, match=r"legal actions: 20 \(pass\)"):
        env.step(0)


def test_illegal_action_penalty_ends_the_episode() -> None:
    env = make_env("cuatrola", illegal_action_penalty=-3.0)
    env.reset(seed=1)
    agent = env.agent_selection
    env.step(0)  # a card while bidding
    assert all(env.terminations.values())
    rewards = {}
    for a in env.agent_iter():
        obs, reward, term, _, info = env.last()
        assert term and not obs["action_mask"].any()
        rewards[a] = reward
        if a == agent:
            assert info == {"illegal_action": True}
        env.step(None)
    assert rewards[agent] == -3.0
    assert all(r == 0.0 for a, r in rewards.items() if a != agent)


def test_step_after_the_end_and_before_reset() -> None:
    env = make_env("cuatrola", episode="hand")
    with pytest.raises(ValueError, match=r"call reset\(\) before step\(\)"):
        env.step(20)
    _play_random(env, 3, np.random.default_rng(1))
    with pytest.raises(ValueError, match="the episode is over: call reset"):
        env.step(20)
    env.reset(seed=3)
    while not env.terminations[env.agent_selection]:
        env.step(int(np.flatnonzero(env.last()[0]["action_mask"])[0]))
    with pytest.raises(ValueError, match="has finished: the only accepted action is None"):
        env.step(20)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"foo": 1}, "unknown make_env parameter foo; accepted: game, rules, players, episode"),
        ({"game": "chess"}, "unknown game 'chess'; accepted: cuarenta, cuatrola"),
        ({"players": 3}, "players must be 2 or 4 for cuarenta"),
        ({"game": "cuatrola", "players": 2}, "players must be 4 for cuatrola"),
        ({"episode": "mesa"}, "unknown episode 'mesa' for Cuarenta; accepted: chica, data"),
        ({"game": "cuatrola", "episode": "data"}, "accepted: game, hand"),
        ({"rules": "nope"}, "unknown preset 'nope'"),
        ({"win_reward": "1"}, "win_reward must be a finite number"),
        ({"render_mode": "rgb_array"}, "accepted: None, ansi, human"),
    ],
)
def test_bad_parameters_name_what_is_accepted(kwargs: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message.replace("(", r"\(")):
        make_env(**kwargs)


@pytest.mark.parametrize("game", ["cuarenta", "cuatrola"])
def test_render_is_text(game: str, capsys: pytest.CaptureFixture[str]) -> None:
    env = make_env(game, render_mode="ansi")
    env.reset(seed=2)
    text = env.render()
    assert isinstance(text, str)
    assert "player_0" in text and "scores 0-0" in text and "to " in text
    env = make_env(game, render_mode="human")
    env.reset(seed=2)
    assert "player_1" in capsys.readouterr().out
    assert make_env(game).render() is None


def test_make_env_without_the_rl_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    """A missing RL package gives an error naming the extra to install."""
    real_import = importlib.import_module

    def without_rl(name: str, package: str | None = None) -> Any:
        if name.split(".")[0] in ("pettingzoo", "gymnasium", "pyspiel"):
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return real_import(name, package)

    monkeypatch.setattr(importlib, "import_module", without_rl)
    for module in ("cuarenta_sim.rl.pettingzoo_env", "cuarenta_sim.rl.openspiel"):
        monkeypatch.delitem(sys.modules, module, raising=False)
    hint = re.escape(INSTALL_HINT)
    with pytest.raises(ModuleNotFoundError, match=f"needs 'pettingzoo'.*; {hint}"):
        make_env("cuarenta")
    with pytest.raises(ModuleNotFoundError, match=f"needs 'pyspiel'.*; {hint}"):
        importlib.__import__("cuarenta_sim.rl.openspiel")


def test_importing_the_package_does_not_import_rl_libraries() -> None:
    code = (
        "import sys, cuarenta_sim.rl; "
        "bad = [m for m in ('pettingzoo', 'gymnasium', 'pyspiel') if m in sys.modules]; "
        "assert not bad, bad"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def _returns_with(make: Callable[[], Any], seed: int) -> dict[str, float]:
    env = make()
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    total = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        obs, reward, term, trunc, _ = env.last()
        total[agent] += reward
        env.step(None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    return total


def test_rewards_are_zero_sum_between_the_sides() -> None:
    for make in (
        lambda: make_env("cuarenta", players=4, point_reward=0.25),
        lambda: make_env("cuatrola", point_reward=1.0, win_reward=2.0),
    ):
        total = _returns_with(make, 4)
        values = list(total.values())
        assert sum(values) == pytest.approx(0.0)
        assert values[0] == values[2] and values[1] == values[3]
        assert values[0] != 0.0


def test_an_episode_decided_by_the_deal_ends_at_reset() -> None:
    """A ``win_chica`` doble ronda dealt in the first deal wins the chica before anyone plays
    (R4.2): reset leaves every agent terminated, the winners' reward waiting for them."""
    env = make_env("cuarenta", players=4)
    env.reset(seed=0)
    for _ in range(5000):
        if all(env.terminations.values()):
            break
        env.reset()
    else:
        pytest.fail("no chica decided by its first deal in 5000 games")
    core = env.unwrapped.game
    assert core.decisions == 0 and core.board.winner is not None
    winner = core.board.winner
    seen = {}
    for agent in env.agent_iter():
        obs, reward, term, _, _ = env.last()
        assert term and not obs["action_mask"].any()
        seen[agent] = reward
        env.step(None)
    assert seen == {
        a: (1.0 if s % 2 == winner else -1.0) for s, a in enumerate(env.possible_agents)
    }
    assert env.agents == []
