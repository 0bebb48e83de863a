"""benchmarks/cuatrola_thresholds.py runs end to end (tiny counts) and prints the thresholds."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

from cuarenta_sim.cuatrola.bidding import class_table, derive_thresholds, run_bidding_experiment

ROOT = Path(__file__).resolve().parents[2]


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "cuatrola_thresholds.py"), *args],
        capture_output=True, text=True, cwd=ROOT, timeout=300, check=False, env=env,
    )  # fmt: skip


def test_thresholds_script_prints_the_derived_thresholds() -> None:
    proc = _run("--n", "3000", "--seed", "2", "--policy", "greedy")
    assert proc.returncode == 0, proc.stderr
    m = re.search(r"DEFAULT_THRESHOLDS = \((\d+), (\d+), (\d+)\)", proc.stdout)
    assert m is not None, proc.stdout
    exp = run_bidding_experiment(3000, seed=2, play_policy="greedy")
    want = derive_thresholds(class_table(exp.outcomes, "strength"))
    assert tuple(int(g) for g in m.groups()) == tuple(want)
    assert (
        "source: python benchmarks/cuatrola_thresholds.py --n 3000 --seed 2 --policy greedy "
        "--rules ro"
    ) in proc.stdout
    assert "derived - first guess" in proc.stdout and "paired" in proc.stdout


def test_thresholds_script_bad_policy() -> None:
    proc = _run("--n", "100", "--policy", "smart")
    assert proc.returncode == 2
    assert "unknown play policy 'smart'" in proc.stderr and "Traceback" not in proc.stderr
