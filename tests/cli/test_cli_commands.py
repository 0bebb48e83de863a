"""The presets, rules, replay and scenario commands."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cuarenta_sim.cuarenta.reference import format_game, play_game
from cuarenta_sim.cuarenta.rules import PRESETS, SWITCHES

SCENARIOS = Path(__file__).resolve().parents[1] / "scenarios"


def test_presets_lists_every_preset_and_switch(run_cli) -> None:
    run = run_cli("presets")
    assert run.code == 0 and run.err == ""
    header = run.out.splitlines()[2].split()
    assert header == ["switch", *PRESETS]
    for switch in SWITCHES:
        assert any(line.split()[0] == switch for line in run.out.splitlines()[4:]), switch
    row = next(line for line in run.out.splitlines() if line.startswith("max_sum_cards "))
    assert row.split() == ["max_sum_cards", "None", "None", "None", "2"]


def test_rules_prints_canonical_slug_and_marks_changed_switches(run_cli) -> None:
    run = run_cli("rules", "cuenca( falla_points=2 , at_38=none)")
    assert run.code == 0 and run.err == ""
    assert run.out.splitlines()[0] == "slug: cuenca(at_38=none,falla_points=2)"
    rows = {line.split()[0]: line.split()[1:] for line in run.out.splitlines()[4:]}
    assert set(rows) == set(SWITCHES)
    assert rows["at_38"] == ["none", "caida_or_carton", "*"]
    assert rows["falla_points"] == ["2", "0", "*"]
    assert rows["caida_limpia_cumulative"] == ["true", "true"]


def test_rules_accepts_every_preset_name(run_cli) -> None:
    for name in PRESETS:
        run = run_cli("rules", name)
        assert run.code == 0 and run.out.startswith(f"slug: {name}\n")


@pytest.mark.parametrize(
    ("level", "index", "policies"),
    [("data", 0, "greedy,greedy"), ("data", 5, "random"), ("chica", 2, "random,greedy")],
)
def test_replay_prints_the_reference_game(run_cli, level: str, index: int, policies: str) -> None:
    run = run_cli(
        "replay",
        "--rules",
        "pagat",
        "--seed",
        "7",
        "--level",
        level,
        "--index",
        str(index),
        "--policies",
        policies,
    )
    assert run.code == 0 and run.err == ""
    expected = format_game(play_game("pagat", 2, tuple(policies.split(",")), 7, level, index))
    assert run.out == expected + "\n"


def test_replay_four_players_with_per_side_policies(run_cli) -> None:
    run = run_cli("replay", "--players", "4", "--policies", "greedy,random", "--seed", "3")
    assert run.code == 0
    assert "players: 4" in run.out
    assert run.out == format_game(play_game("quito", 4, ("greedy", "random"), 3, "data", 0)) + "\n"


def _scenario(name: str) -> dict:
    return json.loads((SCENARIOS / name).read_text())


def test_scenario_file_with_one_pretty_printed_object(run_cli, tmp_path: Path) -> None:
    case = _scenario("E10_caida.json")
    path = tmp_path / "one.json"
    path.write_text(json.dumps(case["scenario"], indent=2))
    run = run_cli("scenario", str(path))
    assert run.code == 0 and run.err == ""
    lines = run.out.splitlines()
    assert len(lines) == 1
    out = json.loads(lines[0])
    assert {k: out[k] for k in case["expected"]} == case["expected"]


def test_scenario_json_lines_from_stdin_one_output_per_line(run_cli) -> None:
    cases = [
        _scenario(n) for n in ("E01_match.json", "E14_ronda_pagat.json", "E19_leftovers_quito.json")
    ]
    text = "\n".join(json.dumps(c["scenario"]) for c in cases) + "\n"
    run = run_cli("scenario", "-", stdin=text)
    assert run.code == 0 and run.err == ""
    outputs = [json.loads(line) for line in run.out.splitlines()]
    assert len(outputs) == 3
    for case, out in zip(cases, outputs, strict=True):
        assert {k: out[k] for k in case["expected"]} == case["expected"]


def test_scenario_errors_exit_2_but_every_line_is_answered(run_cli) -> None:
    good = json.dumps(_scenario("E01_match.json")["scenario"])
    bad_rank = json.dumps({"kind": "play", "rules": "quito", "table": ["8"], "card": "5"})
    text = "\n".join([good, bad_rank, "{not json"]) + "\n"
    run = run_cli("scenario", "-", stdin=text)
    run.assert_bad_input()
    outputs = [json.loads(line) for line in run.out.splitlines()]
    assert len(outputs) == 3
    assert "error" not in outputs[0]
    assert "8" in outputs[1]["error"] and "error" in outputs[2]
    assert "2 of 3 scenarios are invalid" in run.err


def test_scenario_malformed_json_object(run_cli, tmp_path: Path) -> None:
    path = tmp_path / "broken.json"
    path.write_text('{"kind": "play",\n "table": [}\n')
    run = run_cli("scenario", str(path))
    run.assert_bad_input()
    assert all("error" in json.loads(line) for line in run.out.splitlines())


def test_scenario_empty_input(run_cli) -> None:
    run = run_cli("scenario", "-", stdin="\n\n")
    run.assert_bad_input()
    assert "error" in json.loads(run.out)


@pytest.mark.parametrize(("level", "index"), [("data", 3), ("chica", 2)])
def test_replay_index_is_the_game_simulate_produced(level: str, index: int) -> None:
    """Same seed, same index: the replayed game is row ``index`` of ``simulate``'s output."""
    from cuarenta_sim import simulate

    log = play_game("quito", 2, ("greedy", "random"), 7, level, index)
    res = simulate(rules="quito", policies=("greedy", "random"), n=index + 2, level=level, seed=7)
    if level == "data":
        simulated = [res.hands.iloc[index].to_dict()]
    else:
        simulated = res.hands[res.hands["game"] == index].to_dict("records")
        assert res.games is not None
        game = res.games.iloc[index].to_dict()
        assert {k: int(game[k]) for k in log.game} == {k: int(v) for k, v in log.game.items()}
    assert len(simulated) == len(log.hands)
    for sim, ref in zip(simulated, log.hands, strict=True):
        assert {k: int(sim[k]) for k in ref} == {k: int(v) for k, v in ref.items()}
