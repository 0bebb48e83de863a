"""The numba kernel against the reference engine, trace row for trace row (contract 6).

Default suite: a few hundred hands and some games per preset; slow suite: 5,000 seeded hands
per preset and policy mix, and 300 games.
"""

from __future__ import annotations

import numpy as np
import pytest

from cuarenta_sim import simulate
from cuarenta_sim.cuatrola.engine.batch import trace_game
from cuarenta_sim.cuatrola.policies import resolve_bid_policies, resolve_play_policies
from cuarenta_sim.cuatrola.reference import play_hand, reference_trace
from cuarenta_sim.cuatrola.rules import resolve_rules
from cuarenta_sim.rng import root_from_seed

#: (play policies, bidding policies): random and greedy play, passing and bidding seats.
MIXES = [
    ("random", "threshold"),
    ("greedy", "never"),
    (["greedy", "random"], ["always(solo)", "threshold(solo=10,cuatrola=14,quintola=18)"]),
    (["random", "random", "greedy", "greedy"], ["always(quintola)", "never", "never", "never"]),
]
VARIANTS = [
    "ro",
    "online",
    "ro(first_lead=declarer,failed_contract=nobody,dealer_rotation=last_trick_winner)",
]


def _compare(rules: str, plays, bids, seed: int, level: str, index: int) -> None:
    ref = np.array(reference_trace(rules, plays, bids, seed, level, index), dtype=np.int64)
    ker = trace_game(rules, plays, bids, seed, level, index)
    assert ref.shape == ker.shape, (rules, plays, bids, level, index)
    bad = np.nonzero((ref != ker).any(axis=1))[0]
    assert bad.size == 0, (rules, plays, bids, level, index, ref[bad[0]], ker[bad[0]])


@pytest.mark.parametrize("rules", VARIANTS)
@pytest.mark.parametrize("mix", range(len(MIXES)))
def test_hands_agree(rules: str, mix: int) -> None:
    plays, bids = MIXES[mix]
    for i in range(60):
        _compare(rules, plays, bids, 11, "hand", i)


@pytest.mark.parametrize("rules", VARIANTS)
def test_games_agree(rules: str) -> None:
    for mix in range(len(MIXES)):
        plays, bids = MIXES[mix]
        for i in range(4):
            _compare(rules, plays, bids, 5, "game", i)


def test_records_match_the_reference() -> None:
    """The simulate frame's columns equal the reference engine's HandRecord, hand by hand."""
    res = simulate(
        "cuatrola",
        rules="ro",
        policies=["random", "greedy"],
        bid_policies="threshold",
        n=300,
        seed=3,
    )
    ruleset = resolve_rules("ro")
    root, _ = root_from_seed(3)
    plays = resolve_play_policies(["random", "greedy"])
    bids = resolve_bid_policies("threshold")
    for row in res.hands.itertuples(index=False):
        h = play_hand(ruleset, root, row.hand, 0, row.hand % 4, [0, 0], plays, bids)
        got = (
            row.dealer,
            row.trump,
            row.trump_card,
            row.contract,
            row.declarer,
            row.made,
            [row.tricks_0, row.tricks_1],
            [row.points_0, row.points_1],
            [row.cantes_0, row.cantes_1],
            [row.game_points_0, row.game_points_1],
            row.last_trick,
            [row.dealt_0, row.dealt_1, row.dealt_2, row.dealt_3],
        )
        want = (
            h.dealer,
            h.trump,
            h.trump_card,
            h.contract,
            h.declarer,
            h.made,
            h.tricks,
            h.points,
            h.cantes,
            h.game_points,
            h.last_trick,
            h.dealt,
        )
        assert got == want


@pytest.mark.slow
@pytest.mark.parametrize("rules", ["ro", "online"])
def test_five_thousand_hands_per_preset(rules: str) -> None:
    for i in range(5000):
        plays, bids = MIXES[i % len(MIXES)]
        _compare(rules, plays, bids, 2026, "hand", i)


@pytest.mark.slow
@pytest.mark.parametrize("rules", VARIANTS)
def test_hundred_games_per_variant(rules: str) -> None:
    for i in range(100):
        plays, bids = MIXES[i % len(MIXES)]
        _compare(rules, plays, bids, 99, "game", i)
