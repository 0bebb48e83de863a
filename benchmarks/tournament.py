"""The strategy tournament of issue 5: ranking targets and wall time.

Target ``tournament`` of ``benchmarks/run.py``, from the repository root::

    python benchmarks/run.py tournament               # 20,000 duplicate chicas per pair (target)
    python benchmarks/run.py tournament --chicas 2000 # quick look

It plays the round robin ``random, greedy, heuristic, pimc`` under ``quito`` with 2 players in
duplicate (:func:`cuarenta_sim.cuarenta.strategy_play.cuarenta_tournament`; the same numbers as
``cuarenta-sim tournament --policies random,greedy,heuristic,pimc --rules quito --chicas
20000 --seed 0``), prints the tables, checks the targets of ``benchmarks/README.md`` (each
policy beats the one before it with the lower bound of the 95% chica win-rate interval above
50%; the whole tournament in under 30 minutes) and writes
``benchmarks/results/tournament.json`` atomically. Each finished match (its duplicate pairs,
one row per pair) is appended to ``results/tournament.partial.jsonl`` as it ends
(:class:`benchcli.Journal`): a run cut short keeps the matches it played, and the same command
reads them instead of playing them again (the ratings are computed from the same frames, so a
resumed tournament equals an uninterrupted one).
"""

from __future__ import annotations

import argparse
import itertools
import platform
import sys
import time

import numba
import pandas as pd
from benchcli import Journal

from cuarenta_sim import __version__
from cuarenta_sim.cuarenta.duplicate import play_duplicate
from cuarenta_sim.cuarenta.engine import warmup
from cuarenta_sim.cuarenta.strategy_play import check_tournament, tournament_text
from cuarenta_sim.io import write_json_atomic
from cuarenta_sim.tournament import TournamentResult, TournamentSettings, run_tournament

POLICIES = ("random", "greedy", "heuristic", "pimc")
#: Wall-time target of the whole tournament at 20,000 chicas per pair (seconds).
WALL_TARGET_S = 30 * 60


def journaled_tournament(settings: TournamentSettings, journal: Journal) -> TournamentResult:
    """:func:`cuarenta_sim.cuarenta.strategy_play.cuarenta_tournament` with every match kept in
    ``journal``: a match an earlier cut-short run finished is read back (its pairs frame, the
    same numbers), the others are played and appended as they end."""
    check_tournament(settings)

    def play(a: str, b: str, level: str, n: int) -> pd.DataFrame:
        identity = {"a": a, "b": b, "level": level, "n": n, "rules": settings.rules,
                    "players": settings.players, "seed": settings.seed,
                    "package_version": __version__}  # fmt: skip

        def played() -> dict[str, list]:
            return play_duplicate(a, b, rules=settings.rules, players=settings.players,
                                  level=level, n=n, seed=settings.seed,
                                  threads=settings.threads).to_dict("list")  # fmt: skip

        return pd.DataFrame(journal.row(identity, played))

    return run_tournament(settings, play, lambda m: print(m, file=sys.stderr))


def options(parser: argparse.ArgumentParser) -> None:
    """Add the target's options (sizes) to ``parser``."""
    parser.add_argument("--chicas", type=int, default=20_000, help="chicas per pair (even)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--threads", type=int, default=None)


def run(args: argparse.Namespace) -> int:
    """Run the tournament, print it, check the targets, write ``args.out``; exit 1 if a target
    is missed."""
    warmup()
    journal = Journal(args.out, fresh=args.fresh)
    settings = TournamentSettings(
        policies=POLICIES,
        rules="quito",
        players=2,
        chicas=args.chicas,
        seed=args.seed,
        threads=args.threads,
    )
    t0 = time.perf_counter()
    result = journaled_tournament(settings, journal)
    wall = time.perf_counter() - t0
    print(tournament_text(result))
    checks = []
    m = result.matches.set_index(["a", "b"])
    for weaker, stronger in itertools.pairwise(POLICIES):
        row = m.loc[(weaker, stronger)]
        lower = 1.0 - float(row["upper"])  # the stronger policy's win-rate lower bound
        checks.append(
            {
                "target": f"{stronger} beats {weaker}: win-rate lower bound > 50%",
                "value": lower,
                "met": lower > 0.5,
            }
        )
    checks.append(
        {
            "target": f"tournament wall time <= {WALL_TARGET_S} s (at 20,000 chicas per pair)",
            "value": wall,
            "met": wall <= WALL_TARGET_S or args.chicas < 20_000,
        }
    )
    for c in checks:
        print(f"{'met ' if c['met'] else 'MISSED'}  {c['target']}: {c['value']:.4f}")
    write_json_atomic(
        args.out,
        {
            "package_version": __version__,
            "machine": platform.platform(),
            "cpu_count": numba.config.NUMBA_NUM_THREADS,
            "threads": numba.get_num_threads() if args.threads is None else args.threads,
            "chicas_per_pair": args.chicas,
            "seed": args.seed,
            "wall_time_s": round(wall, 1),
            "matches": result.matches.to_dict(orient="records"),
            "ratings": result.ratings.to_dict(orient="records"),
            "targets": checks,
        },
    )
    journal.finish()
    print(f"wrote {args.out}")
    return 0 if all(c["met"] for c in checks) else 1
