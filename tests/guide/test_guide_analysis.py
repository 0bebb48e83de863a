"""Analyses of the player's guide on small runs: decisions, caida risk, dealer's edge."""

from __future__ import annotations

import numpy as np
import pytest

from cuarenta_sim import simulate
from cuarenta_sim.cuarenta import guide_analysis as ga


@pytest.fixture(scope="module")
def greedy_log():
    return ga.decision_log(
        "quito", 2, "greedy", 3, seed=4, value_policy="pimc(samples=4,depth=data)", value_samples=4
    )


def test_greedy_never_departs_from_itself(greedy_log) -> None:
    # The reference greedy and the kernel's greedy decision code choose the same play.
    assert not greedy_log["greedy_differs"].any()
    assert (greedy_log["legal"] >= 1).all()
    assert greedy_log["seen"].between(1, 4).all()


def test_decisions_cover_every_play_of_the_chicas(greedy_log) -> None:
    res = simulate(rules="quito", players=2, policies="greedy", n=3, level="chica", seed=4)
    plays = res.hands.groupby("game")["plays"].sum()
    assert greedy_log.groupby("game").size().to_numpy().tolist() == plays.to_numpy().tolist()
    caidas = res.hands.groupby("game")[["caidas_0", "caidas_1"]].sum().sum(axis=1)
    assert greedy_log.groupby("game")["next_caida"].sum().to_numpy().tolist() == caidas.tolist()


def test_all_four_seen_is_never_caught(greedy_log) -> None:
    risk = ga.caida_risk(greedy_log, ("seen",))
    four = risk[risk["seen"] == 4]
    assert four.empty or (four["successes"] == 0).all()
    assert (risk["lower"] >= 0).all() and (risk["upper"] <= 1).all()


def test_values_are_points_of_the_legal_plays(greedy_log) -> None:
    several = greedy_log[greedy_log["legal"] > 1]
    assert several["value_chosen"].notna().all()
    best = np.fmax(several["value_best_trail"], several["value_best_capture"])
    assert (several["value_chosen"] <= best + 1e-9).all()
    single = greedy_log[greedy_log["legal"] == 1]
    assert single["value_chosen"].isna().all()


def test_dealer_edge_sources_add_up() -> None:
    res = simulate(rules="quito", players=2, policies="greedy", n=300, seed=1)
    edge = ga.dealer_edge_by_source(res.hands, 2)
    by = edge.set_index("source")["estimate"]
    assert by[list(ga.SOURCES)].sum() == pytest.approx(by["total"])
    assert edge.set_index("source").loc["total", "method"] == "t"


def test_edge_by_deal_adds_up_to_the_records() -> None:
    n = 40
    by_deal, by_seat = ga.edge_by_deal_and_seat("quito", 2, "greedy", n, seed=2)
    res = simulate(rules="quito", players=2, policies="greedy", n=n, seed=2)
    edge = ga.dealer_edge_by_source(res.hands, 2).set_index("source")["estimate"]
    total = by_deal[by_deal["source"] == "all"]["estimate"].sum()
    assert total == pytest.approx(edge["total"])
    assert set(by_seat["position"]) == {1, 2}


def test_departure_kinds_partition_the_departures() -> None:
    log = ga.decision_log(
        "quito",
        2,
        "heuristic",
        2,
        seed=6,
        value_policy="pimc(samples=4,depth=data)",
        value_samples=4,
    )
    kinds = ga.departure_kinds(log, "greedy")
    assert list(kinds["kind"]) == list(ga.DEPARTURE_KINDS)
    assert kinds["successes"].sum() == int(log["greedy_differs"].sum())
    with pytest.raises(ValueError, match="versus must be"):
        ga.departure_kinds(log, "pimc")


def test_a_caida_needs_the_rank_in_the_next_hand(greedy_log) -> None:
    # R6.1: a caida matches the trailed rank, so the next player must have held it.
    caught = greedy_log[greedy_log["next_caida"]]
    assert len(caught) and caught["next_held"].all()
    risk = ga.caida_risk(greedy_log, ("seen",))
    assert (risk["taken"].dropna().between(0, 1)).all()
    assert (risk["estimate"] <= risk["held"] + 1e-12).all()
