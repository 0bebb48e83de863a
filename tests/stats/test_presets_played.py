"""Presets as played (issue 18 item 6): the switches a preset changes, and the sum of the
one-switch effects set beside the measured preset effect."""

from __future__ import annotations

import numpy as np
import pandas as pd

from cuarenta_sim.cuarenta.rules import PRESETS, resolve_rules
from cuarenta_sim.cuarenta.studies.presets_played import (
    additivity,
    additivity_sentence,
    changed_switches,
    preset_variants,
)


def test_changed_switches_and_variants() -> None:
    quito = resolve_rules("quito")
    assert changed_switches(quito, PRESETS["cuenca"]) == ["caida_limpia_cumulative=true"]
    assert len(changed_switches(quito, PRESETS["quito_torneo"])) >= 2
    assert set(preset_variants(quito)) == {"preset:cuenca", "preset:pagat", "preset:quito_torneo"}


def _diff(variant: str, rel: float, lo: float, hi: float) -> dict:
    return {"variant": variant, "model": "m", "players": 2, "metric": "datas_per_chica",
            "label": "datas per chica", "estimate": rel * 6, "lower": lo * 6, "upper": hi * 6,
            "relative": rel, "relative_lower": lo, "relative_upper": hi, "verdict": "resolved",
            "defined": True, "no_variation": False}  # fmt: skip


def test_additivity_gives_the_sum_its_own_interval() -> None:
    """The sum of the one-switch effects is uncertain too: a sum outside the preset's interval
    is not evidence of interaction when the interval of sum - measured contains 0."""
    quito = resolve_rules("quito")
    labels = changed_switches(quito, PRESETS["quito_torneo"])
    # One-switch effects summing to +13.74% against a measured +11.07% [10.5, 11.6]: the sum
    # lies outside the measured interval, but each flip is uncertain to +-1 point.
    each = 0.1374 / len(labels)
    flips = pd.DataFrame([_diff(lab, each, each - 0.01, each + 0.01) for lab in labels])
    presets = pd.DataFrame([_diff("preset:quito_torneo", 0.1107, 0.105, 0.116)])
    out = additivity(presets, flips, quito, "m")
    row = out.iloc[0]
    assert row["summed"] == np.float64(each * len(labels))
    assert not (row["lower"] <= row["summed"] <= row["upper"])  # the old "switches interact"
    se_sum = np.sqrt(len(labels)) * 0.01 / 1.959964
    assert np.isclose(row["sum_upper"] - row["summed"], 1.959964 * se_sum, rtol=1e-4)
    assert row["gap_lower"] < 0 < row["gap_upper"] and not row["interacts"]
    text = additivity_sentence(out, "m")
    # added: not shown; compounded (+14.59%, gap +3.52% [+0.29, +6.76]): interacts
    assert "that interval excludes 0 in 0 of 1 preset rows" in text, text
    assert "compounded (multiplied as 1 + effect, i.e. added on the log scale), in 1 of 1" in text
    assert "depends on the scale chosen" in text
    assert "+11.07% [+10.50, +11.60] measured against +13.74% [" in text, text
    assert "(compounded +14.59% [+11.41, +17.78], a gap of +3.52% [+0.29, +6.76])" in text
    # Precise flips: the gap's interval excludes 0, so the switches interact.
    tight = pd.DataFrame([_diff(lab, each, each - 0.001, each + 0.001) for lab in labels])
    out = additivity(presets, tight, quito, "m")
    assert out.iloc[0]["interacts"]
    text = additivity_sentence(out, "m")
    assert "in 1 of 1 preset rows" in text
    assert "the same rows on both scales: there the switches interact" in text, text
    # A missing flip row: no sum.
    partial = additivity(presets, flips.iloc[1:], quito, "m").iloc[0]
    assert np.isnan(partial["summed"]) and partial["missing"] == labels[0]


