"""Cuarenta's generated studies: Quito vs Cuenca, ronda and caida odds, rule sensitivity.

Registered at import in :data:`cuarenta_sim.studies.STUDIES` (``cuarenta-sim report NAME``;
:func:`register_cuarenta_studies`); each builder computes the numbers and tables and returns a
:class:`cuarenta_sim.studies.GeneratedReport` whose sentences come from the report's template
in ``cuarenta_sim/cuarenta/templates/`` (``quito_vs_cuenca.md.j2``, ``odds.md.j2``,
``sensitivity.md.j2``).
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pandas as pd
from matplotlib.figure import Figure

from .. import plotting
from ..reports import Report, markdown_table, text_table
from ..studies import (
    GeneratedReport,
    Progress,
    Study,
    StudySettings,
    cell,
    register_study,
    templates,
)
from ..studies import diff_cell as _diff_cell
from ..studies import rel_cell as _rel_cell
from ..studies import row_cell as _row_cell
from ..studies.framework import new_figure as _new_figure
from ..studies.framework import provenance as _provenance
from ..studies.framework import say as _say
from . import analysis, compare
from .rules import resolve_rules

#: Templates of the Cuarenta reports (package data).
TEMPLATES = Path(__file__).with_name("templates")


def _prose(report: str) -> Any:
    """The section macros of a report's template (``templates/<report>.md.j2``)."""
    return templates.macros(f"{report}.md.j2", directory=TEMPLATES)


def _unresolved(diffs: pd.DataFrame, label_cols: Sequence[str]) -> str:
    bad = diffs[diffs["verdict"].isin(["not resolved", "undefined"])]
    rows = [
        [
            *(str(r[c]) for c in label_cols),
            str(r["label"]),
            _diff_cell(r, percent=r["metric"] in PERCENT_METRICS),
            f"{int(r['differing']):,} of {int(r['n']):,}",
            r["verdict"],
        ]
        for _, r in bad.iterrows()
    ]
    table = markdown_table(
        [*label_cols, "metric", "difference [interval]", "pairs that differ", "verdict"],
        rows,
        right=(len(label_cols) + 1, len(label_cols) + 2),
    )
    return _prose("common").resolution(len(bad), table)


# =========================================================================== quito vs cuenca
#: Metrics of the Quito vs Cuenca summary table, in order.
SUMMARY_METRICS = (
    "datas_per_chica",
    "points",
    "share_limpia",
    "dealer_advantage",
    "first_dealer_wins",
    "zapateria",
    "decided_at_38",
    "chicas_per_mesa",
    "ronda_dealt",
    "caidas_per_play",
    "caidas_limpias_per_play",
)
PERCENT_METRICS = {
    "first_dealer_wins",
    "zapateria",
    "decided_at_38",
    "ronda_dealt",
    "mesa_zapateria",
    "caidas_per_play",
    "limpias_per_play",
    "caidas_limpias_per_play",
    "rondas_per_hand",
    "doble_rondas_per_hand",
    "share_carton",
    "share_caida",
    "share_limpia",
    "share_ronda",
    "share_other",
}


