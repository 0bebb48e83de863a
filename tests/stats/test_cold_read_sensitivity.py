"""Cold-read defects of reports/sensitivity (issue 18): each sentence follows its tables.

The "N of M flips" answer counts the same runs as the *across models* column (an identical
run too small to have seen the change is not counted); the summary marks every verdict the
way the other tables and its intro do; the 38 rule is named by one true wording ("at 38":
the winner had exactly ``target - 2`` before its winning step, R9.1).
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd

import cuarenta_sim
from cuarenta_sim.cuarenta.compare import cuarenta_metrics
from cuarenta_sim.cuarenta.studies.rule_claims import sensitivity_claims
from cuarenta_sim.cuarenta.studies.sensitivity import _mark
from cuarenta_sim.cuarenta.studies.switch_notes import SWITCH_SCOPE
from cuarenta_sim.studies import StudySettings
from cuarenta_sim.studies.claims import check_claims, render_claim

MODELS = ["learned", "heuristic", "solver (confirm)"]


def _rows(variant: str, players: int, verdicts: list[str], differing: list[int]) -> list[dict]:
    est = {"identical": 0.0}
    return [
        {
            "variant": variant,
            "metric": "datas_per_chica",
            "label": "datas per chica",
            "players": players,
            "model": m,
            "disputed": True,
            "estimate": est.get(v, -0.004),
            "lower": est.get(v, -0.006),
            "upper": est.get(v, -0.002),
            "relative": est.get(v, -0.001),
            "relative_lower": est.get(v, -0.0015),
            "relative_upper": est.get(v, -0.0005),
            "verdict": v,
            "differing": d,
            "n": 25 if "confirm" in m else 2_500,
            "level": "chica",
            "method": "paired",
            "defined": True,
            "no_variation": v == "identical",
            "p_value": 1.0 if v == "identical" else 0.01,
        }
        for m, v, d in zip(MODELS, verdicts, differing, strict=True)
    ]


def test_agreement_count_skips_an_identical_run_too_small_to_see_the_change() -> None:
    """2 players: both flips agree under every model that can tell (the solver's 25 chicas of
    ``at_38=no_limpia`` are identical while 3% of the larger runs' pairs differ: blind). 4
    players: ``at_38=no_limpia`` has a run that is not resolved, so only 1 of 2 agrees. The
    2-player sentence must say 2 of 2 (it said 1, the 4-player-like count, before)."""
    resolved = "resolved, possibly negligible"
    frames = [
        *_rows("ronda_points=4", 2, [resolved, resolved, "too small to tell"], [300, 80, 9]),
        *_rows("at_38=no_limpia", 2, [resolved, resolved, "identical"], [75, 60, 0]),
        *_rows("ronda_points=4", 4, [resolved, resolved, "too small to tell"], [300, 80, 9]),
        *_rows("at_38=no_limpia", 4, [resolved, "not resolved", "identical"], [70, 6, 0]),
    ]
    diff = pd.DataFrame(frames)
    s = StudySettings(n=100, players=(2, 4), models=("learned", "heuristic"))
    claims = sensitivity_claims(diff, MODELS, s, None)
    agree = next(c for c in claims if c.id == "sens.agree")
    assert agree.values["p"] == 2
    # both flips are resolved, possibly negligible under every counted model: 0 beyond the
    # margin, 2 possibly negligible (the 2-player count; it said 1 before the blind fix)
    assert (agree.values["exceed"], agree.values["neg"], agree.values["n"]) == (0, 2, 2), (
        render_claim(agree)
    )
    assert "2 more with one resolved sign that is possibly negligible" in render_claim(agree)
    check_claims([agree])


def test_summary_cells_carry_the_marks_its_intro_promises() -> None:
    base = {
        "metric": "datas_per_chica",
        "estimate": 0.0136,
        "lower": 0.0055,
        "upper": 0.0217,
        "defined": True,
        "no_variation": False,
        "method": "paired",
    }
    cell = _mark(pd.Series({**base, "verdict": "resolved, possibly negligible"}))
    assert cell.endswith("(possibly negligible)"), cell
    assert _mark(pd.Series({**base, "verdict": "too small to tell"})).endswith(
        "(too small to tell)"
    )
    assert _mark(pd.Series({**base, "verdict": "negligible"})).endswith("(no difference)")
    assert _mark(pd.Series({**base, "verdict": "not resolved"})).endswith(" ~")
    assert _mark(pd.Series({**base, "verdict": "resolved"})) == "0.0136 [0.0055, 0.0217]"
    assert _mark(pd.Series({**base, "verdict": "identical"})) == "0 (identical)"


def test_the_38_rule_has_one_true_wording() -> None:
    """R9.1 acts on a side *at* 38 and ``decided_at_38`` records a winner at exactly
    ``target - 2``: the label says "at 38", never "from 38"."""
    metric = next(m for m in cuarenta_metrics() if m.name == "decided_at_38")
    assert metric.label == "P(chica decided at 38)"
    root = Path(cuarenta_sim.__file__).parent
    for template in root.rglob("*.md.j2"):
        assert "from 38" not in template.read_text(encoding="utf-8"), template.name
    assert "from 38" not in repr(SWITCH_SCOPE)
