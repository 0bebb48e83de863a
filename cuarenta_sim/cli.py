"""The ``cuarenta-sim`` command line (also ``python -m cuarenta_sim``).

Commands
--------
simulate
    Monte Carlo run: summary table with intervals, throughput, provenance; optional Parquet
    output (``--out``) and report directory (``--report``).
scenario
    Evaluate JSON scenarios (``docs/cuarenta.md`` section F), one output line per input line.
replay
    Print one simulated data, chica or mesa play by play (same seed, same deck as
    ``simulate``).
presets
    Table of the presets and all their switches.
rules
    Validate a rules slug and print its switches.
report
    Generate a report directory (quito-vs-cuenca, odds, sensitivity, strategies): Markdown,
    figures and provenance (:mod:`cuarenta_sim.studies`).
tournament
    Round-robin duplicate tournament between policies: win rates, points, ratings
    (:mod:`cuarenta_sim.tournament`).
policies
    List the playing policies.

Exit status: 0 on success; 2 on bad input (unknown rules, policies, malformed slug or JSON,
unreadable files, any scenario that evaluates to an error), with one line on stderr saying
what was wrong and what is accepted, never a traceback; 130 when interrupted. Output files are
written atomically: an interrupted or failed run leaves no partial file behind.
"""

from __future__ import annotations

import os
import shlex
import signal
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from .cuarenta.rules import PRESETS, SWITCHES, RuleSet, resolve_rules
from .cuarenta.summaries import (
    format_switch,
    rules_rows,
    simulation_report,
    summarize_games,
)
from .reports import (
    estimates_table,
    text_table,
)
from .results import Results

if TYPE_CHECKING:
    from .studies import StudySettings

PROG = "cuarenta-sim"
LEVELS = ("data", "chica", "mesa")
#: Games of the --game option (cuarenta_sim.simulation.GAMES).
GAMES = ("cuarenta", "cuatrola")
PLAYER_COUNTS = (2, 4)
EXIT_BAD_INPUT = 2
EXIT_INTERRUPTED = 130

# Typer >= 0.20 vendors its own copy of click; its exception classes are reached through the
# public ``typer.BadParameter``, whichever click implementation is underneath.
_CLICK_ERROR: type[Exception] = next(
    c for c in typer.BadParameter.__mro__ if c.__name__ == "ClickException"
)
_USAGE_ERROR: type[Exception] = next(
    c for c in typer.BadParameter.__mro__ if c.__name__ == "UsageError"
)

app = typer.Typer(
    name=PROG,
    help="Monte Carlo simulation of the Ecuadorian card game Cuarenta (rules: docs/cuarenta.md).",
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)

RulesOpt = Annotated[
    str,
    typer.Option(
        "--rules",
        help="Preset (quito, cuenca, pagat, quito_torneo) or slug such as "
        "'quito(max_sum_cards=2)'.",
    ),
]
PlayersOpt = Annotated[int, typer.Option("--players", help="Number of players: 2 or 4.")]
PoliciesOpt = Annotated[
    str,
    typer.Option(
        "--policies",
        help="Policy names, comma-separated: one for every seat, one per side "
        "(e.g. greedy,random) or one per seat; parameters in parentheses, e.g. "
        "'pimc(samples=8)' (see the policies command).",
    ),
]
LevelOpt = Annotated[
    str, typer.Option("--level", help="Unit simulated: data (hand), chica (game) or mesa (match).")
]
SeedOpt = Annotated[int, typer.Option("--seed", help="Non-negative seed; same seed, same decks.")]


# --------------------------------------------------------------------------- parsing helpers
def parse_rules(text: str) -> RuleSet:
    """Parse a ``--rules`` value (preset name or slug) into a validated RuleSet.

    Parameters
    ----------
    text : str
        ``"quito"``, ``"quito(max_sum_cards=2)"``...

    Returns
    -------
    RuleSet

    Raises
    ------
    ValueError
        Malformed slug, unknown preset or switch, or a bad value (the message lists what is
        accepted).
    """
    return resolve_rules(text)


def parse_players(players: int) -> int:
    """Check a ``--players`` value.

    Parameters
    ----------
    players : int
        Number of players.

    Returns
    -------
    int
        ``players`` unchanged.

    Raises
    ------
    ValueError
        If it is not 2 or 4 (R2.1).
    """
    if players not in PLAYER_COUNTS:
        raise ValueError(f"--players must be 2 or 4 (R2.1), got {players}")
    return players


def parse_level(level: str) -> str:
    """Check a ``--level`` value.

    Parameters
    ----------
    level : str
        ``"data"``, ``"chica"`` or ``"mesa"``.

    Returns
    -------
    str
        ``level`` unchanged.

    Raises
    ------
    ValueError
        For any other value.
    """
    if level not in LEVELS:
        raise ValueError(f"unknown --level {level!r}; accepted: {', '.join(LEVELS)}")
    return level


def parse_policies(text: str, players: int) -> tuple[str, ...]:
    """Split and check a ``--policies`` value.

    Parameters
    ----------
    text : str
        Comma-separated policy specs (commas inside a spec's parentheses do not split, e.g.
        ``"pimc(samples=8,depth=deal),greedy"``): one (every seat), two (per side: seat ``s``
        plays ``names[s % 2]``) or one per seat
        (:func:`cuarenta_sim.cuarenta.policies.resolve_policies`).
    players : int
        Number of seats, 2 or 4.

    Returns
    -------
    tuple of str
        The names as given, stripped.

    Raises
    ------
    ValueError
        On an empty name, unbalanced parentheses, an unknown policy or a wrong number of
        names (the message lists what is accepted).
    """
    from .cuarenta.policies import resolve_policies, split_policy_list

    try:
        names = tuple(split_policy_list(text))
        resolve_policies(names, players)
    except ValueError as err:
        raise ValueError(f"--policies {text!r}: {err}") from err
    return names


