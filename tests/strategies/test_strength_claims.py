"""Sentences of the strategies report outside its Answers are claims (issue 18 items 1, 8):
the non-transitivity of the search players, the ratings without ``random`` and the tactic
check against ``solver``. Synthetic tables; the checker must pass them and refuse a planted
number or a wrong head-to-head word."""

from __future__ import annotations

import dataclasses
from types import SimpleNamespace

import pandas as pd
import pytest

from cuarenta_sim.cuarenta.strategy_claims import ratings_without_claim, solver_check_claim
from cuarenta_sim.cuarenta.strength import non_transitivity, non_transitivity_claim
from cuarenta_sim.studies.claims import ClaimError, check_claims, render_claim


def _h2h(a: str, b: str, w: float, lo: float, hi: float, games: int = 400) -> dict:
    return {"a": a, "b": b, "win_rate": w, "lower": lo, "upper": hi, "games": games}


def _result(solver_vs_pimc: tuple[float, float, float]) -> SimpleNamespace:
    table = pd.DataFrame(
        [
            _h2h("solver", "pimc", *solver_vs_pimc),
            _h2h("solver", "heuristic", 0.665, 0.63, 0.70),
            _h2h("pimc", "heuristic", 0.722, 0.69, 0.75),
        ]
    )
    settings = SimpleNamespace(policies=("heuristic", "pimc", "solver"), players=2)
    return SimpleNamespace(head_to_head=table, settings=settings)


SWEEP = {
    "sweep_settings": {"players": 2},
    "sweep": [
        {"policy": pol, "samples": s, "win_rate": w, "lower": w - 0.03, "upper": w + 0.03,
         "chicas": 1000}
        for pol, s, w in (("solver", 4, 0.60), ("pimc", 4, 0.58), ("solver", 128, 0.655),
                          ("pimc", 128, 0.722))
    ],
}  # fmt: skip


def test_non_transitivity_is_a_claim_with_its_numbers_in_evidence() -> None:
    claim = non_transitivity_claim(_result((0.56, 0.52, 0.60)), SWEEP)
    assert claim is not None
    text = render_claim(claim)
    assert text == non_transitivity(_result((0.56, 0.52, 0.60)), SWEEP)
    assert "`solver` (samples=auto) beats `pimc` (samples=32) head to head" in text
    assert (
        "the intervals do not overlap at 1 of 2 sample counts (at 128 samples `pimc` 72.2% "
        "[69.2, 75.2] against `solver` 65.5% [62.5, 68.5]) and overlap at the other 1 (4)" in text
    )
    # An overlap of marginal intervals is no test: never worded as a verdict.
    assert "not resolved" not in text and "apart only" not in text
    assert "which is no test of their difference" in text
    # Cold read: at the settings that met (tournament rows against heuristic, 66.5% [63, 70]
    # and 72.2% [69, 75]) the intervals overlap; only 128 samples, never played head to head,
    # separates. That shows no change of order: the sentence says so instead of "suggest".
    assert "suggest" not in text and "does not order" not in text
    assert (
        "at the settings that met head to head their rates against `heuristic` overlap, and the "
        "sweep's intervals separate only at 128 samples, never played head to head, so the data "
        "neither show nor rule out" in text
    )
    check_claims([claim])
    # Where the settings that met do separate (pimc above solver), the change of order is shown.
    apart = _result((0.56, 0.52, 0.60))
    apart.head_to_head.loc[2, ["win_rate", "lower", "upper"]] = (0.80, 0.75, 0.85)
    shown = render_claim(non_transitivity_claim(apart, SWEEP))
    assert "does not order these players against another" in shown and "neither" not in shown
    planted = dataclasses.replace(claim, values={**claim.values, "vs_s": "71.3%"})
    with pytest.raises(ClaimError) as info:
        check_claims([planted])
    assert "number" in info.value.kinds


