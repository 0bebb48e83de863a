"""The report framework: study settings, generated reports, cell formatting, provenance.

A study (registered in :mod:`cuarenta_sim.studies.registry` by its game's package) simulates,
estimates, draws its figures and returns a :class:`GeneratedReport` whose
:meth:`GeneratedReport.write` puts ``report.md``, ``figures/*.png``, ``provenance.json`` and
``claims.json`` into ``reports/<name>/`` (every file written atomically; the directory is
regenerated, never hand-edited). The sentences of a report come from its Jinja2 template
(:mod:`cuarenta_sim.studies.templates`); its answer sentences are claims
(:mod:`cuarenta_sim.studies.claims`) checked before anything is written; the helpers here
format the numbers in them.

Interval methods (named in every table): ``wilson`` (proportions), ``normal`` (means of
independent datas or games), ``ratio`` (ratio of sums over datas, delta method), ``paired``
(mean of per-unit differences under common random numbers), ``paired ratio`` and ``paired
log-ratio`` (delta method on paired units); see :mod:`cuarenta_sim.stats`.
"""

from __future__ import annotations

import datetime
import importlib.metadata
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from ..io import atomic_path
from ..limits import MAX_RUN, is_whole, whole_number
from ..reports import MAX_DECIMALS, Report, estimate_decimals, format_number
from .claims import Claim, ClaimError, check_claims, table_rows, write_claims

