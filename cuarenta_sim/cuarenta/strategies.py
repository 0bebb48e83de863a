"""The strategies study: a duplicate tournament of the policies and the folk-tactic experiments.

``cuarenta-sim report strategies`` runs :func:`strategies_study` (registered at import in
:data:`cuarenta_sim.studies.STUDIES`; prose from ``templates/strategies.md.j2``) and writes
``reports/strategies/`` (report.md, figures/*.png, provenance.json). Two questions:

* **How much does skill matter, and which player is best?** A round-robin duplicate
  tournament (:mod:`cuarenta_sim.tournament`) of ``random``, ``greedy``, ``heuristic``,
  ``learned``, ``pimc`` and ``solver``: the head-to-head matrix (chica win rate and points per
  data of every pair, with intervals, duplicate pairs, discordant pairs and Holm-adjusted
  verdicts) is the primary result; Bradley-Terry ratings come only with their goodness of fit
  and a warning when they misfit. Pairs with a search policy (:data:`SEARCH_POLICIES`) play
  ``n // SEARCH_DIVISOR`` chicas (:func:`search_pair_sizes`) so that the default report runs
  in minutes; the ratings' bootstrap resamples shared deals together across matches of any
  size (:func:`cuarenta_sim.tournament.bootstrap_draws`).
* **Do the folk tactics work?** Each tactic forced on the strongest fast player, ``learned``,
  with a dose-response sweep (:mod:`cuarenta_sim.cuarenta.tactics`), Holm over the family;
  and, labelled as tuned-heuristic results, each tactic as one switch of the ``heuristic``
  policy (:data:`TACTICS`, :func:`tactic_experiments`).
* **What does strength cost?** The sweep of ``python benchmarks/run.py policies-sweep``, shipped as
  package data,
  (pimc and solver at 4 to 128 samples against the heuristic), read with its provenance
  (:func:`cuarenta_sim.cuarenta.strength.load_sweep`), with decision speeds measured by the
  report itself (:func:`cuarenta_sim.cuarenta.strength.measure_speeds`).
"""

from __future__ import annotations

import itertools
import textwrap
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from matplotlib.figure import Figure
from matplotlib.ticker import FixedFormatter, FixedLocator, NullFormatter

from .. import plotting
from ..reports import CONSOLE_WIDTH, Report, markdown_table, text_table
from ..studies import (
    GeneratedReport,
    Study,
    StudySettings,
    get_study,
    register_study,
    templates,
)
from ..studies.claims import Claim, render_claim
from ..studies.convergence import convergence_note
from ..studies.framework import new_figure, provenance, say
from ..tournament import (
    TOURNAMENT_LEVELS,
    BradleyTerryFit,
    Progress,
    TournamentResult,
    TournamentSettings,
    head_to_head_matrix,
    match_summary,
    run_tournament,
)
from .duplicate import play_duplicate
from .policies import parse_policy
from .rules import resolve_rules
from .strategy_claims import ratings_without_claim, solver_check_claim, strategy_claims
from .strength import (
    INFLATED_HEADERS,
    SPEED_DATAS,
    SPEED_REPEATS,
    STRENGTH_HEADERS,
    inflated_rows,
    load_openspiel,
    load_sweep,
    measure_speeds,
    non_transitivity_claim,
    openspiel_sentence,
    ratings_check,
    strength_rows,
)
from .tactic_ablation import (
    ABLATION_HEADERS,
    CHECK_HEADERS,
    CHECK_PAIRS,
    ablation_rows,
    check_rows,
)
from .tactic_ablation import headline as ablation_headline
from .tactics import NO_PAIR_CHANGED

#: Replicate seeds (``seed + 1`` ...) of the convergence figure, each a quarter of the chicas.
REPLICATES = 2

#: Policies of the default tournament, weakest expected first.
DEFAULT_POLICIES = ("random", "greedy", "heuristic", "learned", "pimc", "solver")
#: Search policies: a pair with one of them plays ``n // SEARCH_DIVISOR`` chicas, no mesas.
SEARCH_POLICIES = ("pimc", "solver")
#: Divisor of the chicas of pairs with a search policy (20,000 -> 500 chicas, 250 duplicate
#: pairs), and of those pairs when the other policy is weak (:data:`WEAK_POLICIES`: 100
#: chicas, enough to show a gap of 80 percentage points). Sized so that the default report
#: runs in under 10 minutes on 2 shared cores (measured: Methods of reports/strategies).
SEARCH_DIVISOR = 40
WEAK_SEARCH_DIVISOR = 200
#: Each folk-tactic row (tactic and dose) plays ``n // TACTIC_DIVISOR`` chicas (even).
TACTIC_DIVISOR = 2
#: Policies a search policy plays only :data:`WEAK_SEARCH_DIVISOR`-sized matches against.
WEAK_POLICIES = ("random", "greedy")
#: Default chicas per pair of policies (and per tactic experiment).
DEFAULT_CHICAS = 20_000
#: Mesas per pair default to ``chicas // MESA_DIVISOR``.
MESA_DIVISOR = 10


#: Weight (milli-points) a tactic gets in the "with" arm when the heuristic's default weight
#: for it is 0 (switched off by tuning): half a point, the size of the smaller tactic terms.
TACTIC_WEIGHT = 500


@dataclass(frozen=True)
class Tactic:
    """A folk tactic as an A/B switch of the ``heuristic`` policy.

    Attributes
    ----------
    name : str
        The heuristic's parameter (a weight in milli-points) that carries the tactic
        (:data:`cuarenta_sim.cuarenta.policies.HEURISTIC_PARAMS`).
    label : str
        Short description for tables.
    advice : str
        The tactic as players state it.
    """

    name: str
    label: str
    advice: str

    def weight(self) -> int:
        """Weight of the "with" arm: the heuristic's default for this parameter, or
        :data:`TACTIC_WEIGHT` when the default is 0.

        Raises
        ------
        ValueError
            If the heuristic has no parameter of this name.
        """
        from .policies import POLICIES

        defaults = {p.name: p.default for p in POLICIES["heuristic"].params}
        if self.name not in defaults:
            raise ValueError(
                f"the heuristic has no parameter {self.name!r}; accepted: {', '.join(defaults)}"
            )
        return defaults[self.name] or TACTIC_WEIGHT

    def specs(self, base: str = "heuristic") -> tuple[str, str]:
        """Policy specs ``(with the tactic, without it)``: ``base(name=weight)`` and
        ``base(name=0)``, every other parameter at its default."""
        return f"{base}({self.name}={self.weight()})", f"{base}({self.name}=0)"


#: The folk tactics tested, each a weight of the heuristic (cuarenta_sim.cuarenta.policies).
TACTICS: tuple[Tactic, ...] = (
    Tactic(
        "trail_pair",
        "trail one of a pair",
        "when trailing, trail a rank you hold two of: the opponent is less likely to hold "
        "the others, and you keep one to capture back",
    ),
    Tactic(
        "no_ace_trail",
        "do not trail an ace",
        "an ace on the table opens sums and runs to the opponent",
    ),
    Tactic(
        "no_run_start",
        "do not trail the start of a run",
        "a trailed card whose next ranks are on the table hands the opponent a run",
    ),
    Tactic(
        "keep_table",
        "keep the table from being emptied",
        "do not leave one or two cards the next player can clear for a limpia",
    ),
    Tactic(
        "hold_known",
        "hold a card the next player is known to hold",
        "never trail a rank the next player announced in a ronda: it is a sure caida",
    ),
)


