"""Second cold read of the strategies report (issue 18, branch i18-fix2-sg): the cost sentence
names its chicas and interval method, the `random` sentence says its deal explanation is not
tested. Small synthetic inputs."""

from __future__ import annotations

from types import SimpleNamespace

import pandas as pd

from cuarenta_sim.cuarenta.strategy_claims import _cost_claim, ratings_without_claim
from cuarenta_sim.studies.claims import check_claims, render_claim


def _point(samples: int, w: float) -> dict:
    return {"policy": "solver", "samples": samples, "win_rate": w, "lower": w - 0.03,
            "upper": w + 0.03, "chicas": 800}  # fmt: skip


def test_cost_sentence_names_chicas_and_method() -> None:
    """Cold read: "`solver` wins 43.0% [39.9, 46.1] at 4 samples" had no n and no method."""
    sweep = {"sweep": [_point(4, 0.43), _point(128, 0.665)], "sweep_settings": {"players": 2}}
    speeds = pd.DataFrame(
        [{"policy": "solver", "samples": s, "wall_mean": r, "wall_min": r - 10,
          "wall_max": r + 10, "repeats": 3} for s, r in ((4, 11_233.0), (128, 1_066.0))]
    )  # fmt: skip
    claim = _cost_claim(sweep, speeds, 2)
    assert claim is not None
    check_claims([claim])
    text = render_claim(claim)
    assert "43.0% [40.0, 46.0] of 800 chicas at 4 samples" in text
    assert "66.5% [63.5, 69.5] of 800 chicas at 128" in text
    assert "clustered Wilson over duplicate pairs" in text


def test_random_deal_explanation_is_not_claimed_as_tested() -> None:
    """Cold read: "the few it wins follow the deal, not a strength" was never tested."""
    fit = SimpleNamespace(deviance=12.34, df=3, dispersion=1.0, p_value=0.0063, misfit=True)
    check = {
        "random_share": 0.76,
        "fit_without": fit,
        "kept": ["greedy", "heuristic"],
        "without": pd.DataFrame({"inflation": [2.03]}),
    }
    claim = ratings_without_claim(check, 2)
    assert claim is not None
    text = render_claim(claim)
    assert "follow the deal, not a strength" not in text
    assert "likely follow the deal rather than a strength (not tested here)" in text


def test_a_larger_lean_that_hurts_is_a_note_for_every_helping_tactic_not_a_verdict() -> None:
    """Cold reads: "keep the table from being emptied" (removal no difference, reversal
    resolved at a +0.10-point weight) read as a plain "helps" while 1 point more of the same
    lean costs 5 pp; then a verdict built from the dose sweep contradicted "the dose sweep is
    not the test" and was applied to one tactic only. Now the verdict reads the arms alone,
    and every helping tactic whose larger lean hurts carries the same note."""
    from test_tactic_ablation import _row

    from cuarenta_sim.cuarenta.strategy_claims import _ablation_claim
    from cuarenta_sim.cuarenta.tactic_ablation import tactic_verdicts
    from cuarenta_sim.cuarenta.tactic_ablation_text import headline

    rows = [
        _row("a", "removed", -0.02, "hurts", 900, +1.2),
        _row("a", "reversed", -0.12, "hurts", 1800, +1.2),
        _row("keep", "removed", -0.0023, "no difference (193 discordant pairs)", 193, +0.10),
        _row("keep", "reversed", -0.0061, "hurts", 315, +0.10),
    ]
    doses = pd.DataFrame(
        [{"tactic": "keep", "dose": d, "dose_label": lab, "effect": e, "dose_lower_adj": lo,
          "dose_upper_adj": hi, "dose_verdict": v, "discordant": 400}
         for d, lab, e, lo, hi, v in (
             (0.25, "0.25 pt", 0.0025, -0.0022, 0.0072, "no difference (449 discordant pairs)"),
             (2.0, "2 pt", -0.2169, -0.2268, -0.2070, "hurts"),
             (1.0, "1 pt", -0.0515, -0.0596, -0.0434, "hurts"),
         )]
    )  # fmt: skip
    table = tactic_verdicts(pd.DataFrame(rows), doses).set_index("tactic")
    assert table.loc["keep", "verdict"] == "helps" and table.loc["keep", "dose_hurts_label"] == (
        "1 pt"
    )
    text = headline(table.reset_index(), {"keep": "keep the table"}, 2)
    assert "2 help: a (removal" in text
    assert (
        "keep the table (removal -0.23 [-0.73, +0.27] pp, no difference; reversal -0.61 "
        "[-1.11, -0.11] pp, resolved; the dose sweep, which sets no verdict, shows a larger "
        "lean hurting: adding 1 pt to its +0.10-point weight, -5.15 [-5.96, -4.34] pp, "
        "resolved)" in text
    )
    assert "only at its tuned weight" not in text and "sets no verdict" in text.split(")")[-2]
    claim = _ablation_claim(table.reset_index(), {"keep": "keep the table"}, 2)
    check_claims([claim])
    # Without the dose table the tactic is a plain help (no evidence of a larger lean).
    plain = headline(tactic_verdicts(pd.DataFrame(rows)), {}, 2)
    assert "2 help: a" in plain and "dose sweep, which" not in plain


def test_aggregate_claims_are_labelled_several_verdicts_not_mixed() -> None:
    """Cold read: claims.json gave `strategies.tactics.2p` the verdict "mixed" while no tactic
    was mixed (3 help), and `strategies.tactic_check.2p` "mixed" for arms "too small to tell"
    and "agrees": the aggregate label must not be the tactic verdict word."""
    from test_tactic_ablation import _row

    from cuarenta_sim.cuarenta.strategy_claims import _ablation_claim, solver_check_claim
    from cuarenta_sim.cuarenta.tactic_ablation import tactic_verdicts
    from cuarenta_sim.studies.claim_checks import CLAIM_VERDICTS, SEVERAL_VERDICTS

    assert SEVERAL_VERDICTS in CLAIM_VERDICTS and SEVERAL_VERDICTS != "mixed"
    rows = [
        _row("a", "removed", -0.02, "hurts", 900, +1.2),
        _row("a", "reversed", -0.12, "hurts", 1800, +1.2),
    ]
    claim = _ablation_claim(tactic_verdicts(pd.DataFrame(rows)), {}, 2)
    assert claim.verdict == SEVERAL_VERDICTS
    check_claims([claim])
    check = pd.DataFrame(
        [{"tactic": "a", "arm": "removed", "opponent": "solver", "pairs": 50, "plain": 0.40,
          "ablated": 0.37, "effect": -0.03, "lower": -0.08, "upper": 0.02,
          "self_effect": -0.0205, "verdict": "too small to tell"}]
    )  # fmt: skip
    sc = solver_check_claim(check, {}, 2)
    assert sc is not None and sc.verdict == SEVERAL_VERDICTS
    check_claims([sc])