def parse_policy_set(text: str, counts: tuple[int, ...]) -> tuple[str, ...]:
    """Split and check a list of competing policies (tournament, strategies report).

    Parameters
    ----------
    text : str
        Comma-separated policy specs, commas inside parentheses kept
        (:func:`cuarenta_sim.cuarenta.policies.split_policy_list`); at least two, all distinct.
    counts : tuple of int
        Player counts each spec must be valid for.

    Returns
    -------
    tuple of str
        The specs, stripped.

    Raises
    ------
    ValueError
        Empty or unknown spec, fewer than two, or two that are the same policy with the same
        parameters (``heuristic`` and ``heuristic(cards=350)`` are one policy).
    """
    from .cuarenta.policies import parse_policy, resolve_policies, split_policy_list

    try:
        specs = tuple(split_policy_list(text))
        for spec in specs:
            for count in counts:
                resolve_policies(spec, count)
    except ValueError as err:
        raise ValueError(f"--policies {text!r}: {err}") from err
    canonical = [parse_policy(spec).canonical for spec in specs]
    if len(specs) < 2 or len(set(canonical)) != len(canonical):
        raise ValueError(
            f"--policies {text!r}: give at least two different policies (compared with every "
            f"parameter at its value: {', '.join(canonical)})"
        )
    return specs


def check_writable(path: Path, *, directory: bool) -> None:
    """Fail fast, before a long run, if ``path`` cannot be written later.

    Parameters
    ----------
    path : Path
        Output file (``directory=False``) or output directory (``directory=True``).
    directory : bool
        What ``path`` must be.

    Raises
    ------
    ValueError
        If ``path`` exists with the wrong kind, its nearest existing ancestor is not a
        directory, or that directory is not writable.
    """
    if path.exists() and path.is_dir() != directory:
        kind = "a directory" if directory else "a file name"
        raise ValueError(f"{path} already exists and is not {kind}")
    ancestor = path if directory and path.exists() else path.parent
    while not ancestor.exists():
        ancestor = ancestor.parent
    if not ancestor.is_dir():
        raise ValueError(f"cannot create {path}: {ancestor} is not a directory")
    if not os.access(ancestor, os.W_OK):
        raise ValueError(f"cannot write {path}: {ancestor} is not writable")


def check_not_clobbered(paths: list[Path], force: bool) -> None:
    """Refuse to overwrite existing output files unless ``force``.

    Raises
    ------
    ValueError
        Naming the first existing file and how to overwrite it (``--force``).
    """
    if force:
        return
    for path in paths:
        if path.exists():
            raise ValueError(f"{path} already exists; pass --force to overwrite it")


def check_scale_out(
    *,
    backend: str,
    scheduler: str | None,
    workers: int | None,
    chunk_size: int | None,
    aggregates_only: bool,
    dataset: Path | None,
    out: Path | None,
) -> str:
    """Check the scale-out options of ``simulate`` together; return the ``output`` mode.

    Returns
    -------
    str
        ``"frames"``, ``"aggregates"`` (``--aggregates-only``) or ``"dataset"``
        (``--dataset`` without ``--aggregates-only``).

    Raises
    ------
    ValueError
        An unknown backend; ``--scheduler`` or ``--workers`` without ``--backend dask``, or
        both together; a ``--chunk-size`` or ``--workers`` below 1; ``--out`` with
        ``--aggregates-only`` or ``--dataset`` (no records are kept in memory); a
        ``--dataset`` that is an existing file.
    """
    from .distributed import BACKENDS

    if backend not in BACKENDS:
        raise ValueError(f"unknown --backend {backend!r}; accepted: {', '.join(BACKENDS)}")
    if backend != "dask" and (scheduler is not None or workers is not None):
        used = "--scheduler" if scheduler is not None else "--workers"
        raise ValueError(f"{used} needs --backend dask")
    if scheduler is not None and workers is not None:
        raise ValueError(
            "--workers sizes the local cluster started without --scheduler; the cluster at "
            "--scheduler has its own workers"
        )
    if workers is not None and workers < 1:
        raise ValueError(f"--workers must be a positive whole number, got {workers}")
    if chunk_size is not None and chunk_size < 1:
        raise ValueError(f"--chunk-size must be a positive whole number, got {chunk_size}")
    if out is not None and (aggregates_only or dataset is not None):
        raise ValueError(
            "--out needs the per-data records in memory; with --aggregates-only or --dataset "
            "they are not kept (a --dataset run keeps them as Parquet in its directory)"
        )
    if dataset is not None:
        check_writable(dataset, directory=True)
    if backend == "dask":
        from .distributed import require_dask

        require_dask()
    if aggregates_only:
        return "aggregates"
    return "dataset" if dataset is not None else "frames"


def format_rate(per_second: float) -> str:
    """Human-readable rate: ``1234567.0`` -> ``"1.23M"``.

    Parameters
    ----------
    per_second : float
        Events per second (>= 0).

    Returns
    -------
    str
    """
    for limit, suffix in ((1e9, "G"), (1e6, "M"), (1e3, "k")):
        if per_second >= limit:
            return f"{per_second / limit:.3g}{suffix}"
    return f"{per_second:.3g}"


def reproduce_command(
    *, rules: RuleSet, players: int, policies: tuple[str, ...], n: int, level: str, seed: int
) -> str:
    """Shell command that reproduces a simulation's numbers exactly.

    Thread count, chunking and output options do not change the results (reproducibility
    contract, ``docs/design.md``), so they are left out.

    Parameters
    ----------
    rules : RuleSet
        Rules simulated (written as its canonical slug).
    players : int
        2 or 4.
    policies : tuple of str
        One policy name per seat.
    n : int
        Number of datas (level data) or games.
    level : str
        ``"data"``, ``"chica"`` or ``"mesa"``.
    seed : int
        Seed used.

    Returns
    -------
    str
        A shell-quoted ``cuarenta-sim simulate ...`` command line.
    """
    return shlex.join(
        [
            PROG,
            "simulate",
            "--rules",
            rules.slug(),
            "--players",
            str(players),
            "--policies",
            ",".join(policies),
            "--n",
            str(n),
            "--level",
            level,
            "--seed",
            str(seed),
        ]
    )


def provenance_headline(provenance: dict[str, Any]) -> str:
    """One line naming the versions and inputs recorded in a provenance dict.

    Parameters
    ----------
    provenance : dict
        ``Results.provenance``.

    Returns
    -------
    str
        ``"key=value"`` pairs of the identifying entries present, joined by ``", "``.
    """
    keys = (
        "package_version",
        "engine_version",
        "rules",
        "players",
        "policies",
        "level",
        "n",
        "seed",
        "threads",
        "numba",
        "numpy",
    )
    parts = []
    for key in keys:
        if key in provenance:
            value = provenance[key]
            if isinstance(value, list | tuple):
                value = ",".join(str(v) for v in value)
            parts.append(f"{key}={value}")
    return ", ".join(parts)