def quito_vs_cuenca(settings: StudySettings, progress: Progress | None = None) -> GeneratedReport:
    """Paired comparison of Quito and Cuenca scoring (R7.2) for each player count.

    For every player count: ``settings.n`` datas (level data), ``n_chicas`` chicas and
    ``n_mesas`` mesas under each preset, all with ``settings.seed`` (same decks), compared with
    :func:`cuarenta_sim.cuarenta.compare.compare_rules` on
    :func:`cuarenta_sim.cuarenta.compare.cuarenta_metrics`.

    Parameters
    ----------
    settings : StudySettings
        Sizes, seed, players, policies, confidence, threads.
    progress : callable, optional
        Receives one-line progress messages.

    Returns
    -------
    GeneratedReport
        Figures ``points_by_source``, ``chica_length``, ``win_probability``; tables
        ``estimates``, ``differences`` (with a ``players`` column), ``summary``,
        ``win_probability``, ``chica_length``, ``odds``.
    """
    t0 = time.perf_counter()
    estimates, differences, runs = [], [], []
    lengths, winprob, odds_rows = [], [], []
    for players in settings.players:
        comp = compare.compare_rules(
            {"quito": "quito", "cuenca": "cuenca"},
            players=players,
            policies=settings.policies,
            n_datas=settings.n,
            n_chicas=settings.n_chicas,
            n_mesas=settings.n_mesas,
            seed=settings.seed,
            confidence=settings.confidence,
            threads=settings.threads,
            keep=("chica", "chica_hands", "data"),
            on_variant=lambda v, p=players: _say(progress, f"simulating {v}, {p} players"),
        )
        runs += comp.meta["runs"]
        estimates.append(comp.estimates.assign(players=players))
        differences.append(comp.differences.assign(players=players))
        for variant, frames in comp.frames.items():
            dist = analysis.length_distribution(frames["chica"]["hands"], settings.confidence)
            lengths.append(dist.assign(variant=variant, players=players))
            wp = analysis.win_probability_by_score(
                frames["chica_hands"],
                frames["chica"],
                players=players,
                confidence=settings.confidence,
            )
            winprob.append(wp.assign(variant=variant, players=players))
        odds_rows.append(
            analysis.odds_check(comp.frames["quito"]["data"], players, settings.confidence)
        )
        del comp
    est = pd.concat(estimates, ignore_index=True)
    diff = pd.concat(differences, ignore_index=True)
    length = pd.concat(lengths, ignore_index=True)
    wins = pd.concat(winprob, ignore_index=True)
    odds_table = pd.concat(odds_rows, ignore_index=True)

    summary = _qc_summary(est, diff, settings)
    report = Report(
        title="Quito vs Cuenca scoring: paired simulation",
        provenance=_provenance(
            "quito-vs-cuenca",
            settings,
            runs,
            time.perf_counter() - t0,
            rules={"quito": "quito", "cuenca": "cuenca"},
        ),
        command=settings.command("quito-vs-cuenca"),
    )
    prose = _prose("quito_vs_cuenca")
    report.add(
        "Summary",
        prose.summary(
            settings,
            markdown_table(list(summary.columns), summary.to_numpy().tolist(), right=(2, 3, 4, 5)),
        ),
    )
    report.add("How much does Cuenca scoring shorten a chica?", _qc_shorten(est, diff, settings))
    report.add("Where do a data's points come from?", _qc_sources(est, diff, settings))
    report.add("How big is the dealer's advantage?", _qc_dealer(est, diff, settings))
    report.add("How often is a ronda dealt?", _qc_rondas(odds_table, settings))
    report.add("How often is a play a caida?", _qc_caidas(est, diff, settings))
    report.add("Win probability by score state", _qc_winprob(wins, settings))
    report.add("All metrics", _qc_all(est, diff, settings))
    report.add("Resolution", _unresolved(diff, ["players"]))
    report.add("Methods", _qc_methods(est, settings))

    figures = {
        "points_by_source": _fig_sources(est, settings),
        "chica_length": _fig_lengths(length, settings),
        "win_probability": _fig_winprob(wins, settings),
    }
    text = text_table(list(summary.columns), summary.to_numpy().tolist(), right=(2, 3, 4, 5))
    return GeneratedReport(
        name="quito-vs-cuenca",
        report=report,
        figures=figures,
        summary=prose.console(settings, text),
        tables={
            "estimates": est,
            "differences": diff,
            "summary": summary,
            "win_probability": wins,
            "chica_length": length,
            "odds": odds_table,
        },
    )


def _est_row(est: pd.DataFrame, players: int, variant: str, metric: str) -> pd.Series:
    sel = est[(est["players"] == players) & (est["variant"] == variant) & (est["metric"] == metric)]
    return sel.iloc[0]


def _diff_row(diff: pd.DataFrame, players: int, metric: str) -> pd.Series:
    sel = diff[(diff["players"] == players) & (diff["metric"] == metric)]
    return sel.iloc[0]


def _qc_summary(est: pd.DataFrame, diff: pd.DataFrame, s: StudySettings) -> pd.DataFrame:
    rows = []
    for metric in SUMMARY_METRICS:
        for players in s.players:
            q = _est_row(est, players, "quito", metric)
            c = _est_row(est, players, "cuenca", metric)
            d = _diff_row(diff, players, metric)
            pct = metric in PERCENT_METRICS
            rows.append(
                [
                    q["label"],
                    players,
                    _row_cell(q, percent=pct),
                    _row_cell(c, percent=pct),
                    _diff_cell(d, percent=pct),
                    _rel_cell(d),
                    d["verdict"],
                ]
            )
    return pd.DataFrame(
        rows,
        columns=["metric", "players", "Quito", "Cuenca", "Cuenca - Quito", "relative", "verdict"],
    )


