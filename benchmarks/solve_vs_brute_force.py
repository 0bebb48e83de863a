"""The ``solve`` scenario against brute-force enumeration on 10,000 random last-deal positions.

Issue 12's target: 0 disagreements. Each position comes from
:func:`cuarenta_sim.cuarenta.reference.positions.random_position` (a seeded data of random play
stopped at a random turn of its last deal); the scenario's ``values`` (the numba solver) must
equal :func:`cuarenta_sim.cuarenta.reference.solver.solve_values` (every line enumerated with
the reference engine), ``best`` their maximum, and the principal line must earn ``best``.
Positions are split evenly over the four presets and 2 / 4 players; as in the slow tests, 2
players start at turns 2..9 of the last deal and 4 players at turns 11..19, since the brute
force from a deal's first turn takes seconds per position.

Target ``solve-vs-brute-force`` of ``benchmarks/run.py``:
``python benchmarks/run.py solve-vs-brute-force [--positions 10000] [--seed 17]``; prints one
line per (preset, players) and the total, writes ``benchmarks/results/solve_vs_brute_force.json``
and exits 1 on any disagreement. About 15 minutes on 2 cores. Each finished (preset, players)
row is appended to ``results/solve_vs_brute_force.partial.jsonl`` (:class:`benchcli.Journal`):
a run cut short keeps its rows and the same command resumes after them.
"""

from __future__ import annotations

import argparse
import time
from typing import Any

from benchcli import Journal

from cuarenta_sim import __version__
from cuarenta_sim.cuarenta.reference.positions import random_position
from cuarenta_sim.cuarenta.reference.solver import (
    SolverPosition,
    solve_scenario,
    solve_values,
)
from cuarenta_sim.cuarenta.rules import PRESETS
from cuarenta_sim.io import write_json_atomic
from cuarenta_sim.scenario import evaluate

#: (players, max_remaining turns of the last deal) checked, as in tests/solver.
SETUPS = ((2, 8), (4, 9))


def disagreement(p: SolverPosition) -> str | None:
    """None when the scenario agrees with brute force at ``p``, else what differed."""
    ref = [v for _play, v in solve_values(p)]
    out = evaluate(solve_scenario(p))
    if "error" in out:
        return f"error {out['error']}"
    got = [v["value"] for v in out["values"]]
    if got != ref:
        return f"values {got} != brute force {ref}"
    side = p.seat % 2
    if out["best"] != max(ref) or out["points"][side] - out["points"][1 - side] != out["best"]:
        return f"best {out['best']} != {max(ref)} or principal line off"
    return None


def check_row(preset: str, players: int, remaining: int, per: int, seed: int) -> dict[str, Any]:
    """Check ``per`` positions of one (preset, players) setup; the row with its
    disagreements (``bad``: preset, players, index and what differed)."""
    start = time.perf_counter()
    bad = []
    for i in range(per):
        p = random_position(preset, players, seed, i, max_remaining=remaining)
        what = disagreement(p)
        if what is not None:
            bad.append({"preset": preset, "players": players, "index": i, "what": what})
    return {
        "preset": preset,
        "players": players,
        "positions": per,
        "disagreements": len(bad),
        "seconds": time.perf_counter() - start,
        "bad": bad,
    }


def options(parser: argparse.ArgumentParser) -> None:
    """Add the target's options (sizes) to ``parser``."""
    parser.add_argument(
        "--positions", type=int, default=10_000, help="positions, split over presets and players"
    )
    parser.add_argument("--seed", type=int, default=17)


def run(args: argparse.Namespace) -> int:
    """Check, print, write ``args.out``; exit status 1 on any disagreement."""
    if args.positions < len(PRESETS) * len(SETUPS):
        args.error(f"--positions must be at least {len(PRESETS) * len(SETUPS)}")
    per = args.positions // (len(PRESETS) * len(SETUPS))
    journal = Journal(args.out, fresh=args.fresh)
    rows, bad, t0 = [], [], time.perf_counter()
    for preset in PRESETS:
        for players, remaining in SETUPS:
            identity = {"preset": preset, "players": players, "positions": per,
                        "seed": args.seed, "package_version": __version__}  # fmt: skip
            row = dict(journal.row(
                identity, lambda: check_row(preset, players, remaining, per, args.seed)  # noqa: B023
            ))  # fmt: skip
            bad += row.pop("bad")
            rows.append(row)
            print(
                f"{preset:13s} {players}p: {per:,} positions, {row['disagreements']} "
                f"disagreements ({row['seconds']:.0f} s)",
                flush=True,
            )
    total = per * len(rows)
    wrong = sum(r["disagreements"] for r in rows)
    print(
        f"total: {total:,} positions, {wrong} disagreements, "
        f"{time.perf_counter() - t0:.0f} s; command: {args.command}"
    )
    write_json_atomic(args.out, {"seed": args.seed, "rows": rows, "disagreements": bad,
                                 "positions": total})  # fmt: skip
    journal.finish()
    return 1 if wrong else 0
