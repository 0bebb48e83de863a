"""The ``solve`` scenario kind (docs/engine_contract.md section 9): values, line, errors."""

from __future__ import annotations

from typing import Any

import pytest
from solver_checks import BASE

from cuarenta_sim.scenario import evaluate

# Claims need end-of-deal crediting and an opponent's ronda (R6.4): seat 0 (4 cards played) may
# have been dealt three 7s, seat 1 (3 played, a K held) three Ks (R4.1).
END_OF_DEAL: dict[str, Any] = {
    "rules": {"preset": "quito", "caida_en_ronda_timing": "end_of_deal"},
    "rondas": [["7"], ["K"]],
}


def solve(**changes: Any) -> dict[str, Any]:
    return evaluate({**BASE, **changes})


def test_values_by_hand() -> None:
    out = solve()
    # 6 on 6: caida and limpia, "todo dos" (R6.1, R7.2): 2, then 20 cards: carton 6 (R8.2).
    # K trailed: the 6 takes the 6 later: 20 cards, carton 6. 6 trailed: 18 - 18, the
    # non-dealer side scores 2 (R8.4).
    assert out["values"] == [
        {"card": "6", "base": [], "value": -2},
        {"card": "6", "base": ["6"], "value": 8},
        {"card": "K", "base": [], "value": 6},
    ]
    assert out["best"] == 8
    assert out["points"] == [0, 8]
    assert out["scores"] == [0, 8]
    assert out["winner"] is None and out["zapateria"] is False


def test_clearly_best_play_has_the_largest_value() -> None:
    # Cuenca counts caida and limpia both (R7.2): the capture is worth 4 + 6.
    out = solve(rules="cuenca")
    values = {(v["card"], tuple(v["base"])): v["value"] for v in out["values"]}
    assert values[("6", ("6",))] == 10 == out["best"]
    assert all(v < out["best"] for k, v in values.items() if k != ("6", ("6",)))


def test_nothing_is_credited_after_a_win() -> None:
    # At 38 the caida wins the chica at once (R9.1, R9.2): the carton it would bring is never
    # counted, so that play is worth 2; keeping the 6 for later is worth the carton, 6.
    out = solve(scores=[8, 38])
    values = [v["value"] for v in out["values"]]
    assert values == [-2, 2, 6]
    # The principal line trails K, captures the 6 last and wins on the carton (R8.2): 44.
    assert out["points"] == [0, 6] and out["scores"] == [8, 44]
    assert out["winner"] == 1 and out["zapateria"] is True


def test_four_players_and_game_field() -> None:
    out = evaluate(
        {
            "game": "cuarenta",
            "kind": "solve",
            "rules": "quito_torneo",
            "players": 4,
            "dealer": 3,
            "seat": 2,
            "table": ["A", "4"],
            "hands": [["7"], ["5"], ["5", "Q"], ["2", "J"]],
            "cards": [16, 16],
            "last_capturer": 1,
        }
    )
    assert "error" not in out, out
    assert [v["card"] for v in out["values"]] == ["5", "5", "Q"]
    assert [v["base"] for v in out["values"]] == [[], ["A", "4"], []]
    assert out["best"] == max(v["value"] for v in out["values"])


@pytest.mark.parametrize(
    "changes,message",
    [
        ({"deal": 1}, "solve works only in the last deal of a data (deal 4 with 2 players"),
        ({"deal": 1, "players": 4, "dealer": 3}, "(deal 2 with 4 players, R2.2)"),
        ({"cards": [18, 17]}, "make 39: 1 card(s) missing; solve is for the last deal"),
        ({"cards": [18, 19]}, "make 41, more than the 40 cards of the pack"),
        ({"hands": [["Q", "J"], ["6", "K"]]}, "hands[0] holds 2 cards; with seat 1 to move"),
        ({"hands": [["Q"]]}, "hands must list 2 hands"),
        ({"hands": [[], ["6", "K"]], "seat": 0}, "hands[0]: the seat to move holds 1 to 5"),
        ({"table": ["6", "6"], "hands": [["6"], ["6", "6"]]}, "hands and table"),
        ({"hands": [["Q"], ["8", "K"]]}, "hands[1]"),
        ({"last_capturer": None}, "last_capturer is needed"),
        ({"last_capturer": 2}, "last_capturer must be a side"),
        ({"claims": [3, 0]}, "claims must be [side 0, side 1] even points"),
        ({**END_OF_DEAL, "claims": [2, 2]}, "first_claim is needed"),
        (
            {**END_OF_DEAL, "claims": [2, 0], "first_claim": 1},
            "first_claim must be a side holding claims",
        ),
        ({"card": "6"}, "unknown field card in a solve scenario"),
        ({"previous": {"seat": 1, "trail": "6"}}, "previous.seat must be the seat before"),
        ({"table": []}, "0 on the table make 39"),
    ],
)
def test_bad_input(changes: dict[str, Any], message: str) -> None:
    out = solve(**changes)
    assert set(out) == {"error"}, out
    assert message in out["error"]
    assert "\n" not in out["error"]


def test_missing_fields_and_first_play_of_the_deal() -> None:
    for name in ("table", "hands", "cards"):
        out = evaluate({k: v for k, v in BASE.items() if k != name})
        assert out == {"error": f"missing field {name} in a solve scenario"}
    first = {
        **BASE,
        "seat": 0,
        "hands": [["Q", "2", "3", "4", "5"], ["6", "K", "K", "K", "7"]],
        "rondas": [[], ["K"]],  # three Ks held: a ronda dealt in this deal (R4.1)
        "table": ["6"],
        "previous": {"seat": 1, "trail": "6"},
        "cards": [17, 12],
    }
    out = evaluate(first)
    assert "the first play of a deal follows no trail of this deal" in out["error"]
    # A trail of the deal before is accepted, and is no caida without caida_across_deals.
    out = evaluate({**first, "previous": {"seat": 1, "trail": "6", "deal": 3}})
    assert "error" not in out, out