def _qc_shorten(est: pd.DataFrame, diff: pd.DataFrame, s: StudySettings) -> str:
    items = [
        {
            "players": p,
            "q": _est_row(est, p, "quito", "datas_per_chica"),
            "c": _est_row(est, p, "cuenca", "datas_per_chica"),
            "d": _diff_row(diff, p, "datas_per_chica"),
            "pts": _diff_row(diff, p, "points"),
        }
        for p in s.players
    ]
    return _prose("quito_vs_cuenca").shorten(items)


def _qc_sources(est: pd.DataFrame, diff: pd.DataFrame, s: StudySettings) -> str:
    rows = []
    for p in s.players:
        for src in compare.POINT_SOURCES:
            cells = [src, p]
            for v in ("quito", "cuenca"):
                cells.append(_row_cell(_est_row(est, p, v, f"points_{src}")))
                cells.append(_row_cell(_est_row(est, p, v, f"share_{src}"), percent=True))
            cells.append(_row_cell(_diff_row(diff, p, f"points_{src}")))
            rows.append(cells)
        tot = [_row_cell(_est_row(est, p, v, "points")) for v in ("quito", "cuenca")]
        rows.append(
            ["**all**", p, tot[0], "100%", tot[1], "100%", _row_cell(_diff_row(diff, p, "points"))]
        )
    table = markdown_table(
        [
            "source",
            "players",
            "Quito points/data",
            "Quito share",
            "Cuenca points/data",
            "Cuenca share",
            "Cuenca - Quito points/data",
        ],
        rows,
        right=(2, 3, 4, 5, 6),
    )
    return _prose("quito_vs_cuenca").sources(table)


def _qc_dealer(est: pd.DataFrame, diff: pd.DataFrame, s: StudySettings) -> str:
    items = []
    for p in s.players:
        variants = []
        for v, name in (("quito", "Quito"), ("cuenca", "Cuenca")):
            win = _est_row(est, p, v, "first_dealer_wins")
            edge = cell(
                win["estimate"] - 0.5,
                win["lower"] - 0.5,
                win["upper"] - 0.5,
                bool(win["defined"]),
                percent=True,
                suffix=" pp",
            )
            variants.append(
                {
                    "name": name,
                    "adv": _est_row(est, p, v, "dealer_advantage"),
                    "win": win,
                    "edge": edge,
                }
            )
        items.append(
            {
                "players": p,
                "variants": variants,
                "d": _diff_row(diff, p, "dealer_advantage"),
                "dw": _diff_row(diff, p, "first_dealer_wins"),
            }
        )
    return _prose("quito_vs_cuenca").dealer(items)


def _qc_rondas(odds_table: pd.DataFrame, s: StudySettings) -> str:
    rows = []
    for _, r in odds_table.iterrows():
        if r["event"] not in ("ronda", "doble_ronda") or r["scope"] not in (
            "hand",
            "side 0",
            "anyone",
        ):
            continue
        pct = r["scope"] != "per data"
        rows.append(
            [
                r["event"].replace("_", " "),
                r["scope"].replace("side 0", "side"),
                r["players"],
                f"{100 * r['exact']:.4f}%",
                _row_cell(r, percent=pct),
                f"{int(r['n']):,}",
                r["method"],
                "yes" if r["within"] else "**no**",
            ]
        )
    return _prose("quito_vs_cuenca").rondas(
        markdown_table(
            [
                "event",
                "scope",
                "players",
                "exact",
                "simulated [interval]",
                "n",
                "method",
                "exact inside",
            ],
            rows,
            right=(3, 4, 5),
        )
    )


def _qc_caidas(est: pd.DataFrame, diff: pd.DataFrame, s: StudySettings) -> str:
    rows = []
    verdicts = set()
    for p in s.players:
        for metric in (
            "caidas_per_play",
            "limpias_per_play",
            "caidas_limpias_per_play",
            "caidas_per_data",
        ):
            q = _est_row(est, p, "quito", metric)
            c = _est_row(est, p, "cuenca", metric)
            d = _diff_row(diff, p, metric)
            verdicts.add(d["verdict"])
            pct = metric in PERCENT_METRICS
            rows.append(
                [
                    q["label"],
                    p,
                    _row_cell(q, percent=pct),
                    _row_cell(c, percent=pct),
                    _diff_cell(d, percent=pct),
                    d["verdict"],
                    q["method"],
                ]
            )
    table = markdown_table(
        ["metric", "players", "Quito", "Cuenca", "Cuenca - Quito", "verdict", "method"],
        rows,
        right=(2, 3, 4),
    )
    return _prose("quito_vs_cuenca").caidas(table, verdicts == {"identical"})


