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
from ...studies.framework import excluding_decimals
from ...switches import format_value
from .. import compare
from ..rules import PRESETS, SWITCHES, RuleSet
from .claim_rows import model_name
from .common import apply_verdicts, diff_text, rel_text, tuned_disclosure
from .panel import Model

#: Disclosure printed wherever the panel's rule effects appear (the default panel's tuned
#: players; the report builds its own from its models with :func:`.common.tuned_disclosure`).
TUNED_ON_QUITO = tuned_disclosure(("learned", "heuristic"), "every flipped switch and preset")

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


def _se(row: pd.Series, lo_col: str, hi_col: str, z: float) -> float:
    """Standard error of a row's estimate from its marginal (unadjusted) interval."""
    lo = row.get(f"{lo_col}_marginal", row[lo_col])
    hi = row.get(f"{hi_col}_marginal", row[hi_col])
    return float(hi - lo) / (2.0 * z)


def additivity(
    presets: pd.DataFrame,
    flips: pd.DataFrame,
    base: RuleSet,
    model: str,
    confidence: float = 0.95,
) -> pd.DataFrame:
    """Measured preset effect against the sum of its switches' one-switch effects.

    The sum has its own uncertainty: its standard error is the square root of the summed
    variances of the one-switch effects (each from its marginal interval), and the gap
    ``summed - measured`` adds the preset's own variance. Errors are combined as if
    independent: the runs share decks, so this is an approximation (correlated errors could
    make the gap's true interval narrower or wider). The switches are said to *interact* only
    when the gap's interval excludes 0; otherwise they are *not shown to interact*.

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
    confidence : float
        Level of the sum's and the gap's intervals (two-sided normal).

    Returns
    -------
    DataFrame
        One row per (preset, players, metric of :data:`ADDITIVITY_METRICS`): ``preset``,
        ``players``, ``metric``, ``scale`` (``relative``: fraction, for datas per chica; else
        the metric's own unit), ``measured`` / ``lower`` / ``upper`` / ``verdict`` (the
        preset row, its interval at Holm's level), ``switches`` (count), ``missing``
        (switches with no one-switch row), ``summed`` with ``sum_lower`` / ``sum_upper`` (sum
        of the one-switch effects on the same scale and its interval; NaN when one is missing
        or undefined), ``gap`` (summed - measured) with ``gap_lower`` / ``gap_upper``,
        ``interacts`` (the gap's interval excludes 0; never for a ``single`` row), ``single``
        (the preset changes one switch and its gap is exactly 0: identical by construction),
        and for relative changes the effects compounded instead of added (``compounded``,
        ``comp_lower``, ``comp_upper``: ``prod(1 + r_i) - 1``, i.e. added on the log scale),
        ``cgap`` (compounded - measured) with ``cgap_lower`` / ``cgap_upper`` and
        ``interacts_compounded``; NaN / False on other scales.
    """
    from statistics import NormalDist

    z = NormalDist().inv_cdf(0.5 + confidence / 2.0)
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
        ses = [_se(sub.loc[lab], lo_col, hi_col, z) for lab in labels if lab in sub.index]
        ok = not missing and bool(np.all(np.isfinite(values)))
        summed = float(np.sum(values)) if ok else np.nan
        # An identical flip (no pair differed) has no spread: it adds 0 to the variance.
        sum_se = float(np.sqrt(np.nansum(np.square(ses)))) if ok else np.nan
        measured, lo, hi = float(r[scale]), float(r[lo_col]), float(r[hi_col])
        measured_se = _se(r, lo_col, hi_col, z)
        gap_se = float(np.hypot(sum_se, measured_se))
        gap = summed - measured
        gap_lo, gap_hi = gap - z * gap_se, gap + z * gap_se
        comp = _compounded(values, ses, measured, measured_se, z, ok and scale == "relative")
        # A preset that changes one switch is that flip on the same decks: its "sum" is the
        # flip's own effect and the gap is 0 by construction, not a test of anything.
        single = ok and len(labels) == 1 and gap == 0.0
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
                "sum_lower": summed - z * sum_se,
                "sum_upper": summed + z * sum_se,
                "gap": gap,
                "gap_lower": gap_lo,
                "gap_upper": gap_hi,
                "interacts": bool(
                    not single and np.isfinite(gap_lo) and (gap_lo > 0.0 or gap_hi < 0.0)
                ),
                "single": single,
                **comp,
                "interacts_compounded": bool(
                    not single
                    and np.isfinite(comp["cgap_lower"])
                    and (comp["cgap_lower"] > 0.0 or comp["cgap_upper"] < 0.0)
                ),
            }
        )
    return pd.DataFrame(rows)


