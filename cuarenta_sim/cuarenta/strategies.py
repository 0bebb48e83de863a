"""The strategies study: a duplicate tournament of the policies and the folk-tactic experiments.

``cuarenta-sim report strategies`` runs :func:`strategies_study` (registered at import in
:data:`cuarenta_sim.studies.STUDIES`; prose from ``templates/strategies.md.j2``) and writes
``reports/strategies/`` (report.md, figures/*.png, provenance.json). Two questions:

* **How much does skill matter, and which player is best?** A round-robin duplicate
  tournament (:mod:`cuarenta_sim.tournament`): chica and mesa win rates per pair, points per
  data, Bradley-Terry ratings on the Elo scale.
* **Do the folk tactics work?** Each tactic is one switch of the ``heuristic`` policy
  (:data:`TACTICS`); the heuristic with the tactic plays the heuristic without it in duplicate
  chicas, everything else equal. The effect is the win rate minus 50% and the points per data
  gained, each with its interval.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from .. import plotting
from ..reports import Report, markdown_table, text_table
from ..studies import GeneratedReport, Study, StudySettings, register_study, templates
from ..studies.framework import new_figure, provenance
from ..tournament import (
    PAIR_COLUMNS,
    TOURNAMENT_LEVELS,
    Progress,
    TournamentResult,
    TournamentSettings,
    match_summary,
    run_tournament,
)
from .policies import parse_policy
from .rules import resolve_rules

#: Policies of the default tournament, weakest expected first.
DEFAULT_POLICIES = ("random", "greedy", "heuristic", "pimc")
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


def play_duplicate(
    a: str,
    b: str,
    *,
    rules: str = "quito",
    players: int = 2,
    level: str = "chica",
    n: int = 10_000,
    seed: int = 0,
    threads: int | None = None,
) -> pd.DataFrame:
    """Play ``n`` duplicate pairs of Cuarenta games between policies ``a`` and ``b``.

    Game ``g`` is played once with ``a`` on side 0 and once with ``a`` on side 1, on the same
    seed (same decks and first dealer, contract section 2).

    Parameters
    ----------
    a, b : str
        Policy specs (:func:`cuarenta_sim.cuarenta.policies.resolve_policies`); each plays every
        seat
        of its side.
    rules : str
        Preset or slug (section S).
    players : int
        2, or 4 (two partnerships, R2.1).
    level : str
        ``"chica"`` or ``"mesa"`` (R9).
    n : int
        Duplicate pairs (games per seating), > 0.
    seed : int
        Seed of both seatings.
    threads : int or None
        numba threads (never changes the numbers).

    Returns
    -------
    DataFrame
        One row per game index, columns :data:`PAIR_COLUMNS`: ``a_wins`` (float64: games of
        the pair won by ``a``, 0 to 2, a truncated game counting 0.5), ``games`` (int64, 2),
        ``a_points`` / ``b_points`` (int64: points scored by each policy's side over both
        games, R9.2), ``datas`` (int64: datas played in both games).

    Raises
    ------
    ValueError
        Unknown policy, rules, level, or bad ``n`` / ``players`` / ``seed``.
    """
    from ..simulation import simulate

    if level not in TOURNAMENT_LEVELS:
        raise ValueError(f"level must be one of {', '.join(TOURNAMENT_LEVELS)}, got {level!r}")
    runs = []
    for seating in ((a, b), (b, a)):
        res = simulate(
            rules=rules,
            players=players,
            policies=seating,
            n=n,
            level=level,
            seed=seed,
            threads=threads,
        )
        runs.append(res)
    out = {"game": runs[0].games["game"].to_numpy(np.int64)}
    a_wins = np.zeros(n, dtype=np.float64)
    a_points = np.zeros(n, dtype=np.int64)
    b_points = np.zeros(n, dtype=np.int64)
    datas = np.zeros(n, dtype=np.int64)
    for a_side, res in enumerate(runs):
        winner = res.games["winner"].to_numpy()
        a_wins += np.where(winner < 0, 0.5, (winner == a_side).astype(np.float64))
        h = res.hands
        game = h["game"].to_numpy()
        pts_a = h[f"points_{a_side}"].to_numpy(np.int64)
        pts_b = h[f"points_{1 - a_side}"].to_numpy(np.int64)
        a_points += np.bincount(game, weights=pts_a, minlength=n).astype(np.int64)
        b_points += np.bincount(game, weights=pts_b, minlength=n).astype(np.int64)
        datas += np.bincount(game, minlength=n).astype(np.int64)
    out.update(
        a_wins=a_wins,
        games=np.full(n, 2, dtype=np.int64),
        a_points=a_points,
        b_points=b_points,
        datas=datas,
    )
    return pd.DataFrame(out, columns=list(PAIR_COLUMNS))


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
            check_simulation("cuarenta", rules=settings.rules, players=settings.players,
                             policies=spec, n=1, threads=settings.threads)  # fmt: skip
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
        One row per tactic: ``tactic``, ``label``, ``with``, ``without`` (policy specs), the
        :func:`cuarenta_sim.tournament.match_summary` columns of "with" against "without"
        (``win_rate``, ``lower``, ``upper`` clustered Wilson; ``points_per_data``,
        ``ppd_lower``, ``ppd_upper``), and ``effect``, ``effect_lower``, ``effect_upper``:
        win rate minus 0.5 (fraction of games).

    Raises
    ------
    ValueError
        Odd or non-positive ``chicas``, unknown rules, or a tactic the policy does not know.
    """
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
        rows.append(
            {
                "tactic": tactic.name,
                "label": tactic.label,
                "with": on,
                "without": off,
                **summary,
                "effect": summary["win_rate"] - 0.5,
                "effect_lower": summary["lower"] - 0.5,
                "effect_upper": summary["upper"] - 0.5,
            }
        )
        if progress is not None:
            progress(
                f"tactic {tactic.label}: win rate {100 * summary['win_rate']:.2f}% "
                f"[{100 * summary['lower']:.2f}, {100 * summary['upper']:.2f}] "
                f"({time.perf_counter() - t0:.1f} s)"
            )
    return pd.DataFrame(rows)


