"""benchmarks/reports.py regenerates reports with their default commands and times them."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_reports_script_times_a_small_run(tmp_path: Path) -> None:
    results = tmp_path / "reports.json"
    proc = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "reports.py"), "--only", "odds",
         "--out", str(tmp_path / "r"), "--results", str(results), "--extra=--n",
         "--extra=400", "--extra=--policies", "--extra=greedy", "--extra=--confirm",
         "--extra=none"],
        capture_output=True, text=True, cwd=ROOT, timeout=600, check=False,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    record = json.loads(results.read_text())
    (row,) = record["reports"]
    assert row["report"] == "odds" and row["wall_s"] > 0 and row["cpu_s"] >= 0
    assert row["command"] == "cuarenta-sim report odds --n 400 --policies greedy --confirm none"
    assert row["status"] == "pass"
    assert (tmp_path / "r" / "odds" / "report.md").is_file()
    assert "| odds | `cuarenta-sim report odds" in proc.stdout