def _compounded(
    values: list[float],
    ses: list[float],
    measured: float,
    measured_se: float,
    z: float,
    ok: bool,
) -> dict[str, float]:
    """The one-switch relative effects compounded (added on the log scale), and the gap.

    ``compounded = prod(1 + r_i) - 1``; its standard error by the delta method,
    ``(1 + compounded) * sqrt(sum (se_i / (1 + r_i))^2)``; the gap ``compounded - measured``
    adds the preset's own variance (errors combined as independent, as for the sum). All NaN
    when ``ok`` is False (a missing or undefined flip, or a metric that is not a relative
    change).
    """
    keys = ("compounded", "comp_lower", "comp_upper", "cgap", "cgap_lower", "cgap_upper")
    if not ok:
        return dict.fromkeys(keys, np.nan)
    one = 1.0 + np.asarray(values, dtype=np.float64)
    comp = float(np.prod(one)) - 1.0
    se_log = float(np.sqrt(np.nansum(np.square(np.asarray(ses) / one))))
    comp_se = (1.0 + comp) * se_log
    gap = comp - measured
    gap_se = float(np.hypot(comp_se, measured_se))
    return dict(
        zip(
            keys,
            (
                comp,
                comp - z * comp_se,
                comp + z * comp_se,
                gap,
                gap - z * gap_se,
                gap + z * gap_se,
            ),
            strict=True,
        )
    )


def _fmt(value: float, scale: str, metric: str, dec: int | None = None) -> str:
    if not np.isfinite(value):
        return "n/a"
    if scale == "relative":
        return f"{100 * value:+.{2 if dec is None else dec}f}%"
    if metric == "first_dealer_wins":
        return f"{100 * value:+.{2 if dec is None else dec}f} pp"
    return f"{value:+.{3 if dec is None else dec}f}"


def _dec(lo: float, hi: float, scale: str, metric: str) -> int:
    """Decimals of an interval: the usual ones, more when a bound excluding 0 would print 0."""
    k = 100.0 if scale == "relative" or metric == "first_dealer_wins" else 1.0
    usual = 2 if k == 100.0 else 3
    return excluding_decimals(lo * k, hi * k, usual)


def _fmt_ci(value: float, lo: float, hi: float, scale: str, metric: str) -> str:
    """``"+13.73% [+12.95, +14.51]"``: a value and its interval, signed, in the row's unit
    (an interval excluding 0 never prints a bound of 0)."""
    if not np.isfinite(value):
        return "n/a"
    dec = _dec(lo, hi, scale, metric)
    bounds = [_fmt(b, scale, metric, dec).removesuffix("%").removesuffix(" pp") for b in (lo, hi)]
    return f"{_fmt(value, scale, metric, dec)} [{bounds[0]}, {bounds[1]}]"


#: Headers of :func:`additivity_rows`.
ADDITIVITY_HEADERS = (
    "preset (against the base)",
    "players",
    "metric",
    "measured [interval at Holm's level]",
    "verdict",
    "switches changed",
    "sum of the one-switch effects [95%]",
    "sum - measured [95%]",
    "compounded, prod(1 + effect) - 1 [95%]; compounded - measured [95%]",
    "switches interact?",
)

#: The last cells of a preset that changes one switch (its gap is 0 by construction).
SINGLE = "one switch: identical by construction (the preset is that flip)"


def _interact_text(r: pd.Series) -> str:
    """The *switches interact?* cell: on the added scale, and compounded where defined."""
    if not np.isfinite(r["summed"]):
        return "n/a"
    if r["single"]:
        return SINGLE
    added = (
        "yes (the gap's interval excludes 0)"
        if r["interacts"]
        else "not shown (the gap's interval contains 0)"
    )
    if not np.isfinite(r["compounded"]):
        return added
    comp = "yes" if r["interacts_compounded"] else "not shown"
    return f"added: {added}; compounded: {comp}"


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
            _fmt_ci(r["summed"], r["sum_lower"], r["sum_upper"], r["scale"], r["metric"]),
            "0 by construction"
            if r["single"]
            else _fmt_ci(r["gap"], r["gap_lower"], r["gap_upper"], r["scale"], r["metric"]),
            _compounded_text(r),
            _interact_text(r),
        ]
        for _, r in table.iterrows()
    ]


