"""The policy targets of benchmarks/run.py (policies-speed, policies-ranking, policies-pairs,
solver-4p, learned, learned-proxy, policies-sweep, solve-vs-brute-force) and
benchmarks/tune_heuristic.py run end to end (tiny counts)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow


def test_policies_speed(tmp_path: Path, run_target) -> None:
    out = tmp_path / "speed.json"
    proc = run_target("policies-speed", "--datas", "10", "--repeats", "1", "--out", str(out))
    assert proc.returncode == 0, proc.stderr
    results = json.loads(out.read_text())
    names = [s["policy"].split("(")[0] for s in results["speed"]]
    assert names == ["heuristic", "pimc", "solver", "learned"]
    assert all(s["decisions_per_s"] > 0 and s["cpu_share"] > 0 for s in results["speed"])
    assert [r["policy"].split("(")[0] for r in results["datas_per_s"]] == ["heuristic", "learned"]
    assert all(r["datas_per_s"] > 0 and r["datas"] == 500 for r in results["datas_per_s"])
    for key in ("pimc_target", "solver_target", "learned_speed_target"):
        assert results[key]["status"] in ("pass", "FAIL")
    assert "ranking" not in results and results["command"].startswith(
        "python benchmarks/run.py policies-speed"
    )


def test_policies_ranking(tmp_path: Path, run_target) -> None:
    out = tmp_path / "ranking.json"
    proc = run_target(
        "policies-ranking", "--chicas", "10", "--chicas4", "3",
        "--solver4", "solver(samples=4)", "--out", str(out),
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    results = json.loads(out.read_text())
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
    assert results["ranking"][3]["target_lower_bound"] == 0.53
    # Finished: the partial records are gone, one results file is left.
    assert sorted(p.name for p in tmp_path.iterdir()) == ["ranking.json"]


def test_learned(tmp_path: Path, run_target) -> None:
    out = tmp_path / "learned.json"
    proc = run_target(
        "learned", "--learned", "learned(weights=learned_v1)",
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
    assert two["target_lower_bound"] == 0.55 and two["status"] in ("pass", "FAIL")
    assert "learned" in proc.stdout and "CPU share" in proc.stdout


def test_solver_4p(tmp_path: Path, run_target) -> None:
    """The speed of ``--solver4`` with 4 players and its duplicate chicas against the
    heuristic, with issue 12's target."""
    out = tmp_path / "team.json"
    proc = run_target(
        "solver-4p", "--solver4", "solver(samples=3,exact=4)", "--chicas4", "2",
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


def test_tune_heuristic_quick_run(run_script) -> None:
    proc = run_script("tune_heuristic.py", "--passes", "1", "--chicas", "20", "--seed", "3")
    assert proc.returncode == 0, proc.stderr
    assert 9 * 3 <= proc.stdout.count("pass 1 ") <= 9 * 4  # 3 or 4 candidates per weight
    assert "best: heuristic(cards=" in proc.stdout
    assert "held-out decks" in proc.stdout


def test_policies_sweep(tmp_path: Path, run_target) -> None:
    """Strength against cost at every sweep size, JSON and figure written atomically (no
    temporary or partial file left behind); the figure defaults to the results file's name."""
    out = tmp_path / "sweep.json"
    proc = run_target(
        "policies-sweep", "--datas", "5", "--repeats", "1", "--sweep-chicas", "2",
        "--out", str(out),
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
    assert (tmp_path / "sweep.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["sweep.json", "sweep.png"]


def test_policies_pairs_marks_the_target(tmp_path: Path, run_target) -> None:
    """``--pair solver:pimc`` plays that duplicate pair alone and marks issue 12's target."""
    out = tmp_path / "pair.json"
    proc = run_target(
        "policies-pairs", "--pair", "solver(samples=4):pimc(samples=4)", "--chicas", "3",
        "--out", str(out),
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    (r,) = json.loads(out.read_text())["ranking"]
    assert r["a"].startswith("solver(samples=4,") and r["b"].startswith("pimc(samples=4,")
    assert r["chicas"] == 6 and r["target_lower_bound"] == 0.53
    assert r["status"] == ("pass" if r["ci95"][0] > 0.53 else "FAIL")


def test_policies_pairs_bad_pair_fails_before_running(run_target) -> None:
    proc = run_target("policies-pairs", "--pair", "solver:pimc", "--pair", "solver:nope")
    assert proc.returncode == 2
    assert "--pair 'solver:nope'" in proc.stderr and "nope" in proc.stderr


def test_learned_proxy_and_its_cache(tmp_path: Path, run_target) -> None:
    """learned-proxy: both models' Quito-to-Cuenca change, their difference with its interval
    and the target line; a second run reads the cached chica lengths."""
    out = tmp_path / "proxy.json"
    cache = tmp_path / "cache"
    args = ("learned-proxy", "--chicas", "30", "--models", "greedy;heuristic",
            "--cache", str(cache), "--out", str(out))  # fmt: skip
    proc = run_target(*args)
    assert proc.returncode == 0, proc.stderr
    first = json.loads(out.read_text())
    assert set(first["per_model"]) == {"greedy", "heuristic"}
    diff = first["difference"]
    assert diff["method"] == "paired delta" and diff["n"] == 30
    assert first["status"] == (
        "pass" if diff["defined"] and diff["lower"] > -0.015 and diff["upper"] < 0.015 else "FAIL"
    )
    assert len(list(cache.glob("*.npy"))) == 4 and "percentage points" in proc.stdout
    again = run_target(*args)
    assert again.returncode == 0, again.stderr
    second = json.loads(out.read_text())
    assert second["difference"] == diff and all(v == 0.0 for v in second["seconds"].values())


def test_learned_proxy_default_models(tmp_path: Path, run_target) -> None:
    out = tmp_path / "proxy.json"
    proc = run_target("learned-proxy", "--chicas", "3", "--out", str(out))
    assert proc.returncode == 0, proc.stderr
    results = json.loads(out.read_text())
    assert results["models"]["learned"].startswith("learned(")
    assert results["models"]["solver"].startswith("solver(") and results["chicas"] == 3


def test_solve_vs_brute_force(tmp_path: Path, run_target) -> None:
    """The solve-vs-brute-force target (issue 12) on a few positions."""
    out = tmp_path / "solve.json"
    proc = run_target("solve-vs-brute-force", "--positions", "8", "--out", str(out))
    assert proc.returncode == 0, proc.stderr
    results = json.loads(out.read_text())
    assert results["positions"] == 8 and results["disagreements"] == []
    assert len(results["rows"]) == 8 and all(r["positions"] == 1 for r in results["rows"])
    assert "total: 8 positions, 0 disagreements" in proc.stdout


def test_bad_input_is_one_line_before_any_run(run_target) -> None:
    """Bad input to a target: one line, exit 2, before any simulation (an unwritable --out
    must not cost a run of hours)."""
    cases = [
        ("policies-pairs", "--pair", "greedy:greedy"),
        ("policies-pairs", "--pair", "greedy:random", "--out", "/proc/x.json"),
        ("learned-proxy", "--out", "/proc/x.json"),
        ("learned-proxy", "--models", "learned;nope"),
        ("learned", "--learned", "nope"),
        ("dask-scaling", "--strong", "nope"),
        ("policies-sweep", "--sweep-chicas", "0"),
        ("solver", "--positions", "0"),
        ("policies-speed", "--nope"),
        ("no-such-target",),
    ]
    for args in cases:
        proc = run_target(*args, timeout=120)
        assert proc.returncode == 2, (args, proc.stderr)
        assert len(proc.stderr.strip().splitlines()) == 1, (args, proc.stderr)
        assert "error:" in proc.stderr and "Traceback" not in proc.stderr
