"""Helpers of the solver tests: the kernel solver on a reference position, and the ``solve``
scenario of a reference position."""

from __future__ import annotations

from typing import Any

from cuarenta_sim.cuarenta.cards import RANK_NAMES, counts_to_ranks
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


def scenario_of(p: SolverPosition) -> dict[str, Any]:
    """The ``solve`` scenario (spec section F) of a last-deal position."""
    n = p.players
    seat = p.seat
    scenario: dict[str, Any] = {
        "kind": "solve",
        "rules": p.rules.slug(),
        "players": n,
        "dealer": p.dealer,
        "scores": list(p.scores),
        "table": [RANK_NAMES[r] for r in counts_to_ranks(p.table)],
        "seat": seat,
        "deal": p.deal + 1,
        "previous": None
        if p.trail is None
        else {"seat": (seat - 1) % n, "trail": RANK_NAMES[p.trail], "deal": p.deal + 1}
        if p.turn > 0
        else {"seat": (seat - 1) % n, "trail": RANK_NAMES[p.trail], "deal": p.deal},
        "rondas": [[RANK_NAMES[r] for r in ranks] for ranks in p.rondas],
        "hands": [[RANK_NAMES[r] for r in counts_to_ranks(h)] for h in p.hands],
        "cards": list(p.piles),
        "last_capturer": p.last_capturer,
        "claims": list(p.claims),
    }
    if len(p.claim_order) == 2:
        scenario["first_claim"] = p.claim_order[0]
    return scenario
