"""Hand classes of the Cuatrola bidding analysis, on hand-built and random hands."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from cuarenta_sim.cuatrola.bidding import (
    CLASS_VALUES,
    MAX_STRENGTH,
    POSITIONS,
    hand_classes,
    position_of,
)
from cuarenta_sim.cuatrola.cards import parse_cards, to_mask
from cuarenta_sim.cuatrola.policies import hand_strength


def _classes(cards: str, trump: str, position: int) -> dict[str, object]:
    mask = to_mask(parse_cards(cards))
    frame = hand_classes(np.array([mask]), np.array(["oceb".index(trump)]), np.array([position]))
    return {k: frame[k].iloc[0] for k in frame.columns}


@pytest.mark.parametrize(
    ("cards", "trump", "position", "expected"),
    [
        # five trumps: all of oros with trump oros (only the dealer can hold them)
        (
            "Ao 3o Ro Co So",
            "o",
            3,
            {
                "trumps": 5,
                "aces_threes": 2,
                "trump_aces_threes": 2,
                "plain_aces_threes": 0,
                "trump_rc": True,
                "strength": 22,
                "position": "dealer",
            },
        ),
        # no trump, every ace and three of the other suits but one
        (
            "Ac 3c Ae 3e Ab",
            "o",
            0,
            {
                "trumps": 0,
                "aces_threes": 5,
                "trump_aces_threes": 0,
                "plain_aces_threes": 5,
                "trump_rc": False,
                "strength": 3 + 2 + 3 + 2 + 3,
                "position": "mano",
            },
        ),
        # R and C of trumps (cante de 40) plus a plain sota and rey
        (
            "Rb Cb Sc Re 3o",
            "b",
            1,
            {
                "trumps": 2,
                "aces_threes": 1,
                "trump_aces_threes": 0,
                "plain_aces_threes": 1,
                "trump_rc": True,
                "strength": 4 + 4 + 0 + 0 + 2,
                "position": "second",
            },
        ),
        # R and C of a plain suit are no cante de 40
        (
            "Rc Cc Ae So Se",
            "e",
            2,
            {
                "trumps": 2,
                "aces_threes": 1,
                "trump_aces_threes": 1,
                "plain_aces_threes": 0,
                "trump_rc": False,
                "strength": 6 + 3 + 0 + 0 + 0,
                "position": "third",
            },
        ),
    ],
)
def test_known_hands(cards: str, trump: str, position: int, expected: dict[str, object]) -> None:
    got = _classes(cards, trump, position)
    assert {k: got[k] for k in expected} == expected


def test_strength_matches_hand_strength_on_random_hands() -> None:
    rng = np.random.default_rng(7)
    hands = [rng.choice(20, size=5, replace=False) for _ in range(3000)]
    trumps = rng.integers(0, 4, size=3000)
    masks = np.array([to_mask(int(c) for c in h) for h in hands])
    frame = hand_classes(masks, trumps, np.zeros(3000, dtype=np.int64))
    want = [hand_strength([int(c) for c in h], int(t)) for h, t in zip(hands, trumps, strict=True)]
    assert frame["strength"].astype(int).tolist() == want
    assert int(frame["strength"].astype(int).max()) <= MAX_STRENGTH == 22


def test_class_columns_keep_every_category() -> None:
    frame = hand_classes(
        np.array([to_mask(parse_cards("Ao 3o Ro Co So"))]), np.array([0]), np.array([3])
    )
    for name, values in CLASS_VALUES.items():
        assert isinstance(frame[name].dtype, pd.CategoricalDtype)
        assert list(frame[name].cat.categories) == list(values)
    counts = frame.groupby("trumps", observed=False).size()
    assert counts.tolist() == [0, 0, 0, 0, 0, 1]  # empty classes stay, with 0


def test_position_relative_to_the_dealer() -> None:
    assert [POSITIONS[position_of(0, d)] for d in range(4)] == ["dealer", "third", "second", "mano"]
    assert position_of(np.array([1, 2]), np.array([0, 0])).tolist() == [0, 1]


@pytest.mark.parametrize(
    ("dealt", "trump", "position", "needle"),
    [
        ([1 << 20], [0], [0], "20-bit card masks"),
        ([-1], [0], [0], "20-bit card masks"),
        ([31], [4], [0], "must lie in 0..3"),
        ([31], [0], [5], "must lie in 0..3"),
        ([31, 31], [0], [0], "equal length"),
    ],
)
def test_bad_input(dealt: list[int], trump: list[int], position: list[int], needle: str) -> None:
    with pytest.raises(ValueError, match=needle):
        hand_classes(np.array(dealt), np.array(trump), np.array(position))
