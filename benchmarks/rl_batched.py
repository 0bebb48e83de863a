"""Steps per second of the batched Cuarenta environment (cuarenta_sim.rl.batched).

Target ``rl-batched`` of ``benchmarks/run.py``, from the repository root::

    python benchmarks/run.py rl-batched            # n_envs 4096, 16384, 65536; 1 and 2 threads
    python benchmarks/run.py rl-batched --quick    # n_envs 4096 and 65536, 2 threads, shorter

What is timed: ``BatchedCuarenta.random_actions`` (a numba kernel drawing a uniformly random
legal action per env) followed by ``BatchedCuarenta.step``, repeated after a warm-up (reset and
50 steps), in chunks of 5 calls for ``--seconds`` per configuration. **A step is one decision
of one env**: one ``step()`` call on ``n_envs`` envs counts ``n_envs`` steps, whatever
automatic events follow (announcements, opponents' plays, end-of-data count, auto-reset).
Without an opponent every step is one play; with ``opponent="heuristic"`` a learner step also
includes the opponent's play up to the next learner decision. Quito rules, 2 players, episode
``data``, auto-reset; observation modes ``none``, ``compact`` (int8, 105 values) and ``full``
(float32, 285 values).

Figures: ``steps_per_s`` is the best chunk (the machine is shared: the best chunk is the one
where the process had its cores), ``mean_steps_per_s`` the whole run, ``cpu_steps_per_s`` the
steps per CPU second of the process (with 1 thread the work of one core, undisturbed by other
processes; with 2 threads it also counts the workers' spinning at the end of a parallel
region). The peak resident set size (``VmHWM``) of the process is printed at the end.

Target (2 cores): random legal actions, 2 threads, >= 5M steps/s (aim 20M). It prints each
figure and writes ``benchmarks/results/rl_batched.json`` (atomically). Benchmarks on a shared
machine are noisy: give the command with the figures.
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import time
from pathlib import Path
from typing import Any

# A step is a short parallel region: with OpenMP's default spin-waiting, the idle worker burns
# the CPU its partner needs on a shared machine. PASSIVE (must be set before numba starts its
# threads) keeps the per-CPU-second rate of one thread; override it from the environment.
os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")

import numba

from cuarenta_sim import __version__
from cuarenta_sim.io import write_json_atomic
from cuarenta_sim.rl.batched import BatchedCuarenta, random_states

TARGET = 5_000_000
#: step() calls per timed chunk.
CHUNK = 5


def peak_rss_bytes() -> int:
    """Peak resident set size of this process (``VmHWM``), 0 where /proc is missing."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 0


def measure(
    n_envs: int, threads: int, observation: str, opponent: str | None, seconds: float
) -> dict[str, Any]:
    """Steps per second of one configuration (module docstring)."""
    env = BatchedCuarenta(
        n_envs, "quito", 2, "data", opponent, seed=1, threads=threads, observation=observation
    )
    states = random_states(n_envs, 2)
    env.reset()
    for _ in range(50):
        env.step(env.random_actions(states))
    # Timed in chunks of CHUNK calls: on a shared machine a chunk where both cores were ours
    # shows what the code does; the mean over all chunks shows what the machine gave.
    calls = 0
    best = float("inf")
    t0 = time.perf_counter()
    c0 = time.process_time()
    while True:
        t = time.perf_counter()
        for _ in range(CHUNK):
            env.step(env.random_actions(states))
        best = min(best, time.perf_counter() - t)
        calls += CHUNK
        elapsed = time.perf_counter() - t0
        if elapsed >= seconds:
            break
    cpu = time.process_time() - c0
    steps = calls * n_envs
    return {
        "n_envs": n_envs,
        "threads": threads,
        "observation": observation,
        "opponent": opponent or "none",
        "steps": steps,
        "seconds": round(elapsed, 4),
        "cpu_seconds": round(cpu, 4),
        "steps_per_s": round(CHUNK * n_envs / best),
        "mean_steps_per_s": round(steps / elapsed),
        "cpu_steps_per_s": round(steps / cpu) if cpu > 0 else None,
    }


def options(parser: argparse.ArgumentParser) -> None:
    """Add the target's options (sizes) to ``parser``."""
    parser.add_argument("--quick", action="store_true", help="fewer configurations, shorter")
    parser.add_argument("--seconds", type=float, default=None, help="time per configuration")


def run(args: argparse.Namespace) -> int:
    """Run the benchmark, write ``args.out``; return the exit status."""
    seconds = args.seconds or (0.5 if args.quick else 2.0)
    sizes = (4096, 65536) if args.quick else (4096, 16384, 65536)
    thread_counts = (2,) if args.quick else (1, 2)
    thread_counts = tuple(t for t in thread_counts if t <= numba.config.NUMBA_NUM_THREADS)
    rows = []
    for observation in ("none", "compact", "full"):
        for threads in thread_counts:
            for n in sizes:
                rows.append(measure(n, threads, observation, None, seconds))
                print(
                    f"{observation:8s} opponent=none      threads={threads} n_envs={n:6d}: "
                    f"{rows[-1]['steps_per_s'] / 1e6:6.2f}M steps/s (best chunk), "
                    f"{rows[-1]['mean_steps_per_s'] / 1e6:6.2f}M mean, "
                    f"{(rows[-1]['cpu_steps_per_s'] or 0) / 1e6:6.2f}M per CPU second",
                    flush=True,
                )
    for observation in ("compact", "full"):
        rows.append(measure(16384, max(thread_counts), observation, "heuristic", seconds))
        print(
            f"{observation:8s} opponent=heuristic threads={max(thread_counts)} n_envs=16384: "
            f"{rows[-1]['steps_per_s'] / 1e6:6.2f}M learner steps/s (best chunk), "
            f"{rows[-1]['mean_steps_per_s'] / 1e6:6.2f}M mean",
            flush=True,
        )
    targets = []
    for observation in ("none", "compact", "full"):
        best = max(
            (r["steps_per_s"] for r in rows
             if r["threads"] == 2 and r["observation"] == observation and r["opponent"] == "none"),
            default=None,
        )  # fmt: skip
        status = "not measured" if best is None else ("pass" if best >= TARGET else "FAIL")
        targets.append(
            {"key": f"random/2 threads/{observation}", "target": TARGET, "best": best,
             "status": status}
        )  # fmt: skip
        print(f"target >= {TARGET / 1e6:.0f}M steps/s, observation {observation}: "
              f"{'-' if best is None else f'{best / 1e6:.2f}M'} {status}")  # fmt: skip
    print(f"load average {os.getloadavg()}, OMP_WAIT_POLICY={os.environ.get('OMP_WAIT_POLICY')}")
    rss = peak_rss_bytes()
    print(f"peak RSS {rss / 2**20:.0f} MiB")
    result = {
        "version": __version__,
        "python": sys.version.split()[0],
        "numba": numba.__version__,
        "machine": platform.machine(),
        "rows": rows,
        "targets": targets,
        "peak_rss_bytes": rss,
        "omp_wait_policy": os.environ.get("OMP_WAIT_POLICY"),
        "threading_layer": numba.threading_layer(),
        "load_average": os.getloadavg(),
    }
    write_json_atomic(args.out, result)
    print(f"wrote {args.out}")
    return 0
