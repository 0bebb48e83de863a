"""Helpers of the solver tests: the kernel solver on a reference position, and the ``solve``
scenario of a reference position."""

from __future__ import annotations

from cuarenta_sim.cuarenta.engine.solver import SolveOptions, SolverTable, solve_counts
from cuarenta_sim.cuarenta.reference.solver import SolverPosition


def kernel_values(
    p: SolverPosition, options: SolveOptions | None = None, tt: SolverTable | None = None
) -> list[int]:
    """The numba solver's values of every legal play at ``p`` (canonical order)."""
    return solve_counts(p.rules, *p.kernel_args(), options=options, tt=tt)
