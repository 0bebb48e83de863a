"""Throughput, start-up cost and memory of the numba simulator.

Target ``throughput`` of ``benchmarks/run.py``, from the repository root::

    python benchmarks/run.py throughput            # full run, a few minutes on 2 cores
    python benchmarks/run.py throughput --quick    # small counts, no cold compile

(The Cuatrola kernel is the target ``cuatrola-throughput``.) It prints a table and writes
``benchmarks/results/throughput.json`` atomically. Figures:

* datas (hands) per second and plays per second of :func:`cuarenta_sim.simulate`
  (results frames included) for every built-in policy, 1 and 2 threads, 2 and 4 players,
  levels ``data`` and ``chica`` (chicas per second too); best of ``--repeats`` runs after a
  warm-up call of the same configuration;
* cold compile: a subprocess with an empty ``NUMBA_CACHE_DIR`` imports the package and makes
  its first call (everything compiled from scratch); warm: the same again with that cache
  now filled (import and first call timed separately);
* memory: in a subprocess, the peak resident set size (``resource.getrusage``) of one large
  run (10 million datas by default) and the bytes of result frames per data.

``benchmarks/README.md`` lists the targets these figures are checked against.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
from typing import Any

import numba
import numpy as np

from cuarenta_sim import __version__
from cuarenta_sim.io import write_json_atomic
from cuarenta_sim.reports import text_table

#: The policies measured here; heuristic and pimc have their own benchmark (policies.py).
BUILT_INS = ("random", "greedy")

#: Targets of benchmarks/README.md: (description, figure key, comparison, bound).
TARGETS: list[tuple[str, str, str, float]] = [
    ("random 2p datas/s, 2 threads", "data/random/2p/2t/datas_per_s", ">=", 1.5e6),
    ("greedy 2p datas/s, 2 threads", "data/greedy/2p/2t/datas_per_s", ">=", 1.0e6),
    ("greedy 4p datas/s, 2 threads", "data/greedy/4p/2t/datas_per_s", ">=", 7.0e5),
    ("greedy 2p chicas/s, 2 threads", "chica/greedy/2p/2t/chicas_per_s", ">=", 2.0e5),
    ("warm import + first call (s)", "startup/warm_total_s", "<=", 3.0),
    ("cold compile (s)", "startup/cold_total_s", "<=", 90.0),
    ("result bytes per data", "memory/result_bytes_per_data", "<=", 64.0),
    ("peak RSS of the large run (GiB)", "memory/peak_rss_gib", "<=", 2.0),
]

# Timed in a subprocess: importing the package, one small simulate call, then
# cuarenta_sim.cuarenta.engine.warmup(), which compiles (or loads) every remaining kernel.
_STARTUP_SNIPPET = """
import json, time
t0 = time.perf_counter()
from cuarenta_sim import simulate
t1 = time.perf_counter()
simulate(rules="quito", players=2, policies=("greedy", "greedy"), n=1000, seed=0,
         progress=False)
t2 = time.perf_counter()
from cuarenta_sim.cuarenta.engine import warmup
warmup()
t3 = time.perf_counter()
print(json.dumps({"import_s": t1 - t0, "first_call_s": t2 - t1, "rest_warmup_s": t3 - t2}))
"""

# Run in a subprocess so that the peak RSS belongs to the large run alone. ru_maxrss can
# carry the parent's resident size across fork + exec on Linux, so it is an upper bound;
# VmHWM of /proc/self/status (reset by exec) is the process's own peak where available.
_MEMORY_SNIPPET = """
import json, resource, sys, time
from cuarenta_sim import simulate

def hwm():
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        return None

n, threads = int(sys.argv[1]), int(sys.argv[2])
simulate(n=1000, progress=False)
base = hwm()
t0 = time.perf_counter()
res = simulate(rules="quito", players=2, policies=("greedy", "greedy"), n=n, seed=1,
               threads=threads, progress=False)
