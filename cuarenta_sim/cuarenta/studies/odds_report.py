"""The ``odds`` report: exact ronda odds against simulation, caida rates under a panel.

The dealing odds depend on the deck only, so they come from the headline model's level-data
run; the caida and limpia rates depend on how the players play, so every model of the panel
(and the confirmatory model) gets its own column, with the range across models.
"""

from __future__ import annotations

import time
from typing import Any

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from ... import plotting
from ...reports import Report, format_number, markdown_table, text_table
from ...studies import GeneratedReport, Progress, StudySettings, get_study
from ...studies.claims import render_claim
from ...studies.convergence import convergence_note
from ...studies.framework import new_figure, provenance, say
from .. import analysis, compare, odds
from ..rules import resolve_rules
from .common import (
    est_text,
    exact_flag,
    exact_table,
    overlap_text,
    prose,
    select,
    tuning_of,
    wrap_console,
)
from .panel import Model, panel_models
from .rule_claims import odds_claims

#: Replicate seeds (``seed + 1`` ...) of the convergence figure, each a quarter of the datas.
REPLICATES = 2
#: Players of the replicate runs: the deal (R4) does not depend on the play, so the fastest
#: policy deals the same decks as the headline model would.
REPLICATE_POLICIES = ("greedy",)

#: Caida metrics estimated under every model.
CAIDA_METRICS = (
    "caidas_per_play",
    "caidas_per_data",
    "caidas_limpias_per_play",
    "limpias_per_play",
)


