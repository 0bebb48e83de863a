"""``cuarenta-sim report NAME``: generate a study's report directory OUT/NAME."""

from __future__ import annotations

import shlex
import time
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from .options import (
    ChicasOpt,
    ConfidenceOpt,
    GameOpt,
    MesasOpt,
    ProgressOpt,
    ReportOutOpt,
    SeedOpt,
    StudyNOpt,
    StudyPlayersOpt,
    StudyPoliciesOpt,
    StudyRulesOpt,
    ThreadsOpt,
)
from .output import check_directory, step_progress

if TYPE_CHECKING:
    from ..studies import StudySettings


def report(
    name: Annotated[
        str,
        typer.Argument(
            help="Which report: quito-vs-cuenca, odds, sensitivity, strategies (Cuarenta) or "
            "cuatrola-bidding (Cuatrola)."
        ),
    ],
    game: GameOpt = "cuarenta",
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
    progress: ProgressOpt = True,
) -> None:
    """Run :func:`cuarenta_sim.studies.run_study` and write the report directory.

    The directory ``OUT/NAME`` is generated, never hand-edited: ``report.md``,
    ``provenance.json`` and ``figures/*.png`` are replaced atomically and PNG files of an
    older run that this run did not draw are removed.

    Parameters
    ----------
    name : str
        A study of :data:`cuarenta_sim.studies.STUDY_NAMES`.
    game : str
        The game whose studies are accepted.
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
    progress : bool
        Progress on stderr, one step per simulated rule set.

    Raises
    ------
    ValueError
        Any bad option, checked before the first simulation, or an unwritable ``--out``.
    OSError
        When the report cannot be written (no partial file is left).
    """
    directory = out / name
    check_directory(directory, "--out")
    settings = _settings(name, n, seed, players, policies, chicas, mesas, rules, confidence,
                         threads)  # fmt: skip
    _write_study(name, settings, out, progress)


def _settings(
    name: str,
    n: int | None,
    seed: int,
    players: str | None,
    policies: str | None,
    chicas: int | None,
    mesas: int | None,
    rules: str | None,
    confidence: float,
    threads: int | None,
) -> StudySettings:
    """The settings of study ``name`` from the options (current :mod:`cuarenta_sim.studies`
    API; the study registry will check them itself)."""
    from ..cuarenta.policies import split_policy_list
    from ..cuarenta.rules import resolve_rules
    from ..studies import DEFAULT_N, STUDY_NAMES, StudySettings

    if name not in STUDY_NAMES:
        raise ValueError(f"unknown report {name!r}; accepted: {', '.join(STUDY_NAMES)}")
    if name == "cuatrola-bidding":
        from ..cuatrola.bidding_study import report_settings

        return report_settings(n=n, seed=seed, policies=policies, rules=rules,
                               confidence=confidence, threads=threads, players=players or "2,4",
                               chicas=chicas, mesas=mesas)  # fmt: skip
    import numba

    from ..cuarenta.policies import resolve_policies
    from ..stats import z_value

    parts = [p.strip() for p in (players or "2,4").split(",")]
    if any(p not in ("2", "4") for p in parts) or len(set(parts)) != len(parts):
        raise ValueError(f"--players must be 2, 4 or 2,4 (R2.1), got {players!r}")
    counts = tuple(int(p) for p in parts)
    if name == "strategies":
        from ..cuarenta.strategies import DEFAULT_POLICIES, TournamentSettings, check_tournament

        if chicas is not None:
            raise ValueError("--chicas does not apply to strategies; --n is the chicas per pair")
        seats = DEFAULT_POLICIES if policies is None else tuple(split_policy_list(policies))
        for count in counts:
            check_tournament(TournamentSettings(policies=seats, players=count, chicas=n or 2,
                                                mesas=mesas or 0))  # fmt: skip
    else:
        seats = tuple(split_policy_list(policies or "greedy"))
        for count in counts:
            resolve_policies(seats, count)
    if rules is not None and name == "quito-vs-cuenca":
        raise ValueError(
            "--rules does not apply to quito-vs-cuenca (it compares quito and cuenca); use it "
            "with odds or sensitivity"
        )
    if threads is not None and not 1 <= threads <= numba.config.NUMBA_NUM_THREADS:
        raise ValueError(
            f"--threads must be a whole number from 1 to {numba.config.NUMBA_NUM_THREADS} "
            f"(NUMBA_NUM_THREADS), got {threads}"
        )
    z_value(confidence)
    return StudySettings(
        n=DEFAULT_N[name] if n is None else n,
        seed=seed,
        players=counts,
        policies=seats,
        chicas=chicas,
        mesas=mesas,
        rules=resolve_rules(rules or "quito").slug(),
        confidence=confidence,
        threads=threads,
    )


def _write_study(name: str, settings: StudySettings, out: Path, progress: bool) -> None:
    """Run study ``name`` and write ``out / name``; print its summary and reproduce line."""
    from ..studies import run_study

    directory = out / name
    say, close = step_progress(None, "steps", progress, f"report {name}")
    t0 = time.perf_counter()
    try:
        built = run_study(name, settings, progress=say)
    finally:
        close()
    written = built.write(directory)
    elapsed = time.perf_counter() - t0
    typer.echo(built.summary)
    figures = [p for p in written if p.suffix == ".png"]
    typer.echo(
        f"\nwrote {directory / 'report.md'}, {directory / 'provenance.json'} and "
        f"{len(figures)} figure(s) in {directory / 'figures'} ({elapsed:.1f} s)"
    )
    # The study's own command leaves out where the report goes; pasting the printed line must
    # write to the same place, not over reports/.
    typer.echo(f"reproduce: {settings.command(name)} {shlex.join(['--out', str(out)])}")


COMMANDS = [
    (
        "report",
        report,
        "Generate a report into OUT/NAME/: report.md, figures/*.png and provenance.json, "
        "regenerated from scratch; prints its summary table. Cuarenta: quito-vs-cuenca, odds, "
        "sensitivity, strategies; Cuatrola (--game cuatrola): cuatrola-bidding.",
    )
]
