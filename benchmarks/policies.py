"""Speed and strength of the heuristic, pimc, solver and learned policies.

Run from the repository root::

    python benchmarks/policies.py                 # decisions/s + duplicate ranking, 20,000
                                                  # chica indices per pair (40,000 chicas)
    python benchmarks/policies.py --chicas 2000   # quicker ranking

Each of issue 12's targets is also one section alone (benchmarks/README.md, "Strong play"):
``--pair solver:pimc --chicas 20000`` (solver vs pimc), ``--only4 --chicas4 2000`` (solver vs
heuristic, 4 players), ``--no-ranking`` (decisions/s), ``--learned-only --chicas 20000``
(learned's strength and datas/s), ``--proxy-only --chicas 20000`` (learned as a proxy for the
solver: ``benchmarks/learned_proxy.py``), ``--solve-only`` (``solve`` against brute force:
``benchmarks/solve_vs_brute_force.py``), ``--sweep-only`` (strength against cost).

It prints and writes ``benchmarks/results/policies.json`` (atomically):

* **decisions per second** of ``heuristic``, ``pimc``, ``solver`` and ``learned`` (default
  settings, ``--threads`` threads, 2 by default), and with ``--sweep`` of ``pimc`` and
  ``solver`` at 4, 8, 16, 32, 64 and 128 samples: :func:`cuarenta_sim.simulate` at level
  ``data``, 2 players, Quito rules, the policy at seat 0 against ``greedy``; every data gives
  the seat 20 decisions (turns, forced ones included), and the wall time includes the greedy
  seat's plays and the result frames; best of ``--repeats`` runs after a warm-up call. Each row
  also gives the CPU share (process CPU seconds / wall seconds / threads) and the rate per
  CPU-second times the threads: what a quiet machine would show when the share is below 1;
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
  above, in 2 players (``--chicas``) and 4 players (``--chicas4``). Targets: >= 100,000 datas/s
  on 2 threads; lower bound of the 2-player win rate > 55%. ``--learned-only`` runs these
  alone (``--learned SPEC`` measures other weights); every rate carries the CPU share and the
  rate per CPU-second, as above.

* **strength against cost** (``--sweep``, issue 12 item 5): for ``pimc`` and ``solver`` at each
  sweep size, the duplicate chica win rate against ``heuristic`` over ``--sweep-chicas``
  duplicate chica indices (each played twice, seats swapped, same seed:
  :func:`cuarenta_sim.cuarenta.strategies.play_duplicate`), with its clustered Wilson interval
  over duplicate pairs (:func:`cuarenta_sim.tournament.match_summary`), drawn against the
  decisions per second of the speed sweep in ``--figure`` (default
  ``benchmarks/results/policies_sweep.png``, written atomically like the JSON).
  ``--sweep-only`` runs just the sweep (speed and strength) and writes
  ``benchmarks/results/policies_sweep.json`` unless ``--out`` is given; ``reports/strategies``
  reads that file.

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
from benchcli import OneLineParser, check_writable

from cuarenta_sim import __version__, simulate
from cuarenta_sim.cuarenta.policies import parse_policy
from cuarenta_sim.io import atomic_path, write_json_atomic
from cuarenta_sim.reports import text_table
from cuarenta_sim.stats import wilson_interval

DEFAULT_OUT = Path(__file__).resolve().parent / "results" / "policies.json"
RESULTS = DEFAULT_OUT.parent
#: Outputs of ``--sweep-only`` (read by ``reports/strategies``).
SWEEP_OUT = DEFAULT_OUT.with_name("policies_sweep.json")
SWEEP_FIGURE = DEFAULT_OUT.with_name("policies_sweep.png")
#: Ladder of the ranking target: each policy must beat the one before it.
LADDER = ("random", "greedy", "heuristic", "pimc", "solver")
#: Samples of the pimc / solver speed sweep (``--sweep``).
SWEEP_SAMPLES = (4, 8, 16, 32, 64, 128)
#: Policies of the sweep and the opponent of its strength runs.
SWEEP_POLICIES = ("pimc", "solver")
SWEEP_OPPONENT = "heuristic"
#: Target of benchmarks/README.md.
PIMC_TARGET = 10_000
#: Target of issue 12 (solver at its defaults, 2 threads, quiet machine).
SOLVER_TARGET = 2_000
#: Targets of the learned policy (issue 12 item 4).
LEARNED_DATAS_TARGET = 100_000
LEARNED_WIN_TARGET = 0.55
#: Target of issue 12: solver against heuristic with 4 players, lower bound of the win rate.
TEAM_TARGET = 0.52
#: Target of issue 12: solver against pimc (defaults), 2 players, lower bound of the win rate.
SOLVER_PIMC_TARGET = 0.53


def datas_per_s(policy: str, n: int, threads: int, repeats: int) -> dict[str, Any]:
    """Datas per second with ``policy`` at every seat (level data, 2 players, Quito)."""
    kw = {"rules": "quito", "players": 2, "policies": (policy, policy), "threads": threads}
    simulate(**kw, n=min(n, 200), seed=1)
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
        "threads": threads,
        "datas": n,
        "seconds": best,
        "datas_per_s": n / best,
        # As in decisions_per_s: what a quiet machine would give when the share is below 1.
        "cpu_share": cpu / best / threads,
        "datas_per_s_cpu_adjusted": n * threads / max(cpu, 1e-9),
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


def sweep_strength(
    policy: str, pairs: int, seed: int, threads: int, opponent: str = SWEEP_OPPONENT
) -> dict[str, Any]:
    """Duplicate chica win rate of ``policy`` against ``opponent`` (module docstring).

    Parameters
    ----------
    policy, opponent : str
        Policy specs.
    pairs : int
        Duplicate chica indices (each played twice, seats swapped), > 0.
    seed : int
        Seed of both seatings.
    threads : int
        numba threads.

    Returns
    -------
    dict
        ``policy``, ``opponent`` (canonical specs), ``pairs``, ``chicas`` (``2 * pairs``),
        ``win_rate``, ``lower``, ``upper`` (clustered Wilson over duplicate pairs, 95%),
        ``points_per_data`` with ``ppd_lower`` / ``ppd_upper`` (ratio interval), ``method``,
        ``seconds``.
    """
    from cuarenta_sim.cuarenta.duplicate import play_duplicate
    from cuarenta_sim.tournament import match_summary

    t0 = time.perf_counter()
    frame = play_duplicate(policy, opponent, level="chica", n=pairs, seed=seed, threads=threads)
    s = match_summary(frame, 0.95)
    return {
        "policy": parse_policy(policy).canonical,
        "opponent": parse_policy(opponent).canonical,
        "pairs": pairs,
        "chicas": s["games"],
        "win_rate": s["win_rate"],
        "lower": s["lower"],
        "upper": s["upper"],
        "points_per_data": s["points_per_data"],
        "ppd_lower": s["ppd_lower"],
        "ppd_upper": s["ppd_upper"],
        "method": "clustered wilson over duplicate pairs (95%)",
        "seconds": time.perf_counter() - t0,
    }


def draw_sweep(points: list[dict[str, Any]], path: Path) -> None:
    """Draw strength (win rate against the heuristic, 95% interval) against decisions per
    second (CPU-adjusted: per CPU-second times the threads), one line per policy, each point
    labelled with its samples; write ``path`` atomically.

    Parameters
    ----------
    points : list of dict
        ``policy`` (bare name), ``samples``, ``decisions_per_s_cpu_adjusted``, ``win_rate``,
        ``lower``,
        ``upper`` (fractions), ``pairs``.
    path : Path
        PNG to write.
    """
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7.0, 4.5))
    for name, marker in zip(SWEEP_POLICIES, ("o", "s"), strict=True):
        rows = sorted((p for p in points if p["policy"] == name), key=lambda p: p["samples"])
        if not rows:
            continue
        x = [p["decisions_per_s_cpu_adjusted"] for p in rows]
        y = [100 * p["win_rate"] for p in rows]
        err = [
            [100 * (p["win_rate"] - p["lower"]) for p in rows],
            [100 * (p["upper"] - p["win_rate"]) for p in rows],
        ]
        ax.errorbar(x, y, yerr=err, marker=marker, capsize=3, label=name)
        for p, xi, yi in zip(rows, x, y, strict=True):
            ax.annotate(str(p["samples"]), (xi, yi), textcoords="offset points", xytext=(4, 4))
    ax.axhline(50.0, color="grey", lw=0.8, ls="--")
    ax.set_xscale("log")
    # On a shared machine the wall rate moves with the load between points; the rate per
    # CPU-second times the threads is what a quiet machine would show (and is stable).
    ax.set_xlabel(
        "decisions per second, CPU-adjusted (per CPU-second x threads; log scale; labels: samples)"
    )
    ax.set_ylabel(f"duplicate chica win rate vs {SWEEP_OPPONENT} (%)")
    n = sorted({p["pairs"] for p in points})
    ax.set_title(
        f"Strength against cost ({', '.join(f'{k:,}' for k in n)} duplicate chica indices "
        "per point, 95% clustered Wilson)",
        fontsize=9,
    )
    ax.legend()
    fig.tight_layout()
    with atomic_path(path) as tmp:
        fig.savefig(tmp, format="png", dpi=110)
    plt.close(fig)


def run_sweep(args: argparse.Namespace) -> list[dict[str, Any]]:
    """Speed and strength of pimc and solver at every :data:`SWEEP_SAMPLES`; draws the figure."""
    points = []
    for name in SWEEP_POLICIES:
        for k in SWEEP_SAMPLES:
            spec = f"{name}(samples={k})"
            print(f"sweep: {spec} speed, {args.datas:,} datas...", file=sys.stderr)
            speed = decisions_per_s(spec, args.datas, args.threads, args.repeats)
            print(f"sweep: {spec} vs {SWEEP_OPPONENT}, {args.sweep_chicas:,} duplicate "
                  "chica indices...", file=sys.stderr)  # fmt: skip
            strength = sweep_strength(spec, args.sweep_chicas, args.seed, args.threads)
            points.append(
                {
                    **strength,
                    "policy": name,
                    "spec": strength["policy"],
                    "samples": k,
                    "decisions_per_s": speed["decisions_per_s"],
                    "decisions_per_s_cpu_adjusted": speed["decisions_per_s_cpu_adjusted"],
                    "cpu_share": speed["cpu_share"],
                    "speed_decisions": speed["decisions"],
                }
            )
    print(
        text_table(
            ["policy", "samples", "decisions/s", "CPU share", "adjusted",
             "win rate vs heuristic [95%]", "chicas"],
            [
                [
                    p["policy"],
                    p["samples"],
                    f"{p['decisions_per_s']:,.0f}",
                    f"{p['cpu_share']:.2f}",
                    f"{p['decisions_per_s_cpu_adjusted']:,.0f}",
                    f"{100 * p['win_rate']:.2f}% [{100 * p['lower']:.2f}, "
                    f"{100 * p['upper']:.2f}]",
                    f"{p['chicas']:,}",
                ]
                for p in points
            ],
            right=(1, 2, 3, 4, 6),
        )
    )  # fmt: skip
    draw_sweep(points, args.figure)
    print(f"wrote {args.figure}")
    return points


def learned_speed(args: argparse.Namespace, results: dict[str, Any]) -> None:
    """Datas/s of heuristic and learned at every seat (same run), into ``results``."""
    self_play = [
        datas_per_s(p, 50 * args.datas, args.threads, args.repeats)
        for p in ("heuristic", args.learned)
    ]
    results["datas_per_s"] = self_play
    learned = self_play[1]
    results["learned_speed_target"] = {
        "datas_per_s": learned["datas_per_s"],
        "datas_per_s_cpu_adjusted": learned["datas_per_s_cpu_adjusted"],
        "heuristic_datas_per_s": self_play[0]["datas_per_s"],
        "heuristic_datas_per_s_cpu_adjusted": self_play[0]["datas_per_s_cpu_adjusted"],
        "target": LEARNED_DATAS_TARGET,
        "status": "pass" if learned["datas_per_s"] >= LEARNED_DATAS_TARGET else "FAIL",
    }
    for r in self_play:
        print(
            f"{r['policy'].split('(')[0]} at every seat: {r['datas_per_s']:,.0f} datas/s "
            f"(CPU share {r['cpu_share']:.2f}, adjusted {r['datas_per_s_cpu_adjusted']:,.0f})"
        )
    ratio = learned["datas_per_s"] / self_play[0]["datas_per_s"]
    print(
        f"learned >= {LEARNED_DATAS_TARGET:,} datas/s: "
        f"{results['learned_speed_target']['status']} (learned / heuristic in this run: "
        f"{ratio:.2f})\n"
    )


def learned_strength(args: argparse.Namespace, results: dict[str, Any]) -> list[dict[str, Any]]:
    """learned against heuristic in duplicate chicas: 2 players (``--chicas``, the target) and
    4 players (``--chicas4``), into ``results``."""
    print(f"duplicate: learned vs heuristic, {2 * args.chicas:,} chicas...", file=sys.stderr)
    lvh = duplicate(args.learned, "heuristic", args.chicas, args.seed, args.threads)
    lvh["target_lower_bound"] = LEARNED_WIN_TARGET
    lvh["status"] = "pass" if lvh["ci95"][0] > LEARNED_WIN_TARGET else "FAIL"
    results["learned_vs_heuristic"] = lvh
    print(f"duplicate: learned vs heuristic, 4 players, {2 * args.chicas4:,} chicas...",
          file=sys.stderr)  # fmt: skip
    lvh4 = duplicate(args.learned, "heuristic", args.chicas4, args.seed, args.threads, players=4)
    results["learned_vs_heuristic_4p"] = lvh4
    return [lvh, lvh4]


def default_out(args: argparse.Namespace) -> Path:
    """The results file of a run without ``--out``: a single section writes its own file, so
    it never replaces the full run's ``results/policies.json``."""
    if args.sweep_only:
        return SWEEP_OUT
    if args.learned_only:
        return RESULTS / "policies_learned.json"
    if args.only4:
        return RESULTS / "policies_solver4.json"
    if args.pair:
        return RESULTS / "policies_pairs.json"
    return DEFAULT_OUT


