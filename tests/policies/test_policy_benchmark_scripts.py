"""benchmarks/policies.py and benchmarks/tune_heuristic.py run end to end (tiny counts)."""

from __future__ import annotations

import json
from pathlib import Path


def test_policies_benchmark_quick_run(tmp_path: Path, run_benchmark) -> None:
    out = tmp_path / "policies.json"
    proc = run_benchmark(
        "policies.py", "--datas", "10", "--chicas", "10", "--chicas4", "3", "--repeats", "1",
        "--solver4", "solver(samples=4)", "--out", str(out),
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    results = json.loads(out.read_text())
    names = [s["policy"].split("(")[0] for s in results["speed"]]
    assert names == ["heuristic", "pimc", "solver", "learned"]
    assert all(s["decisions_per_s"] > 0 and s["cpu_share"] > 0 for s in results["speed"])
    assert [r["policy"].split("(")[0] for r in results["datas_per_s"]] == ["heuristic", "learned"]
    assert all(r["datas_per_s"] > 0 and r["datas"] == 500 for r in results["datas_per_s"])
    lvh = results["learned_vs_heuristic"]
    assert lvh["a"].startswith("learned(") and lvh["b"].startswith("heuristic(")
    assert lvh["chicas"] == 20 and lvh["status"] in ("pass", "FAIL")
    pairs = [(r["a"].split("(")[0], r["b"].split("(")[0], r["players"]) for r in results["ranking"]]
    assert pairs == [
        ("greedy", "random", 2),
        ("heuristic", "greedy", 2),
        ("pimc", "heuristic", 2),
        ("solver", "pimc", 2),
        ("solver", "heuristic", 4),
    ]
    assert results["ranking"][-1]["a"].startswith("solver(samples=4,")
    for r in results["ranking"]:
        assert r["chicas"] == (6 if r["players"] == 4 else 20) and 0 <= r["wins_a"] <= r["chicas"]
        assert r["ci95"][0] <= r["win_rate_a"] <= r["ci95"][1]


def test_policies_benchmark_team_section_alone(tmp_path: Path, run_benchmark) -> None:
    """``--only4`` runs the 4-player section alone: the speed of ``--solver4`` with 4 players
    and its duplicate chicas against the heuristic, with issue 12's target."""
    out = tmp_path / "team.json"
    proc = run_benchmark(
        "policies.py", "--only4", "--solver4", "solver(samples=3,exact=4)", "--chicas4", "2",
        "--datas4", "2", "--repeats", "1", "--out", str(out),
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    results = json.loads(out.read_text())
    assert "speed" not in results and "ranking" not in results
    speed = results["speed4"]
    assert speed["policy"] == "solver(samples=3,exact=4,stop=0,leaf_cards=800)"
    assert speed["players"] == 4 and speed["decisions"] == 40 and speed["decisions_per_s"] > 0
    team = results["team_ranking"]
    assert (team["a"], team["b"].split("(")[0], team["players"]) == (
        speed["policy"],
        "heuristic",
        4,
    )
    assert team["chicas"] == 4 and team["ci95"][0] <= team["win_rate_a"] <= team["ci95"][1]
    assert team["target_lower_bound"] == 0.52
    assert team["status"] == ("pass" if team["ci95"][0] > 0.52 else "FAIL")
    assert "decisions/s with 4 players" in proc.stdout and "lower bound > 52%" in proc.stdout


def test_tune_heuristic_quick_run(run_benchmark) -> None:
    proc = run_benchmark("tune_heuristic.py", "--passes", "1", "--chicas", "20", "--seed", "3")
    assert proc.returncode == 0, proc.stderr
    assert 9 * 3 <= proc.stdout.count("pass 1 ") <= 9 * 4  # 3 or 4 candidates per weight
    assert "best: heuristic(cards=" in proc.stdout
    assert "held-out decks" in proc.stdout
