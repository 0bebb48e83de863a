"""Folk tactics by ablation (issue 18 item 4, finding 3): removed and reversed weights,
tactic verdicts read from both arms, "never binds", the check against the solver."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from cuarenta_sim.cuarenta.engine.learned import FEATURE_NAMES
from cuarenta_sim.cuarenta.policies.learned import load_weights
from cuarenta_sim.cuarenta.tactic_ablation import (
    ablated_weights,
    check_verdict,
    learned_ablations,
    own_weights,
    solver_check,
    tactic_verdicts,
)
from cuarenta_sim.cuarenta.tactic_ablation_text import headline
from cuarenta_sim.cuarenta.tactics import LEARNED_TACTICS


def test_ablated_weights_zero_and_reverse_only_the_tactic_feature() -> None:
    base = load_weights("learned_v2").weights.astype(np.int64)
    for tactic in LEARNED_TACTICS:
        j = FEATURE_NAMES.index(tactic.feature)
        zero = ablated_weights("learned_v2", tactic, 0.0)
        rev = ablated_weights("learned_v2", tactic, -1.0)
        assert (zero[:, j] == 0).all() and (rev[:, j] == -base[:, j]).all()
        others = np.delete(np.arange(base.shape[1]), j)
        assert (zero[:, others] == base[:, others]).all()
        assert (rev[:, others] == base[:, others]).all()


def test_own_weights_in_points_and_the_tactic_direction() -> None:
    w = load_weights("learned_v2").weights
    own = own_weights("learned_v2", 2)
    pts = FEATURE_NAMES.index("points")
    for t in LEARNED_TACTICS:
        j = FEATURE_NAMES.index(t.feature)
        assert own[t.tactic] == pytest.approx(t.sign * w[0, j] / abs(w[0, pts]))
    with pytest.raises(ValueError, match=r"R2\.1"):
        own_weights("learned_v2", 3)


def _row(tactic: str, arm: str, effect: float, verdict: str, discordant: int, own: float):
    return {
        "tactic": tactic,
        "arm": arm,
        "own_weight": own,
        "effect": effect,
        "effect_lower": effect - 0.005,
        "effect_upper": effect + 0.005,
        "effect_lower_adj": effect - 0.005,
        "effect_upper_adj": effect + 0.005,
        "verdict": verdict,
        "discordant": discordant,
        "pairs": 5000,
    }


def test_tactic_verdict_reads_both_arms_and_their_direction() -> None:
    rows = [
        # Leans towards the tactic, removal hurts: the tactic helps.
        _row("a", "removed", -0.02, "hurts", 900, +1.2),
        _row("a", "reversed", -0.12, "hurts", 1800, +1.2),
        # Leans against the tactic, removal hurts: moving towards the tactic hurts.
        _row("b", "removed", -0.02, "hurts", 900, -0.4),
        _row("b", "reversed", -0.03, "hurts", 900, -0.4),
        # No pair's result changed anywhere: never binds (not "no difference").
        _row("c", "removed", 0.0, "no pair's result changed (0 discordant pairs)", 0, +4.7),
        _row("c", "reversed", 0.0, "no pair's result changed (0 discordant pairs)", 0, +4.7),
        # Some results changed, within the margin: no difference.
        _row("d", "removed", 0.001, "no difference (30 discordant pairs)", 30, +0.1),
        _row("d", "reversed", 0.0, "no difference (60 discordant pairs)", 60, +0.1),
        # Removal within the margin but the reversal hurts: the reversal decides (helps);
        # reading the removal alone said "no difference".
        _row("e", "removed", -0.002, "no difference (190 discordant pairs)", 190, +0.1),
        _row("e", "reversed", -0.006, "hurts", 315, +0.1),
        # Removal within the margin, reversal not resolved: not resolved, not "no difference".
        _row("f", "removed", -0.002, "no difference (600 discordant pairs)", 600, -0.4),
        _row("f", "reversed", -0.008, "not resolved (1,000 discordant pairs)", 1000, -0.4),
    ]
    table = tactic_verdicts(pd.DataFrame(rows)).set_index("tactic")
    assert table["verdict"].to_dict() == {
        "a": "helps",
        "b": "hurts",
        "c": "never binds",
        "d": "no difference",
        "e": "helps",
        "f": "not resolved",
    }
    assert table["shown_by"].to_dict() == {
        "a": "both",
        "b": "both",
        "c": "",
        "d": "",
        "e": "reversal",
        "f": "",
    }
    assert table.loc["e", "reversal_word"] == "resolved"
    assert table.loc["e", "removal_word"] == "no difference"
    # A dose row with a discordant pair means the tactic did bind somewhere.
    doses = pd.DataFrame([{"tactic": "c", "discordant": 3}])
    v2 = tactic_verdicts(pd.DataFrame(rows), doses).set_index("tactic")["verdict"]
    assert v2["c"] == "no difference"
    text = headline(tactic_verdicts(pd.DataFrame(rows)), {"a": "trail one"}, 2)
    assert (
        "2 help: trail one (removal -2.00 [-2.50, -1.50] pp, resolved; reversal -12.00 "
        "[-12.50, -11.50] pp, resolved), e (removal -0.20 [-0.70, +0.30] pp, no difference; "
        "reversal -0.60 [-1.10, -0.10] pp, resolved)" in text
    )
    assert "1 is not resolved: f (removal" in text and "reversal -0.80" in text
    assert "1 never binds: c" in text and "tuned against `heuristic`" in text
    assert "reads both arms" in text


def test_learned_ablations_and_solver_check_tiny() -> None:
    frame = learned_ablations(chicas=20, seed=3, tactics=LEARNED_TACTICS[:2])
    assert list(frame["arm"]) == ["removed", "reversed"] * 2
    assert (frame["games"] == 20).all() and frame["verdict"].str.len().gt(0).all()
    assert (frame["p_adjusted"] >= frame["p_value"] - 1e-12).all()
    verdicts = tactic_verdicts(frame)
    check = solver_check(frame, verdicts, pairs=2, seed=3)
    assert list(check["arm"]) == ["removed", "reversed"]
    assert (check["pairs"] == 2).all() and (check["opponent"] == "solver").all()
    assert set(check["verdict"]) <= {"agrees", "disagrees", "too small to tell", "no effect seen"}
    with pytest.raises(ValueError, match="even whole number"):
        learned_ablations(chicas=5)


def test_check_verdict_needs_an_interval_that_separates_zero_from_the_effect() -> None:
    # The reversed arm at 50 pairs: [-19.2, +1.2] holds 0 and the self-play -13.7.
    assert check_verdict(-0.09, -0.192, 0.012, -0.137) == "too small to tell"
    assert check_verdict(-0.10, -0.15, -0.05, -0.137) == "agrees"
    assert check_verdict(0.10, 0.05, 0.15, -0.137) == "disagrees"
    assert check_verdict(0.0, -0.02, 0.02, -0.137) == "no effect seen"


def test_arms_that_disagree_make_the_evidence_mixed_never_helps() -> None:
    """Cold read: "keep the table" was counted among the tactics that help though only the
    reversal arm showed it, while the tuned heuristic's switch of the same tactic hurt
    (-5.99 pp). Evidence that disagrees is "mixed" and the sentence says which arm shows
    what; a switch that agrees (or did not resolve) leaves "helps" standing."""
    rows = [
        _row("keep", "removed", -0.0023, "no difference (193 discordant pairs)", 193, +0.10),
        _row("keep", "reversed", -0.0061, "hurts", 315, +0.10),
        _row("pair", "removed", -0.0231, "hurts", 951, +1.19),
        _row("pair", "reversed", -0.1179, "hurts", 1837, +1.19),
        _row("hold", "removed", -0.0004, "no difference (4 discordant pairs)", 4, +4.73),
        _row("hold", "reversed", -0.0049, "hurts", 51, +4.73),
    ]
    switches = pd.DataFrame(
        [
            {"tactic": "keep", "effect": -0.0599, "effect_lower_adj": -0.0688,
             "effect_upper_adj": -0.0510, "verdict": "hurts"},
            {"tactic": "pair", "effect": 0.0221, "effect_lower_adj": 0.0150,
             "effect_upper_adj": 0.0292, "verdict": "helps"},
            {"tactic": "hold", "effect": 0.0002, "effect_lower_adj": -0.0005,
             "effect_upper_adj": 0.0007, "verdict": "no difference (2 discordant pairs)"},
        ]
    )  # fmt: skip
    table = tactic_verdicts(pd.DataFrame(rows), None, switches)
    verdict = table.set_index("tactic")["verdict"].to_dict()
    assert verdict == {"keep": "mixed", "pair": "helps", "hold": "helps"}
    # Without the switch the old logic counted "keep" as helping.
    assert tactic_verdicts(pd.DataFrame(rows)).set_index("tactic")["verdict"]["keep"] == "helps"
    text = headline(table, {"keep": "keep the table"}, 2)
    assert "2 help: pair (" in text
    assert (
        "1 has mixed evidence: keep the table (the reversal arm and the tuned-heuristic switch "
        "disagree: removal -0.23 [-0.73, +0.27] pp, no difference; reversal -0.61 [-1.11, -0.11] "
        "pp, resolved, so the tactic helps; tuned-heuristic switch -5.99 [-6.88, -5.10] pp, the "
        "tactic hurts)" in text
    )
    # Cold read: the old sentence said "(the arms disagree)" though the removal arm did not
    # resolve; the disagreement is named from the rows that resolved.
    assert "the arms disagree" not in text
    # Arms that disagree with each other are mixed too (was "not resolved").
    both = [
        _row("x", "removed", -0.02, "hurts", 900, +1.0),
        _row("x", "reversed", +0.02, "helps", 900, +1.0),
    ]
    mixed = tactic_verdicts(pd.DataFrame(both))
    assert mixed["verdict"].iloc[0] == "mixed"
    assert "x (the removal and reversal arms disagree: removal" in headline(mixed, {}, 2)


def test_a_switch_that_restates_the_tuning_does_not_make_the_evidence_mixed() -> None:
    """Cold read: "keep the table" was "mixed" only because the tuned heuristic's switch,
    which moves `keep_table` from its tuned 0 up to 500, hurt; pushing a tuned weight away
    from its tuned value hurts by construction, so that switch says nothing beyond the
    tuning and must not decide. A switch that goes against its tuning still counts."""
    rows = [
        _row("keep", "removed", -0.0023, "no difference (193 discordant pairs)", 193, +0.10),
        _row("keep", "reversed", -0.0061, "hurts", 315, +0.10),
    ]

    def switch(tuned: int) -> pd.DataFrame:
        return pd.DataFrame(
            [{"tactic": "keep", "effect": -0.0599, "effect_lower_adj": -0.0688,
              "effect_upper_adj": -0.0510, "verdict": "hurts", "tuned_weight": tuned}]
        )  # fmt: skip

    off = tactic_verdicts(pd.DataFrame(rows), None, switch(0)).iloc[0]
    assert off["verdict"] == "helps" and bool(off["switch_expected"])
    assert "tuned-heuristic switch" not in headline(pd.DataFrame([off]), {}, 2)
    on = tactic_verdicts(pd.DataFrame(rows), None, switch(500)).iloc[0]
    assert on["verdict"] == "mixed" and not bool(on["switch_expected"])
    assert "the reversal arm and the tuned-heuristic switch disagree" in headline(
        pd.DataFrame([on]), {}, 2
    )


def test_a_barely_weighted_tactic_is_not_said_to_make_no_difference() -> None:
    """Cold read: "do not trail the start of a run makes no difference" rested on a -0.01
    learned weight: removing or reversing a weight the player barely gives changes almost
    nothing, so the ablation cannot tell what the tactic is worth."""
    rows = [
        _row("run", "removed", -0.0001, "no difference (29 discordant pairs)", 29, -0.01),
        _row("run", "reversed", 0.0003, "no difference (69 discordant pairs)", 69, -0.01),
        _row("d", "removed", 0.001, "no difference (30 discordant pairs)", 30, +0.3),
        _row("d", "reversed", 0.0, "no difference (60 discordant pairs)", 60, +0.3),
    ]
    table = tactic_verdicts(pd.DataFrame(rows))
    assert table.set_index("tactic")["verdict"].to_dict() == {
        "run": "barely weighted",
        "d": "no difference",
    }
    text = headline(table, {"run": "do not trail the start of a run"}, 2)
    assert (
        "1 is barely weighted by `learned`, so removing or reversing it cannot tell what it is "
        "worth: do not trail the start of a run (own weight -0.01 points; removal" in text
    )
    assert "1 makes no difference: d (" in text


def test_the_ablation_claim_with_mixed_and_barely_weighted_passes_the_checker() -> None:
    """The tactic answer as a claim: each arm's word and the switch's verdict are evidence
    rows, so "so the tactic helps" / "the tactic hurts" of a mixed tactic are checked."""
    from cuarenta_sim.cuarenta.strategy_claims import _ablation_claim
    from cuarenta_sim.studies.claims import check_claims, render_claim

    rows = [
        _row("keep", "removed", -0.0023, "no difference (193 discordant pairs)", 193, +0.10),
        _row("keep", "reversed", -0.0061, "hurts", 315, +0.10),
        _row("run", "removed", -0.0001, "no difference (29 discordant pairs)", 29, -0.01),
        _row("run", "reversed", 0.0003, "no difference (69 discordant pairs)", 69, -0.01),
    ]
    switches = pd.DataFrame(
        [{"tactic": "keep", "effect": -0.0599, "effect_lower_adj": -0.0688,
          "effect_upper_adj": -0.0510, "verdict": "hurts"}]
    )  # fmt: skip
    claim = _ablation_claim(tactic_verdicts(pd.DataFrame(rows), None, switches), {}, 2)
    check_claims([claim])
    text = render_claim(claim)
    assert "helps" in text and "mixed evidence" in text and "barely weighted" in text


def test_tuning_seeds_are_explicit_ranges_from_the_weights_provenance() -> None:
    """Cold read: "iteration seeds from 11 and 500" could mean two seeds, a range or a start
    and a count. The disclosure now reads each run's inclusive seed range from the weights'
    provenance."""
    from cuarenta_sim.cuarenta.tactic_ablation import TUNING, tuning_seeds

    two = tuning_seeds("learned_v2", 2)
    assert two == (
        "2 runs: iteration seeds 12..181 (170 iterations, run seed 11), then 501..530 "
        "(30 iterations, run seed 500)"
    )
    assert two in TUNING and "from 11 and 500" not in TUNING
    # The 4-player model was tuned once (the second run kept it): one run, not a duplicate.
    assert tuning_seeds("learned_v2", 4) == "iteration seeds 12..41 (30 iterations, run seed 11)"
    with pytest.raises(ValueError, match="no tuning run"):
        tuning_seeds("learned_v2", 3)


def test_points_per_data_never_prints_a_zero_width_interval_that_is_not() -> None:
    """Cold read: the heuristic switch of "hold a card the next player is known to hold" (2
    discordant pairs) printed points/data "+0.00 [+0.00, +0.00]", a zero-width interval on a
    row that did vary. More decimals are printed until the interval's ends differ; a row
    where nothing varied says "no variation"."""
    from cuarenta_sim.cuarenta.strategy_tables import _ppd

    narrow = pd.Series(
        {"points_per_data": 0.0004, "ppd_lower": -0.0002, "ppd_upper": 0.0011, "pairs": 5000}
    )
    assert _ppd(narrow) == "+0.0004 [-0.0002, +0.0011]"
    assert "[+0.00, +0.00]" not in _ppd(narrow)
    wide = pd.Series({"points_per_data": 0.34, "ppd_lower": 0.28, "ppd_upper": 0.40, "pairs": 9})
    assert _ppd(wide) == "+0.34 [+0.28, +0.40]"
    flat = pd.Series({"points_per_data": 0.0, "ppd_lower": 0.0, "ppd_upper": 0.0, "pairs": 5000})
    assert _ppd(flat) == "+0.00 (no variation)"
