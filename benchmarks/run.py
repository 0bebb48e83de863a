"""The benchmark runner: one command, named targets, one results file per target.

Run from the repository root::

    python benchmarks/run.py --list                 # every target, one line each, its figures
    python benchmarks/run.py TARGET [options]       # run one; writes results/<file>.json
    python benchmarks/run.py TARGET --help          # the target's options (sizes, --out)

Each target writes one results file, ``benchmarks/results/<target>.json`` with the target's
hyphens written as underscores (``policies-sweep`` -> ``results/policies_sweep.json``; the
name of the file the package data and the committed reports cite), atomically; ``--out``
writes elsewhere. Every target takes size options, so a smoke test runs it in seconds
(``tests/benchmarks``). Long targets (marked ``resumable`` in ``--list``) append each row they
finish to ``results/<file>.partial.jsonl`` as they go: a run cut short keeps what it measured,
and the same command run again reads those rows instead of measuring them again (``--fresh``
starts over); the partial file is removed once the results file is written. The targets and
their latest figures are described in ``benchmarks/README.md``.

The code of each target lives in the module named in :data:`TARGETS` (``benchmarks/<module>.py``,
two functions: one adds its options to the parser, one runs it); ``reports`` forwards its
arguments to ``benchmarks/reports.py``, which keeps its own command line.
"""

from __future__ import annotations

import importlib
import shlex
import sys
from dataclasses import dataclass
from pathlib import Path

from benchcli import OneLineParser, check_writable

RESULTS = Path(__file__).resolve().parent / "results"


@dataclass(frozen=True)
class Target:
    """One named benchmark target.

    Attributes
    ----------
    name : str
        What is typed after ``run.py``.
    module : str
        The module under ``benchmarks/`` that holds its code.
    summary : str
        One line: what it measures.
    figures : str
        Its target figures, from the issues (empty when it has none).
    options : str
        Function of ``module`` adding the target's options: ``options(parser) -> None``.
    run : str
        Function of ``module`` running it: ``run(args) -> int`` (exit status); ``args.out``
        is the results file, ``args.fresh`` whether to discard partial records.
    resumable : bool
        It writes its rows as it goes (:class:`benchcli.Journal`) and takes ``--fresh``.
    forward : bool
        Its arguments go to ``module.main(argv)`` unparsed (``reports``).
    """

    name: str
    module: str
    summary: str
    figures: str = ""
    options: str = "options"
    run: str = "run"
    resumable: bool = False
    forward: bool = False

    @property
    def out(self) -> Path:
        """The default results file: ``results/<name with '-' as '_'>.json``."""
        return RESULTS / f"{self.name.replace('-', '_')}.json"


TARGETS: tuple[Target, ...] = (
    Target("throughput", "throughput",
           "datas/plays per second of simulate (random, greedy), start-up, 10M-data memory",
           ">= 1.5M datas/s random, >= 1M greedy (2p), >= 700k greedy 4p, >= 200k chicas/s, "
           "warm start <= 3 s, cold compile <= 90 s, <= 64 bytes/data, 10M datas <= 2 GiB"),
    Target("cuatrola-throughput", "cuatrola_throughput",
           "hands per second of simulate('cuatrola'), pimc decisions per second",
           "issue 7: random play >= 1M hands/s (level hand, 2 threads); pimc >= 5,000 "
           "decisions/s"),
    Target("memory", "memory",
           "peak RSS of cuarenta-sim simulate at every level against the memory model",
           "issue 20: predictions within 25% of the measured peak on >= 6 runs",
           resumable=True),
    Target("dask-scaling", "dask_scaling",
           "Dask backend: 1 vs 2 workers, overhead per task, memory, solver on Dask",
           "2 workers >= 0.8 x twice 1 worker (chunks of 1M datas)"),
    Target("policies-speed", "policies",
           "decisions/s of heuristic, pimc, solver, learned; datas/s of learned",
           "issue 12: pimc >= 10,000 decisions/s, solver >= 2,000 (aim 20,000), learned >= "
           "100,000 datas/s (2 threads)", options="speed_options", run="run_speed"),
    Target("policies-ranking", "policies",
           "duplicate ladder random < greedy < heuristic < pimc < solver; solver vs heuristic 4p",
           "issue 12: each beats the one before, lower bound > 50% (solver vs pimc > 53%); "
           "solver vs heuristic 4p > 52%", options="ranking_options", run="run_ranking",
           resumable=True),
    Target("policies-pairs", "policies",
           "duplicate chica win rate of chosen pairs (--pair A:B; default solver:pimc)",
           "issue 12: solver vs pimc over 20,000 chica indices, lower bound > 53%",
           options="pairs_options", run="run_pairs", resumable=True),
    Target("solver-4p", "policies",
           "solver with 4 players: decisions/s and duplicate chicas against heuristic",
           "issue 12: solver vs heuristic, 4,000 chicas, lower bound > 52% (aim 58%)",
           options="solver4_options", run="run_solver4", resumable=True),
    Target("learned", "policies",
           "learned policy: datas/s beside heuristic; learned vs heuristic, 2 and 4 players",
           "issue 12: >= 100,000 datas/s (2 threads); 2p win rate lower bound > 55%",
           options="learned_options", run="run_learned", resumable=True),
    Target("learned-proxy", "learned_proxy",
           "learned as a proxy for solver: Quito-to-Cuenca chica length under each",
           "issue 12: learned - solver interval within +-1.5 pp (aim +-0.5)"),
    Target("policies-sweep", "policies_sweep",
           "strength against cost: pimc and solver at 4-128 samples vs heuristic (+ figure)",
           "issue 12 item 5: no bound (the committed sweep is package data)", resumable=True),
    Target("solver", "solver",
           "positions per second of the exact solver, 2 and 4 players", "no bound"),
    Target("solve-vs-brute-force", "solve_vs_brute_force",
           "the solve scenario against brute-force enumeration on random last-deal positions",
           "issue 12: 0 disagreements on 10,000 positions", resumable=True),
    Target("advise-latency", "advise",
           "latency of the advise scenario, 2-player mid-data positions, default samples",
           "issue 21: p95 < 500 ms (aim 100 ms)", options="latency_options", run="run_latency"),
    Target("advise-vs-solve", "advise",
           "advise from the seat to move against solve in the last deal with 2 players",
           "issue 21: 0 differences in 10,000 positions", options="equal_options",
           run="run_equal", resumable=True),
    Target("review-time", "review",
           "review (analyse) of a 2-player Quito chica of about 70 decisions",
           "issue 21: < 15 s (aim 3 s)"),
    Target("tournament", "tournament",
           "round robin random, greedy, heuristic, pimc in duplicate chicas",
           "issue 5: each beats the one before, lower bound > 50%; <= 30 min at 20,000 chicas "
           "per pair", resumable=True),
    Target("cuatrola-solve", "cuatrola_solve",
           "Cuatrola's solve scenario against brute force; positions/s of the numba solver",
           "issue 22: cuatrola solve vs brute force: 0 differences on 10,000 positions"),
    Target("cuatrola-thresholds", "cuatrola_thresholds",
           "Cuatrola bidding thresholds derived from the forced-declarer experiment",
           "no bound (the thresholds of the threshold bidding policy)"),
    Target("rl-envs", "rl_envs", "steps per second of the PettingZoo AEC environments",
           "issue 14: >= 20,000 steps/s (aim 100,000)"),
    Target("rl-batched", "rl_batched", "steps per second of the batched numba environment",
           "issue 14: >= 5M steps/s, random legal actions, 2 threads (aim 20M)"),
    Target("openspiel-opponents", "openspiel_opponents",
           "our policies against OpenSpiel's IS-MCTS and random bots, duplicate chicas",
           "issue 14: solver vs IS-MCTS at the stated budget, lower bound > 50% (aim 65%)",
           resumable=True),
    Target("reports", "reports",
           "regenerate the six committed reports with their default commands, timed",
           "issue 13: each default report < 10 min on 2 cores", forward=True),
)  # fmt: skip