def odds_study(settings: StudySettings, progress: Progress | None = None) -> GeneratedReport:
    """Exact ronda / doble ronda odds against simulation; caida rates per model; caida risk.

    For every model and player count: the model's ``n`` level-data datas under
    ``settings.rules`` give the caida rates; the headline model's datas also give the
    simulated rondas (:func:`cuarenta_sim.cuarenta.analysis.odds_check`); the caida risk
    check counts ``settings.n`` of the simulator's decks
    (:func:`cuarenta_sim.cuarenta.analysis.caida_risk_check`).

    Parameters
    ----------
    settings : StudySettings
        Sizes, seed, players, panel, confirmatory model, rules, confidence, threads.
    progress : callable, optional
        Receives one-line progress messages.

    Returns
    -------
    GeneratedReport
        Figures ``exact_vs_simulated``, ``convergence``; tables ``odds``, ``caida_rates``
        (column ``model``), ``caida_panel``, ``caida_risk``, ``caida_risk_check``,
        ``convergence`` (:func:`cuarenta_sim.studies.convergence.running_estimates`).
    """
    t0 = time.perf_counter()
    rules = resolve_rules(settings.rules)
    models = panel_models(settings)
    runs: list[dict[str, Any]] = []
    tables, rates = [], []
    walls: dict[str, float] = {}
    metrics = [m for m in compare.cuarenta_metrics() if m.name in CAIDA_METRICS]
    conv_players = 2 if 2 in settings.players else settings.players[0]
    conv_main: np.ndarray | None = None
    for model in models:
        tm = time.perf_counter()
        for p in settings.players:
            say(progress, f"simulating {rules.slug()}, {p} players, {model.label}")
            frames = compare.simulate_frames(
                rules,
                players=p,
                policies=model.policies,
                n_datas=model.n,
                seed=settings.seed,
                threads=settings.threads,
                runs=runs,
            )
            if model.role == "headline":
                tables.append(analysis.odds_check(frames["data"], p, settings.confidence))
                if p == conv_players:
                    conv_main = _ronda_dealt(frames["data"])
            rates.append(
                compare.estimate_metrics(frames, metrics, settings.confidence).assign(
                    players=p, model=model.label
                )
            )
            del frames
        walls[model.label] = round(time.perf_counter() - tm, 1)
    say(progress, f"convergence: {REPLICATES} replicate seeds")
    tc = time.perf_counter()
    assert conv_main is not None  # the headline model plays every player count
    conv_text, conv_fig, conv_frame = _convergence(conv_main, conv_players, models[0], settings)
    conv_wall = round(time.perf_counter() - tc, 1)
    say(progress, "counting caida risk on the simulator's decks")
    odds_table = pd.concat(tables, ignore_index=True)
    rate = pd.concat(rates, ignore_index=True)
    caida_panel = _caida_panel(rate, models, settings)
    risk = pd.concat(
        [analysis.caida_risk_when_next_holds_five(p).assign(players=p) for p in settings.players],
        ignore_index=True,
    )
    check = analysis.caida_risk_check(settings.n, settings.seed, settings.confidence)

    report = Report(
        title="Ronda and caida odds: exact vs simulated",
        provenance=provenance(
            "odds",
            settings,
            runs,
            time.perf_counter() - t0,
            levels=("data",),
            rules=rules.slug(),
            caida_risk_decks=settings.n,
            convergence_wall_time_s=conv_wall,
            models=[
                {
                    "label": m.label,
                    "policies": list(m.policies),
                    "n": m.n,
                    "role": m.role,
                    "wall_time_s": walls[m.label],
                }
                for m in models
            ],
        ),
        command=get_study("odds").command(settings),
    )
    pr = prose("odds")
    claims = odds_claims(odds_table, rate, [m.label for m in models], rules.slug(), settings)
    answers = [render_claim(c) for c in claims]
    report.add("Summary", pr.summary(answers))
    report.add("Dealing odds (R4)", pr.dealing(exact_table(odds_table, fraction=True)))
    report.add(
        "Caida rate per play, by player model",
        _rates_section(caida_panel, models, rules.slug(), settings),
    )
    report.add("Caida risk (R6.1)", _risk_section(risk, check, settings))
    tuned = " and ".join(tuning_of([m.label for m in models]))
    report.add("Methods", pr.methods(models, walls, conv_text, tuned))
    fig, axes = new_figure(1, len(settings.players), (6.5, 6.0))
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
            f"{100 * r['exact']:.4f}%" if r["scope"] != "per data" else f"{r['exact']:.5f}",
            est_text(r, percent=r["scope"] != "per data"),
            exact_flag(r["within"], "no"),
        ]
        for _, r in odds_table.iterrows()
    ]
    text = text_table(
        ["event", "scope", "players", "exact", "simulated [interval]", "inside"],
        summary_rows,
        right=(2, 3, 4),
    )
    caida_text = text_table(
        ["metric", "players", *(m.label for m in models), "across models"],
        caida_panel[["label", "players", *(f"{m.label} short" for m in models), "across models"]]
        .to_numpy()
        .tolist(),
        right=tuple(range(1, len(models) + 2)),
    )
    return GeneratedReport(
        name="odds",
        report=report,
        figures={"exact_vs_simulated": fig, "convergence": conv_fig},
        summary=wrap_console(pr.console(settings, answers, text, caida_text)),
        tables={
            "odds": odds_table,
            "caida_rates": rate,
            "caida_panel": caida_panel,
            "caida_risk": risk,
            "caida_risk_check": check,
            "convergence": conv_frame,
        },
        claims=claims,
        claim_tables={
            "odds": ("event", "scope", "players"),
            "caida_rates": ("metric", "players", "model"),
        },
    )


def _ronda_dealt(hands: pd.DataFrame) -> np.ndarray:
    """Per data: 1 when anyone is dealt a ronda (R4.1), the event of ``odds_check``."""
    total = sum(
        hands[f"{stem}_{k}"].to_numpy(np.int64)
        for stem in analysis.ODDS_EVENTS["ronda"]
        for k in (0, 1)
    )
    return (total > 0).astype(np.float64)


