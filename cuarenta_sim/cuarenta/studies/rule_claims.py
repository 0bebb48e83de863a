"""The answers of reports/odds and reports/sensitivity as claims (issue 18 item 1, finding 6).

Each sentence is a :class:`~cuarenta_sim.studies.claims.Claim` whose evidence rows are rows of
the report's tables (``odds``: ``event|scope|players``; ``caida_rates`` and ``differences``:
``metric|players|model`` and ``variant|metric|players|model``). A number from one player model
names that model; "N of M flips agree" never counts a run labelled "too small to tell".
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from ...reports import format_number
from ...studies import StudySettings
from ...studies.claims import TOO_SMALL, Claim, Evidence, Scope, count_agreement
from .claim_rows import diff_evidence, model_name, row_id
from .common import (
    diff_text,
    est_text,
    overlap_text,
    rel_text,
    select,
    tuning_of,
    verdict_text,
)
from .panel import blind_identical

#: Side numbers a scope names (``side 0``, ``side 1``): labels, not measured numbers.
SIDE_NUMBERS = {"side 0": 0, "side 1": 1}

#: Columns that identify one check of the odds table: rows equal in all of them are one check
#: printed twice (the 2- and 4-player runs deal the same decks; a 2-player seat is a side).
CHECK_COLUMNS = ("event", "exact", "estimate", "lower", "upper", "n")


def distinct_checks(odds_table: pd.DataFrame) -> pd.DataFrame:
    """The separate checks of an odds table: its comparable rows, one per distinct value.

    Parameters
    ----------
    odds_table : DataFrame
        :func:`cuarenta_sim.cuarenta.analysis.odds_check` rows (``event``, ``scope``,
        ``exact``, ``estimate``, ``lower``, ``upper``, ``n``, ``within``; ``within`` NaN where
        the exact value does not apply).

    Returns
    -------
    DataFrame
        The first row of each group of rows equal in :data:`CHECK_COLUMNS` (a 4-player row
        that repeats the 2-player row of the same decks, a 2-player ``seat`` row that repeats
        ``side 0``), rows without a ``within`` verdict dropped.
    """
    if odds_table.empty:
        return odds_table.assign(within=pd.Series(dtype=bool))
    rows = odds_table[odds_table["within"].notna()]
    return rows.drop_duplicates(subset=list(CHECK_COLUMNS), keep="first")


SENS_TEST = (
    "paired differences on the same decks; Holm over the flips of each metric, player count "
    "and model"
)

#: The unit a difference row of each level counts (its ``n``).
LEVEL_UNITS = {"data": "datas", "chica": "chicas", "mesa": "mesas"}


def basis_text(row: pd.Series, confidence: float = 0.95) -> str:
    """How a sensitivity difference was measured, from its row (cold read, round 2).

    Parameters
    ----------
    row : Series
        A differences row with ``method``, ``n``, ``level`` and, after
        :func:`.common.apply_verdicts`, ``family_size`` (the number of flips Holm tested
        together on this metric, player count and model).
    confidence : float
        The report's level, named when the family holds one test.

    Returns
    -------
    str
        E.g. ``"`paired`, 10,000 chicas, interval at Holm's level over the 16 flips tested
        on this metric"``; ``"95% interval"`` (at ``confidence``) in place of Holm's level
        when the family holds one test (or its size is unknown: then the interval is
        marginal).
    """
    unit = LEVEL_UNITS.get(str(row.get("level", "")), "pairs")
    size = float(row.get("family_size", np.nan))
    level = (
        f"interval at Holm's level over the {int(size)} flips tested on this metric"
        if np.isfinite(size) and size > 1
        else f"{100 * confidence:g}% interval"
    )
    return f"`{row['method']}`, {int(row['n']):,} {unit}, {level}"


def _estimate_evidence(row: pd.Series, table: str, keys: Sequence[str], pct: bool) -> Evidence:
    cols = ("estimate", "lower", "upper", "exact", "n")
    values = {c: float(row[c]) for c in cols if c in row and np.isfinite(float(row[c]))}
    k = 100.0 if pct else 1.0
    return Evidence(
        table=table,
        row=row_id(row, keys),
        values=values,
        model=model_name(row["model"]) if "model" in row else "",
        scale={c: k for c in ("estimate", "lower", "upper", "exact")},
    )


# --------------------------------------------------------------------------------- odds
def odds_claims(
    odds_table: pd.DataFrame,
    rate: pd.DataFrame,
    labels: Sequence[str],
    slug: str,
    s: StudySettings,
) -> list[Claim]:
    """The answer claims of the odds report.

    Parameters
    ----------
    odds_table : DataFrame
        Exact vs simulated dealing odds (``event``, ``scope``, ``players``, ``exact``,
        ``estimate``, ``lower``, ``upper``, ``within``, ``n``).
    rate : DataFrame
        Caida rates of every model (``metric``, ``players``, ``model``, estimate columns).
    labels : sequence of str
        Model labels, the headline first.
    slug : str
        The rules of the caida rates.
    s : StudySettings

    Returns
    -------
    list of Claim
        How many exact odds lie inside their interval; the ronda rate; per player count the
        headline's caida rate and the range across models, each number beside its model.
    """
    checks = distinct_checks(odds_table)
    inside, total = int(checks["within"].astype(bool).sum()), len(checks)
    conf = 100.0 * s.confidence
    misses = [
        f"{str(r['event']).replace('_', ' ')} {r['scope']}"
        for _, r in checks[~checks["within"].astype(bool)].iterrows()
    ]
    repeats = len(odds_table) - total
    outside = "; outside: " + ", ".join(dict.fromkeys(misses)) if misses else ""
    why = []
    if len({int(p) for p in odds_table["players"]}) > 1:
        why.append("the player counts deal the same decks")
    if "seat" in set(odds_table["scope"]):
        why.append("a 2-player seat is a side")
    repeated = (
        f"; the table's {len(odds_table)} rows hold {repeats} repeats, value for value: "
        + " and ".join(why)
        if repeats
        else ""
    )
    claims = [
        Claim(
            id="odds.inside",
            template=(
                "{inside} of {total} distinct exact dealing odds lie inside the {conf:g}% "
                "interval of their simulated estimate ({n:,} datas per player count, {players} "
                "players, seed {seed}{repeated}{outside})."
            ),
            values={
                "inside": inside,
                "total": total,
                "conf": conf,
                "n": s.n,
                "seed": s.seed,
                "players": " and ".join(str(p) for p in s.players),
                "repeated": repeated,
                "outside": outside,
            },
            evidence=(
                Evidence(
                    table="derived",
                    row="odds: distinct (exact, estimate, interval, n) rows with the exact value "
                    "inside the interval",
                    values={
                        "inside": inside,
                        "distinct": total,
                        "rows": len(odds_table),
                        "repeats": repeats,
                        "n": s.n,
                    },
                ),
            ),
            test="exact value inside the simulated interval, row by row (no adjustment)",
            scope=Scope(players=tuple(s.players), rules=(slug,), sizes={"datas": s.n}),
            constants={"confidence level, %": conf, "seed": s.seed, **SIDE_NUMBERS},
            caveats=("rows share decks and overlap in scope; not independent checks",),
        )
    ]
    ronda = odds_table[(odds_table["event"] == "ronda") & (odds_table["scope"] == "anyone")]
    if len(ronda):
        r = ronda.iloc[0]
        claims.append(
            Claim(
                id="odds.ronda",
                template=(
                    "With {p} players a ronda (three of a rank in a 5-card hand, R4.1) is dealt "
                    "to someone in {cell} of datas (`{method}`; exact {exact}), at level data."
                ),
                values={
                    "p": int(r["players"]),
                    "cell": est_text(r, percent=True),
                    "method": r["method"],
                    "exact": f"{format_number(100 * float(r['exact']), 3)}%",
                },
                evidence=(_estimate_evidence(r, "odds", ("event", "scope", "players"), True),),
                test="Wilson interval; exact value by combinatorics",
                scope=Scope(players=(int(r["players"]),), rules=(slug,)),
                constants={"cards in a hand (R3.1)": 5},
            )
        )
    head = labels[0]
    for p in s.players:
        sub = rate[(rate["metric"] == "caidas_per_play") & (rate["players"] == p)]
        h = select(sub, model=head)
        est = sub["estimate"].to_numpy(dtype=np.float64)
        lo_i, hi_i = int(np.argmin(est)), int(np.argmax(est))
        lo, hi = sub.iloc[lo_i], sub.iloc[hi_i]
        claims.append(
            Claim(
                id=f"odds.caida.{p}p",
                template=(
                    "With {p} players a caida (R6.1) happens on {cell} of plays under {head} "
                    "at every seat (rules {slug}; `{method}` over {n:,} datas{tuned}); across "
                    "the player models the rate runs "
                    "from {lo} under {lo_m} to {hi} under {hi_m} ({overlap})."
                ),
                values={
                    "p": p,
                    "cell": est_text(h, percent=True),
                    "head": model_name(head),
                    "slug": slug,
                    "method": str(h["method"]),
                    "n": int(h["n"]),
                    "tuned": (
                        f"; {model_name(head)} tuned under Quito, see Methods *Tuning*"
                        if tuning_of([head])
                        else ""
                    ),
                    "lo": f"{format_number(100 * float(lo['estimate']), 2)}%",
                    "hi": f"{format_number(100 * float(hi['estimate']), 2)}%",
                    "lo_m": model_name(lo["model"]),
                    "hi_m": model_name(hi["model"]),
                    "overlap": overlap_text(sub),
                },
                evidence=tuple(
                    _estimate_evidence(r, "caida_rates", ("metric", "players", "model"), True)
                    for _, r in sub.iterrows()
                ),
                test="ratio intervals over datas, per model",
                scope=Scope(
                    models=tuple(model_name(m) for m in sub["model"]), players=(p,), rules=(slug,)
                ),
                caveats=("the caida rate depends on how the players play",),
            )
        )
    return claims


# --------------------------------------------------------------------------- sensitivity
def sensitivity_claims(
    diff: pd.DataFrame, labels: Sequence[str], s: StudySettings, qc: str | None
) -> list[Claim]:
    """The answer claims of the sensitivity report.

    Parameters
    ----------
    diff : DataFrame
        Differences of every flip and model (``variant``, ``metric``, ``players``, ``model``,
        ``disputed``, verdict columns).
    labels : sequence of str
        Model labels, the headline first.
    s : StudySettings
    qc : str or None
        The variant that is the Quito vs Cuenca switch, when flipped.

    Returns
    -------
    list of Claim
        The disputed reading that moves chica length most (headline model), the Quito vs
        Cuenca flip beside it, and how many flips every model large enough to tell agrees on.
    """
    head = labels[0]
    name = model_name(head)
    p = s.players[0]
    keys = ("variant", "metric", "players", "model")
    base = s.rules
    out: list[Claim] = []
    tuning = tuning_caveat(head)
    chica = diff[
        (diff["metric"] == "datas_per_chica")
        & (diff["players"] == p)
        & (diff["model"] == head)
        & diff["disputed"]
    ]
    if not chica.empty:
        top = chica.loc[chica["estimate"].abs().idxmax()]
        out.append(
            Claim(
                id="sens.top",
                template=(
                    "Of the readings where sources disagree, {variant} moves a {p}-player "
                    "chica's length most under {model}: {rel} ({d} datas, {verdict}; {basis})."
                    + (" {tuning}." if tuning else "")
                ),
                values={
                    "variant": top["variant"],
                    "p": p,
                    "model": name,
                    "rel": rel_text(top),
                    "d": diff_text(top),
                    "verdict": verdict_text(top),
                    "basis": basis_text(top, s.confidence),
                    "tuning": tuning,
                },
                evidence=tuple(diff_evidence(r, keys=keys, role="") for _, r in chica.iterrows()),
                test=SENS_TEST,
                verdict=str(top["verdict"]).split(":")[0],
                scope=Scope(
                    models=(name,), players=(p,), rules=(base, *map(str, chica["variant"]))
                ),
                constants={"confidence level, %": 100 * s.confidence},
                caveats=("largest |estimate| among the disputed readings, headline model only",),
            )
        )
        if qc is not None and qc in set(chica["variant"]):
            q = select(chica, variant=qc)
            bigger = int((chica["estimate"].abs() > abs(q["estimate"])).sum())
            tail = (
                "{bigger} other reading(s) move it more under {model}: for the length of a "
                "chica (this metric only; other metrics may rank the readings differently, see "
                "the table), which of those rules you play matters as much as which scoring"
                if bigger
                else "no other reading moves it more under {model}"
            )
            out.append(
                Claim(
                    id="sens.qc",
                    template="The Quito vs Cuenca switch ({qc}) changes it by {rel} with {p} "
                    "players under {model} ({basis}); " + tail + ".",
                    values={
                        "qc": qc,
                        "rel": rel_text(q),
                        "bigger": bigger,
                        "model": name,
                        "p": p,
                        "basis": basis_text(q, s.confidence),
                    },
                    evidence=(
                        diff_evidence(q, keys=keys, role=""),
                        Evidence(
                            table="derived",
                            row=f"disputed readings with a larger |estimate| than {qc}|"
                            f"datas_per_chica|{p}|{head}",
                            values={"count": bigger},
                        ),
                    ),
                    test=SENS_TEST,
                    verdict="",
                    scope=Scope(
                        models=(name,),
                        players=(p,),
                        rules=(base, "quito", "cuenca", *map(str, chica["variant"])),
                    ),
                    constants={"confidence level, %": 100 * s.confidence},
                )
            )
    all_chica = diff[(diff["metric"] == "datas_per_chica") & (diff["players"] == p)]
    flips = list(dict.fromkeys(all_chica["variant"]))
    exceed, negligible, idle = agreement_classes(all_chica)
    # Only the models whose run can tell a change of chica length: a model whose every flip
    # is too small to tell (or identical: no pair differed) is not named as agreeing.
    models = [
        model_name(m)
        for m in dict.fromkeys(all_chica["model"])
        if (
            ~all_chica.loc[all_chica["model"] == m, "verdict"]
            .astype(str)
            .isin([TOO_SMALL, "identical"])
        ).any()
    ]
    models = models or [model_name(m) for m in dict.fromkeys(all_chica["model"])]
    acting = len(flips) - len(idle)
    values: dict[str, object] = {
        "models": ", ".join(models),
        "exceed": len(exceed),
        "neg": len(negligible),
        "n": len(flips),
        "acting": acting,
        "idle": len(idle),
        "idle_names": ", ".join(idle),
        "p": p,
    }
    head_text = (
        "Of the {n} flips, {idle} left the length of every {p}-player chica unchanged in "
        "every run ({idle_names}: no pair differs); of the {acting} others, "
        if idle
        else "Of the {n} flips, "
    )
    if len(models) > 1:
        who = "under every player model whose run is large enough to detect the change ({models})"
    else:
        who = "under {models}"
    if exceed or negligible:
        template = (
            head_text + "{exceed} change a {p}-player chica's length by more than the practical "
            "margin with one resolved sign " + who
        )
        if negligible:
            template += (
                ", and {neg} more with one resolved sign that is possibly negligible under "
                "some model"
            )
        template += "."
    else:
        template = head_text + "none changes a {p}-player chica's length with one sign " + who + "."
    out.append(
        Claim(
            id="sens.agree",
            template=template,
            values=values,
            evidence=(
                Evidence(
                    table="derived",
                    row=f"flips resolved with one sign under every model|datas_per_chica|{p}",
                    values={
                        "flips beyond the margin": len(exceed),
                        "flips possibly negligible": len(negligible),
                        "flips that changed no chica": len(idle),
                        "flips that changed a chica": acting,
                        "flips": len(flips),
                    },
                ),
                *(diff_evidence(r, keys=keys, role="") for _, r in all_chica.iterrows()),
            ),
            test=SENS_TEST + "; agreement counts skip runs labelled too small to tell",
            verdict="",
            scope=Scope(models=tuple(models), players=(p,), rules=(base, *map(str, flips))),
            caveats=(
                "a flip whose run under some model is not resolved does not agree",
                "beyond the margin: resolved (not possibly negligible) under every counted model",
            ),
        )
    )
    return out


def agreement_classes(rows: pd.DataFrame) -> tuple[list[str], list[str], list[str]]:
    """Sort the flips of one metric and player count by how the player models agree.

    Parameters
    ----------
    rows : DataFrame
        Difference rows of one metric and player count, every model (``variant``, ``model``,
        ``verdict``, ``estimate``; ``differing`` and ``n`` when known).

    Returns
    -------
    (beyond, negligible, idle) : three lists of flip labels
        ``beyond``: resolved with one sign under every counted model, and "resolved" (beyond
        the practical margin) under each, never "possibly negligible"; ``negligible``: one
        resolved sign under every counted model, "possibly negligible" under at least one;
        ``idle``: identical (no pair differed) under every model, so the flip did not act on
        the metric. Runs too small to tell, undefined runs and identical runs too small to
        have seen the change (:func:`.panel.blind_identical`) are not counted
        (:func:`cuarenta_sim.studies.claims.count_agreement`).
    """
    beyond: list[str] = []
    negligible: list[str] = []
    idle: list[str] = []
    for flip in dict.fromkeys(rows["variant"]):
        g = rows[rows["variant"] == flip]
        if (g["verdict"].astype(str) == "identical").all():
            idle.append(str(flip))
            continue
        g = g[~blind_identical(g)]
        verdicts = [str(v) for v in g["verdict"]]
        k, m = count_agreement(verdicts, list(g["estimate"]))
        if not (m > 0 and k == m):
            continue
        counted = [
            v.split(":")[0] for v in verdicts if v.split(":")[0] not in (TOO_SMALL, "undefined")
        ]
        if all(v != "resolved, possibly negligible" for v in counted):
            beyond.append(str(flip))
        else:
            negligible.append(str(flip))
    return beyond, negligible, idle


def tuning_caveat(label: str) -> str:
    """The tuning caveat of a tuned model's rule effect, for an answer sentence.

    Parameters
    ----------
    label : str
        A model label (``"learned"``); its first policy names the model (:data:`.common.TUNING`).

    Returns
    -------
    str
        ``"`learned` was tuned under Quito and plays every flipped rule set unchanged: ..."``
        without a final period; empty for a model that was not tuned (``greedy``, ``solver``).
    """
    if not tuning_of([label]):
        return ""
    name = model_name(label)
    return (
        f"{name} was tuned under Quito and plays every flipped rule set unchanged (weights not "
        "re-fitted): this is the rule's effect on that fixed player, not on one re-tuned for it"
    )
