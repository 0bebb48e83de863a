"""Numbers at the limits of their types, fed to every public entry point (issue 20, failure 7).

Each entry point that takes a weight, an index, a seed, a start index or a size gets boundary
values (0, -1, 2**31 - 1, 2**31, 2**32, 2**53, 2**63 - 1, 2**63, 2**64, a number too large
for a float, numpy integers, bools, floats, NaN) and random integers up to 2**66. It must
either accept the value (and then never wrap it: the replayed index, the environment's game
indices are the ones given) or refuse it with the project's clear error, a one-line
``ValueError`` naming what is accepted; never ``OverflowError``, ``MemoryError``,
``TypeError`` nor a silent wrap. Nothing long runs: the simulation entry points are stopped
where a validated run would start (``run_validated`` / the tournament's matches), so the test
also proves every check happens before any run. The ranges are in :mod:`cuarenta_sim.limits`.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any
from unittest import mock

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cuarenta_sim import aggregate, simulate
from cuarenta_sim.bradley_terry import ratings
from cuarenta_sim.cli import main as cli_main
from cuarenta_sim.cuarenta.engine import trace_game as cuarenta_trace
from cuarenta_sim.cuarenta.engine.learned import FEATURE_NAMES, FEATURE_VERSION
from cuarenta_sim.cuarenta.policies import parse_policy
from cuarenta_sim.cuatrola.engine import trace_game as cuatrola_trace
from cuarenta_sim.game import get_game
from cuarenta_sim.limits import MAX_GAME_INDEX, MAX_START_INDEX, physical_memory
from cuarenta_sim.rl import make_env
from cuarenta_sim.rl.batched import BatchedCuarenta, env_bytes
from cuarenta_sim.scenario import evaluate
from cuarenta_sim.studies import STUDIES
from cuarenta_sim.studies.registry import precision_n
from cuarenta_sim.tournament import TournamentSettings

BOUNDARY: list[Any] = [
    0,
    1,
    -1,
    2**31 - 1,
    2**31,
    2**32,
    2**53,
    2**62,
    2**63 - 1,
    2**63,
    2**64,
    10**400,
    np.int64(7),
    np.int32(-3),
    np.uint64(2**63),
    np.int64(2**62),
    True,
    False,
    1.0,
    2.5,
    float("nan"),
    float("inf"),
]
VALUES = st.one_of(st.sampled_from(BOUNDARY), st.integers(-(2**66), 2**66))
FAST = settings(
    max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)


class WouldRunError(Exception):
    """Raised where a validated run would start: the value was accepted."""


def _stop(*args: Any, **kwargs: Any) -> None:
    raise WouldRunError


def outcome(call: Callable[[], Any]) -> tuple[str, Any]:
    """``("ok", result)``, ``("run", None)`` (validated, stopped before running) or
    ``("refused", message)``; any other exception fails the test."""
    try:
        return "ok", call()
    except WouldRunError:
        return "run", None
    except ValueError as err:
        message = str(err)
        assert message and "\n" not in message, message
        assert "Traceback" not in message
        return "refused", message


def _whole(v: object) -> bool:
    return isinstance(v, int | np.integer) and not isinstance(v, bool)


# --------------------------------------------------------------------------- simulate / aggregate
@FAST
@given(v=VALUES)
def test_simulate_and_aggregate_validate_before_running(v: Any) -> None:
    with mock.patch("cuarenta_sim.simulation.run_validated", _stop):
        for call in (
            lambda: simulate(n=v),
            lambda: simulate(n=5, seed=v),
            lambda: simulate(n=5, chunk_size=v),
            lambda: aggregate(n=v, level="chica"),
            lambda: aggregate(n=v, chunk_size=1),
            lambda: aggregate(game="cuatrola", n=v),
            lambda: simulate(n=5, backend="dask", workers=v),
        ):
            kind, _ = outcome(call)
            assert kind in ("run", "refused")
    if _whole(v) and not 1 <= v <= 2**53:
        assert outcome(lambda: aggregate(n=v))[0] == "refused"


@FAST
@given(seed=VALUES)
def test_any_non_negative_seed_runs(seed: Any) -> None:
    """Seeds have no upper bound (SeedSequence takes any size): a tiny real run."""
    kind, res = outcome(lambda: simulate(n=2, seed=seed, level="data"))
    assert kind == ("ok" if _whole(seed) and seed >= 0 else "refused")
    if kind == "ok":
        assert res.provenance["seed"] == int(seed)


# --------------------------------------------------------------------------- replay and traces
@FAST
@given(v=VALUES)
def test_replay_and_trace_indices_never_wrap(v: Any) -> None:
    for game, level in (("cuarenta", "data"), ("cuatrola", "hand")):
        spec = get_game(game)
        rules = spec.resolve_rules(spec.default_rules)
        kind, text = outcome(
            lambda: spec.replay(rules, spec.default_players, ["greedy"], 0, level, v)  # noqa: B023
        )
        accepted = _whole(v) and 0 <= v <= MAX_GAME_INDEX
        assert kind == ("ok" if accepted else "refused"), (game, v, text)
        if kind == "ok":
            header = " ".join(text.splitlines()[:3])
            assert re.search(rf"(index:|hand) {int(v)}\b", header), header  # the index given
        kind, _ = outcome(lambda: spec.replay(rules, spec.default_players, ["greedy"], v, level, 0))  # noqa: B023
        assert kind == ("ok" if _whole(v) and v >= 0 else "refused")
    assert outcome(lambda: cuarenta_trace("quito", 2, "greedy", 0, "data", v))[0] == (
        "ok" if _whole(v) and 0 <= v <= MAX_GAME_INDEX else "refused"
    )
    assert outcome(lambda: cuatrola_trace("ro", "greedy", "threshold", 0, "hand", v))[0] == (
        "ok" if _whole(v) and 0 <= v <= MAX_GAME_INDEX else "refused"
    )


# --------------------------------------------------------------------------- RL environments
@FAST
@given(v=VALUES)
def test_batched_environment(v: Any) -> None:
    kind, env = outcome(lambda: BatchedCuarenta(n_envs=v, observation="none"))
    if kind == "ok":  # only counts whose arrays fit the machine's memory
        assert 1 <= v <= (physical_memory() or 2**40) // env_bytes(2, "none")
    del env
    kind, env = outcome(lambda: BatchedCuarenta(n_envs=3, start_index=v, observation="none"))
    assert kind == ("ok" if _whole(v) and 0 <= v <= MAX_START_INDEX else "refused")
    if kind == "ok":
        env.reset()
        assert env.episode_index.tolist() == [int(v), int(v) + 1, int(v) + 2]  # no wrap
        env.step(env.policy_actions("greedy"))
        assert (env.episode_index >= int(v)).all()
    kind, env = outcome(lambda: BatchedCuarenta(n_envs=2, seed=v, observation="none"))
    assert kind == ("ok" if _whole(v) and v >= 0 else "refused")
    if kind == "ok":
        env.reset()
    outcome(lambda: BatchedCuarenta(n_envs=2, win_reward=v, observation="none"))
    outcome(lambda: BatchedCuarenta(n_envs=2, point_reward=v, observation="none"))


@FAST
@given(v=VALUES)
def test_pettingzoo_and_openspiel(v: Any) -> None:
    from cuarenta_sim.rl.openspiel import CuarentaSpielGame, CuatrolaSpielGame

    for game in ("cuarenta", "cuatrola"):
        env = make_env(game)
        kind, _ = outcome(lambda: env.reset(seed=v))  # noqa: B023
        assert kind == ("ok" if _whole(v) and v >= 0 else "refused")
        if kind == "ok":
            assert env.seed_used == int(v)
        outcome(lambda: make_env(game, win_reward=v))  # noqa: B023
        outcome(lambda: make_env(game, players=v))  # noqa: B023
    for cls in (CuarentaSpielGame, CuatrolaSpielGame):
        outcome(lambda: cls({"win_reward": v}))  # noqa: B023
        outcome(lambda: cls({"players": v}))  # noqa: B023


# --------------------------------------------------------------------------- tournament, reports
@FAST
@given(v=VALUES)
def test_tournament_and_report_settings(v: Any) -> None:
    pair = ("greedy", "random")
    for field in ("chicas", "mesas", "seed", "bootstrap"):
        outcome(lambda: TournamentSettings(policies=pair, **{field: v}))  # noqa: B023
    outcome(lambda: ratings(list(pair), [(0, 1, np.ones(3))], bootstrap=v))
    outcome(lambda: ratings(list(pair), [(0, 1, np.ones(3))], bootstrap=2, seed=v))
    for name, option in (
        ("odds", "n"),
        ("odds", "seed"),
        ("odds", "threads"),
        ("quito-vs-cuenca", "chicas"),
        ("quito-vs-cuenca", "mesas"),
        ("quito-vs-cuenca", "confirm_n"),
        ("strategies", "n"),
    ):
        kind, _ = outcome(lambda: STUDIES[name].settings(**{option: v}))  # noqa: B023
        if kind == "ok" and option != "seed":
            assert _whole(v) and 1 <= v <= 2**53
    outcome(lambda: precision_n(v))


# --------------------------------------------------------------------------- weights
@FAST
@given(v=VALUES)
def test_learned_weights(tmp_path_factory: pytest.TempPathFactory, v: Any) -> None:
    weights = np.zeros((2, len(FEATURE_NAMES)), dtype=np.asarray([v]).dtype)
    weights[1, 3] = v
    path = tmp_path_factory.mktemp("w") / "w.npz"
    np.savez(
        path,
        feature_version=np.int64(FEATURE_VERSION),
        feature_names=np.array(FEATURE_NAMES),
        players=np.array([2, 4], dtype=np.int64),
        weights=weights,
        provenance=np.array(json.dumps({})),
    )
    kind, spec = outcome(lambda: parse_policy(f"learned(weights={path})"))
    if kind == "ok":
        assert weights.dtype == np.int64 and abs(int(v)) <= 2**40
        assert int(spec.row(4)[3]) == int(v)  # the kernel reads the weight given


# --------------------------------------------------------------------------- the judges
@FAST
@given(v=VALUES)
def test_scenario_numbers(v: Any) -> None:
    """The judges never raise; a number they accept is the one given."""
    play = {"kind": "play", "rules": "quito", "table": ["5"], "card": "5"}
    for field, value in (
        ("scores", [v, 0]),
        ("seat", v),
        ("deal", v),
        ("dealer", v),
        ("players", v),
    ):
        result = evaluate({**play, field: value})
        assert isinstance(result, dict) and ("error" in result or "options" in result)
        json.dumps(result)
    bids = {"game": "cuatrola", "kind": "bids", "rules": "ro"}
    for field, value in (("scores", [v, 0]), ("seat", v), ("dealer", v)):
        result = evaluate({**bids, field: value})
        assert isinstance(result, dict) and ("error" in result or "legal" in result)


# --------------------------------------------------------------------------- command line
@FAST
@given(v=VALUES)
def test_command_line(v: Any, capsys: pytest.CaptureFixture[str]) -> None:
    """Every numeric option: exit 0 or one line with exit 2, never a traceback."""
    text = str(v)
    runs = [
        ["replay", "--index", text],
        ["replay", "--seed", text],
        ["replay", "--game", "cuatrola", "--index", text],
        ["simulate", "--n", text],
        ["simulate", "--n", "5", "--seed", text],
        ["simulate", "--n", "5", "--chunk-size", text],
        ["simulate", "--n", "5", "--threads", text],
        ["simulate", "--n", "5", "--backend", "dask", "--workers", text],
        ["simulate", "--level", "chica", "--aggregates-only", "--n", text],
        ["tournament", "--policies", "greedy,random", "--chicas", text],
        ["tournament", "--policies", "greedy,random", "--seed", text],
    ]
    with (
        mock.patch("cuarenta_sim.simulation.run_validated", _stop),
        mock.patch("cuarenta_sim.cuarenta.strategy_play.tournament", _stop),
    ):
        for argv in runs:
            capsys.readouterr()
            try:
                code = cli_main(argv)
            except WouldRunError:
                continue
            captured = capsys.readouterr()
            assert code in (0, 2), (argv, code, captured.err)
            if code == 2:
                assert len(captured.err.splitlines()) == 1, (argv, captured.err)
            elif argv[0] == "replay" and argv[1] in ("--index", "--game"):
                header = " ".join(captured.out.splitlines()[:3])
                # "1.0" reads as index 1; the label is the index given, never wrapped
                given = int(text) if text.lstrip("-").isdigit() else int(float(text))
                assert re.search(rf"(index:|hand|game) {given}\b", header), header