def _qc_winprob(wins: pd.DataFrame, s: StudySettings) -> str:
    rows = []
    for p in s.players:
        for v in ("quito", "cuenca"):
            sub = wins[(wins["players"] == p) & (wins["variant"] == v)]
            for own, opp in ((10, 10), (20, 20), (30, 20), (20, 30), (38, 30), (30, 38), (38, 38)):
                r = sub[(sub["own_score"] == own) & (sub["opponent_score"] == opp)].iloc[0]
                rows.append([p, v, f"{own}-{opp}", _row_cell(r, percent=True), f"{int(r['n']):,}"])
    return _prose("quito_vs_cuenca").winprob(
        markdown_table(
            ["players", "rules", "own-opponent", "P(win) [interval]", "n"], rows, right=(3, 4)
        )
    )


def _qc_all(est: pd.DataFrame, diff: pd.DataFrame, s: StudySettings) -> str:
    items = []
    for p in s.players:
        rows = []
        for _, q in est[(est["players"] == p) & (est["variant"] == "quito")].iterrows():
            c = _est_row(est, p, "cuenca", q["metric"])
            d = _diff_row(diff, p, q["metric"])
            pct = q["metric"] in PERCENT_METRICS
            rows.append(
                [
                    q["label"],
                    q["level"],
                    _row_cell(q, percent=pct),
                    _row_cell(c, percent=pct),
                    f"{int(q['n']):,}",
                    q["method"],
                    _diff_cell(d, percent=pct),
                    d["method"],
                    d["verdict"],
                ]
            )
        items.append(
            {
                "players": p,
                "table": markdown_table(
                    [
                        "metric",
                        "level",
                        "Quito",
                        "Cuenca",
                        "n",
                        "method",
                        "Cuenca - Quito",
                        "method",
                        "verdict",
                    ],
                    rows,
                    right=(2, 3, 4, 6),
                ),
            }
        )
    return _prose("quito_vs_cuenca").all_metrics(items)


def _truncated(est: pd.DataFrame, players: int, variant: str) -> int:
    """Chicas stopped after 10,000 datas: counted by ``datas_per_chica`` (every chica) but
    not by ``first_dealer_wins`` (finished chicas only)."""
    every = _est_row(est, players, variant, "datas_per_chica")["n"]
    finished = _est_row(est, players, variant, "first_dealer_wins")["n"]
    return int(every - finished)


def _qc_methods(est: pd.DataFrame, s: StudySettings) -> str:
    truncated = sum(_truncated(est, p, v) for p in s.players for v in ("quito", "cuenca"))
    return _prose("quito_vs_cuenca").methods(s, truncated)


def _fig_sources(est: pd.DataFrame, s: StudySettings) -> Figure:
    fig, axes = _new_figure(1, len(s.players))
    for ax, p in zip(axes[0], s.players, strict=True):
        rows = []
        for v in ("quito", "cuenca"):
            for src in compare.POINT_SOURCES:
                r = _est_row(est, p, v, f"points_{src}")
                rows.append(
                    {
                        "source": src,
                        "variant": v,
                        **r[["estimate", "lower", "upper", "defined"]].to_dict(),
                    }
                )
        plotting.points_by_source(
            pd.DataFrame(rows), ax=ax, title=f"Points per data by source, {p} players"
        )
    return fig


def _fig_lengths(length: pd.DataFrame, s: StudySettings) -> Figure:
    fig, axes = _new_figure(1, len(s.players))
    for ax, p in zip(axes[0], s.players, strict=True):
        plotting.length_distribution(
            length[length["players"] == p], ax=ax, title=f"Datas per chica, {p} players"
        )
    return fig


def _fig_winprob(wins: pd.DataFrame, s: StudySettings) -> Figure:
    fig, axes = _new_figure(len(s.players), 2, (5.5, 4.5))
    for i, p in enumerate(s.players):
        for j, v in enumerate(("quito", "cuenca")):
            sub = wins[(wins["players"] == p) & (wins["variant"] == v)]
            plotting.score_heatmap(
                sub,
                ax=axes[i, j],
                title=f"P(next dealer's side wins), {v}, {p} players",
                colorbar=j == 1,
            )
    return fig


