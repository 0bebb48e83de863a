"""The ``sensitivity`` report: every switch flipped alone, under a player panel.

For every model of the panel (:mod:`.panel`) and player count, the base preset and each rule
set that differs from it in one switch play the same decks at level data, chica and mesa
(:func:`cuarenta_sim.cuarenta.compare.sensitivity`). The report answers three questions:
which readings where sources disagree move the headline metrics, and by how much beside the
Quito vs Cuenca effect (*What the rules you play change*); what each score-dependent switch
does where it can act (*Switches that act near the target*, :mod:`.switch_notes`); and
whether each effect holds across players (a robustness line per flip and metric).
"""

from __future__ import annotations

import dataclasses
import time
from typing import Any

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from ... import plotting
from ...reports import Report, markdown_table, text_table
from ...studies import GeneratedReport, Progress, StudySettings, get_study
from ...studies.claims import render_claim
from ...studies.convergence import convergence_note
from ...studies.framework import new_figure, provenance, say
from .. import compare
from ..rules import resolve_rules
from .common import (
    apply_verdicts,
    diff_text,
    est_text,
    is_percent,
    prose,
    rel_text,
    select,
    tuned_disclosure,
    unresolved,
    verdict_text,
    wrap_console,
)
from .panel import Model, panel_models, robustness
from .presets_played import (
    ADDITIVITY_HEADERS,
    additivity,
    additivity_claim,
    additivity_rows,
    preset_effects,
    preset_variants,
)
from .rule_claims import sensitivity_claims
from .switch_notes import (
    CONFIRM_SWITCHES,
    SWITCH_SCOPE,
    cannot_show,
    confirm_words,
    disputed,
    level_blind,
    switch_of,
)

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
#: Headline metrics of the *What the rules you play change* table.
HEADLINE_METRICS = ("datas_per_chica", "points", "first_dealer_wins", "dealer_advantage")
#: Replicate seeds (``seed + 1`` ...) of the convergence figure, each a quarter of the chicas.
REPLICATES = 2

#: Families of verdicts: one per model, player count and metric (all flips of a tornado).
FAMILY = ("model", "players", "metric")


