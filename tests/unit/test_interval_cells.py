"""Printed intervals of resolved differences never show a bound of zero (issue 18, cold read).

A resolved difference is one whose interval excludes 0; a cell such as ``0.21 [0.00, 0.41]``
beside "resolved" reads as a contradiction. :func:`cuarenta_sim.studies.framework.cell` adds
decimals until the bound nearest 0 prints non-zero, and the claim checker refuses a sentence
that prints a resolved row's interval with a bound reading 0.
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from cuarenta_sim.studies.claims import Claim, Evidence, Scope, check_claims, claim_problems
from cuarenta_sim.studies.framework import cell, excluding_decimals, prints_zero_bound


@pytest.mark.parametrize(
    ("est", "lo", "hi", "percent", "suffix"),
    [
        (0.21, 0.0004, 0.41, False, None),  # [0.00, 0.41] with the half-width's decimals
        (-0.0009, -0.0020, -0.00004, True, " pp"),  # [-0.20, -0.00] pp: the sensitivity case
        (3.2, 1e-7, 6.4, False, None),
        (-1.1, -2.2, -0.003, False, None),
    ],
)
def test_resolved_interval_never_prints_a_zero_bound(est, lo, hi, percent, suffix) -> None:
    text = cell(est, lo, hi, percent=percent, suffix=suffix)
    assert not prints_zero_bound(text), text
    # the printed bounds still exclude 0, on the side of the true bounds
    inside = text[text.index("[") + 1 : text.index("]")].replace("%", "").replace(" pp", "")
    a, b = (float(x) for x in inside.split(","))
    assert a * b > 0 and np.sign(a) == np.sign(lo)


def test_the_old_decimals_would_print_a_zero_bound() -> None:
    """The case of the committed sensitivity report: half-width decimals alone give -0.00."""
    assert excluding_decimals(-0.20, -0.004, 2) == 3
    assert prints_zero_bound("-0.09 pp [-0.20, -0.00]")
    assert prints_zero_bound("0.21 [0.00, 0.41]")
    assert prints_zero_bound("0.2% [0, 0.4]")


def test_intervals_containing_zero_keep_their_decimals() -> None:
    assert excluding_decimals(-0.20, 0.0004, 2) == 2
    assert cell(0.1, -0.2, 0.4) == "0.10 [-0.20, 0.40]"
    assert not prints_zero_bound("0.10 [-0.20, 0.40]")
    assert not prints_zero_bound("0.10 (no interval)")


def _zero_bound_claim(decimals: int) -> Claim:
    row = Evidence(
        table="sens",
        row="P(zapateria)|2|learned|ronda_blocked_from=30",
        values={"estimate": -0.09, "lower": -0.20, "upper": -0.004},
        verdict="resolved",
        model="learned",
        interval_matches_verdict=True,
    )
    return Claim(
        id="sens.zero",
        template="With 2 players under {model} the change is {e} pp [{lo}, {hi}] (resolved).",
        values={
            "model": "learned",
            "e": f"{-0.09:.{decimals}f}",
            "lo": f"{-0.20:.{decimals}f}",
            "hi": f"{-0.004:.{decimals}f}",
        },
        evidence=(row,),
        test="paired, Holm",
        verdict="resolved",
        scope=Scope(models=("learned",), players=(2,), rules=("quito",)),
    )


def test_checker_refuses_a_resolved_interval_printed_with_a_zero_bound() -> None:
    kinds = {k for _, k, _ in claim_problems([_zero_bound_claim(2)])}
    assert "interval" in kinds
    check_claims([_zero_bound_claim(3)])  # -0.004 printed: accepted


def test_checker_leaves_a_zero_bound_of_an_unresolved_row_alone() -> None:
    claim = _zero_bound_claim(2)
    row = dataclasses.replace(
        claim.evidence[0], values={"estimate": -0.09, "lower": -0.20, "upper": 0.0}
    )
    row = dataclasses.replace(row, verdict="not resolved")
    claim = dataclasses.replace(
        claim,
        evidence=(row,),
        verdict="not resolved",
        template=claim.template.replace("(resolved)", "(not resolved)"),
    )
    check_claims([claim])
