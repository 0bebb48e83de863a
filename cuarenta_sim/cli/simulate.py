"""``cuarenta-sim simulate``: a Monte Carlo run of any game, printed, saved and reported.

Order of work: output locations are checked (seconds, whatever ``--n``), then the library
validates every setting (:func:`cuarenta_sim.simulation.check_simulation`), then the kernels
are loaded and the run starts. Games cut short by the engine's cap are reported as a warning.
"""

from __future__ import annotations

import time
import warnings
from typing import Any

import typer

from .games import game_options, split_list, with_game_options
from .options import (
    AggregatesOnlyOpt,
    BackendOpt,
    ChunkSizeOpt,
    ConfidenceOpt,
    DatasetOpt,
    ForceOpt,
    GameOpt,
    LevelOpt,
    NOpt,
    OutFileOpt,
    PlayersOpt,
    PoliciesOpt,
    PrecisionOpt,
    ProgressOpt,
    ReportDirOpt,
    RulesOpt,
    SchedulerOpt,
    SeedOpt,
    ThreadsOpt,
    WorkersOpt,
)
from .output import (
    check_directory,
    check_file,
    echo,
    echo_command,
    format_rate,
    hold_outputs,
    provenance_headline,
    reproduce_line,
    warn,
)

REPORT_FILES = ("report.md", "provenance.json")
HEADLINE = ("game", "package_version", "engine_version", "rules", "players", "policies",
            "level", "n", "seed", "threads", "numba", "numpy")  # fmt: skip


def _check_outputs(game: Any, level: str | None, out: Any, report: Any, dataset: Any,
                   force: bool, aggregates_only: bool) -> None:  # fmt: skip
    """Check every output location and their combination before any work (ValueError)."""
    from ..results import games_path

    if out is not None and (aggregates_only or dataset is not None):
        raise ValueError(
            f"--out {out}: the records are not kept in memory with --aggregates-only or "
            f"--dataset (a --dataset run keeps them as Parquet in its directory)"
        )
    if out is not None:
        check_file(out, "--out", suffix=".parquet", force=force)
        if (level or game.default_level) != game.levels[0]:
            check_file(games_path(out), "--out", suffix=".parquet", force=force)
        clash = report is not None and out.resolve().parent == report.resolve()
        if clash and out.name in REPORT_FILES:
            raise ValueError(f"--out {out} clashes with the --report directory {report}")
    if report is not None:
        check_directory(report, "--report", files=REPORT_FILES, force=force)
    if dataset is not None:
        check_directory(dataset, "--dataset")


def _check_scheduler(backend: str, scheduler: str | None, workers: int | None) -> None:
    """The command line's names for the Dask client (``--scheduler``, ``--workers``): checked
    here so the message names the options, not the library's ``client=``."""
    if backend != "dask" and (scheduler is not None or workers is not None):
        used = "--scheduler" if scheduler is not None else "--workers"
        raise ValueError(f"{used} needs --backend dask")
    if scheduler is not None and workers is not None:
        raise ValueError(
            "--workers sizes the local cluster started without --scheduler; the cluster at "
            "--scheduler has its own workers"
        )
    if workers is not None:
        from ..limits import max_local_workers, whole_number

        whole_number(workers, "--workers", 1, max_local_workers())


