"""The ``quito-vs-cuenca`` report: Quito and Cuenca scoring (R7.2) under a player panel.

Every model of the panel (:mod:`.panel`) plays both presets on the same decks at level data,
chica and mesa; the panel table shows each metric's paired difference under each model with
a robustness line, and the headline model (the first) gets the detailed sections (sources of
points, the dealer's advantage, rondas, caidas, win probability by score). The confirmatory
model plays a smaller run beside the panel.
"""

from __future__ import annotations

import time
from typing import Any

import pandas as pd
from matplotlib.figure import Figure

from ... import plotting
from ...reports import Report, markdown_table, text_table
from ...studies import GeneratedReport, Progress, StudySettings, cell, get_study
from ...studies.framework import new_figure, provenance, say
from .. import analysis, compare
from .common import (
    PERCENT_METRICS,
    apply_verdicts,
    diff_text,
    est_text,
    exact_table,
    prose,
    rel_text,
    select,
    unresolved,
    verdict_text,
    wrap_console,
)
from .panel import Model, panel_models, robustness

#: Metrics of the Quito vs Cuenca summary and panel tables, in order.
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
#: Families of verdicts: one per model and player count (every metric of that table).
FAMILY = ("model", "players")


def _run_model(
    model: Model, s: StudySettings, progress: Progress | None, runs: list[dict[str, Any]]
) -> dict[str, list[pd.DataFrame]]:
    """Both presets under one model, every player count; details for the headline."""
    headline = model.role == "headline"
    n_chicas, n_mesas = model.n_chicas, model.n_mesas
    out: dict[str, list[pd.DataFrame]] = {
        k: [] for k in ("est", "diff", "lengths", "winprob", "odds")
    }
    for players in s.players:
        comp = compare.compare_rules(
            {"quito": "quito", "cuenca": "cuenca"},
            players=players,
            policies=model.policies,
            n_datas=model.n,
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
                analysis.odds_check(quito["chica_hands"], players, s.confidence).assign(
                    level="chica"
                )
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
        Figures ``points_by_source``, ``chica_length``, ``win_probability``; tables
        ``estimates`` and ``differences`` (columns ``model`` and ``players``), ``panel``,
        ``summary``, ``win_probability``, ``chica_length``, ``odds`` (with ``level``).
    """
    t0 = time.perf_counter()
    models = panel_models(settings)
    head = models[0]
    runs: list[dict[str, Any]] = []
    parts: dict[str, list[pd.DataFrame]] = {
        k: [] for k in ("est", "diff", "lengths", "winprob", "odds")
    }
    walls = {}
    for model in models:
        tm = time.perf_counter()
        for k, v in _run_model(model, settings, progress, runs).items():
            parts[k] += v
        walls[model.label] = round(time.perf_counter() - tm, 1)
    est_all = pd.concat(parts["est"], ignore_index=True)
    diff_all = apply_verdicts(
        pd.concat(parts["diff"], ignore_index=True), FAMILY, settings.confidence
    )
    est = est_all[est_all["model"] == head.label]
    diff = diff_all[diff_all["model"] == head.label]
    length = pd.concat(parts["lengths"], ignore_index=True)
    wins = pd.concat(parts["winprob"], ignore_index=True)
    odds_table = pd.concat(parts["odds"], ignore_index=True)

    panel = _panel_frame(diff_all, models, settings)
    summary = _qc_summary(est, diff, settings)
    pr = prose("quito_vs_cuenca")
    answers = _answers(diff_all, models, settings)
    report = Report(
        title="Quito vs Cuenca scoring: paired simulation under a player panel",
        provenance=provenance(
            "quito-vs-cuenca",
            settings,
            runs,
            time.perf_counter() - t0,
            rules={"quito": "quito", "cuenca": "cuenca"},
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
        command=get_study("quito-vs-cuenca").command(settings),
    )
    report.add("Answers", pr.answers(answers))
    report.add("Player panel", pr.panel(settings, models, _panel_markdown(panel, models)))
    report.add(
        f"Summary under {head.label}",
        pr.summary(
            settings,
            head,
            markdown_table(list(summary.columns), summary.to_numpy().tolist(), right=(2, 3, 4, 5)),
        ),
    )
    report.add("How much does Cuenca scoring shorten a chica?", _qc_shorten(est, diff, settings))
    report.add("Where do a data's points come from?", _qc_sources(est, diff, settings))
    report.add("How big is the dealer's advantage?", _qc_dealer(est, diff, settings))
    report.add("How often is a ronda dealt?", _qc_rondas(odds_table))
    report.add("How often is a play a caida?", _qc_caidas(est, diff, settings))
    report.add("Win probability by score state", _qc_winprob(wins, settings))
    report.add("All metrics", _qc_all(est_all, diff_all, models, settings))
    report.add("Resolution", unresolved(diff_all, ["model", "players"]))
    report.add("Methods", _qc_methods(est, settings, models, walls))

    figures = {
        "points_by_source": _fig_sources(est, settings),
        "chica_length": _fig_lengths(length, settings),
        "win_probability": _fig_winprob(wins, settings),
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
        },
    )


# --------------------------------------------------------------------------- panel
def _short(row: pd.Series) -> str:
    """A compact console cell: the relative effect, or the difference, and its verdict."""
    v = str(row["verdict"])
    if v == "identical":
        return "identical"
    if v == "negligible":
        return "no diff."
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
            if verdict.startswith("identical"):
                cells.append(verdict)
                continue
            rel = r[f"{m.label} relative"]
            text = r[f"{m.label} full"] + ("" if rel in ("n/a", "0%") else f"; {rel}")
            cells.append(f"{text}; {verdict}")
        cells.append(r["robustness"])
        rows.append(cells)
    headers = ["metric", "players", *(f"{m.label}: Cuenca - Quito" for m in models)]
    return markdown_table([*headers, "across models"], rows, right=(1,))


def _answers(diff: pd.DataFrame, models: list[Model], s: StudySettings) -> list[str]:
    """Three to five plain sentences: the headline effects and how far they hold."""
    head = models[0].label

    def row(metric: str, p: int, model: str = head) -> pd.Series:
        return select(diff, metric=metric, players=p, model=model)

    def across(metric: str, p: int) -> str:
        return robustness(diff[(diff["metric"] == metric) & (diff["players"] == p)])

    out = []
    for p in s.players:
        d = row("datas_per_chica", p)
        out.append(
            f"With {p} players and {head} play at every seat, Cuenca scoring changes a "
            f"chica's length by {rel_text(d)} ({diff_text(d)} datas, {verdict_text(d)}); "
            f"across the {len(models)} player models: {across('datas_per_chica', p)}."
        )
    p0 = s.players[0]
    pts = row("points", p0)
    out.append(
        f"The reason: Cuenca's 4-point caida-limpia adds {diff_text(pts)} points per data "
        f"({p0} players, {head}; across models: {across('points', p0)})."
    )
    adv = row("dealer_advantage", p0)
    out.append(
        f"The dealer's edge in points per data changes by {diff_text(adv)} "
        f"({verdict_text(adv)}; across models: {across('dealer_advantage', p0)})."
    )
    return out


# --------------------------------------------------------------------------- headline detail
def _qc_summary(est: pd.DataFrame, diff: pd.DataFrame, s: StudySettings) -> pd.DataFrame:
    rows = []
    for metric in SUMMARY_METRICS:
        for players in s.players:
            q = select(est, players=players, variant="quito", metric=metric)
            c = select(est, players=players, variant="cuenca", metric=metric)
            d = select(diff, players=players, metric=metric)
            rows.append(
                [
                    q["label"],
                    players,
                    est_text(q),
                    est_text(c),
                    diff_text(d),
                    rel_text(d),
                    verdict_text(d),
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
            "q": select(est, players=p, variant="quito", metric="datas_per_chica"),
            "c": select(est, players=p, variant="cuenca", metric="datas_per_chica"),
            "d": select(diff, players=p, metric="datas_per_chica"),
            "pts": select(diff, players=p, metric="points"),
        }
        for p in s.players
    ]
    return prose("quito_vs_cuenca").shorten(items)


def _qc_sources(est: pd.DataFrame, diff: pd.DataFrame, s: StudySettings) -> str:
    rows = []
    for p in s.players:
        for src in compare.POINT_SOURCES:
            cells = [src, p]
            for v in ("quito", "cuenca"):
                cells.append(est_text(select(est, players=p, variant=v, metric=f"points_{src}")))
                cells.append(est_text(select(est, players=p, variant=v, metric=f"share_{src}")))
            cells.append(diff_text(select(diff, players=p, metric=f"points_{src}")))
            rows.append(cells)
        tot = [
            est_text(select(est, players=p, variant=v, metric="points"))
            for v in ("quito", "cuenca")
        ]
        rows.append(
            [
                "**all**",
                p,
                tot[0],
                "100%",
                tot[1],
                "100%",
                diff_text(select(diff, players=p, metric="points")),
            ]
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
    return prose("quito_vs_cuenca").sources(table)


def _qc_dealer(est: pd.DataFrame, diff: pd.DataFrame, s: StudySettings) -> str:
    items = []
    for p in s.players:
        variants = []
        for v, name in (("quito", "Quito"), ("cuenca", "Cuenca")):
            win = select(est, players=p, variant=v, metric="first_dealer_wins")
            edge = cell(
                win["estimate"] - 0.5,
                win["lower"] - 0.5,
                win["upper"] - 0.5,
                bool(win["defined"]),
                percent=True,
                suffix=" percentage points",
            )
            variants.append(
                {
                    "name": name,
                    "win": win,
                    "edge": edge,
                    "adv": select(est, players=p, variant=v, metric="dealer_advantage"),
                }
            )
        d = select(diff, players=p, metric="dealer_advantage")
        dw = select(diff, players=p, metric="first_dealer_wins")
        items.append(
            {
                "players": p,
                "variants": variants,
                "d": diff_text(d),
                "dv": verdict_text(d),
                "dw": diff_text(dw),
                "dwv": verdict_text(dw),
            }
        )
    return prose("quito_vs_cuenca").dealer(items)


def _qc_rondas(odds_table: pd.DataFrame) -> str:
    keep = odds_table["event"].isin(["ronda", "doble_ronda"]) & odds_table["scope"].isin(
        ["hand", "side 0", "anyone"]
    )
    anyone = odds_table[(odds_table["event"] == "ronda") & (odds_table["scope"] == "anyone")]
    levels = [
        {"players": r["players"], "level": r["level"], "row": r, "exact": r["exact"]}
        for _, r in anyone.iterrows()
    ]
    return prose("quito_vs_cuenca").rondas(
        exact_table(odds_table[keep], fraction=False, scopes={"side 0": "side"}), levels
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
            q = select(est, players=p, variant="quito", metric=metric)
            c = select(est, players=p, variant="cuenca", metric=metric)
            d = select(diff, players=p, metric=metric)
            verdicts.add(d["verdict"])
            rows.append(
                [
                    q["label"],
                    p,
                    est_text(q),
                    est_text(c),
                    diff_text(d),
                    verdict_text(d),
                    q["method"],
                ]
            )
    table = markdown_table(
        ["metric", "players", "Quito", "Cuenca", "Cuenca - Quito", "verdict", "method"],
        rows,
        right=(2, 3, 4),
    )
    return prose("quito_vs_cuenca").caidas(table, verdicts == {"identical"})


def _qc_winprob(wins: pd.DataFrame, s: StudySettings) -> str:
    rows = []
    for p in s.players:
        for v in ("quito", "cuenca"):
            sub = wins[(wins["players"] == p) & (wins["variant"] == v)]
            for own, opp in ((10, 10), (20, 20), (30, 20), (20, 30), (38, 30), (30, 38), (38, 38)):
                r = sub[(sub["own_score"] == own) & (sub["opponent_score"] == opp)].iloc[0]
                rows.append([p, v, f"{own}-{opp}", est_text(r, percent=True), f"{int(r['n']):,}"])
    return prose("quito_vs_cuenca").winprob(
        markdown_table(
            ["players", "rules", "own-opponent", "P(win) [interval]", "n"], rows, right=(3, 4)
        )
    )


def _qc_all(est: pd.DataFrame, diff: pd.DataFrame, models: list[Model], s: StudySettings) -> str:
    items = []
    for m in models:
        for p in s.players:
            rows = []
            sub = est[
                (est["players"] == p) & (est["variant"] == "quito") & (est["model"] == m.label)
            ]
            for _, q in sub.iterrows():
                c = select(est, players=p, variant="cuenca", metric=q["metric"], model=m.label)
                d = select(diff, players=p, metric=q["metric"], model=m.label)
                rows.append(
                    [
                        m.label,
                        p,
                        q["label"],
                        q["level"],
                        est_text(q),
                        est_text(c),
                        f"{int(q['n']):,}",
                        q["method"],
                        diff_text(d),
                        d["method"],
                        verdict_text(d),
                    ]
                )
            table = markdown_table(
                [
                    "player model",
                    "players",
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
                right=(1, 4, 5, 6, 8),
            )
            items.append({"players": p, "model": m.label, "table": table})
    return prose("quito_vs_cuenca").all_metrics(items)


def _truncated(est: pd.DataFrame, players: int, variant: str) -> int:
    """Chicas stopped after 10,000 datas: counted by ``datas_per_chica`` (every chica) but
    not by ``first_dealer_wins`` (finished chicas only)."""
    every = select(est, players=players, variant=variant, metric="datas_per_chica")["n"]
    finished = select(est, players=players, variant=variant, metric="first_dealer_wins")["n"]
    return int(every - finished)


def _qc_methods(
    est: pd.DataFrame, s: StudySettings, models: list[Model], walls: dict[str, float]
) -> str:
    truncated = sum(_truncated(est, p, v) for p in s.players for v in ("quito", "cuenca"))
    return prose("quito_vs_cuenca").methods(s, truncated, models, walls)


def _fig_sources(est: pd.DataFrame, s: StudySettings) -> Figure:
    fig, axes = new_figure(1, len(s.players))
    for ax, p in zip(axes[0], s.players, strict=True):
        rows = []
        for v in ("quito", "cuenca"):
            for src in compare.POINT_SOURCES:
                r = select(est, players=p, variant=v, metric=f"points_{src}")
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
    fig, axes = new_figure(1, len(s.players))
    for ax, p in zip(axes[0], s.players, strict=True):
        plotting.length_distribution(
            length[length["players"] == p], ax=ax, title=f"Datas per chica, {p} players"
        )
    return fig


def _fig_winprob(wins: pd.DataFrame, s: StudySettings) -> Figure:
    fig, axes = new_figure(len(s.players), 2, (5.5, 4.5))
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
