"""The ``solver`` policy: specs, bad input, reproducibility across threads and chunks, the
command line (issue 12 items 3 and 7)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numba
import pandas as pd
import pytest

from cuarenta_sim import simulate
from cuarenta_sim.cuarenta.definition import policy_table
from cuarenta_sim.cuarenta.policies import POLICIES, SOLVER_PARAMS, parse_policy
from cuarenta_sim.cuarenta.policies.kernel import (
    AUTO_SAMPLES_2,
    AUTO_SAMPLES_4,
    P_EXACT,
    P_SAMPLES,
    P_STOP,
    POLICY_SOLVER,
    solver_samples,
)
from cuarenta_sim.cuarenta.reference.game import play_game
from cuarenta_sim.cuarenta.reference.policies import SolverPolicy, resolve_policy
from cuarenta_sim.cuarenta.reference.search import solver_index
from cuarenta_sim.rng import PyRng

ROOT = Path(__file__).resolve().parents[2]


def test_solver_spec_is_canonical_with_its_own_slots() -> None:
    spec = parse_policy("solver(samples=5,exact=6)")
    assert spec.id == POLICY_SOLVER
    assert spec.canonical == "solver(samples=5,exact=6,stop=0,leaf_cards=800)"
    row = spec.row()
    assert (row[P_SAMPLES], row[P_EXACT], row[P_STOP]) == (5, 6, 0)
    assert [p.name for p in POLICIES["solver"].params] == [p.name for p in SOLVER_PARAMS]
    ref = resolve_policy("solver(samples=5,exact=6)")
    assert isinstance(ref, SolverPolicy) and ref.search and ref.name == spec.canonical


def test_solver_samples_default_is_auto_by_player_count() -> None:
    """``samples=auto`` (the default) is kernel value 0, resolved by the player count: 32 with
    2 players (the former default, so 2-player play is unchanged), 256 with 4."""
    spec = parse_policy("solver")
    assert spec.canonical == "solver(samples=auto,exact=6,stop=0,leaf_cards=800)"
    assert spec.row()[P_SAMPLES] == 0
    assert parse_policy("solver(samples=auto)") == spec
    assert parse_policy("solver(samples=32)").row()[P_SAMPLES] == 32
    assert (solver_samples(0, 2), solver_samples(0, 4)) == (AUTO_SAMPLES_2, AUTO_SAMPLES_4)
    assert (AUTO_SAMPLES_2, AUTO_SAMPLES_4) == (32, 256)
    assert (solver_samples(7, 2), solver_samples(7, 4)) == (7, 7)
    assert "samples=auto" in dict((r[0], r[2]) for r in policy_table()[1])["solver"]


@pytest.mark.parametrize("players,explicit", [(2, AUTO_SAMPLES_2), (4, AUTO_SAMPLES_4)])
def test_solver_auto_plays_as_its_sample_count(players: int, explicit: int) -> None:
    """The kernel plays ``samples=auto`` exactly as the explicit count of the player count
    (2 players: the former default ``samples=32``, bit for bit)."""
    kw = {"rules": "quito", "players": players, "n": 2, "seed": 11, "threads": 1}
    auto = simulate(**kw, policies=("solver(exact=4)", "heuristic"))
    fixed = simulate(**kw, policies=(f"solver(samples={explicit},exact=4)", "heuristic"))
    assert len(auto.hands) == 2
    _same(auto, fixed)


@pytest.mark.parametrize(
    "spec,match",
    [
        (
            "solver(samples=0)",
            "bad value '0' for solver parameter samples; accepted: auto or a whole number from "
            "1 to 4096",
        ),
        ("solver(samples=-1)", "accepted: auto or a whole number from 1 to 4096"),
        ("solver(samples=Auto)", "accepted: auto or a whole number from 1 to 4096"),
        (
            "solver(nodes=5)",
            "unknown parameter 'nodes' of policy solver; accepted: samples, "
            "exact, stop, leaf_cards",
        ),
        ("solver(nodes=-1)", "unknown parameter 'nodes' of policy solver; accepted: samples"),
        ("solver(exact=21)", "accepted: a whole number from 1 to 20"),
        ("solver(stop=-1)", "accepted: a whole number from 0 to 100"),
        ("solver(depth=deal)", "unknown parameter 'depth'"),
    ],
)
def test_bad_solver_specs_say_what_is_accepted(spec: str, match: str) -> None:
    with pytest.raises(ValueError, match=match.replace("(", r"\(").replace(")", r"\)")):
        parse_policy(spec)


def test_bad_solver_spec_on_the_command_line_exits_2() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "cuarenta_sim", "simulate", "--policies", "solver(samples=0)"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
        check=False,
    )
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr.count("\n") == 1 and "Traceback" not in proc.stderr
    assert "solver parameter samples" in proc.stderr


def _same(a, b) -> None:
    for name in ("hands", "games"):
        x, y = getattr(a, name), getattr(b, name)
        assert (x is None) == (y is None)
        if x is not None:
            pd.testing.assert_frame_equal(x, y)


@pytest.mark.parametrize(
    "players,policies,level,n",
    [
        (2, ("solver(samples=4)", "pimc(samples=4)"), "chica", 12),
        (4, ("heuristic", "solver(samples=3,exact=6)"), "data", 16),
    ],
)
def test_threads_and_chunks_do_not_change_solver_games(players, policies, level, n) -> None:
    base = simulate(
        rules="quito", players=players, policies=policies, n=n, level=level, seed=5, threads=1
    )
    if numba.config.NUMBA_NUM_THREADS >= 2:
        _same(
            base,
            simulate(
                rules="quito",
                players=players,
                policies=policies,
                n=n,
                level=level,
                seed=5,
                threads=2,
            ),
        )
    for chunk in (1, n // 3 + 1):
        _same(
            base,
            simulate(
                rules="quito",
                players=players,
                policies=policies,
                n=n,
                level=level,
                seed=5,
                chunk_size=chunk,
            ),
        )
    other = simulate(
        rules="quito", players=players, policies=policies, n=n, level=level, seed=6, threads=1
    )
    assert not base.hands.equals(other.hands)


def test_solver_plays_differently_from_pimc() -> None:
    """The exact solves change decisions (the policy is not pimc under another name)."""
    a = simulate(
        rules="quito", players=2, policies=("solver(samples=4)", "greedy"), n=40, seed=3
    ).hands
    b = simulate(
        rules="quito", players=2, policies=("pimc(samples=4)", "greedy"), n=40, seed=3
    ).hands
    assert not a.equals(b)


def test_solver_plays_in_a_tournament(tmp_path: Path) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "cuarenta_sim", "tournament", "--policies",
         "heuristic,solver(samples=2)", "--chicas", "4", "--threads", "1",
         "--out", str(tmp_path)],
        capture_output=True, text=True, cwd=ROOT, timeout=300, check=False,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    ratings = pd.read_csv(tmp_path / "ratings.csv")
    assert any(p.startswith("solver(samples=2") for p in ratings["policy"])


class _AutoProbe:
    """A heuristic seat that, at its late decisions of a 4-player data, runs the reference
    solver (:func:`cuarenta_sim.cuarenta.reference.search.solver_index`) with ``samples=auto``
    and with the explicit count on copies of its search stream: both must agree."""

    name = "auto_probe"
    stochastic = False
    search = True

    def __init__(self) -> None:
        self.heuristic = resolve_policy("heuristic")
        self.auto = tuple(int(v) for v in parse_policy("solver(exact=1)").row())
        self.fixed = tuple(
            int(v) for v in parse_policy(f"solver(samples={AUTO_SAMPLES_4},exact=1)").row()
        )
        self.checked = 0

    def choose(self, obs, rng: PyRng) -> int:
        if self.checked < 2 and obs.turn >= 12 and len(obs.plays) > 1:
            picks, states = [], []
            for params in (self.auto, self.fixed):
                stream = PyRng(0)
                stream.s = list(rng.s)
                picks.append(_solver_index_of(params, obs, stream))
                states.append(stream.s)
            assert picks[0] == picks[1] and states[0] == states[1]
            self.checked += 1
        return self.heuristic.choose(obs, rng)


def _solver_index_of(params: tuple[int, ...], obs, rng: PyRng) -> int:
    return solver_index(
        params, obs.rules, obs.players, obs.seat, obs.dealer, obs.deal, obs.turn, obs.hand,
        obs.table, obs.trail, obs.trail_seat, obs.played, obs.rondas, obs.known,
        obs.hand_sizes, obs.scores, obs.piles, obs.last_capturer, obs.stop_at_target, rng,
    )  # fmt: skip


def test_reference_solver_resolves_auto_as_the_kernel() -> None:
    """The reference twin resolves ``samples=auto`` with 4 players to the same count (same
    play, same draws from the search stream) as the kernel's ``solver_samples``."""
    probe = _AutoProbe()
    play_game("quito", players=4, policies=(probe, "heuristic"), seed=3, level="data")
    assert probe.checked == 2
