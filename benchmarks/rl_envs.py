"""Steps per second of the PettingZoo environments (``cuarenta_sim.rl.make_env``).

Run from the repository root (needs the ``rl`` extra)::

    python benchmarks/rl_envs.py             # 10 s per configuration, best of 3
    python benchmarks/rl_envs.py --quick     # 2 s per configuration, one run

One process, one environment, the plain AEC loop a user writes: ``agent_iter``, ``last()``
(which builds the observation and the action mask), a uniformly random legal action from the
mask (one draw from a ``random.Random``), ``step``; finished agents step ``None`` and a new
episode starts with ``reset()``. A step is one seat's decision (the ``None`` steps of finished
agents are not counted). Configurations: Cuarenta ``quito`` 2 and 4 players and ``pagat`` 2
players (episode chica), Cuatrola ``ro`` (episode game). Each timed run follows a warm-up of
the same length (the legal-play cache of :mod:`cuarenta_sim.cuarenta.reference.step` fills up).
Steps per CPU second (``time.process_time``) are reported too: on a machine shared with other
work they are what an idle core would give; the target applies to wall-clock steps/s on a
quiet machine.
It prints a table and writes ``benchmarks/results/rl_envs.json`` atomically. Target (issue
14): >= 20,000 steps/s (aim 100,000).
"""

from __future__ import annotations

import argparse
import platform
import random
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

from cuarenta_sim import __version__
from cuarenta_sim.io import write_json_atomic
from cuarenta_sim.rl import make_env

DEFAULT_OUT = Path(__file__).resolve().parent / "results" / "rl_envs.json"
TARGET = 20_000
CONFIGS: list[dict[str, Any]] = [
    {"game": "cuarenta", "rules": "quito", "players": 2},
    {"game": "cuarenta", "rules": "quito", "players": 4},
    {"game": "cuarenta", "rules": "pagat", "players": 2},
    {"game": "cuatrola", "rules": "ro", "players": 4},
]


def run(env: Any, seconds: float, rng: random.Random) -> tuple[int, int, float, float]:
    """Play random legal actions for about ``seconds``.

    Returns
    -------
    (int, int, float, float)
        Steps, episodes, wall seconds and this process's CPU seconds.
    """
    steps = episodes = 0
    start, cpu = time.perf_counter(), time.process_time()
    while time.perf_counter() - start < seconds:
        env.reset()
        for _ in env.agent_iter():
            obs, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            env.step(int(legal[rng.randrange(len(legal))]))
            steps += 1
        episodes += 1
    return steps, episodes, time.perf_counter() - start, time.process_time() - cpu


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark; returns the exit status (0 also when below target: it reports)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=10.0, help="per timed run")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--quick", action="store_true", help="2 s, one run")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    args = parser.parse_args(argv)
    seconds, repeats = (2.0, 1) if args.quick else (args.seconds, args.repeats)
    rows = []
    for cfg in CONFIGS:
        env = make_env(**cfg)
        env.reset(seed=0)
        rng = random.Random(0)
        run(env, seconds, rng)  # warm-up
        best: tuple[int, int, float, float] | None = None
        for _ in range(repeats):
            result = run(env, seconds, rng)
            if best is None or result[0] / result[2] > best[0] / best[2]:
                best = result
        assert best is not None
        steps, episodes, elapsed, cpu = best
        row = {
            **cfg,
            "steps": steps,
            "episodes": episodes,
            "seconds": round(elapsed, 3),
            "cpu_seconds": round(cpu, 3),
            "steps_per_s": round(steps / elapsed),
            "steps_per_cpu_s": round(steps / cpu),
            "steps_per_episode": round(steps / max(episodes, 1), 1),
            "meets_target": steps / elapsed >= TARGET,
        }
        rows.append(row)
        print(
            f"{cfg['game']:<9} {cfg['rules']:<6} {cfg['players']} players: "
            f"{row['steps_per_s']:>8,} steps/s, {row['steps_per_cpu_s']:>8,} per CPU second "
            f"({row['steps_per_episode']} steps/episode)"
            f"{'' if row['meets_target'] else '  BELOW TARGET'}"
        )
    write_json_atomic(
        args.out,
        {
            "benchmark": "rl_envs",
            "version": __version__,
            "python": sys.version.split()[0],
            "machine": platform.machine(),
            "seconds_per_run": seconds,
            "repeats": repeats,
            "target_steps_per_s": TARGET,
            "results": rows,
        },
    )
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
