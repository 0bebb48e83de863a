"""The learned policy's training tools: benchmarks/train_learned.py (imitation) and
benchmarks/tune_learned.py (evolution strategies) run and are reproducible (tiny sizes)."""

from __future__ import annotations

import os
import runpy
import sys
from pathlib import Path

import numpy as np
import pytest

from cuarenta_sim import simulate
from cuarenta_sim.cuarenta.engine.learned import FEATURE_VERSION, N_FEATURES
from cuarenta_sim.cuarenta.policies import parse_policy
from cuarenta_sim.cuarenta.policies.learned import load_weights

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]


def test_training_script_tiny_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    out = tmp_path / "w.npz"
    argv = [
        "train_learned.py",
        "--chicas",
        "3",
        "--players",
        "2",
        "--workers",
        "1",
        "--teacher",
        "pimc(samples=2)",
        "--validation",
        "0.34",
        "--out",
        str(out),
    ]
    monkeypatch.setattr(sys, "argv", argv)
    with pytest.raises(SystemExit) as done:
        runpy.run_path(str(ROOT / "benchmarks" / "train_learned.py"), run_name="__main__")
    assert done.value.code == 0
    lw = load_weights(str(out))
    prov = lw.provenance
    assert prov["teacher"] == parse_policy("pimc(samples=2)").canonical
    assert prov["seed"] == 2024 and prov["chicas_per_player_count"] == 3
    assert prov["feature_version"] == FEATURE_VERSION
    model = prov["models"]["2"]
    assert model["decisions"] == model["train_decisions"] + model["validation_decisions"]
    assert model["validation_decisions"] > 0 and 0 < model["train_accuracy"] <= 1
    assert prov["models"]["4"] == {"players": 4, "same_as": 2}
    assert lw.row(2).tolist() == lw.row(4).tolist()
    assert np.any(lw.row(2) != 0)
    # The same command gives the same file contents (the fit has no randomness).
    out2 = tmp_path / "w2.npz"
    monkeypatch.setattr(sys, "argv", [*argv[:-1], str(out2)])
    with pytest.raises(SystemExit):
        runpy.run_path(str(ROOT / "benchmarks" / "train_learned.py"), run_name="__main__")
    assert load_weights(str(out2)).row(2).tolist() == lw.row(2).tolist()
    # The trained file plays.
    res = simulate(
        rules="quito", players=2, policies=(f"learned(weights={out})", "greedy"), n=5, seed=1
    )
    assert len(res.hands) == 5


def test_tuning_is_reproducible_and_recorded() -> None:
    """The evolution-strategy stage of the training script: a function of its arguments."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    try:
        from tune_learned import to_direction, to_integer, tune
    finally:
        sys.path.remove(str(ROOT / "benchmarks"))
    lw = load_weights("learned_v1")
    scale = np.linspace(0.5, 2.0, N_FEATURES)
    theta = to_direction(lw.row(2), scale)
    assert abs(np.linalg.norm(theta) - 1) < 1e-12
    # The fixed-point round trip keeps the direction (argmax policies ignore the length).
    back = to_direction(to_integer(theta, scale), scale)
    assert float(back @ theta) > 0.999999
    kw = {"base": lw.weights, "iterations": 2, "pairs": 1, "chicas": 3, "check_chicas": 3}
    log = open(os.devnull, "w")  # noqa: SIM115 (closed below)
    try:
        a, rec = tune(lw.row(2), scale, 2, log=log, **kw)
        b, rec_b = tune(lw.row(2), scale, 2, log=log, **kw)
    finally:
        log.close()
    assert a.tolist() == b.tolist()
    rec.pop("seconds"), rec_b.pop("seconds")
    assert rec == rec_b
    assert rec["chicas_per_candidate"] == 6 and rec["check_chicas"] == 6
    assert len(rec["mean_candidate_win_rate"]) == 2
    kept = a.tolist() == lw.row(2).tolist()
    assert kept == (rec["kept"] == "start")
    assert (rec["check_win_rate_tuned"] > rec["check_win_rate_start"]) == (rec["kept"] == "tuned")