elapsed = time.perf_counter() - t0
hands_bytes = int(res.hands.memory_usage(deep=True).sum())
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
print(json.dumps({"n": n, "threads": threads, "seconds": elapsed, "baseline_hwm_bytes": base,
                  "peak_rss_bytes": peak, "peak_hwm_bytes": hwm(),
                  "result_bytes": hands_bytes, "rows": len(res.hands)}))
"""


def run_config(
    *, policy: str, players: int, level: str, threads: int, n: int, repeats: int
) -> dict[str, Any]:
    """Time one simulator configuration; best of ``repeats`` after a warm-up call.

    Parameters
    ----------
    policy : str
        Built-in policy name, used at every seat.
    players : int
        2 or 4.
    level : str
        ``"data"`` or ``"chica"``.
    threads : int
        Worker threads passed to ``simulate``.
    n : int
        Datas (level data) or chicas (level chica) per timed run.
    repeats : int
        Timed runs; the fastest counts.

    Returns
    -------
    dict
        The configuration, ``seconds`` (best run), ``datas``, ``plays``, ``datas_per_s``,
        ``plays_per_s`` and, at level chica, ``chicas_per_s``.
    """
    from cuarenta_sim import simulate

    kwargs = dict(
        rules="quito",
        players=players,
        policies=(policy,) * players,
        level=level,
        threads=threads,
        progress=False,
    )
    simulate(n=max(1, n // 100), seed=12345, **kwargs)
    best, res = float("inf"), None
    for rep in range(repeats):
        t0 = time.perf_counter()
        out = simulate(n=n, seed=rep, **kwargs)
        elapsed = time.perf_counter() - t0
        if elapsed < best:
            best, res = elapsed, out
    assert res is not None
    datas = len(res.hands)
    plays = int(res.hands["plays"].sum())
    row: dict[str, Any] = {
        "level": level,
        "policy": policy,
        "players": players,
        "threads": threads,
        "n": n,
        "seconds": best,
        "datas": datas,
        "plays": plays,
        "datas_per_s": datas / best,
        "plays_per_s": plays / best,
    }
    if level == "chica":
        row["chicas_per_s"] = n / best
    return row


def measure_startup(*, cold: bool) -> dict[str, Any]:
    """Time import and first call in fresh subprocesses, with a private numba cache.

    Parameters
    ----------
    cold : bool
        Also time the very first run against the empty cache (compiles everything); when
        false only the warm figures are measured, against the cache the package already uses.

    Returns
    -------
    dict
        Seconds (wall clock inside the subprocess; interpreter start-up not included):
        ``warm_import_s``, ``warm_first_call_s`` (a 1000-data simulate call),
        ``warm_rest_warmup_s`` (``engine.warmup()`` after it), ``warm_total_s`` (import and
        first call) and, with ``cold``, the same with prefix ``cold_``, where ``cold_total_s``
        adds all three (every kernel compiled from scratch).
    """
    out: dict[str, Any] = {}
    with tempfile.TemporaryDirectory(prefix="numba-cache-") as cache:
        env = dict(os.environ)
        if cold:
            env["NUMBA_CACHE_DIR"] = cache
            out.update(_prefixed("cold", _run_snippet(_STARTUP_SNIPPET, env=env)))
        out.update(_prefixed("warm", _run_snippet(_STARTUP_SNIPPET, env=env)))
    return out


def measure_memory(n: int, threads: int) -> dict[str, Any]:
    """Peak RSS and result bytes of one large greedy 2-player run, in a subprocess.

    Parameters
    ----------
    n : int
        Datas to simulate.
    threads : int
        Worker threads.

    Returns
    -------
    dict
        ``n``, ``seconds``, ``peak_rss_bytes`` and ``peak_rss_gib`` (``ru_maxrss``, an upper
        bound), ``peak_hwm_bytes`` and ``baseline_hwm_bytes`` (``VmHWM`` at the end and after
        a small warm call; None where ``/proc`` is missing), ``result_bytes``
        (``Results.hands``, deep) and ``result_bytes_per_data``.
    """
    fig = _run_snippet(_MEMORY_SNIPPET, args=[str(n), str(threads)], env=dict(os.environ))
    fig["peak_rss_gib"] = fig["peak_rss_bytes"] / 2**30
    fig["result_bytes_per_data"] = fig["result_bytes"] / fig["rows"]
    return fig


def _prefixed(prefix: str, figures: dict[str, float]) -> dict[str, float]:
    out = {f"{prefix}_{k}": v for k, v in figures.items()}
    if prefix == "cold":
        # Cold: everything compiled from scratch (import, first call and every other kernel).
        out["cold_total_s"] = sum(figures.values())
    else:
        # Warm: what a user waits for before the first results (import and first call).
        out["warm_total_s"] = figures["import_s"] + figures["first_call_s"]
    return out


def _run_snippet(code: str, *, env: dict[str, str], args: list[str] | None = None) -> dict:
    proc = subprocess.run(
        [sys.executable, "-c", code, *(args or [])],
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    if proc.returncode != 0:
        raise RuntimeError(f"benchmark subprocess failed:\n{proc.stderr}")
    return json.loads(proc.stdout.strip().splitlines()[-1])


def lookup(results: dict[str, Any], key: str) -> float | None:
    """Return the figure named ``key`` (see :data:`TARGETS`), or None if not measured.

    Parameters
    ----------
    results : dict
        The benchmark results (``throughput`` rows, ``startup`` and ``memory`` dicts).
    key : str
        ``"level/policy/<p>p/<t>t/<figure>"`` for a throughput row, or ``"startup/<figure>"``
        / ``"memory/<figure>"``.

    Returns
    -------
    float or None
    """
    parts = key.split("/")
    if parts[0] in ("startup", "memory"):
        value = results.get(parts[0], {}).get(parts[1])
        return None if value is None else float(value)
    level, policy, players, threads, figure = parts
    for row in results["throughput"]:
        if (row["level"], row["policy"], f"{row['players']}p", f"{row['threads']}t") == (
            level,
            policy,
            players,
            threads,
        ):
            return float(row[figure]) if figure in row else None
    return None


def check_targets(results: dict[str, Any]) -> list[dict[str, Any]]:
    """Compare the measured figures with :data:`TARGETS`.

    Parameters
    ----------
    results : dict
        As built by :func:`run`.

    Returns
    -------
    list of dict
        One entry per target: ``target``, ``key``, ``bound``, ``measured`` (None if not
        measured in this run) and ``status`` (``"pass"``, ``"FAIL"`` or ``"not measured"``).
    """
    checks = []
    for name, key, op, bound in TARGETS:
        value = lookup(results, key)
        if value is None:
            status = "not measured"
        else:
            ok = value >= bound if op == ">=" else value <= bound
            status = "pass" if ok else "FAIL"
        checks.append(
            {
                "target": f"{name} {op} {bound:g}",
                "key": key,
                "bound": bound,
                "measured": value,
                "status": status,
            }
        )
    return checks


def _fmt(value: float | None) -> str:
    if value is None:
        return "-"
    if value >= 1e5:
        return f"{value / 1e6:.3f}M"
    return f"{value:.3g}"


def options(parser: argparse.ArgumentParser) -> None:
    """Add the target's options (sizes) to ``parser``."""
    parser.add_argument(
        "--quick",
        action="store_true",
        help="small counts, one repeat, no cold compile (about a minute)",
    )
    parser.add_argument(
        "--n", type=int, default=None, help="datas per timed run at level data (chicas: n / 10)"
    )
    parser.add_argument("--repeats", type=int, default=None, help="timed runs per configuration")
    parser.add_argument(
        "--big-n",
        type=int,
        default=None,
        help="datas of the memory run (default 10,000,000; quick 1,000,000)",
    )
    parser.add_argument("--no-cold", action="store_true", help="skip the cold-compile run")


