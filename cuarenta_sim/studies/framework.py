"""The report framework: study settings, generated reports, the registry of studies.

Each study (registered in :func:`run_study`; builders in the game subpackages,
:mod:`cuarenta_sim.cuarenta.studies`, :mod:`cuarenta_sim.cuarenta.strategies`,
:mod:`cuarenta_sim.cuatrola.bidding_study`) simulates, estimates, draws its figures and
returns a :class:`GeneratedReport` whose :meth:`GeneratedReport.write` puts ``report.md``,
``figures/*.png`` and ``provenance.json`` into ``reports/<name>/`` (every file written
atomically; the directory is regenerated, never hand-edited).
``cuarenta-sim report NAME`` runs them.

========================  ==========================================================
name                      what
========================  ==========================================================
``quito-vs-cuenca``       paired comparison of the two scorings (R7.2), 2 and 4 players
``odds``                  exact dealing odds vs simulated; caida rate and caida risk
``sensitivity``           every switch flipped alone from a base preset (tornado charts)
``strategies``            duplicate tournament of the policies; folk tactics as A/B
                          switches of the heuristic (:mod:`cuarenta_sim.cuarenta.strategies`)
``cuatrola-bidding``      Cuatrola: P(make) and EV of each bid by hand class, bidding
                          table, derived thresholds, value of being mano
                          (:mod:`cuarenta_sim.cuatrola.bidding_study`)
========================  ==========================================================

Interval methods (named in every table): ``wilson`` (proportions), ``normal`` (means of
independent datas or games), ``ratio`` (ratio of sums over datas, delta method), ``paired``
(mean of per-unit differences under common random numbers), ``paired ratio`` and ``paired
log-ratio`` (delta method on paired units); see :mod:`cuarenta_sim.stats`.
"""

from __future__ import annotations

import datetime
import importlib.metadata
import shlex
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from .io import atomic_path
from .reports import (
    Report,
    estimate_decimals,
    format_number,
)

#: Names of the studies, as the command line spells them.
STUDY_NAMES = ("quito-vs-cuenca", "odds", "sensitivity", "strategies", "cuatrola-bidding")
#: Default datas per rule set and player count (level data) of each study.
#: For ``strategies``, ``n`` is the chicas per pair of policies and per tactic experiment; for
#: ``cuatrola-bidding`` the hands per bid.
DEFAULT_N = {
    "quito-vs-cuenca": 1_000_000,
    "odds": 1_000_000,
    "sensitivity": 500_000,
    "strategies": 20_000,
    "cuatrola-bidding": 250_000,
}
#: Chicas and mesas per rule set default to ``n // CHICA_DIVISOR`` and ``n // MESA_DIVISOR``.
CHICA_DIVISOR = 4
MESA_DIVISOR = 10
FIGURES_DIR = "figures"
METHODS_NOTE = (
    "Interval methods: `wilson` = Wilson score interval of a proportion; `normal` = mean of "
    "independent datas or games +- z s/sqrt(n); `ratio` = ratio of sums over independent "
    "datas with a delta-method (cluster-robust) error; `paired` = mean of the per-unit "
    "differences between two rule sets that played the same decks (common random numbers); "
    "`paired ratio` = difference of two ratios of sums, delta method on the paired units; "
    "`paired log-ratio` = relative difference, delta method on the log scale. A difference is "
    "*resolved* when its interval excludes 0 (its half-width is smaller than the effect), "
    "*identical* when every pair is equal (difference exactly 0), otherwise *not resolved*."
)

Progress = Callable[[str], None]


