"""The ``quito-vs-cuenca`` report: Quito and Cuenca scoring (R7.2) under a player panel.

Every model of the panel (:mod:`.panel`) plays both presets on the same decks at level data,
chica and mesa; the panel table shows each metric's paired difference under each model with
a robustness line, and the headline model (the first) gets the detailed sections (sources of
points, the dealer's advantage, rondas, caidas, win probability by score). The confirmatory
model plays a smaller run beside the panel.
"""

from __future__ import annotations

import dataclasses
import time
from typing import Any

import pandas as pd

from ...reports import Report, markdown_table, text_table
from ...studies import GeneratedReport, Progress, StudySettings, get_study
from ...studies.claims import render_claim
from ...studies.framework import provenance, say
from .. import analysis, compare
from . import qc_sections as sections
from .common import (
    PERCENT_METRICS,
    apply_verdicts,
    diff_text,
    prose,
    rel_text,
    tuned_disclosure,
    unresolved,
    verdict_text,
    wrap_console,
)
from .panel import Model, panel_models, robustness
from .qc_claims import qc_claims
from .qc_sections import SUMMARY_METRICS

#: Families of verdicts: one per model and player count (every metric of that table).
FAMILY = ("model", "players")


#: ``level`` of the ronda rows counted inside chicas: Quito's chicas only (a Cuenca chica
#: ends at another data, so the datas cut short differ and its rates need not be equal).
CHICA_ODDS_LEVEL = "chica (quito)"


def _run_model(
    model: Model, s: StudySettings, progress: Progress | None, runs: list[dict[str, Any]]
) -> dict[str, list[Any]]:
    """Both presets under one model, every player count; details for the headline.

    ``"conv"`` holds the headline's per-chica differences Cuenca - Quito of datas per chica at
    :func:`.qc_sections.convergence_players` (main run of the convergence figure).
    """
    headline = model.role == "headline"
    out: dict[str, list[Any]] = {
        k: [] for k in ("est", "diff", "lengths", "winprob", "odds", "conv")
    }
    for players in s.players:
        policies, n_datas, n_chicas, n_mesas = model.run(players)
        if n_datas + n_chicas + n_mesas == 0:
            continue
        comp = compare.compare_rules(
            {"quito": "quito", "cuenca": "cuenca"},
            players=players,
            policies=policies,
            n_datas=n_datas,
            n_chicas=n_chicas,
            n_mesas=n_mesas,
            seed=s.seed,
            confidence=s.confidence,
            threads=s.threads,
            keep=("chica", "chica_hands", "data") if headline else (),
            on_variant=lambda v, p=players: say(
                progress, f"simulating {v}, {p} players, {model.label}"
            ),
        )
        runs += comp.meta["runs"]
        out["est"].append(comp.estimates.assign(players=players, model=model.label))
        out["diff"].append(comp.differences.assign(players=players, model=model.label))
        if headline:
            if players == sections.convergence_players(s):
                out["conv"] = [
                    comp.frames["cuenca"]["chica"]["hands"] - comp.frames["quito"]["chica"]["hands"]
                ]
            for variant, frames in comp.frames.items():
                dist = analysis.length_distribution(frames["chica"]["hands"], s.confidence)
                out["lengths"].append(dist.assign(variant=variant, players=players))
                wp = analysis.win_probability_by_score(
                    frames["chica_hands"],
                    frames["chica"],
                    players=players,
                    confidence=s.confidence,
                )
                out["winprob"].append(wp.assign(variant=variant, players=players))
            quito = comp.frames["quito"]
            out["odds"].append(
                analysis.odds_check(quito["data"], players, s.confidence).assign(level="data")
            )
            out["odds"].append(
                analysis.odds_check(
                    quito["chica_hands"], players, s.confidence, games=quito["chica"]
                ).assign(level=CHICA_ODDS_LEVEL)
            )
        del comp
    return out