def sensitivity_study(settings: StudySettings, progress: Progress | None = None) -> GeneratedReport:
    """Flip each switch of ``settings.rules`` alone under every model; paired effects.

    The panel's models flip every switch; the confirmatory model flips the switches of
    :data:`.switch_notes.CONFIRM_SWITCHES` only.

    Parameters
    ----------
    settings : StudySettings
        Sizes, seed, players, panel, confirmatory model, base rules, confidence, threads.
    progress : callable, optional
        Receives one-line progress messages.

    Returns
    -------
    GeneratedReport
        One tornado figure per metric of :data:`TORNADO_METRICS` (``tornado_<metric>``,
        headline model) and ``convergence``; tables ``estimates``, ``differences`` (columns
        ``model``, ``players``, ``disputed``), ``summary``, ``rules_you_play``,
        ``convergence`` (:func:`cuarenta_sim.studies.convergence.running_estimates`).
    """
    t0 = time.perf_counter()
    base = resolve_rules(settings.rules)
    models = panel_models(settings)
    head = models[0]
    estimates, differences, runs = [], [], []
    walls: dict[str, float] = {}
    for model in models:
        tm = time.perf_counter()
        confirm = model.role == "confirm"
        for p in settings.players:
            comp = compare.sensitivity(
                base,
                players=p,
                policies=model.policies,
                n_datas=model.n,
                n_chicas=model.n_chicas,
                n_mesas=model.n_mesas,
                seed=settings.seed,
                confidence=settings.confidence,
                threads=settings.threads,
                switches=CONFIRM_SWITCHES if confirm else None,
                on_variant=lambda v, p=p, m=model.label: say(
                    progress, f"simulating {v}, {p} players, {m}"
                ),
            )
            runs += comp.meta["runs"]
            estimates.append(comp.estimates.assign(players=p, model=model.label))
            differences.append(comp.differences.assign(players=p, model=model.label))
        walls[model.label] = round(time.perf_counter() - tm, 1)
    say(progress, f"convergence: base chicas and {REPLICATES} replicate seeds, {head.label}")
    tc = time.perf_counter()
    conv_text, conv_fig, conv_frame = _convergence(base, head, settings)
    conv_wall = round(time.perf_counter() - tc, 1)
    est = pd.concat(estimates, ignore_index=True)
    diff = apply_verdicts(pd.concat(differences, ignore_index=True), FAMILY, settings.confidence)
    say(progress, f"presets as played against {base.slug()}, {head.label}")
    tp = time.perf_counter()
    presets = preset_effects(
        base, head, settings, on_variant=lambda v: say(progress, f"simulating {v} players")
    )
    adds = additivity(presets, diff, base, head.label, settings.confidence)
    preset_wall = round(time.perf_counter() - tp, 1)
    flips = compare.switch_flips(base)
    diff["disputed"] = [disputed(v, flips[v]) for v in diff["variant"]]
    qc = _cuenca_flip(base, flips)

    pr = prose("sensitivity")
    report = Report(
        title=pr.title(base.slug()),
        provenance=provenance(
            "sensitivity",
            settings,
            runs,
            time.perf_counter() - t0,
            base=base.slug(),
            flips=list(flips),
            convergence_wall_time_s=conv_wall,
            presets_wall_time_s=preset_wall,
            presets=list(preset_variants(base)),
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
        command=get_study("sensitivity").command(settings),
    )
    rules_table = _rules_you_play(diff, models, settings, qc)
    tuned = tuned_disclosure([m.label for m in models], "every flipped switch and preset")
    claims = sensitivity_claims(diff, [m.label for m in models], settings, qc)
    answers = [render_claim(c) for c in claims]
    add_claim = additivity_claim(adds, head.label, base.slug())
    if add_claim is not None:
        claims.append(add_claim)
    if tuned:
        claims = [dataclasses.replace(c, caveats=(*c.caveats, tuned)) for c in claims]
    report.add("Answers", pr.answers(answers))
    report.add(
        "What the rules you play change",
        pr.rules_you_play(settings, head, qc, _rules_markdown(rules_table, settings)),
    )
    report.add(
        "Presets as played: do the flips add up?",
        pr.presets(
            settings,
            head,
            markdown_table(ADDITIVITY_HEADERS, additivity_rows(adds), right=(1, 5)),
            "" if add_claim is None else render_claim(add_claim),
            tuned,
            preset_wall,
        ),
    )
    report.add("Switches that act near the target", _scope_section(est, diff, head, settings))
    summary = _summary(diff, head, settings)
    report.add(
        f"Summary under {head.label}",
        pr.summary(
            settings,
            base.slug(),
            head,
            models,
            markdown_table(
                list(summary.columns),
                summary.to_numpy().tolist(),
                right=tuple(range(2, summary.shape[1])),
            ),
            confirm_words(),
        ),
    )
    for metric in TORNADO_METRICS:
        report.add(
            pr.heading(_label(est, metric)), _metric_section(est, diff, metric, models, settings)
        )
    report.add("Resolution", unresolved(diff, ["model", "players", "variant"]))
    report.add(
        "Methods",
        pr.methods(
            base.slug(),
            _base_table(est),
            models,
            walls,
            settings,
            conv_text,
            tuned,
            float(report.provenance["wall_time_s"]),
        ),
    )

    figures = {f"tornado_{m}": _tornado(est, diff, m, head, settings, qc) for m in TORNADO_METRICS}
    figures["convergence"] = conv_fig
    console_rows = [
        [
            r["flip"],
            r["players"],
            r[_rules_column(head.label, "datas_per_chica", _label(est, "datas_per_chica"))],
            r["across models, short"],
        ]
        for _, r in rules_table.iterrows()
    ]
    console = text_table(
        ["reading (flip from base)", "players", f"datas per chica, {head.label}", "across models"],
        console_rows,
        right=(1, 2),
    )
    return GeneratedReport(
        name="sensitivity",
        report=report,
        figures=figures,
        summary=wrap_console(pr.console(settings, base.slug(), models, answers, console)),
        tables={
            "estimates": est,
            "differences": diff,
            "summary": summary,
            "rules_you_play": rules_table,
            "presets": presets,
            "additivity": adds,
            "convergence": conv_frame,
        },
        claims=claims,
        claim_tables={
            "differences": ("variant", "metric", "players", "model"),
            "additivity": ("preset", "players", "metric"),
        },
    )


def _convergence(base: Any, head: Model, s: StudySettings) -> tuple[str, Figure, pd.DataFrame]:
    """Convergence of datas per chica at the base rules under the headline model.

    The main run replays the headline's base chicas (same seed, same decks: the report's
    base estimate); :data:`REPLICATES` replicate runs of ``max(10, n_chicas // 4)`` chicas on
    seeds ``seed + 1`` ...; at 2 players when the report plays them, else the first count.
    """
    players = 2 if 2 in s.players else s.players[0]
    sizes = [head.n_chicas] + [max(10, head.n_chicas // 4)] * REPLICATES
    reps = [
        compare.simulate_frames(
            base,
            players=players,
            policies=head.policies,
            n_chicas=n,
            seed=s.seed + r,
            threads=s.threads,
        )["chica"]["hands"].to_numpy(np.float64)
        for r, n in enumerate(sizes)
    ]
    text, fig, frame = convergence_note(
        reps,
        what=f"datas per chica ({base.slug()}, {players} players, {head.label})",
        unit="chicas",
        confidence=s.confidence,
    )
    text += (
        f" Main run: the headline's base chicas replayed (seed {s.seed}); replicates: "
        f"{REPLICATES} runs of {sizes[-1]:,} chicas on seeds {s.seed + 1} to "
        f"{s.seed + REPLICATES}."
    )
    return text, fig, frame


def _cuenca_flip(base: Any, flips: dict[str, Any]) -> str | None:
    """The flip that turns the base into Cuenca (Quito's R7.2 switch), if one does."""
    cuenca = resolve_rules("cuenca")
    for label, rs in flips.items():
        if rs.slug() == cuenca.slug():
            return label
    return None


def _label(est: pd.DataFrame, metric: str) -> str:
    return str(est.loc[est["metric"] == metric, "label"].iloc[0])


def _flip_name(flip: str, qc: str | None) -> str:
    return f"{flip} (= Quito to Cuenca)" if flip == qc else flip


def _idle(row: pd.Series, blind: bool) -> bool:
    """Whether a row is a score switch's level-data effect that did not act (no pair differed):
    printed as :func:`_idle_text`, never as "cannot act" (a data from 0-0 can, rarely, reach 30
    or 38; the evidence is that none of the run's datas did)."""
    return blind and str(row["verdict"]) == "identical"


def _idle_text(row: pd.Series) -> str:
    """``"did not act in 40,000 datas (0 pairs differ)"``: the evidence, from the row."""
    return f"did not act in {int(row['n']):,} datas ({int(row['differing']):,} pairs differ)"


def _cell(row: pd.Series, *, blind: bool = False) -> str:
    if _idle(row, blind):
        return _idle_text(row)
    if row["verdict"] == "identical":
        return "0 (identical)"
    text = rel_text(row) if row["metric"] == "datas_per_chica" else diff_text(row)
    return text + _VERDICT_MARK.get(str(row["verdict"]), "")


#: The mark every table of the report puts after an effect, by verdict (the intros of
#: "What the rules you play change" and "Summary" list them): the same rule in every table.
_VERDICT_MARK = {
    "not resolved": " ~",
    "undefined": " (undefined)",
    "too small to tell": " (too small to tell)",
    "negligible": " (no difference)",
    "resolved, possibly negligible": " (possibly negligible)",
    "identical": "",
}


def _rules_you_play(
    diff: pd.DataFrame, models: list[Model], s: StudySettings, qc: str | None
) -> pd.DataFrame:
    """Disputed readings (and the Cuenca flip) by |effect on datas per chica|, headline."""
    head = models[0].label
    rows = []
    sub = diff[diff["disputed"]]
    for (flip, p), g in sub.groupby(["variant", "players"], sort=False):
        row: dict[str, Any] = {"flip": _flip_name(flip, qc), "variant": flip, "players": p}
        hrow = g[g["model"] == head].set_index("metric", drop=False)
        for metric in HEADLINE_METRICS:
            r = hrow.loc[metric]
            row[_rules_column(head, metric, r["label"])] = _cell(
                r, blind=level_blind(flip, r["level"])
            )
        row["sort"] = abs(float(hrow.loc["datas_per_chica", "estimate"]))
        chica = g[g["metric"] == "datas_per_chica"]
        row["across models"] = robustness(chica)
        row["across models, short"] = robustness(chica, short=True)
        rows.append(row)
    out = pd.DataFrame(rows)
    if out.empty:
        return out
    first = out[out["players"] == s.players[0]].sort_values("sort", ascending=False, kind="stable")
    order = {f: i for i, f in enumerate(first["variant"])}
    out["order"] = out["variant"].map(order)
    return out.sort_values(["order", "players"], kind="stable").drop(columns=["sort", "order"])


def _rules_column(head: str, metric: str, label: str) -> str:
    """Column of the rules table: the headline model, the metric and its unit."""
    if metric == "datas_per_chica":
        return f"{head}: {label}, relative change"
    if is_percent(metric):
        return f"{head}: {label}, percentage points"
    return f"{head}: {label}"


def _rules_markdown(table: pd.DataFrame, s: StudySettings) -> str:
    if table.empty:
        return "(no reading of the base differs from another source's)"
    cols = [c for c in table.columns if c not in ("variant", "across models, short")]
    return markdown_table(cols, table[cols].to_numpy().tolist(), right=(1,))


def _scope_section(est: pd.DataFrame, diff: pd.DataFrame, head: Model, s: StudySettings) -> str:
    rows = []
    sub = diff[diff["model"] == head.label]
    for flip in dict.fromkeys(sub["variant"]):
        name = switch_of(flip)
        if name not in SWITCH_SCOPE:
            continue
        acts, shows, _ = SWITCH_SCOPE[name]
        for p in s.players:
            g = sub[(sub["variant"] == flip) & (sub["players"] == p)].set_index(
                "metric", drop=False
            )
            effects = (
                "; ".join(
                    f"{g.loc[m, 'label']} {_cell(g.loc[m])}"
                    for m in ("datas_per_chica", "decided_at_38", "zapateria", "chicas_per_mesa")
                    if m in g.index and g.loc[m, "verdict"] != "identical"
                )
                or "no chica or mesa metric changed (identical in every pair)"
            )
            data_pts = g.loc["points"]
            data_text = (
                f"identical ({int(data_pts['differing']):,} pairs differ)"
                if data_pts["verdict"] == "identical"
                else diff_text(data_pts)
            )
            rows.append([flip, p, acts, data_text, effects, shows, cannot_show(flip, data_pts)])
    table = markdown_table(
        [
            "flip",
            "players",
            "acts at",
            "points per data at level data (0-0 starts)",
            f"chica and mesa effects ({head.label})",
            "the design can show",
            "it cannot show",
        ],
        rows,
        right=(1,),
    )
    return prose("sensitivity").scope(s, head, table)


def _summary(diff: pd.DataFrame, head: Model, s: StudySettings) -> pd.DataFrame:
    cols = ("datas_per_chica", "points", "first_dealer_wins", "zapateria")
    rows = []
    sub = diff[diff["model"] == head.label]
    for (variant, p), g in sub.groupby(["variant", "players"], sort=False):
        by = g.set_index("metric", drop=False)
        rows.append(
            [
                variant,
                p,
                *(
                    _idle_text(by.loc[m])
                    if _idle(by.loc[m], level_blind(variant, by.loc[m, "level"]))
                    else _mark(by.loc[m])
                    for m in cols
                ),
            ]
        )
    return pd.DataFrame(
        rows,
        columns=[
            "flip",
            "players",
            "datas per chica",
            "points per data",
            "P(first dealer wins chica), percentage points",
            "P(zapateria), percentage points",
        ],
    )


def _mark(row: pd.Series) -> str:
    """A summary cell: the difference with its interval and the verdict mark every table of
    the report uses (:data:`_VERDICT_MARK`: `` ~`` not resolved, *(possibly negligible)*,
    *(no difference)*, *(too small to tell)*; ``0 (identical)`` alone)."""
    return diff_text(row) + _VERDICT_MARK.get(str(row["verdict"]), "")


def _metric_section(
    est: pd.DataFrame, diff: pd.DataFrame, metric: str, models: list[Model], s: StudySettings
) -> str:
    pct = is_percent(metric)
    head = models[0].label
    bases = []
    for p in s.players:
        b = select(est, players=p, variant="base", metric=metric, model=head)
        bases.append((p, b))
    sub = diff[diff["metric"] == metric]
    first = sub[(sub["players"] == s.players[0]) & (sub["model"] == head)]
    order = first.assign(a=first["estimate"].abs()).sort_values(
        "a", ascending=False, kind="stable"
    )["variant"]
    rows = []
    for v in order:
        for p in s.players:
            g = sub[(sub["players"] == p) & (sub["variant"] == v)]
            by = {r["model"]: r for _, r in g.iterrows()}
            blind = level_blind(v, str(g["level"].iloc[0]))
            cells = [v, p]
            for m in models:
                r = by.get(m.label)
                if r is None:
                    cells.append("not run")
                elif _idle(r, blind):
                    cells.append(_idle_text(r))
                else:
                    cells.append(f"{diff_text(r)} ({verdict_text(r)})")
            idle = blind and bool((g["verdict"].astype(str) == "identical").all())
            cells.append(
                "did not act in any model's run (no pair differs)" if idle else robustness(g)
            )
            rows.append(cells)
    headers = ["flip", "players", *(m.label for m in models), "across models"]
    method = first["method"].iloc[0] if len(first) else ""
    table = markdown_table(headers, rows, right=(1,))
    return prose("sensitivity").metric(s, metric, bases, pct, method, table, head)


def _tornado(
    est: pd.DataFrame,
    diff: pd.DataFrame,
    metric: str,
    head: Model,
    s: StudySettings,
    qc: str | None = None,
):
    """Tornado of ``metric`` under the headline model, in the report's units (percentage
    points for percentages); identical flips are drawn without a whisker."""
    pct = is_percent(metric)
    k = 100.0 if pct else 1.0
    unit = " (percentage points)" if pct else ""
    flips = diff["variant"].nunique()
    fig, axes = new_figure(1, len(s.players), (6.5, 0.32 * flips + 1.6))
    for ax, p in zip(axes[0], s.players, strict=True):
        sub = diff[
            (diff["players"] == p) & (diff["metric"] == metric) & (diff["model"] == head.label)
        ]
        # An identical flip (no pair differed) has no measured spread: no whisker, as in the
        # tables, rather than its no-variation bound drawn like an interval.
        same = (sub["verdict"] == "identical").to_numpy()
        # A flip whose switch acts only from scores, and did not act on a level-data metric
        # (no pair differed), is marked "did not act", never drawn as a measured zero. Labels
        # as in the tables.
        sub = sub.assign(
            estimate=sub["estimate"] * k,
            lower=sub["lower"].where(~same, sub["estimate"]) * k,
            upper=sub["upper"].where(~same, sub["estimate"]) * k,
            cannot_act=[level_blind(v, str(lv)) and str(vd) == "identical"
                        for v, lv, vd in zip(sub["variant"], sub["level"], sub["verdict"],
                                             strict=True)],
            flip=[_flip_name(v, qc) for v in sub["variant"]],
        )  # fmt: skip
        plotting.tornado(
            sub,
            ax=ax,
            label="flip",
            xlabel=f"effect on {_label(est, metric)}{unit}\nwhiskers: intervals at Holm's level",
            title=f"{p} players, {head.label}",
            legend=p == s.players[0],
            cannot_text="did not act (0 pairs differ)",
        )
    return fig


def _base_table(est: pd.DataFrame) -> str:
    rows = []
    for _, r in est[est["variant"] == "base"].iterrows():
        rows.append(
            [r["model"], r["label"], r["players"], est_text(r), f"{int(r['n']):,}", r["method"]]
        )
    return markdown_table(
        ["model", "metric (base)", "players", "estimate [interval]", "n", "method"],
        rows,
        right=(2, 3, 4),
    )