# --------------------------------------------------------------------------- commands
@app.command(
    help="Simulate datas, chicas or mesas; print estimates with intervals; optionally save "
    "the records (--out) and a report (--report)."
)
def simulate(
    game: Annotated[
        str, typer.Option("--game", help="Game to simulate: cuarenta (default) or cuatrola.")
    ] = "cuarenta",
    rules: Annotated[
        str | None,
        typer.Option(
            "--rules",
            help="Preset or slug. Cuarenta (default quito): quito, cuenca, pagat, "
            "quito_torneo, e.g. 'quito(max_sum_cards=2)'; Cuatrola (default ro): ro, online.",
        ),
    ] = None,
    players: Annotated[
        int | None,
        typer.Option("--players", help="Cuarenta: 2 (default) or 4. Cuatrola is always 4."),
    ] = None,
    policies: Annotated[
        str | None,
        typer.Option(
            "--policies",
            help="Play policies, comma-separated: one for every seat, one per side (pair) or "
            "one per seat; parameters in parentheses, e.g. 'pimc(samples=8)'. Default greedy "
            "(see the policies command; Cuatrola: random, greedy, pimc).",
        ),
    ] = None,
    bid_policies: Annotated[
        str | None,
        typer.Option(
            "--bid-policies",
            help="Cuatrola only: bidding policies (never, threshold, always(solo)...), one, "
            "one per pair or one per seat; default threshold.",
        ),
    ] = None,
    n: Annotated[
        int, typer.Option("--n", help="Number of datas (level data) or games to simulate.")
    ] = 1_000_000,
    level: Annotated[
        str | None,
        typer.Option(
            "--level",
            help="Cuarenta: data (default; a hand), chica (game) or mesa (match); Cuatrola: "
            "hand (default) or game.",
        ),
    ] = None,
    seed: SeedOpt = 0,
    threads: Annotated[
        int | None, typer.Option("--threads", help="Worker threads (default: all cores).")
    ] = None,
    out: Annotated[
        Path | None,
        typer.Option(
            "--out",
            help="Write the per-data records as Parquet here (levels chica and mesa: the games "
            "too, to NAME.games.parquet).",
        ),
    ] = None,
    report: Annotated[
        Path | None,
        typer.Option("--report", help="Write report.md and provenance.json into this directory."),
    ] = None,
    confidence: Annotated[
        float, typer.Option("--confidence", help="Two-sided confidence level of the intervals.")
    ] = 0.95,
    progress: Annotated[
        bool, typer.Option("--progress/--no-progress", help="Progress bar on stderr.")
    ] = True,
    force: Annotated[
        bool, typer.Option("--force", help="Overwrite existing --out and --report files.")
    ] = False,
    backend: Annotated[
        str,
        typer.Option(
            "--backend", help="Where the chunks run: local (this process) or dask (a cluster)."
        ),
    ] = "local",
    scheduler: Annotated[
        str | None,
        typer.Option(
            "--scheduler",
            help="With --backend dask: address of an existing Dask scheduler, e.g. "
            "tcp://host:8786 (default: start a local cluster).",
        ),
    ] = None,
    workers: Annotated[
        int | None,
        typer.Option(
            "--workers",
            help="With --backend dask and no --scheduler: worker processes of the local "
            "cluster (default: one per core).",
        ),
    ] = None,
    chunk_size: Annotated[
        int | None,
        typer.Option(
            "--chunk-size",
            help="Games per chunk (a Dask task); never changes the results "
            "(default 262144 datas, 32768 chicas, 8192 mesas).",
        ),
    ] = None,
    aggregates_only: Annotated[
        bool,
        typer.Option(
            "--aggregates-only",
            help="Keep only per-chunk counters (memory stays flat as --n grows); with "
            "--dataset they are saved there and the run is resumable.",
        ),
    ] = False,
    dataset: Annotated[
        Path | None,
        typer.Option(
            "--dataset",
            help="Directory of a resumable run: per-chunk Parquet records (none with "
            "--aggregates-only) and counters; rerun the same command to finish an "
            "interrupted run.",
        ),
    ] = None,
) -> None:
    """Run :func:`cuarenta_sim.simulate` and print, save and report its results.

    Prints the header, the per-data estimates
    (:func:`cuarenta_sim.cuarenta.summaries.summarize_hands`), at levels chica and mesa the
    per-game estimates (:func:`cuarenta_sim.cuarenta.summaries.summarize_games`), the
    throughput, a provenance headline and the command that reproduces the numbers. The
    progress bar goes to stderr.

    With ``--game cuatrola`` runs ``cuarenta_sim.simulate("cuatrola", ...)`` instead
    (:func:`simulate_cuatrola_command`).

    Parameters
    ----------
    game : str
        ``"cuarenta"`` or ``"cuatrola"``.
    rules : str or None
        Preset name or slug; None: ``quito`` (Cuarenta), ``ro`` (Cuatrola).
    players : int or None
        2 or 4 (Cuarenta; None: 2); Cuatrola accepts only None or 4.
    policies : str or None
        Comma-separated policy specs (see :func:`parse_policies`); None: ``greedy``.
    bid_policies : str or None
        Cuatrola only: bidding policies; None: ``threshold``.
    n : int
        Datas (level data), chicas or mesas to simulate, >= 1.
    level : str or None
        ``"data"`` (default), ``"chica"`` or ``"mesa"``; Cuatrola ``"hand"`` (default) or
        ``"game"``.
    seed : int
        Non-negative seed.
    threads : int or None
        numba threads, 1 to ``NUMBA_NUM_THREADS``; None keeps numba's default (all cores).
    out : Path or None
        Parquet file for ``Results.to_parquet`` (parents created), written atomically.
    report : Path or None
        Directory for ``report.md`` and ``provenance.json`` (:meth:`.reports.Report.write`).
    confidence : float
        Two-sided confidence level of the intervals, in (0, 1).
    progress : bool
        Show the tqdm progress bar on stderr.
    force : bool
        Replace existing output files; without it an existing ``--out`` (or its games file)
        or ``--report`` ``report.md`` is an error, checked before the run.
    backend : str
        ``"local"`` or ``"dask"`` (:func:`cuarenta_sim.simulate` ``backend``).
    scheduler : str or None
        Dask scheduler address (``--backend dask`` only); None starts a ``LocalCluster``.
    workers : int or None
        Worker processes of that ``LocalCluster`` (``--backend dask`` without
        ``--scheduler``).
    chunk_size : int or None
        Games per chunk, >= 1.
    aggregates_only : bool
        Keep counters only (:func:`cuarenta_sim.simulation.aggregate`); the estimates are the
        same.
    dataset : Path or None
        Resumable run directory: ``aggregate(dataset=..., records=True)`` (counters only with
        ``--aggregates-only``); a directory of another run's settings is refused.

    Raises
    ------
    ValueError
        Any bad option, checked before the simulation starts.
    OSError
        When an output file cannot be written (no partial file is left).
    """
    import numba

    from .cuarenta.summaries import summarize_hands
    from .stats import z_value

    if game not in GAMES:
        raise ValueError(f"unknown --game {game!r}; accepted: {', '.join(GAMES)}")
    if game == "cuatrola":
        cuarenta_only = {
            "--report": report is not None, "--backend dask": backend != "local",
            "--scheduler": scheduler is not None, "--workers": workers is not None,
            "--aggregates-only": aggregates_only, "--dataset": dataset is not None,
        }
        given = [name for name, used in cuarenta_only.items() if used]
        if given:
            raise ValueError(f"{', '.join(given)} not available with --game cuatrola")
        if players not in (None, 4):
            raise ValueError(f"Cuatrola is played by 4 (C1.1); --players {players} given")
        simulate_cuatrola_command(
            rules=rules or "ro", play=policies or "greedy", bid=bid_policies or "threshold",
            n=n, level=level or "hand", seed=seed, threads=threads, out=out,
            confidence=confidence, progress=progress, force=force, chunk_size=chunk_size,
        )
        return
    if bid_policies is not None:
        raise ValueError("--bid-policies applies to --game cuatrola only")
    rules = rules or "quito"
    players = 2 if players is None else players
    policies = policies or "greedy"
    level = level or "data"
    rule_set = parse_rules(rules)
    parse_players(players)
    parse_level(level)
    seats = parse_policies(policies, players)
    if n <= 0:
        raise ValueError(f"--n must be a positive whole number of {level}s, got {n}")
    if threads is not None and not 1 <= threads <= numba.config.NUMBA_NUM_THREADS:
        raise ValueError(
            f"--threads must be a whole number from 1 to {numba.config.NUMBA_NUM_THREADS} "
            f"(NUMBA_NUM_THREADS), got {threads}"
        )
    if seed < 0:
        raise ValueError(f"--seed must be a non-negative integer, got {seed}")
    z_value(confidence)
    output = check_scale_out(
        backend=backend,
        scheduler=scheduler,
        workers=workers,
        chunk_size=chunk_size,
        aggregates_only=aggregates_only,
        dataset=dataset,
        out=out,
    )
    if out is not None:
        from .results import games_path

        check_writable(out, directory=False)
        check_writable(games_path(out), directory=False)
        if report is not None and (
            out.resolve() == report.resolve()
            or out.resolve()
            in (report.resolve() / "report.md", report.resolve() / "provenance.json")
        ):
            raise ValueError(f"--out {out} clashes with the --report directory {report}")
        check_not_clobbered([out, games_path(out)], force)
    if report is not None:
        check_writable(report, directory=True)
        check_not_clobbered([report / "report.md", report / "provenance.json"], force)

    from .cuarenta.engine import warmup
    from .simulation import aggregate
    from .simulation import simulate as run_simulation

    t0 = time.perf_counter()
    warmup()
    load_s = time.perf_counter() - t0
    t0 = time.perf_counter()
    extra: dict[str, Any] = {}
    if output != "frames":
        # Counters only (and, with --dataset and without --aggregates-only, Parquet records).
        extra = {"dataset": dataset, "records": output == "dataset"}
    results = (aggregate if output != "frames" else run_simulation)(
        "cuarenta",
        rules=rule_set,
        players=players,
        policies=seats,
        n=n,
        level=level,
        seed=seed,
        threads=threads,
        chunk_size=chunk_size,
        progress=progress,
        keep_hands=True,
        backend=backend,
        client=scheduler,
        workers=workers,
        **extra,
    )
    elapsed = time.perf_counter() - t0
    unit = "datas" if level == "data" else f"{level}s"
    if isinstance(results, Results):
        hands = results.hands
        assert hands is not None
        plays = int(hands["plays"].sum())
        datas = len(hands)
        summaries = {"Per data (hand)": summarize_hands(hands, confidence)}
        if level != "data" and results.games is not None:
            summaries[f"Per {level}"] = summarize_games(results.games, level, confidence)
    else:
        assert results.hands is not None
        plays = results.hands.sums["plays"]
        datas = results.hands.n
        summaries = {"Per data (hand)": results.summarize_hands(confidence)}
        if level != "data":
            summaries[f"Per {level}"] = results.summarize_games(confidence)

    provenance = dict(results.provenance)
    command = reproduce_command(
        rules=rule_set, players=players, policies=seats, n=n, level=level, seed=seed
    )
    rate = max(elapsed, 1e-9)
    thread_count = provenance.get("threads", threads)
    if "games_computed" in provenance:
        # A resumed run timed only the chunks it computed.
        n_timed, datas = provenance["games_computed"], provenance["hands_computed"]
        plays = plays * datas // max(provenance["hands_played"], 1)
    else:
        n_timed = n
    throughput = {
        "wall time (s)": f"{elapsed:.2f}",
        f"{unit} per second": format_rate(n_timed / rate),
        "plays per second": format_rate(plays / rate),
        "threads": str(thread_count),
        "kernel load / compile (s), not in wall time": f"{load_s:.2f}",
    }
    if level != "data":
        throughput["datas per second"] = format_rate(datas / rate)
    if backend == "dask":
        throughput["backend"] = f"dask ({scheduler or 'local cluster'})"
    if "chunks_reused" in provenance:
        throughput["chunks computed / reused"] = (
            f"{provenance['chunks_computed']} / {provenance['chunks_reused']}"
        )

    typer.echo(
        f"Cuarenta simulation: rules {rule_set.slug()}, {players} players, "
        f"policies {','.join(seats)}, {n:,} {unit} (level {level}), seed {seed}"
    )
    for title, frame in summaries.items():
        typer.echo(f"\n{title}")
        typer.echo(estimates_table(frame, confidence=confidence))
    where = f"{thread_count} thread(s)"
    if "workers" in provenance:
        where = f"{provenance['workers']} Dask worker(s), {thread_count} thread(s) each"
    if n_timed:
        typer.echo(
            f"\nthroughput: {n_timed:,} {unit} in {elapsed:.2f} s = "
            f"{format_rate(n_timed / rate)} {unit}/s, {format_rate(plays / rate)} plays/s on "
            f"{where} (kernel load {load_s:.2f} s not included)"
        )
    else:
        typer.echo(f"\nthroughput: nothing to compute, every chunk was complete in {dataset}")
    if "chunks_reused" in provenance:
        typer.echo(
            f"chunks: {provenance['chunks']} of {chunk_size or provenance['chunk_size']:,} "
            f"{unit}, {provenance['chunks_computed']} computed, {provenance['chunks_reused']} "
            f"reused from {dataset}"
            if dataset is not None
            else f"chunks: {provenance['chunks']}, backend {backend}"
            + (", counters only" if output == "aggregates" else "")
        )
    typer.echo(f"provenance: {provenance_headline(provenance)}")
    typer.echo(f"reproduce: {command}")
    if dataset is not None:
        typer.echo(
            f"dataset: {dataset} (complete; "
            + ("read it with cuarenta_sim.results.read_dataset)" if output == "dataset"
               else "counters only)")
        )  # fmt: skip

    if out is not None:
        from .results import games_path

        assert isinstance(results, Results)
        out.parent.mkdir(parents=True, exist_ok=True)
        results.to_parquet(out)
        written = [out] + ([games_path(out)] if results.games is not None else [])
        typer.echo("wrote " + " and ".join(f"{p} ({p.stat().st_size:,} bytes)" for p in written))
    if report is not None:
        built = simulation_report(
            rules=rule_set,
            summaries=summaries,
            provenance=provenance,
            command=command,
            throughput=throughput,
            confidence=confidence,
        )
        md, prov = built.write(report)
        typer.echo(f"wrote {md} and {prov}")