# =========================================================================== odds
def odds_study(settings: StudySettings, progress: Progress | None = None) -> GeneratedReport:
    """Exact ronda / doble ronda odds against simulation; caida rate per play; caida risk.

    For every player count: ``settings.n`` level-data datas under ``settings.rules`` give the
    simulated rondas (:func:`cuarenta_sim.cuarenta.analysis.odds_check`) and the caida rates; the
    caida
    risk check counts ``settings.n`` of the simulator's decks
    (:func:`cuarenta_sim.cuarenta.analysis.caida_risk_check`).

    Parameters
    ----------
    settings : StudySettings
        Sizes, seed, players, policies, rules, confidence, threads.
    progress : callable, optional
        Receives one-line progress messages.

    Returns
    -------
    GeneratedReport
        Figure ``exact_vs_simulated``; tables ``odds``, ``caida_rates``, ``caida_risk``,
        ``caida_risk_check``.
    """
    t0 = time.perf_counter()
    rules = resolve_rules(settings.rules)
    runs: list[dict[str, Any]] = []
    tables, rates = [], []
    metrics = [
        m
        for m in compare.cuarenta_metrics()
        if m.name
        in ("caidas_per_play", "caidas_per_data", "caidas_limpias_per_play", "limpias_per_play")
    ]
    for p in settings.players:
        _say(progress, f"simulating {rules.slug()}, {p} players")
        frames = compare.simulate_frames(
            rules,
            players=p,
            policies=settings.policies,
            n_datas=settings.n,
            seed=settings.seed,
            threads=settings.threads,
            runs=runs,
        )
        tables.append(analysis.odds_check(frames["data"], p, settings.confidence))
        rates.append(
            compare.estimate_metrics(frames, metrics, settings.confidence).assign(players=p)
        )
        del frames
    _say(progress, "counting caida risk on the simulator's decks")
    odds_table = pd.concat(tables, ignore_index=True)
    rate = pd.concat(rates, ignore_index=True)
    risk = analysis.caida_risk_table()
    check = analysis.caida_risk_check(settings.n, settings.seed, settings.confidence)

    report = Report(
        title="Ronda and caida odds: exact vs simulated",
        provenance=_provenance(
            "odds",
            settings,
            runs,
            time.perf_counter() - t0,
            rules=rules.slug(),
            caida_risk_decks=settings.n,
        ),
        command=settings.command("odds"),
    )
    prose = _prose("odds")
    ronda = odds_table[(odds_table["event"] == "ronda") & (odds_table["scope"] == "anyone")]
    report.add(
        "Summary",
        prose.summary(
            settings,
            int(odds_table["within"].sum()),
            len(odds_table),
            ronda.iloc[0],
            [(p, _rate(rate, p, "caidas_per_play")) for p in settings.players],
            rules.slug(),
        ),
    )
    report.add("Dealing odds (R4)", _odds_section(odds_table))
    report.add("Caida rate per play", _rates_section(rate, rules.slug(), settings))
    report.add("Caida risk (R6.1)", _risk_section(risk, check, settings))
    report.add("Methods", prose.methods())
    fig, axes = _new_figure(1, len(settings.players), (6.5, 6.0))
    for ax, p in zip(axes[0], settings.players, strict=True):
        sub = odds_table[odds_table["players"] == p]
        plotting.exact_vs_simulated(
            sub.assign(label=sub["event"] + ", " + sub["scope"]),
            ax=ax,
            title=f"Simulated vs exact, {p} players",
        )
    summary_rows = [
        [
            r["event"],
            r["scope"],
            r["players"],
            f"{r['exact']:.6f}",
            _row_cell(r),
            "yes" if r["within"] else "no",
        ]
        for _, r in odds_table.iterrows()
    ]
    text = text_table(
        ["event", "scope", "players", "exact", "simulated [interval]", "inside"],
        summary_rows,
        right=(2, 3, 4),
    )
    return GeneratedReport(
        name="odds",
        report=report,
        figures={"exact_vs_simulated": fig},
        summary=prose.console(settings, text),
        tables={
            "odds": odds_table,
            "caida_rates": rate,
            "caida_risk": risk,
            "caida_risk_check": check,
        },
    )