#: Chicas and mesas per rule set default to ``n // CHICA_DIVISOR`` and ``n // MESA_DIVISOR``.
CHICA_DIVISOR = 4
MESA_DIVISOR = 10
FIGURES_DIR = "figures"
#: The claims behind a report's sentences, next to ``report.md``.
CLAIMS_FILE = "claims.json"
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
    models : tuple of str
        A player panel (``--policies 'greedy;heuristic;learned'``): each model's policy list
        as typed (comma-separated specs: one for every seat, per side or per seat), the
        headline model first; empty: one model, :attr:`policies`. Every model plays the same
        decks (same seed).
    confirm : str or None
        Policy list of a smaller confirmatory run beside the panel (``--confirm``); None: none.
    confirm_n : int or None
        Datas of the confirmatory run (level data; its chicas and mesas scale like the
        panel's, ``confirm_n // 4`` and ``confirm_n // 10``).
    model_n : tuple of int
        Datas of each model of :attr:`models` (the headline's is :attr:`n`); empty: every
        model plays :attr:`n`.
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
    models: tuple[str, ...] = ()
    confirm: str | None = None
    confirm_n: int | None = None
    model_n: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        if not is_whole(self.n) or not 1 <= self.n <= MAX_RUN:
            raise ValueError(
                f"--n must be a positive whole number of datas up to {MAX_RUN:,}, got {self.n!r}"
            )
        whole_number(self.seed, "--seed", 0)
        if not self.players or any(p not in (2, 4) for p in self.players):
            raise ValueError(f"--players must be 2, 4 or 2,4 (R2.1), got {self.players!r}")
        if len(set(self.players)) != len(self.players):
            raise ValueError(f"--players lists a player count twice: {self.players!r}")
        for name in ("chicas", "mesas", "confirm_n"):
            v = getattr(self, name)
            if v is not None:
                whole_number(v, f"--{name.replace('_', '-')}", 1, MAX_RUN)
        if self.model_n and len(self.model_n) != len(self.models):
            raise ValueError(
                f"model_n gives {len(self.model_n)} sizes for {len(self.models)} model(s)"
            )

    @property
    def n_chicas(self) -> int:
        """Chicas per rule set and player count: :attr:`chicas`, or ``n // 4`` (at least 1)."""
        return self.chicas if self.chicas is not None else max(1, self.n // CHICA_DIVISOR)

    @property
    def n_mesas(self) -> int:
        """Mesas per rule set and player count: :attr:`mesas`, or ``n // 10`` (at least 1)."""
        return self.mesas if self.mesas is not None else max(1, self.n // MESA_DIVISOR)


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
    claims : list of Claim
        The report's answer sentences as claims (:mod:`cuarenta_sim.studies.claims`), checked
        by :func:`~cuarenta_sim.studies.claims.check_claims` when the report is built
        (:func:`cuarenta_sim.studies.run_study`) and again when written; written to
        ``claims.json`` so that a reader can trace each sentence to its evidence rows.
    claim_tables : dict of str to tuple of str
        Tables of :attr:`tables` that claims' evidence rows are looked up in, with the key
        columns whose values, joined by ``"|"``, are a row's id (``{"differences": ("metric",
        "players", "model")}``); evidence of these tables must be found there with the same
        values. Evidence of other tables (derived counts) is not looked up.
    """

    name: str
    report: Report
    figures: dict[str, Figure] = field(default_factory=dict)
    summary: str = ""
    tables: dict[str, pd.DataFrame] = field(default_factory=dict)
    claims: list[Claim] = field(default_factory=list)
    claim_tables: dict[str, tuple[str, ...]] = field(default_factory=dict)

    def check(self) -> None:
        """Run :func:`~cuarenta_sim.studies.claims.check_claims` on :attr:`claims`.

        Raises
        ------
        ClaimError
            Listing every sentence whose words outrun its evidence; also when the report has
            no claims (every report's answers are claims).
        """
        if not self.claims:
            raise ClaimError([(self.name, "evidence", "the report states no claims")])
        tables = {
            name: table_rows(self.tables[name], keys) for name, keys in self.claim_tables.items()
        }
        check_claims(self.claims, tables=tables or None)

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
            The files written, figures first, ``claims.json`` last.

        Raises
        ------
        ClaimError
            If the claims fail :meth:`check` (nothing is written).
        OSError
            If a file cannot be written (no partial file is left).
        """
        self.check()
        out = Path(directory)
        fig_dir = out / FIGURES_DIR
        written = []
        for stem, fig in self.figures.items():
            path = fig_dir / f"{stem}.png"
            with atomic_path(path) as tmp:
                fig.savefig(
                    tmp, format="png", dpi=110, bbox_inches="tight", metadata={"Software": None}
                )
            written.append(path)
        if fig_dir.is_dir():
            for stale in fig_dir.glob("*.png"):
                if stale.stem not in self.figures:
                    stale.unlink()
        written.extend(self.report.write(out))
        written.append(write_claims(self.claims, out / CLAIMS_FILE))
        return written


# --------------------------------------------------------------------------- formatting
def cell(
    est: float,
    lo: float,
    hi: float,
    defined: bool = True,
    *,
    percent: bool = False,
    suffix: str | None = None,
) -> str:
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
    dec = excluding_decimals(lo * k, hi * k, dec)
    dec = nonzero_bound_decimals(lo * k, hi * k, dec)
    return (
        f"{format_number(est * k, dec)}{sfx} [{format_number(lo * k, dec)}, "
        f"{format_number(hi * k, dec)}]"
    )


def excluding_decimals(lo: float, hi: float, dec: int) -> int:
    """Decimals that keep an interval excluding 0 from printing a bound of 0.

    A resolved difference is one whose interval excludes 0 (issue 18); printed with the
    decimals of its half-width alone, a bound close to 0 can round to ``0.00`` or ``-0.00``
    (``[0.00, 0.41]`` beside "resolved"). This adds decimals (significant digits of the bound
    nearest 0) until that bound prints non-zero, up to :data:`cuarenta_sim.reports.MAX_DECIMALS`.

    Parameters
    ----------
    lo, hi : float
        Bounds, in the printed units (already scaled to percent where printed so).
    dec : int
        Decimals chosen from the half-width (:func:`cuarenta_sim.reports.estimate_decimals`).

    Returns
    -------
    int
        ``dec`` when the interval contains 0 (or a bound is not finite), else the smallest
        ``d >= dec`` (at most ``MAX_DECIMALS``) at which neither bound prints as zero.
    """
    if not (np.isfinite(lo) and np.isfinite(hi)) or lo <= 0.0 <= hi:
        return dec
    near = min(abs(lo), abs(hi))
    while dec < MAX_DECIMALS and float(format_number(near, dec)) == 0.0:
        dec += 1
    return dec


#: Most decimals :func:`nonzero_bound_decimals` adds to show a bound's sign.
SIGN_DECIMALS = 2


def nonzero_bound_decimals(lo: float, hi: float, dec: int) -> int:
    """Decimals that keep a non-zero bound from printing as ``0.0`` or ``-0.0``.

    An interval containing 0 whose bound lies just below (or above) it prints as
    ``[-0.0, 2.4]``, which hides the bound's sign; this adds decimals, at most
    :data:`SIGN_DECIMALS`, until every non-zero bound prints non-zero (``[-0.04, 2.43]``).

    Parameters
    ----------
    lo, hi : float
        Bounds, in the printed units.
    dec : int
        Decimals chosen so far.

    Returns
    -------
    int
        ``dec``, or up to ``dec + SIGN_DECIMALS`` (and at most ``MAX_DECIMALS``).
    """
    top = min(dec + SIGN_DECIMALS, MAX_DECIMALS)
    for b in (lo, hi):
        if not np.isfinite(b) or b == 0.0:
            continue
        while dec < top and float(format_number(b, dec)) == 0.0:
            dec += 1
    return dec


def prints_zero_bound(text: str) -> bool:
    """Whether an ``"estimate [lower, upper]"`` cell prints a bound that reads as zero.

    Parameters
    ----------
    text : str
        A printed cell (:func:`cell`), units and suffixes allowed (``"0.4 pp [0.0, 0.8]"``).

    Returns
    -------
    bool
        True when the bracketed interval has a bound such as ``0``, ``0.00`` or ``-0.00``;
        False when the cell has no interval.
    """
    found = re.search(r"\[\s*([-+]?[0-9.,]+)[^,\]]*,\s*([-+]?[0-9.,]+)[^\]]*\]", text)
    if found is None:
        return False
    return any(float(b.replace(",", "")) == 0.0 for b in found.groups())


def row_cell(row: Mapping[str, Any], *, percent: bool = False) -> str:
    """:func:`cell` of an estimate row (``estimate``, ``lower``, ``upper``, ``defined``).

    Parameters
    ----------
    row : mapping
        A row of an estimate frame (:data:`cuarenta_sim.stats.ESTIMATE_COLUMNS`).
    percent : bool
        Print as a percentage.

    Returns
    -------
    str
    """
    return cell(row["estimate"], row["lower"], row["upper"], bool(row["defined"]), percent=percent)


def diff_cell(row: Mapping[str, Any], *, percent: bool = False) -> str:
    """:func:`cell` of a difference row; a difference of percentages in points (``" pp"``).

    Parameters
    ----------
    row : mapping
        A row of a differences frame (``estimate``, ``lower``, ``upper``, ``defined``).
    percent : bool
        The compared quantities are percentages.

    Returns
    -------
    str
    """
    return cell(
        row["estimate"],
        row["lower"],
        row["upper"],
        bool(row["defined"]),
        percent=percent,
        suffix=" pp" if percent else None,
    )


def rel_cell(row: Mapping[str, Any]) -> str:
    """The relative difference of a differences row as a percentage with its interval.

    Parameters
    ----------
    row : mapping
        Columns ``relative``, ``relative_lower``, ``relative_upper``, ``verdict``.

    Returns
    -------
    str
        ``"n/a"`` when undefined, ``"0%"`` when the pairs are identical.
    """
    if not np.isfinite(row["relative"]):
        return "n/a"
    if row["verdict"] == "identical":
        return "0%"
    ok = np.isfinite(row["relative_lower"]) and np.isfinite(row["relative_upper"])
    return cell(row["relative"], row["relative_lower"], row["relative_upper"], ok, percent=True)


def _versions() -> dict[str, Any]:
    import numba

    from ..game import DEFAULT_GAME, get_game
    from ..version import __version__

    return {
        "package_version": __version__,
        "engine_version": get_game(DEFAULT_GAME).engine_version,
        "numba": numba.__version__,
        "numpy": np.__version__,
        "pandas": pd.__version__,
        "matplotlib": importlib.metadata.version("matplotlib"),
    }


#: Provenance size keys and the run level each counts.
SIZE_LEVELS = (("n_datas", "data"), ("n_chicas", "chica"), ("n_mesas", "mesa"))
#: The value of a size key whose level no run played.
NOT_PLAYED = "not played"


def played_sizes(settings: StudySettings, runs: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """The ``n_datas`` / ``n_chicas`` / ``n_mesas`` of a provenance: only what was played.

    Parameters
    ----------
    settings : StudySettings
        The run's settings (the configured sizes ``n``, ``n_chicas``, ``n_mesas``).
    runs : sequence of mapping
        Each simulation's provenance (``level``, ``n``).

    Returns
    -------
    dict
        Per key: the configured size when a run of that level played it; else the sizes the
        runs of that level played (an int, or a sorted list when several); else
        :data:`NOT_PLAYED`. When no run names its level the configured sizes are returned
        unchanged (nothing says what was played).
    """
    configured = {"n_datas": settings.n, "n_chicas": settings.n_chicas, "n_mesas": settings.n_mesas}
    if not any("level" in r for r in runs):
        return configured
    out: dict[str, Any] = {}
    for key, level in SIZE_LEVELS:
        sizes = sorted({int(r["n"]) for r in runs if r.get("level") == level and "n" in r})
        if not sizes:
            out[key] = NOT_PLAYED
        elif configured[key] in sizes:
            out[key] = configured[key]
        else:
            out[key] = sizes[0] if len(sizes) == 1 else sizes
    return out


def provenance(
    name: str,
    settings: StudySettings,
    runs: list[dict[str, Any]],
    wall: float,
    *,
    levels: Sequence[str] = ("data", "chica", "mesa"),
    **extra: Any,
) -> dict[str, Any]:
    """The ``provenance.json`` record of a study run.

    Parameters
    ----------
    name : str
        Study name.
    settings : StudySettings
        The run's settings.
    runs : list of dict
        Provenance of each simulation (only the reproducibility keys are kept).
    wall : float
        Wall time of the study, seconds.
    levels : sequence of str
        The levels the study played (``"data"``, ``"chica"``, ``"mesa"``): only their sizes
        are recorded (``n_datas``, ``n_chicas``, ``n_mesas``), so a study that plays only
        datas lists no chica or mesa size it never played.
    **extra
        Study-specific entries (rules, flips...).

    Returns
    -------
    dict
        JSON-serialisable.
    """
    keep = ("rules", "players", "policies", "level", "n", "datas", "seed", "root", "wall_time_s")
    return {
        "report": name,
        **_versions(),
        "seed": settings.seed,
        **{
            key: size
            for key, size in played_sizes(settings, runs).items()
            if dict(SIZE_LEVELS)[key] in levels
        },
        "players": list(settings.players),
        "policies": list(settings.policies),
        "confidence": settings.confidence,
        **extra,
        "wall_time_s": round(wall, 2),
        "created": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
        "runs": [{k: r[k] for k in keep if k in r} for r in runs],
    }


def new_figure(
    rows: int = 1, cols: int = 1, size: tuple[float, float] = (7.0, 4.5)
) -> tuple[Figure, np.ndarray]:
    """A constrained-layout figure (not registered with pyplot) and its axes grid.

    Parameters
    ----------
    rows, cols : int
        Grid of axes.
    size : (float, float)
        Inches per axes (width, height).

    Returns
    -------
    (Figure, ndarray of Axes, shape (rows, cols))
    """
    fig = Figure(figsize=(size[0] * cols, size[1] * rows), layout="constrained")
    axes = fig.subplots(rows, cols, squeeze=False)
    return fig, axes


def say(progress: Progress | None, message: str) -> None:
    """Pass ``message`` to ``progress`` when one is given.

    Parameters
    ----------
    progress : callable or None
        Receives one-line progress messages.
    message : str
    """
    if progress is not None:
        progress(message)