def simulate_cuatrola_command(
    *,
    rules: str,
    play: str,
    bid: str,
    n: int,
    level: str,
    seed: int,
    threads: int | None,
    out: Path | None,
    confidence: float,
    progress: bool,
    force: bool,
    chunk_size: int | None,
) -> None:
    """``simulate --game cuatrola``: run, print the estimates, optionally save Parquet.

    Parameters
    ----------
    rules : str
        Cuatrola preset or slug (``ro``, ``online``).
    play, bid : str
        Comma-separated play and bidding policies (1, 2 per pair, or 4 per seat).
    n : int
        Hands (level hand) or games (level game), >= 1.
    level : str
        ``"hand"`` or ``"game"``.
    seed : int
        Non-negative seed.
    threads, chunk_size : int or None
        numba threads; games per chunk (neither changes the results).
    out : Path or None
        Parquet file of the hands (and NAME.games.parquet at level game), atomic.
    confidence : float
        Two-sided confidence level.
    progress, force : bool
        Progress bar; overwrite existing ``--out`` files.

    Raises
    ------
    ValueError
        Bad rules, policies, level, counts or an existing output without ``--force``.
    """
    from .cuarenta.policies import split_policy_list
    from .cuatrola.summaries import summarize_games as cuatrola_games
    from .cuatrola.summaries import summarize_hands as cuatrola_hands
    from .simulation import simulate as run_simulation
    from .stats import z_value

    z_value(confidence)
    if n <= 0:
        raise ValueError(f"--n must be a positive whole number of {level}s, got {n}")
    if out is not None:
        from .results import games_path

        check_writable(out, directory=False)
        check_not_clobbered([out, games_path(out)] if level == "game" else [out], force)
    t0 = time.perf_counter()
    results = run_simulation(
        "cuatrola", rules=rules, policies=split_policy_list(play),
        bid_policies=split_policy_list(bid), n=n, level=level, seed=seed,
        threads=threads, chunk_size=chunk_size, progress=progress,
    )
    elapsed = max(time.perf_counter() - t0, 1e-9)
    prov = results.provenance
    hands = results.hands
    assert hands is not None
    typer.echo(
        f"Cuatrola simulation: rules {prov['rules']}, play {','.join(prov['policies'])}, "
        f"bidding {','.join(prov['bid_policies'])}, {n:,} {level}s (level {level}), seed {seed}"
    )
    typer.echo("\nPer hand")
    typer.echo(estimates_table(cuatrola_hands(hands, confidence), confidence=confidence))
    if level == "game" and results.games is not None:
        typer.echo("\nPer game")
        typer.echo(estimates_table(cuatrola_games(results.games, confidence),
                                   confidence=confidence))
    typer.echo(
        f"\nthroughput: {len(hands):,} hands in {elapsed:.2f} s = "
        f"{format_rate(len(hands) / elapsed)} hands/s on {prov['threads']} thread(s)"
    )
    command = shlex.join([PROG, "simulate", "--game", "cuatrola", "--rules", prov["rules"],
                          "--policies", play, "--bid-policies", bid, "--n", str(n), "--level",
                          level, "--seed", str(seed)])
    typer.echo(f"reproduce: {command}")
    if out is not None:
        results.to_parquet(out)
        typer.echo(f"wrote {out}")


