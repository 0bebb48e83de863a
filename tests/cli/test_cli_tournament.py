"""`cuarenta-sim tournament` and `cuarenta-sim policies`."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest


def test_tournament_prints_tables_and_writes_files(run_cli, tmp_path: Path) -> None:
    out = tmp_path / "t"
    run = run_cli(
        "tournament",
        "--policies",
        "random,greedy",
        "--chicas",
        "200",
        "--mesas",
        "20",
        "--out",
        str(out),
    )
    assert run.code == 0, run.err
    # Pair intervals are printed at the level the Holm verdict used (issue 18 item 2).
    assert "a wins [Holm level]" in run.out and "Elo" in run.out
    prefix = "cuarenta-sim tournament --game cuarenta --policies random,greedy"
    assert run.reproduce.startswith(prefix)
    matches = pd.read_csv(out / "matches.csv")
    assert list(matches["level"]) == ["chica", "mesa"]
    assert list(pd.read_csv(out / "ratings.csv")["policy"]) == ["greedy", "random"]
    prov = json.loads((out / "provenance.json").read_text())
    assert prov["chicas_per_pair"] == 200 and prov["policies"] == ["random", "greedy"]
    again = run_cli(
        "tournament", "--policies", "random,greedy", "--chicas", "200", "--out", str(out)
    )
    again.assert_bad_input()
    assert "already exists; pass --force" in again.err


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["--policies", "greedy"], "at least 2 policies"),
        (["--policies", "greedy,greedy"], "a policy is listed twice"),
        (["--policies", "heuristic,heuristic(cards=350)"], "at least two different policies"),
        (["--policies", "random,random()"], "at least two different policies"),
        (["--policies", "greedy,smart"], "unknown policy 'smart'"),
        (["--policies", "greedy,random(", "--chicas", "2"], "unclosed"),
        (["--chicas", "3", "--policies", "greedy,random"], "--chicas must be an even"),
        (["--players", "3", "--policies", "greedy,random"], "players must be 2 or 4"),
        (["--rules", "bogus", "--policies", "greedy,random"], "unknown preset 'bogus'"),
        (["--threads", "0", "--policies", "greedy,random"], "threads must be"),
        (["--game", "cuatrola", "--policies", "greedy,random"], "no duplicate tournament"),
    ],
)
def test_tournament_bad_options(run_cli, args: list[str], needle: str) -> None:
    run = run_cli("tournament", *args)
    run.assert_bad_input()
    assert needle in run.err


def test_policies_command_lists_the_registry(run_cli) -> None:
    run = run_cli("policies")
    assert run.code == 0
    names = [line.split()[0] for line in run.out.splitlines() if line and not line[0].isspace()]
    for name in ("random", "greedy", "heuristic", "pimc", "solver", "learned"):
        assert name in names, run.out
    assert "samples=auto, exact=6" in run.out and "weights=learned_v2" in run.out


def test_tournament_with_solver_and_learned(run_cli) -> None:
    """Issue 12 "done when": solver and learned play in tournaments (tiny sizes)."""
    run = run_cli("tournament", "--policies", "learned,solver(samples=2)", "--chicas", "4")
    assert run.code == 0, run.err
    assert "learned" in run.out and "solver(samples=2" in run.out
    assert "row vs column" in run.out and "Elo" in run.out


def test_report_strategies_tiny_run(run_cli, tmp_path: Path) -> None:
    """`cuarenta-sim report strategies`: the console opens with the answers, then tables that
    fit 100 columns; the report directory holds the head-to-head and tactic figures."""
    policies = "random,learned,solver(samples=2)"
    run = run_cli("report", "strategies", "--n", "8", "--policies", policies, "--no-progress",
                  "--out", str(tmp_path))  # fmt: skip
    assert run.code == 0, run.err
    lines = run.out.splitlines()
    assert lines[0].startswith("With 2 players"), run.out
    body = run.out.split("reproduce:")[0]
    assert all(len(line) <= 100 for line in body.splitlines()), run.out
    figures = {p.name for p in (tmp_path / "strategies" / "figures").iterdir()}
    assert {"head_to_head_2p.png", "tactics_dose_response.png", "ratings_2p.png",
            "convergence.png"} <= figures  # fmt: skip
    report = (tmp_path / "strategies" / "report.md").read_text()
    assert report.index("## Answers") < report.index("## Head-to-head, 2 players")
    prov = json.loads((tmp_path / "strategies" / "provenance.json").read_text())
    assert prov["search_chicas_per_pair"] == 2 and prov["tactic_chicas"] == 4
