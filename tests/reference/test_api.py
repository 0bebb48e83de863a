"""The public API of the reference engine: play_game, GameLog, records (contract 2, 7, 8)."""

from __future__ import annotations

import numpy as np
import pytest

from cuarenta_sim.cuarenta.reference import (
    POLICIES,
    TRACE_COLUMNS,
    GameLog,
    RandomPolicy,
    deck_from_deals,
    play_deck,
    play_game,
)
from cuarenta_sim.cuarenta.reference.state import DataState, take_rank
from cuarenta_sim.cuarenta.rules import PRESETS, RuleSet
from cuarenta_sim.rng import root_from_seed, shuffled_deck_py

SIDE_COLUMNS = (
    "cards",
    "rondas",
    "doble_rondas",
    "caidas",
    "caidas_en_ronda",
    "limpias",
    "caidas_limpias",
    "points",
    "ronda_points",
    "caida_points",
    "limpia_points",
    "carton_points",
    "other_points",
)
DATA_COLUMNS = {
    "hand",
    "dealer",
    *(f"{c}_{k}" for c in SIDE_COLUMNS for k in (0, 1)),
    "plays",
    "leftover",
    "last_capturer",
}
GAME_COLUMNS = {
    "game",
    "first_dealer",
    "winner",
    "score_0",
    "score_1",
    "hands",
    "zapateria",
    "decided_at_38",
    "win_kind",
    "truncated",
}


def test_trace_has_the_17_contract_columns() -> None:
    assert len(TRACE_COLUMNS) == 17
    log = play_game("quito", 2, ("greedy", "greedy"), seed=0, level="data", index=0)
    assert isinstance(log, GameLog)
    assert log.trace.dtype == np.int64 and log.trace.shape[1] == 17
    assert len(log.trace) == len(log.steps())


@pytest.mark.parametrize("level", ["data", "chica", "mesa"])
def test_record_columns_per_level(level: str) -> None:
    """Contract section 8: the columns of Results.hands and Results.games, per level."""
    log = play_game("pagat", 4, "random", seed=1, level=level, index=2)
    extra = {"data": set(), "chica": {"game", "score_0", "score_1", "ended"}}
    extra["mesa"] = extra["chica"] | {"chica"}
    for rec in log.hands:
        assert set(rec) == DATA_COLUMNS | extra[level]
    if level == "data":
        assert log.game is None and log.hands[0]["hand"] == 2
    else:
        assert log.game is not None
        mesa = {"chicas_0", "chicas_1"} if level == "mesa" else set()
        assert set(log.game) == GAME_COLUMNS | mesa
        assert log.game["game"] == 2


@pytest.mark.parametrize(
    "rules",
    [
        "quito",
        "quito(max_sum_cards=2)",
        {"preset": "quito", "max_sum_cards": 2},
        PRESETS["quito"].replace(max_sum_cards=2),
    ],
)
def test_rules_accepted_in_every_form(rules: object) -> None:
    log = play_game(rules, 2, "greedy", seed=3)  # type: ignore[arg-type]
    assert log.rules == RuleSet.preset("quito", max_sum_cards=2) or rules == "quito"


def test_same_inputs_same_game_and_seeds_differ() -> None:
    a = play_game("cuenca", 2, ("random", "greedy"), seed=42, level="chica", index=5)
    b = play_game("cuenca", 2, ("random", "greedy"), seed=42, level="chica", index=5)
    c = play_game("cuenca", 2, ("random", "greedy"), seed=43, level="chica", index=5)
    assert np.array_equal(a.trace, b.trace) and a.hands == b.hands and a.game == b.game
    assert not np.array_equal(a.trace, c.trace)


def test_seed_none_records_the_entropy_used() -> None:
    log = play_game("quito", 2, "random", seed=None)
    again = play_game("quito", 2, "random", seed=log.seed)
    assert np.array_equal(log.trace, again.trace)


