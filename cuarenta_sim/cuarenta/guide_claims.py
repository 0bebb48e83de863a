"""The summary of reports/players-guide as claims (issue 18 items 1 and 2, finding 6).

Each summary sentence is a :class:`~cuarenta_sim.studies.claims.Claim` whose evidence rows are
rows of the guide's tables (``dealer_edge``: ``source|players``; ``win_probability_chica``:
``own|opponent|deal|own_deals|players``; ``caida_risk_by_seen``: ``seen``;
``departures_all``: ``all``; ``gains``: ``versus``). Every number is scoped: the guide's runs
are self-play of one strong player, so its numbers say "under <player> self-play" (the dealer's
edge differs by player: see the quito-vs-cuenca panel). A rank seen four times cannot be caught
by a caida, but it can still be taken in a sum or a run (R5.2, R5.4): the sentence says so.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from ..studies.claims import Claim, Evidence, Scope
from ..studies.framework import cell
from .guide_tables import gain_cell, row_cell

RULES = ("quito",)
COLS = (
    "estimate",
    "lower",
    "upper",
    "n",
    "successes",
    "gain",
    "gain_lower",
    "gain_upper",
    "gain_n",
    "gain_chicas",
    "share_all",
    "decisions_all",
)


def _same_decimals(value: float, printed: str) -> str:
    """``value`` as a percentage with as many decimals as the estimate of ``printed``
    (``"34.97% [34.44, 35.50]"`` -> 2), so two shares of one sentence read alike."""
    head = printed.split(" ")[0].rstrip("%")
    decimals = len(head.split(".")[1]) if "." in head else 0
    return f"{value:.{decimals}f}%"


def _ev(row: pd.Series, table: str, keys: Sequence[str], model: str, pct: bool) -> Evidence:
    values = {}
    for c in (*COLS, *keys):
        if c in row:
            try:
                v = float(row[c])
            except (TypeError, ValueError):
                continue
            if np.isfinite(v):
                values[c] = v
    k = 100.0 if pct else 1.0
    return Evidence(
        table=table,
        row="|".join(str(row[c]) for c in keys),
        values=values,
        model=model,
        scale={c: k for c in ("estimate", "lower", "upper", "share_all")},
    )


def guide_claims(
    wp: pd.DataFrame,
    risk: pd.DataFrame,
    dep: pd.DataFrame,
    gains: pd.DataFrame,
    edge: pd.DataFrame,
    strong: str,
    edge_panel: pd.DataFrame | None = None,
    *,
    players: int,
) -> list[Claim]:
    """The summary claims of the players' guide (at most five).

    Parameters
    ----------
    wp : DataFrame
        P(win the chica) by state, one player count (its ``players`` column).
    risk : DataFrame
        Caida risk by cards of the rank seen (the decision log's run, ``players``).
    dep : DataFrame
        Departures of the strong player from greedy, over all decisions (``players``;
        ``share_all`` / ``decisions_all``: every decision, single legal plays included).
    gains : DataFrame
        Duplicate win rates of the strong player against the others (their ``players``).
    edge : DataFrame
        Dealer's edge by source and player count.
    strong : str
        The strong player (every seat).
    edge_panel : DataFrame, optional
        The dealer's total edge under other players' self-play
        (:func:`cuarenta_sim.cuarenta.guide_analysis.panel_dealer_edge`): the sentence gives
        their values beside the strong player's.
    players : int
        Player count of the decision log's run (caida risk, departures): every sentence on
        it names this count (issue 18: no sentence scoped wider than its run).

    Returns
    -------
    list of Claim
    """
    scope = Scope(models=(strong,), players=(players,), rules=RULES)
    out: list[Claim] = []
    e2 = edge[(edge["players"] == 2) & (edge["source"] == "total")].iloc[0]
    c2 = edge[(edge["players"] == 2) & (edge["source"] == "caida")].iloc[0]
    panel = edge_panel if edge_panel is not None else pd.DataFrame()
    others = "; ".join(
        f"under `{r['policy']}` self-play {row_cell(r)} (n = {int(r['n']):,}, `{r['method']}`)"
        for _, r in panel.iterrows()
    )
    out.append(
        Claim(
            id="guide.dealer_edge",
            template=(
                "Under `{m}` self-play with 2 players, dealing is worth {e} points per data to "
                "the dealer's side (n = {n:,} datas, `{method}`), {c} of it from caidas: "
                "with 2 players the dealer plays after the mano at every turn, so it can answer "
                "each of the mano's trails, while its own last card of a deal cannot be caught "
                "by a caida (R6.1). "
                + (
                    "The edge depends on the players: {others}."
                    if len(panel)
                    else "Other players give other values (the quito-vs-cuenca report's panel)."
                )
            ),
            values={
                "m": strong,
                "e": row_cell(e2),
                "n": int(e2["n"]),
                "method": e2["method"],
                "c": row_cell(c2),
                "others": others,
            },
            evidence=(
                _ev(e2, "dealer_edge", ("source", "players"), strong, False),
                _ev(c2, "dealer_edge", ("source", "players"), strong, False),
                *(
                    _ev(r, "dealer_edge_panel", ("policy",), str(r["policy"]), False)
                    for _, r in panel.iterrows()
                ),
            ),
            test="normal interval over independent datas",
            scope=Scope(
                models=(strong, *(str(p) for p in panel.get("policy", []))),
                players=(2,),
                rules=RULES,
            ),
            caveats=("self-play of each player; the edge depends on the players",),
        )
    )
    first = wp[
        (wp["own_score"] == 0) & (wp["opponent_score"] == 0) & (wp["deal"] == 0) & wp["own_deals"]
    ]
    if len(first) and np.isfinite(first.iloc[0]["estimate"]):
        f = first.iloc[0]
        keys = ("own_score", "opponent_score", "deal", "own_deals", "players")
        out.append(
            Claim(
                id="guide.first_dealer",
                template=(
                    "Under `{m}` self-play with {p} players, at 0-0 the side that deals the first "
                    "data wins the chica {c} of the time (n = {n:,} chicas, Wilson)."
                ),
                values={
                    "m": strong,
                    "p": int(f["players"]),
                    "c": row_cell(f, True),
                    "n": int(f["n"]),
                },
                evidence=(_ev(f, "win_probability_chica", keys, strong, True),),
                test="Wilson interval over independent chicas",
                scope=Scope(models=(strong,), players=(int(f["players"]),), rules=RULES),
            )
        )
    safe = risk[risk["seen"] == 4]
    one = risk[risk["seen"] == 1]
    if len(one):
        o = one.iloc[0]
        rows = [_ev(o, "caida_risk_by_seen", ("seen",), strong, True)]
        tail = "."
        values = {"m": strong, "p": players, "c": row_cell(o, True), "n": int(o["n"])}
        if len(safe):
            s4 = safe.iloc[0]
            rows.append(_ev(s4, "caida_risk_by_seen", ("seen",), strong, True))
            hits = (
                int(s4["successes"])
                if "successes" in s4
                else round(float(s4["estimate"]) * int(s4["n"]))
            )
            if hits == 0:
                # Certain by rule, not estimated: no interval (R6.1; the next player holds
                # none of the rank), only the count of trails that show it.
                tail = (
                    ", against none with all four seen: {z} caidas in {n4:,} trails, certain by "
                    "rule (R6.1), not an estimate."
                )
                values |= {"z": hits, "n4": int(s4["n"])}
            else:
                tail = ", against {c4} with all four seen."
                values["c4"] = row_cell(s4, True)
        out.append(
            Claim(
                id="guide.caida_risk",
                template=(
                    "A card whose rank you have seen all four of cannot be caught by a caida "
                    "(R6.1; it can still be taken in a sum or a run, R5.2, R5.4). Under `{m}` "
                    "self-play with {p} players, trail one whose other three are out of sight and "
                    "the next player answers with a caida {c} of the time (n = {n:,} trails, "
                    "`ratio` over chicas)" + tail
                ),
                values=values,
                evidence=tuple(rows),
                test="ratio interval over chicas",
                scope=scope,
                constants={"cards of a rank": 4, "other cards of the rank": 3},
            )
        )
    d = dep.iloc[0]
    out.append(
        Claim(
            id="guide.departures",
            template=(
                "With {p} players the `{m}` player plays differently from `greedy` at {c} of its "
                "decisions with more than one legal play (n = {n:,}, `{dm}` over {dc:,} "
                "chicas), {a} of all its {na:,} decisions (a single legal play never "
                "differs); graded by the playout values of `pimc`{why}, those departures are "
                "worth {g} points each (n = {gn:,}{gc}, "
                "interval clustered by chica)."
            ),
            values={
                "m": strong,
                "p": players,
                "c": row_cell(d, True),
                "n": int(d["n"]),
                "dm": d["method"],
                "dc": int(d["chicas"]),
                "a": _same_decimals(100 * d["share_all"], row_cell(d, True)),
                "na": int(d["decisions_all"]),
                "g": gain_cell(d),
                "gn": int(d["gain_n"]) if np.isfinite(d["gain_n"]) else 0,
                "gc": (
                    f" departures in {int(d['gain_chicas']):,} chicas"
                    if "gain_chicas" in d and np.isfinite(d["gain_chicas"])
                    else ""
                ),
                "why": (
                    f", the player `{strong}` was first fitted to imitate (so the grading "
                    "leans its way)"
                    if strong.startswith("learned")
                    else ""
                ),
            },
            evidence=(_ev(d, "departures_all", ("all",), strong, True),),
            test="ratio intervals over chicas (the share and the value, clustered by chica)",
            scope=Scope(models=(strong, "greedy", "pimc"), players=(players,), rules=RULES),
            constants={} if np.isfinite(d["gain_n"]) else {"no valued departure": 0},
            caveats=("graded by pimc playouts, the values the learned player was trained on",),
        )
    )
    if len(gains):
        g = gains.iloc[0]
        out.append(
            Claim(
                id="guide.gains",
                template=(
                    "Over whole chicas with {p} players, `{m}` beats `{v}` {c} of the time "
                    "({games:,} duplicate chicas, clustered Wilson)."
                ),
                values={
                    "m": strong,
                    "p": int(g["players"]),
                    "v": g["versus"],
                    "c": cell(g["win_rate"], g["lower"], g["upper"], True, percent=True),
                    "games": int(g["games"]),
                },
                evidence=(
                    Evidence(
                        table="gains",
                        row=str(g["versus"]),
                        values={k: float(g[k]) for k in ("win_rate", "lower", "upper", "games")},
                        model=strong,
                        scale={"win_rate": 100.0, "lower": 100.0, "upper": 100.0},
                    ),
                ),
                test="duplicate chicas, clustered Wilson interval",
                scope=Scope(
                    models=(strong, str(g["versus"])), players=(int(g["players"]),), rules=RULES
                ),
            )
        )
    return out[:5]