def quito_vs_cuenca(settings: StudySettings, progress: Progress | None = None) -> GeneratedReport:
    """Paired comparison of Quito and Cuenca scoring (R7.2) under every model of the panel.

    For every model and player count: the model's ``n`` datas (level data), ``n_chicas``
    chicas and ``n_mesas`` mesas under each preset, all with ``settings.seed`` (same decks),
    compared with :func:`cuarenta_sim.cuarenta.compare.compare_rules`. Verdicts: Holm over
    each model and player count, practical margins of :mod:`.common`.

    Parameters
    ----------
    settings : StudySettings
        Sizes, seed, players, panel (``models``), confirmatory model, confidence, threads.
    progress : callable, optional
        Receives one-line progress messages.

    Returns
    -------
    GeneratedReport
        Figures ``points_by_source``, ``chica_length``, ``win_probability``, ``convergence``;
        tables ``estimates`` and ``differences`` (columns ``model`` and ``players``), ``panel``,
        ``summary``, ``win_probability``, ``chica_length``, ``odds`` (with ``level``),
        ``convergence`` (:func:`cuarenta_sim.studies.convergence.running_estimates`).
    """
    t0 = time.perf_counter()
    models = panel_models(settings, sized_confirm=True)
    head = models[0]
    runs: list[dict[str, Any]] = []
    parts: dict[str, list[Any]] = {
        k: [] for k in ("est", "diff", "lengths", "winprob", "odds", "conv")
    }
    walls = {}
    for model in models:
        tm = time.perf_counter()
        for k, v in _run_model(model, settings, progress, runs).items():
            parts[k] += v
        walls[model.label] = round(time.perf_counter() - tm, 1)
    say(progress, f"convergence: {sections.REPLICATES} replicate seeds, {head.label}")
    tc = time.perf_counter()
    conv_text, conv_fig, conv_frame = sections.convergence(parts["conv"][0], head, settings)
    conv_wall = round(time.perf_counter() - tc, 1)
    est_all = pd.concat(parts["est"], ignore_index=True)
    diff_all = apply_verdicts(
        pd.concat(parts["diff"], ignore_index=True), FAMILY, settings.confidence
    )
    conv_text += _convergence_vs_tables(diff_all, head, settings)
    est = est_all[est_all["model"] == head.label]
    diff = diff_all[diff_all["model"] == head.label]
    length = pd.concat(parts["lengths"], ignore_index=True)
    wins = pd.concat(parts["winprob"], ignore_index=True)
    odds_table = pd.concat(parts["odds"], ignore_index=True)

    panel = _panel_frame(diff_all, models, settings)
    summary = sections.summary_table(est, diff, settings)
    pr = prose("quito_vs_cuenca")
    tuned = tuned_disclosure([m.label for m in models], "Cuenca scoring")
    confirm_policies = {
        (m.label, p): ",".join(m.run(p)[0])
        for m in models
        if m.role == "confirm"
        for p in settings.players
    }
    claims = qc_claims(diff_all, [m.label for m in models], settings, confirm_policies)
    if tuned:
        claims = [dataclasses.replace(c, caveats=(*c.caveats, tuned)) for c in claims]
    answers = [render_claim(c) for c in claims]
    report = Report(
        title="Quito vs Cuenca scoring: paired simulation under a player panel",
        provenance=provenance(
            "quito-vs-cuenca",
            settings,
            runs,
            time.perf_counter() - t0,
            rules={"quito": "quito", "cuenca": "cuenca"},
            convergence_wall_time_s=conv_wall,
            models=[
                {
                    "label": m.label,
                    "policies": list(m.policies),
                    "n": m.n,
                    "role": m.role,
                    "wall_time_s": walls[m.label],
                    "plan": [
                        {"players": p, "policies": list(pol), "datas": d, "chicas": c, "mesas": me}
                        for p, pol, d, c, me in m.plan
                    ],
                }
                for m in models
            ],
        ),
        command=get_study("quito-vs-cuenca").command(settings),
    )
    report.add("Answers", pr.answers(answers))
    report.add("Player panel", pr.panel(settings, models, _panel_markdown(panel, models), tuned))
    report.add(
        f"Summary under {head.label}",
        pr.summary(
            settings,
            head,
            models,
            markdown_table(list(summary.columns), summary.to_numpy().tolist(), right=(2, 3, 4, 5)),
        ),
    )
    report.add(
        "How much does Cuenca scoring shorten a chica?",
        sections.shorten_section(est, diff, settings),
    )
    report.add("Where do a data's points come from?", sections.sources_section(est, diff, settings))
    report.add("How big is the dealer's advantage?", sections.dealer_section(est, diff, settings))
    report.add("How often is a ronda dealt?", sections.rondas_section(odds_table))
    report.add("How often is a play a caida?", sections.caidas_section(est, diff, settings))
    report.add("Win probability by score state", sections.winprob_section(wins, settings))
    report.add("All metrics", sections.all_metrics_section(est_all, diff_all, models, settings))
    report.add("Resolution", unresolved(diff_all, ["model", "players"]))
    printed = sections.printed_halfwidths(diff_all, models, settings)
    report.add(
        "Methods",
        sections.methods_section(est, settings, models, walls, conv_text, tuned, printed),
    )

    figures = {
        "points_by_source": sections.fig_sources(est, settings),
        "chica_length": sections.fig_lengths(length, settings),
        "win_probability": sections.fig_winprob(wins, settings),
        "convergence": conv_fig,
    }
    console = text_table(
        ["metric", "players", *(m.label for m in models), "across models"],
        panel[["label", "players", *(m.label for m in models), "robustness short"]]
        .to_numpy()
        .tolist(),
        right=tuple(range(1, len(models) + 2)),
    )
    return GeneratedReport(
        name="quito-vs-cuenca",
        report=report,
        figures=figures,
        summary=wrap_console(pr.console(settings, models, answers, console)),
        tables={
            "estimates": est_all,
            "differences": diff_all,
            "panel": panel,
            "summary": summary,
            "win_probability": wins,
            "chica_length": length,
            "odds": odds_table,
            "convergence": conv_frame,
        },
        claims=claims,
        claim_tables={"differences": ("metric", "players", "model")},
    )


