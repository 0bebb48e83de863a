"""``solve`` and the judges refuse impossible positions; input edges (issue 20, failure 8 and 9).

* ``rondas`` must fit the hands (R4.1: a ronda is three cards of one rank dealt in this deal;
  in the last deal every card held was dealt in it; R1.1: four cards of a rank).
* ``claims`` only where the rules claim (R6.4: ``caida_en_ronda_timing = end_of_deal``), in
  multiples of ``caida_en_ronda_points``, against an opponent's ronda, no more than the plays.
* A UTF-8 byte-order mark before a scenario file or stdin is ignored.
* A rules object names its preset (``rules: {}`` no longer means quito silently).
* From Python, numpy integers and rules objects are accepted as ``simulate`` accepts them.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from solver_checks import BASE

from cuarenta_sim.cli import main as cli_main
from cuarenta_sim.cuarenta.rules import RuleSet
from cuarenta_sim.cuatrola.rules import CuatrolaRules
from cuarenta_sim.scenario import evaluate, evaluate_lines

END_OF_DEAL = {"preset": "pagat", "caida_en_ronda_timing": "end_of_deal"}


def solve(**changes: Any) -> dict[str, Any]:
    return evaluate({**BASE, **changes})


def error(out: dict[str, Any]) -> str:
    assert set(out) == {"error"}, out
    assert "\n" not in out["error"]
    return str(out["error"])


# ----------------------------------------------------------------------------- rondas, R4.1
def test_a_ronda_the_other_hands_contradict() -> None:
    """R4.1 with R1.1: three Qs dealt to seat 0 leave at most one Q for the other hands."""
    # Seat 1 holds one 6 and has played 3 cards: three 6s dealt to it are possible.
    assert "error" not in solve(rondas=[[], ["6"]])
    msg = error(solve(rondas=[["Q"], []], hands=[["Q"], ["Q", "Q"]]))
    assert "rondas[0] names Q" in msg and "other hands hold 2 Q" in msg and "R1.1" in msg


def test_a_ronda_needs_three_cards_held_or_played() -> None:
    """R4.1 in the last deal: held + played >= 3. A 2-player last round with 5-card hands at
    the first play: seat 0 holds one K and has played nothing."""
    first = {
        **BASE,
        "seat": 0,
        "hands": [["Q", "2", "3", "4", "K"], ["6", "5", "7", "7", "J"]],
        "table": ["6"],
        "previous": None,
        "cards": [17, 12],
    }
    assert "error" not in evaluate(first)
    msg = error(evaluate({**first, "rondas": [["K"], []]}))
    assert "rondas[0] names K" in msg and "holds 1 K" in msg and "played 0 card(s)" in msg
    assert "R4.1" in msg


def test_three_of_a_rank_held_is_a_ronda_to_list() -> None:
    """R4.1: a hand of the last deal holding three Ks was dealt them in it."""
    first = {
        **BASE,
        "seat": 0,
        "hands": [["Q", "2", "3", "4", "5"], ["6", "K", "K", "K", "7"]],
        "table": ["6"],
        "previous": None,
        "cards": [17, 12],
    }
    msg = error(evaluate(first))
    assert "hands[1] holds 3 K" in msg and "list it in rondas[1]" in msg and "R4.1" in msg
    assert "error" not in evaluate({**first, "rondas": [[], ["K"]]})


# ----------------------------------------------------------------------------- claims, R6.4
def test_claims_under_immediate_crediting_are_refused() -> None:
    """R6.4: with caida_en_ronda_timing immediate (every preset but cuenca) nothing is claimed
    for the end of the deal."""
    msg = error(solve(claims=[2, 0], rondas=[[], ["K"]]))
    assert "claims [2, 0] under caida_en_ronda_timing immediate" in msg and "R6.4" in msg
    assert "accepted: [0, 0] or no claims field" in msg
    assert "error" not in solve(claims=[0, 0])


def test_claims_the_position_cannot_produce() -> None:
    rules = END_OF_DEAL  # caida_en_ronda_points 10 (pagat)
    # R6.4: a claim is a caida on a card of an opponent's ronda.
    msg = error(solve(rules=rules, claims=[10, 0]))
    assert "claims[0] 10 needs 1 caidas en ronda" in msg and "allow 0" in msg
    assert "error" not in solve(rules=rules, claims=[10, 0], rondas=[[], ["K"]])
    # R6.4: in multiples of caida_en_ronda_points.
    msg = error(solve(rules=rules, claims=[4, 0], rondas=[[], ["K"]]))
    assert "not a multiple of caida_en_ronda_points 10" in msg
    # No more caidas than the side's plays (seat 1 has played 3 cards).
    msg = error(solve(rules=rules, claims=[0, 40], rondas=[["7"], []]))
    assert "side 1 has made 3 play(s)" in msg


# ----------------------------------------------------------------------------- rules {}
@pytest.mark.parametrize("game", ["cuarenta", "cuatrola"])
def test_a_rules_object_names_its_preset(game: str) -> None:
    scenario: dict[str, Any] = (
        {"kind": "play", "table": ["5"], "card": "5"}
        if game == "cuarenta"
        else {"game": "cuatrola", "kind": "bids"}
    )
    msg = error(evaluate({**scenario, "rules": {}}))
    assert "names no preset" in msg and '{"preset": name' in msg
    msg = error(evaluate({**scenario, "rules": {"max_sum_cards": 2}}))
    assert "names no preset" in msg
    preset = "quito" if game == "cuarenta" else "ro"
    assert "error" not in evaluate({**scenario, "rules": {"preset": preset}})


# ----------------------------------------------------------------------------- Python types
def test_numpy_integers_and_rules_objects() -> None:
    """What simulate accepts, evaluate accepts: numpy integers and rules objects; the result
    holds plain ints (JSON)."""
    out = solve(
        rules=RuleSet.preset("quito"),
        players=np.int64(2),
        dealer=np.int32(1),
        seat=np.int64(1),
        cards=[np.int64(18), np.int16(18)],
        last_capturer=np.int64(0),
        scores=[np.int64(2), np.int64(4)],
    )
    assert out == {**solve(scores=[2, 4]), "scores": out["scores"]}, out
    json.dumps(out)
    end = evaluate(
        {
            "kind": "end",
            "rules": RuleSet.preset("cuenca"),
            "cards": [np.int64(20), np.int64(20)],
            "table": [],
            "last_capturer": np.int64(1),
        }
    )
    assert "error" not in end and json.dumps(end)
    bids = evaluate(
        {
            "game": "cuatrola",
            "kind": "bids",
            "rules": CuatrolaRules.preset("ro"),
            "scores": [np.int64(3), np.int64(0)],
            "dealer": np.int64(3),
        }
    )
    assert "error" not in bids and json.dumps(bids)


# ----------------------------------------------------------------------------- byte-order mark
PLAY = {"kind": "play", "rules": "quito", "table": ["5", "K"], "card": "5", "base": ["5"]}


def test_byte_order_mark_is_accepted(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    lines, bad = evaluate_lines("\ufeff" + json.dumps(PLAY))
    assert not bad and json.loads(lines[0])["legal"] is True
    lines, bad = evaluate_lines("\ufeff" + json.dumps(PLAY) + "\n" + json.dumps(PLAY) + "\n")
    assert not bad and len(lines) == 2
    path = tmp_path / "windows.json"
    path.write_bytes(b"\xef\xbb\xbf" + json.dumps(PLAY).encode())
    capsys.readouterr()
    assert cli_main(["scenario", str(path)]) == 0
    assert json.loads(capsys.readouterr().out)["legal"] is True
    import io
    import sys

    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(path.read_bytes()), "utf-8"))
    assert cli_main(["scenario", "-"]) == 0
    assert json.loads(capsys.readouterr().out)["legal"] is True
