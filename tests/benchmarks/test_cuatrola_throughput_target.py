"""The cuatrola-throughput target runs end to end (tiny counts) and writes its JSON."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow


def test_cuatrola_throughput_quick_run(tmp_path: Path, run_target) -> None:
    out = tmp_path / "results" / "cuatrola.json"
    proc = run_target("cuatrola-throughput", "--quick", "--n", "2000", "--out", str(out))
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