@with_game_options
def simulate(
    ctx: typer.Context,
    game: GameOpt = "cuarenta",
    rules: RulesOpt = None,
    players: PlayersOpt = None,
    policies: PoliciesOpt = None,
    n: NOpt = None,
    level: LevelOpt = None,
    seed: SeedOpt = 0,
    confidence: ConfidenceOpt = 0.95,
    out: OutFileOpt = None,
    report: ReportDirOpt = None,
    force: ForceOpt = False,
    progress: ProgressOpt = True,
    threads: ThreadsOpt = None,
    backend: BackendOpt = "local",
    scheduler: SchedulerOpt = None,
    workers: WorkersOpt = None,
    chunk_size: ChunkSizeOpt = None,
    aggregates_only: AggregatesOnlyOpt = False,
    dataset: DatasetOpt = None,
    precision: PrecisionOpt = None,
    **options: Any,
) -> None:
    """Run :func:`cuarenta_sim.simulation.simulate` (or ``aggregate``) and print, save and
    report the results.

    Prints the header, the game's estimate tables (``Game.summaries``), the throughput, a
    provenance headline and the command that reproduces the numbers; progress goes to stderr.
    Each parameter is the option of the same name (see ``cuarenta-sim simulate -h``); None
    takes the game's default; ``**options`` are the game's extra options
    (:func:`~cuarenta_sim.cli.games.with_game_options`). ``precision`` sizes ``n`` for a
    target interval half-width in percentage points
    (:func:`cuarenta_sim.studies.registry.precision_n`).

    Raises
    ------
    ValueError
        A bad or unwritable output location (checked first), any bad setting (the library's
        :func:`~cuarenta_sim.simulation.check_simulation`, before any simulation), a run
        whose predicted peak memory does not fit (:mod:`cuarenta_sim.memory`, with ``--out``
        its Parquet writing included).
    OSError
        When an output file cannot be written (nothing is replaced: every output of the run
        is committed together, :func:`cuarenta_sim.outputs.staged`).
    """
    from ..game import get_game
    from ..outputs import staged
    from ..reports import Report, estimates_table, simulation_report
    from ..simulation import TruncationWarning, check_simulation, run_validated
    from ..stats import z_value

    spec = get_game(game)
    if precision is not None:
        from ..studies.registry import precision_n

        if n is not None:
            raise ValueError("give --n or --precision, not both")
        n = precision_n(precision, confidence)
    extra = game_options(spec, options)
    _check_outputs(spec, level, out, report, dataset, force, aggregates_only)
    _check_scheduler(backend, scheduler, workers)
    # Every output is held until the command ends (click closes the context's resources);
    # checked again under the locks: a commit they completed for a killed run counts.
    ctx.with_resource(hold_outputs(_out_paths(spec, level, out), report, dataset))
    _check_outputs(spec, level, out, report, dataset, force, aggregates_only)
    z_value(confidence)
    run = check_simulation(
        spec.name, rules=rules, players=players, policies=split_list(policies), n=n, level=level,
        seed=seed, threads=threads, chunk_size=chunk_size, progress=progress,
        backend=backend, client=scheduler, workers=workers, dataset=dataset,
        records=dataset is not None and not aggregates_only,
        aggregates=aggregates_only or dataset is not None, **extra,
    )  # fmt: skip
    if out is not None:
        from ..memory import check_memory

        # Writing the records as Parquet converts them to Arrow: a higher peak than keeping them.
        check_memory(spec, run.spec, run.n, "parquet")
    t0 = time.perf_counter()
    spec.warmup()
    load_s = time.perf_counter() - t0
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", TruncationWarning)
        t0 = time.perf_counter()
        results = run_validated(run)
        elapsed = time.perf_counter() - t0
    for w in caught:
        if issubclass(w.category, TruncationWarning):
            warn(str(w.message))
        else:
            warnings.warn(w.message, w.category, stacklevel=1)

    prov = dict(results.provenance)
    unit = spec.unit(run.level)
    given = policies or spec.default_policies
    values = {"rules": prov["rules"], "players": prov["players"], "policies": given,
              "n": run.n, "level": run.level, "seed": run.seed}  # fmt: skip
    always = ("game", "rules", "players", "policies", "n", "level", "seed", *spec.options)
    command = reproduce_line(ctx, values, always=always)
    summaries = spec.summaries(results, confidence)
    extras = "".join(
        f", {name} {options.get(name) or spec.options[name].default}" for name in spec.options
    )
    echo(
        f"{spec.title} simulation: rules {prov['rules']}, {prov['players']} players, policies "
        f"{given}{extras}, {run.n:,} {unit}, seed {run.seed}"
    )
    for title, frame in summaries.items():
        typer.echo(f"\n{title}")
        typer.echo(estimates_table(frame, confidence=confidence))
    throughput = _throughput(spec, run, prov, elapsed, load_s, scheduler)
    echo("")
    for line in throughput.pop("_lines"):
        echo(line)
    echo(f"provenance: {provenance_headline(prov, HEADLINE)}")
    echo_command("reproduce: ", command)
    records = results.parquet_paths(out) if out is not None else []
    built = None
    if report is not None:
        built = simulation_report(
            game=spec, rules=spec.resolve_rules(prov["rules"]), summaries=summaries,
            provenance=prov, command=command, throughput=throughput, confidence=confidence,
        )  # fmt: skip
    documents = list(Report.paths(report)) if built is not None else []
    if records or documents:
        # One commit for every output: all of them appear, or none (outputs.staged).
        with staged(records + documents) as tmp:
            if records:
                results.write_parquet_files(*tmp[: len(records)])
            if built is not None:
                built.write_files(*tmp[len(records) :])
    if records:
        echo("wrote " + " and ".join(f"{p} ({p.stat().st_size:,} bytes)" for p in records))
    if documents:
        echo(f"wrote {documents[0]} and {documents[1]}")


