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
    assert "not shown to interact" in text and " interact and " not in text
    assert "+11.07% [+10.50, +11.60] measured against +13.74% [" in text, text
    # Precise flips: the gap's interval excludes 0, so the switches interact.
    tight = pd.DataFrame([_diff(lab, each, each - 0.001, each + 0.001) for lab in labels])
    out = additivity(presets, tight, quito, "m")
    assert out.iloc[0]["interacts"]
    text = additivity_sentence(out, "m")
    assert "in 1 of 1 preset rows: there the switches interact" in text
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
