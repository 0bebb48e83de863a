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
    ForceOpt,
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

#: The report folder's figures, regenerated whole (never carried over).
FIGURES = "figures"

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
    force: ForceOpt = False,
) -> None:
    """Run :func:`cuarenta_sim.studies.run_study` and write the report directory.

    The directory ``OUT/NAME`` is generated, never hand-edited: ``report.md``,
    ``provenance.json`` and ``figures/*.png`` are written into a temporary sibling folder that
    then replaces ``OUT/NAME`` as one (an interrupt leaves the old folder or, with none, no
    folder). Files another tool put in the old folder (outside ``figures/``) are carried over.
    An existing ``OUT/NAME`` is replaced only with ``--force``, and one run at a time holds it.

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
    force : bool
        Replace an existing report folder ``OUT/NAME``.

    Raises
    ------
    ValueError
        Any bad option, checked before the first simulation; an unwritable ``--out``; an
        existing ``OUT/NAME`` without ``force``; another run writing ``OUT/NAME``.
    OSError
        When the report cannot be written (no partial file is left).
    """
    from ..game import get_game
    from ..outputs import exclusive
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
    _check_folder(directory, force)
    with exclusive([directory], "--out"):
        # Again under the lock: a swap it completed for a killed run counts as existing.
        _check_folder(directory, force)
        spec.warmup()
        _write_study(study, settings, out, progress, force)


def _check_folder(directory: Path, force: bool) -> None:
    """``--out``'s report folder is replaced only with ``--force`` (ValueError)."""
    if not force and directory.is_dir() and any(directory.iterdir()):
        raise ValueError(
            f"--out {directory.parent}: the report folder {directory} already exists; pass "
            f"--force to replace it"
        )


def _carried(rel: Path) -> bool:
    """Files of an existing report folder kept by a regeneration: those another tool wrote
    there (e.g. ``openspiel.md`` beside the strategies report); never a figure."""
    return rel.parts[0] != FIGURES


def _write_study(study: Any, settings: StudySettings, out: Path, progress: bool,
                 force: bool = False) -> None:  # fmt: skip
    """Run ``study`` and write ``out / study.name``, swapped in as one folder
    (:func:`cuarenta_sim.outputs.staged`); print its summary and reproduce line."""
    from ..outputs import carry_over, staged
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
    with staged([directory]) as (new,):
        written = [directory / p.relative_to(new) for p in built.write(new)]
        carry_over(directory, new, _carried)
    elapsed = time.perf_counter() - t0
    echo(built.summary)
    figures = [p for p in written if p.suffix == ".png"]
    echo(
        f"\nwrote {directory / 'report.md'}, {directory / 'provenance.json'} and "
        f"{len(figures)} figure(s) in {directory / 'figures'} ({elapsed:.1f} s)"
    )
    # The study's own command leaves out where the report goes; pasting the printed line must
    # write to the same place, not over reports/.
    where = ["--game", study.game, "--out", str(out)] + (["--force"] if force else [])
    echo_command("reproduce: ", f"{study.command(settings)} {shlex.join(where)}")


COMMANDS = [
    (
        "report",
        report,
        "Generate a report into OUT/NAME/: report.md, figures/*.png and provenance.json, "
        "regenerated from scratch and swapped in as one folder (an existing one needs "
        f"--force); prints its summary table. {_study_list()}.",
    )
]
