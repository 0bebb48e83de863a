"""Exact dealing odds (R4) by combinatorics, against closed forms and an independent shuffle."""

from fractions import Fraction
from math import comb

import numpy as np
import pytest

from cuarenta_sim.cuarenta import odds

HANDS = comb(40, 5)


def test_hand_odds_equal_closed_forms() -> None:
    """R4.1/R4.2: exactly three, or four, of one rank in 5 cards."""
    assert odds.hand_probability("ronda") == Fraction(10 * comb(4, 3) * comb(36, 2), HANDS)
    assert odds.hand_probability("doble_ronda") == Fraction(10 * 36, HANDS)
    assert odds.hand_probability("ronda_or_better") == Fraction(10 * 4 * 630 + 360, HANDS)


def test_scopes_are_ordered_and_side_is_the_same_for_2_and_4_players() -> None:
    for event in odds.EVENTS:
        hand = odds.hand_probability(event)
        seat4 = odds.data_probability(event, "seat", 4)
        side = odds.data_probability(event, "side", 2)
        anyone = odds.data_probability(event, "anyone", 2)
        assert hand < seat4 < side < anyone < 1
        assert side == odds.data_probability(event, "side", 4)
        assert odds.data_probability(event, "seat", 2) == side  # one player is the side
        # at least one of n hands is at most the union bound n * p
        assert anyone <= 8 * hand


def test_data_odds_against_an_independent_shuffle() -> None:
    """200,000 numpy-shuffled decks: each exact value within 4 standard errors."""
    rng = np.random.default_rng(20261130)
    n = 200_000
    deck = np.repeat(np.arange(10), 4)
    dealt = rng.permuted(np.tile(deck, (n, 1)), axis=1).reshape(n, 8, 5)
    counts = np.stack([(dealt == r).sum(axis=2) for r in range(10)], axis=2)
    for event, sizes in odds.EVENTS.items():
        has = np.isin(counts, sizes).any(axis=2)
        for who, k in (("seat", 2), ("side", 4), ("anyone", 8)):
            p = float(odds.data_probability(event, who, players=4))
            observed = has[:, :k].any(axis=1).mean()
            se = np.sqrt(p * (1 - p) / n)
            assert abs(observed - p) < 4 * se + 1e-12, (event, who, observed, p)


def test_expected_per_data_is_linear() -> None:
    assert odds.expected_per_data("ronda", "anyone") == 8 * odds.hand_probability("ronda")
    assert odds.expected_per_data("ronda", "seat", 4) == 2 * odds.hand_probability("ronda")


def test_next_player_holds() -> None:
    """R6.1 caida risk: you see `seen` of the rank; the next player holds h of the unseen."""
    assert odds.next_player_holds(4, 20, 5) == 0
    # one card of the rank unseen among 30, next player holds 5 of them: 5/30
    assert odds.next_player_holds(3, 30, 5) == Fraction(5, 30)
    assert odds.next_player_holds(1, 30, 5) == 1 - Fraction(comb(27, 5), comb(30, 5))
    assert odds.next_player_holds(2, 10, 0) == 0


@pytest.mark.parametrize(
    ("args", "message"),
    [((0, 20, 5), "seen"), ((5, 20, 5), "seen"), ((2, 3, 5), "unseen"), ((2, 20, 6), "next_hand")],
)
def test_next_player_holds_rejects_bad_counts(args: tuple[int, int, int], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        odds.next_player_holds(*args)


def test_bad_names() -> None:
    with pytest.raises(ValueError, match="accepted: ronda, doble_ronda"):
        odds.hand_probability("poker")
    with pytest.raises(ValueError, match="seat, side, anyone"):
        odds.data_probability("ronda", "dealer")
    with pytest.raises(ValueError, match="2 or 4"):
        odds.data_probability("ronda", "side", 3)


def test_odds_table_is_tidy() -> None:
    t = odds.odds_table(4)
    assert list(t.columns) == ["event", "scope", "players", "probability", "exact"]
    assert len(t) == 12 and t["probability"].between(0, 1).all()
    row = t[(t.event == "ronda") & (t.scope == "hand")].iloc[0]
    assert Fraction(row.exact) == odds.hand_probability("ronda")
