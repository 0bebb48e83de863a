"""Helpers of the solver tests: the kernel solver on a reference position, and the ``solve``
scenario of a reference position."""

from __future__ import annotations

from typing import Any

from cuarenta_sim.cuarenta.engine.solver import SolveOptions, SolverTable, solve_counts
from cuarenta_sim.cuarenta.reference.solver import SolverPosition

# Quito, 2 players, the last deal's last round: seat 0 (the leader) has just trailed a 6 and
# holds a Q (4 cards played); seat 1 (the dealer) holds 6 and K (3 played); 18 cards captured
# by each side. The ``solve`` scenario the solver tests vary.
BASE: dict[str, Any] = {
    "kind": "solve",
    "rules": "quito",
    "players": 2,
    "dealer": 1,
    "seat": 1,
    "table": ["6"],
    "previous": {"seat": 0, "trail": "6"},
    "hands": [["Q"], ["6", "K"]],
    "cards": [18, 18],
    "last_capturer": 0,
}


def kernel_values(
    p: SolverPosition, options: SolveOptions | None = None, tt: SolverTable | None = None
) -> list[int]:
    """The numba solver's values of every legal play at ``p`` (canonical order)."""
    return solve_counts(p.rules, *p.kernel_args(), options=options, tt=tt)
