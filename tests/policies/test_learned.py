"""The ``learned`` policy (issue 12 item 4): kernel against its reference twin, weights files,
determinism, the training script.

The kernel's trace (:func:`cuarenta_sim.cuarenta.engine.trace_game`) and records
(:func:`cuarenta_sim.simulate`) must equal the reference engine's (the twin
:class:`cuarenta_sim.cuarenta.reference.policies.LearnedPolicy`) play for play, with the shipped
weights and with random weights that give every feature a say.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from cuarenta_sim import simulate
from cuarenta_sim.cli import main as cli_main
from cuarenta_sim.cuarenta.engine import trace_game
from cuarenta_sim.cuarenta.engine.learned import (
    FEATURE_NAMES,
    FEATURE_VERSION,
    N_FEATURES,
)
from cuarenta_sim.cuarenta.policies import POLICIES, parse_policy, resolve_policies
from cuarenta_sim.cuarenta.policies.kernel import N_PARAMS, POLICY_LEARNED
from cuarenta_sim.cuarenta.policies.learned import (
    DEFAULT_WEIGHTS,
    SHIPPED_WEIGHTS,
    load_weights,
    save_weights,
    weights_path,
)
from cuarenta_sim.cuarenta.reference import play_game
from cuarenta_sim.cuarenta.reference.learned import learned_features
from cuarenta_sim.cuarenta.reference.policies import Observation, RandomPolicy
from cuarenta_sim.rng import PyRng

ROOT = Path(__file__).resolve().parents[2]
SEED = 77


def _ints(d: dict[str, Any]) -> dict[str, int]:
    return {k: int(v) for k, v in d.items()}


def compare(rules: str, players: int, policies: tuple[str, ...], level: str, n: int) -> None:
    """Traces and records of games ``0 .. n-1``: kernel and reference must agree exactly."""
    res = simulate(rules=rules, players=players, policies=policies, n=n, level=level, seed=SEED)
    hands = res.hands.to_dict("records")
    row = 0
    for i in range(n):
        log = play_game(rules, players=players, policies=policies, seed=SEED, level=level, index=i)
        ker = trace_game(rules, players, policies, SEED, level, i)
        assert np.array_equal(log.trace, ker), f"{rules} {players}p {policies} game {i}"
        for record in log.hands:
            assert _ints(hands[row]) == _ints(record), f"{rules} {players}p game {i}"
            row += 1
    assert row == len(hands)


@pytest.fixture(scope="module")
def random_weights(tmp_path_factory: pytest.TempPathFactory) -> str:
    """A weights file whose every feature weighs in (signs and sizes drawn at random)."""
    rnd = np.random.default_rng(5)
    w = rnd.integers(-3000, 3000, size=(2, N_FEATURES)).astype(np.int64)
    w[:, 0] = 1_000_000  # points dominate, so games stay sensible
    path = tmp_path_factory.mktemp("weights") / "random.npz"
    save_weights(path, w, {"note": "test weights"})
    return str(path)


def test_registry_entry() -> None:
    info = POLICIES["learned"]
    assert info.id == POLICY_LEARNED and not info.stochastic
    assert parse_policy("learned").canonical == f"learned(weights={DEFAULT_WEIGHTS})"
    assert N_FEATURES <= N_PARAMS


def test_shipped_names() -> None:
    assert DEFAULT_WEIGHTS == "learned_v2" and DEFAULT_WEIGHTS in SHIPPED_WEIGHTS
    for name in SHIPPED_WEIGHTS:
        assert weights_path(name).name == f"{name}.npz" and weights_path(name).is_file()
        assert parse_policy(f"learned(weights={name})").row(2)[:N_FEATURES].any()
    # The two shipped models differ (v2 is tuned from v1's kind of start).
    assert (
        load_weights("learned_v1").weights.tolist() != load_weights("learned_v2").weights.tolist()
    )


@pytest.mark.parametrize("name", SHIPPED_WEIGHTS)
def test_shipped_weights_have_provenance(name: str) -> None:
    lw = load_weights(name)
    # Small: the weights and a JSON provenance (a tuned file also holds its tuning record).
    assert weights_path(name).stat().st_size < 64_000
    prov = lw.provenance
    assert prov["feature_version"] == FEATURE_VERSION
    assert prov["feature_names"] == list(FEATURE_NAMES)
    assert parse_policy(prov["teacher"]).canonical == prov["teacher"]
    for players in ("2", "4"):
        model = prov["models"][players]
        assert "same_as" in model or model["decisions"] > 0
    assert isinstance(prov["seed"], int) and prov["chicas_per_player_count"] > 0
    # The model of each player count goes into the kernel row of that count.
    for players in (2, 4):
        row = parse_policy(f"learned(weights={name})").row(players)
        assert row[:N_FEATURES].tolist() == lw.row(players).tolist()
    seats = resolve_policies(f"learned(weights={name})", 4)
    assert seats.params[0][:N_FEATURES] == tuple(lw.row(4).tolist())
    for players in ("2", "4"):
        tuning = prov["models"][players].get("tuning")
        if tuning is not None:  # a tuned model records how it was tuned and checked
            assert tuning["kept"] in ("tuned", "start") and tuning["iterations"] > 0
            assert 0 < tuning["check_win_rate_start"] < 1 and 0 < tuning["check_win_rate_tuned"] < 1


@pytest.mark.parametrize(
    "preset,players,other",
    [
        ("quito", 2, "heuristic"),
        ("quito", 4, "greedy"),
        ("cuenca", 2, "random"),
        ("pagat", 4, "heuristic"),
    ],
)
def test_kernel_matches_reference_datas(preset: str, players: int, other: str) -> None:
    compare(preset, players, ("learned", other), "data", 12)


@pytest.mark.parametrize(
    "preset,players", [("quito_torneo", 2), ("quito_torneo", 4), ("cuenca", 4), ("pagat", 2)]
)
def test_default_weights_play_every_preset(preset: str, players: int) -> None:
    """One model per player count serves every preset (the other four pairs are above)."""
    compare(preset, players, ("learned", "heuristic"), "data", 6)


@pytest.mark.parametrize("preset,players", [("quito", 2), ("quito_torneo", 4), ("cuenca", 4)])
def test_kernel_matches_reference_random_weights(
    random_weights: str, preset: str, players: int
) -> None:
    spec = f"learned(weights={random_weights})"
    compare(preset, players, (spec, "greedy"), "data", 10)


def test_kernel_matches_reference_chicas() -> None:
    compare("quito", 2, ("heuristic", "learned"), "chica", 3)


def test_features_of_kernel_and_reference_agree(random_weights: str) -> None:
    """The features themselves (not only the choices) agree, on decisions of real games."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    try:
        from train_learned import observation_features
    finally:
        sys.path.remove(str(ROOT / "benchmarks"))
    seen: list[Observation] = []

    class Recorder:
        name = "random"
        stochastic = True

        def choose(self, obs: Observation, rng: PyRng) -> int:
            if len(obs.plays) > 1:
                seen.append(obs)
            return RandomPolicy().choose(obs, rng)

    for preset, players in (("quito", 2), ("pagat", 4)):
        for i in range(3):
            play_game(preset, players, Recorder(), seed=4, level="chica", index=i)
    assert len(seen) > 100
    nonzero = np.zeros(N_FEATURES, dtype=bool)
    for obs in seen:
        ker = observation_features(obs)
        ref = np.array(learned_features(obs), dtype=np.int64)
        assert np.array_equal(ker, ref), obs
        nonzero |= (ref != 0).any(axis=0)
    # Every feature is exercised by these decisions except the rare 38-rule ones.
    rare = {"cards_blocked", "limpia_38", "known", "own_limpia"}
    assert all(nonzero[j] for j, n in enumerate(FEATURE_NAMES) if n not in rare)


