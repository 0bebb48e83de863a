"""Duplicate-deal tournaments between playing policies, and their ratings.

A **duplicate match** between policies ``a`` and ``b`` plays every game (chica or mesa) twice
on the same seed: once with ``a`` in seat 0 (and 2) and ``b`` in seat 1 (and 3), once with the
seats swapped. Because every data's deck and first dealer derive from (seed, game, data) only
(contract section 2), both plays of game ``g`` see the same cards: the luck of the deal cancels
and what remains is the difference in play. The unit of every interval is therefore the
**duplicate pair** (one game index, two games), never the single game.

Estimates (every one with its sample size and a named interval):

* ``win_rate``: share of games won by ``a`` (a truncated game, R9 cap, counts half), interval
  ``clustered wilson``: a Wilson interval on the *effective* number of games
  ``p (1 - p) / var``, where ``var`` is the variance of the mean per-pair score
  ``(wins of a) / 2`` over duplicate pairs (Kish's design effect). It respects the correlation
  of the two games of a pair (usually negative: duplicate play is more precise than
  independent games) and, unlike a normal interval, stays inside [0, 1]. The plain Wilson
  interval over the games as if they were independent is given alongside
  (``wilson_lower``, ``wilson_upper``).
* ``points_per_data``: (points of ``a``'s side - points of ``b``'s side) per data played,
  ratio of sums over duplicate pairs with a delta-method interval (``ratio``).
* ``head_to_head`` (the primary table, :func:`head_to_head`): the two estimates above for
  every ordered pair of policies, a matrix that needs no model.
* ``rating``: Bradley-Terry strengths fitted to every pair's game wins, on the Elo scale
  (``400 log10`` odds, mean 0), with a percentile bootstrap over duplicate pairs that resamples
  each deal (game index) in every match together, since every match plays the same decks.
  A single strength per policy only summarises the head-to-head table when results are
  transitive: :func:`cuarenta_sim.bradley_terry.bradley_terry_fit` tests that (deviance on
  its degrees of freedom, a chi-square p-value) and raises the ``misfit`` flag when the model
  does not fit. The ratings live in :mod:`cuarenta_sim.bradley_terry`.

The module is game-independent: :func:`run_tournament` takes the function that plays a
duplicate match (for Cuarenta :func:`cuarenta_sim.cuarenta.duplicate.play_duplicate`, wired
by :func:`cuarenta_sim.cuarenta.strategy_play.cuarenta_tournament`).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from . import stats
from .bradley_terry import MAX_BOOTSTRAP, BradleyTerryFit, bradley_terry_fit, ratings
from .limits import MAX_RUN, is_whole, whole_number

#: Game levels a tournament can be played at (R9: chica to ``target``, mesa of chicas).
TOURNAMENT_LEVELS = ("chica", "mesa")
#: Columns of the per-pair frame returned by :func:`play_duplicate` (one row per game index).
PAIR_COLUMNS = ("game", "a_wins", "games", "a_points", "b_points", "datas")
#: Columns of :func:`head_to_head`.
HEAD_TO_HEAD_COLUMNS = (
    "a",
    "b",
    "level",
    "pairs",
    "games",
    "win_rate",
    "lower",
    "upper",
    "points_per_data",
    "ppd_lower",
    "ppd_upper",
    "no_variation",
    "win_method",
    "ppd_method",
)

Progress = Callable[[str], None]
#: ``play(a, b, level, n)``: a duplicate match, one row per pair (:data:`PAIR_COLUMNS`).
PlayPair = Callable[[str, str, str, int], pd.DataFrame]


# --------------------------------------------------------------------------- playing
def match_summary(pairs: pd.DataFrame, confidence: float = 0.95) -> dict:
    """Win rate and points-per-data difference of one duplicate match.

    Parameters
    ----------
    pairs : DataFrame
        :func:`play_duplicate` output (columns :data:`PAIR_COLUMNS`).
    confidence : float
        Two-sided confidence level.

    Returns
    -------
    dict
        ``pairs`` (int: duplicate pairs), ``games`` (int), ``a_wins`` (float), ``win_rate``,
        ``lower``, ``upper`` (:func:`cuarenta_sim.stats.clustered_proportion`),
        ``wilson_lower``, ``wilson_upper``, ``points_per_data``, ``ppd_lower``,
        ``ppd_upper`` (ratio interval), ``datas`` (int), ``verdict`` (``"a better"``,
        ``"b better"`` or ``"not resolved"`` at 50% by the duplicate interval) and
        ``no_variation`` (every duplicate pair had the same score).
    """
    score = pairs["a_wins"].to_numpy(np.float64) / pairs["games"].to_numpy(np.float64)
    games = int(pairs["games"].sum())
    wins = float(pairs["a_wins"].sum())
    win = stats.clustered_proportion("win_rate", score, confidence)
    _, wlo, whi = stats.wilson_interval(wins, games, confidence)
    diff = pairs["a_points"].to_numpy(np.int64) - pairs["b_points"].to_numpy(np.int64)
    ppd = stats.ratio("points_per_data", diff, pairs["datas"].to_numpy(np.int64), confidence)
    if win["defined"] and win["lower"] > 0.5:
        verdict = "a better"
    elif win["defined"] and win["upper"] < 0.5:
        verdict = "b better"
    else:
        verdict = "not resolved"
    return {
        "pairs": len(pairs),
        "games": games,
        "a_wins": wins,
        "win_rate": win["estimate"],
        "lower": win["lower"],
        "upper": win["upper"],
        "wilson_lower": float(wlo),
        "wilson_upper": float(whi),
        "points_per_data": ppd["estimate"],
        "ppd_lower": ppd["lower"],
        "ppd_upper": ppd["upper"],
        "datas": int(pairs["datas"].sum()),
        "verdict": verdict,
        "no_variation": bool(win["no_variation"]),
    }


def head_to_head(
    pairs: dict[tuple[str, str, str], pd.DataFrame],
    policies: Sequence[str] | None = None,
    level: str = "chica",
    confidence: float = 0.95,
) -> pd.DataFrame:
    """The head-to-head table: win rate and points per data of every policy against every other.

    Parameters
    ----------
    pairs : dict of (a, b, level) to DataFrame
        The per-pair frames of the matches (:attr:`TournamentResult.pairs`, columns
        :data:`PAIR_COLUMNS`), one per unordered pair of policies.
    policies : sequence of str, optional
        Row order; default the policies in order of first appearance.
    level : str
        ``"chica"`` or ``"mesa"`` (:data:`TOURNAMENT_LEVELS`).
    confidence : float
        Two-sided level.

    Returns
    -------
    DataFrame
        One row per *ordered* pair ``(a, b)`` of distinct policies that played, columns
        :data:`HEAD_TO_HEAD_COLUMNS`: ``win_rate`` of ``a`` against ``b`` with its ``clustered
        wilson`` interval over duplicate pairs (:func:`match_summary`), ``points_per_data``
        (``a``'s side minus ``b``'s, ``ratio`` interval), ``pairs``, ``games`` and
        ``no_variation``. The row of ``(b, a)`` is the mirror image of ``(a, b)``: win rate
        ``1 - w`` with interval ``[1 - upper, 1 - lower]``, points ``-ppd`` (both intervals are
        symmetric under swapping the sides). No model is involved: this table is the primary
        result, the ratings only a summary of it.

    Raises
    ------
    ValueError
        On an unknown level, or a policy that is not in ``pairs``.
    """
    if level not in TOURNAMENT_LEVELS:
        raise ValueError(f"level must be one of {TOURNAMENT_LEVELS}, got {level!r}")
    stats.z_value(confidence)
    seen: list[str] = []
    for a, b, lev in pairs:
        if lev == level:
            seen += [p for p in (a, b) if p not in seen]
    order = list(policies) if policies is not None else seen
    missing = [p for p in order if p not in seen]
    if missing:
        raise ValueError(f"no {level} match of {missing} in the tournament's pairs")
    rows = []
    for (a, b, lev), frame in pairs.items():
        if lev != level or a not in order or b not in order:
            continue
        s = match_summary(frame, confidence)
        common = {"level": level, "pairs": s["pairs"], "games": s["games"]}
        flat = bool(s["no_variation"])
        rows.append(
            {
                "a": a,
                "b": b,
                **common,
                "win_rate": s["win_rate"],
                "lower": s["lower"],
                "upper": s["upper"],
                "points_per_data": s["points_per_data"],
                "ppd_lower": s["ppd_lower"],
                "ppd_upper": s["ppd_upper"],
                "no_variation": flat,
            }
        )
        rows.append(
            {
                "a": b,
                "b": a,
                **common,
                "win_rate": 1.0 - s["win_rate"],
                "lower": 1.0 - s["upper"],
                "upper": 1.0 - s["lower"],
                "points_per_data": -s["points_per_data"],
                "ppd_lower": -s["ppd_upper"],
                "ppd_upper": -s["ppd_lower"],
                "no_variation": flat,
            }
        )
    out = pd.DataFrame(rows, columns=list(HEAD_TO_HEAD_COLUMNS))
    out["win_method"] = "clustered wilson"
    out["ppd_method"] = "ratio"
    rank = {p: i for i, p in enumerate(order)}
    out = out.sort_values(["a", "b"], key=lambda c: c.map(rank), ignore_index=True)
    return out


def head_to_head_matrix(table: pd.DataFrame, value: str = "win_rate") -> pd.DataFrame:
    """One column of :func:`head_to_head` as a square matrix (row ``a``, column ``b``).

    Parameters
    ----------
    table : DataFrame
        :func:`head_to_head` output.
    value : str
        Column to spread, e.g. ``"win_rate"``, ``"lower"``, ``"points_per_data"``.

    Returns
    -------
    DataFrame
        Policies in the table's order on both axes; NaN on the diagonal and for pairs that
        did not play.

    Raises
    ------
    KeyError
        If ``value`` is not a column of ``table``.
    """
    order = list(dict.fromkeys(table["a"]))
    matrix = table.pivot(index="a", columns="b", values=value)
    return matrix.reindex(index=order, columns=order)


# --------------------------------------------------------------------------- tournaments
@dataclass(frozen=True)
class TournamentSettings:
    """Inputs of a round-robin duplicate tournament.

    Attributes
    ----------
    policies : tuple of str
        At least two distinct policy specs.
    rules : str
        Preset or slug (section S).
    players : int
        2 or 4 (R2.1).
    chicas : int
        Chicas per pair of policies (even, > 0): ``chicas / 2`` duplicate pairs.
    mesas : int
        Mesas per pair of policies (even, >= 0; 0 skips the mesa level).
    seed : int
        Seed of every match (the same decks for every pair).
    confidence : float
        Two-sided confidence level.
    bootstrap : int
        Bootstrap replicates of the ratings.
    threads : int or None
        numba threads (never changes the numbers).
    pair_sizes : tuple of (str, str, int, int)
        Per-pair overrides ``(a, b, chicas, mesas)`` (either order of ``a`` and ``b``), e.g.
        fewer games for pairs with a slow search policy; each match plays game indices ``0 ..
        chicas / 2 - 1`` on the same seed, so shorter matches play a prefix of the longer
        ones' deals (:func:`bootstrap_draws` resamples them together). Same rules as
        ``chicas`` and ``mesas``.
    """

    policies: tuple[str, ...]
    rules: str = "quito"
    players: int = 2
    chicas: int = 20_000
    mesas: int = 0
    seed: int = 0
    confidence: float = 0.95
    bootstrap: int = 1000
    threads: int | None = None
    pair_sizes: tuple[tuple[str, str, int, int], ...] = ()

    def __post_init__(self) -> None:
        if len(self.policies) < 2:
            raise ValueError(f"a tournament needs at least 2 policies, got {self.policies!r}")
        if len(set(self.policies)) != len(self.policies):
            raise ValueError(f"a policy is listed twice: {self.policies!r}")
        for name, low in (("chicas", 2), ("mesas", 0)):
            v = getattr(self, name)
            if not is_whole(v) or not low <= v <= 2 * MAX_RUN or v % 2:
                raise ValueError(
                    f"--{name} must be an even whole number from {low} to {2 * MAX_RUN:,} "
                    f"(games are played in duplicate pairs), got {v!r}"
                )
        whole_number(self.seed, "--seed", 0)
        whole_number(self.bootstrap, "bootstrap", 0, MAX_BOOTSTRAP)
        for entry in self.pair_sizes:
            if len(entry) != 4 or not {entry[0], entry[1]} <= set(self.policies):
                raise ValueError(
                    f"pair_sizes entries must be (a, b, chicas, mesas) of listed policies, "
                    f"got {entry!r}"
                )
            for name, v, low in (("chicas", entry[2], 2), ("mesas", entry[3], 0)):
                if not is_whole(v) or not low <= v <= 2 * MAX_RUN or v % 2:
                    raise ValueError(
                        f"pair_sizes {entry[0]} vs {entry[1]}: {name} must be an even whole "
                        f"number from {low} to {2 * MAX_RUN:,}, got {v!r}"
                    )
        stats.z_value(self.confidence)

    def sizes(self, a: str, b: str) -> tuple[int, int]:
        """Chicas and mesas of the match ``a`` vs ``b``: its :attr:`pair_sizes` entry, else
        :attr:`chicas` and :attr:`mesas`."""
        for x, y, chicas, mesas in self.pair_sizes:
            if {x, y} == {a, b}:
                return chicas, mesas
        return self.chicas, self.mesas


@dataclass
class TournamentResult:
    """Outcome of :func:`run_tournament`.

    Attributes
    ----------
    settings : TournamentSettings
    matches : DataFrame
        One row per (pair, level): ``a``, ``b``, ``level`` and the :func:`match_summary`
        columns.
    ratings : DataFrame
        :func:`ratings` of the chica results.
    pairs : dict of (a, b, level) to DataFrame
        The per-pair frames of :func:`play_duplicate`.
    seconds : float
        Wall time of the games.
    head_to_head : DataFrame or None
        :func:`head_to_head` of the chica results (the primary table).
    fit : BradleyTerryFit or None
        :func:`bradley_terry_fit` of the ratings (check ``fit.misfit`` before quoting them).
    """

    settings: TournamentSettings
    matches: pd.DataFrame
    ratings: pd.DataFrame
    pairs: dict[tuple[str, str, str], pd.DataFrame] = field(default_factory=dict)
    seconds: float = 0.0
    head_to_head: pd.DataFrame | None = None
    fit: BradleyTerryFit | None = None


def run_tournament(
    settings: TournamentSettings, play: PlayPair, progress: Progress | None = None
) -> TournamentResult:
    """Play every pair of ``settings.policies`` in duplicate with ``play`` and rate them.

    Parameters
    ----------
    settings : TournamentSettings
    play : callable
        ``play(a, b, level, n) -> DataFrame``: ``n`` duplicate pairs of games between policy
        specs ``a`` and ``b`` at ``level``, columns :data:`PAIR_COLUMNS` (for Cuarenta,
        :func:`cuarenta_sim.cuarenta.duplicate.play_duplicate` with the settings' rules,
        players, seed and threads; :func:`cuarenta_sim.cuarenta.strategy_play.cuarenta_tournament`
        wires it).
    progress : callable, optional
        Receives one line per match played.

    Returns
    -------
    TournamentResult

    Raises
    ------
    ValueError
        Whatever ``play`` raises for unknown policies or rules.
    """
    import time

    t0 = time.perf_counter()
    rows = []
    pairs: dict[tuple[str, str, str], pd.DataFrame] = {}
    chica_matches = []
    for (i, a), (j, b) in itertools.combinations(enumerate(settings.policies), 2):
        chicas, mesas = settings.sizes(a, b)
        levels = [("chica", chicas // 2)] + ([("mesa", mesas // 2)] if mesas else [])
        for level, n in levels:
            t = time.perf_counter()
            frame = play(a, b, level, n)
            pairs[(a, b, level)] = frame
            summary = match_summary(frame, settings.confidence)
            rows.append({"a": a, "b": b, "level": level, **summary})
            if level == "chica":
                chica_matches.append((i, j, frame["a_wins"].to_numpy(np.float64)))
            if progress is not None:
                progress(
                    f"{a} vs {b} ({level}, {2 * n:,} games): {a} wins "
                    f"{100 * summary['win_rate']:.2f}% [{100 * summary['lower']:.2f}, "
                    f"{100 * summary['upper']:.2f}] in {time.perf_counter() - t:.1f} s"
                )
    rating = ratings(
        settings.policies,
        chica_matches,
        confidence=settings.confidence,
        bootstrap=settings.bootstrap,
        seed=settings.seed,
    )
    return TournamentResult(
        settings=settings,
        matches=pd.DataFrame(rows),
        ratings=rating,
        pairs=pairs,
        seconds=time.perf_counter() - t0,
        head_to_head=head_to_head(pairs, settings.policies, "chica", settings.confidence),
        fit=bradley_terry_fit(settings.policies, chica_matches),
    )


def game_tournament(game: str) -> Any:
    """The module that plays ``game``'s tournaments: the game's
    :attr:`cuarenta_sim.game.Game.tournament_module` (``check_tournament``, ``tournament``,
    ``tournament_text``, ``tournament_identity``).

    Raises
    ------
    ValueError
        An unknown game, or a game without a duplicate match player (the message names those
        that have one).
    """
    import importlib

    from .game import GAMES, get_game

    module = get_game(game).tournament_module
    if module is None:
        having = [name for name, g in GAMES.items() if g.tournament_module is not None]
        raise ValueError(
            f"no duplicate tournament for game {game!r} yet (it has no duplicate match "
            f"player); tournaments are available for: {', '.join(having)}"
        )
    return importlib.import_module(module)
