"""The games of the strategies study: the duplicate tournament of Cuarenta policies, the folk
tactics as switches of the tuned heuristic, and the convergence replicates.

* :func:`cuarenta_tournament` (also :data:`tournament`, the game's tournament for the
  ``tournament`` command through :attr:`cuarenta_sim.game.Game.tournament_module`) plays
  every pair in duplicate (:func:`cuarenta_sim.tournament.run_tournament` with
  :func:`cuarenta_sim.cuarenta.duplicate.play_duplicate`); :func:`check_tournament` refuses
  bad settings before any game; pairs with a search policy play fewer chicas
  (:func:`search_pair_sizes`).
* :func:`tactic_experiments`: each folk tactic (:data:`TACTICS`) as an A/B switch of the
  ``heuristic`` policy.
* :func:`tournament_convergence`: the main match's running estimate and replicate seeds.

Built into ``reports/strategies`` by :func:`cuarenta_sim.cuarenta.strategies.strategies_study`.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from ..studies import StudySettings
from ..studies.convergence import convergence_note
from ..tournament import (
    Progress,
    TournamentResult,
    TournamentSettings,
    run_tournament,
)
from .duplicate import play_duplicate
from .policies import parse_policy
from .rules import resolve_rules
from .strategy_tables import pct_text, short_name
from .strategy_tables import tournament_text as tournament_text

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

    def tuned_weight(self) -> int:
        """The heuristic's tuned default for this parameter (milli-points; 0 when the tuner
        switched the tactic off).

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
        return int(defaults[self.name])

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
        ``with_weight`` (the "with" arm's weight, milli-points), ``tuned_weight`` (the
        heuristic's tuned default, milli-points: 0 when the tuner switched the tactic off), the
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
    from .tactics import check_chicas, family_verdicts, paired_match

    check_chicas(chicas)
    rows = []
    for tactic in tactics:
        on, off = tactic.specs(base)
        t0 = time.perf_counter()
        match = paired_match(
            on,
            off,
            rules=rules,
            players=players,
            chicas=chicas,
            seed=seed,
            confidence=confidence,
            threads=threads,
        )
        rows.append(
            {
                "tactic": tactic.name,
                "label": tactic.label,
                "with": on,
                "without": off,
                "with_weight": tactic.weight(),
                "tuned_weight": tactic.tuned_weight(),
                **match,
            }
        )
        if progress is not None:
            progress(
                f"tactic {tactic.label}: win rate {100 * match['win_rate']:.2f}% "
                f"[{100 * match['lower']:.2f}, {100 * match['upper']:.2f}] "
                f"({time.perf_counter() - t0:.1f} s)"
            )
    return family_verdicts(pd.DataFrame(rows), confidence=confidence)


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


def standing_sentence(results: dict[int, tuple[TournamentResult, pd.DataFrame]]) -> str:
    """Where ``learned`` (the base of the tactic experiments) stands against ``heuristic``."""
    result, _ = next(iter(results.values()))
    names = {parse_policy(p).name: p for p in result.settings.policies}
    table = result.head_to_head
    if "learned" in names and "heuristic" in names:
        r = table[(table["a"] == names["learned"]) & (table["b"] == names["heuristic"])].iloc[0]
        won = pct_text(r["win_rate"], r["lower"], r["upper"], 1)
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
