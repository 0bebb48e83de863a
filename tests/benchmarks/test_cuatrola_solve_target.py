"""The cuatrola-solve target runs end to end (tiny counts) and reports 0 differences."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow


def test_cuatrola_solve_quick_run(tmp_path: Path, run_target) -> None:
    out = tmp_path / "cuatrola_solve.json"
    args = ["--positions", "40", "--full", "4", "--max-remaining", "9", "--out", str(out)]
    proc = run_target("cuatrola-solve", *args, timeout=600)
    assert proc.returncode == 0, proc.stderr
    assert "cuatrola solve vs brute force: 0 differences on 40 positions" in proc.stdout
    results = json.loads(out.read_text())
    assert [r["preset"] for r in results["rows"]] == ["ro", "online"]
    assert all(r["numba_positions_per_s"] > 0 for r in results["rows"])
    assert results["full_hands"]["positions"] == 4


def test_cuatrola_solve_bad_option_is_one_line(tmp_path: Path, run_target) -> None:
    proc = run_target("cuatrola-solve", "--max-remaining", "0", "--out", str(tmp_path / "x.json"))
    assert proc.returncode == 2
    assert "--max-remaining must be 1..20" in proc.stderr
