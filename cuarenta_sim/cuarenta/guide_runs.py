"""Every run the player's guide's numbers come from, for its provenance and Methods (issue 18).

The guide plays more than its two headline level-data runs: timed speed runs, traced mesas
for the win probabilities, reference-engine chicas for the decisions, duplicate chicas for the
gains, traced datas for the edge by deal and seat, other players' self-play for the edge's
range and replicate seeds for the convergence figure. :func:`guide_runs` lists them all, one
dict per run (the headline and replicate runs carry the simulator's own provenance: root seed
and wall time), and :func:`runs_table` prints them for the Methods section.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .guide_analysis import EDGE_PANEL, VALUE_POLICY

#: Keys of a simulator provenance record kept in a run entry.
_KEEP = ("rules", "players", "policies", "level", "n", "seed", "root", "wall_time_s")


def _run(
    part: str, engine: str, level: str, players: int, policies: Any, n: int, seed: int, **extra: Any
) -> dict[str, Any]:
    return {
        "part": part,
        "engine": engine,
        "rules": "quito",
        "level": level,
        "players": int(players),
        "policies": policies if isinstance(policies, str) else list(policies),
        "n": int(n),
        "seed": int(seed),
        **extra,
    }


def measured(part: str, provenance: Mapping[str, Any]) -> dict[str, Any]:
    """A run entry from a :func:`cuarenta_sim.simulate` provenance record (root, wall time)."""
    kept = {k: provenance[k] for k in _KEEP if k in provenance}
    return {"part": part, "engine": "numba batch", **kept}


def guide_runs(
    strong: str,
    seed: int,
    n: int,
    sizes: Mapping[str, int],
    others: Sequence[str],
    speeds: Sequence[tuple[str, int]],
    headline: Sequence[Mapping[str, Any]],
    replicates: Sequence[Mapping[str, Any]],
) -> list[dict[str, Any]]:
    """Every run behind the guide's numbers, in the order the report uses them.

    Parameters
    ----------
    strong : str
        The guide's player (policy spec).
    seed : int
        The guide's seed.
    n : int
        The guide's ``--n`` (the edge panel's sizes are ``max(10, n // divisor)``,
        :data:`~cuarenta_sim.cuarenta.guide_analysis.EDGE_PANEL`).
    sizes : mapping
        :func:`cuarenta_sim.cuarenta.guide.guide_sizes` (``mesas``, ``decision_chicas``,
        ``duplicates``, ``datas``, ``trace_datas``).
    others : sequence of str
        Opponents of the duplicate gains.
    speeds : sequence of (policy, datas)
        The timed speed runs (each after a 2-data warm-up).
    headline : sequence of mapping
        Simulator provenance of the dealer's-edge runs (2 then 4 players).
    replicates : sequence of mapping
        Simulator provenance of the convergence replicates.

    Returns
    -------
    list of dict
        ``part`` (what the run feeds), ``engine``, ``rules``, ``level``, ``players``,
        ``policies``, ``n`` (units of ``level``), ``seed``; measured runs also ``root`` and
        ``wall_time_s``; some a ``note``.
    """
    runs = [
        _run("speeds (Methods)", "numba batch", "data", 2, p, d, seed, note="after 2 warm-up datas")
        for p, d in speeds
    ]
    for players in (2, 4):
        runs.append(
            _run(
                "win probabilities",
                "numba batch + trace_game of every mesa",
                "mesa",
                players,
                strong,
                sizes["mesas"],
                seed,
            )
        )
    runs.append(
        _run(
            "caida risk, trail or capture, departures",
            "reference (play_game)",
            "chica",
            2,
            strong,
            sizes["decision_chicas"],
            seed,
            note=f"every decision valued by {VALUE_POLICY}; greedy and heuristic asked",
        )
    )
    for other in others:
        runs.append(
            _run(
                "gains over whole chicas",
                "numba batch, duplicate (seats swapped)",
                "chica",
                2,
                [strong, other],
                sizes["duplicates"],
                seed,
                note="n = duplicate pairs",
            )
        )
    runs += [measured("dealer's edge by source", h) for h in headline]
    for players in (2, 4):
        runs.append(
            _run(
                "dealer's edge by deal and seat",
                "trace_game",
                "data",
                players,
                strong,
                sizes["trace_datas"],
                seed,
            )
        )
    for policy, divisor in EDGE_PANEL:
        runs.append(
            _run(
                "dealer's edge under other players",
                "numba batch",
                "data",
                2,
                policy,
                max(10, n // divisor),
                seed,
            )
        )
    runs += [measured("convergence replicates", r) for r in replicates]
    return runs


def runs_table(runs: Sequence[Mapping[str, Any]]) -> list[list[str]]:
    """Rows (part, engine, level, players, policies, n, seed) of the Methods' runs table."""
    rows = []
    for r in runs:
        pol = r["policies"]
        names = list(dict.fromkeys(pol)) if isinstance(pol, list) else [pol]
        rows.append(
            [
                str(r["part"]),
                str(r["engine"]),
                str(r["level"]),
                str(r["players"]),
                " vs ".join(f"`{p}`" for p in names) + " (every seat)" * (len(names) == 1),
                f"{int(r['n']):,}",
                str(r["seed"]),
            ]
        )
    return rows


#: Headers of :func:`runs_table`.
RUNS_HEADERS = ("part", "engine", "level", "players", "policies", "n (of level)", "seed")