# --------------------------------------------------------------------------- settings
@dataclass(frozen=True)
class StudySettings:
    """Inputs of a study; everything that changes its numbers.

    Attributes
    ----------
    n : int
        Datas per rule set and player count at level data (> 0).
    seed : int
        Seed of every simulation (common random numbers across rule sets).
    players : tuple of int
        Player counts, each 2 or 4 (R2.1).
    policies : tuple of str
        Policy names (one, per side or per seat), as for :func:`cuarenta_sim.simulate`.
    chicas, mesas : int or None
        Chicas and mesas per rule set and player count; default ``n // 4`` and ``n // 10``
        (at least 1).
    rules : str
        Rules of the odds study's caida rates, or the base of the sensitivity study (preset
        or slug); unused by quito-vs-cuenca.
    confidence : float
        Two-sided confidence level of every interval.
    threads : int or None
        numba threads (never changes the numbers).
    """

    n: int
    seed: int = 0
    players: tuple[int, ...] = (2, 4)
    policies: tuple[str, ...] = ("greedy",)
    chicas: int | None = None
    mesas: int | None = None
    rules: str = "quito"
    confidence: float = 0.95
    threads: int | None = None

    def __post_init__(self) -> None:
        if isinstance(self.n, bool) or not isinstance(self.n, int) or self.n <= 0:
            raise ValueError(f"--n must be a positive whole number of datas, got {self.n!r}")
        if self.seed < 0:
            raise ValueError(f"--seed must be a non-negative integer, got {self.seed}")
        if not self.players or any(p not in (2, 4) for p in self.players):
            raise ValueError(f"--players must be 2, 4 or 2,4 (R2.1), got {self.players!r}")
        if len(set(self.players)) != len(self.players):
            raise ValueError(f"--players lists a player count twice: {self.players!r}")
        for name in ("chicas", "mesas"):
            v = getattr(self, name)
            if v is not None and (isinstance(v, bool) or not isinstance(v, int) or v <= 0):
                raise ValueError(f"--{name} must be a positive whole number, got {v!r}")

    @property
    def n_chicas(self) -> int:
        """Chicas per rule set and player count: :attr:`chicas`, or ``n // 4`` (at least 1)."""
        return self.chicas if self.chicas is not None else max(1, self.n // CHICA_DIVISOR)

    @property
    def n_mesas(self) -> int:
        """Mesas per rule set and player count: :attr:`mesas`, or ``n // 10`` (at least 1)."""
        return self.mesas if self.mesas is not None else max(1, self.n // MESA_DIVISOR)

    def command(self, name: str) -> str:
        """The ``cuarenta-sim report`` command line that reproduces a study's numbers.

        Parameters
        ----------
        name : str
            Study name (:data:`STUDY_NAMES`).

        Returns
        -------
        str
            A shell-quoted command; thread count is left out (it never changes the numbers).
        """
        if name == "cuatrola-bidding":
            args = ["cuarenta-sim", "report", name, "--n", str(self.n), "--seed",
                    str(self.seed), "--policies", ",".join(self.policies), "--rules", self.rules]
            if self.confidence != 0.95:
                args += ["--confidence", f"{self.confidence:g}"]
            return shlex.join(args)
        args = ["cuarenta-sim", "report", name, "--n", str(self.n), "--seed", str(self.seed),
                "--players", ",".join(str(p) for p in self.players),
                "--policies", ",".join(self.policies)]
        if name == "strategies":
            if self.mesas is not None:
                args += ["--mesas", str(self.mesas)]
        elif name != "odds":
            args += ["--chicas", str(self.n_chicas), "--mesas", str(self.n_mesas)]
        if name != "quito-vs-cuenca":
            args += ["--rules", self.rules]
        if self.confidence != 0.95:
            args += ["--confidence", f"{self.confidence:g}"]
        return shlex.join(args)


# --------------------------------------------------------------------------- output
@dataclass
class GeneratedReport:
    """A study's report, figures and console summary, ready to write.

    Attributes
    ----------
    name : str
        Study name (directory name under ``reports/``).
    report : Report
        Markdown sections, provenance and reproduce command
        (:class:`cuarenta_sim.reports.Report`).
    figures : dict of str to Figure
        File stem -> figure, saved as ``figures/<stem>.png``.
    summary : str
        Plain-text summary table printed by the command line.
    tables : dict of str to DataFrame
        The tidy frames behind the report (for notebooks and tests).
    """

    name: str
    report: Report
    figures: dict[str, Figure] = field(default_factory=dict)
    summary: str = ""
    tables: dict[str, pd.DataFrame] = field(default_factory=dict)

    def write(self, directory: str | Path) -> list[Path]:
        """Write ``figures/*.png``, ``provenance.json`` and ``report.md`` into ``directory``.

        Each file is written atomically (:mod:`cuarenta_sim.io`); PNG files in ``figures/``
        that this report did not produce are removed, so the directory is exactly the
        regenerated report.

        Parameters
        ----------
        directory : str or Path
            Created if missing.

        Returns
        -------
        list of Path
            The files written, figures first.

        Raises
        ------
        OSError
            If a file cannot be written (no partial file is left).
        """
        out = Path(directory)
        fig_dir = out / FIGURES_DIR
        written = []
        for stem, fig in self.figures.items():
            path = fig_dir / f"{stem}.png"
            with atomic_path(path) as tmp:
                fig.savefig(tmp, format="png", dpi=110, bbox_inches="tight",
                            metadata={"Software": None})
            written.append(path)
        if fig_dir.is_dir():
            for stale in fig_dir.glob("*.png"):
                if stale.stem not in self.figures:
                    stale.unlink()
        written.extend(self.report.write(out))
        return written


def run_study(name: str, settings: StudySettings, progress: Progress | None = None
              ) -> GeneratedReport:
    """Run the study ``name`` (one of :data:`STUDY_NAMES`) with ``settings``.

    Parameters
    ----------
    name : str
        One of :data:`STUDY_NAMES`.
    settings : StudySettings
        Sizes, seed, players, policies, rules, confidence, threads.
    progress : callable, optional
        Receives one-line progress messages.

    Returns
    -------
    GeneratedReport

    Raises
    ------
    ValueError
        Unknown study name, or bad settings / rules.
    """
    from .cuarenta.strategies import strategies_study
    from .cuarenta.studies import odds_study, quito_vs_cuenca, sensitivity_study
    from .cuatrola.bidding_study import cuatrola_bidding_study

    builders = {"quito-vs-cuenca": quito_vs_cuenca, "odds": odds_study,
                "sensitivity": sensitivity_study, "strategies": strategies_study,
                "cuatrola-bidding": cuatrola_bidding_study}
    if name not in builders:
        raise ValueError(f"unknown report {name!r}; accepted: {', '.join(STUDY_NAMES)}")
    return builders[name](settings, progress)


# --------------------------------------------------------------------------- formatting
def cell(est: float, lo: float, hi: float, defined: bool = True, *, percent: bool = False,
         suffix: str | None = None) -> str:
    """``"estimate [lower, upper]"`` with the decimals the interval warrants.

    Parameters
    ----------
    est, lo, hi : float
        Estimate and bounds.
    defined : bool
        False prints the estimate with ``"(no interval)"``.
    percent : bool
        Multiply by 100 and append ``suffix`` (default ``"%"``).
    suffix : str, optional
        Unit after the estimate, e.g. ``" pp"`` (percentage points) for a difference of
        percentages.

    Returns
    -------
    str
    """
    k, sfx = (100.0, "%") if percent else (1.0, "")
    if suffix is not None:
        sfx = suffix
    if not np.isfinite(est):
        return "n/a"
    if not defined or not (np.isfinite(lo) and np.isfinite(hi)):
        return f"{format_number(est * k, 4)}{sfx} (no interval)"
    dec = estimate_decimals(lo * k, hi * k)
    if lo == hi == est:
        dec = 0 if est == 0 else dec
    return (f"{format_number(est * k, dec)}{sfx} [{format_number(lo * k, dec)}, "
            f"{format_number(hi * k, dec)}]")


def _row_cell(row: Mapping[str, Any], *, percent: bool = False) -> str:
    return cell(row["estimate"], row["lower"], row["upper"], bool(row["defined"]),
                percent=percent)


def _diff_cell(row: Mapping[str, Any], *, percent: bool = False) -> str:
    """A difference; of percentages in percentage points (pp)."""
    return cell(row["estimate"], row["lower"], row["upper"], bool(row["defined"]),
                percent=percent, suffix=" pp" if percent else None)


def _rel_cell(row: Mapping[str, Any]) -> str:
    if not np.isfinite(row["relative"]):
        return "n/a"
    if row["verdict"] == "identical":
        return "0%"
    ok = np.isfinite(row["relative_lower"]) and np.isfinite(row["relative_upper"])
    return cell(row["relative"], row["relative_lower"], row["relative_upper"], ok, percent=True)


def _versions() -> dict[str, Any]:
    import numba

    import cuarenta_sim

    return {
        "package_version": cuarenta_sim.__version__,
        "engine_version": cuarenta_sim.ENGINE_VERSION,
        "numba": numba.__version__,
        "numpy": np.__version__,
        "pandas": pd.__version__,
        "matplotlib": importlib.metadata.version("matplotlib"),
    }


def _provenance(name: str, settings: StudySettings, runs: list[dict[str, Any]],
                wall: float, **extra: Any) -> dict[str, Any]:
    keep = ("rules", "players", "policies", "level", "n", "datas", "seed", "root",
            "wall_time_s")
    return {
        "report": name,
        **_versions(),
        "seed": settings.seed,
        "n_datas": settings.n,
        "n_chicas": settings.n_chicas,
        "n_mesas": settings.n_mesas,
        "players": list(settings.players),
        "policies": list(settings.policies),
        "confidence": settings.confidence,
        **extra,
        "wall_time_s": round(wall, 2),
        "created": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
        "runs": [{k: r[k] for k in keep if k in r} for r in runs],
    }


def _new_figure(rows: int = 1, cols: int = 1, size: tuple[float, float] = (7.0, 4.5)
                ) -> tuple[Figure, np.ndarray]:
    fig = Figure(figsize=(size[0] * cols, size[1] * rows), layout="constrained")
    axes = fig.subplots(rows, cols, squeeze=False)
    return fig, axes


def _say(progress: Progress | None, message: str) -> None:
    if progress is not None:
        progress(message)
