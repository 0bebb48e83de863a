"""Throughput of the Cuatrola simulator (``cuarenta_sim.cuatrola.simulate_cuatrola``).

Run from the repository root::

    python benchmarks/cuatrola_throughput.py            # 2M hands / 100k games, best of 3
    python benchmarks/cuatrola_throughput.py --quick    # 200k hands / 10k games, one run

It prints a table and writes ``benchmarks/results/cuatrola_throughput.json`` atomically:
hands per second (result frames included) for random and greedy play with the bidding
policies ``never`` and ``threshold`` at every seat, 1 and 2 threads, levels ``hand`` and
``game`` (games per second too), preset ``ro``; best of ``--repeats`` timed runs after a
warm-up call of the same configuration. Target (issue 7): random play, 2 threads, level hand
>= 1,000,000 hands/s.
"""

from __future__ import annotations

import argparse
import platform
import sys
import time
from pathlib import Path
from typing import Any

import numba

from cuarenta_sim import __version__
from cuarenta_sim.cuatrola.simulation import simulate_cuatrola
from cuarenta_sim.io import write_json_atomic

DEFAULT_OUT = Path(__file__).resolve().parent / "results" / "cuatrola_throughput.json"
#: (description, configuration key, bound in hands per second).
TARGETS = [("random play, never bid, 2 threads, level hand", "hand/random/never/2t", 1.0e6)]


def run_config(
    *, play: str, bid: str, level: str, threads: int, n: int, repeats: int
) -> dict[str, Any]:
    """Time one configuration: best of ``repeats`` runs after a warm-up call.

    Returns
    -------
    dict
        The configuration, ``seconds`` (best run), ``hands``, ``hands_per_s`` and, at level
        game, ``games_per_s``.
    """
    kwargs = dict(rules="ro", play_policies=play, bid_policies=bid, level=level, threads=threads)
    simulate_cuatrola(n=max(1, n // 100), seed=12345, **kwargs)
    best, hands = float("inf"), 0
    for rep in range(repeats):
        t0 = time.perf_counter()
        out = simulate_cuatrola(n=n, seed=rep, **kwargs)
        elapsed = time.perf_counter() - t0
        if elapsed < best:
            best, hands = elapsed, len(out.hands)
    row: dict[str, Any] = {
        "key": f"{level}/{play}/{bid}/{threads}t",
        "level": level,
        "play": play,
        "bid": bid,
        "threads": threads,
        "n": n,
        "seconds": best,
        "hands": hands,
        "hands_per_s": hands / best,
    }
    if level == "game":
        row["games_per_s"] = n / best
    return row


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark; returns 0 (targets are reported, not enforced)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small counts, one run")
    parser.add_argument("--n", type=int, default=None, help="hands per timed run")
    parser.add_argument("--repeats", type=int, default=None)
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    args = parser.parse_args(argv)
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
                    print(f"{row['key']:<28} {row['hands_per_s']:>12,.0f} hands/s{extra}")
    by_key = {r["key"]: r for r in rows}
    checks = []
    for desc, key, bound in TARGETS:
        value = by_key[key]["hands_per_s"] if key in by_key else None
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


if __name__ == "__main__":
    raise SystemExit(main())