def _rate(rate: pd.DataFrame, players: int, metric: str) -> pd.Series:
    return rate[(rate["players"] == players) & (rate["metric"] == metric)].iloc[0]


def _odds_section(t: pd.DataFrame) -> str:
    rows = []
    for _, r in t.iterrows():
        frac = r["exact_fraction"] if len(r["exact_fraction"]) <= 24 else "(long fraction)"
        pct = r["scope"] != "per data"
        exact = f"{100 * r['exact']:.4f}%" if pct else f"{r['exact']:.5f}"
        rows.append(
            [
                r["event"].replace("_", " "),
                r["scope"],
                r["players"],
                exact,
                frac,
                _row_cell(r, percent=pct),
                f"{int(r['n']):,}",
                r["method"],
                "yes" if r["within"] else "**no**",
            ]
        )
    return _prose("odds").dealing(
        markdown_table(
            [
                "event",
                "scope",
                "players",
                "exact",
                "exact fraction",
                "simulated [interval]",
                "n",
                "method",
                "exact inside",
            ],
            rows,
            right=(3, 5, 6),
        )
    )


def _rates_section(rate: pd.DataFrame, slug: str, s: StudySettings) -> str:
    rows = []
    for _, r in rate.iterrows():
        pct = r["metric"].endswith("per_play")
        rows.append(
            [r["label"], r["players"], _row_cell(r, percent=pct), f"{int(r['n']):,}", r["method"]]
        )
    return _prose("odds").rates(
        s,
        slug,
        markdown_table(
            ["metric", "players", "estimate [interval]", "datas", "method"], rows, right=(2, 3)
        ),
    )


def _risk_section(risk: pd.DataFrame, check: pd.DataFrame, s: StudySettings) -> str:
    cols = [c for c in risk.columns if c != "seen"]
    rows = [[int(r["seen"]), *(f"{100 * r[c]:.1f}%" for c in cols)] for _, r in risk.iterrows()]
    crow = [
        [
            int(r["seen"]),
            f"{100 * r['exact']:.3f}%",
            _row_cell(r, percent=True),
            f"{int(r['trials']):,}",
            f"{int(r['n']):,}",
            r["method"],
            "yes" if r["within"] else "**no**",
        ]
        for _, r in check.iterrows()
    ]
    return _prose("odds").risk(
        s,
        markdown_table(["seen", *cols], rows, right=tuple(range(1, len(cols) + 1))),
        markdown_table(
            ["seen", "exact", "counted [interval]", "ranks", "decks", "method", "exact inside"],
            crow,
            right=(1, 2, 3, 4),
        ),
    )


# =========================================================================== sensitivity
#: Metrics shown as tornado charts in the sensitivity report, in order.
TORNADO_METRICS = (
    "datas_per_chica",
    "points",
    "dealer_advantage",
    "first_dealer_wins",
    "zapateria",
    "decided_at_38",
    "chicas_per_mesa",
    "caidas_per_play",
)


