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
from ...switches import format_value
from .. import compare
from ..rules import PRESETS, SWITCHES, RuleSet
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
    """How far the flips fail to add up, on datas per chica (relative), under ``model``."""
    sub = table[(table["metric"] == "datas_per_chica") & np.isfinite(table["summed"])]
    if sub.empty:
        return ""
    bad = sub[~sub["adds_up"]]
    worst = sub.loc[sub["gap"].abs().idxmax()]
    return (
        f"Under `{model}`, the one-switch effects on datas per chica add up to the measured "
        f"preset effect (the sum inside its 95% interval) in {len(sub) - len(bad)} of "
        f"{len(sub)} preset rows; the largest gap is {worst['preset']} with "
        f"{worst['players']} players: {_fmt(worst['measured'], 'relative', '')} measured "
        f"[{100 * worst['lower']:+.2f}, {100 * worst['upper']:+.2f}] against "
        f"{_fmt(worst['summed'], 'relative', '')} summed over its {worst['switches']} "
        "switches, so switches interact and a preset must be read from its own row."
    )
