"""The ``advise`` scenario kind (docs/engine_contract.md section 10): exact cases equal ``solve``,
sampled rows equal the reference twin, errors name their field, results are fixed by the seed."""

from __future__ import annotations

from typing import Any

import pytest

from cuarenta_sim.advice import advise
from cuarenta_sim.cuarenta.advise import (
    DEFAULT_SAMPLES,
    EXACT_PLAYS,
    PLAYOUT_POLICY,
    sampled_values,
    search_stream,
)
from cuarenta_sim.cuarenta.policies import parse_policy
from cuarenta_sim.cuarenta.reference.advice import advise_samples, advise_scenario_json
from cuarenta_sim.cuarenta.reference.positions import random_advice_position, random_position
from cuarenta_sim.cuarenta.reference.solver import solve_scenario
from cuarenta_sim.cuarenta.rules import PRESETS
from cuarenta_sim.scenario import evaluate

# Quito, 2 players, deal 2 of 4, seat 0 (the leader) to move at the deal's first turn: 10 cards
# played in deal 1 (8 captured, 2 on the table), 5 in hand, 25 unseen (seat 1's 5 and the 20
# still to be dealt).
MID: dict[str, Any] = {
    "kind": "advise",
    "rules": "quito",
    "players": 2,
    "dealer": 1,
    "seat": 0,
    "scores": [10, 4],
    "table": ["5", "J"],
    "hands": [["A", "4", "5", "Q", "K"], None],
    "unseen": ["A", "A", "A", "2", "2", "2", "3", "3", "3", "4", "4", "5", "6", "6", "6", "7",
               "7", "7", "J", "J", "Q", "Q", "K", "K", "K"],
    "cards": [5, 3],
    "last_capturer": 1,
}  # fmt: skip


def mid(**changes: Any) -> dict[str, Any]:
    return evaluate({**MID, **changes})


def test_mid_data_values_and_fields() -> None:
    out = mid(samples=64)
    assert "error" not in out, out
    assert out["exact"] is False and out["samples"] == 64
    cards = [(v["card"], v["base"]) for v in out["values"]]
    # Canonical order (contract 3): ranks ascending, each rank's trail before its captures.
    assert cards[0] == ("A", []) and ("5", ["5"]) in cards and ("5", []) in cards
    for v in out["values"]:
        assert v["lower"] <= v["value"] <= v["upper"]
        assert v["loss_lower"] <= v["loss"] <= v["loss_upper"]
        assert v["loss"] == pytest.approx(out["best"] - v["value"], abs=2e-4)
        # Paired over the same worlds, the loss is known more tightly than the value.
        assert v["loss_upper"] - v["loss_lower"] < v["upper"] - v["lower"]
    assert out["best"] == max(v["value"] for v in out["values"])
    best = next(v for v in out["values"] if v["value"] == out["best"])
    assert out["play"] == {"card": best["card"], "base": best["base"]}
    assert out["scores"][0] - MID["scores"][0] == out["points"][0]


def test_deal_inferred_and_checked() -> None:
    assert mid(deal=2, samples=8)["values"] == mid(samples=8)["values"]
    out = mid(deal=3, samples=8)
    assert out["error"].startswith("cards and table:"), out


@pytest.mark.parametrize("preset", PRESETS)
def test_last_deal_two_players_equals_solve(preset: str) -> None:
    """With 2 players the last deal's unseen cards are the other hand: advise is exact and its
    values are solve's (the benchmark checks 10,000 positions)."""
    for index in range(12):
        scenario = advise_scenario_json(random_advice_position(preset, 2, 29, index))
        out = evaluate(scenario)
        ref = evaluate(solve_scenario(random_position(preset, 2, 29, index)))
        assert out["exact"] is True and out["samples"] == 1, out
        assert [v["value"] for v in out["values"]] == [v["value"] for v in ref["values"]]
        assert [(v["card"], v["base"]) for v in out["values"]] == [
            (v["card"], v["base"]) for v in ref["values"]
        ]
        assert all(v["lower"] == v["value"] == v["upper"] for v in out["values"])
        assert [v["loss"] for v in out["values"]] == [
            ref["best"] - v["value"] for v in ref["values"]
        ]
        assert out["best"] == ref["best"]


def test_four_players_last_turns_exact() -> None:
    """With 4 players the last deal is determinate once one other hand holds every unseen card."""
    seen = 0
    for index in range(30):
        p = random_advice_position("quito", 4, 31, index, max_remaining=2)
        if not p.determinate:
            continue
        seen += 1
        out = evaluate(advise_scenario_json(p))
        ref = evaluate(solve_scenario(random_position("quito", 4, 31, index, max_remaining=2)))
        assert out["exact"] is True
        assert [v["value"] for v in out["values"]] == [v["value"] for v in ref["values"]]
    assert seen >= 5


@pytest.mark.parametrize(
    ("players", "deal", "remaining"), [(2, 0, None), (2, 2, None), (4, 0, None), (4, 1, 6)]
)
def test_kernel_rows_equal_reference_twin(players: int, deal: int, remaining: int | None) -> None:
    """Every sampled world's value of every play: the numba kernel against the pure-Python twin
    (same draws, reference playout or brute-force solve); pagat has end-of-deal claims."""
    params = parse_policy(PLAYOUT_POLICY).row(players)
    checked = 0
    for index in range(4):
        p = random_advice_position("pagat", players, 7, index, deal=deal, max_remaining=remaining)
        if p.determinate:
            continue
        checked += 1
        kernel = sampled_values(p, 6, 5).tolist()
        twin = advise_samples(p, 6, EXACT_PLAYS, params, search_stream(5, p.seat))
        assert kernel == twin
    assert checked >= 2