def check_tournament(settings: TournamentSettings) -> None:
    """Validate a Cuarenta tournament before its first game.

    Raises
    ------
    ValueError
        Unknown rules; players other than 2 or 4 (R2.1); an unknown or malformed policy spec;
        bad threads; two specs that are the same policy with the same parameters (``heuristic`` and
        ``heuristic(cards=350)`` are one policy, compared by their canonical specs).
    """
    from ..simulation import check_simulation

    resolve_rules(settings.rules)
    text = ",".join(settings.policies)
    for spec in settings.policies:
        # The pipeline's own validation: rules, players (R2.1), the policy, threads.
        try:
            check_simulation(
                "cuarenta",
                rules=settings.rules,
                players=settings.players,
                policies=spec,
                n=1,
                threads=settings.threads,
            )
        except ValueError as err:
            raise ValueError(f"policies {text!r}: {err}") from err
    canonical = [parse_policy(spec).canonical for spec in settings.policies]
    if len(set(canonical)) != len(canonical):
        raise ValueError(
            f"policies {text!r}: give at least two different policies (compared with every "
            f"parameter at its value: {', '.join(canonical)})"
        )


def cuarenta_tournament(
    settings: TournamentSettings, progress: Progress | None = None
) -> TournamentResult:
    """Round-robin duplicate tournament of Cuarenta policies (:func:`.tournament.run_tournament`
    with :func:`play_duplicate`).

    Parameters
    ----------
    settings : TournamentSettings
        Policies, rules (preset or slug), players (2 or 4), chicas and mesas per pair, seed.
    progress : callable, optional
        One line per match.

    Returns
    -------
    TournamentResult

    Raises
    ------
    ValueError
        Unknown rules or policies (checked before the first game), or bad settings.
    """
    check_tournament(settings)

    def play(a: str, b: str, level: str, n: int) -> pd.DataFrame:
        return play_duplicate(
            a,
            b,
            rules=settings.rules,
            players=settings.players,
            level=level,
            n=n,
            seed=settings.seed,
            threads=settings.threads,
        )

    return run_tournament(settings, play, progress)


#: The tournament of this game (:func:`cuarenta_sim.tournament.game_tournament`).
tournament = cuarenta_tournament


def tournament_identity(settings: TournamentSettings) -> dict[str, object]:
    """Canonical names of a tournament's inputs for its provenance: ``policies`` (canonical
    specs, every parameter at its value) and ``rules`` (canonical slug)."""
    return {
        "policies": [parse_policy(spec).canonical for spec in settings.policies],
        "rules": resolve_rules(settings.rules).slug(),
    }


def tactic_experiments(
    *,
    rules: str = "quito",
    players: int = 2,
    chicas: int = DEFAULT_CHICAS,
    seed: int = 0,
    tactics: Sequence[Tactic] = TACTICS,
    base: str = "heuristic",
    confidence: float = 0.95,
    threads: int | None = None,
    progress: Progress | None = None,
) -> pd.DataFrame:
    """Measure every tactic as an A/B switch of ``base`` in duplicate chicas.

    Parameters
    ----------
    rules : str
        Preset or slug (section S).
    players : int
        2 or 4 (R2.1).
    chicas : int
        Chicas per tactic (even): ``chicas / 2`` duplicate pairs.
    seed : int
        Seed of every experiment (the same decks for every tactic).
    tactics : sequence of Tactic
        The switches to test.
    base : str
        Policy the switches are applied to.
    confidence : float
        Two-sided confidence level.
    threads : int or None
        numba threads (never changes the numbers).
    progress : callable, optional
        One line per experiment.

    Returns
    -------
    DataFrame
        One row per tactic: ``tactic``, ``label``, ``with``, ``without`` (policy specs),
        ``with_weight`` (the "with" arm's weight, milli-points), the
        :func:`cuarenta_sim.tournament.match_summary` columns of "with" against "without"
        (``win_rate``, ``lower``, ``upper`` clustered Wilson; ``points_per_data``,
        ``ppd_lower``, ``ppd_upper``), the McNemar columns of
        :func:`cuarenta_sim.cuarenta.tactics.pair_test` (``n_ab``, ``n_ba``, ``discordant``,
        ``p_value``, ``test``; ``effect``, ``effect_lower``, ``effect_upper``: win rate minus
        0.5, fraction of games, exact below 100 discordant pairs), and ``verdict`` with
        ``p_adjusted`` (Holm over the tactics, practical margin
        :data:`cuarenta_sim.cuarenta.tactics.PRACTICAL_MARGIN_PP`; ``"helps"``, ``"hurts"``,
        ``"no difference (k discordant pairs)"`` or ``"not resolved (k discordant pairs)"``).

    Raises
    ------
    ValueError
        Odd or non-positive ``chicas``, unknown rules, or a tactic the policy does not know.
    """
    from .tactics import family_verdicts, pair_test

    if isinstance(chicas, bool) or not isinstance(chicas, int) or chicas < 2 or chicas % 2:
        raise ValueError(f"chicas must be an even whole number >= 2, got {chicas!r}")
    rows = []
    for tactic in tactics:
        on, off = tactic.specs(base)
        t0 = time.perf_counter()
        pairs = play_duplicate(
            on,
            off,
            rules=rules,
            players=players,
            level="chica",
            n=chicas // 2,
            seed=seed,
            threads=threads,
        )
        summary = match_summary(pairs, confidence)
        summary.pop("verdict")
        rows.append(
            {
                "tactic": tactic.name,
                "label": tactic.label,
                "with": on,
                "without": off,
                "with_weight": tactic.weight(),
                **summary,
                **pair_test(pairs, confidence),
            }
        )
        if progress is not None:
            progress(
                f"tactic {tactic.label}: win rate {100 * summary['win_rate']:.2f}% "
                f"[{100 * summary['lower']:.2f}, {100 * summary['upper']:.2f}] "
                f"({time.perf_counter() - t0:.1f} s)"
            )
    return family_verdicts(pd.DataFrame(rows), confidence=confidence)


# --------------------------------------------------------------------------- tables
def _pct(est: float, lo: float, hi: float, decimals: int = 2) -> str:
    return f"{100 * est:.{decimals}f}% [{100 * lo:.{decimals}f}, {100 * hi:.{decimals}f}]"


def _num(est: float, lo: float, hi: float, decimals: int = 2) -> str:
    return f"{est:+.{decimals}f} [{lo:+.{decimals}f}, {hi:+.{decimals}f}]"


def short_name(spec: str) -> str:
    """A policy spec for narrow tables: the spec itself when it has no parameters or is short,
    else its name with an ellipsis (``heuristic(...)``)."""
    return spec if "(" not in spec or len(spec) <= 20 else spec.split("(")[0] + "(...)"