def mark_target(r: dict[str, Any]) -> dict[str, Any]:
    """Add issue 12's target (``target_lower_bound``, ``status``) to a duplicate result that
    has one: solver vs pimc with 2 players (:data:`SOLVER_PIMC_TARGET`), solver vs heuristic
    with 4 (:data:`TEAM_TARGET`). Returns ``r``."""
    pair = (r["a"].split("(")[0], r["b"].split("(")[0], r["players"])
    target = {("solver", "pimc", 2): SOLVER_PIMC_TARGET, ("solver", "heuristic", 4): TEAM_TARGET}
    if pair in target:
        r["target_lower_bound"] = target[pair]
        r["status"] = "pass" if r["ci95"][0] > target[pair] else "FAIL"
    return r


def print_ranking(ranking: list[dict[str, Any]]) -> None:
    """The duplicate results as a table."""
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
    for r in ranking:
        if "target_lower_bound" in r:
            print(
                f"{r['a'].split('(')[0]} vs {r['b']}: lower bound > "
                f"{r['target_lower_bound']:.0%}: {r['status']}"
            )


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark; see the module docstring."""
    parser = OneLineParser(description=__doc__.splitlines()[0])
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
        "--sweep",
        action="store_true",
        help="also time pimc and solver at 4-128 samples and measure their strength",
    )
    parser.add_argument(
        "--sweep-only", action="store_true", help="run only the sweep (implies --sweep)"
    )
    parser.add_argument(
        "--sweep-chicas",
        type=int,
        default=400,
        help="duplicate chica indices per sweep point against the heuristic",
    )
    parser.add_argument("--figure", type=Path, default=SWEEP_FIGURE)
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
    parser.add_argument(
        "--pair",
        action="append",
        default=[],
        metavar="A:B",
        help="only these duplicate pairs, 2 players, --chicas chica indices each (repeatable; "
        "e.g. solver:pimc, the issue 12 target)",
    )
    parser.add_argument(
        "--proxy-only",
        action="store_true",
        help="only the learned-as-a-proxy target (benchmarks/learned_proxy.py with --chicas, "
        "--seed, --threads, --proxy-cache)",
    )
    parser.add_argument(
        "--solve-only",
        action="store_true",
        help="only the solve-vs-brute-force target (benchmarks/solve_vs_brute_force.py with "
        "--positions; --out is then its results directory)",
    )
    parser.add_argument("--positions", type=int, default=10_000,
                        help="random last-deal positions of --solve-only")  # fmt: skip
    parser.add_argument("--proxy-cache", type=Path, default=None,
                        help="cache directory of learned_proxy.py's runs")  # fmt: skip
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--no-ranking", action="store_true", help="speed only")
    parser.add_argument(
        "--learned-only",
        action="store_true",
        help="only the learned figures: datas/s (with heuristic) and learned vs heuristic in 2 "
        "(--chicas) and 4 players (--chicas4)",
    )
    parser.add_argument("--learned", default="learned", help="the learned spec measured")
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args(argv)
    if args.sweep_chicas < 1:
        parser.error(f"--sweep-chicas must be >= 1, got {args.sweep_chicas}")
    if args.out is None:
        args.out = default_out(args)
    for pair in args.pair:  # checked before any long run
        a, sep, b = pair.partition(":")
        if not sep or not a or not b:
            parser.error(f"--pair takes A:B (two policy specs), got {pair!r}")
        for spec in (a, b):
            try:
                parse_policy(spec)
            except ValueError as exc:
                parser.error(f"--pair {pair!r}: {exc}")
        if parse_policy(a).canonical == parse_policy(b).canonical:
            parser.error(f"--pair {pair!r}: a policy against itself wins half by construction; "
                         "give two different policies")  # fmt: skip
    if not (args.proxy_only or args.solve_only):  # those scripts check their own outputs
        check_writable(parser, args.out)

    results: dict[str, Any] = {
        "package_version": __version__,
        "python": platform.python_version(),
        "numba": numba.__version__,
        "machine": platform.machine(),
        "command": " ".join(
            [Path(sys.argv[0]).name, *(argv if argv is not None else sys.argv[1:])]
        ),
    }
    results["threads"] = args.threads
    sections = [args.sweep_only, args.learned_only, args.only4, bool(args.pair), args.proxy_only,
                args.solve_only]  # fmt: skip
    if sum(sections) > 1:
        parser.error("give at most one of --sweep-only, --learned-only, --only4, --pair, "
                     "--proxy-only, --solve-only")  # fmt: skip
    if args.solve_only:
        import solve_vs_brute_force

        solve_argv = ["--positions", str(args.positions)]
        if args.out != DEFAULT_OUT:
            solve_argv += ["--out", str(args.out)]
        return solve_vs_brute_force.main(solve_argv)
    if args.proxy_only:
        import learned_proxy

        proxy_argv = ["--chicas", str(args.chicas), "--seed", str(args.seed),
                      "--threads", str(args.threads)]  # fmt: skip
        if args.proxy_cache is not None:
            proxy_argv += ["--cache", str(args.proxy_cache)]
        if args.out != DEFAULT_OUT:
            proxy_argv += ["--out", str(args.out)]
        return learned_proxy.main(proxy_argv)
    if any(sections):
        if args.sweep_only:
            results["sweep"] = run_sweep(args)
            results["sweep_settings"] = {
                "opponent": parse_policy(SWEEP_OPPONENT).canonical,
                "pairs": args.sweep_chicas,
                "seed": args.seed,
                "rules": "quito",
                "players": 2,
                "datas_per_speed_run": args.datas,
                "repeats": args.repeats,
            }
        elif args.learned_only:
            learned_speed(args, results)
            if not args.no_ranking:
                print_ranking(learned_strength(args, results))
        elif args.only4:
            results.update(team_ranking(args))
        else:
            ranking = []
            for pair in args.pair:
                a, _, b = pair.partition(":")
                print(f"duplicate: {a} vs {b}, {2 * args.chicas:,} chicas...", file=sys.stderr)
                ranking.append(mark_target(duplicate(a, b, args.chicas, args.seed, args.threads)))
            results["ranking"] = ranking
            print_ranking(ranking)
        write_json_atomic(args.out, results)
        print(f"\nwrote {args.out}")
        return 0
    speed = []
    policies = ["heuristic", "pimc", "solver", "learned"]
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
    learned_speed(args, results)
    if args.sweep:
        results["sweep"] = run_sweep(args)
    if not args.no_ranking:
        ranking = []
        for a, b in zip(LADDER[1:], LADDER[:-1], strict=True):
            print(f"duplicate: {a} vs {b}, {2 * args.chicas:,} chicas...", file=sys.stderr)
            ranking.append(mark_target(duplicate(a, b, args.chicas, args.seed, args.threads)))
        print(f"duplicate: {args.solver4} vs heuristic, 4 players, {2 * args.chicas4:,} chicas...",
              file=sys.stderr)  # fmt: skip
        ranking.append(
            mark_target(
                duplicate(args.solver4, "heuristic", args.chicas4, args.seed, args.threads, 4)
            )
        )
        results["ranking"] = ranking
        print_ranking([*ranking, *learned_strength(args, results)])
    write_json_atomic(args.out, results)
    print(f"\nwrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
