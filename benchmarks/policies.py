"""Speed and strength of the heuristic, pimc, solver and learned policies.

Run from the repository root::

    python benchmarks/policies.py                 # decisions/s + duplicate ranking, 20,000
                                                  # chica indices per pair (40,000 chicas)
    python benchmarks/policies.py --chicas 2000   # quicker ranking

It prints and writes ``benchmarks/results/policies.json`` (atomically):

* **decisions per second** of ``heuristic``, ``pimc``, ``solver`` and ``learned`` (default
  settings,
  ``--threads`` threads, 2 by default), and with ``--sweep`` of ``pimc`` and ``solver`` at
  4, 8, 16 and 32 samples: :func:`cuarenta_sim.simulate` at level ``data``, 2 players, Quito
  rules, the policy at seat 0 against ``greedy``; every data gives the seat 20 decisions
  (turns, forced ones included), and the wall time includes the greedy seat's plays and the
  result frames; best of ``--repeats`` runs after a warm-up call. Each row also gives the CPU
  share (process CPU seconds / wall seconds / threads) and the rate per CPU-second times the
  threads: what a quiet machine would show when the share is below 1;
* **ranking in duplicate play**: for each pair ``(A, B)`` of ``random < greedy < heuristic <
  pimc < solver``, ``simulate(level="chica", policies=(A, B))`` and ``(B, A)`` with the same
  seed: the same decks and first dealers with the seats swapped. ``A``'s chica win rate over
  both runs (one win or loss per chica), with its 95% Wilson interval; the target is a lower
  bound above 50% for every adjacent pair (``benchmarks/README.md``); then ``solver`` against
  ``heuristic`` with 4 players (``--chicas4`` chica indices, issue 12 target: lower bound above
  52% over 4,000 chicas).

* **learned** (issue 12 item 4): datas per second with ``learned`` at every seat (and
  ``heuristic`` at every seat for comparison), level ``data``, 2 players, Quito, ``--threads``
  threads, best of ``--repeats``; and ``learned`` against ``heuristic`` in duplicate chicas as
  above. Targets: >= 100,000 datas/s on 2 threads; lower bound of the win rate > 55%.

Benchmarks on a shared machine are noisy: give the command with the figures.
"""

from __future__ import annotations

import argparse
import platform
import sys
import time
from pathlib import Path
from typing import Any

import numba

from cuarenta_sim import __version__, simulate
from cuarenta_sim.cuarenta.policies import parse_policy
from cuarenta_sim.io import write_json_atomic
from cuarenta_sim.reports import text_table
from cuarenta_sim.stats import wilson_interval

DEFAULT_OUT = Path(__file__).resolve().parent / "results" / "policies.json"
#: Ladder of the ranking target: each policy must beat the one before it.
LADDER = ("random", "greedy", "heuristic", "pimc", "solver")
#: Samples of the pimc / solver speed sweep (``--sweep``).
SWEEP_SAMPLES = (4, 8, 16, 32)
#: Target of benchmarks/README.md.
PIMC_TARGET = 10_000
#: Target of issue 12 (solver at its defaults, 2 threads, quiet machine).
SOLVER_TARGET = 2_000
#: Targets of the learned policy (issue 12 item 4).
LEARNED_DATAS_TARGET = 100_000
LEARNED_WIN_TARGET = 0.55
#: Target of issue 12: solver against heuristic with 4 players, lower bound of the win rate.
TEAM_TARGET = 0.52


def datas_per_s(policy: str, n: int, threads: int, repeats: int) -> dict[str, Any]:
    """Datas per second with ``policy`` at every seat (level data, 2 players, Quito)."""
    kw = {"rules": "quito", "players": 2, "policies": (policy, policy), "threads": threads}
    simulate(**kw, n=min(n, 200), seed=1)
    best = float("inf")
    for _ in range(repeats):
        t0 = time.perf_counter()
        simulate(**kw, n=n, seed=2)
        best = min(best, time.perf_counter() - t0)
    return {
        "policy": parse_policy(policy).canonical,
        "threads": threads,
        "datas": n,
        "seconds": best,
        "datas_per_s": n / best,
    }


