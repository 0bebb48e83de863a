"""benchmarks/rl_batched.py runs end to end (tiny durations) and writes its JSON."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_rl_batched_benchmark_quick_run(tmp_path: Path) -> None:
    out = tmp_path / "rl_batched.json"
    proc = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "rl_batched.py"), "--quick", "--seconds",
         "0.01", "--out", str(out)],
        capture_output=True, text=True, cwd=ROOT, timeout=600, check=False,
    )  # fmt: skip
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