@app.command(
    help="Evaluate scenarios (docs/cuarenta.md section F) from a JSON file or '-' (stdin): "
    "one JSON output line per scenario; exit status 2 if any is an error."
)
def scenario(
    file: Annotated[
        str, typer.Argument(help="JSON file (one object, or JSON lines); '-' reads stdin.")
    ],
) -> None:
    """Print :func:`cuarenta_sim.scenario.evaluate_lines` of a file or stdin, line by line.

    Parameters
    ----------
    file : str
        Path of a file holding one JSON object or JSON lines, or ``"-"`` for stdin.

    Raises
    ------
    ValueError
        If the input cannot be read or decoded, or after printing every result when any of
        them is an error (the message counts them and quotes the first).
    """
    import json

    from .scenario import evaluate_lines

    source = "stdin" if file == "-" else repr(file)
    try:
        text = sys.stdin.read() if file == "-" else Path(file).read_text(encoding="utf-8")
    except OSError as err:
        raise ValueError(
            f"cannot read scenario file {source}: {err.strerror or err}; give a readable JSON "
            f"file or '-' for stdin"
        ) from err
    except UnicodeDecodeError as err:
        raise ValueError(
            f"scenario input {source} is not UTF-8 text (byte {err.start}); expected one JSON "
            f"object or JSON lines"
        ) from err
    lines, any_error = evaluate_lines(text)
    for line in lines:
        typer.echo(line)
    if any_error:
        errors = [
            (i, obj["error"])
            for i, obj in enumerate((json.loads(line) for line in lines), start=1)
            if isinstance(obj, dict) and "error" in obj
        ]
        first = f"; first, output line {errors[0][0]}: {errors[0][1]}" if errors else ""
        raise ValueError(f"{len(errors)} of {len(lines)} scenarios are invalid{first}")


