"""Malformed scenarios (spec section F): an ``{"error": ...}`` result, never an exception."""

from __future__ import annotations

import json
from typing import Any

import pytest

from cuarenta_sim.scenario import evaluate, evaluate_lines

PLAY: dict[str, Any] = {"kind": "play", "rules": "quito", "table": ["5", "K"], "card": "5"}
END: dict[str, Any] = {"kind": "end", "rules": "quito", "cards": [20, 20], "table": []}
DEAL: dict[str, Any] = {
    "kind": "deal",
    "rules": "quito",
    "hands": [["5", "5", "5", "K", "2"], ["A", "3", "4", "6", "7"]],
}


def error_of(obj: object) -> str:
    result = evaluate(obj)
    assert set(result) == {"error"}, result
    assert isinstance(result["error"], str) and result["error"]
    return result["error"]


@pytest.mark.parametrize(
    ("change", "says"),
    [
        ({"card": "8"}, "accepted ranks"),
        ({"card": "10h"}, "Spanish"),
        ({"table": ["9", "K"]}, "unknown card"),
        ({"table": ["5", "5", "5", "5"]}, "only 4"),  # with the played 5: five of a rank
        ({"table": "5 K"}, "list"),
        ({"card": 5}, "not a string"),
        ({"colour": "red"}, "unknown field colour"),
        ({"rules": "quitoo"}, "unknown preset"),
        ({"rules": {"preset": "quito", "bonus": 2}}, "unknown switch bonus"),
        ({"rules": {"preset": "quito", "ronda_points": 3}}, "even"),
        ({"rules": 4}, "preset name"),
        ({"scores": [3, 0]}, "even"),
        ({"scores": [40, 0]}, "below the target"),
        ({"scores": [0]}, "scores"),
        ({"scores": "0-0"}, "scores"),
        ({"players": 3}, "players must be 2 or 4"),
        ({"players": "2"}, "whole number"),
        ({"dealer": 2}, "dealer must be a seat"),
        ({"seat": True}, "whole number"),
        ({"deal": 5}, "deal must be 1..4"),
        ({"previous": {"seat": 0, "trail": "5"}}, "the seat before"),
        ({"previous": {"seat": 1, "trail": "7"}}, "not on the table"),
        ({"previous": {"seat": 1}}, "missing trail"),
        ({"previous": {"seat": 1, "trail": "5", "when": 1}}, "unknown field when"),
        ({"previous": "5"}, "previous must be"),
        ({"rondas": [["5"]]}, "per seat"),
        ({"rondas": [["5", "6"], []]}, "at most one ronda"),
        ({"base": "5"}, "list"),
        ({"base": ["8"]}, "unknown card"),
    ],
)
def test_bad_play(change: dict[str, Any], says: str) -> None:
    message = error_of({**PLAY, **change})
    assert says in message, message


def test_missing_fields_and_kind() -> None:
    assert "kind" in error_of({"rules": "quito"})
    assert "kind" in error_of({**PLAY, "kind": "trick"})
    assert "rules" in error_of({k: v for k, v in PLAY.items() if k != "rules"})
    assert "card" in error_of({k: v for k, v in PLAY.items() if k != "card"})
    assert "hands" in error_of({"kind": "deal", "rules": "quito"})
    assert "JSON object" in error_of([PLAY])
    assert "JSON object" in error_of("play")


@pytest.mark.parametrize(
    ("change", "says"),
    [
        ({"cards": [20, 19]}, "total 40"),
        ({"cards": [20, 20], "table": ["5"]}, "total 40"),
        ({"cards": [20]}, "cards must be"),
        ({"cards": [20.0, 20]}, "cards must be"),
        ({"cards": [-1, 41]}, "cards must be"),
        ({"last_capturer": 2}, "last_capturer"),
        ({"cards": [40, 0], "last_capturer": 1}, "captured no card"),
        ({"hands": []}, "unknown field hands"),
    ],
)
def test_bad_end(change: dict[str, Any], says: str) -> None:
    message = error_of({**END, **change})
    assert says in message, message