def _compounded_text(r: pd.Series) -> str:
    if r["single"]:
        return "the flip itself; 0 by construction"
    if not np.isfinite(r["compounded"]):
        return "n/a (not a relative change)" if r["scale"] != "relative" else "n/a"
    comp = _fmt_ci(r["compounded"], r["comp_lower"], r["comp_upper"], "relative", "")
    gap = _fmt_ci(r["cgap"], r["cgap_lower"], r["cgap_upper"], "relative", "")
    return f"{comp}; {gap}"


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
    ``sum_lower``, ``sum_upper``, ``gap``, ``gap_lower``, ``gap_upper``, ``switches``,
    ``compounded`` ... ``cgap_upper``, printed as percentages), and a derived count of the
    rows that change several switches and of those where the gap's interval excludes 0, with
    the effects added and compounded (added on the log scale): whether switches interact
    depends on that scale, so the sentence gives both counts. A preset that changes one switch
    (its row is that flip, gap 0 by construction) is named as such and never counted.

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
    single = sub[sub["single"].astype(bool)]
    multi = sub[~sub["single"].astype(bool)]
    keys = ("measured", "lower", "upper", "summed", "sum_lower", "sum_upper")
    comp_keys = ("compounded", "comp_lower", "comp_upper", "cgap", "cgap_lower", "cgap_upper")
    pct = {k: 100.0 for k in (*keys, "gap", "gap_lower", "gap_upper", *comp_keys)}
    values: dict[str, object] = {"model": name, "conf": 95, "n": len(multi)}
    if multi.empty:
        template = "Under `{model}`, no preset row changes several switches"
    else:
        bad = multi["interacts"].astype(bool)
        bad_c = multi["interacts_compounded"].astype(bool)
        worst = multi.loc[multi["gap"].abs().idxmax()]
        values |= {
            "bad": int(bad.sum()),
            "bad_c": int(bad_c.sum()),
            "both": int((bad & bad_c).sum()),
            "preset": worst["preset"],
            "p": int(worst["players"]),
            "measured": _fmt_ci(worst["measured"], worst["lower"], worst["upper"], "relative", ""),
            "summed": _fmt_ci(
                worst["summed"], worst["sum_lower"], worst["sum_upper"], "relative", ""
            ),
            "gap": _fmt_ci(worst["gap"], worst["gap_lower"], worst["gap_upper"], "relative", ""),
            "compounded": _fmt_ci(
                worst["compounded"], worst["comp_lower"], worst["comp_upper"], "relative", ""
            ),
            "cgap": _fmt_ci(
                worst["cgap"], worst["cgap_lower"], worst["cgap_upper"], "relative", ""
            ),
            "k": int(worst["switches"]),
        }
        template = (
            "Under `{model}`, on datas per chica, the one-switch relative effects are combined "
            "two ways, each with the {conf:g}% interval of combined - measured (errors combined "
            "as independent): added (the baseline of the table), that interval excludes 0 in "
            "{bad} of {n} preset rows that change several switches; compounded (multiplied as "
            "1 + effect, i.e. added on the log scale), in {bad_c} of {n}"
        )
        if values["bad"] == values["bad_c"] == values["both"] > 0:
            template += (
                "; the same rows on both scales: there the switches interact, and a preset "
                "must be read from its own row"
            )
        elif values["bad"] or values["bad_c"]:
            template += (
                ("; only {both} on both" if values["both"] else "; no row on both")
                + ", so whether the switches interact depends on the scale chosen, and a "
                "preset must be read from its own row"
            )
        else:
            template += (
                "; the switches are not shown to interact on either scale (no evidence against "
                "adding up, not a proof of it)"
            )
        template += (
            "; the largest added gap is {preset} with {p} players: {measured} measured against "
            "{summed} summed over its {k} switches, a gap of {gap}"
        )
        if np.isfinite(worst["compounded"]):
            template += " (compounded {compounded}, a gap of {cgap})"
    if len(single):
        counts = sorted({int(v) for v in single["players"]})
        values |= {
            "single_presets": ", ".join(dict.fromkeys(map(str, single["preset"]))),
            "single_players": " and ".join(map(str, counts)),
        }
        template += (
            "; {single_presets} (with {single_players} players) changes one switch only, so "
            "its row is that flip on the same decks, the same number by construction, and is not "
            "counted"
        )
    template += "."
    return Claim(
        id="sens.additivity",
        template=template,
        values=values,
        evidence=(
            Evidence(
                table="derived",
                row=f"preset rows where the switches interact (gap's interval excludes 0)|{model}",
                values={
                    "interacting, added": float(values.get("bad", 0)),
                    "interacting, compounded": float(values.get("bad_c", 0)),
                    "interacting, both": float(values.get("both", 0)),
                    "rows changing several switches": float(len(multi)),
                    "rows changing one switch": float(len(single)),
                },
            ),
            *(
                Evidence(
                    table="additivity",
                    row=f"{r['preset']}|{r['players']}|{r['metric']}",
                    values={
                        **{k: float(r[k]) for k in pct if np.isfinite(float(r[k]))},
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
        "the switches interact when the 95% interval of (sum of the one-switch effects - "
        "measured preset effect), standard errors from the marginal intervals combined as "
        "independent, excludes 0",
        verdict="",
        scope=Scope(
            models=(name,),
            players=tuple(sorted({int(v) for v in sub["players"]})),
            rules=tuple(dict.fromkeys([*([base] if base else []), *map(str, sub["preset"])])),
        ),
        constants={"confidence level, %": 95, "1 in 1 + effect": 1, "0 (no gap)": 0},
        caveats=(
            "headline model only; the tuned players were tuned under Quito (see the disclosure)",
            "interaction is scale-dependent: added relative effects and compounded ones (the "
            "log scale) are different no-interaction baselines; both are reported",
            "the runs share decks, so the errors of the sum and of the preset are correlated; "
            "combining them as independent is an approximation",
            "not shown to interact is not a test of additivity, only no evidence against it",
        ),
    )
