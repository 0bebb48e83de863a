"""benchmarks/throughput.py runs end to end (tiny counts) and writes its JSON."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def test_throughput_script_quick_run(tmp_path: Path) -> None:
    out = tmp_path / "results" / "throughput.json"
    proc = subprocess.run(
        [
            sys.executable, str(ROOT / "benchmarks" / "throughput.py"), "--quick",
            "--n", "2000", "--big-n", "20000", "--out", str(out),
        ],
        capture_output=True, text=True, cwd=ROOT, timeout=300, check=False,
    )  # fmt: skip
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


def test_throughput_script_covers_cuatrola(tmp_path: Path) -> None:
    out = tmp_path / "cuatrola.json"
    proc = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "throughput.py"), "--game", "cuatrola",
         "--quick", "--n", "2000", "--out", str(out)],
        capture_output=True, text=True, cwd=ROOT, timeout=300, check=False,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    results = json.loads(out.read_text())
    assert results["throughput"] and all(r["hands_per_s"] > 0 for r in results["throughput"])


@pytest.mark.slow
def test_memory_script_measures_and_predicts(tmp_path: Path) -> None:
    """benchmarks/memory.py (issue 20): peak RSS of CLI subprocesses against the model."""
    out = tmp_path / "memory.json"
    proc = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "memory.py"), "--quick", "--scale", "0.01",
         "--out", str(out)],
        capture_output=True, text=True, cwd=ROOT, timeout=600, check=False,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    results = json.loads(out.read_text())
    assert [r["n"] for r in results["runs"]] == [5_000, 20_000]
    for run in results["runs"]:
        assert run["peak_bytes"] > 100 * 2**20 and run["predicted_bytes"] > 100 * 2**20
        assert run["ratio"] == pytest.approx(run["peak_bytes"] / run["predicted_bytes"])
    assert "measured / predicted" in proc.stdout and "within 25%" in proc.stdout