def test_end_needs_the_last_capturer_when_leftovers_go_to_it() -> None:
    sc = {**END, "rules": "quito_torneo", "cards": [20, 17], "table": ["5", "K", "Q"]}
    assert "last_capturer" in error_of(sc)
    assert "error" not in evaluate({**sc, "rules": "quito"})  # nobody: it does not matter


@pytest.mark.parametrize(
    ("change", "says"),
    [
        ({"hands": [["5", "5", "5", "K"], ["A", "3", "4", "6", "7"]]}, "5 cards"),
        ({"hands": [["5", "5", "5", "K", "2"]]}, "2 hands"),
        ({"hands": [["5", "5", "5", "K", "2"], ["5", "5", "4", "6", "7"]]}, "only 4"),
        ({"hands": [["5", "5", "5", "K", "8"], ["A", "3", "4", "6", "7"]]}, "unknown card"),
        ({"table": []}, "unknown field table"),
    ],
)
def test_bad_deal(change: dict[str, Any], says: str) -> None:
    message = error_of({**DEAL, **change})
    assert says in message, message


def test_evaluate_lines_single_object_and_json_lines() -> None:
    """Section F: one object (even pretty-printed) or JSON lines, one output per line."""
    lines, failed = evaluate_lines(json.dumps(PLAY, indent=2))
    assert len(lines) == 1 and not failed
    assert json.loads(lines[0])["options"] == [[], ["5"]]
    text = "\n".join([json.dumps(PLAY), "", json.dumps({**PLAY, "card": "8"}), "{oops"])
    lines, failed = evaluate_lines(text)
    assert failed and len(lines) == 3
    results = [json.loads(line) for line in lines]
    assert "options" in results[0] and "error" in results[1] and "error" in results[2]
    assert evaluate_lines("") == (
        ['{"error": "no scenario in the input: give a JSON object"}'],
        True,
    )


def test_lower_case_spanish_suits_and_ace_aliases_are_accepted() -> None:
    """Section F input details: lower case, 1 for A, Spanish 10 11 12, suits ignored."""
    out = evaluate({**PLAY, "table": ["1", "k", "11o", "7♥"], "card": "12"})
    assert "error" not in out, out
    assert out["options"] == [[], ["K"]]


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("[" * 100_000 + "]" * 100_000, "nested too deeply"),
        ('{"kind": "play",\n "rules": "quito",\n}\n', "line 3 column 1"),
        ('{"kind": "play", "players": ' + "1" * 5000 + "}", "digits"),
    ],
    ids=["deep", "trailing-comma", "long-integer"],
)
def test_unparseable_input_is_one_error_line(text: str, says: str) -> None:
    """Section F: malformed input gives {"error": ...}; a broken object is one error, not one
    per line of the file."""
    lines, bad = evaluate_lines(text)
    assert bad and len(lines) == 1
    error = json.loads(lines[0])["error"]
    assert says in error and "give one JSON object" in error


def test_impossible_rondas_and_cross_deal_caidas_are_errors() -> None:
    """R1.1: two seats cannot both hold three 6s; R3.3: only the leader plays first in a deal,
    so only the leader can follow the dealer's last trail of the previous deal (R6.1)."""
    twice = {
        "kind": "play",
        "rules": "quito",
        "table": ["6"],
        "card": "6",
        "base": ["6"],
        "rondas": [["6"], ["6"]],
        "previous": {"seat": 1, "trail": "6"},
    }
    assert "two seats" in evaluate(twice)["error"]
    across = {
        "kind": "play",
        "rules": {"preset": "quito", "caida_across_deals": True},
        "deal": 2,
        "table": ["6"],
        "card": "6",
        "base": ["6"],
    }
    wrong = evaluate({**across, "seat": 1, "previous": {"seat": 0, "trail": "6", "deal": 1}})
    assert "the leader is seat 0" in wrong["error"]
    right = evaluate({**across, "seat": 0, "previous": {"seat": 1, "trail": "6", "deal": 1}})
    assert right["caida"] is True and right["points"] == [2, 0]
