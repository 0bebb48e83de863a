"""Information discipline (issue 5 item 3): a policy's choice never depends on hidden cards.

For many observations met in real games, the kernel's in-game decision code
(:func:`cuarenta_sim.cuarenta.engine.play._observed_play`, what ``play_data`` calls) is run on full
states that agree with the observation but deal the unseen cards differently among the other
seats' hands (and hence the stock): the choice must stay the same, and equal the choice of
:func:`cuarenta_sim.cuarenta.engine.decide.decide` on the observation alone.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from cuarenta_sim.cuarenta.engine.batch import kernel_args
from cuarenta_sim.cuarenta.engine.decide import decide, observation_position
from cuarenta_sim.cuarenta.engine.layout import (
    KIND_MATCH,
    KIND_TRAIL,
    N_RNG,
    N_WORK,
    RNG_SEARCH,
    SUMS_PACKED,
    W_HANDS,
    W_KNOWN,
    W_PARAMS,
    W_PILES,
    W_POLICIES,
    W_RONDA,
    W_SCORES,
)
from cuarenta_sim.cuarenta.engine.play import _observed_play
from cuarenta_sim.cuarenta.policies import parse_policy
from cuarenta_sim.cuarenta.policies.kernel import N_PARAMS
from cuarenta_sim.cuarenta.reference import Observation, RandomPolicy, play_game
from cuarenta_sim.cuarenta.tables import pack_counts
from cuarenta_sim.rng import PyRng


class Recorder:
    """Plays random and records every observation with more than one legal play."""

    name = "random"
    stochastic = True

    def __init__(self) -> None:
        self.seen: list[Observation] = []

    def choose(self, obs: Observation, rng: PyRng) -> int:
        if len(obs.plays) > 1:
            self.seen.append(obs)
        return RandomPolicy().choose(obs, rng)


def observations(rules: str, players: int, games: int) -> list[Observation]:
    rec = Recorder()
    for i in range(games):
        play_game(rules, players, rec, seed=3, level="chica", index=i)
    return rec.seen


def hidden_world(obs: Observation, rnd: random.Random) -> list[int]:
    """Packed hands of every seat: own hand as observed, the others' known ronda cards plus a
    random share of the unseen cards (the rest would be the stock)."""
    n = obs.players
    unseen = [4 - obs.hand[q] - obs.played[q] for q in range(10)]
    for o in range(n):
        if o != obs.seat:
            for q in range(10):
                unseen[q] -= obs.known[o][q]
    pool = [q for q in range(10) for _ in range(unseen[q])]
    rnd.shuffle(pool)
    hands = []
    for o in range(n):
        if o == obs.seat:
            hands.append(pack_counts(list(obs.hand)))
            continue
        counts = list(obs.known[o])
        for _ in range(obs.hand_sizes[o] - sum(obs.known[o])):
            counts[pool.pop()] += 1
        hands.append(pack_counts(counts))
    return hands


def kernel_choice(spec: str, obs: Observation, hands: list[int], state: list[int]) -> tuple:
    """The play ``play_data`` would make for this seat in the full state ``hands``."""
    parsed = parse_policy(spec)
    kr, _, _, sums = kernel_args(obs.rules, obs.players, (parsed.id,) * obs.players)
    n = obs.players
    work = np.zeros(N_WORK, dtype=np.int64)
    rng = np.zeros(N_RNG, dtype=np.uint64)
    for o in range(n):
        work[W_HANDS + o] = hands[o]
        work[W_RONDA + o] = pack_counts([8 if q in obs.rondas[o] else 0 for q in range(10)])
        work[W_KNOWN + o] = pack_counts(list(obs.known[o]))
        work[W_POLICIES + o] = parsed.id
        work[W_PARAMS + N_PARAMS * o : W_PARAMS + N_PARAMS * (o + 1)] = parsed.row(n)
    work[W_SCORES : W_SCORES + 2] = obs.scores
    work[W_PILES : W_PILES + 2] = obs.piles
    off = RNG_SEARCH + 4 * obs.seat
    rng[off : off + 4] = np.array(state, dtype=np.uint64)
    pos = observation_position(obs)
    r, kind, i = _observed_play(kr, sums, work, rng, pos, bool(obs.trail_in_ronda))
    if kind == KIND_TRAIL:
        base: tuple[int, ...] = ()
    elif kind == KIND_MATCH:
        base = (int(r),)
    else:
        packed = int(sums[SUMS_PACKED + i])
        base = tuple(q for q in range(10) for _ in range((packed >> (4 * q)) & 15))
    return int(r), base


@pytest.mark.parametrize(
    "spec,rules,players,games,worlds",
    [
        ("heuristic", "quito", 2, 12, 4),
        ("heuristic(no_ace_trail=500,keep_table=300,no_run_start=200)", "pagat", 4, 4, 4),
        ("learned", "quito", 2, 12, 4),
        ("learned", "pagat", 4, 4, 4),
        ("pimc(samples=4)", "quito", 2, 4, 3),
        ("pimc(samples=3,depth=data,playout=greedy)", "cuenca", 4, 2, 3),
        ("solver(samples=4,exact=6)", "quito", 2, 4, 3),
        ("solver(samples=3,exact=6,stop=1)", "cuenca", 4, 2, 3),
    ],
)
def test_choice_ignores_hidden_cards(spec, rules, players, games, worlds) -> None:
    rnd = random.Random(11)
    seen = observations(rules, players, games)
    assert len(seen) > 40
    state = PyRng(99).s
    for obs in seen:
        expected = obs.plays[decide(spec, obs, state)]
        choices = {kernel_choice(spec, obs, hidden_world(obs, rnd), state) for _ in range(worlds)}
        assert choices == {(expected.rank, expected.base)}, obs


def test_worlds_really_differ() -> None:
    """The hidden worlds the test builds do change the other hands (the test can fail)."""
    rnd = random.Random(1)
    obs = observations("quito", 2, 1)[0]
    worlds = {tuple(hidden_world(obs, rnd)) for _ in range(20)}
    assert len(worlds) > 1
