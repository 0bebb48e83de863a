"""Rank parsing and formatting (R1.1, R1.2, R1.3; scenario format of section F)."""

import pytest

from cuarenta_sim.cuarenta.cards import (
    RANK_NAMES,
    RANK_VALUES,
    card_name,
    card_rank,
    counts_to_ranks,
    format_ranks,
    parse_rank,
    parse_ranks,
    ranks_to_counts,
)


@pytest.mark.parametrize(
    ("text", "rank"),
    [
        ("A", 0),
        ("a", 0),
        ("1", 0),
        ("2", 1),
        ("7", 6),
        ("J", 7),
        ("j", 7),
        ("Q", 8),
        ("k", 9),
        ("10", 7),
        ("11", 8),
        ("12", 9),
        ("7h", 6),
        ("7♥", 6),
        ("Ks", 9),
        ("12o", 9),
        ("10e", 7),
        (" 5 ", 4),
        ("As", 0),
        ("Qc", 8),
    ],
)
def test_parse_rank_accepts_section_f_forms(text: str, rank: int) -> None:
    assert parse_rank(text) == rank


@pytest.mark.parametrize("text", ["8", "9", "10h", "10s", "11♥", "0", "", "7x", "JJ", "13", "B"])
def test_parse_rank_rejects_with_accepted_forms(text: str) -> None:
    with pytest.raises(ValueError, match="accepted ranks"):
        parse_rank(text)


def test_parse_rank_rejects_non_strings() -> None:
    with pytest.raises(ValueError, match="not a string"):
        parse_rank(7)


def test_parse_ranks_sorts_and_rejects_five_of_a_rank() -> None:
    """R1.1: four suits, so at most four cards of a rank."""
    assert parse_ranks(["K", "a", "5", "10"]) == [0, 4, 7, 9]
    with pytest.raises(ValueError, match="only 4"):
        parse_ranks(["5", "5h", "5d", "5c", "5s"])
    with pytest.raises(ValueError, match="list of card strings"):
        parse_ranks("55")


def test_values_and_order() -> None:
    """R1.2: faces have no value; R1.3: A..7 J Q K."""
    assert RANK_NAMES == ("A", "2", "3", "4", "5", "6", "7", "J", "Q", "K")
    assert RANK_VALUES[:7] == (1, 2, 3, 4, 5, 6, 7)
    assert RANK_VALUES[7:] == (0, 0, 0)


def test_counts_round_trip_and_card_ids() -> None:
    ranks = [0, 0, 4, 9]
    assert counts_to_ranks(ranks_to_counts(ranks)) == ranks
    assert format_ranks([9, 0, 7]) == ["A", "J", "K"]
    assert card_rank(39) == 9 and card_name(0) == "Ah" and card_name(27) == "7s"
