"""The player's guide: ``cuarenta-sim report players-guide`` (``reports/players-guide/``).

What to do at the table, in plain language, every claim with its interval, ``n`` and method:
win probabilities by score state (:mod:`.winprob`), caida risk, trailing vs capturing, where
the strong player departs from greedy and heuristic play, and the dealer's edge by source, by
deal and by seat (:mod:`.guide_analysis`). The sentences come from
``templates/players_guide.md.j2``; the methods section carries a convergence figure
(:func:`cuarenta_sim.studies.convergence.convergence_note`). Registered at import
(:func:`register_players_guide`); the game's study table in :mod:`.definition` names it.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from ..reports import Report, markdown_table, text_table
from ..studies import (
    GeneratedReport,
    Progress,
    Study,
    StudySettings,
    get_study,
    register_study,
    templates,
)
from ..studies.claims import render_claim
from ..studies.convergence import convergence_note
from ..studies.framework import played_sizes, provenance, say
from . import guide_analysis, guide_estimates, guide_figures, guide_tables, winprob
from .guide_claims import guide_claims
from .guide_runs import RUNS_HEADERS, guide_runs, runs_table
from .rules import resolve_rules

TEMPLATES = Path(__file__).with_name("templates")
#: Default ``--n``: datas of each level-data run (the other sizes follow, :func:`guide_sizes`).
DEFAULT_N = 200_000
#: Rules of the guide.
RULES = "quito"
#: Opponents the strong player is compared with.
OTHERS = ("greedy", "heuristic")
#: Replicate seeds of the convergence figure.
REPLICATES = 4
#: What the ``heuristic`` defaults were tuned on (``benchmarks/tune_heuristic.py``; the log and
#: the start in :mod:`cuarenta_sim.cuarenta.engine.heuristic`): no hand tuning.
HEURISTIC_TUNED = (
    "its weights tuned by coordinate search from hand-set starting weights, one weight at a "
    "time, each candidate against the current best `heuristic` in duplicate chicas, Quito, 2 "
    "players, kept when its win rate's 95% Wilson lower bound was above 50%; "
    "`benchmarks/tune_heuristic.py`"
)


def guide_sizes(settings: StudySettings) -> dict[str, int]:
    """Sizes of every part of the guide from ``--n`` (datas of the level-data runs).

    Returns
    -------
    dict
        ``datas`` (n), ``mesas`` (``--mesas`` or n / 20, win probabilities), ``decision_chicas``
        (n / 1,000, reference chicas with values), ``trace_datas`` (n / 50, deals and seats),
        ``duplicates`` (``--chicas`` or n / 50 duplicate pairs per opponent), each at least a
        small floor.
    """
    n = settings.n
    return {
        "datas": n,
        "mesas": settings.mesas if settings.mesas is not None else max(20, n // 20),
        "decision_chicas": max(2, n // 1000),
        "trace_datas": max(20, n // 50),
        "duplicates": settings.chicas if settings.chicas is not None else max(10, n // 50),
    }


@dataclass
class GuideReport(GeneratedReport):
    """A :class:`GeneratedReport` that also writes its CSV tables (``csv``: file stem -> frame)."""

    csv: dict[str, pd.DataFrame] | None = None

    def write(self, directory: str | Path) -> list[Path]:
        """Write the figures, ``provenance.json``, ``report.md`` and ``<stem>.csv`` files.

        Parameters
        ----------
        directory : str or Path

        Returns
        -------
        list of Path
        """
        written = super().write(directory)
        for stem, frame in (self.csv or {}).items():
            path = Path(directory) / f"{stem}.csv"
            winprob.write_table_csv(frame, path)
            written.append(path)
        return written


def _prose() -> Any:
    return templates.macros("players_guide.md.j2", directory=TEMPLATES)


def _speed(policy: str, n: int, seed: int, threads: int | None) -> float:
    """Datas per second of ``policy`` at level data (a short timed run, after warm-up)."""
    from ..simulation import simulate

    simulate("cuarenta", rules=RULES, players=2, policies=policy, n=2, seed=seed, threads=threads)
    t0 = time.perf_counter()
    simulate("cuarenta", rules=RULES, players=2, policies=policy, n=n, seed=seed, threads=threads)
    return n / max(time.perf_counter() - t0, 1e-9)


def players_guide(settings: StudySettings, progress: Progress | None = None) -> GeneratedReport:
    """Build the player's guide (see the module docstring).

    Parameters
    ----------
    settings : StudySettings
        ``n`` (datas of each level-data run; other sizes from :func:`guide_sizes`),
        ``policies`` (one spec: the strong player), ``seed``, ``confidence``, ``threads``,
        optional ``chicas`` (duplicate pairs) and ``mesas``.
    progress : callable, optional
        One-line progress messages.

    Returns
    -------
    GeneratedReport
        A :class:`GuideReport`: figures ``win_probability_chica``, ``win_probability_mesa``,
        ``caida_risk``, ``trail_value``, ``departures``, ``dealer_edge``, ``convergence``;
        CSVs ``win_probability_chica``, ``win_probability_mesa``, ``caida_risk``,
        ``dealer_edge``.
    """
    from ..simulation import simulate

    t0 = time.perf_counter()
    strong = settings.policies[0]
    conf = settings.confidence
    sizes = guide_sizes(settings)
    ruleset = resolve_rules(RULES)
    runs: list[dict[str, Any]] = []

    say(progress, f"speeds: timing {strong}, pimc, solver")
    speeds = {strong: _speed(strong, 2000, settings.seed, settings.threads)}
    for slow in ("pimc", "solver"):
        if slow != strong:
            speeds[slow] = _speed(slow, 20, settings.seed, settings.threads)

    chica_tables, mesa_tables, state_sets = [], [], {}
    for players in (2, 4):
        say(progress, f"win probabilities: {sizes['mesas']:,} mesas, {players} players, traced")
        states = winprob.deal_states(
            RULES, players, strong, sizes["mesas"], settings.seed, settings.threads
        )
        state_sets[players] = states
        chica_tables.append(
            winprob.win_probability_table(
                states, "chica", players=players, target=ruleset.target, confidence=conf
            )
        )
        mesa_tables.append(
            winprob.win_probability_table(
                states,
                "mesa",
                players=players,
                target=ruleset.target,
                chicas_to_win=ruleset.chicas_to_win,
                confidence=conf,
            )
        )
    wp_all = pd.concat(chica_tables, ignore_index=True)
    wp_mesa_all = pd.concat(mesa_tables, ignore_index=True)
    # The figures and the prose show 2 players; the CSVs hold both player counts.
    wp_chica = wp_all[wp_all["players"] == 2]
    wp_mesa = wp_mesa_all[wp_mesa_all["players"] == 2]
    states = state_sets[2]

    say(progress, f"decisions: {sizes['decision_chicas']:,} reference chicas with values")
    log = guide_analysis.decision_log(RULES, 2, strong, sizes["decision_chicas"], settings.seed)
    risk_seen = guide_analysis.caida_risk(log, ("seen",), conf)
    # Every decision-log section is scoped to the player count its run played (issue 18).
    dec_players = guide_tables.players_of(log)
    log_turn = log.assign(
        turn_group=np.where(log["turn"] < 3, "0-2", np.where(log["turn"] < 6, "3-5", "6-8"))
    )
    risk_turn = guide_analysis.caida_risk(log_turn, ("turn_group", "seen"), conf)
    risk_full = guide_analysis.caida_risk(log, ("rank", "turn", "seen"), conf)
    trail_tab = guide_analysis.trail_value(
        log.assign(table=np.minimum(log["table_cards"], 5)), ("table",), conf
    )
    trail_deal = guide_analysis.trail_value(log, ("deal",), conf)
    dep = guide_analysis.departures(log, ("deal",), conf)
    kinds = pd.concat(
        [guide_analysis.departure_kinds(log, v, conf) for v in ("greedy", "heuristic")],
        ignore_index=True,
    )
    dep_all = guide_analysis.departures(log.assign(all="all"), ("all",), conf)

    say(progress, f"gains: {sizes['duplicates']:,} duplicate chicas per opponent")
    others = [o for o in OTHERS if o != strong]
    gains = guide_analysis.policy_gains(
        strong,
        others,
        rules=RULES,
        n=sizes["duplicates"],
        seed=settings.seed,
        threads=settings.threads,
        confidence=conf,
    )

    edges, by_deal, by_seat, edge_runs = [], {}, None, {}
    for players in (2, 4):
        say(progress, f"dealer's edge: {sizes['datas']:,} datas, {players} players")
        res = simulate(
            "cuarenta",
            rules=RULES,
            players=players,
            policies=strong,
            n=sizes["datas"],
            seed=settings.seed,
            threads=settings.threads,
        )
        runs.append(res.provenance)
        edges.append(guide_analysis.dealer_edge_by_source(res.hands, players, conf))
        edge_runs[players] = res.hands
        d, s = guide_analysis.edge_by_deal_and_seat(
            RULES, players, strong, sizes["trace_datas"], settings.seed, conf
        )
        by_deal[players] = d
        if players == 4:
            by_seat = s
    edge = pd.concat(edges, ignore_index=True)
    say(progress, "dealer's edge under other players (range)")
    edge_panel = guide_analysis.panel_dealer_edge(
        RULES, sizes["datas"], seed=settings.seed, threads=settings.threads, confidence=conf
    )

    say(progress, f"convergence: {REPLICATES} replicate seeds")
    h2 = edge_runs[2]
    diff_main = _dealer_total(h2)
    reps = [diff_main]
    rep_runs = []
    for r in range(1, REPLICATES + 1):
        res = simulate(
            "cuarenta",
            rules=RULES,
            players=2,
            policies=strong,
            n=max(10, sizes["datas"] // 4),
            seed=settings.seed + r,
            threads=settings.threads,
        )
        reps.append(_dealer_total(res.hands))
        rep_runs.append(res.provenance)
    conv_text, conv_fig, conv_frame = convergence_note(
        reps,
        what="dealer's edge (points per data)",
        unit="datas",
        confidence=conf,
        reference=0.0,
    )

    prose = _prose()
    claims = guide_claims(
        wp_chica, risk_seen, dep_all, gains, edge, strong, edge_panel, players=dec_players
    )
    tuning = gains_tuning(strong, others)
    sentences = [render_claim(c) for c in claims]
    wall = time.perf_counter() - t0
    all_runs = guide_runs(
        strong,
        settings.seed,
        settings.n,
        sizes,
        others,
        [(p, 2000 if p == strong else 20) for p in speeds],
        runs,
        rep_runs,
    )
    prov = provenance(
        "players-guide",
        settings,
        runs,
        wall,
        rules=RULES,
        sizes=sizes,
        speeds_datas_per_s={k: round(v, 1) for k, v in speeds.items()},
    )
    # Every run the numbers come from, not only the headline level-data runs (issue 18).
    prov["runs"] = all_runs
    # Sizes as played by those runs, not as configured (issue 18: a level not played says so).
    prov.update(played_sizes(settings, all_runs))
    command = get_study("players-guide").command(settings)
    report = Report(
        title="A player's guide to Cuarenta (Quito rules)", provenance=prov, command=command
    )
    report.add("Summary", prose.summary(sentences, strong))
    report.add(
        "Who wins from here? Win probability by score",
        prose.winprob(
            settings,
            guide_tables.winprob_table(wp_chica, wp_mesa),
            winprob.MIN_N,
            int(states.groupby(["game", "chica"]).ngroups),
            int(states["game"].nunique()),
            guide_tables.players_of(wp_chica),
        ),
    )
    report.add(
        "When is trailing safe? Caida risk",
        prose.caida(
            guide_tables.risk_table(risk_seen),
            guide_tables.risk_table(risk_turn, "turn_group"),
            int(risk_seen["n"].sum()),
            sizes["decision_chicas"],
            _rule_sentences(),
            strong,
            dec_players,
        ),
    )
    report.add(
        "Trail or capture?",
        prose.trail(
            guide_tables.trail_table(trail_tab, "table", "cards on the table (5 = 5 or more)"),
            int(trail_tab["n"].sum()),
            guide_analysis.VALUE_POLICY,
            dec_players,
        ),
    )
    report.add(
        "Where strong play departs from greedy and heuristic play",
        prose.departs(
            guide_tables.departure_table(dep),
            guide_tables.kinds_table(kinds),
            guide_tables.gains_table(gains, strong),
            strong,
            HEURISTIC_TUNED,
            dec_players,
            guide_tables.players_of(gains) if len(gains) else dec_players,
            tuning,
        ),
    )
    report.add(
        "The dealer's and the mano's edge",
        prose.edge(
            "\n\n".join(
                x for x in (guide_tables.edge_table(edge), guide_tables.same_ronda_note(edge)) if x
            ),
            guide_tables.deal_table(by_deal),
            guide_tables.seat_table(by_seat),
            _rule_sentences(),
            strong,
            guide_tables.panel_table(edge_panel),
            guide_tables.players_of(edge_panel),
            guide_estimates.source_legend(),
        ),
    )
    why = _why(strong, speeds)
    sizes_text = (
        f"{sizes['mesas']:,} mesas per player count (win probabilities; figures 2 players); "
        f"{sizes['decision_chicas']:,} reference chicas (decisions, {dec_players} players); "
        f"{sizes['duplicates']:,} duplicate chica pairs per opponent; {sizes['datas']:,} datas "
        f"per player count (dealer's edge by source) and {sizes['trace_datas']:,} traced datas "
        f"per player count (by deal and seat); {REPLICATES} replicate runs of "
        f"{max(10, sizes['datas'] // 4):,} datas on seeds {settings.seed + 1} to "
        f"{settings.seed + REPLICATES} (convergence)"
    )
    speed_text = ", ".join(f"`{k}` {v:,.0f} datas/s" for k, v in speeds.items())
    report.add(
        "Methods",
        prose.methods(
            settings,
            strong,
            sizes_text,
            speed_text,
            why,
            f"Reproduce: `{command}` (wall time of this run: {wall:,.0f} s).",
            conv_text,
            markdown_table(list(RUNS_HEADERS), runs_table(all_runs), right=(3, 5, 6)),
        ),
    )

    figures = {
        "win_probability_chica": guide_figures.fig_winprob_chica(wp_chica, strong),
        "win_probability_mesa": guide_figures.fig_winprob_mesa(wp_mesa),
        "caida_risk": guide_figures.fig_caida(risk_turn, risk_seen, dec_players),
        "trail_value": guide_figures.fig_trail(trail_tab, trail_deal, dec_players),
        "departures": guide_figures.fig_departures(
            dep, gains, strong, dec_players, gains_tuning(strong, others, short=True)
        ),
        "dealer_edge": guide_figures.fig_edge(edge, by_deal, by_seat),
        "convergence": conv_fig,
    }
    text = text_table(
        ["source", "players", "dealer - mano, points per data", "n", "method"],
        [
            [r["source"], r["players"], guide_tables.row_cell(r), f"{int(r['n']):,}", r["method"]]
            for _, r in edge.iterrows()
        ],
        right=(1, 2, 3),
    )
    return GuideReport(
        name="players-guide",
        report=report,
        figures=figures,
        summary=prose.console(sentences, text),
        tables={
            "win_probability_chica": wp_all,
            "win_probability_mesa": wp_mesa_all,
            "caida_risk": risk_full,
            "trail_value": trail_tab,
            "departures": dep,
            "departure_kinds": kinds,
            "gains": gains,
            "dealer_edge": edge,
            "dealer_edge_panel": edge_panel,
            "convergence": conv_frame,
            "decisions": log,
        },
        csv={
            "win_probability_chica": wp_all,
            "win_probability_mesa": wp_mesa_all,
            "caida_risk": risk_full,
            "dealer_edge": edge,
        },
        claims=claims,
    )


def _dealer_total(hands: pd.DataFrame) -> np.ndarray:
    """Per-data points of the dealer's side minus the other side's (R3.3)."""
    side = hands["dealer"].to_numpy(np.int64) % 2
    p0 = hands["points_0"].to_numpy(np.float64)
    p1 = hands["points_1"].to_numpy(np.float64)
    return np.where(side == 0, p0 - p1, p1 - p0)


def _rule_sentences() -> dict[str, str]:
    """The guide's rule-of-thumb sentences by id (:mod:`.guide_rules`)."""
    from .guide_rules import GUIDE_RULES

    return {r.id: r.sentence for r in GUIDE_RULES}