def _convergence(
    main: np.ndarray, players: int, head: Model, s: StudySettings
) -> tuple[str, Figure, pd.DataFrame]:
    """Convergence of P(a ronda is dealt in a data) against its exact value (R4.1).

    The main run is the headline model's datas; :data:`REPLICATES` replicate runs of
    ``max(10, n // 4)`` datas on seeds ``seed + 1`` ... are played by
    :data:`REPLICATE_POLICIES` (the deal does not depend on the play).
    """
    size = max(10, head.n // 4)
    reps = [main]
    for r in range(1, REPLICATES + 1):
        frames = compare.simulate_frames(
            s.rules,
            players=players,
            policies=REPLICATE_POLICIES,
            n_datas=size,
            seed=s.seed + r,
            threads=s.threads,
        )
        reps.append(_ronda_dealt(frames["data"]))
    text, fig, frame = convergence_note(
        reps,
        what=f"P(a ronda is dealt in a data), {players} players",
        unit="datas",
        kind="proportion",
        confidence=s.confidence,
        percent=True,
        reference=float(odds.data_probability("ronda", "anyone", players)),
    )
    text += (
        f" Main run: `{head.label}`'s datas; replicates: {REPLICATES} runs of {size:,} datas "
        f"dealt on seeds {s.seed + 1} to {s.seed + REPLICATES} (played by "
        f"`{';'.join(REPLICATE_POLICIES)}`: the deal does not depend on the play). The line is "
        f"the exact value."
    )
    return text, fig, frame


def _range(rows: pd.DataFrame, percent: bool) -> str:
    """``"from 10.1% to 11.3% (intervals overlap)"``: the spread of a rate across models
    (:func:`.common.overlap_text`)."""
    est = rows["estimate"].to_numpy(dtype=np.float64)
    k, sfx = (100.0, "%") if percent else (1.0, "")
    lo, hi = float(est.min()), float(est.max())
    text = f"from {format_number(lo * k, 2)}{sfx} to {format_number(hi * k, 2)}{sfx}"
    return f"{text} ({overlap_text(rows)})"


def _caida_panel(rate: pd.DataFrame, models: list[Model], s: StudySettings) -> pd.DataFrame:
    rows = []
    for metric in CAIDA_METRICS:
        pct = metric.endswith("per_play")
        for p in s.players:
            sub = rate[(rate["metric"] == metric) & (rate["players"] == p)]
            row: dict[str, Any] = {"metric": metric, "label": sub["label"].iloc[0], "players": p}
            for m in models:
                r = select(sub, model=m.label)
                row[m.label] = est_text(r, percent=pct)
                row[f"{m.label} short"] = (
                    f"{100 * r['estimate']:.2f}%" if pct else f"{r['estimate']:.3f}"
                )
                row[f"{m.label} n"] = int(r["n"])
            row["across models"] = _range(sub, pct)
            rows.append(row)
    return pd.DataFrame(rows)


def _rates_section(
    caida_panel: pd.DataFrame, models: list[Model], slug: str, s: StudySettings
) -> str:
    rows = [
        [
            r["label"],
            r["players"],
            *(f"{r[m.label]} (n {r[f'{m.label} n']:,})" for m in models),
            r["across models"],
        ]
        for _, r in caida_panel.iterrows()
    ]
    table = markdown_table(
        ["metric", "players", *(m.label for m in models), "across models"],
        rows,
        right=tuple(range(1, len(models) + 2)),
    )
    return prose("odds").rates(s, slug, models, table)


def _risk_section(risk: pd.DataFrame, check: pd.DataFrame, s: StudySettings) -> str:
    """The caida-risk section: per player count the exact risk in the states where the next
    player still holds 5 cards (only those: :func:`.analysis.caida_risk_when_next_holds_five`),
    then the count on the simulator's decks."""
    tables = []
    for p in s.players:
        sub = risk[risk["players"] == p].dropna(axis=1, how="all")
        cols = sorted(
            (c for c in sub.columns if c.startswith("unseen=")),
            key=lambda c: -int(c.split("=")[1]),
        )
        rows = [[int(r["seen"]), *(f"{100 * r[c]:.1f}%" for c in cols)] for _, r in sub.iterrows()]
        tables.append(
            (p, markdown_table(["seen", *cols], rows, right=tuple(range(1, len(cols) + 1))))
        )
    crow = [
        [
            int(r["seen"]),
            f"{100 * r['exact']:.3f}%",
            est_text(r, percent=True),
            f"{int(r['trials']):,}",
            f"{int(r['n']):,}",
            r["method"],
            exact_flag(r["within"]),
        ]
        for _, r in check.iterrows()
    ]
    return prose("odds").risk(
        s,
        tables,
        markdown_table(
            ["seen", "exact", "counted [interval]", "ranks", "decks", "method", "exact inside"],
            crow,
            right=(1, 2, 3, 4),
        ),
    )
