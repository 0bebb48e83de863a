"""The headline model's detailed sections and figures of the ``quito-vs-cuenca`` report.

Each function turns the headline model's estimates and paired differences (frames of
:func:`cuarenta_sim.cuarenta.compare.compare_rules` with ``model`` and ``players`` columns)
into one report section (Markdown, sentences from ``templates/quito_vs_cuenca.md.j2``) or one
figure; :func:`.quito_vs_cuenca.quito_vs_cuenca` assembles them.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from ... import plotting
from ...reports import markdown_table
from ...studies import StudySettings, cell
from ...studies.convergence import convergence_note
from ...studies.framework import new_figure
from .. import compare
from ..rules import RuleSet
from .common import diff_text, est_text, exact_table, prose, rel_text, select, verdict_text
from .panel import Model

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


#: Replicate seeds (``seed + 1`` ...) of the convergence figure, each a quarter of the chicas.
REPLICATES = 2


def convergence_players(s: StudySettings) -> int:
    """Player count of the convergence figure: 2 when the report plays it, else the first."""
    return 2 if 2 in s.players else s.players[0]


def convergence(
    main: pd.Series | np.ndarray, head: Model, s: StudySettings
) -> tuple[str, Figure, pd.DataFrame]:
    """Convergence of the paired difference Cuenca - Quito of datas per chica (R7.2).

    Parameters
    ----------
    main : array-like, shape (n_chicas,)
        Per-chica differences of the headline model's main run (chica j of both presets was
        dealt the same cards).
    head : Model
        Headline model; its policies play :data:`REPLICATES` replicate runs of
        ``max(10, n_chicas // 4)`` chicas per preset on seeds ``seed + 1`` ... (paired the
        same way).
    s : StudySettings

    Returns
    -------
    (str, Figure, DataFrame)
        As :func:`cuarenta_sim.studies.convergence.convergence_note`.
    """
    players = convergence_players(s)
    reps = [np.asarray(main, dtype=np.float64)]
    for r in range(1, REPLICATES + 1):
        frames = {
            v: compare.simulate_frames(
                v,
                players=players,
                policies=head.policies,
                n_chicas=max(10, head.n_chicas // 4),
                seed=s.seed + r,
                threads=s.threads,
            )["chica"]["hands"].to_numpy(np.float64)
            for v in ("quito", "cuenca")
        }
        reps.append(frames["cuenca"] - frames["quito"])
    text, fig, frame = convergence_note(
        reps,
        what=f"Cuenca - Quito datas per chica ({players} players, {head.label})",
        unit="chicas",
        confidence=s.confidence,
        reference=0.0,
    )
    text += (
        f" Replicates: {REPLICATES} runs of {max(10, head.n_chicas // 4):,} chicas per preset on "
        f"seeds {s.seed + 1} to {s.seed + REPLICATES}."
    )
    return text, fig, frame


def summary_table(est: pd.DataFrame, diff: pd.DataFrame, s: StudySettings) -> pd.DataFrame:
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


def shorten_section(est: pd.DataFrame, diff: pd.DataFrame, s: StudySettings) -> str:
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


def sources_section(est: pd.DataFrame, diff: pd.DataFrame, s: StudySettings) -> str:
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
    return prose("quito_vs_cuenca").sources(table, caida_limpia_booking())


def caida_limpia_booking() -> list[dict[str, object]]:
    """Where each preset books the points of a play that is both a caida and a limpia (R7.2),
    read from the presets' ``caida_limpia_cumulative`` switch (the engine's
    ``capture_points`` credits the limpia's 2 points only when it is true).

    Returns
    -------
    list of dict
        Per preset (``quito``, ``cuenca``): ``name``, ``total`` points of such a play, and
        ``caida`` / ``limpia``, the points booked to each source.
    """
    out: list[dict[str, object]] = []
    for name in ("quito", "cuenca"):
        cumulative = bool(RuleSet.preset(name).caida_limpia_cumulative)
        limpia = 2 if cumulative else 0
        out.append({"name": name.capitalize(), "total": 2 + limpia, "caida": 2, "limpia": limpia})
    return out


def dealer_section(est: pd.DataFrame, diff: pd.DataFrame, s: StudySettings) -> str:
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


def rondas_section(odds_table: pd.DataFrame) -> str:
    """The ronda section: exact odds against the level-data rows (the same under both
    presets) and the level-chica rows (one preset's chicas: their ``level`` names it); per
    hand, each side (``side 0``, ``side 1``, R4.1) and anyone."""
    # both sides: side 0 alone would hide side 1's row (which may exclude the exact value)
    keep = odds_table["event"].isin(["ronda", "doble_ronda"]) & odds_table["scope"].isin(
        ["hand", "side 0", "side 1", "anyone"]
    )
    anyone = odds_table[(odds_table["event"] == "ronda") & (odds_table["scope"] == "anyone")]
    levels = [
        {"players": r["players"], "level": r["level"], "row": r, "exact": r["exact"]}
        for _, r in anyone.iterrows()
    ]
    chica_levels = [str(v) for v in dict.fromkeys(odds_table["level"]) if v != "data"]
    return prose("quito_vs_cuenca").rondas(
        exact_table(odds_table[keep], fraction=False),
        levels,
        chica_levels,
    )


def caidas_section(est: pd.DataFrame, diff: pd.DataFrame, s: StudySettings) -> str:
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


def winprob_section(wins: pd.DataFrame, s: StudySettings) -> str:
    """Selected score states' win probability, and how many equal-score states resolve the
    next dealer's edge (their interval excludes 50%), counted from the printed rows."""
    rows = []
    equal = []
    for p in s.players:
        for v in ("quito", "cuenca"):
            sub = wins[(wins["players"] == p) & (wins["variant"] == v)]
            for own, opp in ((10, 10), (20, 20), (30, 20), (20, 30), (38, 30), (30, 38), (38, 38)):
                r = sub[(sub["own_score"] == own) & (sub["opponent_score"] == opp)].iloc[0]
                rows.append([p, v, f"{own}-{opp}", est_text(r, percent=True), f"{int(r['n']):,}"])
                if own == opp:
                    equal.append(r)
    return prose("quito_vs_cuenca").winprob(
        markdown_table(
            ["players", "rules", "own-opponent", "P(win) [interval]", "n"], rows, right=(3, 4)
        ),
        equal_states(equal),
    )


def equal_states(rows: list[pd.Series]) -> dict[str, int]:
    """How far the equal-score rows resolve the next dealer's edge (R3.3).

    Parameters
    ----------
    rows : list of Series
        Win-probability rows at equal scores (``lower``, ``upper``, ``estimate``, ``n``).

    Returns
    -------
    dict
        ``total`` rows, ``above`` (interval wholly above 50%), ``contain`` (interval contains
        50%), ``below`` (estimate under 50%), ``n_min`` and ``n_max`` chicas per state.
    """
    if not rows:
        return {"total": 0, "above": 0, "contain": 0, "below": 0, "n_min": 0, "n_max": 0}
    lo = np.array([float(r["lower"]) for r in rows])
    hi = np.array([float(r["upper"]) for r in rows])
    est = np.array([float(r["estimate"]) for r in rows])
    n = [int(r["n"]) for r in rows]
    return {
        "total": len(rows),
        "above": int((lo > 0.5).sum()),
        "contain": int(((lo <= 0.5) & (hi >= 0.5)).sum()),
        "below": int((est < 0.5).sum()),
        "n_min": min(n),
        "n_max": max(n),
    }


def all_metrics_section(
    est: pd.DataFrame, diff: pd.DataFrame, models: list[Model], s: StudySettings
) -> str:
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


def methods_section(
    est: pd.DataFrame,
    s: StudySettings,
    models: list[Model],
    walls: dict[str, float],
    convergence_text: str,
    tuned: str = "",
    printed: str = "",
) -> str:
    """The Methods section: models and their sizes, wall times, sizing, pairing, verdicts; with
    ``tuned`` (:func:`.common.tuned_disclosure`) the tuning disclosure of the panel, with
    ``printed`` (:func:`printed_halfwidths`) the half-widths the tables actually print."""
    truncated = sum(_truncated(est, p, v) for p in s.players for v in ("quito", "cuenca"))
    return prose("quito_vs_cuenca").methods(
        s, truncated, models, walls, convergence_text, tuned, printed
    )


def printed_halfwidths(diff: pd.DataFrame, models: list[Model], s: StudySettings) -> str:
    """Half-widths of the relative chica-length effect as the tables print them (at the level
    Holm tested each row), per model and player count, in pp of the relative change.

    Parameters
    ----------
    diff : DataFrame
        Differences of every model with verdicts (``metric``, ``players``, ``model``,
        ``relative_lower``, ``relative_upper``).
    models : list of Model
    s : StudySettings

    Returns
    -------
    str
        ``"learned ±0.26 pp (2 players), ±0.31 pp (4 players); heuristic ..."``; models or
        player counts without the row are left out.
    """
    parts = []
    for m in models:
        sizes = []
        for p in s.players:
            rows = diff[
                (diff["metric"] == "datas_per_chica")
                & (diff["players"] == p)
                & (diff["model"] == m.label)
            ]
            if rows.empty:
                continue
            r = rows.iloc[0]
            half = 50.0 * (float(r["relative_upper"]) - float(r["relative_lower"]))
            if np.isfinite(half):
                sizes.append(f"±{half:.2f} pp ({p} players)")
        if sizes:
            parts.append(f"`{m.label}` " + ", ".join(sizes))
    return "; ".join(parts)


def fig_sources(est: pd.DataFrame, s: StudySettings) -> Figure:
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


def fig_lengths(length: pd.DataFrame, s: StudySettings) -> Figure:
    fig, axes = new_figure(1, len(s.players))
    for ax, p in zip(axes[0], s.players, strict=True):
        plotting.length_distribution(
            length[length["players"] == p], ax=ax, title=f"Datas per chica, {p} players"
        )
    return fig


def fig_winprob(wins: pd.DataFrame, s: StudySettings) -> Figure:
    """P(next dealer's side wins) by score state, the players' guide's masking: cells seen in
    fewer than :data:`cuarenta_sim.cuarenta.winprob.MIN_N` chicas grey and dotted, states
    never reached dark grey and cross-hatched (neither reads as 50%), with a legend."""
    from ..winprob import MIN_N

    fig, axes = new_figure(len(s.players), 2, (5.5, 4.8))
    for i, p in enumerate(s.players):
        for j, v in enumerate(("quito", "cuenca")):
            sub = wins[(wins["players"] == p) & (wins["variant"] == v)]
            plotting.probability_grid(
                sub,
                axes[i, j],
                min_n=MIN_N,
                title=f"P(next dealer's side wins), {v}, {p} players",
                colorbar=j == 1,
                legend=j == 0,
                cbar_label="P(win the chica), %",
            )
    return fig
