"""The worked examples K1-K13 of docs/cuatrola.md, and malformed input, through the judge."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cuarenta_sim.scenario import evaluate, evaluate_lines

SCENARIOS = sorted((Path(__file__).parents[1] / "cuatrola_scenarios").glob("*.json"))


def test_every_worked_example_has_a_file() -> None:
    names = {json.loads(p.read_text())["name"].split()[0] for p in SCENARIOS}
    assert names == {f"K{i}" for i in range(1, 14)}


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_worked_example(path: Path) -> None:
    obj = json.loads(path.read_text())
    assert evaluate(obj) == obj["expected"]
    # The bare scenario gives the same answer as the file object.
    assert evaluate(obj["scenario"]) == obj["expected"]


def test_json_lines_mixing_both_games() -> None:
    lines = [
        json.dumps(
            {
                "game": "cuatrola",
                "kind": "trick",
                "trump": "o",
                "trick": ["Rc"],
                "hand": ["Ac", "Sc"],
            }
        ),
        json.dumps({"kind": "play", "rules": "quito", "table": ["5"], "card": "5", "base": ["5"]}),
    ]
    out, failed = evaluate_lines("\n".join(lines))
    assert not failed
    assert json.loads(out[0])["legal"] == ["Ac"]
    assert json.loads(out[1])["captured"] == ["5", "5"]


def test_other_ranks_and_spanish_numbers() -> None:
    r = evaluate(
        {
            "game": "cuatrola",
            "kind": "trick",
            "trump": "oros",
            "trick": ["12c"],
            "hand": ["1c", "10c"],
        }
    )
    assert r == {"legal": ["Ac"], "obligation": "beat"}


def test_three_player_trick_and_last_trick() -> None:
    # Seat 2 sits out: seats 1, 3, 0 play; the trump Sb of seat 0 wins; last trick adds 10.
    r = evaluate(
        {
            "game": "cuatrola",
            "kind": "trick",
            "trump": "b",
            "trick": ["Ac", "3c", "Sb"],
            "leader": 1,
            "sits_out": 2,
            "last": True,
        }
    )
    assert r == {"winner": 0, "position": 2, "points": 33}


def test_bids_overcall_and_first_closes() -> None:
    base = {"game": "cuatrola", "kind": "bids", "dealer": 3, "seat": 2, "bids": ["pass", "solo"]}
    assert evaluate(base) == {"seat": 2, "legal": ["pass", "cuatrola", "quintola"]}
    # first_closes: seat 1's solo ended the bidding; seat 2 has nothing to declare (an answer,
    # not an error; tests/cuatrola/test_cuatrola_judge_checks.py has the details).
    closed = evaluate({**base, "rules": "online"})
    assert (closed["seat"], closed["legal"]) == (2, [])
    assert "first_closes" in closed["reason"]


@pytest.mark.parametrize(
    ("scenario", "fragment"),
    [
        ({"game": "chess", "kind": "trick"}, "game must be one of cuarenta, cuatrola"),
        ({"game": "cuatrola", "kind": "deal"}, "kind must be one of trick, bids, hand"),
        ({"game": "cuatrola", "kind": "trick", "trump": "x", "trick": []}, "suit letter"),
        (
            {"game": "cuatrola", "kind": "trick", "trump": "o", "trick": ["7c"], "hand": ["Ac"]},
            "unknown rank",
        ),
        (
            {"game": "cuatrola", "kind": "trick", "trump": "o", "trick": ["Rc"], "hand": ["Rc"]},
            "both in the trick and in the hand",
        ),
        ({"game": "cuatrola", "kind": "trick", "trump": "o", "trick": ["Rc", "Rc"]}, "twice"),
        ({"game": "cuatrola", "kind": "trick", "trump": "o", "trick": ["Rc"]}, "needs the hand"),
        (
            {"game": "cuatrola", "kind": "trick", "trump": "o", "trick": "Ac 3c Rc Cc Sc"},
            "4 players",
        ),
        (
            {
                "game": "cuatrola",
                "kind": "trick",
                "trump": "o",
                "trick": [],
                "hand": ["Ac"],
                "colour": 1,
            },
            "unknown field colour",
        ),
        ({"game": "cuatrola", "kind": "bids", "scores": [11, 0]}, "scores"),
        (
            {
                "game": "cuatrola",
                "kind": "bids",
                "scores": [9, 0],
                "seat": 2,
                "bids": ["cuatrola", "pass"],
            },
            "could not declare cuatrola",
        ),
        ({"game": "cuatrola", "kind": "bids", "rules": "rx"}, "unknown Cuatrola preset"),
        (
            {
                "game": "cuatrola",
                "kind": "hand",
                "contract": "solo",
                "declarer": 1,
                "scores": [0, 10],
                "tricks": [2, 3],
                "points": [50, 60],
            },
            "may not declare solo",
        ),
        (
            {
                "game": "cuatrola",
                "kind": "hand",
                "contract": "none",
                "tricks": [2, 3],
                "points": [50, 60],
            },
            "add up to 130",
        ),
        (
            {
                "game": "cuatrola",
                "kind": "hand",
                "contract": "cuatrola",
                "declarer": 0,
                "tricks": [4, 1],
                "points": [90, 10],
                "cantes": [20, 0],
            },
            "cannot have sung",
        ),
        (
            {
                "game": "cuatrola",
                "kind": "hand",
                "contract": "grand",
                "tricks": [4, 1],
                "points": [90, 10],
            },
            "contract must be one of",
        ),
        ("not an object", "JSON object"),
    ],
)
def test_malformed_input_gives_an_error(scenario: object, fragment: str) -> None:
    result = evaluate(scenario)
    assert set(result) == {"error"}
    assert fragment in result["error"]
