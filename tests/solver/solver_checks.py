"""Helpers of the solver tests: the kernel solver on a reference position, and the ``solve``
scenario of a reference position."""

from __future__ import annotations

from cuarenta_sim.cuarenta.engine.solver import SolveOptions, SolverTable, solve_counts
from cuarenta_sim.cuarenta.reference.solver import SolverPosition


def kernel_values(
    p: SolverPosition, options: SolveOptions | None = None, tt: SolverTable | None = None
) -> list[int]:
    """The numba solver's values of every legal play at ``p`` (canonical order)."""
    return solve_counts(
        p.rules,
        p.players,
        p.dealer,
        p.deal,
        p.turn,
        p.hands,
        p.rondas,
        p.table,
        -1 if p.trail is None else p.trail,
        p.scores,
        p.piles,
        -1 if p.last_capturer is None else p.last_capturer,
        p.claims,
        p.claim_order[0] if p.claim_order else -1,
        options=options,
        tt=tt,
    )