def _out_paths(spec: Any, level: str | None, out: Any) -> list[Any]:
    """The record files of ``--out``: it, and at game levels its games file (none without
    ``--out``)."""
    from ..results import games_path

    if out is None:
        return []
    game_level = (level or spec.default_level) != spec.levels[0]
    return [out, games_path(out)] if game_level else [out]


def _throughput(spec: Any, run: Any, prov: dict[str, Any], elapsed: float, load_s: float,
                scheduler: str | None) -> dict[str, Any]:  # fmt: skip
    """The throughput figures of the report and, under ``"_lines"``, the printed lines."""
    unit = spec.unit(run.level)
    hands_unit = spec.unit(spec.levels[0])
    rate = max(elapsed, 1e-9)
    timed = prov.get("games_computed", run.n)
    hands = prov.get("hands_computed", prov["hands_played"])
    threads = prov.get("threads")
    figures: dict[str, Any] = {
        "wall time (s)": f"{elapsed:.2f}",
        f"{unit} per second": format_rate(timed / rate),
        "threads": str(threads),
        "kernel load / compile (s), not in wall time": f"{load_s:.2f}",
    }
    if run.level != spec.levels[0]:
        figures[f"{hands_unit} per second"] = format_rate(hands / rate)
    where = f"{threads} thread(s)"
    if run.backend == "dask":
        figures["backend"] = f"dask ({scheduler or 'local cluster'})"
        if "workers" in prov:
            where = f"{prov['workers']} Dask worker(s), {threads} thread(s) each"
    lines = []
    if timed:
        per_hand = f", {format_rate(hands / rate)} {hands_unit}/s" if unit != hands_unit else ""
        lines.append(
            f"throughput: {timed:,} {unit} in {elapsed:.2f} s = {format_rate(timed / rate)} "
            f"{unit}/s{per_hand} on {where} (kernel load {load_s:.2f} s not included)"
        )
    else:
        lines.append(f"throughput: nothing to compute, every chunk was complete in {run.dataset}")
    if "chunks_reused" in prov:
        figures["chunks computed / reused"] = f"{prov['chunks_computed']} / {prov['chunks_reused']}"
        counters = ", counters only" if run.mode == "aggregates" else ""
        lines.append(
            f"chunks: {prov['chunks']} of {run.chunk:,} {unit}, {prov['chunks_computed']} "
            f"computed, {prov['chunks_reused']} reused{counters}"
            + (f" (dataset {run.dataset})" if run.dataset is not None else "")
        )
    figures["_lines"] = lines
    return figures


COMMANDS = [
    (
        "simulate",
        simulate,
        "Simulate hands or games of a game (--game); print estimates with intervals; "
        "optionally save the records (--out) and a report (--report).",
    )
]
