"""Player panels of the rule studies: parsing, one column per model, robustness, --precision."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from cuarenta_sim import stats, studies
from cuarenta_sim.cuarenta.studies import panel, parse_models, robustness
from cuarenta_sim.cuarenta.studies.common import apply_verdicts, diff_text
from cuarenta_sim.studies.registry import precision_n


# --------------------------------------------------------------------------- parsing
def test_parse_models_splits_on_semicolons() -> None:
    assert parse_models("learned;heuristic;greedy") == ("learned", "heuristic", "greedy")
    # Commas stay inside a model (one policy per side), and inside a spec's parentheses.
    assert parse_models(" greedy , heuristic ; pimc(samples=8,depth=deal)") == (
        "greedy,heuristic",
        "pimc(samples=8,depth=deal)",
    )


@pytest.mark.parametrize(
    ("text", "needle"),
    [
        ("greedy;;learned", "empty model"),
        ("greedy;", "empty model"),
        ("greedy;greedy", "listed twice"),
        ("greedy;pimc(samples=8", "accepted: models separated by ';'"),
    ],
)
def test_parse_models_rejects_bad_panels(text: str, needle: str) -> None:
    with pytest.raises(ValueError, match=needle) as err:
        parse_models(text)
    assert "\n" not in str(err.value)


def test_settings_hold_the_panel_and_reproduce_it() -> None:
    study = studies.get_study("quito-vs-cuenca")
    s = study.settings(n=4000, policies="greedy;heuristic", confirm="random", confirm_n=40)
    assert s.models == ("greedy", "heuristic") and s.policies == ("greedy",)
    models = panel.panel_models(s)
    assert [m.label for m in models] == ["greedy", "heuristic", "random (confirm)"]
    assert [m.n for m in models] == [4000, 4000 // panel.PANEL_DIVISOR, 40]
    assert [m.role for m in models] == ["headline", "panel", "confirm"]
    command = study.command(s)
    assert "--policies 'greedy;heuristic'" in command
    assert "--confirm random --confirm-n 40" in command
    # "none" drops the confirmatory run, and the command says so.
    none = study.settings(n=4000, policies="greedy", confirm="none")
    assert none.confirm is None and "--confirm none" in study.command(none)


def test_default_panel_is_learned_first_with_a_solver_confirmation() -> None:
    s = studies.get_study("quito-vs-cuenca").settings()
    assert s.models[0] == "learned" and s.confirm == "solver"
    assert s.n == 1_000_000 and s.confirm_n >= 1


# --------------------------------------------------------------------------- precision
def test_precision_sizes_n_with_required_n() -> None:
    # +-0.1 percentage points on a rate near 50%: z^2 / 4 / 0.001^2 = 960,365 units.
    assert precision_n(0.1) == stats.required_n("proportion", 0.001) == 960_365
    assert precision_n(1.0) < precision_n(0.5) < precision_n(0.1)
    s = studies.get_study("odds").settings(precision=2.0, policies="greedy", confirm="none")
    assert s.n == stats.required_n("proportion", 0.02)
    # The interval a worst-case rate gets at that n is no wider than asked.
    half = 1.959963984540054 * math.sqrt(0.25 / s.n)
    assert half <= 0.02


@pytest.mark.parametrize("bad", [0, -1, 50, float("nan"), True, "0.1"])
def test_precision_rejects_bad_values(bad) -> None:
    with pytest.raises(ValueError, match="--precision must be a half-width"):
        precision_n(bad)


# --------------------------------------------------------------------------- robustness
def _rows(*cells: tuple[float, str, float]) -> pd.DataFrame:
    return pd.DataFrame(
        [
            {"metric": "datas_per_chica", "estimate": e, "verdict": v, "relative": r}
            for e, v, r in cells
        ]
    )


def test_robustness_same_sign_and_size_range() -> None:
    rows = _rows((-0.28, "resolved", -0.089), (-0.19, "resolved", -0.0586),
                 (-0.2, "resolved", -0.0636))  # fmt: skip
    assert robustness(rows) == "same sign in 3 of 3 models; size from -5.9% to -8.9%"
    assert panel.agrees(rows)


def test_robustness_counts_disagreement_and_unresolved() -> None:
    rows = _rows((-0.3, "resolved", -0.09), (0.1, "resolved", 0.03), (0.01, "not resolved", 0.003),
                 (0.0, "identical", 0.0))  # fmt: skip
    line = robustness(rows)
    assert line.startswith(
        "same sign in 1 of 4 models (positive); opposite sign in 1 (negative); not resolved in 1"
    ), line
    assert line.endswith("size +3.0%; opposite sign -9.0%"), line
    assert "identical in 1" in line and not panel.agrees(rows)
    assert robustness(_rows((0.0, "identical", 0.0), (0.0, "identical", 0.0))) == (
        "identical under the 2 models run"
    )
    assert robustness(_rows((0.0, "identical", 0.0), (1e-4, "negligible", 1e-4))) == (
        "no difference under any of the 2 models"
    )
    assert robustness(_rows((0.1, "not resolved", 0.01))).startswith("no resolved effect")


def test_robustness_of_a_percentage_is_in_points() -> None:
    rows = pd.DataFrame(
        [{"metric": "first_dealer_wins", "estimate": 0.012, "verdict": "resolved",
          "relative": 0.02}, {"metric": "first_dealer_wins", "estimate": 0.02,
                              "verdict": "resolved", "relative": 0.04}]
    )  # fmt: skip
    assert robustness(rows) == "same sign in 2 of 2 models; size from 1.20 pp to 2.00 pp"
    with pytest.raises(ValueError):
        robustness(rows.iloc[:0])


# --------------------------------------------------------------------------- verdicts
def test_identical_rows_print_no_interval_and_holm_is_per_family() -> None:
    base = {
        "label": "x",
        "level": "data",
        "kind": "mean",
        "n": 1000,
        "method": "paired",
        "defined": True,
        "relative": np.nan,
        "relative_lower": np.nan,
        "relative_upper": np.nan,
    }
    frame = pd.DataFrame(
        [
            # No pair differed: flagged, bounded by the rule of three, printed as identical.
            {**base, "metric": "points", "estimate": 0.0, "lower": -0.004, "upper": 0.004,
             "no_variation": True, "p_value": 1.0, "differing": 0, "model": "a"},
            # Inside the +-0.01 margin but excluding 0 (p = 1e-6): its sign is settled, so it
            # is resolved, possibly negligible, never "no difference" beside [0.001, 0.003].
            {**base, "metric": "points", "estimate": 0.002, "lower": 0.001, "upper": 0.003,
             "no_variation": False, "p_value": 1e-6, "differing": 12, "model": "a"},
            # p = 0.03 alone resolves; in a family of two after Holm (0.06) it does not.
            {**base, "metric": "points", "estimate": 0.5, "lower": 0.02, "upper": 0.98,
             "no_variation": False, "p_value": 0.03, "differing": 400, "model": "b"},
            {**base, "metric": "points", "estimate": 0.5, "lower": 0.02, "upper": 0.98,
             "no_variation": False, "p_value": 0.04, "differing": 400, "model": "b"},
        ]
    )  # fmt: skip
    out = apply_verdicts(frame, ["model"])
    assert list(out["verdict"]) == [
        "identical",
        "resolved, possibly negligible",
        "not resolved",
        "not resolved",
    ]
    assert diff_text(out.iloc[0]) == "0 (identical)"
    # ... and its printed interval (at Holm's level 0.05/2 for both) reaches 0.
    assert out["lower"].iloc[2] <= 0.0 < out["upper"].iloc[2]
    alone = apply_verdicts(frame.iloc[[2]], ["model"])
    assert alone["verdict"].iloc[0] == "resolved"
    assert alone["lower"].iloc[0] == pytest.approx(0.02)


# --------------------------------------------------------------------------- reports
@pytest.fixture(scope="module")
def qc_panel() -> studies.GeneratedReport:
    study = studies.get_study("quito-vs-cuenca")
    s = study.settings(n=2000, seed=4, players="2", policies="greedy;random", confirm="heuristic",
                       confirm_n=400, chicas=300, mesas=100)  # fmt: skip
    return studies.run_study("quito-vs-cuenca", s)


def test_panel_table_has_one_column_per_model(qc_panel) -> None:
    table = qc_panel.tables["panel"]
    for label in ("greedy", "random", "heuristic (confirm)"):
        assert label in table.columns
    assert table["robustness"].str.contains("model").all()
    diff = qc_panel.tables["differences"]
    assert {"model", "players"} <= set(diff.columns)
    assert set(diff["model"]) == {"greedy", "random", "heuristic (confirm)"}
    sizes = diff.groupby("model")["n"].max()
    assert sizes["heuristic (confirm)"] < sizes["greedy"]
    md = qc_panel.report.render() if hasattr(qc_panel.report, "render") else ""
    text = qc_panel.summary
    head = text.split("\n\n")[0]
    assert head.startswith("Quito vs Cuenca")
    answers = [line for line in text.splitlines() if line.startswith("- ")]
    assert 3 <= len(answers) <= 5
    assert all(len(line) <= 100 for line in text.splitlines() if not line.startswith("- "))
    del md


def test_sensitivity_panel_marks_score_switches(tmp_path) -> None:
    study = studies.get_study("sensitivity")
    s = study.settings(n=600, seed=2, players="2", policies="greedy;random", confirm="none",
                       chicas=200, mesas=60)  # fmt: skip
    rep = studies.run_study("sensitivity", s)
    rep.write(tmp_path / "sens")
    md = (tmp_path / "sens" / "report.md").read_text()
    assert "## What the rules you play change" in md
    assert "## Switches that act near the target" in md
    assert "(= Quito to Cuenca)" in md
    assert "did not act in 600 datas (0 pairs differ)" in md
    assert "cannot act" not in md  # the evidence is "0 pairs differ", not impossibility
    rules = rep.tables["rules_you_play"]
    assert "at_38=only_caida" in set(rules["variant"])
    assert "capture_compulsory=true" not in set(rules["variant"])  # no source plays it
    diff = rep.tables["differences"]
    assert {"family_size", "p_adjusted", "margin"} <= set(diff.columns)
    fam = diff[(diff["model"] == "greedy") & (diff["metric"] == "points")]
    assert fam["family_size"].max() <= fam["variant"].nunique()


def test_relative_change_of_ratios_of_opposite_signs_is_undefined() -> None:
    # A mean advantage of -1 under A and +1 under B: no log-ratio, no crash.
    row = stats.rel_diff_paired("adv", [-1.0, -2.0, 0.0], [1.0, 2.0, 0.5])
    assert not row["defined"] and math.isnan(row["lower"])


def test_short_robustness_for_the_console() -> None:
    rows = _rows((-0.3, "resolved", -0.09), (0.1, "resolved", 0.03), (-0.2, "resolved", -0.05))
    assert robustness(rows, short=True) == "2/3 same sign, 1 opposite"
    assert robustness(_rows((0.1, "not resolved", 0.01)), short=True) == "0/1 resolved"
    assert robustness(_rows((0.0, "identical", 0.0)), short=True) == "identical in all"


# --------------------------------------------------------------------------- sizing (issue 18)
def test_confirmatory_run_is_sized_to_its_stated_detectable_difference() -> None:
    from cuarenta_sim import stats
    from cuarenta_sim.cuarenta.studies import panel as panel_mod
    from cuarenta_sim.cuarenta.studies.common import TEMPLATES

    study = studies.get_study("quito-vs-cuenca")
    s = study.settings(n=1_000_000, seed=0, players="2,4")
    models = panel_mod.panel_models(s, sized_confirm=True)
    confirm = models[-1]
    assert confirm.role == "confirm" and confirm.label.startswith("solver")
    plan = {p: (pol, d, c, m) for p, pol, d, c, m in confirm.plan}
    two = stats.required_n("mean", 0.015, sd=0.224)
    four = stats.required_n("mean", 0.0175, sd=0.237)
    assert 800 <= two <= 1100 and plan[2][2] == two  # "about 1,000 chicas" for +-1.5 pp
    assert plan[4][2] == four and plan[4][1] == 0 and plan[4][3] == 0  # 4p: chicas only
    assert plan[4][0] == (panel_mod.CONFIRM_SOLVER_4P,)
    # Achieved half-width at those sizes meets the stated detectable difference.
    for p, n in ((2, two), (4, four)):
        half = stats.critical_value(0.95, n) * panel_mod.SOLVER_CHICA_SD[p] / n**0.5
        assert half <= panel_mod.CONFIRM_DETECTABLE[p]
    # The Methods text states the same detectable differences and spreads.
    text = (TEMPLATES / "quito_vs_cuenca.md.j2").read_text()
    assert "±1.5 pp with 2 players" in text and "±1.75 pp with 4 players" in text
    assert "0.224" in text and "0.237" in text
    assert panel_mod.CONFIRM_DETECTABLE == {2: 0.015, 4: 0.0175}
    assert panel_mod.SOLVER_CHICA_SD == {2: 0.224, 4: 0.237}


def test_too_small_rows_count_neither_for_nor_against_agreement() -> None:
    rows = pd.DataFrame(
        [{"estimate": -0.2, "verdict": "resolved", "relative": -0.06},
         {"estimate": -0.25, "verdict": "resolved", "relative": -0.08},
         {"estimate": 0.1, "verdict": "too small to tell", "relative": 0.03}]
    )  # fmt: skip
    line = robustness(rows)
    assert line.startswith("same sign in 2 of 2 models") and "too small to tell in 1" in line
    assert panel.agrees(rows)
    assert robustness(rows.iloc[[2]]) == "too small to tell in 1 of 1 models"
    assert not panel.agrees(rows.iloc[[2]])


def test_every_report_row_verdict_agrees_with_its_printed_intervals(qc_panel) -> None:
    """Issue 18 finding 1 on a real (small) report: for every difference row of the
    quito-vs-cuenca tables, resolved holds exactly when the printed interval (and the printed
    relative interval) excludes 0; the metric's level column survives."""
    import numpy as np

    diff = qc_panel.tables["differences"]
    assert set(diff["level"]) <= {"data", "chica", "mesa"}
    assert {"test_level", "lower_marginal", "upper_marginal"} <= set(diff.columns)
    checked = 0
    for _, r in diff.iterrows():
        v = str(r["verdict"])
        if v in ("identical", "undefined", "negligible"):
            continue
        for lo, hi in ((r["lower"], r["upper"]), (r["relative_lower"], r["relative_upper"])):
            if not (np.isfinite(lo) and np.isfinite(hi)):
                continue
            assert v.startswith("resolved") == (lo > 0 or hi < 0), r.to_dict()
            checked += 1
        # The printed interval is never narrower than the marginal 95% one.
        assert r["lower"] <= r["lower_marginal"] + 1e-12
    assert checked > 20
    assert (diff["test_level"] >= 0.95 - 1e-12).all()