# --------------------------------------------------------------------------- tables
def _pct(est: float, lo: float, hi: float) -> str:
    return f"{100 * est:.2f}% [{100 * lo:.2f}, {100 * hi:.2f}]"


def _num(est: float, lo: float, hi: float, decimals: int = 2) -> str:
    return f"{est:+.{decimals}f} [{lo:+.{decimals}f}, {hi:+.{decimals}f}]"


def match_rows(matches: pd.DataFrame) -> list[list[str]]:
    """Table rows of a tournament's matches (one per pair and level).

    Parameters
    ----------
    matches : DataFrame
        :attr:`cuarenta_sim.tournament.TournamentResult.matches`.

    Returns
    -------
    list of list of str
        ``a``, ``b``, level, games, win rate of ``a`` [clustered Wilson], Wilson over games,
        points per data of ``a`` minus ``b`` [ratio], verdict.
    """
    return [
        [
            r["a"],
            r["b"],
            r["level"],
            f"{int(r['games']):,}",
            _pct(r["win_rate"], r["lower"], r["upper"]),
            f"[{100 * r['wilson_lower']:.2f}, {100 * r['wilson_upper']:.2f}]",
            _num(r["points_per_data"], r["ppd_lower"], r["ppd_upper"]),
            r["verdict"],
        ]
        for _, r in matches.iterrows()
    ]


MATCH_HEADERS = (
    "a",
    "b",
    "level",
    "games",
    "a wins [clustered Wilson]",
    "Wilson if independent",
    "points/data a - b",
    "verdict",
)


