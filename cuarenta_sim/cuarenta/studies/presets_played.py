"""Presets as played, beside the one-switch flips of the ``sensitivity`` report.

A preset differs from the base in several switches at once; the one-switch flips measure each
alone. :func:`preset_effects` plays every other preset (spec section S: quito, cuenca, pagat,
quito_torneo) against the base on the same decks under the headline model, and
:func:`additivity` sets each measured preset effect (with its interval) beside the sum of the
one-switch effects of the switches it changes: when the sum falls outside the preset's
interval, the switches interact and the flips do not add up (issue 18 item 6).

The panel's tuned players were tuned under Quito and play every flipped rule set and every
preset unchanged (:data:`TUNED_ON_QUITO`).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pandas as pd

from ...studies import StudySettings
from ...studies.claims import Claim, Evidence, Scope, render_claim
from ...switches import format_value
from .. import compare
from ..rules import PRESETS, SWITCHES, RuleSet
from .claim_rows import model_name
from .common import apply_verdicts, diff_text, rel_text
from .panel import Model

#: Disclosure printed wherever the panel's rule effects appear.
TUNED_ON_QUITO = (
    "The panel's tuned players were tuned under Quito and are used unchanged under every "
    "flipped switch and preset: `learned` (imitation of `pimc`, then evolution strategies on "
    "its duplicate win rate against `heuristic`, Quito) and `heuristic` (coordinate search in "
    "duplicate self-play, Quito, 2 players); `greedy` has no tuned weights. An effect is the "
    "rule's effect on these fixed players, not on players re-tuned for each rule set"
)

#: Metrics of the additivity table (the sensitivity report's headline metrics).
ADDITIVITY_METRICS = ("datas_per_chica", "points", "first_dealer_wins", "dealer_advantage")


def preset_variants(base: RuleSet) -> dict[str, RuleSet]:
    """Every preset of section S but the base itself, labelled ``"preset:<name>"``."""
    return {f"preset:{name}": rs for name, rs in PRESETS.items() if rs.slug() != base.slug()}


def changed_switches(base: RuleSet, other: RuleSet) -> list[str]:
    """The flip labels (``"switch=value"``, :func:`cuarenta_sim.cuarenta.compare.switch_flips`
    spelling) of every switch in which ``other`` differs from ``base``."""
    return [
        f"{name}={format_value(getattr(other, name))}"
        for name in SWITCHES
        if getattr(other, name) != getattr(base, name)
    ]


def preset_effects(
    base: RuleSet,
    head: Model,
    settings: StudySettings,
    on_variant: Callable[[str], None] | None = None,
) -> pd.DataFrame:
    """Each other preset against ``base`` on the same decks, under the headline model.

    Parameters
    ----------
    base : RuleSet
    head : Model
        The headline model (its policies and sizes).
    settings : StudySettings
        Players, seed, confidence, threads.
    on_variant : callable, optional
        Progress: called with each label before it is simulated.

    Returns
    -------
    DataFrame
        :func:`cuarenta_sim.cuarenta.compare.paired_differences` rows (``variant`` =
        ``"preset:<name>"``) with ``players`` and ``model``; verdicts with Holm per model,
        player count and metric (the presets of one metric are one family).
    """
    out = []
    variants = {"base": base, **preset_variants(base)}
    for p in settings.players:
        comp = compare.compare_rules(
            variants,
            players=p,
            policies=head.policies,
            n_datas=head.n,
            n_chicas=head.n_chicas,
            n_mesas=head.n_mesas,
            seed=settings.seed,
            baseline="base",
            confidence=settings.confidence,
            threads=settings.threads,
            on_variant=None if on_variant is None else (lambda v, p=p: on_variant(f"{v}, {p}")),
        )
        out.append(comp.differences.assign(players=p, model=head.label))
    return apply_verdicts(
        pd.concat(out, ignore_index=True), ("model", "players", "metric"), settings.confidence
    )


def _scale(metric: str) -> str:
    return "relative" if metric == "datas_per_chica" else "estimate"


def additivity(
    presets: pd.DataFrame, flips: pd.DataFrame, base: RuleSet, model: str
) -> pd.DataFrame:
    """Measured preset effect against the sum of its switches' one-switch effects.

    Parameters
    ----------
    presets : DataFrame
        :func:`preset_effects` output.
    flips : DataFrame
        The sensitivity report's differences (``variant`` = ``"switch=value"``, ``model``,
        ``players``, ``metric``).
    base : RuleSet
    model : str
        Model label of both frames to use (the headline).

    Returns
    -------
    DataFrame
        One row per (preset, players, metric of :data:`ADDITIVITY_METRICS`): ``preset``,
        ``players``, ``metric``, ``scale`` (``relative``: fraction, for datas per chica; else
        the metric's own unit), ``measured`` / ``lower`` / ``upper`` / ``verdict`` (the
        preset row), ``switches`` (count), ``missing`` (switches with no one-switch row),
        ``summed`` (sum of the one-switch effects on the same scale, NaN when one is missing
        or undefined), ``gap`` (summed - measured) and ``adds_up`` (the sum inside the
        measured interval).
    """
    rows = []
    fl = flips[flips["model"] == model]
    for _, r in presets[presets["model"] == model].iterrows():
        if r["metric"] not in ADDITIVITY_METRICS:
            continue
        name = str(r["variant"]).removeprefix("preset:")
        scale = _scale(r["metric"])
        lo_col, hi_col = (
            ("relative_lower", "relative_upper") if scale == "relative" else ("lower", "upper")
        )
        labels = changed_switches(base, PRESETS[name])
        sub = fl[(fl["players"] == r["players"]) & (fl["metric"] == r["metric"])].set_index(
            "variant"
        )
        missing = [lab for lab in labels if lab not in sub.index]
        values = [float(sub.loc[lab, scale]) for lab in labels if lab in sub.index]
        summed = float(np.sum(values)) if not missing and np.all(np.isfinite(values)) else np.nan
        measured, lo, hi = float(r[scale]), float(r[lo_col]), float(r[hi_col])
        rows.append(
            {
                "preset": name,
                "players": int(r["players"]),
                "metric": r["metric"],
                "label": r["label"],
                "scale": scale,
                "measured": measured,
                "lower": lo,
                "upper": hi,
                "verdict": r["verdict"],
                "text": rel_text(r) if scale == "relative" else diff_text(r),
                "switches": len(labels),
                "missing": ", ".join(missing),
                "summed": summed,
                "gap": summed - measured,
                "adds_up": bool(np.isfinite(summed) and lo <= summed <= hi),
            }
        )
    return pd.DataFrame(rows)


def _fmt(value: float, scale: str, metric: str) -> str:
    if not np.isfinite(value):
        return "n/a"
    if scale == "relative":
        return f"{100 * value:+.2f}%"
    if metric == "first_dealer_wins":
        return f"{100 * value:+.2f} pp"
    return f"{value:+.3f}"


#: Headers of :func:`additivity_rows`.
ADDITIVITY_HEADERS = (
    "preset (against the base)",
    "players",
    "metric",
    "measured [95%]",
    "verdict",
    "switches changed",
    "sum of the one-switch effects",
    "sum - measured",
    "adds up?",
)


def additivity_rows(table: pd.DataFrame) -> list[list[str]]:
    """Markdown rows of :func:`additivity`."""
    return [
        [
            r["preset"],
            str(r["players"]),
            r["label"] + (" (relative)" if r["scale"] == "relative" else ""),
            r["text"],
            str(r["verdict"]),
            str(r["switches"]) + (f" (no flip row: {r['missing']})" if r["missing"] else ""),
            _fmt(r["summed"], r["scale"], r["metric"]),
            _fmt(r["gap"], r["scale"], r["metric"]),
            "yes (inside the interval)"
            if r["adds_up"]
            else ("n/a" if not np.isfinite(r["summed"]) else "no"),
        ]
        for _, r in table.iterrows()
    ]


def additivity_sentence(table: pd.DataFrame, model: str) -> str:
    """How far the flips fail to add up, on datas per chica (relative), under ``model``.

    The rendered :func:`additivity_claim` (empty when no preset row has a defined sum).
    """
    claim = additivity_claim(table, model)
    return "" if claim is None else render_claim(claim)


def additivity_claim(table: pd.DataFrame, model: str, base: str = "") -> Claim | None:
    """The additivity sentence as a claim: do the one-switch effects add up to the presets?

    Evidence: every row of the ``additivity`` table (row id ``preset|players|metric``) on
    datas per chica with a defined sum (``measured``, ``lower``, ``upper``, ``summed``,
    ``switches``, printed as percentages), and a derived count of the rows whose sum lies
    inside the measured interval.

    Parameters
    ----------
    table : DataFrame
        :func:`additivity` output.
    model : str
        Headline model label (the model of every row).
    base : str
        The base rule set's slug (for the scope), optional.

    Returns
    -------
    Claim or None
        None when no datas-per-chica row has a defined sum.
    """
    sub = table[(table["metric"] == "datas_per_chica") & np.isfinite(table["summed"])]
    if sub.empty:
        return None
    name = model_name(model)
    bad = sub[~sub["adds_up"]]
    worst = sub.loc[sub["gap"].abs().idxmax()]
    pct = {k: 100.0 for k in ("measured", "lower", "upper", "summed")}
    return Claim(
        id="sens.additivity",
        template=(
            "Under `{model}`, the one-switch effects on datas per chica add up to the measured "
            "preset effect (the sum inside its {conf:g}% interval) in {ok} of {n} preset "
            "rows; the largest gap is {preset} with {p} players: {measured} measured "
            "[{lo:+.2f}, {hi:+.2f}] against {summed} summed over its {k} switches, so switches "
            "interact and a preset must be read from its own row."
        ),
        values={
            "model": name,
            "conf": 95,
            "ok": len(sub) - len(bad),
            "n": len(sub),
            "preset": worst["preset"],
            "p": int(worst["players"]),
            "measured": _fmt(worst["measured"], "relative", ""),
            "lo": 100 * worst["lower"],
            "hi": 100 * worst["upper"],
            "summed": _fmt(worst["summed"], "relative", ""),
            "k": int(worst["switches"]),
        },
        evidence=(
            Evidence(
                table="derived",
                row=f"preset rows whose summed flips lie inside the measured interval|{model}",
                values={"adding up": float(len(sub) - len(bad)), "rows": float(len(sub))},
            ),
            *(
                Evidence(
                    table="additivity",
                    row=f"{r['preset']}|{r['players']}|{r['metric']}",
                    values={
                        "measured": float(r["measured"]),
                        "lower": float(r["lower"]),
                        "upper": float(r["upper"]),
                        "summed": float(r["summed"]),
                        "switches": float(r["switches"]),
                    },
                    verdict=str(r["verdict"]),
                    model=name,
                    scale=pct,
                )
                for _, r in sub.iterrows()
            ),
        ),
        test="preset against base on the same decks (relative change, paired delta method); "
        "adds up when the sum of the one-switch effects lies inside the preset's 95% interval",
        verdict="",
        scope=Scope(
            models=(name,),
            players=tuple(sorted({int(v) for v in sub["players"]})),
            rules=tuple(dict.fromkeys([*([base] if base else []), *map(str, sub["preset"])])),
        ),
        constants={"confidence level, %": 95},
        caveats=(
            "headline model only; the tuned players were tuned under Quito (see the disclosure)",
            "a sum inside the interval is not a test of additivity, only no evidence against it",
        ),
    )