def decisions_per_s(policy: str, n: int, threads: int, repeats: int) -> dict[str, Any]:
    """Decisions per second of ``policy`` at seat 0 against greedy (module docstring)."""
    simulate(
        rules="quito",
        players=2,
        policies=(policy, "greedy"),
        n=min(n, 200),
        seed=1,
        threads=threads,
    )
    best = float("inf")
    cpu = float("inf")
    for _ in range(repeats):
        t0 = time.perf_counter()
        c0 = time.process_time()
        simulate(
            rules="quito", players=2, policies=(policy, "greedy"), n=n, seed=2, threads=threads
        )
        wall = time.perf_counter() - t0
        if wall < best:
            best, cpu = wall, time.process_time() - c0
    return {
        "policy": parse_policy(policy).canonical,
        "threads": threads,
        "datas": n,
        "decisions": 20 * n,
        "seconds": best,
        "decisions_per_s": 20 * n / best,
        # On a shared machine the process gets only part of the cores: the rate per CPU-second
        # times the threads is what a quiet machine would give (if the work scales).
        "cpu_share": cpu / best / threads,
        "decisions_per_s_cpu_adjusted": 20 * n * threads / max(cpu, 1e-9),
    }


def decisions_per_s4(policy: str, n: int, threads: int, repeats: int) -> dict[str, Any]:
    """Decisions per second of ``policy`` with 4 players: seats 0 and 2 (one team) against
    ``greedy`` at seats 1 and 3, level data, Quito; every data gives the team 20 decisions
    (forced ones included). Fields as :func:`decisions_per_s`."""
    kw = {"rules": "quito", "players": 4, "policies": (policy, "greedy"), "threads": threads}
    simulate(**kw, n=min(n, 20), seed=1)
    best = float("inf")
    cpu = float("inf")
    for _ in range(repeats):
        t0 = time.perf_counter()
        c0 = time.process_time()
        simulate(**kw, n=n, seed=2)
        wall = time.perf_counter() - t0
        if wall < best:
            best, cpu = wall, time.process_time() - c0
    return {
        "policy": parse_policy(policy).canonical,
        "players": 4,
        "threads": threads,
        "datas": n,
        "decisions": 20 * n,
        "seconds": best,
        "decisions_per_s": 20 * n / best,
        "cpu_share": cpu / best / threads,
        "decisions_per_s_cpu_adjusted": 20 * n * threads / max(cpu, 1e-9),
    }


def team_ranking(args: argparse.Namespace) -> dict[str, Any]:
    """The 4-player section alone (``--only4``): the speed of ``--solver4`` with 4 players
    (:func:`decisions_per_s4`, ``--datas4`` datas) and its duplicate chicas against
    ``heuristic`` (``--chicas4`` chica indices), with issue 12's target (lower bound of the
    95% Wilson interval above :data:`TEAM_TARGET`)."""
    print(f"speed: {args.solver4}, 4 players, {args.datas4:,} datas...", file=sys.stderr)
    speed = decisions_per_s4(args.solver4, args.datas4, args.threads, args.repeats)
    print(
        f"{speed['policy']}: {speed['decisions_per_s']:,.0f} decisions/s with 4 players "
        f"({speed['decisions']:,} decisions, {args.threads} threads, CPU share "
        f"{speed['cpu_share']:.2f}, adjusted {speed['decisions_per_s_cpu_adjusted']:,.0f})"
    )
    print(
        f"duplicate: {args.solver4} vs heuristic, 4 players, {2 * args.chicas4:,} chicas...",
        file=sys.stderr,
    )
    r = duplicate(args.solver4, "heuristic", args.chicas4, args.seed, args.threads, players=4)
    r["target_lower_bound"] = TEAM_TARGET
    r["status"] = "pass" if r["ci95"][0] > TEAM_TARGET else "FAIL"
    print(
        f"{r['a']} vs heuristic, 4 players: {r['win_rate_a']:.2%} of {r['chicas']:,} chicas "
        f"won, 95% Wilson interval [{r['ci95'][0]:.2%}, {r['ci95'][1]:.2%}]; lower bound > "
        f"{TEAM_TARGET:.0%}: {r['status']}"
    )
    return {"speed4": speed, "team_ranking": r}