def rating_rows(rating: pd.DataFrame) -> list[list[str]]:
    """Table rows of :func:`cuarenta_sim.tournament.ratings` (rank, policy, Elo [interval],
    games)."""
    return [
        [
            str(i + 1),
            r["policy"],
            f"{r['rating']:+.0f} [{r['lower']:+.0f}, {r['upper']:+.0f}]",
            f"{int(r['n']):,}",
        ]
        for i, r in rating.iterrows()
    ]


RATING_HEADERS = ("rank", "policy", "Elo (mean 0) [95% bootstrap]", "games")


def tournament_text(result: TournamentResult) -> str:
    """Plain-text tables of a tournament (matches, then ratings) for the terminal."""
    return (
        text_table(MATCH_HEADERS, match_rows(result.matches), right=(3,))
        + "\n\n"
        + text_table(RATING_HEADERS, rating_rows(result.ratings), right=(0, 3))
    )


def tactic_rows(tactics: pd.DataFrame) -> list[list[str]]:
    """Table rows of :func:`tactic_experiments` (tactic, win rate with it, effect in pp,
    points per data gained, verdict)."""
    rows = []
    for _, r in tactics.iterrows():
        rows.append(
            [
                r["label"],
                f"`{r['with']}` vs `{r['without']}`",
                f"{int(r['games']):,}",
                _pct(r["win_rate"], r["lower"], r["upper"]),
                _num(100 * r["effect"], 100 * r["effect_lower"], 100 * r["effect_upper"]) + " pp",
                _num(r["points_per_data"], r["ppd_lower"], r["ppd_upper"]),
                _tactic_verdict(r),
            ]
        )
    return rows


TACTIC_HEADERS = (
    "tactic",
    "with vs without",
    "games",
    "win rate with it",
    "effect",
    "points/data gained",
    "verdict",
)


def _tactic_verdict(row: pd.Series) -> str:
    if row["verdict"] == "a better":
        return "helps"
    if row["verdict"] == "b better":
        return "hurts"
    return "not resolved"