# --------------------------------------------------------------------------- panel
def _convergence_vs_tables(diff: pd.DataFrame, head: Model, s: StudySettings) -> str:
    """The sentence that ties the convergence paragraph's 95% interval to the tables' Holm-level
    interval of the same difference (the headline's datas per chica), built from that row."""
    p = sections.convergence_players(s)
    rows = diff[
        (diff["metric"] == "datas_per_chica")
        & (diff["players"] == p)
        & (diff["model"] == head.label)
    ]
    if rows.empty:
        return ""
    return (
        f" The tables print the same difference as {diff_text(rows.iloc[0])}: the interval at "
        f"the level Holm tested its row (Methods, *Verdicts*), wider than this unadjusted "
        f"{100.0 * s.confidence:g}% one."
    )


def _short(row: pd.Series) -> str:
    """A compact console cell: the relative effect, or the difference, and its verdict."""
    v = str(row["verdict"])
    if v == "identical":
        return "identical"
    if v == "negligible":
        return "no diff."
    if v == "too small to tell":
        return "too small"
    pct = row["metric"] in PERCENT_METRICS
    if pct:
        text = f"{100 * row['estimate']:+.2f} pp"
    elif pd.notna(row["relative"]):
        text = f"{100 * row['relative']:+.1f}%"
    else:
        text = f"{row['estimate']:+.3f}"
    return text if v.startswith("resolved") else f"({text})"


def _panel_frame(diff: pd.DataFrame, models: list[Model], s: StudySettings) -> pd.DataFrame:
    """One row per summary metric and player count: each model's effect and robustness."""
    rows = []
    for metric in SUMMARY_METRICS:
        for p in s.players:
            sub = diff[(diff["metric"] == metric) & (diff["players"] == p)]
            by = {r["model"]: r for _, r in sub.iterrows()}
            row: dict[str, Any] = {"metric": metric, "label": sub["label"].iloc[0], "players": p}
            for m in models:
                if m.label not in by:
                    # Not run at this level (the sized confirmation plays chicas only there).
                    row[m.label] = "not run"
                    row[f"{m.label} full"] = "not run"
                    row[f"{m.label} relative"] = "n/a"
                    row[f"{m.label} verdict"] = "not run at this level"
                    continue
                row[m.label] = _short(by[m.label])
                row[f"{m.label} full"] = diff_text(by[m.label])
                row[f"{m.label} relative"] = rel_text(by[m.label])
                row[f"{m.label} verdict"] = verdict_text(by[m.label])
            row["robustness"] = robustness(sub)
            row["robustness short"] = robustness(sub, short=True)
            rows.append(row)
    return pd.DataFrame(rows)


def _panel_markdown(panel: pd.DataFrame, models: list[Model]) -> str:
    rows = []
    for _, r in panel.iterrows():
        cells = [r["label"], r["players"]]
        for m in models:
            verdict = r[f"{m.label} verdict"]
            if verdict.startswith(("identical", "not run")):
                cells.append(verdict)
                continue
            rel = r[f"{m.label} relative"]
            text = r[f"{m.label} full"] + ("" if rel in ("n/a", "0%") else f"; {rel}")
            cells.append(f"{text}; {verdict}")
        cells.append(r["robustness"])
        rows.append(cells)
    headers = ["metric", "players", *(f"{m.label}: Cuenca - Quito" for m in models)]
    return markdown_table([*headers, "across models"], rows, right=(1,))
