"""The answers of reports/quito-vs-cuenca as claims (issue 18 items 1 and 3, finding 6).

Each answer sentence is a :class:`~cuarenta_sim.studies.claims.Claim` whose evidence rows are
rows of the report's ``differences`` table (id ``metric|players|model``). The headline leads
with the range of the effect across the player models ("about 6% under learned, heuristic and
solver; 9% under greedy"), then gives the headline model's own estimate and says that its
interval is that model's Monte Carlo error, not the uncertainty across models. Agreement counts
never count a run labelled "too small to tell".
"""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd

from ...studies import StudySettings
from ...studies.claims import Claim, Scope
from .claim_rows import across_models, diff_evidence, model_name, size_groups
from .common import diff_text, rel_text, select, verdict_text

RULES = ("quito", "cuenca")
TEST = "paired differences on the same decks; Holm over the metrics of each model and players"


def _scope(rows: pd.DataFrame, players: Sequence[int], sizes: dict[str, int]) -> Scope:
    return Scope(
        models=tuple(model_name(m) for m in rows["model"].unique()),
        players=tuple(int(p) for p in players),
        rules=RULES,
        sizes=sizes,
    )


def qc_claims(diff: pd.DataFrame, labels: Sequence[str], s: StudySettings) -> list[Claim]:
    """The answer claims of quito-vs-cuenca.

    Parameters
    ----------
    diff : DataFrame
        Differences of every model with verdicts (columns ``model``, ``players``, ``metric``).
    labels : sequence of str
        Model labels, the headline first.
    s : StudySettings
        The run's settings (player counts).

    Returns
    -------
    list of Claim
        Per player count: the chica-length headline (range across models) and the headline
        model's estimate with what its interval covers; then the points and dealer's-edge
        claims for the first player count.
    """
    head = labels[0]
    name = model_name(head)
    out: list[Claim] = []

    def rows(metric: str, p: int) -> pd.DataFrame:
        return diff[(diff["metric"] == metric) & (diff["players"] == p)]

    for p in s.players:
        sub = rows("datas_per_chica", p)
        d = select(diff, metric="datas_per_chica", players=p, model=head)
        evidence = tuple(diff_evidence(r) for _, r in sub.iterrows())
        sizes = size_groups(sub)
        across = across_models(sub, relative=True)
        out.append(
            Claim(
                id=f"qc.length.{p}p",
                template=(
                    "With {p} players, Cuenca scoring {verb} a chica (datas per chica) by "
                    "{sizes}; {across}."
                )
                if sizes
                else "With {p} players, no player model resolves a change of chica length: "
                "{across}.",
                values={"p": p, "sizes": sizes, "across": across, "verb": _verb(sub)},
                evidence=evidence,
                test=TEST,
                verdict="mixed",
                scope=_scope(sub, (p,), {}),
                caveats=("relative change in mean datas per chica, rounded to whole percent",),
            )
        )
        out.append(
            Claim(
                id=f"qc.length.{p}p.{name}",
                template=(
                    "Under {model} at every seat ({p} players, {n:,} chicas) the change is "
                    "{rel} ({d} datas; {verdict}); that interval is {model}'s Monte Carlo "
                    "error only, not the uncertainty across player models."
                ),
                values={
                    "model": name,
                    "p": p,
                    "n": int(d["n"]),
                    "rel": rel_text(d),
                    "d": diff_text(d),
                    "verdict": verdict_text(d),
                },
                evidence=(diff_evidence(d),),
                test=TEST,
                verdict=_claim_verdict(str(d["verdict"])),
                scope=_scope(pd.DataFrame([d]), (p,), {}),
                caveats=("one model's sampling error; the other models' estimates differ",),
            )
        )
    p0 = s.players[0]
    for metric, cid, text in (
        (
            "points",
            "qc.points",
            "The reason: Cuenca's 4-point caida-limpia adds {d} points per data with {p} "
            "players under {model} ({verdict}); across models: {across}.",
        ),
        (
            "dealer_advantage",
            "qc.dealer",
            "The dealer's edge in points per data changes by {d} with {p} players under "
            "{model} ({verdict}); across models: {across}.",
        ),
    ):
        sub = rows(metric, p0)
        d = select(diff, metric=metric, players=p0, model=head)
        out.append(
            Claim(
                id=f"{cid}.{p0}p",
                template=text,
                values={
                    "d": diff_text(d),
                    "p": p0,
                    "model": name,
                    "verdict": verdict_text(d),
                    "across": across_models(sub, relative=True),
                },
                evidence=tuple(diff_evidence(r) for _, r in sub.iterrows()),
                test=TEST,
                verdict="mixed",
                scope=_scope(sub, (p0,), {}),
                caveats=("relative sizes across models; the headline's interval is its own",),
                constants={"points of a caida-limpia under Cuenca (R7.2)": 4},
            )
        )
    return out


def _claim_verdict(verdict: str) -> str:
    v = verdict.split(":")[0].strip()
    return {"negligible": "no difference"}.get(v, v)


def _verb(rows: pd.DataFrame) -> str:
    """ "shortens" when most resolved models shorten the chica, else "lengthens"."""
    res = rows[rows["verdict"].astype(str).str.startswith("resolved")]
    neg = int((res["estimate"] < 0).sum())
    return "shortens" if neg >= len(res) - neg else "lengthens"