def sensitivity_study(settings: StudySettings, progress: Progress | None = None) -> GeneratedReport:
    """Flip each switch of ``settings.rules`` alone; paired effects on every metric.

    Uses :func:`cuarenta_sim.cuarenta.compare.sensitivity` for every player count: the base and each
    flipped rule set play ``n`` datas, ``n_chicas`` chicas and ``n_mesas`` mesas on the same
    decks.

    Parameters
    ----------
    settings : StudySettings
        Sizes, seed, players, policies, base rules, confidence, threads.
    progress : callable, optional
        Receives one-line progress messages.

    Returns
    -------
    GeneratedReport
        One tornado figure per metric of :data:`TORNADO_METRICS` (``tornado_<metric>``);
        tables ``estimates``, ``differences`` (with a ``players`` column).
    """
    t0 = time.perf_counter()
    base = resolve_rules(settings.rules)
    estimates, differences, runs = [], [], []
    for p in settings.players:
        comp = compare.sensitivity(
            base,
            players=p,
            policies=settings.policies,
            n_datas=settings.n,
            n_chicas=settings.n_chicas,
            n_mesas=settings.n_mesas,
            seed=settings.seed,
            confidence=settings.confidence,
            threads=settings.threads,
            on_variant=lambda v, p=p: _say(progress, f"simulating {v}, {p} players"),
        )
        runs += comp.meta["runs"]
        estimates.append(comp.estimates.assign(players=p))
        differences.append(comp.differences.assign(players=p))
    est = pd.concat(estimates, ignore_index=True)
    diff = pd.concat(differences, ignore_index=True)
    flips = list(dict.fromkeys(diff["variant"]))

    prose = _prose("sensitivity")
    report = Report(
        title=prose.title(base.slug()),
        provenance=_provenance(
            "sensitivity", settings, runs, time.perf_counter() - t0, base=base.slug(), flips=flips
        ),
        command=settings.command("sensitivity"),
    )
    summary = _sens_summary(diff, settings)
    report.add(
        "Summary",
        prose.summary(
            settings,
            base.slug(),
            markdown_table(
                list(summary.columns),
                summary.to_numpy().tolist(),
                right=tuple(range(2, summary.shape[1])),
            ),
        ),
    )
    for metric in TORNADO_METRICS:
        report.add(prose.heading(_label(est, metric)), _sens_metric(est, diff, metric, settings))
    report.add("Resolution", _unresolved(diff, ["players", "variant"]))
    report.add("Methods", prose.methods(base.slug(), _base_table(est)))
    figures = {}
    for metric in TORNADO_METRICS:
        fig, axes = _new_figure(1, len(settings.players), (6.5, 0.32 * len(flips) + 1.6))
        for ax, p in zip(axes[0], settings.players, strict=True):
            sub = diff[(diff["players"] == p) & (diff["metric"] == metric)]
            plotting.tornado(
                sub, ax=ax, xlabel=f"effect on {_label(est, metric)}", title=f"{p} players"
            )
        figures[f"tornado_{metric}"] = fig
    text = text_table(
        list(summary.columns), summary.to_numpy().tolist(), right=tuple(range(2, summary.shape[1]))
    )
    return GeneratedReport(
        name="sensitivity",
        report=report,
        figures=figures,
        summary=prose.console(settings, base.slug(), text),
        tables={"estimates": est, "differences": diff, "summary": summary},
    )


def _label(est: pd.DataFrame, metric: str) -> str:
    return str(est.loc[est["metric"] == metric, "label"].iloc[0])


def _mark(row: Mapping[str, Any], *, percent: bool = False) -> str:
    text = _diff_cell(row, percent=percent)
    return {"not resolved": "~ ", "identical": "= ", "undefined": "? "}.get(
        row["verdict"], ""
    ) + text


def _sens_summary(diff: pd.DataFrame, s: StudySettings) -> pd.DataFrame:
    head = ("datas_per_chica", "points", "first_dealer_wins", "zapateria")
    rows = []
    for (variant, p), sub in diff.groupby(["variant", "players"], sort=False):
        by = sub.set_index("metric")
        rows.append([variant, p, *(_mark(by.loc[m], percent=m in PERCENT_METRICS) for m in head)])
    return pd.DataFrame(
        rows,
        columns=[
            "flip",
            "players",
            "datas per chica",
            "points per data",
            "P(first dealer wins chica)",
            "P(zapateria)",
        ],
    )


def _sens_metric(est: pd.DataFrame, diff: pd.DataFrame, metric: str, s: StudySettings) -> str:
    pct = metric in PERCENT_METRICS
    bases = []
    for p in s.players:
        b = est[(est["players"] == p) & (est["variant"] == "base") & (est["metric"] == metric)]
        bases.append((p, b.iloc[0]))
    sub = diff[diff["metric"] == metric]
    first = sub[sub["players"] == s.players[0]]
    order = first.assign(a=first["estimate"].abs()).sort_values(
        "a", ascending=False, kind="stable"
    )["variant"]
    rows = []
    for v in order:
        cells = [v]
        for p in s.players:
            r = sub[(sub["players"] == p) & (sub["variant"] == v)].iloc[0]
            cells += [_row_cell(r, percent=pct), r["verdict"]]
        rows.append(cells)
    headers = ["flip"]
    for p in s.players:
        headers += [f"effect, {p} players", "verdict"]
    method = sub["method"].iloc[0] if len(sub) else ""
    table = markdown_table(headers, rows, right=tuple(range(1, len(headers), 2)))
    return _prose("sensitivity").metric(s, metric, bases, pct, method, table)


