"""The rl-batched and rl-envs targets run end to end (tiny durations) and write their JSON."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow


def test_rl_batched_quick_run(tmp_path: Path, run_target) -> None:
    out = tmp_path / "rl_batched.json"
    proc = run_target("rl-batched", "--quick", "--seconds", "0.01", "--out", str(out), timeout=600)
    assert proc.returncode == 0, proc.stderr
    result = json.loads(out.read_text())
    rows = result["rows"]
    assert {(r["observation"], r["opponent"]) for r in rows} == {
        ("none", "none"), ("compact", "none"), ("full", "none"),
        ("compact", "heuristic"), ("full", "heuristic"),
    }  # fmt: skip
    for row in rows:
        assert row["steps"] % row["n_envs"] == 0 and row["steps"] > 0
        assert row["steps_per_s"] >= row["mean_steps_per_s"] > 0
    assert {t["status"] for t in result["targets"]} <= {"pass", "FAIL", "not measured"}
    assert result["peak_rss_bytes"] > 0
    assert "wrote " + str(out) in proc.stdout


def test_rl_envs_quick_run(tmp_path: Path, run_target) -> None:
    out = tmp_path / "rl_envs.json"
    proc = run_target("rl-envs", "--seconds", "0.05", "--repeats", "1", "--out", str(out))
    assert proc.returncode == 0, proc.stderr
    result = json.loads(out.read_text())
    assert [(r["game"], r["rules"], r["players"]) for r in result["results"]] == [
        ("cuarenta", "quito", 2), ("cuarenta", "quito", 4), ("cuarenta", "pagat", 2),
        ("cuatrola", "ro", 4),
    ]  # fmt: skip
    assert all(r["steps"] > 0 and r["steps_per_s"] > 0 for r in result["results"])
    assert result["seconds_per_run"] == 0.05 and result["repeats"] == 1
