"""The cuatrola-thresholds target runs end to end (tiny counts), prints and writes the
thresholds."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from cuarenta_sim.cuatrola.bidding import class_table, derive_thresholds, run_bidding_experiment

pytestmark = pytest.mark.slow


def test_thresholds_target_prints_and_writes_the_derived_thresholds(
    tmp_path: Path, run_target
) -> None:
    out = tmp_path / "thresholds.json"
    proc = run_target(
        "cuatrola-thresholds", "--n", "3000", "--seed", "2", "--policy", "greedy", "--out", str(out)
    )
    assert proc.returncode == 0, proc.stderr
    m = re.search(r"DEFAULT_THRESHOLDS = \((\d+), (\d+), (\d+)\)", proc.stdout)
    assert m is not None, proc.stdout
    exp = run_bidding_experiment(3000, seed=2, play_policy="greedy")
    want = derive_thresholds(class_table(exp.outcomes, "strength"))
    assert tuple(int(g) for g in m.groups()) == tuple(want)
    command = (
        "python benchmarks/run.py cuatrola-thresholds --n 3000 --seed 2 --policy greedy --rules ro"
    )
    assert "source: " + command in proc.stdout
    assert "derived - first guess" in proc.stdout and "paired" in proc.stdout
    results = json.loads(out.read_text())
    assert results["command"] == command and results["spec"] == want.spec()
    assert results["thresholds"] == want._asdict()
    assert results["by_strength"] and results["comparison"]


def test_thresholds_target_bad_policy(tmp_path: Path, run_target) -> None:
    proc = run_target("cuatrola-thresholds", "--n", "100", "--policy", "smart",
                      "--out", str(tmp_path / "t.json"))  # fmt: skip
    assert proc.returncode == 2
    assert "unknown play policy 'smart'" in proc.stderr and "Traceback" not in proc.stderr


def test_the_command_the_bidding_report_prints_still_runs(tmp_path: Path, run_script) -> None:
    """reports/cuatrola-bidding prints `python benchmarks/cuatrola_thresholds.py ...`: an
    alias of the target (same options, same checks)."""
    out = tmp_path / "t.json"
    proc = run_script("cuatrola_thresholds.py", "--n", "2000", "--policy", "greedy",
                      "--out", str(out))  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert "DEFAULT_THRESHOLDS = (" in proc.stdout and json.loads(out.read_text())["n"] == 2000
