"""A practical margin is printed with enough decimals to be non-zero (issue 18 cold read: a
margin of 0.0015 printed "no difference (within ±0.00 ...)")."""

from __future__ import annotations

import pytest

from cuarenta_sim.cuarenta.studies.common import margin_text, verdict_text
from cuarenta_sim.reports import format_significant


@pytest.mark.parametrize(
    ("value", "text"),
    [(0.0015, "0.0015"), (0.0534, "0.053"), (0.1, "0.10"), (1.5, "1.50"), (0.00999, "0.0100")],
)
def test_format_significant_keeps_two_significant_digits(value: float, text: str) -> None:
    assert format_significant(value) == text


def test_margin_of_0_0015_never_prints_as_zero() -> None:
    assert margin_text("points per data", 0.0015) == "0.0015"
    row = {
        "verdict": "negligible",
        "metric": "other points per data",
        "margin": 0.0015,
        "differing": 2730,
        "n": 250_000,
    }
    text = verdict_text(row)
    assert "±0.00;" not in text and "±0.0015;" in text
    assert text == "no difference (within ±0.0015; 2,730 of 250,000 pairs differ)"


def test_percent_margin_is_in_percentage_points() -> None:
    # A 0.1 pp margin of a percentage metric; a tiny one keeps its digits too.
    assert margin_text("first_dealer_wins", 0.001) == "0.10 pp"
    assert margin_text("first_dealer_wins", 0.000015) == "0.0015 pp"
