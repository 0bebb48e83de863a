"""The advise targets run end to end (tiny counts)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow


def test_advise_latency_quick_run(tmp_path: Path, run_target) -> None:
    out = tmp_path / "advise_latency.json"
    proc = run_target("advise-latency", "--positions", "5", "--out", str(out), timeout=900)
    assert proc.returncode == 0, proc.stderr
    result = json.loads(out.read_text())
    assert result["positions"] == 5 and 0 < result["p50_ms"] <= result["p95_ms"]
    assert "p95" in proc.stdout


def test_advise_vs_solve_quick_run(tmp_path: Path, run_target) -> None:
    out = tmp_path / "advise_vs_solve.json"
    proc = run_target("advise-vs-solve", "--positions", "8", "--out", str(out), timeout=900)
    assert proc.returncode == 0, proc.stderr
    result = json.loads(out.read_text())
    assert result["positions"] == 8 and result["differences"] == []
    assert [r["positions"] for r in result["rows"]] == [2, 2, 2, 2]
