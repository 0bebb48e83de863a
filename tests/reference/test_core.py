"""The step-level cores of the registered games (cuarenta_sim.core): the protocol, the JSON
form of a state and its history, returns, observations and resampling from one seat's view."""

from __future__ import annotations

import json
import random

import numpy as np
import pytest

from cuarenta_sim.core import (
    CHANCE,
    TERMINAL,
    Core,
    from_json,
    game_core,
    games_with_core,
    history_records,
    returns,
    to_json,
)
from cuarenta_sim.game import GAMES

#: (game, rules, players, episode) of the states the tests walk through.
CASES = [
    ("cuarenta", "quito", 2, "chica"),
    ("cuarenta", "pagat", 4, "data"),
    ("cuatrola", "ro", 4, "game"),
    ("cuatrola", "online", 4, "hand"),
]


def _core(name: str) -> Core:
    return game_core(GAMES[name])


def _walk(core: Core, state: object, rng: random.Random, steps: int) -> None:
    """Apply ``steps`` random actions (chance outcomes too) unless the episode ends."""
    for _ in range(steps):
        player = core.current_player(state)
        if player == TERMINAL:
            return
        if player == CHANCE:
            core.apply(state, rng.choice([o for o, _ in core.chance_outcomes(state)]))
        else:
            core.apply(state, rng.choice(core.legal_actions(state)))


def test_every_builtin_game_registers_a_core() -> None:
    assert games_with_core() == ["cuarenta", "cuatrola"]
    for name in games_with_core():
        core = _core(name)
        assert isinstance(core, Core) and core.name == name


@pytest.mark.parametrize(("name", "rules", "players", "episode"), CASES)
@pytest.mark.parametrize("chance", ["streams", "explicit"])
def test_json_round_trip(name: str, rules: str, players: int, episode: str, chance: str) -> None:
    core = _core(name)
    rng = random.Random(7)
    state = core.new_state(rules, players, episode, root=123, index=5, chance=chance)
    for _ in range(6):
        _walk(core, state, rng, 9)
        text = to_json(core, state)
        doc = json.loads(text)
        assert doc["game"] == name and doc["setup"]["chance"] == chance
        again = from_json(text)
        assert to_json(core, again) == text
        assert core.state_string(again) == core.state_string(state)
        assert core.legal_actions(again) == core.legal_actions(state)
        assert core.current_player(again) == core.current_player(state)
        for seat in range(players):
            assert core.observation(again, seat) == core.observation(state, seat)
            assert json.loads(json.dumps(core.observation(state, seat))) == core.observation(
                state, seat
            )
    records = history_records(core, state)
    assert [r["action"] for r in records] == core.history(state)
    assert all(isinstance(r["label"], str) and r["label"] for r in records)
    with pytest.raises(ValueError, match=r"not a cuarenta_sim\.core/1 state"):
        from_json({"format": "other"})


@pytest.mark.parametrize(("name", "rules", "players", "episode"), CASES)
def test_returns_are_zero_sum_and_follow_the_winner(
    name: str, rules: str, players: int, episode: str
) -> None:
    core = _core(name)
    state = core.new_state(rules, players, episode, root=9, index=1)
    _walk(core, state, random.Random(3), 100_000)
    assert core.current_player(state) == TERMINAL
    got = returns(core, state, win_reward=2.0, point_reward=0.5)
    s0, s1 = core.scores(state)
    winner = core.winner(state)
    side0 = 0.5 * (s0 - s1) + (0.0 if winner is None else (2.0 if winner == 0 else -2.0))
    assert got == [side0 if s % 2 == 0 else -side0 for s in range(players)]


@pytest.mark.parametrize(("name", "rules", "players", "episode"), CASES)
def test_resample_keeps_the_seat_view_and_plays_on(
    name: str, rules: str, players: int, episode: str
) -> None:
    """At decision nodes along explicit-chance episodes, a resampled world reads the same to
    the seat to act (observation and information state, strings and tensors), keeps its own
    cards, differs from the true world somewhere, and plays on to a legal end."""
    core = _core(name)
    rng = random.Random(11)
    uniform = np.random.default_rng(5).random
    size = core.observation_size(players)
    differed = checked = 0
    for index in range(3):
        state = core.new_state(rules, players, episode, index=index, chance="explicit")
        while core.current_player(state) != TERMINAL and checked < 40 * (index + 1):
            _walk(core, state, rng, rng.randrange(1, 6))
            seat = core.current_player(state)
            if seat < 0:
                continue
            new = core.resample(state, seat, uniform)
            checked += 1
            for recall in (False, True):
                assert core.observation_string(new, seat, recall) == core.observation_string(
                    state, seat, recall
                )
            a, b = np.empty(size, np.float32), np.empty(size, np.float32)
            assert np.array_equal(core.encode(new, seat, a), core.encode(state, seat, b))
            pieces = {k: np.zeros(shape, np.float32) for k, shape in core.info_pieces(players)}
            again = {k: np.zeros(shape, np.float32) for k, shape in core.info_pieces(players)}
            core.encode_info(new, seat, pieces)
            core.encode_info(state, seat, again)
            assert all(np.array_equal(pieces[k], again[k]) for k in pieces)
            assert core.observation(new, seat) == core.observation(state, seat)
            assert core.history(new) == core.history(state)
            differed += core.state_string(new) != core.state_string(state)
            _walk(core, new, rng, 100_000)
            assert core.current_player(new) == TERMINAL
    assert checked >= 10 and differed >= checked // 2
