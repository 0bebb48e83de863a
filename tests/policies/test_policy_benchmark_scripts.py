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
    assert results["ranking"][-1]["a"].startswith("solver(samples=4,")


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


def test_policies_benchmark_pair_section_marks_the_target(tmp_path: Path, run_benchmark) -> None:
    """``--pair solver:pimc`` plays that duplicate pair alone and marks issue 12's target."""
    out = tmp_path / "pair.json"
    proc = run_benchmark(
        "policies.py", "--pair", "solver(samples=4):pimc(samples=4)", "--chicas", "3",
        "--out", str(out),
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    (r,) = json.loads(out.read_text())["ranking"]
    assert r["a"].startswith("solver(samples=4,") and r["b"].startswith("pimc(samples=4,")
    assert r["chicas"] == 6 and r["target_lower_bound"] == 0.53
    assert r["status"] == ("pass" if r["ci95"][0] > 0.53 else "FAIL")


def test_policies_benchmark_bad_pair_fails_before_running(run_benchmark) -> None:
    proc = run_benchmark("policies.py", "--pair", "solver:pimc", "--pair", "solver:nope")
    assert proc.returncode == 2
    assert "--pair 'solver:nope'" in proc.stderr and "nope" in proc.stderr


def test_learned_proxy_script_and_its_cache(tmp_path: Path, run_benchmark) -> None:
    """benchmarks/learned_proxy.py: both models' Quito-to-Cuenca change, their difference with
    its interval and the target line; a second run reads the cached chica lengths."""
    out = tmp_path / "proxy.json"
    cache = tmp_path / "cache"
    args = ("learned_proxy.py", "--chicas", "30", "--models", "greedy;heuristic",
            "--cache", str(cache), "--out", str(out))  # fmt: skip
    proc = run_benchmark(*args)
    assert proc.returncode == 0, proc.stderr
    first = json.loads(out.read_text())
    assert set(first["per_model"]) == {"greedy", "heuristic"}
    diff = first["difference"]
    assert diff["method"] == "paired delta" and diff["n"] == 30
    assert first["status"] == (
        "pass" if diff["defined"] and diff["lower"] > -0.015 and diff["upper"] < 0.015 else "FAIL"
    )
    assert len(list(cache.glob("*.npy"))) == 4 and "percentage points" in proc.stdout
    again = run_benchmark(*args)
    assert again.returncode == 0, again.stderr
    second = json.loads(out.read_text())
    assert second["difference"] == diff and all(v == 0.0 for v in second["seconds"].values())


def test_policies_benchmark_proxy_section(tmp_path: Path, run_benchmark) -> None:
    out = tmp_path / "proxy.json"
    proc = run_benchmark("policies.py", "--proxy-only", "--chicas", "3", "--out", str(out))
    assert proc.returncode == 0, proc.stderr
    results = json.loads(out.read_text())
    assert results["models"]["learned"].startswith("learned(")
    assert results["models"]["solver"].startswith("solver(") and results["chicas"] == 3


def test_policies_benchmark_solve_section(tmp_path: Path, run_benchmark) -> None:
    """``--solve-only`` runs the solve-vs-brute-force target (issue 12) on a few positions."""
    proc = run_benchmark("policies.py", "--solve-only", "--positions", "8", "--out", str(tmp_path))
    assert proc.returncode == 0, proc.stderr
    results = json.loads((tmp_path / "solve_vs_brute_force.json").read_text())
    assert results["positions"] == 8 and results["disagreements"] == []
    assert "total: 8 positions, 0 disagreements" in proc.stdout


def test_benchmark_bad_input_is_one_line_before_any_run(tmp_path: Path, run_benchmark) -> None:
    """Bad input to the benchmark scripts: one line, exit 2, before any simulation (an
    unwritable --out must not cost a run of hours)."""
    cases = [
        ("policies.py", "--pair", "greedy:greedy"),
        ("policies.py", "--pair", "greedy:random", "--out", "/proc/x.json"),
        ("learned_proxy.py", "--out", "/proc/x.json"),
        ("learned_proxy.py", "--models", "learned;nope"),
        ("dask_scaling.py", "--strong", "nope"),
    ]
    for args in cases:
        proc = run_benchmark(*args, timeout=120)
        assert proc.returncode == 2, (args, proc.stderr)
        assert len(proc.stderr.strip().splitlines()) == 1, (args, proc.stderr)
        assert "error:" in proc.stderr and "Traceback" not in proc.stderr


def test_single_sections_do_not_overwrite_the_full_results() -> None:
    """Without --out, a single section writes its own file, never results/policies.json."""
    import argparse
    import sys

    bench = str(Path(__file__).resolve().parents[2] / "benchmarks")
    sys.path.insert(0, bench)
    try:
        import policies as bench_policies
    finally:
        sys.path.remove(bench)
    base = {"sweep_only": False, "learned_only": False, "only4": False, "pair": []}
    outs = {
        key: bench_policies.default_out(argparse.Namespace(**{**base, key: value}))
        for key, value in (("sweep_only", True), ("learned_only", True), ("only4", True),
                           ("pair", ["solver:pimc"]))
    }  # fmt: skip
    assert bench_policies.default_out(argparse.Namespace(**base)) == bench_policies.DEFAULT_OUT
    assert bench_policies.DEFAULT_OUT not in outs.values() and len(set(outs.values())) == 4