BY_NAME = {t.name: t for t in TARGETS}


def listing() -> str:
    """The ``--list`` text: one line per target (name, what it measures, whether it resumes,
    its target figures), then where the results go."""
    width = max(len(t.name) for t in TARGETS)
    lines = []
    for t in TARGETS:
        tags = " [resumable]" if t.resumable else ""
        figures = f"; targets: {t.figures}" if t.figures else ""
        lines.append(f"{t.name:<{width}}  {t.summary}{tags}{figures}")
    lines.append("")
    lines.append("results: benchmarks/results/<target, '-' as '_'>.json (--out to change)")
    return "\n".join(lines)


def target_parser(target: Target) -> tuple[OneLineParser, object]:
    """The option parser of ``target`` (its module's options, ``--out``, ``--fresh``) and the
    module's run function. Imports the target's module (only that one)."""
    module = importlib.import_module(target.module)
    parser = OneLineParser(
        prog=f"run.py {target.name}",
        description=target.summary,
        epilog=f"targets: {target.figures}" if target.figures else None,
    )
    getattr(module, target.options)(parser)
    default = target.out.relative_to(RESULTS.parents[1])
    parser.add_argument(
        "--out", type=Path, default=target.out, help=f"results file (default {default})"
    )
    if target.resumable:
        parser.add_argument(
            "--fresh", action="store_true", help="discard the rows of a cut-short earlier run"
        )
    return parser, getattr(module, target.run)


def main(argv: list[str] | None = None) -> int:
    """Run ``run.py [--list | TARGET [options]]``; return the exit status.

    Errors (unknown target, bad option) are one line, exit status 2.
    """
    argv = list(sys.argv[1:] if argv is None else argv)
    top = OneLineParser(prog="run.py", description=__doc__.splitlines()[0])
    if not argv or argv[0] in ("-h", "--help"):
        top.print_help()
        print("\n" + listing())
        return 0 if argv else 2
    if argv[0] == "--list":
        print(listing())
        return 0
    name = argv[0]
    if name not in BY_NAME:
        top.error(f"unknown target {name!r}; the targets are {', '.join(BY_NAME)} (--list)")
    target = BY_NAME[name]
    if target.forward:
        module = importlib.import_module(target.module)
        return int(module.main(argv[1:]))
    parser, run = target_parser(target)
    args = parser.parse_args(argv[1:])
    args.target = name
    args.parser = parser
    args.error = parser.error  # one-line errors (exit 2) of the checks the run makes
    args.command = shlex.join(["python", "benchmarks/run.py", *argv])
    if not getattr(args, "fresh", False):
        args.fresh = False
    check_writable(parser, args.out)
    return int(run(args))  # type: ignore[operator]


if __name__ == "__main__":
    sys.exit(main())
