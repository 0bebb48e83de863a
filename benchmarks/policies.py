"""Speed and strength of the heuristic, pimc, solver and learned policies (issue 12).

Five targets of ``benchmarks/run.py``, from the repository root (``--help`` after a target
lists its sizes)::

    python benchmarks/run.py policies-speed      # decisions/s of heuristic, pimc, solver, learned
    python benchmarks/run.py policies-ranking    # the duplicate ladder, 20,000 indices per pair
    python benchmarks/run.py policies-pairs --pair solver:pimc --chicas 20000
    python benchmarks/run.py solver-4p --chicas4 2000
    python benchmarks/run.py learned --chicas 20000 --chicas4 2000

* ``policies-speed``: **decisions per second** of ``heuristic``, ``pimc``, ``solver`` and
  ``learned`` (default settings, ``--threads`` threads, 2 by default):
  :func:`cuarenta_sim.simulate` at level ``data``, 2 players, Quito rules, the policy at seat 0
  against ``greedy``; every data gives the seat 20 decisions (turns, forced ones included), and
  the wall time includes the greedy seat's plays and the result frames; best of ``--repeats``
  runs after a warm-up call. Each row also gives the CPU share (process CPU seconds / wall
  seconds / threads) and the rate per CPU-second times the threads: what a quiet machine would
  show when the share is below 1. Then the datas per second with ``learned`` at every seat
  beside ``heuristic`` at every seat (as the ``learned`` target).
* ``policies-ranking``: **ranking in duplicate play**: for each pair ``(A, B)`` of ``random <
  greedy < heuristic < pimc < solver``, ``simulate(level="chica", policies=(A, B))`` and
  ``(B, A)`` with the same seed: the same decks and first dealers with the seats swapped.
  ``A``'s chica win rate over both runs (one win or loss per chica), with its 95% Wilson
  interval; the target is a lower bound above 50% for every adjacent pair; then ``--solver4``
  against ``heuristic`` with 4 players (``--chicas4`` chica indices, issue 12 target: lower
  bound above 52% over 4,000 chicas).
* ``policies-pairs``: the same duplicate match for the pairs of ``--pair A:B`` (default
  ``solver:pimc``, issue 12's target: lower bound above 53% over 20,000 chica indices).
* ``solver-4p``: the speed of ``--solver4`` with 4 players (seats 0 and 2 against ``greedy``,
  ``--datas4`` datas) and its duplicate chicas against ``heuristic`` (``--chicas4``).
* ``learned`` (issue 12 item 4): datas per second with ``learned`` at every seat (and
  ``heuristic`` at every seat for comparison), level ``data``, 2 players, Quito, best of
  ``--repeats``; and ``learned`` against ``heuristic`` in duplicate chicas as above, 2 players
  (``--chicas``) and 4 players (``--chicas4``). Targets: >= 100,000 datas/s on 2 threads; lower
  bound of the 2-player win rate > 55%. ``--learned SPEC`` measures other weights.

The duplicate matches are long (hours at the target sizes): each finished match is appended to
``results/<target>.partial.jsonl`` (:class:`benchcli.Journal`), so a run cut short keeps them
and the same command resumes after them. The strength-against-cost sweep is the target
``policies-sweep`` (``benchmarks/policies_sweep.py``). Benchmarks on a shared machine are
noisy: give the command with the figures.
"""

from __future__ import annotations

import argparse
import platform
import sys
import time
from typing import Any

import numba
from benchcli import Journal

from cuarenta_sim import __version__, simulate
from cuarenta_sim.cuarenta.policies import parse_policy
from cuarenta_sim.io import write_json_atomic
from cuarenta_sim.reports import text_table
from cuarenta_sim.stats import wilson_interval

#: Ladder of the ranking target: each policy must beat the one before it.
LADDER = ("random", "greedy", "heuristic", "pimc", "solver")
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


def header(args: argparse.Namespace) -> dict[str, Any]:
    """The provenance that opens every results file of these targets: versions, machine,
    ``command`` (as typed) and ``threads``."""
    return {
        "package_version": __version__,
        "python": platform.python_version(),
        "numba": numba.__version__,
        "machine": platform.machine(),
        "command": args.command,
        "threads": args.threads,
    }


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


