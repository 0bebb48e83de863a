"""Cold-read findings on the Answers and Methods of reports/sensitivity (issue 18).

The agreement answer counts flips beyond the practical margin out of those that acted (not
"12 of 20" with possibly negligible and never-acting flips inside); the Quito vs Cuenca answer
limits "matters as much as which scoring" to chica length; the headline answer says the tuned
player was tuned under Quito; the Methods state the 10-minute target and the run's own time.
"""

from __future__ import annotations

import pandas as pd

from cuarenta_sim.cuarenta.studies.common import prose
from cuarenta_sim.cuarenta.studies.panel import Model
from cuarenta_sim.cuarenta.studies.rule_claims import agreement_classes, sensitivity_claims
from cuarenta_sim.studies import StudySettings
from cuarenta_sim.studies.claims import check_claims, render_claim

MODELS = ["learned", "heuristic"]
RES, NEG = "resolved", "resolved, possibly negligible"


def _row(variant: str, model: str, verdict: str, rel: float) -> dict:
    same = verdict == "identical"
    if verdict == "not resolved":
        rel = 0.001  # its interval contains 0
    return {
        "variant": variant,
        "metric": "datas_per_chica",
        "label": "datas per chica",
        "players": 2,
        "model": model,
        "disputed": True,
        "estimate": 0.0 if same else rel * 3.4,
        "lower": 0.0 if same else rel * 3.4 - 0.01,
        "upper": 0.0 if same else rel * 3.4 + 0.01,
        "relative": 0.0 if same else rel,
        "relative_lower": 0.0 if same else rel - 0.003,
        "relative_upper": 0.0 if same else rel + 0.003,
        "verdict": verdict,
        "differing": 0 if same else 900,
        "n": 2_500,
        "level": "chica",
        "method": "paired",
        "defined": True,
        "no_variation": same,
        "p_value": 1.0 if same else 0.001,
    }


def _diff(head_policy: str = "learned") -> pd.DataFrame:
    models = [head_policy, "heuristic"]
    spec = {
        "carton_blocked_from=30": ([RES, RES], 0.17),
        "caida_limpia_cumulative=true": ([RES, RES], -0.058),
        "ronda_points=4": ([RES, RES], -0.09),
        "doble_ronda=4": ([NEG, RES], 0.005),
        "at_38=no_limpia": ([NEG, NEG], -0.001),
        "max_sum_cards=2": ([RES, "not resolved"], 0.004),
        "chicas_to_win=1": (["identical", "identical"], 0.0),
        "zapateria_below=0": (["identical", "identical"], 0.0),
    }
    return pd.DataFrame(
        [
            _row(v, m, verdict, rel)
            for v, (verdicts, rel) in spec.items()
            for m, verdict in zip(models, verdicts, strict=True)
        ]
    )


def _claims(head_policy: str = "learned"):
    s = StudySettings(n=100, players=(2,), models=(head_policy, "heuristic"))
    claims = sensitivity_claims(
        _diff(head_policy), [head_policy, "heuristic"], s, "caida_limpia_cumulative=true"
    )
    check_claims(claims)
    return {c.id: c for c in claims}


def test_agreement_counts_flips_beyond_the_margin_out_of_those_that_acted() -> None:
    """Old code: "3 of 8 flips ... with one resolved sign" counted the possibly negligible
    ``doble_ronda=4`` / ``at_38=no_limpia`` with the large ones, and put the never-acting
    ``chicas_to_win=1`` / ``zapateria_below=0`` in the denominator."""
    beyond, negligible, idle = agreement_classes(_diff())
    assert beyond == ["carton_blocked_from=30", "caida_limpia_cumulative=true", "ronda_points=4"]
    assert negligible == ["doble_ronda=4", "at_38=no_limpia"]
    assert idle == ["chicas_to_win=1", "zapateria_below=0"]
    text = render_claim(_claims()["sens.agree"])
    assert text.startswith(
        "Of the 8 flips, 2 left the length of every 2-player chica unchanged in every run "
        "(chicas_to_win=1, zapateria_below=0: no pair differs); of the 6 others, 3 change a "
        "2-player chica's length by more than the practical margin"
    ), text
    assert "and 2 more with one resolved sign that is possibly negligible" in text
    assert "of 8 flips change" not in text


def test_qc_answer_limits_the_scoring_comparison_to_chica_length() -> None:
    text = render_claim(_claims()["sens.qc"])
    assert "2 other reading(s) move it more under learned" in text
    assert "for the length of a chica (this metric only" in text, text


def test_headline_answer_discloses_the_tuning() -> None:
    text = render_claim(_claims()["sens.top"])
    assert "carton_blocked_from=30 moves a 2-player chica's length most under learned" in text
    assert "learned was tuned under Quito and plays every flipped rule set unchanged" in text
    # an untuned headline model carries no tuning sentence
    assert "tuned" not in render_claim(_claims("greedy")["sens.top"])


def test_methods_state_a_target_and_the_measured_wall_time() -> None:
    """Old text: "The sizes were chosen so the default report regenerates in under 10
    minutes on 2 cores" while the run itself took 890.51 s."""
    models = [
        Model("learned", ("learned",), 40_000, "headline", 10_000, 2_000),
        Model("solver (confirm)", ("solver",), 100, "confirm", 25, 10),
    ]
    s = StudySettings(n=100, players=(2,))
    walls = {"learned": 173.5, "solver (confirm)": 648.9}
    text = prose("sensitivity").methods("quito", "", models, walls, s, "", "", 890.51)
    assert "regenerates in under 10 minutes" not in text
    assert "aim at a target, not a promise" in text
    assert "took 891 s of wall time to simulate and tabulate (14.8 min" in text, text
    assert "learned 174 s, solver (confirm) 649 s" in text
    assert "so it missed the target on its machine" in text
    quick = prose("sensitivity").methods("quito", "", models, walls, s, "", "", 400.0)
    assert "took 400 s of wall time to simulate and tabulate (6.7 min" in quick
    assert "so it met the target" in quick


def test_a_score_switch_at_level_data_did_not_act_rather_than_cannot_act() -> None:
    """Old cell: "cannot act at level data", stronger than its evidence (0 of 40,000 paired
    datas differ; a data from 0-0 can, rarely, reach 30). The cell now states the evidence,
    and a blind switch whose pairs did differ prints its measured effect."""
    from cuarenta_sim.cuarenta.studies.sensitivity import _cell

    row = pd.Series(
        {
            "variant": "carton_blocked_from=30",
            "metric": "points",
            "verdict": "identical",
            "n": 40_000,
            "differing": 0,
            "estimate": 0.0,
            "lower": 0.0,
            "upper": 0.0,
            "level": "data",
            "defined": True,
            "method": "paired",
        }
    )
    assert _cell(row, blind=True) == "did not act in 40,000 datas (0 pairs differ)"
    acted = row.copy()
    acted[["verdict", "differing", "estimate", "lower", "upper"]] = [
        "not resolved",
        3,
        0.001,
        -0.002,
        0.004,
    ]
    text = _cell(acted, blind=True)
    assert "did not act" not in text and "cannot act" not in text
    assert text.endswith(" ~"), text
    intro = prose("sensitivity").rules_you_play(
        StudySettings(n=100, players=(2,)), Model("learned", ("learned",), 1, "headline"), "", ""
    )
    assert "cannot act" not in intro
    assert "a data starting at 0-0 never reaches" not in intro
    assert "*did not act in N datas (0 pairs differ)*" in intro