def test_threads_do_not_change_results() -> None:
    kw = {"rules": "quito", "players": 2, "policies": ("learned", "heuristic"), "n": 300}
    one = simulate(**kw, level="chica", seed=3, threads=1)
    two = simulate(**kw, level="chica", seed=3, threads=2)
    assert one.games.equals(two.games)
    assert one.hands.equals(two.hands)


def _write(path: Path, **over: Any) -> str:
    """A weights file like a valid one, with ``over`` replacing some of its arrays."""
    arrays: dict[str, Any] = {
        "feature_version": np.int64(FEATURE_VERSION),
        "feature_names": np.array(FEATURE_NAMES),
        "players": np.array([2, 4], dtype=np.int64),
        "weights": np.zeros((2, N_FEATURES), dtype=np.int64),
        "provenance": np.array(json.dumps({"note": "test"})),
    }
    arrays.update(over)
    np.savez(path, **arrays)
    return str(path)


def test_bad_weights(tmp_path: Path) -> None:
    missing = str(tmp_path / "missing.npz")
    cases = {
        missing: "not found",
        _write(tmp_path / "v2.npz", feature_version=np.int64(FEATURE_VERSION + 1)): (
            f"feature version {FEATURE_VERSION + 1}"
        ),
        _write(tmp_path / "shape.npz", weights=np.zeros((2, 5), dtype=np.int64)): "shape (2, 5)",
        _write(tmp_path / "float.npz", weights=np.zeros((2, N_FEATURES))): "float64",
        _write(tmp_path / "names.npz", feature_names=np.array(["x"] * N_FEATURES)): (
            "other features"
        ),
    }
    (tmp_path / "text.npz").write_text("not an archive")
    cases[str(tmp_path / "text.npz")] = "not a readable .npz"
    for path, needle in cases.items():
        with pytest.raises(ValueError) as err:
            parse_policy(f"learned(weights={path})")
        msg = str(err.value)
        assert needle in msg and "accepted:" in msg and "\n" not in msg, msg
        assert f"feature version {FEATURE_VERSION}" in msg.split("accepted:")[1]
    with pytest.raises(ValueError, match="unknown parameter 'samples'"):
        parse_policy("learned(samples=3)")


def test_bad_weights_on_the_command_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = _write(tmp_path / "v9.npz", feature_version=np.int64(9))
    for path, needle in ((str(tmp_path / "missing.npz"), "not found"), (bad, "version 9")):
        capsys.readouterr()
        code = cli_main(["simulate", "--n", "2", "--policies", f"learned(weights={path}),greedy"])
        err = capsys.readouterr().err
        assert code == 2
        assert len(err.splitlines()) == 1 and needle in err and "accepted:" in err, err


def test_listed_by_the_policies_command(capsys: pytest.CaptureFixture[str]) -> None:
    capsys.readouterr()
    assert cli_main(["policies"]) == 0
    out = capsys.readouterr().out
    assert "learned" in out and f"weights={DEFAULT_WEIGHTS}" in out


def test_plays_in_a_tournament(capsys: pytest.CaptureFixture[str]) -> None:
    capsys.readouterr()
    code = cli_main(["tournament", "--policies", "learned,greedy", "--chicas", "20"])
    out = capsys.readouterr().out
    assert code == 0 and "learned" in out and "greedy" in out
