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
from cuarenta_sim.cuarenta.policies import POLICIES, SOLVER_PARAMS, parse_policy
from cuarenta_sim.cuarenta.policies.kernel import P_EXACT, P_SAMPLES, P_STOP, POLICY_SOLVER
from cuarenta_sim.cuarenta.reference.policies import SolverPolicy, resolve_policy

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


@pytest.mark.parametrize(
    "spec,match",
    [
        (
            "solver(samples=0)",
            "bad value '0' for solver parameter samples; accepted: a whole number from 1 to 4096",
        ),
        (
            "solver(nodes=5)",
            "unknown parameter 'nodes' of policy solver; accepted: samples, "
            "exact, stop, leaf_cards",
        ),
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
