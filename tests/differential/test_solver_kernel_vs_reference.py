"""The ``solver`` policy: numba kernel against its reference twin, play for play.

The kernel (:mod:`cuarenta_sim.cuarenta.engine.solverplay`, alpha-beta solves) and the reference
(:func:`cuarenta_sim.cuarenta.reference.search.solver_index`, brute-force solves) must choose
the same play at every turn of seeded datas and chicas: the traces and records agree exactly.
Small sizes (few samples, a small ``exact`` horizon so the brute force stays quick) run by
default; both the exact solves and the playouts, early stopping and the 2-player last deal
solved once are exercised.
"""

from __future__ import annotations

import pytest
from test_kernel_vs_reference import compare

from cuarenta_sim.cuarenta.reference.search import clearly_best


@pytest.mark.parametrize(
    "preset,players,policies,level,n",
    [
        ("quito", 2, ("solver(samples=3,exact=5)", "heuristic"), "data", 6),
        ("quito", 2, ("greedy", "solver(samples=6,exact=4,stop=1)"), "data", 4),
        ("pagat", 2, ("solver(samples=2,exact=6,stop=0)", "pimc(samples=2)"), "chica", 2),
        ("quito", 4, ("solver(samples=2,exact=5)", "heuristic"), "data", 3),
        # samples=auto (the default): 32 samples with 2 players in both twins.
        ("quito", 2, ("heuristic", "solver(exact=3)"), "data", 1),
        ("cuenca", 4, ("random", "solver(samples=5,exact=4,stop=1)"), "data", 3),
    ],
)
def test_solver_kernel_matches_reference(
    preset: str, players: int, policies: tuple[str, str], level: str, n: int
) -> None:
    compare(preset, players, policies, level, n, seed=7)


def test_clearly_best_rule() -> None:
    """The early-stopping rule: a consistent lead stops, a noisy or tied-negative one does not."""
    assert clearly_best([[5, 1], [6, 2], [7, 3], [5, 1]], 0, 2)
    assert not clearly_best([[5, 1], [0, 2], [7, 3], [5, 9]], 0, 2)
    # Indistinguishable plays do not prevent stopping; a play never behind is not beaten.
    assert clearly_best([[5, 5, 1], [6, 6, 2], [7, 7, 3], [5, 5, 1]], 0, 2)
    assert not clearly_best([[5, 5], [6, 7], [7, 7], [5, 5]], 0, 2)