def duplicate(
    a: str, b: str, chicas: int, seed: int, threads: int, players: int = 2
) -> dict[str, Any]:
    """``a``'s chica win rate against ``b`` in duplicate play (module docstring)."""
    t0 = time.perf_counter()
    first = simulate(
        rules="quito",
        players=players,
        policies=(a, b),
        n=chicas,
        level="chica",
        seed=seed,
        threads=threads,
        keep_hands=False,
    ).games
    second = simulate(
        rules="quito",
        players=players,
        policies=(b, a),
        n=chicas,
        level="chica",
        seed=seed,
        threads=threads,
        keep_hands=False,
    ).games
    wins = int((first["winner"] == 0).sum() + (second["winner"] == 1).sum())
    trials = 2 * chicas
    _, lo, hi = wilson_interval(wins, trials, 0.95)
    return {
        "a": parse_policy(a).canonical,
        "b": parse_policy(b).canonical,
        "players": players,
        "chicas": trials,
        "wins_a": wins,
        "win_rate_a": wins / trials,
        "ci95": [float(lo), float(hi)],
        "lower_bound_above_half": bool(lo > 0.5),
        "seconds": time.perf_counter() - t0,
    }


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark; see the module docstring."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--datas", type=int, default=2000, help="datas per timed speed run")
    parser.add_argument(
        "--chicas",
        type=int,
        default=20_000,
        help="chica indices per pair (each played twice, seats swapped)",
    )
    parser.add_argument(
        "--chicas4",
        type=int,
        default=2000,
        help="chica indices of solver vs heuristic with 4 players (each played twice)",
    )
    parser.add_argument(
        "--sweep", action="store_true", help="also time pimc and solver at 4-32 samples"
    )
    parser.add_argument(
        "--only4",
        action="store_true",
        help="only the 4-player section: speed of --solver4 and its duplicate chicas against "
        "heuristic (--chicas4 chica indices)",
    )
    parser.add_argument(
        "--solver4", default="solver", help="policy spec of the 4-player section (solver)"
    )
    parser.add_argument(
        "--datas4", type=int, default=100, help="datas of the 4-player speed run (--only4)"
    )
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--no-ranking", action="store_true", help="speed only")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    args = parser.parse_args(argv)

    results: dict[str, Any] = {
        "package_version": __version__,
        "python": platform.python_version(),
        "numba": numba.__version__,
        "machine": platform.machine(),
        "command": " ".join(
            [Path(sys.argv[0]).name, *(argv if argv is not None else sys.argv[1:])]
        ),
    }
    if args.only4:
        results.update(team_ranking(args))
        write_json_atomic(args.out, results)
        print(f"\nwrote {args.out}")
        return 0
    speed = []
    policies = ["heuristic", "pimc", "solver", "learned"]
    if args.sweep:
        policies += [f"{p}(samples={k})" for p in ("pimc", "solver") for k in SWEEP_SAMPLES]
    for policy in policies:
        # The search policies take ~20x longer per decision: fewer datas for them.
        n = args.datas * (20 if policy in ("heuristic", "learned") else 1)
        print(f"speed: {policy}, {n:,} datas, {args.threads} threads...", file=sys.stderr)
        speed.append(decisions_per_s(policy, n, args.threads, args.repeats))
    results["speed"] = speed
    print(
        text_table(
            ["policy", "threads", "decisions", "seconds", "decisions/s", "CPU share", "adjusted"],
            [
                [
                    s["policy"],
                    s["threads"],
                    f"{s['decisions']:,}",
                    f"{s['seconds']:.2f}",
                    f"{s['decisions_per_s']:,.0f}",
                    f"{s['cpu_share']:.2f}",
                    f"{s['decisions_per_s_cpu_adjusted']:,.0f}",
                ]
                for s in speed
            ],
            right=(1, 2, 3, 4, 5, 6),
        )
    )
    pimc_rate = speed[1]["decisions_per_s"]
    results["pimc_target"] = {
        "decisions_per_s": pimc_rate,
        "target": PIMC_TARGET,
        "status": "pass" if pimc_rate >= PIMC_TARGET else "FAIL",
    }
    print(f"pimc >= {PIMC_TARGET:,} decisions/s: {results['pimc_target']['status']}")
    solver_rate = speed[2]["decisions_per_s"]
    results["solver_target"] = {
        "decisions_per_s": solver_rate,
        "decisions_per_s_cpu_adjusted": speed[2]["decisions_per_s_cpu_adjusted"],
        "target": SOLVER_TARGET,
        "status": "pass" if solver_rate >= SOLVER_TARGET else "FAIL",
    }
    print(f"solver >= {SOLVER_TARGET:,} decisions/s: {results['solver_target']['status']}\n")
    self_play = [
        datas_per_s(p, 50 * args.datas, args.threads, args.repeats)
        for p in ("heuristic", "learned")
    ]
    results["datas_per_s"] = self_play
    learned_rate = self_play[1]["datas_per_s"]
    results["learned_speed_target"] = {
        "datas_per_s": learned_rate,
        "target": LEARNED_DATAS_TARGET,
        "status": "pass" if learned_rate >= LEARNED_DATAS_TARGET else "FAIL",
    }
    for r in self_play:
        print(f"{r['policy'].split('(')[0]} at every seat: {r['datas_per_s']:,.0f} datas/s")
    print(
        f"learned >= {LEARNED_DATAS_TARGET:,} datas/s: "
        f"{results['learned_speed_target']['status']}\n"
    )
    if not args.no_ranking:
        ranking = []
        for a, b in zip(LADDER[1:], LADDER[:-1], strict=True):
            print(f"duplicate: {a} vs {b}, {2 * args.chicas:,} chicas...", file=sys.stderr)
            ranking.append(duplicate(a, b, args.chicas, args.seed, args.threads))
        print(f"duplicate: {args.solver4} vs heuristic, 4 players, {2 * args.chicas4:,} chicas...",
              file=sys.stderr)  # fmt: skip
        ranking.append(
            duplicate(args.solver4, "heuristic", args.chicas4, args.seed, args.threads, players=4)
        )
        results["ranking"] = ranking
        print(f"duplicate: learned vs heuristic, {2 * args.chicas:,} chicas...", file=sys.stderr)
        lvh = duplicate("learned", "heuristic", args.chicas, args.seed, args.threads)
        lvh["target_lower_bound"] = LEARNED_WIN_TARGET
        lvh["status"] = "pass" if lvh["ci95"][0] > LEARNED_WIN_TARGET else "FAIL"
        results["learned_vs_heuristic"] = lvh
        ranking = [*ranking, lvh]
        print(
            text_table(
                ["A", "B", "players", "chicas", "A wins", "95% interval", "lower > 50%", "seconds"],
                [
                    [
                        r["a"].split("(")[0],
                        r["b"].split("(")[0],
                        r["players"],
                        f"{r['chicas']:,}",
                        f"{r['win_rate_a']:.4f}",
                        f"[{r['ci95'][0]:.4f}, {r['ci95'][1]:.4f}]",
                        "pass" if r["lower_bound_above_half"] else "FAIL",
                        f"{r['seconds']:.0f}",
                    ]
                    for r in ranking
                ],
                right=(2, 3, 4, 7),
            )
        )
    write_json_atomic(args.out, results)
    print(f"\nwrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
