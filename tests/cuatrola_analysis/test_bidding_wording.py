"""The value-of-mano section's trump sentence is a claim whose number comes from a table row
(issue 18: it said "one trump more on average" where the data show about 0.79)."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pandas as pd
import pytest

from cuarenta_sim.cuatrola.bidding_checks import (
    exact_mean_trumps,
    exact_trumps_distribution,
    trumps_difference,
)
from cuarenta_sim.cuatrola.bidding_claims import dealer_trumps_claim
from cuarenta_sim.cuatrola.bidding_sections import prose as _prose
from cuarenta_sim.cuatrola.bidding_sections import value_cell as _cell
from cuarenta_sim.studies.claims import check_claims, render_claim, table_rows


def _outcomes(seed: int = 3, n: int = 4000) -> pd.DataFrame:
    """Hands dealt by the exact distributions (dealer every fourth hand)."""
    rng = np.random.default_rng(seed)
    pos = np.array(["mano", "second", "third", "dealer"] * (n // 4))
    dealer = pos == "dealer"
    trumps = np.where(
        dealer,
        rng.choice(6, size=n, p=[float(p) for p in exact_trumps_distribution(True)]),
        rng.choice(6, size=n, p=[float(p) for p in exact_trumps_distribution(False)]),
    )
    return pd.DataFrame({"position": pos, "trumps": trumps})


def test_exact_difference_is_not_one_trump() -> None:
    exact = Fraction(1) - Fraction(4, 19)
    assert exact_mean_trumps(True) - exact_mean_trumps(False) == pytest.approx(float(exact))
    assert abs(float(exact) - 1.0) > 0.2


def test_trump_sentence_prints_the_row_and_passes_the_claim_check() -> None:
    diff = trumps_difference(_outcomes())
    row = diff.set_index("hand_of").loc["dealer - non-dealer"]
    assert row["method"] == "welch" and row["lower"] < row["estimate"] < row["upper"]
    assert row["lower"] <= row["exact"] <= row["upper"]
    claim = dealer_trumps_claim(diff, _cell, policy="greedy", rules="ro")
    sentence = render_claim(claim)
    assert _cell(row["estimate"], row["lower"], row["upper"]) in sentence
    assert "one trump more" not in sentence and "0.789" in sentence
    check_claims([claim], tables={"trumps_difference": table_rows(diff, ("hand_of",))})


def test_mano_section_no_longer_states_one_trump_more() -> None:
    text = str(_prose().mano([], "P", "D", "S", "TRUMP SENTENCE."))
    assert "one trump more" not in text and "TRUMP SENTENCE." in text