def gains_tuning(strong: str, others: Sequence[str], short: bool = False) -> str:
    """How the players of the gains matches were tuned, in the other reports' words
    (:data:`cuarenta_sim.cuarenta.studies.common.TUNING`; ``short``: ``TUNING_SHORT``, for a
    figure's caption line).

    Parameters
    ----------
    strong : str
        The strong player's spec (``"learned"``, ``"learned(weights=learned_v2)"``).
    others : sequence of str
        Its opponents in the gains matches.

    Returns
    -------
    str
        One sentence without a final period; it says when ``strong`` meets the opponent its
        tuning was scored against, and names the untuned players.
    """
    from .studies.common import TUNING, TUNING_SHORT

    told = TUNING_SHORT if short else TUNING
    names = [strong.split("(")[0].strip(), *others]
    tuned = [told[n] for n in dict.fromkeys(names) if n in told]
    untuned = [n for n in dict.fromkeys(names) if n not in told]
    if short:
        return "; ".join([*tuned, *(f"{n}: not tuned" for n in untuned)])
    text = "The tuned players: " + "; ".join(tuned) if tuned else "No player here was tuned"
    if untuned:
        text += "; not tuned: " + ", ".join(f"`{n}`" for n in untuned)
    if names[0] == "learned" and "heuristic" in others:
        text += (
            "; so `learned` vs `heuristic` is the match `learned` was tuned to win, and its "
            "win rate there is no fair measure against an unseen opponent"
        )
    return text