def played_duplicate(
    journal: Journal, a: str, b: str, chicas: int, seed: int, threads: int, players: int = 2
) -> dict[str, Any]:
    """:func:`duplicate`, read from ``journal`` when an earlier cut-short run finished it
    (same canonical policies, players, chicas, seed and package version), else played and
    appended to it."""
    identity = {"a": parse_policy(a).canonical, "b": parse_policy(b).canonical,
                "players": players, "chicas": chicas, "seed": seed,
                "package_version": __version__}  # fmt: skip
    print(f"duplicate: {a} vs {b}, {players} players, {2 * chicas:,} chicas...", file=sys.stderr)
    return journal.row(identity, lambda: duplicate(a, b, chicas, seed, threads, players))


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


def _sizes(parser: argparse.ArgumentParser, *, chicas: bool, chicas4: bool) -> None:
    """The options most targets share: ``--threads``, ``--seed`` and the chica counts."""
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0)
    if chicas:
        parser.add_argument(
            "--chicas", type=int, default=20_000, help="chica indices per pair (each played twice)"
        )
    if chicas4:
        parser.add_argument(
            "--chicas4", type=int, default=2000, help="chica indices of the 4-player match"
        )


def _positive(args: argparse.Namespace, *names: str) -> None:
    for name in names:
        if getattr(args, name) < 1:
            args.error(f"--{name.replace('_', '-')} must be >= 1, got {getattr(args, name)}")


def speed_options(parser: argparse.ArgumentParser) -> None:
    """Options of ``policies-speed``."""
    parser.add_argument("--datas", type=int, default=2000,
                        help="datas per timed run of pimc and solver (x20 for heuristic and "
                        "learned; x50 for the learned self-play datas/s)")  # fmt: skip
    parser.add_argument("--repeats", type=int, default=3, help="timed runs, best kept")
    parser.add_argument("--learned", default="learned", help="the learned spec measured")
    _sizes(parser, chicas=False, chicas4=False)


def run_speed(args: argparse.Namespace) -> int:
    """``policies-speed``: decisions per second and the pimc / solver / learned targets."""
    _positive(args, "datas", "repeats")
    results = header(args)
    speed = []
    for policy in ("heuristic", "pimc", "solver", "learned"):
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
    write_json_atomic(args.out, results)
    print(f"wrote {args.out}")
    return 0


def ranking_options(parser: argparse.ArgumentParser) -> None:
    """Options of ``policies-ranking``."""
    _sizes(parser, chicas=True, chicas4=True)
    parser.add_argument("--solver4", default="solver",
                        help="policy of the 4-player match against heuristic")  # fmt: skip


def run_ranking(args: argparse.Namespace) -> int:
    """``policies-ranking``: the ladder's adjacent pairs, then ``--solver4`` against the
    heuristic with 4 players; each finished match is kept in the partial file."""
    _positive(args, "chicas", "chicas4")
    journal = Journal(args.out, fresh=args.fresh)
    results = header(args)
    ranking = []
    for a, b in zip(LADDER[1:], LADDER[:-1], strict=True):
        r = played_duplicate(journal, a, b, args.chicas, args.seed, args.threads)
        ranking.append(mark_target(r))
    r = played_duplicate(journal, args.solver4, "heuristic", args.chicas4, args.seed,
                         args.threads, players=4)  # fmt: skip
    ranking.append(mark_target(r))
    results["ranking"] = ranking
    print_ranking(ranking)
    write_json_atomic(args.out, results)
    journal.finish()
    print(f"\nwrote {args.out}")
    return 0


def pairs_options(parser: argparse.ArgumentParser) -> None:
    """Options of ``policies-pairs``."""
    parser.add_argument("--pair", action="append", default=None, metavar="A:B",
                        help="a duplicate pair, 2 players, --chicas chica indices (repeatable; "
                        "default solver:pimc, the issue 12 target)")  # fmt: skip
    _sizes(parser, chicas=True, chicas4=False)


def run_pairs(args: argparse.Namespace) -> int:
    """``policies-pairs``: each ``--pair`` in duplicate chicas (checked before any game)."""
    _positive(args, "chicas")
    pairs = args.pair or ["solver:pimc"]
    for pair in pairs:
        a, sep, b = pair.partition(":")
        if not sep or not a or not b:
            args.error(f"--pair takes A:B (two policy specs), got {pair!r}")
        for spec in (a, b):
            try:
                parse_policy(spec)
            except ValueError as exc:
                args.error(f"--pair {pair!r}: {exc}")
        if parse_policy(a).canonical == parse_policy(b).canonical:
            args.error(f"--pair {pair!r}: a policy against itself wins half by construction; "
                       "give two different policies")  # fmt: skip
    journal = Journal(args.out, fresh=args.fresh)
    results = header(args)
    ranking = []
    for pair in pairs:
        a, _, b = pair.partition(":")
        ranking.append(mark_target(played_duplicate(journal, a, b, args.chicas, args.seed,
                                                    args.threads)))  # fmt: skip
    results["ranking"] = ranking
    print_ranking(ranking)
    write_json_atomic(args.out, results)
    journal.finish()
    print(f"\nwrote {args.out}")
    return 0


