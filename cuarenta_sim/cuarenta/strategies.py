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
  size (:func:`cuarenta_sim.bradley_terry.bootstrap_draws`).
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
from pathlib import Path
from typing import Any

import pandas as pd
from matplotlib.figure import Figure

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
from ..studies.framework import new_figure, provenance, say
from ..tournament import (
    TOURNAMENT_LEVELS,
    Progress,
    TournamentResult,
    TournamentSettings,
)
from .policies import parse_policy
from .rules import resolve_rules
from .strategy_claims import ratings_without_claim, solver_check_claim, strategy_claims
from .strategy_figures import dose_figure, matrix_figure, ratings_figure, sweep_figure
from .strategy_play import (
    DEFAULT_CHICAS,
    DEFAULT_POLICIES,
    MESA_DIVISOR,
    REPLICATES,
    SEARCH_DIVISOR,
    TACTIC_DIVISOR,
    TACTICS,
    cuarenta_tournament,
    search_pair_sizes,
    standing_sentence,
    tactic_experiments,
    tournament_convergence,
)
from .strategy_tables import (
    FIT_HEADERS,
    LEARNED_TACTIC_HEADERS,
    MATCH_HEADERS,
    RATING_HEADERS,
    TACTIC_HEADERS,
    fit_rows,
    fit_sentence,
    learned_tactic_rows,
    match_rows,
    matrix_headers,
    matrix_rows,
    own_weight_column,
    rating_rows,
    short_name,
    tactic_effect,
    tactic_rows,
    tournament_text,
    with_discordant,
)
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
from .tactic_ablation import CHECK_PAIRS
from .tactic_ablation_text import (
    ABLATION_HEADERS,
    CHECK_HEADERS,
    ablation_rows,
    check_rows,
)
from .tactic_ablation_text import headline as ablation_headline


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
        m = with_discordant(result)
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
        figures[f"head_to_head_{players}p"] = matrix_figure(result.head_to_head, players)
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
    # Every folk-tactic experiment plays the same decks with the same settings.
    experiment: dict[str, Any] = {
        "rules": settings.rules,
        "players": tactic_players,
        "chicas": tactic_chicas,
        "seed": settings.seed,
        "confidence": settings.confidence,
        "threads": settings.threads,
        "progress": progress,
    }
    say(progress, f"folk tactics forced on learned, {tactic_players} players")
    learned = learned_tactics(**experiment)
    labels = {t.name: t.label for t in TACTICS}
    learned["label"] = learned["tactic"].map(labels)
    learned["own_weight"] = own_weight_column(learned, tactic_players)
    tables["tactics_learned"] = learned
    figures["tactics_dose_response"] = dose_figure(learned)
    say(progress, f"folk tactics removed and reversed in learned, {tactic_players} players")
    ablation = learned_ablations(**experiment)
    say(progress, f"folk tactics as switches of the tuned heuristic, {tactic_players} players")
    tuned = tactic_experiments(**experiment)
    verdicts = tactic_verdicts(ablation, learned, tuned)
    check_pairs = max(2, min(CHECK_PAIRS, chicas // SEARCH_DIVISOR))
    say(progress, f"tactic check against solver, {check_pairs} duplicate pairs per match")
    check = solver_check(
        ablation,
        verdicts,
        pairs=check_pairs,
        **{k: v for k, v in experiment.items() if k not in ("chicas", "progress")},
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
            standing_sentence(results),
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
        figures["strength_vs_cost"] = sweep_figure(sweep, speeds)
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
                tactic_effect(r),
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
