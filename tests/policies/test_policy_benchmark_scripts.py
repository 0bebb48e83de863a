"""benchmarks/policies.py and benchmarks/tune_heuristic.py run end to end (tiny counts)."""

from __future__ import annotations

import json
from pathlib import Path


def test_policies_benchmark_quick_run(tmp_path: Path, run_benchmark) -> None:
    out = tmp_path / "policies.json"
    proc = run_benchmark(
        "policies.py", "--datas", "10", "--chicas", "10", "--chicas4", "3", "--repeats", "1",
        "--out", str(out),
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
    assert results["learned_vs_heuristic_4p"]["players"] == 4
    pairs = [(r["a"].split("(")[0], r["b"].split("(")[0], r["players"]) for r in results["ranking"]]
    assert pairs == [
        ("greedy", "random", 2),
        ("heuristic", "greedy", 2),
        ("pimc", "heuristic", 2),
        ("solver", "pimc", 2),
        ("solver", "heuristic", 4),
    ]
    for r in results["ranking"]:
        assert r["chicas"] == (6 if r["players"] == 4 else 20) and 0 <= r["wins_a"] <= r["chicas"]
        assert r["ci95"][0] <= r["win_rate_a"] <= r["ci95"][1]


def test_policies_benchmark_learned_only(tmp_path: Path, run_benchmark) -> None:
    out = tmp_path / "learned.json"
    proc = run_benchmark(
        "policies.py", "--learned-only", "--learned", "learned(weights=learned_v1)",
        "--datas", "4", "--chicas", "6", "--chicas4", "2", "--repeats", "1", "--out", str(out),
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    results = json.loads(out.read_text())
    assert "speed" not in results and "ranking" not in results
    speed = results["learned_speed_target"]
    assert speed["datas_per_s"] > 0 and speed["heuristic_datas_per_s"] > 0
    assert speed["datas_per_s_cpu_adjusted"] > 0 and speed["status"] in ("pass", "FAIL")
    assert all(r["cpu_share"] > 0 for r in results["datas_per_s"])
    two, four = results["learned_vs_heuristic"], results["learned_vs_heuristic_4p"]
    assert two["a"] == four["a"] == "learned(weights=learned_v1)"
    assert (two["players"], two["chicas"], four["players"], four["chicas"]) == (2, 12, 4, 4)
    assert "learned vs heuristic" in proc.stdout and "CPU share" in proc.stdout


def test_tune_heuristic_quick_run(run_benchmark) -> None:
    proc = run_benchmark("tune_heuristic.py", "--passes", "1", "--chicas", "20", "--seed", "3")
    assert proc.returncode == 0, proc.stderr
    assert 9 * 3 <= proc.stdout.count("pass 1 ") <= 9 * 4  # 3 or 4 candidates per weight
    assert "best: heuristic(cards=" in proc.stdout
    assert "held-out decks" in proc.stdout


def test_policies_benchmark_sweep_only(tmp_path: Path, run_benchmark) -> None:
    """--sweep-only: strength against cost at every sweep size, JSON and figure written
    atomically (no temporary file left behind)."""
    out = tmp_path / "sweep.json"
    figure = tmp_path / "sweep.png"
    proc = run_benchmark(
        "policies.py", "--sweep-only", "--datas", "5", "--repeats", "1", "--sweep-chicas", "2",
        "--out", str(out), "--figure", str(figure),
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    results = json.loads(out.read_text())
    points = results["sweep"]
    assert [(p["policy"], p["samples"]) for p in points] == [
        (name, k) for name in ("pimc", "solver") for k in (4, 8, 16, 32, 64, 128)
    ]
    for p in points:
        assert p["pairs"] == 2 and p["chicas"] == 4
        assert 0.0 <= p["lower"] <= p["win_rate"] <= p["upper"] <= 1.0
        assert p["decisions_per_s"] > 0 and p["decisions_per_s_cpu_adjusted"] > 0
        assert p["spec"].startswith(f"{p['policy']}(samples={p['samples']},")
    assert results["sweep_settings"]["pairs"] == 2
    assert results["sweep_settings"]["opponent"].startswith("heuristic(")
    assert figure.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["sweep.json", "sweep.png"]