def _base_table(est: pd.DataFrame) -> str:
    rows = []
    for _, r in est[est["variant"] == "base"].iterrows():
        rows.append(
            [
                r["label"],
                r["players"],
                _row_cell(r, percent=r["metric"] in PERCENT_METRICS),
                f"{int(r['n']):,}",
                r["method"],
            ]
        )
    return markdown_table(
        ["metric (base)", "players", "estimate [interval]", "n", "method"], rows, right=(2, 3)
    )


# =========================================================================== registration
#: Default datas per rule set and player count (level data) of each rule study.
DEFAULT_N = {"quito-vs-cuenca": 1_000_000, "odds": 1_000_000, "sensitivity": 500_000}


def parse_options(values: dict[str, Any]) -> dict[str, Any]:
    """Cuarenta's parsing of report options: policy lists and rules.

    Parameters
    ----------
    values : dict
        Option values with the study's defaults filled (see
        :meth:`cuarenta_sim.studies.Study.settings`); ``policies`` a tuple holding one
        comma-separated string (as typed) or the specs, ``rules`` a preset or slug.

    Returns
    -------
    dict
        :class:`~cuarenta_sim.studies.StudySettings` fields: ``policies`` split (commas
        inside a spec's parentheses do not split, :func:`.policies.split_policy_list`), ``rules``
        the canonical slug.

    Raises
    ------
    ValueError
        Malformed policy list, or unknown rules (the message lists what is accepted).
    """
    from .policies import split_policy_list

    out = dict(values)
    if "policies" in out:
        text = ",".join(out["policies"])
        try:
            out["policies"] = tuple(split_policy_list(text))
        except ValueError as err:
            raise ValueError(f"--policies {text!r}: {err}") from err
    if "rules" in out:
        out["rules"] = resolve_rules(out["rules"]).slug()
    return out


def check_rule_study(settings: StudySettings) -> None:
    """Checks of the Cuarenta rule studies, before any simulation.

    Every policy list must seat every player count (R2.1) and the rules must resolve.

    Parameters
    ----------
    settings : StudySettings

    Raises
    ------
    ValueError
        Unknown policy or wrong number of policies for a player count; unknown rules.
    """
    from .policies import resolve_policies

    for count in settings.players:
        try:
            resolve_policies(tuple(settings.policies), count)
        except ValueError as err:
            raise ValueError(f"--policies {','.join(settings.policies)!r}: {err}") from err
    resolve_rules(settings.rules)


def register_cuarenta_studies() -> None:
    """Register quito-vs-cuenca, odds and sensitivity in :data:`cuarenta_sim.studies.STUDIES`
    (runs at import of this module)."""
    common: dict[str, Any] = {
        "game": "cuarenta",
        "check": check_rule_study,
        "parse": parse_options,
        "player_rule": "R2.1",
    }
    register_study(
        Study(
            name="quito-vs-cuenca",
            title="Quito vs Cuenca scoring",
            description="paired comparison of the two scorings (R7.2), 2 and 4 players",
            defaults={
                "n": DEFAULT_N["quito-vs-cuenca"],
                "players": (2, 4),
                "policies": ("greedy",),
            },
            build=quito_vs_cuenca,
            options=("players", "policies", "chicas", "mesas"),
            refused={"rules": "it compares quito and cuenca; use --rules with odds or sensitivity"},
            reproduce=("players", "policies", "chicas", "mesas"),
            **common,
        )
    )
    register_study(
        Study(
            name="odds",
            title="Ronda and caida odds",
            description="exact dealing odds vs simulated; caida rate and caida risk",
            defaults={
                "n": DEFAULT_N["odds"],
                "players": (2, 4),
                "policies": ("greedy",),
                "rules": "quito",
            },
            build=odds_study,
            options=("players", "policies", "rules"),
            refused={
                "chicas": "it plays level-data runs only",
                "mesas": "it plays level-data runs only",
            },
            reproduce=("players", "policies", "rules"),
            **common,
        )
    )
    register_study(
        Study(
            name="sensitivity",
            title="Rule sensitivity",
            description="every switch flipped alone from a base preset (tornado charts)",
            defaults={
                "n": DEFAULT_N["sensitivity"],
                "players": (2, 4),
                "policies": ("greedy",),
                "rules": "quito",
            },
            build=sensitivity_study,
            options=("players", "policies", "chicas", "mesas", "rules"),
            reproduce=("players", "policies", "chicas", "mesas", "rules"),
            **common,
        )
    )


register_cuarenta_studies()
