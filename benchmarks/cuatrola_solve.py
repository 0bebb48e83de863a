"""Cuatrola's ``solve`` scenario against brute-force enumeration (issue 22 item 1).

Issue 22's target: 0 differences on 10,000 positions. Each position comes from
:func:`cuarenta_sim.cuatrola.reference.solver.random_position`: a seeded hand of random cards
(all four playing at even indices; random bids, almost always a contract, at odd ones) stopped
with at most ``--max-remaining`` plays left; the positions are split evenly over the presets
``ro`` and ``online``. For each, the judge's ``solve`` answer (values from the numba solver)
must equal :func:`~cuarenta_sim.cuatrola.reference.solver.brute_values` (every line enumerated
with the reference engine), ``best`` their maximum, and the principal line's points must
earn ``best``. It also times, on one thread, the numba solver alone (a reused
:class:`~cuarenta_sim.cuatrola.engine.solver.Solver`), the judge and the brute force on the
same positions, and the numba solver from the first play of a hand (``--full`` positions, no
brute force: too slow there).

Target ``cuatrola-solve`` of ``benchmarks/run.py``:
``python benchmarks/run.py cuatrola-solve [--positions 10000] [--seed 17] [--max-remaining 12]
[--full 500]``; prints the counts and positions per second, writes
``benchmarks/results/cuatrola_solve.json`` and exits 1 on any difference. Benchmarks on a
shared machine are noisy: give the command with the figures.
"""

from __future__ import annotations

import argparse
import time
from typing import Any

from cuarenta_sim import __version__
from cuarenta_sim.cuatrola.engine.solver import Solver, warmup
from cuarenta_sim.cuatrola.reference.solver import SolvePosition, brute_values, random_position
from cuarenta_sim.cuatrola.scenario_solve import solve_scenario
from cuarenta_sim.io import write_json_atomic
from cuarenta_sim.scenario import evaluate

PRESETS = ("ro", "online")


def difference(p: SolvePosition, preset: str, ref: list[tuple[int, int]]) -> str | None:
    """None when the judge agrees with the brute force ``ref`` at ``p``, else what differed."""
    out = evaluate(solve_scenario(p, preset))
    if "error" in out:
        return f"error {out['error']}"
    got = [v["value"] for v in out["values"]]
    want = [v for _c, v in ref]
    if got != want:
        return f"values {got} != brute force {want}"
    side = p.seat % 2
    if out["best"] != max(want) or out["points"][side] - out["points"][1 - side] != out["best"]:
        return f"best {out['best']} != {max(want)} or principal line off"
    return None


def check(preset: str, n: int, seed: int, max_remaining: int) -> dict[str, Any]:
    """Check ``n`` positions of one preset; the row with counts, timings and differences."""
    positions = [random_position(preset, seed, i, max_remaining) for i in range(n)]
    solver = Solver()
    t0 = time.perf_counter()
    fast = [solver.values(p) for p in positions]
    t_numba = time.perf_counter() - t0
    t0 = time.perf_counter()
    refs = [brute_values(p) for p in positions]
    t_brute = time.perf_counter() - t0
    t0 = time.perf_counter()
    bad = []
    for i, (p, ref) in enumerate(zip(positions, refs, strict=True)):
        what = difference(p, preset, ref)
        if what is not None:
            bad.append({"preset": preset, "index": i, "what": what, "position": p.describe()})
    t_judge = time.perf_counter() - t0
    numba_diff = sum(f != r for f, r in zip(fast, refs, strict=True))
    return {
        "preset": preset,
        "positions": n,
        "differences": len(bad),
        "numba_differences": numba_diff,
        "plays_valued": sum(len(r) for r in refs),
        "numba_positions_per_s": n / t_numba,
        "judge_positions_per_s": n / t_judge,
        "brute_positions_per_s": n / t_brute,
        "bad": bad,
    }


def full_hands(n: int, seed: int) -> dict[str, Any]:
    """Numba positions per second from the first play of a hand (every legal card valued)."""
    positions = [random_position(PRESETS[i // 2 % 2], seed, i, 20, 20) for i in range(n)]
    solver = Solver()
    t0 = time.perf_counter()
    for p in positions:
        solver.values(p)
    seconds = time.perf_counter() - t0
    four = sum(p.sits_out < 0 for p in positions)
    return {"positions": n, "four_players": four, "positions_per_s": n / seconds}


def options(parser: argparse.ArgumentParser) -> None:
    """Add the target's options (sizes) to ``parser``."""
    parser.add_argument("--positions", type=int, default=10_000, help="split over the presets")
    parser.add_argument("--seed", type=int, default=17)
    parser.add_argument(
        "--max-remaining", type=int, default=12, help="most plays left in a checked position"
    )
    parser.add_argument("--full", type=int, default=500, help="full hands timed (numba only)")


def run(args: argparse.Namespace) -> int:
    """Check, print, write ``args.out``; exit status 1 on any difference."""
    if args.positions < len(PRESETS):
        args.error(f"--positions must be at least {len(PRESETS)}, got {args.positions}")
    if not 1 <= args.max_remaining <= 20:
        args.error(f"--max-remaining must be 1..20 plays, got {args.max_remaining}")
    if args.full < 0:
        args.error(f"--full must be 0 or more positions, got {args.full}")
    warmup()
    per = args.positions // len(PRESETS)
    rows, bad = [], []
    for preset in PRESETS:
        row = check(preset, per, args.seed, args.max_remaining)
        bad += row.pop("bad")
        rows.append(row)
        print(
            f"{preset:7s}: {per:,} positions, {row['differences']} differences "
            f"(numba alone {row['numba_differences']}); numba {row['numba_positions_per_s']:,.0f} "
            f"positions/s, judge {row['judge_positions_per_s']:,.0f}/s, brute force "
            f"{row['brute_positions_per_s']:,.0f}/s",
            flush=True,
        )
    full = full_hands(args.full, args.seed) if args.full else None
    if full:
        print(
            f"first play of a hand: {full['positions']} positions ({full['four_players']} "
            f"with four players), numba {full['positions_per_s']:,.0f} positions/s"
        )
    total = per * len(rows)
    wrong = sum(r["differences"] + r["numba_differences"] for r in rows)
    print(
        f"cuatrola solve vs brute force: {wrong} differences on {total:,} positions; "
        f"command: {args.command}"
    )
    write_json_atomic(
        args.out,
        {"seed": args.seed, "max_remaining": args.max_remaining, "positions": total,
         "differences": wrong, "rows": rows, "bad": bad, "full_hands": full,
         "package_version": __version__, "command": args.command},
    )  # fmt: skip
    return 1 if wrong else 0
