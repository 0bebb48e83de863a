"""``cuarenta-sim report NAME``: generate a study's report directory OUT/NAME."""

from __future__ import annotations

import shlex
import time
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from .options import (
    ChicasOpt,
    ConfidenceOpt,
    ConfirmNOpt,
    ConfirmOpt,
    MesasOpt,
    PrecisionOpt,
    ProgressOpt,
    ReportOutOpt,
    SeedOpt,
    StudyGameOpt,
    StudyNOpt,
    StudyPlayersOpt,
    StudyPoliciesOpt,
    StudyRulesOpt,
    ThreadsOpt,
)
from .output import check_directory, echo, echo_command, step_progress

if TYPE_CHECKING:
    from ..studies import StudySettings


def _study_list() -> str:
    """The reports of every game, from the game registry (``Game.studies``), for the help."""
    from ..game import GAMES

    return "; ".join(
        f"{GAMES[g].title}{'' if i == 0 else f' (--game {g})'}: {', '.join(GAMES[g].studies)}"
        for i, g in enumerate(GAMES)
    )


def report(
    name: Annotated[
        str,
        typer.Argument(help=f"Which report. {_study_list()}."),
    ],
    game: StudyGameOpt = None,
    n: StudyNOpt = None,
    seed: SeedOpt = 0,
    players: StudyPlayersOpt = None,
    policies: StudyPoliciesOpt = None,
    chicas: ChicasOpt = None,
    mesas: MesasOpt = None,
    rules: StudyRulesOpt = None,
    out: ReportOutOpt = Path("reports"),
    threads: ThreadsOpt = None,
    confidence: ConfidenceOpt = 0.95,
    confirm: ConfirmOpt = None,
    confirm_n: ConfirmNOpt = None,
    precision: PrecisionOpt = None,
    progress: ProgressOpt = True,
) -> None:
    """Run :func:`cuarenta_sim.studies.run_study` and write the report directory.

    The directory ``OUT/NAME`` is generated, never hand-edited: ``report.md``,
    ``provenance.json`` and ``figures/*.png`` are replaced atomically and PNG files of an
    older run that this run did not draw are removed.

    Parameters
    ----------
    name : str
        A registered study (:data:`cuarenta_sim.studies.STUDIES`).
    game : str or None
        The game whose studies are accepted; None: the study's own game.
    n : int or None
        Size of the study; None: its default.
    seed : int
        Non-negative seed shared by every simulation (common random numbers).
    players : str or None
        ``"2"``, ``"4"`` or ``"2,4"``; None: the study's default.
    policies : str or None
        Policies of the study; None: its default.
    chicas, mesas : int or None
        Games per rule set and player count; None: the study's default.
    rules : str or None
        Rules of the study where it takes them.
    out : Path
        Parent directory; the report goes to ``out / name``.
    threads : int or None
        numba threads.
    confidence : float
        Two-sided confidence level, in (0, 1).
    confirm : str or None
        Policy list of the confirmatory run (rule studies); ``"none"``: none.
    confirm_n : int or None
        Datas of the confirmatory run.
    precision : float or None
        Target interval half-width in percentage points; sizes ``n``
        (:func:`cuarenta_sim.studies.registry.precision_n`).
    progress : bool
        Progress on stderr: a line per step (of the study's count when it gives one), then
        at least every 10 seconds with the running simulation's share, the elapsed time and
        the estimated time left (:func:`~cuarenta_sim.cli.output.step_progress`).

    Raises
    ------
    ValueError
        Any bad option, checked before the first simulation, or an unwritable ``--out``.
    OSError
        When the report cannot be written (no partial file is left).
    """
    from ..game import get_game
    from ..studies import get_study

    study = get_study(name, None if game is None else get_game(game).name)
    spec = get_game(study.game)
    directory = out / name
    check_directory(directory, "--out")
    # Every option is checked by the study's registry entry before any simulation.
    settings = study.settings(n=n, seed=seed, players=players, policies=policies,
                              chicas=chicas, mesas=mesas, rules=rules, confidence=confidence,
                              threads=threads, confirm=confirm, confirm_n=confirm_n,
                              precision=precision)  # fmt: skip
    spec.warmup()
    _write_study(study, settings, out, progress)


def _write_study(study: Any, settings: StudySettings, out: Path, progress: bool) -> None:
    """Run ``study`` and write ``out / study.name``; print its summary and reproduce line."""
    from ..studies import run_study

    directory = out / study.name
    weights = list(study.steps(settings)) if study.steps is not None and progress else None
    total = len(weights) if weights else None
    say, close = step_progress(total, "steps", progress, f"report {study.name}", weights)
    t0 = time.perf_counter()
    try:
        built = run_study(study.name, settings, progress=say, game=study.game)
    finally:
        close()
    written = built.write(directory)
    elapsed = time.perf_counter() - t0
    echo(built.summary)
    figures = [p for p in written if p.suffix == ".png"]
    echo(
        f"\nwrote {directory / 'report.md'}, {directory / 'provenance.json'} and "
        f"{len(figures)} figure(s) in {directory / 'figures'} ({elapsed:.1f} s)"
    )
    # The study's own command leaves out where the report goes; pasting the printed line must
    # write to the same place, not over reports/.
    where = ["--game", study.game, "--out", str(out)]
    echo_command("reproduce: ", f"{study.command(settings)} {shlex.join(where)}")


COMMANDS = [
    (
        "report",
        report,
        "Generate a report into OUT/NAME/: report.md, figures/*.png and provenance.json, "
        f"regenerated from scratch; prints its summary table. {_study_list()}.",
    )
]
