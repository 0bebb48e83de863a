"""The throughput and memory targets of benchmarks/run.py run end to end (tiny counts)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow


def test_throughput_quick_run(tmp_path: Path, run_target) -> None:
    out = tmp_path / "results" / "throughput.json"
    proc = run_target("throughput", "--quick", "--n", "2000", "--big-n", "20000", "--out", str(out))
    assert proc.returncode == 0, proc.stderr
    results = json.loads(out.read_text())
    rows = results["throughput"]
    configs = {(r["level"], r["policy"], r["players"], r["threads"]) for r in rows}
    assert len(configs) == 16 and len(rows) == 16
    for row in rows:
        assert row["datas_per_s"] > 0 and row["plays_per_s"] > row["datas_per_s"]
        assert ("chicas_per_s" in row) == (row["level"] == "chica")
    assert results["startup"]["warm_total_s"] > 0 and "cold_total_s" not in results["startup"]
    memory = results["memory"]
    assert memory["n"] == 20000 and memory["peak_rss_bytes"] > memory["result_bytes"] > 0
    statuses = {c["key"]: c["status"] for c in results["targets"]}
    assert statuses["startup/cold_total_s"] == "not measured"
    assert set(statuses.values()) <= {"pass", "FAIL", "not measured"}
    assert "wrote " + str(out) in proc.stdout
    assert [p.name for p in out.parent.iterdir()] == ["throughput.json"]


def test_throughput_no_longer_takes_a_game(tmp_path: Path, run_target) -> None:
    """The Cuatrola kernel is its own target (cuatrola-throughput), not a flag of this one."""
    proc = run_target("throughput", "--game", "cuatrola", "--out", str(tmp_path / "t.json"))
    assert proc.returncode == 2 and "unrecognized arguments: --game" in proc.stderr


def test_memory_measures_and_predicts(tmp_path: Path, run_target) -> None:
    """The memory target (issue 20): peak RSS of CLI subprocesses against the model."""
    out = tmp_path / "memory.json"
    proc = run_target("memory", "--quick", "--scale", "0.01", "--out", str(out), timeout=600)
    assert proc.returncode == 0, proc.stderr
    results = json.loads(out.read_text())
    assert [r["n"] for r in results["runs"]] == [5_000, 20_000]
    for run in results["runs"]:
        assert run["peak_bytes"] > 100 * 2**20 and run["predicted_bytes"] > 100 * 2**20
        assert run["ratio"] == pytest.approx(run["peak_bytes"] / run["predicted_bytes"])
    assert "measured / predicted" in proc.stdout and "within 25%" in proc.stdout
    assert results["benchmark"].startswith("python benchmarks/run.py memory --quick")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["memory.json"]
