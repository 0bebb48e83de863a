"""The simulator deals like a fair shuffle: exact ronda odds inside a 99.9% interval (R4, R3)."""

from fractions import Fraction
from math import comb

import numpy as np

from cuarenta_sim import simulate
from cuarenta_sim.stats import ratio


def test_three_or_more_of_a_rank_matches_combinatorics() -> None:
    """P(a 5-card hand holds 3 or 4 of one rank) = (10 C(4,3) C(36,2) + 10 * 36) / C(40,5).

    One million datas deal eight 5-card hands each; the hands of a data are dependent, so the
    interval is the delta-method ratio interval over datas (cuarenta_sim.stats.ratio).
    """
    exact = Fraction(10 * comb(4, 3) * comb(36, 2) + 10 * 36, comb(40, 5))
    hands = simulate(rules="quito", players=2, policies="random", n=1_000_000, seed=11).hands
    events = (
        hands[["rondas_0", "rondas_1", "doble_rondas_0", "doble_rondas_1"]]
        .to_numpy(np.int64)
        .sum(axis=1)
    )
    row = ratio("ronda or better per hand", events, np.full(len(hands), 8), confidence=0.999)
    assert row["n"] == 1_000_000
    assert row["lower"] <= float(exact) <= row["upper"], (row, float(exact))
    # The interval is tight enough to matter: a 2% relative bias would fall outside it.
    assert row["upper"] - row["lower"] < 0.02 * float(exact)