def pair_verdicts(matches: pd.DataFrame, confidence: float = 0.95) -> pd.DataFrame:
    """Holm-adjusted verdicts of a tournament's matches, each with the interval its test used.

    Parameters
    ----------
    matches : DataFrame
        :attr:`cuarenta_sim.tournament.TournamentResult.matches` plus, per row, the McNemar
        comparison of :func:`cuarenta_sim.cuarenta.tactics.pair_test` on the discordant pairs
        (``n_ab`` pairs ``a`` won twice, ``n_ba`` lost twice, ``discordant``, ``n``,
        ``p_value``, ``test``, ``effect`` / ``effect_lower`` / ``effect_upper``: win rate of
        ``a`` minus 50%, ``no_variation``).

    Returns
    -------
    DataFrame
        ``matches`` with ``p_adjusted`` (Holm over the rows of each level), ``test_level``
        (the two-sided level Holm tested the row at,
        :func:`cuarenta_sim.verdict_intervals.step_levels`), ``verdict_lower`` /
        ``verdict_upper`` (``a``'s win rate minus 50% at that level: exact, dual to
        McNemar's exact test, below 100 discordant pairs, else the score interval rescaled;
        it excludes 0 exactly when the row is resolved) and ``pair_verdict``: ``"a better"``
        / ``"b better"`` (resolved), ``"no difference"`` (that interval within
        +-``PRACTICAL_MARGIN_PP`` percentage points of 0), ``"not resolved"``. ``lower`` /
        ``upper`` stay the marginal clustered Wilson interval of the win rate.

    Raises
    ------
    KeyError
        ``matches`` without the McNemar columns.
    """
    from .tactics import family_verdicts

    fam = family_verdicts(matches.reset_index(drop=True), family="level", confidence=confidence)
    words = []
    for verdict in fam["verdict"]:
        if verdict == "helps":
            words.append("a better")
        elif verdict == "hurts":
            words.append("b better")
        elif verdict.startswith(("no difference", NO_PAIR_CHANGED)):
            words.append("no difference")
        else:
            words.append("not resolved")
    out = matches.copy()
    out["p_adjusted"] = fam["p_adjusted"].to_numpy()
    out["test_level"] = fam["test_level"].to_numpy()
    out["verdict_lower"] = fam["effect_lower_adj"].to_numpy()
    out["verdict_upper"] = fam["effect_upper_adj"].to_numpy()
    out["pair_verdict"] = words
    return out


def _with_discordant(result: TournamentResult) -> pd.DataFrame:
    """The tournament's matches with McNemar counts and Holm verdicts (:func:`pair_verdicts`)."""
    from .tactics import pair_test

    m = result.matches.copy()
    tests = [pair_test(result.pairs[(r["a"], r["b"], r["level"])]) for _, r in m.iterrows()]
    for key in ("discordant", "n_ab", "n_ba", "n", "p_value", "test", "effect", "effect_lower",
                "effect_upper", "no_variation"):  # fmt: skip
        m[key] = [t[key] for t in tests]
    return pair_verdicts(m, result.settings.confidence)


def matrix_rows(table: pd.DataFrame, value: str, fmt: Callable[[float], str]) -> list[list[str]]:
    """Rows of a head-to-head matrix (row policy against column policy; "-" on the diagonal
    and for pairs that did not play)."""
    matrix = head_to_head_matrix(table, value)
    return [
        [short_name(a)]
        + [
            "-" if a == b or not np.isfinite(matrix.loc[a, b]) else fmt(matrix.loc[a, b])
            for b in matrix.columns
        ]
        for a in matrix.index
    ]


def matrix_headers(table: pd.DataFrame, corner: str) -> list[str]:
    """Headers of :func:`matrix_rows`: the corner label, then the column policies."""
    return [corner] + [short_name(p) for p in dict.fromkeys(table["a"])]


def match_rows(matches: pd.DataFrame) -> list[list[str]]:
    """Rows of the pair table: ``a``, ``b``, duplicate pairs, ``a``'s win rate [marginal 95%
    clustered Wilson], points per data ``a - b`` [ratio], discordant pairs, ``a``'s win rate
    minus 50% with the interval at the level Holm tested the row (it excludes 0 exactly when
    the verdict is resolved), verdict (Holm, margin).

    Parameters
    ----------
    matches : DataFrame
        :func:`pair_verdicts` output (one level).
    """
    return [
        [
            short_name(r["a"]),
            short_name(r["b"]),
            f"{int(r['pairs']):,}",
            _pct(r["win_rate"], r["lower"], r["upper"], 1),
            _ppd(r),
            f"{int(r['discordant']):,}",
            _signed_pp(r["effect"], r["verdict_lower"], r["verdict_upper"]),
            r["pair_verdict"],
        ]
        for _, r in matches.iterrows()
    ]


MATCH_HEADERS = (
    "a",
    "b",
    "pairs",
    "a wins [95%, clustered Wilson]",
    "points/data a - b [95%]",
    "disc.",
    "a wins - 50%, pp [interval at the Holm level]",
    "verdict (Holm)",
)


#: Headers of :func:`match_text_rows` (the console table: within 100 columns).
MATCH_TEXT_HEADERS = (
    "a",
    "b",
    "pairs",
    "a wins [Holm level]",
    "points/data a - b",
    "disc.",
    "verdict",
)


def match_text_rows(matches: pd.DataFrame) -> list[list[str]]:
    """Console rows of the pair table: as :func:`match_rows`, with one win-rate column whose
    interval is the one the verdict used (at the level Holm tested the row, shifted to the
    win-rate scale), so the console fits 100 columns."""
    return [
        [
            short_name(r["a"]),
            short_name(r["b"]),
            f"{int(r['pairs']):,}",
            _pct(r["win_rate"], 0.5 + r["verdict_lower"], 0.5 + r["verdict_upper"], 1),
            _ppd(r),
            f"{int(r['discordant']):,}",
            r["pair_verdict"],
        ]
        for _, r in matches.iterrows()
    ]


def _signed_pp(est: float, lo: float, hi: float) -> str:
    """A win-rate difference (fraction) in signed percentage points with its interval."""
    return f"{100 * est:+.1f} [{100 * lo:+.1f}, {100 * hi:+.1f}]"


def rating_rows(rating: pd.DataFrame) -> list[list[str]]:
    """Table rows of :func:`cuarenta_sim.tournament.ratings` (rank, policy, Elo [interval],
    games)."""
    return [
        [
            str(i + 1),
            short_name(r["policy"]),
            f"{r['rating']:+.0f} [{r['lower']:+.0f}, {r['upper']:+.0f}]",
            f"{int(r['n']):,}",
        ]
        for i, r in rating.iterrows()
    ]


RATING_HEADERS = ("rank", "policy", "Elo (mean 0) [95% shared-deal bootstrap]", "games")


def fit_rows(fit: BradleyTerryFit) -> list[list[str]]:
    """Rows of the Bradley-Terry check: observed and predicted chica win rates per pair, the
    Pearson residual, and the Elo gap each implies."""
    return [
        [
            short_name(r["a"]),
            short_name(r["b"]),
            f"{100 * r['observed']:.1f}%",
            f"{100 * r['predicted']:.1f}%",
            f"{r['residual']:+.1f}",
            f"{r['observed_gap']:+.0f}",
            f"{r['elo_gap']:+.0f}",
        ]
        for _, r in fit.pairs.iterrows()
    ]


FIT_HEADERS = ("a", "b", "observed", "Bradley-Terry", "residual", "gap seen", "gap rated")


def _df(df: int) -> str:
    return f"{df} degree{'' if df == 1 else 's'} of freedom"


