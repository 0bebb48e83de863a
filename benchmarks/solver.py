"""Speed of the exact solver (:mod:`cuarenta_sim.cuarenta.engine.solver`).

Target ``solver`` of ``benchmarks/run.py``, from the repository root::

    python benchmarks/run.py solver                    # 200 positions (2 players), 20 (4 players)
    python benchmarks/run.py solver --positions 50 --positions4 5

It prints and writes ``benchmarks/results/solver.json`` (atomically): for 2 and 4 players
(Quito rules), the positions solved per second **from the start of the last deal** (the
leader's first play, every legal play valued exactly to the end of the data) and from a random
turn of it, with the nodes searched per position and per second. Positions are those of
:func:`cuarenta_sim.cuarenta.reference.positions.random_position` (a data of random play, scores
near the thresholds half the time); one transposition table of ``2**--bits`` entries is reused
(a new generation per position); one thread; a warm-up solve first (numba's cache). Because the
machine may be shared it also reports the process's CPU share (CPU time over wall time) and the
positions per CPU-second, which contention does not change.

Benchmarks on a shared machine are noisy: give the command with the figures.
"""

from __future__ import annotations

import argparse
import platform
import time
from typing import Any

import numba
import numpy as np

from cuarenta_sim import __version__
from cuarenta_sim.cuarenta.engine.moves import build_kernel_sums
from cuarenta_sim.cuarenta.engine.solver import (
    MAX_MOVES,
    STAT_NODES,
    SolveOptions,
    new_table,
    position_array,
    solve_position,
)
from cuarenta_sim.cuarenta.reference.positions import random_position
from cuarenta_sim.cuarenta.reference.solver import SolverPosition
from cuarenta_sim.cuarenta.rules import resolve_rules
from cuarenta_sim.io import write_json_atomic
from cuarenta_sim.reports import text_table


def _array(p: SolverPosition) -> np.ndarray:
    return position_array(*p.kernel_args())


def measure(players: int, n: int, start: bool, bits: int, seed: int) -> dict[str, Any]:
    """Solve ``n`` positions of the last deal; return the timing row (module docstring)."""
    rules = resolve_rules("quito")
    kernel_rules = rules.to_kernel()
    sums = build_kernel_sums(kernel_rules.max_sum_cards)
    options = SolveOptions()
    positions = [
        _array(random_position(rules, players, seed, i, turn=0 if start else None))
        for i in range(n)
    ]
    tt = new_table(bits)
    values = np.zeros(MAX_MOVES, dtype=np.int64)
    solve_position(kernel_rules, sums, options, positions[0], tt, values)  # warm-up
    nodes = 0
    worst = 0.0
    t0 = time.perf_counter()
    c0 = time.process_time()
    for pos in positions:
        t1 = time.perf_counter()
        solve_position(kernel_rules, sums, options, pos, tt, values)
        worst = max(worst, time.perf_counter() - t1)
        nodes += int(tt.stats[STAT_NODES])
    wall = time.perf_counter() - t0
    cpu = time.process_time() - c0
    return {
        "players": players,
        "from": "deal start" if start else "random turn",
        "positions": n,
        "seconds": round(wall, 3),
        "positions_per_s": round(n / wall, 2),
        "cpu_share": round(cpu / wall, 2),
        "positions_per_cpu_s": round(n / cpu, 2),
        "slowest_s": round(worst, 3),
        "nodes_per_position": round(nodes / n),
        "nodes_per_s": round(nodes / wall),
    }


def options(parser: argparse.ArgumentParser) -> None:
    """Add the target's options (sizes) to ``parser``."""
    parser.add_argument("--positions", type=int, default=200, help="2-player positions")
    parser.add_argument("--positions4", type=int, default=20, help="4-player positions")
    parser.add_argument("--bits", type=int, default=20, help="table size: 2**bits entries")
    parser.add_argument("--seed", type=int, default=1)


def run(args: argparse.Namespace) -> int:
    """Run the benchmark (module docstring), write ``args.out``; return the exit status."""
    if args.positions < 1 or args.positions4 < 1:
        args.error("--positions and --positions4 must be at least 1")
    rows = []
    for players, n in ((2, args.positions), (4, args.positions4)):
        for start in (True, False):
            rows.append(measure(players, n, start, args.bits, args.seed))
    results = {
        "benchmark": "solver",
        "command": args.command,
        "version": __version__,
        "python": platform.python_version(),
        "numba": numba.__version__,
        "machine": platform.machine(),
        "table_bits": args.bits,
        "rows": rows,
    }
    columns = list(rows[0])
    print(text_table(columns, [[row[c] for c in columns] for row in rows]))
    write_json_atomic(args.out, results)
    return 0