def test_sweep_comparison_follows_the_intervals_not_the_point_estimates() -> None:
    """pimc's point estimate is higher at every count but the intervals overlap everywhere:
    the sentence says not resolved and draws no conclusion (it used to count the point
    estimates, "better at 2 of 2 sample counts", and conclude)."""
    sweep = {
        "sweep_settings": {"players": 2},
        "sweep": [
            {"policy": pol, "samples": s, "win_rate": w, "lower": w - 0.03, "upper": w + 0.03,
             "chicas": 800}
            for pol, s, w in (("solver", 4, 0.60), ("pimc", 4, 0.62), ("solver", 128, 0.665),
                              ("pimc", 128, 0.69))
        ],
    }  # fmt: skip
    claim = non_transitivity_claim(_result((0.56, 0.52, 0.60)), sweep)
    assert claim is not None
    text = render_claim(claim)
    assert "the intervals overlap at every one of the 2 sample counts (4, 128)" in text
    assert "not resolved" not in text
    assert "does better" not in text and "does not order players" not in text
    check_claims([claim])


def test_non_transitivity_names_the_settings_that_met_and_their_tested_verdict() -> None:
    """Cold read: the sentence cited the sweep's gap at 128 samples, a setting that never met
    head to head, and did not name the settings that did (pimc samples=32 against solver
    samples=auto) nor their tested verdict. It now names both settings, gives the match's
    Holm verdict and the sweep's points at pimc's head-to-head sample count."""
    sweep = {
        "sweep_settings": {"players": 2},
        "sweep": [
            {"policy": pol, "samples": s, "win_rate": w, "lower": w - 0.03, "upper": w + 0.03,
             "chicas": 800}
            for pol, s, w in (("solver", 32, 0.626), ("pimc", 32, 0.648), ("solver", 128, 0.655),
                              ("pimc", 128, 0.722))
        ],
    }  # fmt: skip
    matches = pd.DataFrame(
        [{"a": "pimc", "b": "solver", "level": "chica", "pair_verdict": "b better"}]
    )
    claim = non_transitivity_claim(_result((0.602, 0.565, 0.638)), sweep, matches)
    assert claim is not None
    text = render_claim(claim)
    assert "`solver` (samples=auto) beats `pimc` (samples=32)" in text
    assert "resolved by the McNemar test on the discordant duplicate pairs" in text
    assert (
        "at 32 samples, `pimc`'s head-to-head setting, `pimc` 64.8% [61.8, 67.8] against "
        "`solver` 62.6% [59.6, 65.6]" in text
    )
    check_claims([claim])
    # A match Holm left unresolved is said so, not "resolved".
    unresolved = matches.assign(pair_verdict="not resolved")
    text2 = render_claim(non_transitivity_claim(_result((0.602, 0.565, 0.638)), sweep, unresolved))
    assert "not resolved by the McNemar test" in text2


def test_non_transitivity_word_follows_the_interval() -> None:
    """An interval containing 50% is not "beats" (the old text said beats whatever it was),
    and then no non-transitivity conclusion is drawn."""
    claim = non_transitivity_claim(_result((0.53, 0.48, 0.58)), SWEEP)
    assert claim is not None
    text = render_claim(claim)
    assert "is not separated from `pimc`" in text and "does not order" not in text
    check_claims([claim])
    assert non_transitivity_claim(_result((0.4, 0.35, 0.45)), None) is not None
    no_pimc = SimpleNamespace(
        head_to_head=pd.DataFrame([_h2h("solver", "heuristic", 0.6, 0.55, 0.65)]),
        settings=SimpleNamespace(policies=("heuristic", "solver"), players=2),
    )
    assert non_transitivity_claim(no_pimc, SWEEP) is None and non_transitivity(no_pimc, SWEEP) == ""


def test_ratings_without_random_claim_numbers_come_from_the_refit() -> None:
    fit = SimpleNamespace(deviance=12.34, df=3, dispersion=1.0, p_value=0.0063, misfit=True)
    check = {
        "random_share": 0.76,
        "fit_without": fit,
        "kept": ["greedy", "heuristic", "learned", "pimc"],
        "without": pd.DataFrame({"inflation": [2.03, 2.03]}),
    }
    claim = ratings_without_claim(check, 2)
    assert claim is not None
    text = render_claim(claim)
    assert "76% of the Bradley-Terry deviance" in text and "widened by a factor 2.03" in text
    check_claims([claim])
    planted = dataclasses.replace(claim, values={**claim.values, "share": 80.0})
    with pytest.raises(ClaimError):
        check_claims([planted])
    assert ratings_without_claim({"random_share": 0.5}, 2) is None