@app.command(
    help="Print one simulated data, chica or mesa play by play with the reference engine "
    "(same seed and index => same cards as simulate)."
)
def replay(
    rules: RulesOpt = "quito",
    players: PlayersOpt = 2,
    seed: SeedOpt = 0,
    level: LevelOpt = "data",
    index: Annotated[
        int, typer.Option("--index", help="Which data (level data) or game of the run, from 0.")
    ] = 0,
    policies: PoliciesOpt = "greedy",
) -> None:
    """Print :func:`cuarenta_sim.cuarenta.reference.replay.format_game` of one reference game.

    Parameters
    ----------
    rules : str
        Preset name or slug.
    players : int
        2 or 4.
    seed : int
        Non-negative seed, as given to ``simulate``.
    level : str
        ``"data"``, ``"chica"`` or ``"mesa"``.
    index : int
        Data (level data), chica or mesa index within the simulated run, >= 0.
    policies : str
        Comma-separated policy names (see :func:`parse_policies`).

    Raises
    ------
    ValueError
        Any bad option.
    """
    rule_set = parse_rules(rules)
    parse_players(players)
    parse_level(level)
    seats = parse_policies(policies, players)
    if seed < 0:
        raise ValueError(f"--seed must be a non-negative integer, got {seed}")
    if index < 0:
        raise ValueError(f"--index must be a non-negative integer, got {index}")

    from .cuarenta.reference import play_game
    from .cuarenta.reference.replay import format_game

    log = play_game(rule_set, players, seats, seed, level, index)
    typer.echo(format_game(log))


@app.command(help="List the presets and every switch (docs/cuarenta.md section S).")
def presets() -> None:
    """Print a table: one row per switch, one column per preset."""
    names = list(PRESETS)
    rows = [[sw] + [format_switch(getattr(PRESETS[p], sw)) for p in names] for sw in SWITCHES]
    typer.echo(
        f"presets: {', '.join(names)} (override switches with a slug, e.g. "
        f"'quito(max_sum_cards=2)')\n"
    )
    typer.echo(text_table(["switch", *names], rows))


@app.command(
    name="rules", help="Validate a rules slug and print its canonical form and every switch."
)
def rules_command(
    slug: Annotated[str, typer.Argument(help="Preset name or slug, e.g. 'cuenca(at_38=none)'.")],
) -> None:
    """Print the canonical slug and a table of every switch of ``slug``.

    Parameters
    ----------
    slug : str
        Preset name or slug such as ``"quito(max_sum_cards=2)"``.

    Raises
    ------
    ValueError
        Malformed slug, unknown preset or switch, or a bad value.
    """
    rule_set = parse_rules(slug)
    typer.echo(f"slug: {rule_set.slug()}\n")
    typer.echo(text_table(["switch", "value", "base preset"], rules_rows(rule_set)))


def parse_player_list(text: str) -> tuple[int, ...]:
    """Parse a ``report --players`` value: ``"2"``, ``"4"`` or ``"2,4"``.

    Parameters
    ----------
    text : str
        Comma-separated player counts.

    Returns
    -------
    tuple of int
        The counts in the order given.

    Raises
    ------
    ValueError
        On anything but distinct 2 and 4 (R2.1).
    """
    parts = [p.strip() for p in text.split(",")]
    if not parts or any(p not in ("2", "4") for p in parts) or len(set(parts)) != len(parts):
        raise ValueError(f"--players must be 2, 4 or 2,4 (R2.1), got {text!r}")
    return tuple(int(p) for p in parts)