def test_determinism_by_seed() -> None:
    a, b, c = mid(samples=32, seed=4), mid(samples=32, seed=4), mid(samples=32, seed=5)
    assert a == b
    assert a["values"] != c["values"]
    assert mid()["samples"] == DEFAULT_SAMPLES


def test_common_worlds_make_differences_sharp() -> None:
    """The same worlds for every play: the plays' per-world values move together, so a
    difference between two plays varies less than it would over independent worlds."""
    from cuarenta_sim.cuarenta.advise import parse_advise
    from cuarenta_sim.cuarenta.scenario import _Common, _previous
    from cuarenta_sim.cuarenta.scenario_fields import rules_field

    c = _Common(rules_field("quito"), 2, 1, [10, 4])
    position, _samples, _seed = parse_advise(MID, c, _previous)
    rows = sampled_values(position, 200, 0)
    var = rows.var(axis=0)
    for a in range(rows.shape[1]):
        for b in range(a):
            assert (rows[:, a] - rows[:, b]).var() < var[a] + var[b]


def test_python_api() -> None:
    out = advise({k: v for k, v in MID.items() if k != "kind"}, samples=8)
    assert out == mid(samples=8)
    with pytest.raises(ValueError, match=r"^samples must be"):
        advise(MID, samples=1)


# Each broken input and the field its one error names first.
BAD: list[tuple[dict[str, Any], str]] = [
    ({"unseen": MID["unseen"][:-1]}, "unseen:"),
    ({"unseen": [*MID["unseen"], "A"]}, "hands[0], table and unseen"),
    ({"unseen": ["K", *MID["unseen"][1:]]}, "hands[0], table and unseen"),
    ({"hands": [["A", "4", "5", "Q"], None]}, "unseen:"),
    ({"hands": [["A", "4", "5", "Q"], None], "unseen": [*MID["unseen"], "2"]}, "hands[0] holds 4"),
    ({"hands": [["A", "4", "5", "Q", "K"], ["2"]]}, "hands[1] must be null"),
    ({"hands": [None, None]}, "hands[0] must list"),
    ({"hands": [[], None]}, "hands[0]: the seat to move holds"),
    ({"hands": [["A", "4", "5", "Q", "K"]]}, "hands must list 2"),
    ({"samples": 1}, "samples must be"),
    ({"samples": 10_001}, "samples must be"),
    ({"samples": "many"}, "samples must be a whole number"),
    ({"seed": -1}, "seed must be"),
    ({"cards": [5]}, "cards must be"),
    ({"last_capturer": None}, "last_capturer is needed"),
    ({"rondas": [[], ["3"]], "known": [None, ["3", "3"]]}, "known[1] holds 2"),
    ({"rondas": [[], ["3"]], "known": [["3"], None]}, "known[0] must be null"),
    ({"rondas": [[], ["3"]], "known": [None, ["4", "3", "3", "3"]]}, "known[1] lists 4"),
    ({"rondas": [["4"], []]}, "rondas[0] names 4"),
    ({"deal": 5}, "deal must be"),
    ({"previous": {"seat": 1, "trail": "7"}}, "previous.trail"),
    ({"known": [None, None], "fish": 1}, "unknown field fish"),
    ({"claims": [2, 0]}, "claims"),
]


@pytest.mark.parametrize(("changes", "field"), BAD)
def test_every_error_names_its_field(changes: dict[str, Any], field: str) -> None:
    out = mid(**changes)
    assert set(out) == {"error"}, out
    assert field in out["error"], out["error"]


def test_ronda_default_known_at_the_first_turn() -> None:
    """Seat 1, which has not played in this deal, announced a ronda of 3: by default it holds
    three 3s (R4.1); the worlds respect it."""
    out = mid(rondas=[[], ["3"]], samples=8)
    assert "error" not in out, out
    assert evaluate({**MID, "rondas": [[], ["3"]], "known": [None, ["3", "3", "3"]],
                     "samples": 8}) == out  # fmt: skip


def test_known_needed_after_a_play() -> None:
    """Seat 0 announced a ronda of 3 and has trailed a Q since: how many 3s it still holds is
    public (the plays were seen) but not in the position, so ``known`` must say it."""
    unseen = list(MID["unseen"])
    for rank in ("2", "2", "6", "7", "J"):
        unseen.remove(rank)
    second = {
        **MID,
        "seat": 1,
        "table": ["5", "J", "Q"],
        "previous": {"seat": 0, "trail": "Q"},
        "hands": [None, ["2", "2", "6", "7", "J"]],
        "unseen": [*unseen, "A", "4", "5", "K"],
        "rondas": [["3"], []],
        "samples": 8,
    }
    out = evaluate(second)
    assert set(out) == {"error"} and out["error"].startswith("known[0] is needed"), out
    assert "error" not in evaluate({**second, "known": [["3", "3", "3"], None]})
    out = evaluate({**second, "known": [["3"], None]})
    assert out["error"].startswith("known[0] holds 1 3"), out


def test_known_follows_when_one_hand_holds_every_unseen_card() -> None:
    """In the last deal with 2 players the other hand is the unseen cards: its ronda cards
    need no ``known``, and the result is the one with ``known`` given."""
    for index in range(40):
        p = random_advice_position("quito", 2, 41, index)
        other = 1 - p.seat
        if p.rondas[other] and p.plays_made(other) > 0:
            scenario = advise_scenario_json(p)
            assert scenario["known"][other]
            out = evaluate({**scenario, "known": None})
            assert out == evaluate(scenario) and out["exact"], out
            return
    pytest.fail("no last-deal position with a ronda of the other seat among 40")