def run(args: argparse.Namespace) -> int:
    """Run the benchmarks, print a summary and write the JSON results to ``args.out``.

    Parameters
    ----------
    args : Namespace
        The options of :func:`options` and ``out`` (the results file).

    Returns
    -------
    int
        0 (figures that miss a target are reported, not treated as errors).
    """
    n_data = args.n or (200_000 if args.quick else 2_000_000)
    repeats = args.repeats or (1 if args.quick else 3)
    big_n = args.big_n or (1_000_000 if args.quick else 10_000_000)
    cold = not (args.quick or args.no_cold)

    results: dict[str, Any] = {
        "created": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
        "machine": {
            "cpus": os.cpu_count(),
            "platform": platform.platform(),
            "python": platform.python_version(),
            "numba": numba.__version__,
            "numpy": np.__version__,
            "cuarenta_sim": __version__,
        },
        "settings": {
            "quick": args.quick,
            "n_data": n_data,
            "n_chica": max(1, n_data // 10),
            "repeats": repeats,
            "big_n": big_n,
            "cold": cold,
        },
    }
    # Fill the package's own numba cache first, so that the warm start-up figures are warm,
    # and keep this process small while the subprocesses run (see _MEMORY_SNIPPET).
    from cuarenta_sim.cuarenta.engine import warmup

    warmup()
    print(f"memory run, {big_n:,} datas (subprocess)...", file=sys.stderr)
    results["memory"] = measure_memory(big_n, threads=2)
    print("start-up (subprocesses)...", file=sys.stderr)
    results["startup"] = measure_startup(cold=cold)
    rows = []
    for level in ("data", "chica"):
        n = n_data if level == "data" else max(1, n_data // 10)
        for policy in BUILT_INS:
            for players in (2, 4):
                for threads in (1, 2):
                    print(f"{level} {policy} {players}p {threads}t n={n:,}...", file=sys.stderr)
                    rows.append(
                        run_config(
                            policy=policy,
                            players=players,
                            level=level,
                            threads=threads,
                            n=n,
                            repeats=repeats,
                        )
                    )
    results["throughput"] = rows
    results["targets"] = check_targets(results)

    table = [
        [
            r["level"],
            r["policy"],
            r["players"],
            r["threads"],
            f"{r['n']:,}",
            _fmt(r["datas_per_s"]),
            _fmt(r["plays_per_s"]),
            _fmt(r.get("chicas_per_s")),
        ]
        for r in rows
    ]
    print(
        text_table(
            ["level", "policy", "players", "threads", "n", "datas/s", "plays/s", "chicas/s"],
            table,
            right=(2, 3, 4, 5, 6, 7),
        )
    )
    print()
    st, mem = results["startup"], results["memory"]
    print(
        f"start-up: warm import {st['warm_import_s']:.2f} s + first call "
        f"{st['warm_first_call_s']:.2f} s; cold compile "
        + (f"{st['cold_total_s']:.1f} s" if "cold_total_s" in st else "not measured")
    )
    hwm = mem["peak_hwm_bytes"]
    print(
        f"memory: {mem['n']:,} datas in {mem['seconds']:.1f} s, peak RSS "
        f"{mem['peak_rss_gib']:.2f} GiB (ru_maxrss"
        + (f"; VmHWM {hwm / 2**30:.2f} GiB" if hwm is not None else "")
        + f"), {mem['result_bytes_per_data']:.1f} result bytes/data"
    )
    print()
    print(
        text_table(
            ["target", "measured", "status"],
            [[c["target"], _fmt(c["measured"]), c["status"]] for c in results["targets"]],
        )
    )
    write_json_atomic(args.out, results)
    print(f"\nwrote {args.out}")
    return 0
