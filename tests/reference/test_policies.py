"""Built-in policies and observations (contract section 6)."""

from __future__ import annotations

import numpy as np
import pytest

from cuarenta_sim.cuarenta.cards import parse_rank
from cuarenta_sim.cuarenta.reference import (
    POLICIES,
    GreedyPolicy,
    Observation,
    Play,
    Policy,
    RandomPolicy,
    ScoreBoard,
    legal_plays,
    observe,
    play_game,
)
from cuarenta_sim.cuarenta.reference.state import DataState
from cuarenta_sim.cuarenta.rules import PRESETS, RuleSet
from cuarenta_sim.rng import STREAM_POLICY, PyRng, root_from_seed, shuffled_deck_py


def counts(*names: str) -> tuple[int, ...]:
    c = [0] * 10
    for n in names:
        c[parse_rank(n)] += 1
    return tuple(c)


def make_obs(
    hand: tuple[int, ...],
    table: tuple[int, ...],
    *,
    rules: RuleSet = PRESETS["quito"],
    trail: int | None = None,
    in_ronda: bool = False,
    scores: tuple[int, int] = (0, 0),
) -> Observation:
    return Observation(
        seat=0,
        players=2,
        rules=rules,
        dealer=1,
        deal=0,
        hand=hand,
        table=table,
        played=(0,) * 10,
        piles=(0, 0),
        scores=scores,
        trail=trail,
        trail_in_ronda=in_ronda,
        plays=tuple(legal_plays(hand, table, rules)),
    )


def test_registry_metadata() -> None:
    assert set(POLICIES) == {"random", "greedy", "heuristic", "pimc", "solver"}
    assert POLICIES["random"].stochastic and not POLICIES["greedy"].stochastic
    assert all(p.name == name for name, p in POLICIES.items())


def test_greedy_trails_the_lowest_rank_when_nothing_scores() -> None:
    obs = make_obs(counts("K", "3", "6"), counts("Q"))
    assert obs.plays[GreedyPolicy().choose(obs, PyRng(0))] == Play(parse_rank("3"), ())


def test_greedy_prefers_points_then_cards_then_canonical_order() -> None:
    # Match 5 (+run 6) takes 3 cards, the sum 2+3 (+run 6) takes 4: no points, more cards.
    obs = make_obs(counts("5"), counts("5", "2", "3", "6"))
    assert obs.plays[GreedyPolicy().choose(obs, PyRng(0))].base == (1, 2)
    # With B's 5 just trailed the match is a caida: 2 points beat more cards.
    obs = make_obs(counts("5"), counts("5", "2", "3", "6"), trail=parse_rank("5"))
    assert obs.plays[GreedyPolicy().choose(obs, PyRng(0))].base == (4,)
    # Claims count as points (pagat caida en ronda: 10 at the end of the deal).
    pagat = PRESETS["pagat"]
    obs = make_obs(
        counts("4", "7"), counts("4", "3", "A", "2"), rules=pagat, trail=3, in_ronda=True
    )
    chosen = obs.plays[GreedyPolicy().choose(obs, PyRng(0))]
    assert chosen == Play(3, (3,))
    assert obs.outcome(chosen).claim == 10


class Recording:
    """Wraps a policy and records every observation and choice."""

    def __init__(self, inner: Policy) -> None:
        self.inner = inner
        self.name = inner.name
        self.stochastic = inner.stochastic
        self.seen: list[tuple[Observation, int]] = []

    def choose(self, obs: Observation, rng: PyRng) -> int:
        choice = self.inner.choose(obs, rng)
        self.seen.append((obs, choice))
        return choice


def test_random_draws_randbelow_from_the_seat_stream() -> None:
    """Contract 6: plays[randbelow(len(plays))], one draw per turn from STREAM_POLICY + seat."""
    seed, index = 17, 4
    recorders = [Recording(RandomPolicy()) for _ in range(2)]
    log = play_game("quito", 2, recorders, seed=seed, level="data", index=index)
    plain = play_game("quito", 2, "random", seed=seed, level="data", index=index)
    assert np.array_equal(log.trace, plain.trace)
    root, _ = root_from_seed(seed)
    for seat, rec in enumerate(recorders):
        rng = PyRng.for_stream(root, index, 0, STREAM_POLICY + seat)
        assert len(rec.seen) == 20
        for obs, choice in rec.seen:
            assert choice == rng.randbelow(len(obs.plays))


def test_observation_hides_other_hands_and_the_stock() -> None:
    """Contract 6: changing hidden cards never changes what a seat observes or chooses."""
    rules = PRESETS["cuenca"]
    root, _ = root_from_seed(5)
    state = DataState.start(rules, 2, 1, shuffled_deck_py(root, 0, 0))
    state.deal_next()
    board = ScoreBoard(rules, [4, 6])
    before = observe(state, 0, board)
    # Swap a card of the opponent's hand with one in the stock: hidden information only.
    state.hands[1][0], state.stock[0] = state.stock[0], state.hands[1][0]
    after = observe(state, 0, board)
    assert before == after
    for policy in (GreedyPolicy(), RandomPolicy()):
        assert policy.choose(before, PyRng(7)) == policy.choose(after, PyRng(7))


@pytest.mark.parametrize("preset", list(PRESETS))
def test_greedy_choice_is_the_first_best_in_every_turn(preset: str) -> None:
    """Contract 6: largest points (claims included), then cards, first on ties."""
    recorders = [Recording(GreedyPolicy()) for _ in range(4)]
    play_game(preset, 4, recorders, seed=2, level="chica")
    for rec in recorders:
        assert rec.seen
        for obs, choice in rec.seen:
            keys = []
            for play in obs.plays:
                out = obs.outcome(play)
                keys.append((out.points + out.claim, len(out.captured)))
            assert keys[choice] == max(keys)
            assert keys.index(max(keys)) == choice
