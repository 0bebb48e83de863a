"""The ``solve`` scenario against brute-force enumeration on 10,000 random last-deal positions.

Issue 12's target: 0 disagreements. Each position comes from
:func:`cuarenta_sim.cuarenta.reference.positions.random_position` (a seeded data of random play
stopped at a random turn of its last deal); the scenario's ``values`` (the numba solver) must
equal :func:`cuarenta_sim.cuarenta.reference.solver.solve_values` (every line enumerated with
the reference engine), ``best`` their maximum, and the principal line must earn ``best``.
Positions are split evenly over the four presets and 2 / 4 players; as in the slow tests, 2
players start at turns 2..9 of the last deal and 4 players at turns 11..19, since the brute
force from a deal's first turn takes seconds per position.

Run: ``python benchmarks/solve_vs_brute_force.py [--positions 10000] [--seed 17]``; prints one
line per (preset, players) and the total, writes ``benchmarks/results/solve_vs_brute_force.json``
and exits 1 on any disagreement. About 15 minutes on 2 cores.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from cuarenta_sim.cuarenta.reference.positions import random_position
from cuarenta_sim.cuarenta.reference.solver import (
    SolverPosition,
    solve_scenario,
    solve_values,
)
from cuarenta_sim.cuarenta.rules import PRESETS
from cuarenta_sim.io import write_text_atomic
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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--positions", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=17)
    parser.add_argument("--out", type=Path, default=Path(__file__).parent / "results")
    args = parser.parse_args(argv)
    if args.positions < len(PRESETS) * len(SETUPS):
        parser.error(f"--positions must be at least {len(PRESETS) * len(SETUPS)}")
    per = args.positions // (len(PRESETS) * len(SETUPS))
    rows, bad, t0 = [], [], time.perf_counter()
    for preset in PRESETS:
        for players, remaining in SETUPS:
            start = time.perf_counter()
            wrong = 0
            for i in range(per):
                p = random_position(preset, players, args.seed, i, max_remaining=remaining)
                what = disagreement(p)
                if what is not None:
                    wrong += 1
                    bad.append({"preset": preset, "players": players, "index": i, "what": what})
            rows.append(
                {
                    "preset": preset,
                    "players": players,
                    "positions": per,
                    "disagreements": wrong,
                    "seconds": time.perf_counter() - start,
                }
            )
            print(
                f"{preset:13s} {players}p: {per:,} positions, {wrong} disagreements "
                f"({rows[-1]['seconds']:.0f} s)",
                flush=True,
            )
    total = per * len(rows)
    wrong = sum(r["disagreements"] for r in rows)
    print(
        f"total: {total:,} positions, {wrong} disagreements, "
        f"{time.perf_counter() - t0:.0f} s; command: python benchmarks/solve_vs_brute_force.py "
        f"--positions {args.positions} --seed {args.seed}"
    )
    args.out.mkdir(parents=True, exist_ok=True)
    write_text_atomic(
        args.out / "solve_vs_brute_force.json",
        json.dumps({"seed": args.seed, "rows": rows, "disagreements": bad,
                    "positions": total}, indent=2) + "\n",
    )  # fmt: skip
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
