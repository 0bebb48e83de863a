"""Weights of the ``learned`` policy at the limits of int64 (issue 20, failure 7).

A weights file holds int64 fixed-point weights; a play's score is their dot product with
integer features. Weights near ``2**50`` overflowed the kernel's int64 score silently (the
policy then played nonsense, unlike its pure-Python twin). Files are now refused beyond
``+-WEIGHT_LIMIT`` (``2**40``), and at that limit the kernel still equals the reference.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from cuarenta_sim import simulate
from cuarenta_sim.cli import main as cli_main
from cuarenta_sim.cuarenta.engine import trace_game
from cuarenta_sim.cuarenta.engine.learned import FEATURE_NAMES, FEATURE_VERSION, N_FEATURES
from cuarenta_sim.cuarenta.policies import parse_policy
from cuarenta_sim.cuarenta.policies.learned import WEIGHT_LIMIT, load_weights, save_weights
from cuarenta_sim.cuarenta.reference import play_game


def _write(path: Path, weights: np.ndarray) -> str:
    np.savez(
        path,
        feature_version=np.int64(FEATURE_VERSION),
        feature_names=np.array(FEATURE_NAMES),
        players=np.array([2, 4], dtype=np.int64),
        weights=weights,
        provenance=np.array(json.dumps({"note": "test"})),
    )
    return str(path)


@pytest.mark.parametrize("value", [2**50, -(2**50), WEIGHT_LIMIT + 1, -(2**63)])
def test_weights_beyond_the_limit_are_refused(tmp_path: Path, value: int) -> None:
    w = np.zeros((2, N_FEATURES), dtype=np.int64)
    w[1, 7] = value
    path = _write(tmp_path / "big.npz", w)
    with pytest.raises(ValueError) as err:
        parse_policy(f"learned(weights={path})")
    msg = str(err.value)
    assert "beyond the accepted +-1,099,511,627,776 (2**40)" in msg and "\n" not in msg, msg
    with pytest.raises(ValueError, match="beyond the accepted"):
        save_weights(tmp_path / "out.npz", w, {})


def test_big_weights_on_the_command_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _write(tmp_path / "big.npz", np.full((2, N_FEATURES), 2**50, dtype=np.int64))
    capsys.readouterr()
    code = cli_main(["simulate", "--n", "2", "--policies", f"learned(weights={path}),greedy"])
    err = capsys.readouterr().err
    assert code == 2 and len(err.splitlines()) == 1 and "2**40" in err, err


def test_messages_name_the_problem_not_internals(tmp_path: Path) -> None:
    """A wrong shape no longer reads "dtype int64, not int64"; a wrong type says which."""
    shape = _write(tmp_path / "shape.npz", np.zeros((3, N_FEATURES), dtype=np.int64))
    narrow = _write(tmp_path / "narrow.npz", np.zeros((2, N_FEATURES), dtype=np.int32))
    floats = _write(tmp_path / "float.npz", np.zeros((2, N_FEATURES)))
    for path, needle in (
        (shape, f"shape (3, {N_FEATURES}), not (2, {N_FEATURES})"),
        (narrow, "type int32, not 64-bit integers"),
        (floats, "type float64 (numbers with fractions)"),
    ):
        with pytest.raises(ValueError) as err:
            load_weights(path)
        msg = str(err.value)
        assert needle in msg and "not int64" not in msg, msg


def test_kernel_equals_reference_at_the_limit(tmp_path: Path) -> None:
    """Weights of magnitude up to ``WEIGHT_LIMIT``: the int64 kernel's choices and records
    equal the exact pure-Python twin's (no overflow anywhere in the score)."""
    rnd = np.random.default_rng(20)
    w = rnd.choice([-WEIGHT_LIMIT, WEIGHT_LIMIT, -WEIGHT_LIMIT // 3], size=(2, N_FEATURES))
    w[:, 0] = WEIGHT_LIMIT
    path = tmp_path / "limit.npz"
    save_weights(path, w.astype(np.int64), {"note": "limit"})
    assert int(np.abs(load_weights(str(path)).weights).max()) == WEIGHT_LIMIT
    policies = (f"learned(weights={path})", "greedy")
    for players in (2, 4):
        res = simulate(rules="quito", players=players, policies=policies, n=6, seed=9)
        records = res.hands.to_dict("records")
        for i in range(6):
            log = play_game("quito", players, list(policies), seed=9, level="data", index=i)
            assert np.array_equal(log.trace, trace_game("quito", players, policies, 9, "data", i))
            assert {k: int(v) for k, v in records[i].items()} == {
                k: int(v) for k, v in log.hands[0].items()
            }
