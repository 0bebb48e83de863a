"""benchmarks/cuatrola_throughput.py runs end to end (tiny counts) and writes its JSON."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_cuatrola_throughput_quick_run(tmp_path: Path) -> None:
    out = tmp_path / "results" / "cuatrola.json"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "cuatrola_throughput.py"), "--quick",
         "--n", "2000", "--out", str(out)],
        capture_output=True, text=True, cwd=ROOT, timeout=300, check=False, env=env,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    results = json.loads(out.read_text())
    rows = results["throughput"]
    assert len({r["key"] for r in rows}) == len(rows) >= 10
    assert any(r["play"] == "pimc" and r["decisions_per_s"] > 0 for r in rows)
    for row in rows:
        assert row["hands_per_s"] > 0 and row["hands"] >= row["n"]
        assert ("games_per_s" in row) == (row["level"] == "game")
    assert results["targets"][0]["status"] in ("pass", "FAIL")
    assert "wrote " + str(out) in proc.stdout