def test_additivity_sentence_is_a_claim_that_passes_the_checker() -> None:
    """The additivity sentence is a claim: its numbers come from the additivity table, and a
    planted number or a dropped model is refused."""
    import dataclasses

    import pytest

    from cuarenta_sim.cuarenta.studies.presets_played import additivity_claim
    from cuarenta_sim.studies.claims import ClaimError, check_claims, render_claim, table_rows

    quito = resolve_rules("quito")
    labels = changed_switches(quito, PRESETS["quito_torneo"])
    each = 0.1374 / len(labels)
    flips = pd.DataFrame([_diff(lab, each, each - 0.01, each + 0.01) for lab in labels])
    presets = pd.DataFrame([_diff("preset:quito_torneo", 0.1107, 0.105, 0.116)])
    out = additivity(presets, flips, quito, "m")
    claim = additivity_claim(out, "m", "quito")
    assert claim is not None and render_claim(claim) == additivity_sentence(out, "m")
    tables = {"additivity": table_rows(out, ("preset", "players", "metric"))}
    check_claims([claim], tables=tables)
    bad = dataclasses.replace(claim, values={**claim.values, "summed": "+14.50%"})
    with pytest.raises(ClaimError) as info:
        check_claims([bad], tables=tables)
    assert "number" in info.value.kinds
    unnamed = dataclasses.replace(claim, template=claim.template.replace("Under `{model}`, ", ""))
    with pytest.raises(ClaimError) as info:
        check_claims([unnamed], tables=tables)
    assert "scope" in info.value.kinds
    assert additivity_claim(out.iloc[0:0], "m") is None


def test_additivity_reports_the_scale_and_marks_one_switch_presets() -> None:
    """Cold-read findings on the committed report. (1) pagat 4p: the one-switch effects add to
    -9.44% against -8.70% [-9.15, -8.25] measured (gap -0.74%, "interacts"), but compounded
    they give -9.22% (gap -0.52%, interval containing 0): the verdict depends on the scale, and
    the old sentence ("in 1 of 2 preset rows: there the switches interact") hid it. (2) cuenca
    is the single flip caida_limpia_cumulative=true on the same decks: its gap is 0 by
    construction, and the old table said "not shown (the gap's interval contains 0)"."""
    from cuarenta_sim.cuarenta.studies.presets_played import (
        SINGLE,
        additivity_claim,
        additivity_rows,
    )
    from cuarenta_sim.studies.claims import check_claims, render_claim, table_rows

    quito = resolve_rules("quito")
    labels = changed_switches(quito, PRESETS["pagat"])
    effects = [-0.05, -0.0444] + [0.0] * (len(labels) - 2)
    half = [0.0025, 0.0025] + [0.0] * (len(labels) - 2)  # the others identical (no spread)
    rows = [_diff(lab, e, e - h, e + h) for lab, e, h in zip(labels, effects, half, strict=True)]
    (qc,) = changed_switches(quito, PRESETS["cuenca"])
    if qc not in labels:
        rows.append(_diff(qc, -0.0584, -0.0626, -0.0542))
    flips = pd.DataFrame(rows)
    cuenca = flips[flips["variant"] == qc].iloc[0].to_dict() | {"variant": "preset:cuenca"}
    presets = pd.DataFrame([_diff("preset:pagat", -0.0870, -0.0915, -0.0825), cuenca])
    out = additivity(presets, flips, quito, "m").set_index("preset", drop=False)
    pagat, one = out.loc["pagat"], out.loc["cuenca"]
    assert np.isclose(pagat["summed"], -0.0944) and np.isclose(pagat["compounded"], -0.09218)
    assert pagat["interacts"] and not pagat["interacts_compounded"]
    assert one["single"] and not one["interacts"] and one["gap"] == 0.0
    cells = {r[0]: r for r in additivity_rows(out)}
    assert cells["cuenca"][-1] == SINGLE and cells["cuenca"][7] == "0 by construction"
    assert cells["pagat"][-1] == (
        "added: yes (the gap's interval excludes 0); compounded: not shown"
    )
    assert cells["pagat"][8].startswith("-9.22% ["), cells["pagat"][8]
    claim = additivity_claim(out, "m", "quito")
    assert claim is not None
    text = render_claim(claim)
    assert "that interval excludes 0 in 1 of 1 preset rows that change several switches" in text
    assert "i.e. added on the log scale), in 0 of 1" in text
    assert "depends on the scale chosen" in text
    assert "cuenca (with 2 players) changes one switch only" in text, text
    assert "the same number by construction, and is not counted" in text
    assert "no row on both, so whether the switches interact depends on the scale" in text
    check_claims([claim], tables={"additivity": table_rows(out, ("preset", "players", "metric"))})
