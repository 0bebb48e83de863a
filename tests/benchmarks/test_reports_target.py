"""benchmarks/reports.py (also the reports target of benchmarks/run.py) regenerates reports
with their default commands and times them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow


def test_reports_script_times_a_small_run(tmp_path: Path, run_script) -> None:
    results = tmp_path / "reports.json"
    proc = run_script(
        "reports.py", "--only", "odds", "--out", str(tmp_path / "r"), "--results", str(results),
        "--extra=--n", "--extra=400", "--extra=--policies", "--extra=greedy",
        "--extra=--confirm", "--extra=none", timeout=600,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    record = json.loads(results.read_text())
    (row,) = record["reports"]
    assert row["report"] == "odds" and row["wall_s"] > 0 and row["cpu_s"] >= 0
    assert row["command"] == "cuarenta-sim report odds --n 400 --policies greedy --confirm none"
    assert row["status"] == "pass"
    assert (tmp_path / "r" / "odds" / "report.md").is_file()
    assert "| odds | `cuarenta-sim report odds" in proc.stdout


def test_the_reports_target_forwards_to_the_script(tmp_path: Path, run_target) -> None:
    """``run.py reports ...`` is ``reports.py ...``: its options, its errors."""
    proc = run_target("reports", "--help")
    assert proc.returncode == 0 and "--only" in proc.stdout and "--results" in proc.stdout
    bad = run_target("reports", "--only", "nope", "--results", str(tmp_path / "r.json"))
    assert bad.returncode == 2 and "invalid choice: 'nope'" in bad.stderr
    assert not (tmp_path / "r.json").exists()
