"""Cuatrola's exact solver (issue 22 item 1): the numba alpha-beta against brute-force
enumeration over the reference engine, the judge's ``solve`` kind and its errors."""

from __future__ import annotations

import pytest

from cuarenta_sim.cuatrola.cards import parse_card
from cuarenta_sim.cuatrola.engine.solver import Solver, solve_values
from cuarenta_sim.cuatrola.reference.solver import (
    SolvePosition,
    brute_values,
    position_of_game,
    random_game,
    random_position,
)
from cuarenta_sim.cuatrola.scenario_solve import solve_scenario
from cuarenta_sim.scenario import evaluate

PRESETS = ("ro", "online")


def _mismatches(n: int, seed: int, max_remaining: int) -> tuple[list[str], int]:
    """Positions of real play where the numba solver and the brute force differ, and how
    many positions had a cante on some line (so cantes are exercised)."""
    bad, with_cantes, four = [], 0, 0
    solver = Solver()
    for i in range(n):
        p = random_position(PRESETS[i // 2 % 2], seed, i, max_remaining)
        ref = brute_values(p)
        if solver.values(p) != ref:
            bad.append(f"{i}: {p.describe()} numba {solver.values(p)} brute {ref}")
        with_cantes += p.contract in (0, 1) and p.trick_no < 3
        four += p.sits_out < 0
    assert four >= n // 2  # every even index: all four play
    return bad, with_cantes


def test_numba_equals_brute_force_on_seeded_positions() -> None:
    bad, with_cantes = _mismatches(400, 22, 10)
    assert not bad, bad[:3]
    assert with_cantes > 20


@pytest.mark.slow
def test_numba_equals_brute_force_on_thousands_of_positions() -> None:
    bad, _ = _mismatches(4000, 2022, 12)
    assert not bad, bad[:3]


def test_principal_line_replays_in_the_reference_game() -> None:
    """The judge's line, played in the step-level reference game, earns its ``points`` and
    ``tricks`` (cantes included), and the seat's pair's difference is ``best``."""
    cantes = 0
    for i in range(60):
        g = random_game(PRESETS[i // 2 % 2], 5, i, 16, 6)
        p = position_of_game(g)
        out = evaluate(solve_scenario(p, PRESETS[i // 2 % 2]))
        assert [(v["card"], v["value"]) for v in out["values"]] == [
            (v["card"], v["value"]) for v in evaluate(solve_scenario(p))["values"]
        ]
        before_points, before_tricks = list(g.points), list(g.tricks)
        for seat, card in out["line"]:
            assert g.current == seat
            g.apply_action(parse_card(card))
        assert g.terminal
        gained = [g.points[k] - before_points[k] for k in (0, 1)]
        assert gained == out["points"], p.describe()
        assert [g.tricks[k] - before_tricks[k] for k in (0, 1)] == out["tricks"]
        side = p.seat % 2
        assert out["points"][side] - out["points"][1 - side] == out["best"]
        assert out["best"] == max(v["value"] for v in out["values"])
        cantes += len(out["cantes"])
    assert cantes > 0


def test_values_match_brute_force_through_the_judge() -> None:
    for i in range(40):
        p = random_position("ro", 9, i, 9)
        out = evaluate(solve_scenario(p))
        ref = brute_values(p)
        assert [v["value"] for v in out["values"]] == [v for _c, v in ref]
        assert out["seat"] == p.seat


def _last_trick() -> dict:
    """No contract, trump o, the last trick: seat 0 led the Ac, seat 1 holds 3c, seat 2 Ao,
    seat 3 Rc; seat 1 to move."""
    return {
        "game": "cuatrola",
        "kind": "solve",
        "trump": "o",
        "hands": [[], ["3c"], ["Ao"], ["Rc"]],
        "trick": ["Ac"],
        "seat": 1,
    }


def test_last_trick_by_hand() -> None:
    # Seat 2 (pair 0) must trump with Ao (void in copas, C3.3): pair 0 takes
    # 11 + 10 + 11 + 4 + 10 (last trick) = 46; seat 1's pair has -46.
    out = evaluate(_last_trick())
    assert out["values"] == [{"card": "3c", "value": -46}]
    assert out["best"] == -46
    assert out["line"] == [[1, "3c"], [2, "Ao"], [3, "Rc"]]
    assert out["points"] == [46, 0] and out["tricks"] == [1, 0]


def test_a_cante_counts_and_not_in_a_cuatrola() -> None:
    """Seat 0 leads the Ao with the Ro and Co behind it (trump o): winning the trick it sings
    40 (C4.1) in a hand without contract, nothing in a cuatrola (C4.3)."""
    hands = [["Ao", "Ro", "Co"], ["Sc", "Ce", "Se"], ["Ac", "3c", "Rc"], ["Ae", "3e", "Re"]]
    scenario = {"game": "cuatrola", "kind": "solve", "trump": "o", "hands": hands, "seat": 0}
    none = evaluate(scenario)
    assert none["cantes"][0][2] == 40 and none["cantes"][0][:2] == [0, "o"]
    p = SolvePosition(
        0, 0, -1,
        tuple(frozenset(parse_card(c) for c in h) for h in hands), (), (), 0, frozenset(),
    )  # fmt: skip
    assert [v for _c, v in brute_values(p)] == [v["value"] for v in none["values"]]
    hands3 = [hands[0], hands[1], [], hands[3]]
    four = evaluate({**scenario, "hands": hands3, "contract": "cuatrola", "declarer": 0})
    assert four["cantes"] == []
    solo = evaluate({**scenario, "hands": hands3, "contract": "solo", "declarer": 0})
    assert solo["cantes"] and solo["cantes"][0][2] == 40


def test_full_hand_fresh_and_shared_solvers_agree() -> None:
    """From the first play of a hand (no brute force: too slow) a fresh solver and the shared
    one agree."""
    for i in range(6):
        p = random_position("ro", 31, i, 20, 20)
        assert len(p.hands[p.seat]) == 5
        assert Solver().values(p) == solve_values(p)


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"trump": "x"}, "trump"),
        ({"hands": [[], [], []]}, "hands"),
        ({"hands": [["Ac"], ["3c"], ["Ao"], ["Rc"]]}, "hands[0]"),
        ({"seat": 4}, "seat"),
        ({"trick": ["Ac", "Ao", "Sc", "Se"]}, "trick must be incomplete"),
        ({"trick": ["3c"]}, "3c"),
        ({"sung": ["o", "o"]}, "sung lists a suit twice"),
        ({"sung": "o"}, "sung must be a list"),
        ({"contract": "solo"}, "declarer"),
        ({"declarer": 1}, "declarer"),
        ({"contract": "solo", "declarer": 2}, "hands[3]"),
        ({"contract": "solo", "declarer": 3}, "seat 1 sits out"),
        (
            {
                "contract": "cuatrola",
                "declarer": 1,
                "hands": [[], ["3c"], ["Ao"], []],
                "sung": ["e"],
            },
            "sung must be []",
        ),
        ({"hands": [[], ["3c"], ["Ac"], ["Rc"]]}, "Ac"),
        ({"extra": 1}, "unknown field extra"),
    ],
)
def test_errors_name_the_field(change: dict, field: str) -> None:
    out = evaluate({**_last_trick(), **change})
    assert "error" in out and field in out["error"], out


def test_missing_fields_are_named() -> None:
    for name in ("trump", "hands", "seat"):
        scenario = {k: v for k, v in _last_trick().items() if k != name}
        assert evaluate(scenario) == {"error": f"missing field {name} in a Cuatrola solve scenario"}


def test_an_illegal_trick_card_is_refused() -> None:
    # Seat 2 trumped the Ac lead with the Ao while still holding the Cc: it had to follow
    # (C3.3).
    scenario = {
        "game": "cuatrola",
        "kind": "solve",
        "trump": "o",
        "hands": [["Ro", "Sc"], ["3c"], ["Cc"], ["Rc", "Re"]],
        "trick": ["Ac", "Ao"],
        "seat": 3,
    }
    out = evaluate(scenario)
    assert out["error"].startswith("trick: seat 2's Ao was not legal"), out
    scenario["hands"][2] = ["Ce"]
    assert "error" not in evaluate(scenario)