@app.command(
    help="Generate a report (quito-vs-cuenca, odds, sensitivity, strategies or cuatrola-bidding) "
    "into OUT/NAME/: report.md, "
    "figures/*.png and provenance.json, regenerated from scratch; prints its summary table."
)
def report(
    name: Annotated[
        str,
        typer.Argument(
            help="Which report: quito-vs-cuenca, odds, sensitivity, strategies or "
            "cuatrola-bidding."
        ),
    ],
    n: Annotated[
        int | None,
        typer.Option(
            "--n",
            help="Datas (hands) per rule set and player count at level data; default "
            "1,000,000 (quito-vs-cuenca, odds) or 500,000 (sensitivity); strategies: chicas "
            "per pair of policies and per tactic (even; default 20,000); cuatrola-bidding: "
            "hands per bid (default 250,000).",
        ),
    ] = None,
    seed: SeedOpt = 0,
    players: Annotated[
        str | None,
        typer.Option(
            "--players",
            help="Player counts: 2, 4 or 2,4 (default both). Not used by cuatrola-bidding.",
        ),
    ] = None,
    policies: Annotated[
        str | None,
        typer.Option(
            "--policies",
            help="quito-vs-cuenca, odds, sensitivity: policy names as for simulate (default "
            "greedy); strategies: the tournament's policies (default "
            "random,greedy,heuristic,pimc); cuatrola-bidding: one Cuatrola play policy "
            "(default the lookahead pimc if available, else greedy).",
        ),
    ] = None,
    chicas: Annotated[
        int | None,
        typer.Option("--chicas", help="Chicas per rule set and player count (default n/4)."),
    ] = None,
    mesas: Annotated[
        int | None,
        typer.Option("--mesas", help="Mesas per rule set and player count (default n/10)."),
    ] = None,
    rules: Annotated[
        str | None,
        typer.Option(
            "--rules",
            help="odds: rules of the caida rates; sensitivity: the base preset or slug "
            "(default quito); cuatrola-bidding: Cuatrola preset or slug (default ro). Not used "
            "by quito-vs-cuenca.",
        ),
    ] = None,
    out: Annotated[
        Path, typer.Option("--out", help="Parent directory of the report directory.")
    ] = Path("reports"),
    threads: Annotated[
        int | None, typer.Option("--threads", help="Worker threads (default: all cores).")
    ] = None,
    confidence: Annotated[
        float, typer.Option("--confidence", help="Two-sided confidence level of the intervals.")
    ] = 0.95,
    progress: Annotated[
        bool, typer.Option("--progress/--no-progress", help="Progress lines on stderr.")
    ] = True,
) -> None:
    """Run :func:`cuarenta_sim.studies.run_study` and write the report directory.

    The directory ``OUT/NAME`` is generated, never hand-edited: ``report.md``,
    ``provenance.json`` and ``figures/*.png`` are replaced atomically and PNG files of an
    older run that this run did not draw are removed.

    Parameters
    ----------
    name : str
        A registered study (:data:`cuarenta_sim.studies.STUDIES`): ``"quito-vs-cuenca"``,
        ``"odds"``, ``"sensitivity"``, ``"strategies"`` or ``"cuatrola-bidding"``; its options
        are checked by :meth:`cuarenta_sim.studies.Study.settings`.
    n : int or None
        Datas per rule set and player count (strategies: chicas per pair of policies;
        cuatrola-bidding: hands per bid);
        None takes the study's default (``Study.defaults``).
    seed : int
        Non-negative seed shared by every simulation (common random numbers).
    players : str or None
        ``"2"``, ``"4"`` or ``"2,4"``; None: the study's default.
    policies : str or None
        Comma-separated policy names (see :func:`parse_policies`), checked for every
        player count; for strategies the tournament's policy specs. None: the study's
        default.
    chicas, mesas : int or None
        Chicas and mesas per rule set and player count; None: ``n // 4`` and ``n // 10``.
    rules : str or None
        Rules of the odds study, base of the sensitivity study; default ``quito``.
    out : Path
        Parent directory; the report goes to ``out / name``.
    threads : int or None
        numba threads, 1 to ``NUMBA_NUM_THREADS``.
    confidence : float
        Two-sided confidence level, in (0, 1).
    progress : bool
        Print one progress line per simulated rule set on stderr.

    Raises
    ------
    ValueError
        Any bad option, checked before the first simulation.
    OSError
        When the report cannot be written (no partial file is left).
    """
    from .studies import get_study

    # Every option is checked by the study's registry entry before any simulation.
    study = get_study(name)
    settings = study.settings(
        n=n,
        seed=seed,
        players=players,
        policies=policies,
        chicas=chicas,
        mesas=mesas,
        rules=rules,
        confidence=confidence,
        threads=threads,
    )
    _write_study(name, settings, out, progress)


def _write_study(name: str, settings: StudySettings, out: Path, progress: bool) -> None:
    """Run study ``name`` and write ``out / name``; print its summary and reproduce command.

    The study's game compiles its kernels first (``Game.warmup``), before the timer starts.
    """
    from .game import get_game
    from .studies import get_study, run_study

    directory = out / name
    check_writable(directory, directory=True)
    get_game(get_study(name).game).warmup()
    say = (lambda msg: typer.echo(f"{PROG} report {name}: {msg}", err=True)) if progress else None
    t0 = time.perf_counter()
    built = run_study(name, settings, progress=say)
    written = built.write(directory)
    elapsed = time.perf_counter() - t0
    typer.echo(built.summary)
    figures = [p for p in written if p.suffix == ".png"]
    typer.echo(
        f"\nwrote {directory / 'report.md'}, {directory / 'provenance.json'} and "
        f"{len(figures)} figure(s) in {directory / 'figures'} ({elapsed:.1f} s)"
    )
    typer.echo(f"reproduce: {settings.command(name)}")


