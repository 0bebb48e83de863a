"""Cuarenta's generated studies: Quito vs Cuenca, ronda and caida odds, rule sensitivity.

Builders registered in :func:`cuarenta_sim.studies.run_study` (``cuarenta-sim report NAME``);
each returns a :class:`cuarenta_sim.studies.GeneratedReport`.
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from typing import Any

import pandas as pd
from matplotlib.figure import Figure

from .. import plotting
from ..reports import Report, interval_header, markdown_table, text_table
from ..studies import (
    METHODS_NOTE,
    GeneratedReport,
    Progress,
    StudySettings,
    _diff_cell,
    _new_figure,
    _provenance,
    _rel_cell,
    _row_cell,
    _say,
    cell,
)
from . import analysis, compare
from .rules import resolve_rules


def _unresolved(diffs: pd.DataFrame, label_cols: Sequence[str]) -> str:
    bad = diffs[diffs["verdict"].isin(["not resolved", "undefined"])]
    if bad.empty:
        return ("Every difference quoted in this report is resolved (its interval excludes 0) "
                "or exactly 0 (identical in every pair).")
    rows = [[*(str(r[c]) for c in label_cols), str(r["label"]),
             _diff_cell(r, percent=r["metric"] in PERCENT_METRICS),
             f"{int(r['differing']):,} of {int(r['n']):,}", r["verdict"]]
            for _, r in bad.iterrows()]
    return (
        f"{len(bad)} difference(s) are **not resolved** at these sample sizes: the interval "
        f"contains 0, so the sign of the effect is unknown. The column *pairs that differ* "
        f"says how many paired datas or games gave different values at all; where it is a "
        f"handful out of many, the effect is real but negligible, and resolving its sign would "
        f"take far more datas than it is worth.\n\n"
        + markdown_table([*label_cols, "metric", "difference [interval]", "pairs that differ",
                          "verdict"], rows, right=(len(label_cols) + 1, len(label_cols) + 2))
    )


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
    "first_dealer_wins", "zapateria", "decided_at_38", "ronda_dealt", "mesa_zapateria",
    "caidas_per_play", "limpias_per_play", "caidas_limpias_per_play", "rondas_per_hand",
    "doble_rondas_per_hand", "share_carton", "share_caida", "share_limpia", "share_ronda",
    "share_other",
}


def quito_vs_cuenca(settings: StudySettings, progress: Progress | None = None
                    ) -> GeneratedReport:
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
            {"quito": "quito", "cuenca": "cuenca"}, players=players,
            policies=settings.policies, n_datas=settings.n, n_chicas=settings.n_chicas,
            n_mesas=settings.n_mesas, seed=settings.seed, confidence=settings.confidence,
            threads=settings.threads, keep=("chica", "chica_hands", "data"),
            on_variant=lambda v, p=players: _say(progress, f"simulating {v}, {p} players"),
        )
        runs += comp.meta["runs"]
        estimates.append(comp.estimates.assign(players=players))
        differences.append(comp.differences.assign(players=players))
        for variant, frames in comp.frames.items():
            dist = analysis.length_distribution(frames["chica"]["hands"], settings.confidence)
            lengths.append(dist.assign(variant=variant, players=players))
            wp = analysis.win_probability_by_score(frames["chica_hands"], frames["chica"],
                                                   players=players,
                                                   confidence=settings.confidence)
            winprob.append(wp.assign(variant=variant, players=players))
        odds_rows.append(analysis.odds_check(comp.frames["quito"]["data"], players,
                                             settings.confidence))
        del comp
    est = pd.concat(estimates, ignore_index=True)
    diff = pd.concat(differences, ignore_index=True)
    length = pd.concat(lengths, ignore_index=True)
    wins = pd.concat(winprob, ignore_index=True)
    odds_table = pd.concat(odds_rows, ignore_index=True)

    summary = _qc_summary(est, diff, settings)
    report = Report(
        title="Quito vs Cuenca scoring: paired simulation",
        provenance=_provenance("quito-vs-cuenca", settings, runs, time.perf_counter() - t0,
                               rules={"quito": "quito", "cuenca": "cuenca"}),
        command=settings.command("quito-vs-cuenca"),
    )
    report.add("Summary", _qc_intro(settings) + "\n\n" + markdown_table(
        list(summary.columns), summary.to_numpy().tolist(), right=(2, 3, 4, 5)))
    report.add("How much does Cuenca scoring shorten a chica?",
               _qc_shorten(est, diff, settings))
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
        name="quito-vs-cuenca", report=report, figures=figures,
        summary=f"Quito vs Cuenca ({_sizes(settings)})\n{text}",
        tables={"estimates": est, "differences": diff, "summary": summary,
                "win_probability": wins, "chica_length": length, "odds": odds_table},
    )


def _sizes(s: StudySettings) -> str:
    return (f"{s.n:,} datas, {s.n_chicas:,} chicas, {s.n_mesas:,} mesas per preset and player "
            f"count; seed {s.seed}; policies {','.join(s.policies)}; "
            f"{interval_header(s.confidence)}s")


def _qc_intro(s: StudySettings) -> str:
    return (
        "Quito and Cuenca scoring differ in one rule only (R7.2): a play that is both a caida "
        "and a limpia scores 2 points in Quito (\"todo dos\") and 4 in Cuenca. Both presets "
        f"played the same decks ({_sizes(s)}): common random numbers, so the differences are "
        "paired and their intervals are tight. Each cell is `estimate [interval]`; the "
        "interval method of every row is in the *All metrics* section; percentages are "
        "percentages of plays, datas or chicas."
    )


def _est_row(est: pd.DataFrame, players: int, variant: str, metric: str) -> pd.Series:
    sel = est[(est["players"] == players) & (est["variant"] == variant)
              & (est["metric"] == metric)]
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
            rows.append([q["label"], players, _row_cell(q, percent=pct),
                         _row_cell(c, percent=pct), _diff_cell(d, percent=pct), _rel_cell(d),
                         d["verdict"]])
    return pd.DataFrame(rows, columns=["metric", "players", "Quito", "Cuenca",
                                       "Cuenca - Quito", "relative", "verdict"])


def _qc_shorten(est: pd.DataFrame, diff: pd.DataFrame, s: StudySettings) -> str:
    lines = []
    for p in s.players:
        q = _est_row(est, p, "quito", "datas_per_chica")
        c = _est_row(est, p, "cuenca", "datas_per_chica")
        d = _diff_row(diff, p, "datas_per_chica")
        pts = _diff_row(diff, p, "points")
        lines.append(
            f"- **{p} players**: a chica lasts {_row_cell(q)} datas under Quito and "
            f"{_row_cell(c)} under Cuenca (normal intervals over {int(q['n']):,} chicas). "
            f"Paired on the same decks, Cuenca - Quito = **{_row_cell(d)} datas per chica** "
            f"(`paired`), a relative change of **{_rel_cell(d)}** (`paired log-ratio`): "
            f"{d['verdict']}. The reason: Cuenca adds {_row_cell(pts)} points per data "
            f"(`paired`, both sides together)."
        )
    return ("\n".join(lines) + "\n\nThe distribution of chica lengths (share of chicas "
            "lasting 1, 2, ... datas, Wilson whiskers):\n\n![chica lengths](figures/"
            "chica_length.png)")


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
        rows.append(["**all**", p, tot[0], "100%", tot[1], "100%",
                     _row_cell(_diff_row(diff, p, "points"))])
    table = markdown_table(
        ["source", "players", "Quito points/data", "Quito share", "Cuenca points/data",
         "Cuenca share", "Cuenca - Quito points/data"], rows, right=(2, 3, 4, 5, 6))
    return (
        "Points per data of both sides together, by source (contract section 8: carton R8.2, "
        "caida R6 incl. caida en ronda, limpia R7, ronda R4, other = R8.3 tie at 20, R8.4 "
        "under 20, R8.5 falla). Points per data: `normal`; shares: `ratio` (source points / "
        "all points, summed over datas); differences: `paired`. Level-data runs: every data is "
        "played to its last card from 0-0.\n\n" + table
        + "\n\n![points by source](figures/points_by_source.png)"
    )


def _qc_dealer(est: pd.DataFrame, diff: pd.DataFrame, s: StudySettings) -> str:
    lines = []
    for p in s.players:
        parts = []
        for v, name in (("quito", "Quito"), ("cuenca", "Cuenca")):
            adv = _est_row(est, p, v, "dealer_advantage")
            win = _est_row(est, p, v, "first_dealer_wins")
            edge = cell(win["estimate"] - 0.5, win["lower"] - 0.5, win["upper"] - 0.5,
                        bool(win["defined"]), percent=True, suffix=" pp")
            parts.append(
                f"{name}: the dealer's side scores {_row_cell(adv)} more points per data than "
                f"the other side (`normal`), and the side dealing the first data wins the "
                f"chica {_row_cell(win, percent=True)} of the time (`wilson`), an edge of "
                f"{edge} over a fair 50%"
            )
        d = _diff_row(diff, p, "dealer_advantage")
        dw = _diff_row(diff, p, "first_dealer_wins")
        lines.append(
            f"- **{p} players**. " + "; ".join(parts) + f". Cuenca - Quito: "
            f"{_row_cell(d)} points per data ({d['verdict']}) and "
            f"{_diff_cell(dw, percent=True)} in the first dealer's chance ({dw['verdict']}), "
            "both `paired`."
        )
    return ("The dealer plays last in every deal (R3.3), so it can take the cards trailed to "
            "it and make the last captures.\n\n" + "\n".join(lines))


def _qc_rondas(odds_table: pd.DataFrame, s: StudySettings) -> str:
    rows = []
    for _, r in odds_table.iterrows():
        if r["event"] not in ("ronda", "doble_ronda") or r["scope"] not in (
                "hand", "side 0", "anyone"):
            continue
        pct = r["scope"] != "per data"
        rows.append([r["event"].replace("_", " "), r["scope"].replace("side 0", "side"),
                     r["players"], f"{100 * r['exact']:.4f}%", _row_cell(r, percent=pct),
                     f"{int(r['n']):,}", r["method"], "yes" if r["within"] else "**no**"])
    return (
        "Rondas depend on the deal only, so Quito and Cuenca are identical here (the deck of a "
        "data does not depend on the rules). Exact values from `cuarenta_sim.cuarenta.odds` "
        "(combinatorics, R4.1 three of a rank, R4.2 four of a rank), simulated values from the "
        "Quito level-data runs: per dealt 5-card hand (8 per data; `ratio` over datas, since "
        "the hands of one data come from one deck), for one side (4 hands) and for anyone (8 "
        "hands) in a data (`wilson`). The odds report has every scope.\n\n"
        + markdown_table(["event", "scope", "players", "exact", "simulated [interval]",
                          "n", "method", "exact inside"], rows, right=(3, 4, 5))
    )


def _qc_caidas(est: pd.DataFrame, diff: pd.DataFrame, s: StudySettings) -> str:
    rows = []
    verdicts = set()
    for p in s.players:
        for metric in ("caidas_per_play", "limpias_per_play", "caidas_limpias_per_play",
                       "caidas_per_data"):
            q = _est_row(est, p, "quito", metric)
            c = _est_row(est, p, "cuenca", metric)
            d = _diff_row(diff, p, metric)
            verdicts.add(d["verdict"])
            pct = metric in PERCENT_METRICS
            rows.append([q["label"], p, _row_cell(q, percent=pct), _row_cell(c, percent=pct),
                         _diff_cell(d, percent=pct), d["verdict"], q["method"]])
    same = (
        "The counts are identical under both presets in every paired data: with these "
        "policies the players make the same plays under either scoring, so R7.2 changes the "
        "points of those plays, not how often they happen. "
        if verdicts == {"identical"}
        else ""
    )
    return (
        "A caida (R6.1) is a match of the card the previous player just trailed; per play = "
        "per card played (40 plays per data). Rates per play are `ratio` intervals over datas "
        "(plays of one data are not independent); per data `normal`; differences `paired` / "
        f"`paired ratio`. {same}\n\n"
        + markdown_table(["metric", "players", "Quito", "Cuenca", "Cuenca - Quito",
                          "verdict", "method"], rows, right=(2, 3, 4))
    )


def _qc_winprob(wins: pd.DataFrame, s: StudySettings) -> str:
    rows = []
    for p in s.players:
        for v in ("quito", "cuenca"):
            sub = wins[(wins["players"] == p) & (wins["variant"] == v)]
            for own, opp in ((10, 10), (20, 20), (30, 20), (20, 30), (38, 30), (30, 38),
                             (38, 38)):
                r = sub[(sub["own_score"] == own) & (sub["opponent_score"] == opp)].iloc[0]
                rows.append([p, v, f"{own}-{opp}", _row_cell(r, percent=True),
                             f"{int(r['n']):,}"])
    return (
        "P(win the chica | the scores after a data), for the side that deals the next data "
        "(the other side's chance is one minus it), from the level-chica runs (`wilson` per "
        "state; states never reached are blank in the figure and kept with n = 0 in the "
        "data). At equal scores the excess over 50% is the next dealer's edge. Selected "
        "states (next dealer's score first):\n\n"
        + markdown_table(["players", "rules", "own-opponent", "P(win) [interval]", "n"], rows,
                         right=(3, 4))
        + "\n\n![win probability by score state](figures/win_probability.png)"
    )


def _qc_all(est: pd.DataFrame, diff: pd.DataFrame, s: StudySettings) -> str:
    parts = []
    for p in s.players:
        rows = []
        for _, q in est[(est["players"] == p) & (est["variant"] == "quito")].iterrows():
            c = _est_row(est, p, "cuenca", q["metric"])
            d = _diff_row(diff, p, q["metric"])
            pct = q["metric"] in PERCENT_METRICS
            rows.append([q["label"], q["level"], _row_cell(q, percent=pct),
                         _row_cell(c, percent=pct), f"{int(q['n']):,}", q["method"],
                         _diff_cell(d, percent=pct), d["method"], d["verdict"]])
        parts.append(f"**{p} players**\n\n" + markdown_table(
            ["metric", "level", "Quito", "Cuenca", "n", "method", "Cuenca - Quito", "method",
             "verdict"], rows, right=(2, 3, 4, 6)))
    return "\n\n".join(parts)


def _truncated(est: pd.DataFrame, players: int, variant: str) -> int:
    """Chicas stopped after 10,000 datas: counted by ``datas_per_chica`` (every chica) but
    not by ``first_dealer_wins`` (finished chicas only)."""
    every = _est_row(est, players, variant, "datas_per_chica")["n"]
    finished = _est_row(est, players, variant, "first_dealer_wins")["n"]
    return int(every - finished)


def _qc_methods(est: pd.DataFrame, s: StudySettings) -> str:
    truncated = sum(_truncated(est, p, v) for p in s.players for v in ("quito", "cuenca"))
    return (
        f"Simulation: `cuarenta_sim.simulate` with policies {','.join(s.policies)}, seed "
        f"{s.seed} for every run. Level data: {s.n:,} independent datas per preset, each "
        f"played to its last card from 0-0, dealer = index mod players. Level chica: "
        f"{s.n_chicas:,} chicas; level mesa: {s.n_mesas:,} mesas. Chica j (mesa j) and data i "
        "are dealt the same cards under both presets, so row i of one is paired with row i of "
        "the other (`cuarenta_sim.cuarenta.compare`). Chica and mesa proportions count finished "
        "games "
        f"only; {truncated} chica(s) in all were truncated (stopped after 10,000 datas).\n\n"
        + METHODS_NOTE
    )


def _fig_sources(est: pd.DataFrame, s: StudySettings) -> Figure:
    fig, axes = _new_figure(1, len(s.players))
    for ax, p in zip(axes[0], s.players, strict=True):
        rows = []
        for v in ("quito", "cuenca"):
            for src in compare.POINT_SOURCES:
                r = _est_row(est, p, v, f"points_{src}")
                rows.append({"source": src, "variant": v, **r[["estimate", "lower", "upper",
                                                                "defined"]].to_dict()})
        plotting.points_by_source(pd.DataFrame(rows), ax=ax,
                                  title=f"Points per data by source, {p} players")
    return fig


def _fig_lengths(length: pd.DataFrame, s: StudySettings) -> Figure:
    fig, axes = _new_figure(1, len(s.players))
    for ax, p in zip(axes[0], s.players, strict=True):
        plotting.length_distribution(length[length["players"] == p], ax=ax,
                                     title=f"Datas per chica, {p} players")
    return fig


def _fig_winprob(wins: pd.DataFrame, s: StudySettings) -> Figure:
    fig, axes = _new_figure(len(s.players), 2, (5.5, 4.5))
    for i, p in enumerate(s.players):
        for j, v in enumerate(("quito", "cuenca")):
            sub = wins[(wins["players"] == p) & (wins["variant"] == v)]
            plotting.score_heatmap(sub, ax=axes[i, j],
                                   title=f"P(next dealer's side wins), {v}, {p} players",
                                   colorbar=j == 1)
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
    metrics = [m for m in compare.cuarenta_metrics() if m.name in (
        "caidas_per_play", "caidas_per_data", "caidas_limpias_per_play", "limpias_per_play")]
    for p in settings.players:
        _say(progress, f"simulating {rules.slug()}, {p} players")
        frames = compare.simulate_frames(rules, players=p, policies=settings.policies,
                                         n_datas=settings.n, seed=settings.seed,
                                         threads=settings.threads, runs=runs)
        tables.append(analysis.odds_check(frames["data"], p, settings.confidence))
        rates.append(compare.estimate_metrics(frames, metrics, settings.confidence)
                     .assign(players=p))
        del frames
    _say(progress, "counting caida risk on the simulator's decks")
    odds_table = pd.concat(tables, ignore_index=True)
    rate = pd.concat(rates, ignore_index=True)
    risk = analysis.caida_risk_table()
    check = analysis.caida_risk_check(settings.n, settings.seed, settings.confidence)

    report = Report(
        title="Ronda and caida odds: exact vs simulated",
        provenance=_provenance("odds", settings, runs, time.perf_counter() - t0,
                               rules=rules.slug(), caida_risk_decks=settings.n),
        command=settings.command("odds"),
    )
    inside = int(odds_table["within"].sum())
    report.add("Summary", (
        f"{inside} of {len(odds_table)} exact dealing odds lie inside the "
        f"{interval_header(settings.confidence)} of their simulated estimate "
        f"({settings.n:,} datas per player count, seed {settings.seed}); at 95% about one in "
        f"twenty would fall outside by chance alone. The rows are not independent checks: a "
        f"data's deck depends only on the seed and its index, so the 2- and 4-player runs "
        f"deal the same decks, and the scopes overlap (seat and side 0 with 2 players, ronda "
        f"and ronda or better), so one unusual sample of decks moves several rows together. "
        f"A ronda (three of a rank in a 5-card "
        f"hand, R4.1) is dealt in "
        + _odds_cell(odds_table, "ronda", "anyone")
        + " of datas to someone; a caida (R6.1) happens on "
        + ", ".join(f"{_row_cell(_rate(rate, p, 'caidas_per_play'), percent=True)} of plays "
                    f"with {p} players" for p in settings.players)
        + f" (rules {rules.slug()}, policies {','.join(settings.policies)})."
    ))
    report.add("Dealing odds (R4)", _odds_section(odds_table))
    report.add("Caida rate per play", _rates_section(rate, rules.slug(), settings))
    report.add("Caida risk (R6.1)", _risk_section(risk, check, settings))
    report.add("Methods", (
        "Exact values: `cuarenta_sim.cuarenta.odds` (exact fractions by combinatorics over the 8 "
        "five-card hands of a data). Simulated values: `cuarenta_sim.simulate`, level data "
        "(each data dealt in full). Datas are independent (own random streams), so the data "
        "scopes use `wilson`; per hand and per data the 8 hands of one data share a deck, so "
        "`ratio` (events / hands, delta method over datas) and `normal` (events per data). "
        "\n\n" + METHODS_NOTE))
    fig, axes = _new_figure(1, len(settings.players), (6.5, 6.0))
    for ax, p in zip(axes[0], settings.players, strict=True):
        sub = odds_table[odds_table["players"] == p]
        plotting.exact_vs_simulated(
            sub.assign(label=sub["event"] + ", " + sub["scope"]), ax=ax,
            title=f"Simulated vs exact, {p} players")
    summary_rows = [[r["event"], r["scope"], r["players"], f"{r['exact']:.6f}",
                     _row_cell(r), "yes" if r["within"] else "no"]
                    for _, r in odds_table.iterrows()]
    text = text_table(["event", "scope", "players", "exact", "simulated [interval]", "inside"],
                      summary_rows, right=(2, 3, 4))
    return GeneratedReport(
        name="odds", report=report, figures={"exact_vs_simulated": fig},
        summary=f"Ronda odds, exact vs simulated ({settings.n:,} datas per player count)\n"
                + text,
        tables={"odds": odds_table, "caida_rates": rate, "caida_risk": risk,
                "caida_risk_check": check},
    )


def _odds_cell(table: pd.DataFrame, event: str, scope: str) -> str:
    r = table[(table["event"] == event) & (table["scope"] == scope)].iloc[0]
    return f"{_row_cell(r, percent=True)} (`{r['method']}`; exact {100 * r['exact']:.3f}%)"


def _rate(rate: pd.DataFrame, players: int, metric: str) -> pd.Series:
    return rate[(rate["players"] == players) & (rate["metric"] == metric)].iloc[0]


def _odds_section(t: pd.DataFrame) -> str:
    rows = []
    for _, r in t.iterrows():
        frac = r["exact_fraction"] if len(r["exact_fraction"]) <= 24 else "(long fraction)"
        pct = r["scope"] != "per data"
        exact = f"{100 * r['exact']:.4f}%" if pct else f"{r['exact']:.5f}"
        rows.append([r["event"].replace("_", " "), r["scope"], r["players"], exact, frac,
                     _row_cell(r, percent=pct), f"{int(r['n']):,}", r["method"],
                     "yes" if r["within"] else "**no**"])
    return (
        "Scopes: `hand` = one dealt 5-card hand; `seat` = at least one of a player's 4 hands "
        "in a data (2 players; with 4 players the records count per side, not per seat); "
        "`side 0`, `side 1` = at least one of the side's 4 hands (one player, or two "
        "partners with 2 hands each); `anyone` = at least one of the 8 hands; `per data` = "
        "expected number of the 8 hands with the event. `ronda or better` counts three or "
        "four of a rank.\n\n"
        + markdown_table(["event", "scope", "players", "exact", "exact fraction",
                          "simulated [interval]", "n", "method", "exact inside"], rows,
                         right=(3, 5, 6))
        + "\n\n![exact vs simulated](figures/exact_vs_simulated.png)"
    )


def _rates_section(rate: pd.DataFrame, slug: str, s: StudySettings) -> str:
    rows = []
    for _, r in rate.iterrows():
        pct = r["metric"].endswith("per_play")
        rows.append([r["label"], r["players"], _row_cell(r, percent=pct), f"{int(r['n']):,}",
                     r["method"]])
    return (
        f"Rules {slug}, policies {','.join(s.policies)}: how often a play (one card played) "
        "is a caida, a limpia, or both (R7.2). There is no closed form: these depend on how "
        "the players play.\n\n"
        + markdown_table(["metric", "players", "estimate [interval]", "datas", "method"], rows,
                         right=(2, 3))
    )


def _risk_section(risk: pd.DataFrame, check: pd.DataFrame, s: StudySettings) -> str:
    cols = [c for c in risk.columns if c != "seen"]
    rows = [[int(r["seen"]), *(f"{100 * r[c]:.1f}%" for c in cols)] for _, r in risk.iterrows()]
    crow = [[int(r["seen"]), f"{100 * r['exact']:.3f}%", _row_cell(r, percent=True),
             f"{int(r['trials']):,}", f"{int(r['n']):,}", r["method"],
             "yes" if r["within"] else "**no**"] for _, r in check.iterrows()]
    return (
        "You trail a card of a rank of which you can see `seen` cards (your hand, the table, "
        "cards already played; the trailed card included); `unseen` cards are hidden from "
        "you and the next player holds 5 of them. The chance that the next player can answer "
        "with a caida (holds at least one card of that rank), exact "
        "(`cuarenta_sim.cuarenta.odds.next_player_holds`, hypergeometric):\n\n"
        + markdown_table(["seen", *cols], rows, right=tuple(range(1, len(cols) + 1)))
        + "\n\nCheck on the simulator's decks: at the first play of a data the leader sees "
        f"only its 5 cards (`unseen` = 35); over {s.n:,} decks of seed {s.seed}, for each "
        "rank the leader holds, does the next seat hold that rank? (`ratio` over decks, since "
        "the ranks of one hand are not independent):\n\n"
        + markdown_table(["seen", "exact", "counted [interval]", "ranks", "decks", "method",
                          "exact inside"], crow, right=(1, 2, 3, 4))
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


def sensitivity_study(settings: StudySettings, progress: Progress | None = None
                      ) -> GeneratedReport:
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
            base, players=p, policies=settings.policies, n_datas=settings.n,
            n_chicas=settings.n_chicas, n_mesas=settings.n_mesas, seed=settings.seed,
            confidence=settings.confidence, threads=settings.threads,
            on_variant=lambda v, p=p: _say(progress, f"simulating {v}, {p} players"))
        runs += comp.meta["runs"]
        estimates.append(comp.estimates.assign(players=p))
        differences.append(comp.differences.assign(players=p))
    est = pd.concat(estimates, ignore_index=True)
    diff = pd.concat(differences, ignore_index=True)
    flips = list(dict.fromkeys(diff["variant"]))

    report = Report(
        title=f"Rule sensitivity: each switch flipped alone from {base.slug()}",
        provenance=_provenance("sensitivity", settings, runs, time.perf_counter() - t0,
                               base=base.slug(), flips=flips),
        command=settings.command("sensitivity"),
    )
    summary = _sens_summary(diff, settings)
    report.add("Summary", (
        f"Base rules `{base.slug()}`; every other rule set differs from it in exactly one "
        f"switch (spec section S; `target` is not flipped: every source plays to 40). Each "
        f"played the same decks as the base ({_sizes(settings)}), so every effect is a "
        f"paired difference (`paired` / `paired ratio`). Cells: effect [interval]; a `~` "
        f"marks an effect that is **not resolved** (interval contains 0), `=` an effect that "
        f"is exactly 0 (identical in every pair).\n\n"
        + markdown_table(list(summary.columns), summary.to_numpy().tolist(),
                         right=tuple(range(2, summary.shape[1])))))
    for metric in TORNADO_METRICS:
        report.add(f"Effect on {_label(est, metric)}", _sens_metric(est, diff, metric,
                                                                    settings))
    report.add("Resolution", _unresolved(diff, ["players", "variant"]))
    report.add("Methods", (
        f"Base estimates (rules {base.slug()}) are in `provenance.json` runs and below; "
        f"effects are `flipped - base` on the same decks. Level data: every data from 0-0 to "
        f"its last card; chica and mesa metrics count finished games.\n\n" + _base_table(est)
        + "\n\n" + METHODS_NOTE))
    figures = {}
    for metric in TORNADO_METRICS:
        fig, axes = _new_figure(1, len(settings.players), (6.5, 0.32 * len(flips) + 1.6))
        for ax, p in zip(axes[0], settings.players, strict=True):
            sub = diff[(diff["players"] == p) & (diff["metric"] == metric)]
            plotting.tornado(sub, ax=ax, xlabel=f"effect on {_label(est, metric)}",
                             title=f"{p} players")
        figures[f"tornado_{metric}"] = fig
    text = text_table(list(summary.columns), summary.to_numpy().tolist(),
                      right=tuple(range(2, summary.shape[1])))
    return GeneratedReport(
        name="sensitivity", report=report, figures=figures,
        summary=f"Rule sensitivity from {base.slug()} ({_sizes(settings)})\n{text}",
        tables={"estimates": est, "differences": diff, "summary": summary},
    )


def _label(est: pd.DataFrame, metric: str) -> str:
    return str(est.loc[est["metric"] == metric, "label"].iloc[0])


def _mark(row: Mapping[str, Any], *, percent: bool = False) -> str:
    text = _diff_cell(row, percent=percent)
    return {"not resolved": "~ ", "identical": "= ", "undefined": "? "}.get(
        row["verdict"], "") + text


def _sens_summary(diff: pd.DataFrame, s: StudySettings) -> pd.DataFrame:
    head = ("datas_per_chica", "points", "first_dealer_wins", "zapateria")
    rows = []
    for (variant, p), sub in diff.groupby(["variant", "players"], sort=False):
        by = sub.set_index("metric")
        rows.append([variant, p, *(_mark(by.loc[m], percent=m in PERCENT_METRICS)
                                   for m in head)])
    return pd.DataFrame(rows, columns=["flip", "players", "datas per chica", "points per data",
                                       "P(first dealer wins chica)", "P(zapateria)"])


def _sens_metric(est: pd.DataFrame, diff: pd.DataFrame, metric: str,
                 s: StudySettings) -> str:
    pct = metric in PERCENT_METRICS
    base_cells = []
    for p in s.players:
        b = est[(est["players"] == p) & (est["variant"] == "base") & (est["metric"] == metric)]
        base_cells.append(f"{p} players {_row_cell(b.iloc[0], percent=pct)} "
                          f"(`{b.iloc[0]['method']}`)")
    sub = diff[diff["metric"] == metric]
    first = sub[sub["players"] == s.players[0]]
    order = first.assign(a=first["estimate"].abs()).sort_values("a", ascending=False,
                                                                kind="stable")["variant"]
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
    return (
        f"Base: {'; '.join(base_cells)}. Effects `flipped - base` (`{method}`), largest first "
        f"({s.players[0]} players):\n\n"
        + markdown_table(headers, rows, right=tuple(range(1, len(headers), 2)))
        + f"\n\n![tornado {metric}](figures/tornado_{metric}.png)"
    )


def _base_table(est: pd.DataFrame) -> str:
    rows = []
    for _, r in est[est["variant"] == "base"].iterrows():
        rows.append([r["label"], r["players"],
                     _row_cell(r, percent=r["metric"] in PERCENT_METRICS), f"{int(r['n']):,}",
                     r["method"]])
    return markdown_table(["metric (base)", "players", "estimate [interval]", "n", "method"],
                          rows, right=(2, 3))
