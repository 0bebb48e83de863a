"""Throughput of the Cuatrola simulator (``cuarenta_sim.simulate("cuatrola", ...)``).

Target ``cuatrola-throughput`` of ``benchmarks/run.py``, from the repository root::

    python benchmarks/run.py cuatrola-throughput            # 2M hands / 100k games, best of 3
    python benchmarks/run.py cuatrola-throughput --quick    # 200k hands / 10k games, one run

It prints a table and writes ``benchmarks/results/cuatrola_throughput.json`` atomically:
hands per second (result frames included) for random and greedy play with the bidding
policies ``never`` and ``threshold`` at every seat, 1 and 2 threads, levels ``hand`` and
``game`` (games per second too), and the ``pimc`` lookahead (16 samples, ``n / 400`` hands;
decisions = plays per second), preset ``ro``; best of ``--repeats`` timed runs after a
warm-up call of the same configuration. Targets (issue 7): random play, 2 threads, level hand
>= 1,000,000 hands/s; the lookahead >= 5,000 decisions/s.
"""

from __future__ import annotations

import argparse
import platform
import sys
import time
from typing import Any

import numba
import numpy as np

from cuarenta_sim import __version__, simulate
from cuarenta_sim.io import write_json_atomic

#: (description, configuration key, figure, lower bound).
TARGETS = [
    ("random play, never bid, 2 threads, level hand", "hand/random/never/2t", "hands_per_s", 1.0e6),
    ("pimc play (16 samples), 2 threads", "hand/pimc/threshold/2t", "decisions_per_s", 5.0e3),
]


def run_config(
    *, play: str, bid: str, level: str, threads: int, n: int, repeats: int
) -> dict[str, Any]:
    """Time one configuration: best of ``repeats`` runs after a warm-up call.

    Returns
    -------
    dict
        The configuration, ``seconds`` (best run), ``cpu_seconds`` (its process CPU time: on a
        machine shared with other work, ``hands_per_cpu_s`` times the threads is what an idle
        machine would reach), ``hands``, ``hands_per_s``, ``plays`` and
        ``decisions_per_s`` (every play is a decision of the seat's policy; for ``pimc`` about
        half have two or more legal cards and run the search) and, at level game,
        ``games_per_s``.
    """
    kwargs = dict(rules="ro", policies=play, bid_policies=bid, level=level, threads=threads)
    simulate("cuatrola", n=max(1, n // 100), seed=12345, **kwargs)
    best, cpu, hands, plays = float("inf"), 0.0, 0, 0
    for rep in range(repeats):
        t0, c0 = time.perf_counter(), time.process_time()
        out = simulate("cuatrola", n=n, seed=rep, **kwargs)
        elapsed = time.perf_counter() - t0
        if elapsed < best:
            best, cpu, hands = elapsed, time.process_time() - c0, len(out.hands)
            # 20 plays without contract, 15 with one (the declarer's partner sits out).
            plays = int(np.where(out.hands["contract"] > 0, 15, 20).sum())
    row: dict[str, Any] = {
        "key": f"{level}/{play}/{bid}/{threads}t",
        "level": level,
        "play": play,
        "bid": bid,
        "threads": threads,
        "n": n,
        "seconds": best,
        "cpu_seconds": cpu,
        "hands": hands,
        "hands_per_cpu_s": hands / max(cpu, 1e-9),
        "hands_per_s": hands / best,
        "plays": plays,
        "decisions_per_s": plays / best,
    }
    if level == "game":
        row["games_per_s"] = n / best
    return row


def options(parser: argparse.ArgumentParser) -> None:
    """Add the target's options (sizes) to ``parser``."""
    parser.add_argument("--quick", action="store_true", help="small counts, one run")
    parser.add_argument("--n", type=int, default=None, help="hands per timed run")
    parser.add_argument("--repeats", type=int, default=None)


def run(args: argparse.Namespace) -> int:
    """Run the benchmark, write ``args.out``; returns 0 (targets are reported, not enforced)."""
    n = args.n or (200_000 if args.quick else 2_000_000)
    repeats = args.repeats or (1 if args.quick else 3)
    max_threads = min(2, numba.config.NUMBA_NUM_THREADS)
    rows = []
    for level in ("hand", "game"):
        for play in ("random", "greedy"):
            for bid in ("never", "threshold"):
                for threads in sorted({1, max_threads}):
                    count = n if level == "hand" else max(1, n // 20)
                    row = run_config(play=play, bid=bid, level=level, threads=threads,
                                     n=count, repeats=repeats)  # fmt: skip
                    rows.append(row)
                    extra = f"  {row['games_per_s']:>10,.0f} games/s" if level == "game" else ""
                    print(
                        f"{row['key']:<28} {row['hands_per_s']:>12,.0f} hands/s "
                        f"({row['hands_per_cpu_s']:>10,.0f} per CPU s){extra}"
                    )
    for threads in sorted({1, max_threads}):
        row = run_config(play="pimc", bid="threshold", level="hand", threads=threads,
                         n=max(1, n // 400), repeats=repeats)  # fmt: skip
        rows.append(row)
        print(f"{row['key']:<28} {row['decisions_per_s']:>12,.0f} decisions/s")
    by_key = {r["key"]: r for r in rows}
    checks = []
    for desc, key, figure, bound in TARGETS:
        value = by_key[key][figure] if key in by_key else None
        status = "not measured" if value is None else ("pass" if value >= bound else "FAIL")
        checks.append({"target": desc, "key": key, "bound": bound, "value": value,
                       "status": status})  # fmt: skip
        print(f"target {desc}: >= {bound:,.0f}: {status}")
    results = {
        "package_version": __version__,
        "python": sys.version.split()[0],
        "numba": numba.__version__,
        "machine": platform.machine(),
        "cpus": numba.config.NUMBA_NUM_THREADS,
        "created": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "throughput": rows,
        "targets": checks,
    }
    write_json_atomic(args.out, results)
    print(f"wrote {args.out}")
    return 0