def test_policies_by_seat_side_or_all() -> None:
    one = play_game("quito", 4, "greedy", seed=1)
    assert one.policies == ("greedy",) * 4
    two = play_game("quito", 4, ("greedy", "random"), seed=1)
    assert two.policies == ("greedy", "random", "greedy", "random")
    four = play_game("quito", 4, ("random", "random", "greedy", "greedy"), seed=1)
    assert four.policies == ("random", "random", "greedy", "greedy")
    obj = play_game("quito", 2, [RandomPolicy(), POLICIES["greedy"]], seed=1)
    assert obj.policies == ("random", "greedy")


@pytest.mark.parametrize(
    ("kwargs", "says"),
    [
        ({"policies": ("greedy", "clever")}, "accepted: random, greedy"),
        ({"policies": ("greedy",) * 3}, "give 1 policy"),
        ({"policies": (42,)}, "policy must be"),
        ({"players": 3}, "players must be 2 or 4"),
        ({"level": "torneo"}, "unknown level"),
        ({"index": -1}, "index"),
        ({"seed": -5}, "seed"),
        ({"rules": "quitoo"}, "unknown preset"),
    ],
)
def test_bad_arguments_raise_value_error(kwargs: dict[str, object], says: str) -> None:
    args: dict[str, object] = {"rules": "quito", "players": 2, "policies": "greedy", "seed": 0}
    args.update(kwargs)
    with pytest.raises(ValueError, match=says):
        play_game(**args)  # type: ignore[arg-type]


def test_a_policy_returning_a_bad_index_is_an_error() -> None:
    class Broken:
        name = "broken"
        stochastic = False

        def choose(self, obs: object, rng: object) -> int:
            return 99

    with pytest.raises(ValueError, match="broken"):
        play_game("quito", 2, Broken(), seed=0)


def test_level_data_uses_hand_index_for_deck_and_dealer() -> None:
    """Contract 2: at level data, game = hand index, data = 0, dealer = index % n."""
    log = play_game("quito", 4, "greedy", seed=9, level="data", index=6)
    assert log.first_dealer == 2 and log.hands[0]["dealer"] == 2
    root, _ = root_from_seed(9)
    deck = shuffled_deck_py(root, 6, 0)
    same = play_deck("quito", 4, deck, dealer=2, policies="greedy", stop_at_target=False)
    assert np.array_equal(log.trace, same.trace)


def test_play_deck_validation() -> None:
    deck = list(range(40))
    with pytest.raises(ValueError, match="permutation"):
        play_deck("quito", 2, deck[:-1], dealer=0)
    with pytest.raises(ValueError, match="dealer"):
        play_deck("quito", 2, deck, dealer=2)
    with pytest.raises(ValueError, match="even"):
        play_deck("quito", 2, deck, dealer=0, scores=(1, 0))


def test_deck_from_deals_positions() -> None:
    """Contract 2: in deal d the p-th seat after the dealer gets positions (d*n + p)*5..."""
    deck = deck_from_deals([[[0, 0, 0, 1, 2], [9, 9, 9, 9, 8]]], players=2, dealer=0)
    assert sorted(deck) == list(range(40))
    assert [c // 4 for c in deck[:5]] == [9, 9, 9, 9, 8]  # seat 1 leads: dealt first
    assert [c // 4 for c in deck[5:10]] == [0, 0, 0, 1, 2]
    with pytest.raises(ValueError, match="rank"):
        deck_from_deals([[[0] * 5, [1] * 5]], players=2, dealer=0)
    with pytest.raises(ValueError, match="deals"):
        deck_from_deals([[[0] * 1]] * 5, players=2, dealer=0)


def test_state_moves_the_lowest_card_id_and_counts_to_forty() -> None:
    """Contract 1: playing a rank held twice plays its lowest card id."""
    cards = [23, 21, 5]
    assert take_rank(cards, 5) == 21 and cards == [23, 5]
    with pytest.raises(ValueError):
        take_rank(cards, 0)
    state = DataState.start(PRESETS["quito"], 2, 1, list(range(40)))
    for _ in range(4):
        state.deal_next()
        assert state.total_cards() == 40
    with pytest.raises(ValueError, match="every deal"):
        state.deal_next()
