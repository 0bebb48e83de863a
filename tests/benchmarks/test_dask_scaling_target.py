"""The dask-scaling target runs end to end (tiny counts) and writes its JSON."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow


def test_dask_scaling_quick_run(tmp_path: Path, run_target) -> None:
    out = tmp_path / "results" / "dask_scaling.json"
    proc = run_target(
        "dask-scaling", "--quick", "--n", "40000", "--chunk", "10000", "--tiny-tasks", "5",
        "--strong", "solver(samples=4)", "--strong-n", "6", "--strong-chunk", "2",
        "--out", str(out),
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    results = json.loads(out.read_text())
    for key, workers in (("workers_1", 1), ("workers_2", 2)):
        run = results[key]
        assert run["workers"] == workers and run["n"] == 40000 and run["tasks"] == 4
        assert run["datas_per_s"] > 0 and len(run["worker_peak_rss_bytes"]) == workers
    ratio = results["workers_2"]["datas_per_s"] / (2 * results["workers_1"]["datas_per_s"])
    assert results["efficiency"] == ratio
    assert results["workers_1"]["tiny"]["tasks"] == 5
    assert results["target"]["status"] in ("pass", "FAIL")
    strong = results["strong"]
    assert strong["policy"] == "solver(samples=4)"
    for key, workers in (("workers_1", 1), ("workers_2", 2)):
        run = strong[key]
        assert run["workers"] == workers and run["tasks"] == 3 and run["equal_to_local"] is True
        assert run["datas_per_s"] > 0
        assert run["decisions_per_s"] == pytest.approx(20 * run["datas_per_s"])
    assert "scaling efficiency" in proc.stdout and "wrote " + str(out) in proc.stdout
    assert [p.name for p in out.parent.iterdir()] == ["dask_scaling.json"]