def _why(strong: str, speeds: dict[str, float]) -> str:
    from .policies import parse_policy

    fast = speeds[strong]
    slow = ", ".join(f"`{k}` {v:,.0f}" for k, v in speeds.items() if k != strong)
    spec = parse_policy(strong)
    weights = dict(spec.values).get("weights") if spec.name == "learned" else None
    model = (
        f"`{strong}` is a linear model (weights `{weights}`, the policy run here: "
        f"`{spec.canonical}`) fitted by imitation of `pimc`, then tuned by evolution "
        f"strategies on its duplicate win rate against `heuristic` (Quito)"
        if weights
        else f"`{strong}` is the policy `{spec.canonical}`"
    )
    return (
        f"The guide's player is `{strong}`: at {fast:,.0f} datas/s it plays the default sizes "
        f"within the 10-minute budget, while the searching players ({slow} datas/s) would "
        f"need hours for the same sizes. {model}; how it fares against `greedy` and "
        f"`heuristic` is measured in the departures section."
    )


# --------------------------------------------------------------------------- registration
def check_guide(settings: StudySettings) -> None:
    """Checks before any simulation: one deterministic policy spec, sizes sane.

    Raises
    ------
    ValueError
        More than one policy, a policy that cannot seat 2 and 4 players, or ``random``.
    """
    from .policies import parse_policy, resolve_policies

    if len(settings.policies) != 1:
        raise ValueError(
            f"--policies takes one policy (the strong player), got {','.join(settings.policies)!r}"
        )
    spec = settings.policies[0]
    for count in (2, 4):
        try:
            resolve_policies((spec,), count)
        except ValueError as err:
            raise ValueError(f"--policies {spec!r}: {err}") from err
    if parse_policy(spec).name == "random":
        raise ValueError("--policies: the guide needs a deterministic player, not random")


def register_players_guide() -> None:
    """Register ``players-guide`` in :data:`cuarenta_sim.studies.STUDIES`."""
    from .studies import parse_options

    register_study(
        Study(
            name="players-guide",
            game="cuarenta",
            title="A player's guide",
            description="what to do at the table: win odds, caida risk, trailing, dealer's edge",
            defaults={"n": DEFAULT_N, "policies": ("learned",)},
            check=check_guide,
            build=players_guide,
            options=("policies", "chicas", "mesas"),
            refused={
                "players": "the guide plays 2 players and, for seats, 4",
                "rules": "the guide plays the quito rules",
            },
            reproduce=("policies", "chicas?", "mesas?"),
            parse=parse_options,
            player_rule="R2.1",
        )
    )


register_players_guide()
