"""Steps per second of the PettingZoo environments (``cuarenta_sim.rl.make_env``).

Target ``rl-envs`` of ``benchmarks/run.py``, from the repository root (needs the ``rl`` extra)::

    python benchmarks/run.py rl-envs             # 10 s per configuration, best of 3
    python benchmarks/run.py rl-envs --quick     # 2 s per configuration, one run

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
from typing import Any

import numpy as np

from cuarenta_sim import __version__
from cuarenta_sim.io import write_json_atomic
from cuarenta_sim.rl import make_env

TARGET = 20_000
CONFIGS: list[dict[str, Any]] = [
    {"game": "cuarenta", "rules": "quito", "players": 2},
    {"game": "cuarenta", "rules": "quito", "players": 4},
    {"game": "cuarenta", "rules": "pagat", "players": 2},
    {"game": "cuatrola", "rules": "ro", "players": 4},
]


def play(env: Any, seconds: float, rng: random.Random) -> tuple[int, int, float, float]:
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


def options(parser: argparse.ArgumentParser) -> None:
    """Add the target's options (sizes) to ``parser``."""
    parser.add_argument("--seconds", type=float, default=None,
                        help="per timed run (default 10; quick 2)")  # fmt: skip
    parser.add_argument("--repeats", type=int, default=None, help="default 3; quick 1")
    parser.add_argument("--quick", action="store_true", help="2 s, one run")


def run(args: argparse.Namespace) -> int:
    """Run the benchmark, write ``args.out``; returns 0 (also when below target: it reports)."""
    seconds = args.seconds or (2.0 if args.quick else 10.0)
    repeats = args.repeats or (1 if args.quick else 3)
    if seconds <= 0 or repeats < 1:
        args.error("--seconds must be > 0 and --repeats >= 1")
    rows = []
    for cfg in CONFIGS:
        env = make_env(**cfg)
        env.reset(seed=0)
        rng = random.Random(0)
        play(env, seconds, rng)  # warm-up
        best: tuple[int, int, float, float] | None = None
        for _ in range(repeats):
            result = play(env, seconds, rng)
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