def test_solver_check_claim_states_each_arm_with_its_verdict() -> None:
    check = pd.DataFrame(
        [
            {"tactic": "pair_trail", "arm": "removed", "opponent": "solver", "pairs": 50,
             "plain": 0.40, "ablated": 0.37, "effect": -0.03, "lower": -0.08, "upper": 0.02,
             "self_effect": -0.0205, "verdict": "too small to tell"},
            {"tactic": "pair_trail", "arm": "reversed", "opponent": "solver", "pairs": 50,
             "plain": 0.40, "ablated": 0.30, "effect": -0.10, "lower": -0.15, "upper": -0.05,
             "self_effect": -0.08, "verdict": "agrees"},
        ]
    )  # fmt: skip
    claim = solver_check_claim(check, {"pair_trail": "trail one of a pair"}, 2)
    assert claim is not None
    text = render_claim(claim)
    assert "removed, -3.00 [-8.00, +2.00]" in text and "too small to tell" in text
    check_claims([claim])
    wrong = dataclasses.replace(claim, template=claim.template + " The removal is resolved.")
    with pytest.raises(ClaimError) as info:
        check_claims([wrong])
    assert "verdict" in info.value.kinds
    assert solver_check_claim(None, {}, 2) is None


def test_ablation_claim_evidence_enforces_interval_against_verdict() -> None:
    """The tactic answer's rows carry the interval at the Holm level with
    interval_matches_verdict: a "not resolved" row whose printed interval excludes 0 (a
    marginal interval, issue 18 finding 1) is refused."""
    from cuarenta_sim.cuarenta.strategy_claims import _ablation_claim

    def row(tactic: str, eff: float, lo: float, hi: float, word: str, verdict: str) -> dict:
        arms = {
            f"{arm}_{k}": v
            for arm in ("removal", "reversal")
            for k, v in (("effect", eff), ("lower", lo), ("upper", hi), ("word", word))
        }
        return {"tactic": tactic, "own_weight": 1.0, **arms, "discordant": 40, "pairs": 500,
                "verdict": verdict}  # fmt: skip

    good = pd.DataFrame(
        [
            row("a", -0.02, -0.03, -0.01, "resolved", "helps"),
            row("b", 0.004, -0.002, 0.01, "not resolved", "not resolved"),
        ]
    )
    claim = _ablation_claim(good, {}, 2)
    arms = [e for e in claim.evidence if e.table == "tactics_ablation"]
    assert len(arms) == 4 and all(e.interval_matches_verdict for e in arms)
    assert {e.row for e in arms} == {"a|removed", "a|reversed", "b|removed", "b|reversed"}
    check_claims([claim])
    marginal = good.copy()
    marginal.loc[1, "removal_lower"] = 0.001  # excludes 0, yet "not resolved"
    with pytest.raises(ClaimError) as info:
        check_claims([_ablation_claim(marginal, {}, 2)])
    assert "interval" in info.value.kinds


def test_solver_check_without_an_interval_is_too_small_to_tell() -> None:
    """Two pairs whose shares never differ have no interval: the arm is "too small to tell"
    (it was "no effect seen", and the sentence printed [+nan, +nan])."""
    from cuarenta_sim.cuarenta.tactic_ablation import check_verdict

    nan = float("nan")
    assert check_verdict(0.0, nan, nan, -0.33) == "too small to tell"
    check = pd.DataFrame(
        [{"tactic": "t", "arm": "removed", "opponent": "solver", "pairs": 2, "plain": 0.5,
          "ablated": 0.5, "effect": 0.0, "lower": nan, "upper": nan, "self_effect": -0.33,
          "verdict": check_verdict(0.0, nan, nan, -0.33)}]
    )  # fmt: skip
    claim = solver_check_claim(check, {}, 2)
    assert claim is not None
    text = render_claim(claim)
    assert "nan" not in text and "no interval" in text and "too small to tell" in text
    check_claims([claim])