def solver4_options(parser: argparse.ArgumentParser) -> None:
    """Options of ``solver-4p``."""
    parser.add_argument("--solver4", default="solver", help="policy spec measured (solver)")
    parser.add_argument("--datas4", type=int, default=100, help="datas of the speed run")
    parser.add_argument("--repeats", type=int, default=3, help="timed runs, best kept")
    _sizes(parser, chicas=False, chicas4=True)


def run_solver4(args: argparse.Namespace) -> int:
    """``solver-4p``: the speed of ``--solver4`` with 4 players (:func:`decisions_per_s4`) and
    its duplicate chicas against ``heuristic``, with issue 12's target (lower bound of the 95%
    Wilson interval above :data:`TEAM_TARGET`)."""
    _positive(args, "datas4", "repeats", "chicas4")
    journal = Journal(args.out, fresh=args.fresh)
    results = header(args)
    print(f"speed: {args.solver4}, 4 players, {args.datas4:,} datas...", file=sys.stderr)
    identity = {"speed4": parse_policy(args.solver4).canonical, "datas": args.datas4,
                "repeats": args.repeats, "threads": args.threads,
                "package_version": __version__}  # fmt: skip
    speed = journal.row(
        identity, lambda: decisions_per_s4(args.solver4, args.datas4, args.threads, args.repeats)
    )
    print(
        f"{speed['policy']}: {speed['decisions_per_s']:,.0f} decisions/s with 4 players "
        f"({speed['decisions']:,} decisions, {args.threads} threads, CPU share "
        f"{speed['cpu_share']:.2f}, adjusted {speed['decisions_per_s_cpu_adjusted']:,.0f})"
    )
    r = played_duplicate(journal, args.solver4, "heuristic", args.chicas4, args.seed,
                         args.threads, players=4)  # fmt: skip
    r = dict(r, target_lower_bound=TEAM_TARGET,
             status="pass" if r["ci95"][0] > TEAM_TARGET else "FAIL")  # fmt: skip
    print(
        f"{r['a']} vs heuristic, 4 players: {r['win_rate_a']:.2%} of {r['chicas']:,} chicas "
        f"won, 95% Wilson interval [{r['ci95'][0]:.2%}, {r['ci95'][1]:.2%}]; lower bound > "
        f"{TEAM_TARGET:.0%}: {r['status']}"
    )
    results.update({"speed4": speed, "team_ranking": r})
    write_json_atomic(args.out, results)
    journal.finish()
    print(f"\nwrote {args.out}")
    return 0


def learned_options(parser: argparse.ArgumentParser) -> None:
    """Options of ``learned``."""
    parser.add_argument("--learned", default="learned", help="the learned spec measured")
    parser.add_argument("--datas", type=int, default=2000,
                        help="x50: datas per timed self-play run")  # fmt: skip
    parser.add_argument("--repeats", type=int, default=3, help="timed runs, best kept")
    _sizes(parser, chicas=True, chicas4=True)


def run_learned(args: argparse.Namespace) -> int:
    """``learned``: its datas/s beside the heuristic's, then learned against heuristic in
    duplicate chicas with 2 players (``--chicas``, the target) and 4 (``--chicas4``)."""
    _positive(args, "datas", "repeats", "chicas", "chicas4")
    try:
        parse_policy(args.learned)
    except ValueError as exc:
        args.error(f"--learned {args.learned!r}: {exc}")
    journal = Journal(args.out, fresh=args.fresh)
    results = header(args)
    learned_speed(args, results)
    lvh = played_duplicate(journal, args.learned, "heuristic", args.chicas, args.seed,
                           args.threads)  # fmt: skip
    lvh = dict(lvh, target_lower_bound=LEARNED_WIN_TARGET,
               status="pass" if lvh["ci95"][0] > LEARNED_WIN_TARGET else "FAIL")  # fmt: skip
    lvh4 = played_duplicate(journal, args.learned, "heuristic", args.chicas4, args.seed,
                            args.threads, players=4)  # fmt: skip
    results["learned_vs_heuristic"] = lvh
    results["learned_vs_heuristic_4p"] = lvh4
    print_ranking([lvh, lvh4])
    write_json_atomic(args.out, results)
    journal.finish()
    print(f"\nwrote {args.out}")
    return 0