@app.command(help="Round-robin duplicate tournament between policies, with ratings.")
def tournament(
    policies: Annotated[
        str,
        typer.Option(
            "--policies",
            help="Competing policy specs, comma-separated (at least two), e.g. "
            "'random,greedy,heuristic,pimc' or 'heuristic,pimc(samples=8)'.",
        ),
    ] = "random,greedy,heuristic,pimc",
    rules: RulesOpt = "quito",
    players: PlayersOpt = 2,
    chicas: Annotated[
        int,
        typer.Option("--chicas", help="Chicas per pair of policies (even: duplicate pairs)."),
    ] = 20_000,
    mesas: Annotated[
        int, typer.Option("--mesas", help="Mesas per pair (even; 0 skips the mesa level).")
    ] = 0,
    seed: SeedOpt = 0,
    confidence: Annotated[
        float, typer.Option("--confidence", help="Two-sided confidence level of the intervals.")
    ] = 0.95,
    threads: Annotated[
        int | None, typer.Option("--threads", help="Worker threads (default: all cores).")
    ] = None,
    out: Annotated[
        Path | None,
        typer.Option("--out", help="Directory for matches.csv, ratings.csv, provenance.json."),
    ] = None,
    force: Annotated[bool, typer.Option("--force", help="Overwrite existing --out files.")] = False,
) -> None:
    """Play every pair of ``policies`` in duplicate (:mod:`cuarenta_sim.tournament`).

    Prints the matches (chica and mesa win rates with clustered Wilson intervals, points per
    data) and Bradley-Terry ratings with bootstrap intervals; with ``--out`` also writes
    ``matches.csv``, ``ratings.csv`` and ``provenance.json`` atomically.

    Parameters
    ----------
    policies : str
        Comma-separated policy specs (:func:`parse_policy_set`).
    rules : str
        Preset or slug.
    players : int
        2 or 4.
    chicas, mesas : int
        Games per pair at each level (even; mesas 0 skips the level).
    seed : int
        Seed of every match.
    confidence : float
        Two-sided confidence level.
    threads : int or None
        numba threads.
    out : Path or None
        Output directory.
    force : bool
        Overwrite existing output files.

    Raises
    ------
    ValueError
        Any bad option, checked before the first game.
    OSError
        When an output file cannot be written (no partial file is left).
    """
    import numba

    from .cuarenta.policies import parse_policy
    from .cuarenta.strategies import cuarenta_tournament, tournament_text
    from .io import write_json_atomic, write_text_atomic
    from .tournament import TournamentSettings

    parse_rules(rules)
    parse_players(players)
    specs = parse_policy_set(policies, (players,))
    if threads is not None and not 1 <= threads <= numba.config.NUMBA_NUM_THREADS:
        raise ValueError(
            f"--threads must be a whole number from 1 to {numba.config.NUMBA_NUM_THREADS} "
            f"(NUMBA_NUM_THREADS), got {threads}"
        )
    settings = TournamentSettings(policies=specs, rules=rules, players=players, chicas=chicas,
                                  mesas=mesas, seed=seed, confidence=confidence,
                                  threads=threads)
    files = []
    if out is not None:
        files = [out / "matches.csv", out / "ratings.csv", out / "provenance.json"]
        check_writable(out, directory=True)
        check_not_clobbered(files, force)
    result = cuarenta_tournament(settings, lambda msg: typer.echo(msg, err=True))
    typer.echo(tournament_text(result))
    command = shlex.join([PROG, "tournament", "--policies", ",".join(specs), "--rules", rules,
                          "--players", str(players), "--chicas", str(chicas), "--mesas",
                          str(mesas), "--seed", str(seed)]
                         + (["--confidence", f"{confidence:g}"] if confidence != 0.95 else []))
    typer.echo(f"\n{result.seconds:,.1f} s; reproduce: {command}")
    if out is not None:
        import cuarenta_sim

        write_text_atomic(files[0], result.matches.to_csv(index=False))
        write_text_atomic(files[1], result.ratings.to_csv(index=False))
        write_json_atomic(files[2], {
            "package_version": cuarenta_sim.__version__,
            "engine_version": cuarenta_sim.get_game("cuarenta").engine_version,
            "command": command,
            "policies": [parse_policy(spec).canonical for spec in specs],
            "policies_as_given": list(specs),
            "rules": resolve_rules(rules).slug(),
            "players": players,
            "chicas_per_pair": chicas,
            "mesas_per_pair": mesas,
            "seed": seed,
            "confidence": confidence,
            "wall_time_s": round(result.seconds, 2),
        })
        typer.echo(f"wrote {', '.join(str(f) for f in files)}")


@app.command(name="policies", help="List the playing policies of both games and their parameters.")
def policies_command() -> None:
    """Print the playing policies of both games: name, stochastic or not, parameters with
    their defaults, description; then Cuatrola's bidding policies."""
    from .cuarenta.policies import POLICIES
    from .cuatrola.policies import BID_KINDS, DEFAULT_THRESHOLDS, PLAY_POLICIES

    rows = []
    for name, info in POLICIES.items():
        params = ", ".join(f"{p.name}={p.choices[p.default] if p.choices else p.default}"
                           for p in info.params)
        rows.append([name, "yes" if info.stochastic else "no", params or "-", info.description])
    typer.echo("Cuarenta play policies (--policies; parameters as name(param=value,...)):\n")
    typer.echo(text_table(["policy", "stochastic", "parameters (defaults)", "description"], rows))
    solo, cuatrola, quintola = DEFAULT_THRESHOLDS
    typer.echo(
        f"\nCuatrola (--game cuatrola): play policies {', '.join(PLAY_POLICIES)} "
        f"(pimc(samples=n)); bidding policies {', '.join(BID_KINDS)}: never, "
        f"threshold(solo={solo},cuatrola={cuatrola},quintola={quintola}) on the hand strength, "
        f"always(solo|cuatrola|quintola). See cuarenta_sim.cuatrola.policies."
    )


# --------------------------------------------------------------------------- entry point
def _one_line(message: str) -> str:
    return " ".join(str(message).split())


def _describe_os_error(err: OSError) -> str:
    if err.filename is not None and err.strerror:
        return f"{err.strerror}: {err.filename}"
    return str(err)


def main(argv: list[str] | None = None) -> int:
    """Run the command line; the console script ``cuarenta-sim`` and ``python -m cuarenta_sim``.

    Parameters
    ----------
    argv : list of str, optional
        Arguments after the program name; default ``sys.argv[1:]``.

    Returns
    -------
    int
        Exit status: 0 success, 2 bad input (one line on stderr, no traceback), 130
        interrupted.
    """
    command = typer.main.get_command(app)
    # A terminated run (SIGTERM) unwinds like Ctrl-C, so atomic writers delete their
    # temporary files instead of leaving them behind.
    signal.signal(signal.SIGTERM, _interrupt)
    try:
        code = command.main(args=argv, prog_name=PROG, standalone_mode=False)
    except _USAGE_ERROR as err:
        ctx = getattr(err, "ctx", None)
        where = ctx.command_path if ctx is not None else PROG
        hint = ""
        if ctx is not None and ctx.command is command:
            hint = f"; commands: {', '.join(command.commands)}"  # type: ignore[attr-defined]
        message = err.format_message().rstrip(".")  # type: ignore[attr-defined]
        _error(f"{message}{hint} (see '{where} --help')")
        return EXIT_BAD_INPUT
    except _CLICK_ERROR as err:
        _error(err.format_message())  # type: ignore[attr-defined]
        return int(err.exit_code)  # type: ignore[attr-defined]
    except typer.Abort:
        _error("interrupted")
        return EXIT_INTERRUPTED
    except OSError as err:
        _error(_describe_os_error(err))
        return EXIT_BAD_INPUT
    except ValueError as err:
        _error(str(err))
        return EXIT_BAD_INPUT
    if code == EXIT_INTERRUPTED:
        _error("interrupted; no partial output file was left")
    return int(code or 0)


def _interrupt(signum: int, frame: object) -> None:
    """Signal handler: turn SIGTERM into KeyboardInterrupt (reported as 'interrupted')."""
    raise KeyboardInterrupt


def _error(message: str) -> None:
    sys.stderr.write(f"{PROG}: error: {_one_line(message)}\n")
    sys.stderr.flush()
