"""The review-time target runs end to end (a small chica search, one timed repeat)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow


def test_review_time_quick_run(tmp_path: Path, run_target) -> None:
    out = tmp_path / "review_time.json"
    proc = run_target(
        "review-time", "--indices", "3", "--repeats", "1", "--samples", "8", "--out", str(out),
        timeout=900,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    result = json.loads(out.read_text())
    assert result["decisions"] > 0 and len(result["seconds"]) == 1
    assert "review of a 2-player Quito chica" in proc.stdout