def _p(p: float) -> str:
    """A p-value for prose; one that underflows to 0 is reported as below the smallest
    double."""
    return "p < 1e-300" if p == 0.0 else f"p = {p:.2g}"


def fit_sentence(fit: BradleyTerryFit) -> str:
    """One sentence: the goodness of fit, and whether the ratings can be read."""
    if fit.df == 0:
        return (
            f"Bradley-Terry is saturated (0 degrees of freedom: deviance {fit.deviance:.1f}); "
            "the ratings restate the head-to-head table."
        )
    head = (
        f"Bradley-Terry goodness of fit: deviance {fit.deviance:,.1f} on {_df(fit.df)}, "
        f"dispersion {fit.dispersion:.2f}, {_p(fit.p_value)}"
    )
    if fit.misfit:
        return (
            head + ": the model misfits, a single rating per policy does not reproduce the "
            "head-to-head results; read the head-to-head table instead."
        )
    return head + ": no evidence of misfit; the ratings summarise the head-to-head table."


def tournament_text(result: TournamentResult) -> str:
    """Plain-text tables of a tournament for the terminal: the head-to-head matrix (chica win
    rate of the row against the column, %), every pair with its intervals, discordant pairs
    and verdict, then the Bradley-Terry check and ratings."""
    table = result.head_to_head
    m = _with_discordant(result)
    parts = [
        "chica win rate of the row against the column (%; pair intervals below at the Holm level)",
        text_table(
            matrix_headers(table, "row vs column"),
            matrix_rows(table, "win_rate", lambda v: f"{100 * v:.1f}"),
            right=tuple(range(1, 1 + len(set(table["a"])))),
        ),
    ]
    for level in TOURNAMENT_LEVELS:
        rows = m[m["level"] == level]
        if rows.empty:
            continue
        parts.append(f"{level}s, duplicate pairs")
        parts.append(text_table(MATCH_TEXT_HEADERS, match_text_rows(rows), right=(2, 5)))
    if result.fit is not None:
        warning = "WARNING: " if result.fit.misfit else ""
        parts.append(textwrap.fill(warning + fit_sentence(result.fit), CONSOLE_WIDTH))
    parts.append(text_table(RATING_HEADERS, rating_rows(result.ratings), right=(0, 3)))
    return "\n\n".join(parts)


def _tactic_effect(
    r: pd.Series, lower: str = "effect_lower_adj", upper: str = "effect_upper_adj"
) -> str:
    """Effect [interval] in percentage points; by default the interval at the level Holm
    tested the row (:func:`cuarenta_sim.cuarenta.tactics.family_verdicts`), which excludes 0
    exactly when the row is resolved."""
    return _num(100 * r["effect"], 100 * r[lower], 100 * r[upper])


def _ppd(r: pd.Series) -> str:
    """Points per data with its interval; a single pair, or a sample where no pair's points
    differed, has no ratio interval and says so."""
    if not (np.isfinite(r["ppd_lower"]) and np.isfinite(r["ppd_upper"])):
        why = "one pair" if int(r["pairs"]) < 2 else "no variation"
        return f"{r['points_per_data']:+.2f} ({why})"
    return _num(r["points_per_data"], r["ppd_lower"], r["ppd_upper"])


def learned_tactic_rows(frame: pd.DataFrame, *, forced_only: bool) -> list[list[str]]:
    """Rows of the learned-tactic table: tactic, dose, learned's own weight (points), chicas,
    effect on the win rate (percentage points) [interval], points per data gained, discordant
    pairs and test, verdict (Holm over the forced family, or over the tactic's doses)."""
    rows = []
    for _, r in frame.iterrows():
        if forced_only and not r["forced"]:
            continue
        rows.append(
            [
                r["label"],
                r["dose_label"],
                f"{r['own_weight']:+.2f}",
                f"{int(r['games']):,}",
                _tactic_effect(r)
                if forced_only
                else _tactic_effect(r, "dose_lower_adj", "dose_upper_adj"),
                _ppd(r),
                r["verdict"] if forced_only else r["dose_verdict"],
            ]
        )
    return rows


LEARNED_TACTIC_HEADERS = (
    "tactic",
    "dose",
    "own weight",
    "chicas",
    "win rate change (percentage points)",
    "points/data",
    "verdict",
)


def tactic_rows(tactics: pd.DataFrame) -> list[list[str]]:
    """Table rows of :func:`tactic_experiments` with verdicts (tuned heuristic): tactic, with
    vs without, chicas, effect in percentage points, points per data gained, verdict."""
    return [
        [
            r["label"],
            f"{r['with_weight']} vs 0",
            f"{int(r['games']):,}",
            _tactic_effect(r),
            _ppd(r),
            r["verdict"],
        ]
        for _, r in tactics.iterrows()
    ]


TACTIC_HEADERS = (
    "tactic",
    "weight on vs off",
    "chicas",
    "win rate change (percentage points)",
    "points/data",
    "verdict",
)


