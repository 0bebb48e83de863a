"""The answers of reports/quito-vs-cuenca as claims (issue 18 items 1 and 3, finding 6).

Each answer sentence is a :class:`~cuarenta_sim.studies.claims.Claim` whose evidence rows are
rows of the report's ``differences`` table (id ``metric|players|model``). The headline leads
with the range of the effect across the player models ("about 6% under learned, heuristic and
solver; 9% under greedy"), then gives the headline model's own estimate and says that its
interval is that model's Monte Carlo error, not the uncertainty across models. Agreement counts
never count a run labelled "too small to tell".
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

import pandas as pd

from ...studies import StudySettings
from ...studies.claims import Claim, Scope
from .claim_rows import across_models, diff_evidence, model_name, size_groups
from .common import TUNING, diff_text, rel_text, select, verdict_text

RULES = ("quito", "cuenca")
#: The interval method of a relative change (:func:`.common.rel_text`'s rows).
REL_METHOD = "paired log-ratio"
TEST = "paired differences on the same decks; Holm over the metrics of each model and players"


def _scope(rows: pd.DataFrame, players: Sequence[int], sizes: dict[str, int]) -> Scope:
    return Scope(
        models=tuple(model_name(m) for m in rows["model"].unique()),
        players=tuple(int(p) for p in players),
        rules=RULES,
        sizes=sizes,
    )


_WORDS = {2: "two", 3: "three", 4: "four"}


def tuned_note(names: Sequence[str], players: int | None = None) -> str:
    """``"learned and heuristic tuned under Quito, not re-tuned for Cuenca"`` for the tuned
    models (:data:`.common.TUNING`) among ``names``; empty when none is tuned.

    With ``players``, a model whose tuning (its :data:`.common.TUNING` phrase, e.g. "Quito,
    2 players") names another player count is said to be used unchanged at ``players``:
    ``"...; heuristic tuned for the two-player game only, used unchanged here"`` (the count
    in words: the claim checker refuses a player count outside the claim's scope).
    """
    tuned = list(dict.fromkeys(n for n in names if n in TUNING))
    if not tuned:
        return ""
    who = tuned[0] if len(tuned) == 1 else ", ".join(tuned[:-1]) + " and " + tuned[-1]
    note = f"{who} tuned under Quito, not re-tuned for Cuenca"
    if players is not None:
        for n in tuned:
            counts = [int(k) for k in re.findall(r"(\d+) players", TUNING[n])]
            if counts and players not in counts:
                only = " and ".join(_WORDS.get(k, str(k)) for k in counts)
                note += f"; {n} tuned for the {only}-player game only, used unchanged here"
    return note


def run_names(
    rows: pd.DataFrame, policies: Mapping[tuple[str, int], str] | None, unit: str
) -> dict[str, str]:
    """Sentence names of the confirmatory runs among ``rows``: the policy it played with that
    player count and its size, ``"solver(samples=128) on 707 chicas"`` (a confirmatory run is
    smaller, and with 4 players plays another policy, than its label says).

    Parameters
    ----------
    rows : DataFrame
        Differences rows of one metric and player count (``model``, ``players``, ``n``).
    policies : mapping of (label, players) to str, or None
        The policy each confirmatory model played at each player count; None: the label.
    unit : str
        What ``n`` counts (``"chicas"``, ``"datas"``).
    """
    out = {}
    for _, r in rows.iterrows():
        label = str(r["model"])
        if label.endswith(" (confirm)") and pd.notna(r["n"]):
            pol = (policies or {}).get((label, int(r["players"])), model_name(label))
            out[label] = f"{pol} on {int(r['n']):,} {unit}"
    return out


def _spec_numbers(names: Mapping[str, str]) -> dict[str, float]:
    """Numbers inside policy specs (``samples=128``): stated constants, not estimates."""
    out: dict[str, float] = {}
    for name in names.values():
        spec = name.split(" on ")[0]
        for k, x in enumerate(re.findall(r"\d+", spec)):
            out[f"{spec} parameter {k}"] = float(x)
    return out


def qc_claims(
    diff: pd.DataFrame,
    labels: Sequence[str],
    s: StudySettings,
    policies: Mapping[tuple[str, int], str] | None = None,
) -> list[Claim]:
    """The answer claims of quito-vs-cuenca.

    Parameters
    ----------
    diff : DataFrame
        Differences of every model with verdicts (columns ``model``, ``players``, ``metric``).
    labels : sequence of str
        Model labels, the headline first.
    s : StudySettings
        The run's settings (player counts).
    policies : mapping of (label, players) to str, optional
        The policy spec each confirmatory model played at each player count (with 4 players
        the default solver plays ``solver(samples=128)``): the sentences name a confirmatory
        run by it and by its size (:func:`run_names`).

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
        names = run_names(sub, policies, "chicas")
        sizes = size_groups(sub, names)
        across = across_models(sub, relative=True, names=names)
        note = tuned_note([model_name(m) for m in sub["model"]], p)
        out.append(
            Claim(
                id=f"qc.length.{p}p",
                template=(
                    "With {p} players, Cuenca scoring {verb} a chica (datas per chica) by "
                    "{sizes}; {across}{note}."
                )
                if sizes
                else "With {p} players, no player model resolves a change of chica length: "
                "{across}{note}.",
                values={
                    "p": p,
                    "sizes": sizes,
                    "across": across,
                    "verb": _verb(sub),
                    "note": f" ({note})" if note else "",
                },
                evidence=evidence,
                test=TEST,
                verdict="mixed",
                scope=_scope(sub, (p,), {}),
                caveats=("relative change in mean datas per chica, rounded to whole percent",),
                constants=_spec_numbers(names),
            )
        )
        out.append(
            Claim(
                id=f"qc.length.{p}p.{name}",
                template=(
                    "Under {model} at every seat ({p} players, {n:,} chicas{note}) the change is "
                    "{rel} ({d} datas; {verdict}; `{rel_method}` and `{method}` intervals at "
                    "the level Holm tested the row, Methods); that interval is {model}'s Monte "
                    "Carlo error only, not the uncertainty across player models."
                ),
                values={
                    "model": name,
                    "p": p,
                    "n": int(d["n"]),
                    "rel": rel_text(d),
                    "d": diff_text(d),
                    "verdict": verdict_text(d),
                    "method": str(d["method"]),
                    "rel_method": REL_METHOD,
                    "note": f"; {tuned_note([name], p)}" if tuned_note([name], p) else "",
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
            "players under {model} ({verdict}; `{method}` over {n:,} datas, interval at the "
            "level Holm tested the row{note}); across models, relative change: {across}.",
        ),
        (
            "dealer_advantage",
            "qc.dealer",
            "The dealer's edge in points per data changes by {d} with {p} players under "
            "{model} ({verdict}; `{method}` over {n:,} datas, interval at the level Holm "
            "tested the row{note}); across models, relative change: {across}.",
        ),
    ):
        sub = rows(metric, p0)
        d = select(diff, metric=metric, players=p0, model=head)
        names = run_names(sub, policies, "datas")
        note = tuned_note([name], p0)
        out.append(
            Claim(
                id=f"{cid}.{p0}p",
                template=text,
                values={
                    "d": diff_text(d),
                    "p": p0,
                    "model": name,
                    "verdict": verdict_text(d),
                    "method": str(d["method"]),
                    "n": int(d["n"]),
                    "across": across_models(sub, relative=True, names=names),
                    "note": f"; {note}" if note else "",
                },
                evidence=tuple(diff_evidence(r) for _, r in sub.iterrows()),
                test=TEST,
                verdict="mixed",
                scope=_scope(sub, (p0,), {}),
                caveats=("relative sizes across models; the headline's interval is its own",),
                constants={
                    "points of a caida-limpia under Cuenca (R7.2)": 4,
                    **_spec_numbers(names),
                },
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
