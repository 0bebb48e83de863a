"""The solver target runs end to end (tiny counts)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow


def test_solver_quick_run(tmp_path: Path, run_target) -> None:
    out = tmp_path / "solver.json"
    args = ["--positions", "3", "--positions4", "1", "--bits", "12", "--out", str(out)]
    proc = run_target("solver", *args, timeout=600)
    assert proc.returncode == 0, proc.stderr
    rows = json.loads(out.read_text())["rows"]
    assert [(r["players"], r["from"]) for r in rows] == [
        (2, "deal start"), (2, "random turn"), (4, "deal start"), (4, "random turn"),
    ]  # fmt: skip
    assert [r["positions"] for r in rows] == [3, 3, 1, 1]
    assert all(r["positions_per_s"] > 0 for r in rows)
    assert rows[0]["nodes_per_position"] > 0  # a deal's start is searched