# --------------------------------------------------------------------------- the report
def strategies_study(settings: StudySettings, progress: Progress | None = None) -> GeneratedReport:
    """Build the strategies report (tournament + tactic experiments).

    Parameters
    ----------
    settings : cuarenta_sim.studies.StudySettings
        ``policies`` (the tournament's specs; default :data:`DEFAULT_POLICIES`), ``n``
        (chicas per pair and per tactic, even), ``mesas`` (mesas per pair, even; default
        ``n // 10``), ``players`` (each count gets its tournament), ``rules``, ``seed``,
        ``confidence``, ``threads``.
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
    prose = _prose()
    t_start = time.perf_counter()
    policies = tuple(settings.policies)
    chicas = settings.n
    mesas = settings.mesas if settings.mesas is not None else 2 * (chicas // (2 * MESA_DIVISOR))
    report = Report(
        title=prose.title(),
        provenance={},
        command=settings.command("strategies"),
    )
    figures = {}
    tables: dict[str, pd.DataFrame] = {}
    summary_parts = []
    runs = []
    report.add("Question", prose.question(settings, policies, chicas, mesas))
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
        )
        if progress is not None:
            progress(f"tournament, {players} players")
        result = cuarenta_tournament(tset, progress)
        tables[f"matches_{players}p"] = result.matches
        tables[f"ratings_{players}p"] = result.ratings
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
        report.add(f"Tournament, {players} players", _tournament_section(result))
        fig, axes = new_figure(1, 1, (7.0, 0.5 * len(policies) + 1.8))
        frame = result.ratings.rename(columns={"rating": "estimate"})
        plotting.forest(
            frame,
            axes[0, 0],
            label="policy",
            xlabel="Elo rating (mean 0)",
            title=f"Bradley-Terry ratings, {players} players",
            reference=0.0,
        )
        figures[f"ratings_{players}p"] = fig
        summary_parts.append(f"{players} players\n" + tournament_text(result))

    tactic_players = settings.players[0]
    if progress is not None:
        progress(f"tactic experiments, {tactic_players} players")
    tactics = tactic_experiments(
        rules=settings.rules,
        players=tactic_players,
        chicas=chicas,
        seed=settings.seed,
        confidence=settings.confidence,
        threads=settings.threads,
        progress=progress,
    )
    tables["tactics"] = tactics
    report.add(f"Folk tactics, {tactic_players} players", _tactics_section(tactics))
    fig, axes = new_figure(1, 1, (7.0, 0.5 * len(tactics) + 1.8))
    frame = tactics.assign(
        estimate=100 * tactics["effect"],
        lower=100 * tactics["effect_lower"],
        upper=100 * tactics["effect_upper"],
    )
    plotting.forest(
        frame,
        axes[0, 0],
        label="label",
        xlabel="win rate with the tactic minus 50% (percentage points)",
        title="Folk tactics as switches of the heuristic",
        reference=0.0,
    )
    figures["tactics"] = fig
    summary_parts.append(
        "folk tactics\n" + text_table(TACTIC_HEADERS, tactic_rows(tactics), right=(2,))
    )
    report.add("Methods", prose.methods())
    report.provenance = provenance(
        "strategies",
        settings,
        runs,
        time.perf_counter() - t_start,
        tournament_policies=[parse_policy(spec).canonical for spec in policies],
        chicas_per_pair=chicas,
        mesas_per_pair=mesas,
        tactics=[t.name for t in TACTICS],
    )
    # The per-rule-set sizes of the framework's provenance do not apply to a tournament.
    for key in ("n_datas", "n_chicas", "n_mesas"):
        report.provenance.pop(key, None)
    return GeneratedReport(
        name="strategies",
        report=report,
        figures=figures,
        summary="\n\n".join(summary_parts),
        tables=tables,
    )


#: Templates of the Cuarenta reports (package data).
TEMPLATES = Path(__file__).with_name("templates")


def _prose() -> Any:
    """The section macros of ``templates/strategies.md.j2``."""
    return templates.macros("strategies.md.j2", directory=TEMPLATES)


def _tournament_section(result: TournamentResult) -> str:
    m = result.matches
    chain = []
    policies = result.settings.policies
    for weaker, stronger in itertools.pairwise(policies):
        row = m[(m["a"] == weaker) & (m["b"] == stronger) & (m["level"] == "chica")]
        if row.empty:
            continue
        r = row.iloc[0]
        win = 1.0 - r["win_rate"]
        lo, hi = 1.0 - r["upper"], 1.0 - r["lower"]
        verb = "beats" if lo > 0.5 else ("loses to" if hi < 0.5 else "is not separated from")
        chain.append(
            {
                "stronger": stronger,
                "weaker": weaker,
                "verb": verb,
                "win": _pct(win, lo, hi),
                "games": int(r["games"]),
                "above": lo > 0.5,
            }
        )
    return _prose().tournament(
        markdown_table(RATING_HEADERS, rating_rows(result.ratings), right=(0, 3)),
        markdown_table(MATCH_HEADERS, match_rows(m), right=(3,)),
        chain,
        result.seconds,
    )


def _tactics_section(tactics: pd.DataFrame) -> str:
    advice = {t.name: t.advice for t in TACTICS}
    listed = [
        {"label": r["label"], "tactic": r["tactic"], "advice": advice[r["tactic"]]}
        for _, r in tactics.iterrows()
        if advice.get(r["tactic"])
    ]
    return _prose().tactics(
        markdown_table(TACTIC_HEADERS, tactic_rows(tactics), right=(2,)),
        tactics[tactics["verdict"] == "a better"]["label"].tolist(),
        tactics[tactics["verdict"] == "b better"]["label"].tolist(),
        listed,
    )


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
            description="duplicate tournament of the policies; folk tactics as A/B switches of "
            "the heuristic",
            defaults={
                "n": DEFAULT_CHICAS,
                "players": (2, 4),
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
