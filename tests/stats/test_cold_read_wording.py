"""Cold-read findings of issue 18 in the rule reports: each sentence follows its table.

Odds: the *across models* wording follows the overlap it computes ("apart" was printed where the
solver's interval overlapped greedy's). Sensitivity: an identical run too small to have seen a
change is not counted as agreeing. Quito-vs-cuenca and sensitivity: sizes are per model, the
tuned players' tuning rules are disclosed, and no speed is stated without a measured number.
"""

from __future__ import annotations

import pandas as pd

from cuarenta_sim.cuarenta.studies.common import overlap_text
from cuarenta_sim.cuarenta.studies.rule_claims import odds_claims
from cuarenta_sim.studies import StudySettings
from cuarenta_sim.studies.claims import check_claims, render_claim

#: Caidas per play, 4 players, the committed odds report (fractions): solver's interval
#: overlaps greedy's, and neither overlaps heuristic's.
RATES_4P = pd.DataFrame(
    {
        "metric": "caidas_per_play",
        "players": 4,
        "model": ["learned", "heuristic", "greedy", "solver (confirm)"],
        "estimate": [0.132406, 0.13716, 0.12320, 0.1251],
        "lower": [0.132311, 0.13697, 0.12301, 0.1222],
        "upper": [0.132501, 0.13735, 0.12338, 0.1280],
        "n": [1_000_000, 250_000, 250_000, 1_000],
        "method": "ratio",
        "defined": True,
    }
)


def test_overlap_wording_follows_the_overlap_it_computes() -> None:
    text = overlap_text(RATES_4P)
    assert "apart" not in text
    assert text == "not all intervals overlap: greedy's lies below heuristic's"
    two = RATES_4P.iloc[[1, 2]]
    assert overlap_text(two) == "no two intervals overlap"
    same = RATES_4P.iloc[[2, 3]]
    assert overlap_text(same) == "intervals overlap"


def test_odds_caida_claim_does_not_call_overlapping_intervals_apart() -> None:
    odds_table = pd.DataFrame(columns=["event", "scope", "players", "within"])
    s = StudySettings(n=1_000_000, players=(4,), models=tuple(RATES_4P["model"][:3]))
    claims = odds_claims(odds_table, RATES_4P, list(RATES_4P["model"]), "quito", s)
    caida = next(c for c in claims if c.id == "odds.caida.4p")
    sentence = render_claim(caida)
    assert "apart" not in sentence
    assert "not all intervals overlap" in sentence
    check_claims([caida])


def test_an_identical_run_too_small_to_see_the_change_is_not_counted() -> None:
    """Sensitivity, at_38=no_limpia: the solver's 25 chicas are identical while the larger runs
    see a change in a few pairs per hundred; that run cannot tell and is not counted."""
    from cuarenta_sim.cuarenta.studies.panel import blind_identical, robustness

    rows = pd.DataFrame(
        {
            "model": ["learned", "heuristic", "greedy", "solver (confirm)"],
            "metric": "datas_per_chica",
            "estimate": [-0.0038, -0.0040, -0.0032, 0.0],
            "relative": [-0.0011, -0.0012, -0.0010, 0.0],
            "verdict": ["resolved, possibly negligible"] * 3 + ["identical"],
            "differing": [310, 80, 70, 0],
            "n": [10_000, 2_500, 2_500, 25],
        }
    )
    assert blind_identical(rows).tolist() == [False, False, False, True]
    line = robustness(rows)
    assert line.startswith("same sign in 3 of 3 models"), line
    assert "too small to tell in 1 (not counted)" in line and "identical" not in line
    # "no difference under any of the N models": N counts only the runs that can tell
    rows["verdict"] = ["negligible", "identical", "identical", "identical"]
    rows["differing"] = [1, 0, 0, 0]
    line = robustness(rows)
    assert line.startswith("no difference under the one model that can tell (learned)"), line
    assert "too small to tell in 3 (not counted)" in line
    # identical runs large enough to have seen the change count as identical
    rows["n"] = [10_000, 1_000_000, 1_000_000, 1_000_000]
    assert robustness(rows) == "no difference under any of the 4 models"
    # every run identical: nothing to compare against, identical under the models run
    rows["verdict"] = "identical"
    rows["differing"] = 0
    assert robustness(rows) == "identical under the 4 models run"


def _panel(settings: StudySettings):
    from cuarenta_sim.cuarenta.studies.panel import panel_models

    return panel_models(settings, sized_confirm=True)


def test_sizes_are_stated_per_model_not_as_the_headline_for_all() -> None:
    """The summary line gave the headline's 1,000,000 datas 'per ... model' while the panel
    models played a quarter of them: each model's own sizes now."""
    from cuarenta_sim.cuarenta.studies.common import prose

    s = StudySettings(
        n=40_000,
        chicas=4_000,
        mesas=1_000,
        models=("learned", "heuristic", "greedy"),
        confirm="solver",
        confirm_n=100,
    )
    models = _panel(s)
    text = prose("quito_vs_cuenca").summary(s, models[0], models, "TABLE")
    assert "per rule set, player count and model" not in text
    assert "`learned` (the headline run) 40,000 datas, 4,000 chicas, 1,000 mesas" in text
    assert "`heuristic` 10,000 datas, 1,000 chicas, 250 mesas" in text
    plan = models[-1].plan
    assert f"100 datas and {plan[0][3]:,} chicas with 2 players" in text
    assert f"{plan[1][3]:,} chicas with 4 players" in text
    sens = prose("sensitivity").summary(s, "quito", models[0], models, "TABLE")
    assert "`greedy` 10,000 datas, 1,000 chicas, 250 mesas" in sens


def test_tuning_is_disclosed_and_no_speed_is_stated_without_a_measurement() -> None:
    from cuarenta_sim.cuarenta.studies.common import prose, tuned_disclosure

    s = StudySettings(n=4_000, models=("learned", "heuristic", "greedy"), confirm="solver")
    models = _panel(s)
    tuned = tuned_disclosure([m.label for m in models], "Cuenca scoring")
    assert "tuned under Quito and are used unchanged under Cuenca scoring" in tuned
    assert "`learned` (weights `learned_v2`" in tuned and "against `heuristic` under Quito" in tuned
    assert "`heuristic` (default weights from a coordinate search" in tuned
    assert tuned_disclosure(["greedy", "random"], "Cuenca scoring") == ""
    walls = {m.label: 12.5 * (i + 1) for i, m in enumerate(models)}
    text = prose("quito_vs_cuenca").methods(s, 0, models, walls, "CONV", tuned)
    assert "two thirds" not in text and "speed" not in text.replace("not speeds", "")
    assert "`learned` 12.5 s, `heuristic` 25.0 s" in text
    assert "**Tuning.** " + tuned in text
    panel = prose("quito_vs_cuenca").panel(s, models, "TABLE", tuned)
    assert tuned in panel