# --------------------------------------------------------------------------- strength vs cost
def log_ticks(lo: float, hi: float) -> list[float]:
    """Major ticks of a log axis from ``lo`` to ``hi`` (> 0): the 1-2-5 series inside the
    range, thinned to 1 and 5, then to the powers of ten (then to every k-th of them) when it
    would hold more than 6 ticks, so that the labels cannot overlap.

    Raises
    ------
    ValueError
        ``lo`` or ``hi`` not positive, or ``hi <= lo``.
    """
    if not (0 < lo < hi):
        raise ValueError(f"a log axis needs 0 < lo < hi, got {lo!r}, {hi!r}")
    for steps in ((1, 2, 5), (1, 5), (1,)):
        ticks = [
            m * 10.0**e
            for e in range(int(np.floor(np.log10(lo))), int(np.ceil(np.log10(hi))) + 1)
            for m in steps
            if lo <= m * 10.0**e <= hi
        ]
        if len(ticks) <= 6:
            break
    step = -(-len(ticks) // 6)  # many decades: every step-th power of ten
    return ticks[::step]


def _sweep_figure(sweep: dict[str, Any], speeds: pd.DataFrame) -> Figure:
    fig, axes = new_figure(1, 1, (7.0, 4.5))
    ax = axes[0, 0]
    for name, marker in (("pimc", "o"), ("solver", "s")):
        pts = sorted((p for p in sweep["sweep"] if p["policy"] == name), key=lambda p: p["samples"])
        if not pts:
            continue
        sp = speeds.set_index(["policy", "samples"])
        x = [float(sp.loc[(p["policy"], p["samples"]), "wall_mean"]) for p in pts]
        y = [100 * p["win_rate"] for p in pts]
        err = [
            [100 * (p["win_rate"] - p["lower"]) for p in pts],
            [100 * (p["upper"] - p["win_rate"]) for p in pts],
        ]
        ax.errorbar(x, y, yerr=err, marker=marker, capsize=3, label=name)
        for p, xi, yi in zip(pts, x, y, strict=True):
            ax.annotate(str(p["samples"]), (xi, yi), textcoords="offset points", xytext=(4, 4))
    ax.axhline(50.0, color="grey", lw=0.8, ls="--")
    ax.set_xscale("log")
    lo, hi = ax.get_xlim()
    ticks = log_ticks(lo, hi)
    ax.xaxis.set_major_locator(FixedLocator(ticks))
    ax.xaxis.set_major_formatter(FixedFormatter([f"{t:,.0f}" for t in ticks]))
    # No labels on the minor ticks: on an axis of one or two decades matplotlib labels them
    # too (2x10^3, 3x10^3 ...) and they overlap.
    ax.xaxis.set_minor_formatter(NullFormatter())
    ax.set_xlim(lo, hi)
    ax.set_xlabel("decisions per second measured in this run, wall (log scale; labels: samples)")
    ax.set_ylabel("duplicate chica win rate vs heuristic (%)")
    pairs = sorted({p["pairs"] for p in sweep["sweep"]})
    ax.set_title(
        f"Strength against cost, 2 players, Quito ({', '.join(f'{k:,}' for k in pairs)} "
        "duplicate chica indices per point, 95% clustered Wilson)",
        fontsize=9,
    )
    ax.legend()
    return fig


# --------------------------------------------------------------------------- the report
def search_pair_sizes(
    policies: Sequence[str],
    chicas: int,
    divisor: int = SEARCH_DIVISOR,
    weak_divisor: int = WEAK_SEARCH_DIVISOR,
) -> tuple[tuple[str, str, int, int], ...]:
    """Per-pair sizes of a tournament: a pair with a search policy (:data:`SEARCH_POLICIES`)
    plays ``chicas // divisor`` chicas, or ``chicas // weak_divisor`` when the other policy is
    in :data:`WEAK_POLICIES` (each even, at least 2, at most ``chicas``), and no mesas; the
    other pairs keep the tournament's sizes.

    Returns
    -------
    tuple of (a, b, chicas, mesas)
        :attr:`cuarenta_sim.tournament.TournamentSettings.pair_sizes`.
    """

    def size(d: int) -> int:
        return min(chicas, max(2, 2 * (chicas // (2 * d))))

    out = []
    for a, b in itertools.combinations(policies, 2):
        na, nb = parse_policy(a).name, parse_policy(b).name
        if na in SEARCH_POLICIES or nb in SEARCH_POLICIES:
            weak = na in WEAK_POLICIES or nb in WEAK_POLICIES
            out.append((a, b, size(weak_divisor if weak else divisor), 0))
    return tuple(out)


def _own_weight(frame: pd.DataFrame, players: int) -> np.ndarray:
    """The base learned model's weight of each row's feature, in points (signed towards the
    tactic: positive = the base already follows it)."""
    from .engine.learned import FEATURE_NAMES
    from .policies.learned import DEFAULT_WEIGHTS, load_weights
    from .tactics import LEARNED_TACTICS

    w = load_weights(DEFAULT_WEIGHTS).row(players)
    points = abs(int(w[FEATURE_NAMES.index("points")]))
    sign = {t.tactic: t.sign for t in LEARNED_TACTICS}
    return np.array(
        [
            sign[t] * w[FEATURE_NAMES.index(f)] / points
            for t, f in zip(frame["tactic"], frame["feature"], strict=True)
        ]
    )


def _dose_figure(frame: pd.DataFrame) -> Figure:
    from .tactics import FORCED

    fig, axes = new_figure(1, 1, (7.5, 4.5))
    ax = axes[0, 0]
    # Dose 0 is plain learned against itself: in duplicate exactly even (no interval).
    doses = [0.0, *sorted(frame["dose"].unique())]
    pos = {d: i for i, d in enumerate(doses)}
    for k, (label, rows) in enumerate(frame.groupby("label", sort=False)):
        x = np.array([0.0] + [pos[d] for d in rows["dose"]]) + 0.06 * (k - 2)
        y = np.concatenate([[0.0], 100 * rows["effect"].to_numpy()])
        err = [
            np.concatenate([[0.0], 100 * (rows["effect"] - rows["dose_lower_adj"]).to_numpy()]),
            np.concatenate([[0.0], 100 * (rows["dose_upper_adj"] - rows["effect"]).to_numpy()]),
        ]
        ax.errorbar(x, y, yerr=err, marker="o", capsize=3, label=label)
    ax.axhline(0.0, color="black", lw=0.8)
    ax.set_xticks(range(len(doses)), ["forced" if d >= FORCED else f"{d:g}" for d in doses])
    ax.set_xlabel("dose: points of bonus for following the tactic (learned's own point)")
    ax.set_ylabel("win rate change (percentage points)")
    ax.set_title(
        "Folk tactics forced on the learned player: dose-response\n"
        "(intervals at the level Holm tested each dose; a bar excludes 0 iff resolved)"
    )
    ax.legend(fontsize=8)
    return fig


def _matrix_figure(table: pd.DataFrame, players: int) -> Figure:
    matrix = head_to_head_matrix(table, "win_rate")
    k = len(matrix)
    fig, axes = new_figure(1, 1, (1.1 * k + 2.5, 0.9 * k + 1.5))
    ax = axes[0, 0]
    values = 100 * matrix.to_numpy(np.float64)
    image = ax.imshow(np.ma.masked_invalid(values), cmap="RdBu", vmin=0, vmax=100)
    lo = 100 * head_to_head_matrix(table, "lower").to_numpy(np.float64)
    hi = 100 * head_to_head_matrix(table, "upper").to_numpy(np.float64)
    for i in range(k):
        for j in range(k):
            if np.isfinite(values[i, j]):
                ax.text(
                    j,
                    i,
                    f"{values[i, j]:.1f}\n[{lo[i, j]:.1f}, {hi[i, j]:.1f}]",
                    ha="center",
                    va="center",
                    fontsize=7,
                    # White text on the dark ends of the scale.
                    color="white" if abs(values[i, j] - 50.0) > 30.0 else "black",
                )
    names = [short_name(p) for p in matrix.index]
    ax.set_xticks(range(k), names, rotation=30)
    ax.set_yticks(range(k), names)
    ax.set_xlabel("opponent")
    ax.set_ylabel("player")
    ax.set_title(f"Chica win rate of the row against the column (%), {players} players")
    fig.colorbar(image, ax=ax, label="win rate (%)")
    return fig


def _standing(results: dict[int, tuple[TournamentResult, pd.DataFrame]]) -> str:
    """Where ``learned`` (the base of the tactic experiments) stands against ``heuristic``."""
    result, _ = next(iter(results.values()))
    names = {parse_policy(p).name: p for p in result.settings.policies}
    table = result.head_to_head
    if "learned" in names and "heuristic" in names:
        r = table[(table["a"] == names["learned"]) & (table["b"] == names["heuristic"])].iloc[0]
        won = _pct(r["win_rate"], r["lower"], r["upper"], 1)
        if r["lower"] > 0.5:
            return (
                f"`learned` is the strongest fast player: it beats the tuned heuristic in "
                f"{won} of {int(r['games']):,} chicas (head-to-head table)."
            )
        return (
            f"`learned` is the base although it does not beat the tuned heuristic here "
            f"({won} of {int(r['games']):,} chicas): read these rows as deviations of "
            "`learned`, not of the strongest fast player."
        )
    return "`learned` (the linear model the fast simulations use) is the base."


def _pair_rates(pairs: pd.DataFrame, flip: bool) -> np.ndarray:
    """Per duplicate pair: the share of its games won by ``a`` (``b`` when ``flip``)."""
    a = pairs["a_wins"].to_numpy(np.float64)
    games = pairs["games"].to_numpy(np.float64)
    return (games - a if flip else a) / games


def tournament_convergence(
    result: TournamentResult, settings: StudySettings
) -> tuple[str, Figure, pd.DataFrame]:
    """Convergence of ``learned``'s duplicate chica win rate against ``heuristic``.

    The main run is the tournament's per-pair results of that match (the first two policies
    when either is missing); :data:`REPLICATES` replicate matches of a quarter of its chicas
    (at least 2 duplicate pairs) on seeds ``seed + 1`` ... with :func:`play_duplicate`.

    Parameters
    ----------
    result : TournamentResult
        The tournament of one player count (its ``pairs`` hold the per-pair frames).
    settings : cuarenta_sim.studies.StudySettings

    Returns
    -------
    (str, Figure, DataFrame)
        As :func:`cuarenta_sim.studies.convergence.convergence_note`; each unit is one
        duplicate pair (mean of its two chicas, a truncated chica counting half).
    """
    tset = result.settings
    names = {parse_policy(p).name: p for p in tset.policies}
    if "learned" in names and "heuristic" in names:
        first, second = names["learned"], names["heuristic"]
    else:
        first, second = tset.policies[0], tset.policies[1]
    key = (first, second, "chica")
    flip = key not in result.pairs
    main = result.pairs[(second, first, "chica") if flip else key]
    # A quarter of the match's chicas: chicas / 8 duplicate pairs of 2 chicas each.
    size = max(2, tset.sizes(first, second)[0] // 8)
    reps = [_pair_rates(main, flip)]
    for r in range(1, REPLICATES + 1):
        pairs = play_duplicate(
            first,
            second,
            rules=tset.rules,
            players=tset.players,
            level="chica",
            n=size,
            seed=tset.seed + r,
            threads=tset.threads,
        )
        reps.append(_pair_rates(pairs, False))
    what = f"{short_name(first)}'s win rate vs {short_name(second)}, {tset.players} players"
    text, fig, frame = convergence_note(
        reps,
        what=what,
        unit="duplicate pairs",
        confidence=settings.confidence,
        percent=True,
        reference=0.5,
    )
    text += (
        f" Each value is one duplicate pair's share of its 2 chicas (mean over pairs, `t` or "
        f"`normal`); replicates: {REPLICATES} matches of {size:,} duplicate pairs "
        f"({2 * size:,} chicas) on seeds "
        f"{tset.seed + 1} to {tset.seed + REPLICATES}. The line is an even match."
    )
    return text, fig, frame


def strategies_study(settings: StudySettings, progress: Progress | None = None) -> GeneratedReport:
    """Build the strategies report (tournament, folk tactics, strength against cost).

    Parameters
    ----------
    settings : cuarenta_sim.studies.StudySettings
        ``policies`` (the tournament's specs; default :data:`DEFAULT_POLICIES`), ``n``
        (chicas per pair of fast policies and per tactic experiment, even; pairs with a
        search policy play ``n // SEARCH_DIVISOR``, :func:`search_pair_sizes`), ``mesas``
        (mesas per pair of fast policies, even; default ``n // 10``), ``players`` (each count
        gets its tournament; the tactics use the first), ``rules``, ``seed``, ``confidence``,
        ``threads``.
    progress : callable, optional
        One-line progress messages.

    Returns
    -------
    cuarenta_sim.studies.GeneratedReport

    Raises
    ------
    ValueError
        Bad settings, unknown policies or rules.
    """
    from .tactic_ablation import (
        BARELY_WEIGHTED_POINTS,
        HEURISTIC_TUNING,
        TUNING,
        learned_ablations,
        solver_check,
        tactic_verdicts,
    )
    from .tactics import DOSES, PRACTICAL_MARGIN_PP, learned_tactics

    prose = _prose()
    t_start = time.perf_counter()
    policies = tuple(settings.policies)
    chicas = settings.n
    mesas = settings.mesas if settings.mesas is not None else 2 * (chicas // (2 * MESA_DIVISOR))
    report = Report(
        title=prose.title(),
        provenance={},
        command=get_study("strategies").command(settings),
    )
    figures: dict[str, Figure] = {}
    tables: dict[str, pd.DataFrame] = {}
    summary_parts = []
    runs = []
    results: dict[int, tuple[TournamentResult, pd.DataFrame]] = {}
    pair_sizes = search_pair_sizes(policies, chicas)
    search_chicas = max((c for _, _, c, _ in pair_sizes), default=None)
    tactic_chicas = max(2, 2 * (chicas // (2 * TACTIC_DIVISOR)))
    report.add(
        "Question",
        prose.question(
            settings,
            policies,
            chicas,
            mesas,
            search_chicas,
            tactic_chicas,
            f"{TUNING}; {HEURISTIC_TUNING}",
        ),
    )
    extra_claims: list[Claim] = []
    for players in settings.players:
        tset = TournamentSettings(
            policies=policies,
            rules=settings.rules,
            players=players,
            chicas=chicas,
            mesas=mesas,
            seed=settings.seed,
            confidence=settings.confidence,
            threads=settings.threads,
            pair_sizes=pair_sizes,
        )
        say(progress, f"tournament, {players} players")
        result = cuarenta_tournament(tset, progress)
        m = _with_discordant(result)
        results[players] = (result, m)
        tables[f"matches_{players}p"] = m
        tables[f"head_to_head_{players}p"] = result.head_to_head
        tables[f"ratings_{players}p"] = result.ratings
        if result.fit is not None:
            tables[f"fit_{players}p"] = result.fit.pairs
        runs.append(
            {
                "players": players,
                "level": "tournament",
                "rules": settings.rules,
                "policies": list(policies),
                "n": chicas,
                "wall_time_s": round(result.seconds, 1),
            }
        )
        report.add(f"Head-to-head, {players} players", _tournament_section(result, m))
        section, rating_claim, drawn = _ratings_parts(result, players)
        report.add(f"Ratings, {players} players", section)
        if rating_claim is not None:
            extra_claims.append(rating_claim)
        figures[f"head_to_head_{players}p"] = _matrix_figure(result.head_to_head, players)
        figures[f"ratings_{players}p"] = ratings_figure(
            drawn, players, result.fit is not None and result.fit.misfit
        )
        summary_parts.append(f"{players} players\n" + tournament_text(result))

    conv_players = 2 if 2 in results else settings.players[0]
    say(progress, f"convergence: {REPLICATES} replicate seeds, {conv_players} players")
    t_conv = time.perf_counter()
    conv_text, figures["convergence"], tables["convergence"] = tournament_convergence(
        results[conv_players][0], settings
    )
    conv_seconds = round(time.perf_counter() - t_conv, 1)
    tactic_players = settings.players[0]
    say(progress, f"folk tactics forced on learned, {tactic_players} players")
    learned = learned_tactics(
        rules=settings.rules,
        players=tactic_players,
        chicas=tactic_chicas,
        seed=settings.seed,
        confidence=settings.confidence,
        threads=settings.threads,
        progress=progress,
    )
    labels = {t.name: t.label for t in TACTICS}
    learned["label"] = learned["tactic"].map(labels)
    learned["own_weight"] = _own_weight(learned, tactic_players)
    tables["tactics_learned"] = learned
    figures["tactics_dose_response"] = _dose_figure(learned)
    say(progress, f"folk tactics removed and reversed in learned, {tactic_players} players")
    ablation = learned_ablations(
        rules=settings.rules,
        players=tactic_players,
        chicas=tactic_chicas,
        seed=settings.seed,
        confidence=settings.confidence,
        threads=settings.threads,
        progress=progress,
    )
    say(progress, f"folk tactics as switches of the tuned heuristic, {tactic_players} players")
    tuned = tactic_experiments(
        rules=settings.rules,
        players=tactic_players,
        chicas=tactic_chicas,
        seed=settings.seed,
        confidence=settings.confidence,
        threads=settings.threads,
        progress=progress,
    )
    verdicts = tactic_verdicts(ablation, learned, tuned)
    check_pairs = max(2, min(CHECK_PAIRS, chicas // SEARCH_DIVISOR))
    say(progress, f"tactic check against solver, {check_pairs} duplicate pairs per match")
    check = solver_check(
        ablation,
        verdicts,
        rules=settings.rules,
        players=tactic_players,
        pairs=check_pairs,
        seed=settings.seed,
        confidence=settings.confidence,
        threads=settings.threads,
    )
    tables["tactics_ablation"] = ablation
    tables["tactic_verdicts"] = verdicts
    tables["tactic_check"] = check
    ablation_sentence = ablation_headline(verdicts, labels, tactic_players)
    check_claim = solver_check_claim(check, labels, tactic_players)
    if check_claim is not None:
        extra_claims.append(check_claim)
    report.add(
        f"Folk tactics by ablation of the learned player, {tactic_players} players",
        prose.ablation(
            _standing(results),
            TUNING,
            ablation_sentence,
            markdown_table(ABLATION_HEADERS, ablation_rows(ablation, labels), right=(1, 3, 5)),
            markdown_table(CHECK_HEADERS, check_rows(check, labels), right=(3, 4, 5, 7)),
            check.iloc[0].to_dict(),
            float(check["seconds"].iloc[0]),
            tactic_chicas,
            PRACTICAL_MARGIN_PP,
            "" if check_claim is None else render_claim(check_claim),
            BARELY_WEIGHTED_POINTS,
        ),
    )
    report.add(
        f"Folk tactics forced on the learned player, {tactic_players} players",
        prose.learned_tactics(
            markdown_table(
                LEARNED_TACTIC_HEADERS,
                learned_tactic_rows(learned, forced_only=True),
                right=(2, 3),
            ),
            markdown_table(
                LEARNED_TACTIC_HEADERS,
                learned_tactic_rows(learned, forced_only=False),
                right=(2, 3),
            ),
            [{"label": t.label, "tactic": t.name, "advice": t.advice} for t in TACTICS],
            list(DOSES),
            PRACTICAL_MARGIN_PP,
            tactic_chicas,
            TUNING,
        ),
    )
    tables["tactics_heuristic"] = tuned
    report.add(
        f"Folk tactics as switches of the tuned heuristic, {tactic_players} players",
        prose.tuned_tactics(
            markdown_table(TACTIC_HEADERS, tactic_rows(tuned), right=(2,)),
            {t.name: t.weight() for t in TACTICS},
            HEURISTIC_TUNING,
        ),
    )
    fig, axes = new_figure(1, 1, (7.0, 0.5 * len(tuned) + 1.8))
    frame = tuned.assign(
        estimate=100 * tuned["effect"],
        lower=100 * tuned["effect_lower_adj"],
        upper=100 * tuned["effect_upper_adj"],
    )
    plotting.forest(
        frame,
        axes[0, 0],
        label="label",
        xlabel="win rate change with the tactic (percentage points)",
        title="Folk tactics as switches of the tuned heuristic (tuned-heuristic results)",
        reference=0.0,
    )
    figures["tactics"] = fig

    sweep = load_sweep()
    speeds = None
    if sweep is not None:
        say(progress, f"strength against cost: timing {len(sweep['sweep'])} search settings")
        speeds = measure_speeds(sweep["sweep"], threads=settings.threads)
        tables["strength_vs_cost"] = pd.DataFrame(sweep["sweep"])
        tables["speeds"] = speeds
        figures["strength_vs_cost"] = _sweep_figure(sweep, speeds)
    first_result = next(iter(results.values()))[0]
    first_matches = next(iter(results.values()))[1]
    nontransitive = non_transitivity_claim(first_result, sweep, first_matches)
    if nontransitive is not None:
        extra_claims.append(nontransitive)
    report.add(
        "Strength against cost",
        prose.strength(
            markdown_table(STRENGTH_HEADERS, strength_rows(sweep, speeds), right=(1, 2, 3, 5))
            if sweep is not None and speeds is not None
            else "",
            sweep,
            "" if nontransitive is None else render_claim(nontransitive),
            openspiel_sentence(load_openspiel()),
            SPEED_DATAS,
            SPEED_REPEATS,
        ),
    )
    claims = strategy_claims(
        results, verdicts, sweep, speeds, lambda spec: parse_policy(spec).name, labels
    )
    answers = [render_claim(c) for c in claims]
    report.sections.insert(0, ("Answers", " ".join(answers)))
    # Sentences rendered in their own sections are claims too (checked, in claims.json).
    claims = [*claims, *extra_claims]
    size_rows = [
        [short_name(a), short_name(b), f"{c:,}", f"{ms:,}" if ms else "not played"]
        for a, b, c, ms in (
            (
                a,
                b,
                *TournamentSettings(
                    policies=policies, chicas=chicas, mesas=mesas, pair_sizes=pair_sizes
                ).sizes(a, b),
            )
            for a, b in itertools.combinations(policies, 2)
        )
    ]
    report.add(
        "Methods",
        prose.methods(
            markdown_table(("a", "b", "chicas", "mesas"), size_rows, right=(2, 3)),
            PRACTICAL_MARGIN_PP,
            tactic_chicas,
            time.perf_counter() - t_start,
            settings.threads,
            conv_text,
        ),
    )
    report.provenance = provenance(
        "strategies",
        settings,
        runs,
        time.perf_counter() - t_start,
        tournament_policies=[parse_policy(spec).canonical for spec in policies],
        chicas_per_pair=chicas,
        mesas_per_pair=mesas,
        search_chicas_per_pair=search_chicas,
        pair_sizes=[list(x) for x in pair_sizes],
        tactic_chicas=tactic_chicas,
        convergence_wall_time_s=conv_seconds,
        tactics=[t.name for t in TACTICS],
        tactic_doses_points=list(DOSES),
        tactic_base=parse_policy("learned").canonical,
        tactic_check_pairs=check_pairs,
        strength_vs_cost=(
            {
                k: sweep.get(k)
                for k in (
                    "path",
                    "sha256",
                    "command",
                    "package_version",
                    "numba",
                    "threads",
                    "sweep_settings",
                )
            }
            if sweep is not None
            else None
        ),
    )
    # The per-rule-set sizes of the framework's provenance do not apply to a tournament.
    for key in ("n_datas", "n_chicas", "n_mesas"):
        report.provenance.pop(key, None)
    summary = "\n".join(textwrap.fill(a, CONSOLE_WIDTH) for a in answers)
    summary += "\n\n" + "\n\n".join(summary_parts)
    summary += "\n\nfolk tactics forced on learned (disc.: discordant pairs)\n" + text_table(
        ("tactic", "dose", "chicas", "win rate change (percentage points)", "disc.", "verdict"),
        [
            [
                r["tactic"],
                r["dose_label"],
                f"{int(r['games']):,}",
                _tactic_effect(r),
                f"{int(r['discordant']):,}",
                r["verdict"].split(" (")[0],
            ]
            for _, r in learned.iterrows()
            if r["forced"]
        ],
        right=(2, 4),
    )
    return GeneratedReport(
        name="strategies",
        report=report,
        figures=figures,
        summary=summary,
        tables=tables,
        claims=claims,
    )


#: Templates of the Cuarenta reports (package data).
TEMPLATES = Path(__file__).with_name("templates")


def _prose() -> Any:
    """The section macros of ``templates/strategies.md.j2``."""
    return templates.macros("strategies.md.j2", directory=TEMPLATES)


def _tournament_section(result: TournamentResult, m: pd.DataFrame) -> str:
    table = result.head_to_head
    k = len(set(table["a"]))
    win = markdown_table(
        matrix_headers(table, "row vs column"),
        matrix_rows(table, "win_rate", lambda v: f"{100 * v:.1f}%"),
        right=tuple(range(1, 1 + k)),
    )
    ppd = markdown_table(
        matrix_headers(table, "row vs column"),
        matrix_rows(table, "points_per_data", lambda v: f"{v:+.2f}"),
        right=tuple(range(1, 1 + k)),
    )
    levels = {
        level: markdown_table(MATCH_HEADERS, match_rows(m[m["level"] == level]), right=(2, 5, 6))
        for level in TOURNAMENT_LEVELS
        if (m["level"] == level).any()
    }
    return _prose().tournament(win, ppd, levels, result.seconds)


def _ratings_section(result: TournamentResult) -> str:
    """The ratings section of a tournament (:func:`_ratings_parts` without its claim)."""
    return _ratings_parts(result, int(result.settings.players))[0]


def _ratings_parts(
    result: TournamentResult, players: int
) -> tuple[str, Claim | None, pd.DataFrame]:
    """The ratings section, the claim of its "without the random player" paragraph and the
    ratings its table prints (with ``lower_inflated`` / ``upper_inflated`` when the fit was
    checked), which the figure draws."""
    fit = result.fit
    check = ratings_check(result)
    without = None
    claim = ratings_without_claim(check, players)
    if check is not None and claim is not None:
        without = {
            "sentence": render_claim(claim),
            "table": markdown_table(
                INFLATED_HEADERS, inflated_rows(check["without"], short_name), right=(0, 2, 5)
            ),
        }
    ratings_table = (
        markdown_table(
            INFLATED_HEADERS, inflated_rows(check["ratings"], short_name), right=(0, 2, 5)
        )
        if check is not None
        else markdown_table(RATING_HEADERS, rating_rows(result.ratings), right=(0, 3))
    )
    text = _prose().ratings(
        fit_sentence(fit) if fit is not None else "",
        bool(fit is not None and fit.misfit),
        markdown_table(FIT_HEADERS, fit_rows(fit), right=(2, 3, 4, 5, 6)) if fit else "",
        ratings_table,
        without,
        float(check["ratings"]["inflation"].iloc[0]) if check is not None else 1.0,
        f"figures/ratings_{players}p.png",
    )
    return text, claim, (check["ratings"] if check is not None else result.ratings)


def ratings_figure(rating: pd.DataFrame, players: int, misfit: bool) -> Figure:
    """Forest plot of the ratings with the intervals the ratings table prints: widened by
    the misfit (``lower_inflated`` / ``upper_inflated``, :func:`cuarenta_sim.rating_checks.inflate`)
    when present, else the bootstrap interval.

    Parameters
    ----------
    rating : DataFrame
        ``policy``, ``rating``, ``lower``, ``upper`` (Elo) and optionally the widened bounds
        and ``inflation``.
    players : int
        Player count (title).
    misfit : bool
        Whether Bradley-Terry misfits (title warning).

    Returns
    -------
    Figure
    """
    fig, axes = new_figure(1, 1, (7.0, 0.5 * len(rating) + 1.8))
    frame = rating.rename(columns={"rating": "estimate"})
    xlabel = "Elo rating (mean 0), 95% shared-deal bootstrap interval"
    if "lower_inflated" in rating:
        frame = frame.assign(lower=rating["lower_inflated"], upper=rating["upper_inflated"])
        xlabel += f" widened x{float(rating['inflation'].iloc[0]):.2f} by the misfit"
    plotting.forest(
        frame,
        axes[0, 0],
        label="policy",
        xlabel=xlabel,
        title=f"Bradley-Terry ratings, {players} players"
        + (" (MISFIT: read the head-to-head table)" if misfit else ""),
        reference=0.0,
    )
    return fig


# --------------------------------------------------------------------------- registration
def check_strategies(settings: StudySettings) -> None:
    """Checks of the strategies study, before any game is played.

    Parameters
    ----------
    settings : StudySettings
        ``n`` chicas per pair (even: duplicate pairs), ``mesas`` None or even, ``policies``
        at least two different specs, each valid for every player count (R2.1), ``rules``.

    Raises
    ------
    ValueError
        The first problem found; the message says what is accepted.
    """
    from .policies import parse_policy, resolve_policies

    if settings.n % 2:
        raise ValueError(
            f"--n must be an even positive number of chicas per pair (played in duplicate "
            f"pairs), got {settings.n}"
        )
    if settings.mesas is not None and settings.mesas % 2:
        raise ValueError(
            f"--mesas must be an even positive number of mesas per pair (played in duplicate "
            f"pairs), got {settings.mesas}"
        )
    text = ",".join(settings.policies)
    try:
        for spec in settings.policies:
            for count in settings.players:
                resolve_policies(spec, count)
    except ValueError as err:
        raise ValueError(f"--policies {text!r}: {err}") from err
    canonical = [parse_policy(spec).canonical for spec in settings.policies]
    if len(canonical) < 2 or len(set(canonical)) != len(canonical):
        raise ValueError(
            f"--policies {text!r}: give at least two different policies (compared with every "
            f"parameter at its value: {', '.join(canonical)})"
        )
    resolve_rules(settings.rules)


def register_strategies_study() -> None:
    """Register ``strategies`` in :data:`cuarenta_sim.studies.STUDIES` (runs at import)."""
    from .studies import parse_options

    register_study(
        Study(
            name="strategies",
            game="cuarenta",
            title="Strategies",
            description="duplicate tournament of the policies (head-to-head matrix); folk "
            "tactics forced on learned; strength against cost",
            defaults={
                "n": DEFAULT_CHICAS,
                # 2 players: the default run must stay under 10 minutes on 2 cores (4 players
                # doubles the search pairs' cost; ``--players 2,4`` adds them).
                "players": (2,),
                "policies": DEFAULT_POLICIES,
                "rules": "quito",
            },
            check=check_strategies,
            build=strategies_study,
            options=("players", "policies", "mesas", "rules"),
            refused={"chicas": "--n is the chicas per pair"},
            reproduce=("players", "policies", "mesas?", "rules"),
            parse=parse_options,
            n_unit="chicas per pair",
            player_rule="R2.1",
        )
    )


register_strategies_study()
