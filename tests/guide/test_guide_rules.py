"""Every rule-of-thumb sentence of the player's guide is proved by judge scenarios (issue 18
item 5): the scenario files exist and pass, the sentence cites their rules, and the seen-four
sentence no longer says such a card is "never caught" (it can be taken in a sum or a run,
R5.2, R5.4; only a caida is impossible, R6.1)."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from cuarenta_sim.cuarenta.cards import RANK_NAMES
from cuarenta_sim.cuarenta.guide_rules import GUIDE_RULES, SEEN_FOUR
from cuarenta_sim.scenario import evaluate

SCENARIOS = Path(__file__).resolve().parents[1] / "scenarios"


@pytest.mark.parametrize("rule", GUIDE_RULES, ids=[r.id for r in GUIDE_RULES])
def test_each_guide_rule_has_passing_scenarios(rule) -> None:
    assert rule.scenarios, rule.id
    for stem in rule.scenarios:
        spec = json.loads((SCENARIOS / f"{stem}.json").read_text(encoding="utf-8"))
        result = evaluate(spec["scenario"])
        assert "error" not in result, (stem, result)
        for key, want in spec["expected"].items():
            got = result[key]
            if key in ("captured", "table"):
                assert Counter(got) == Counter(want), (stem, key)
            elif key != "options":
                assert got == want, (stem, key, got, want)
    # The sentence names the rules it rests on.
    for number in rule.rules:
        assert number in rule.sentence, (rule.id, number)


def test_seen_four_is_taken_in_a_sum_and_a_run_but_never_by_a_caida() -> None:
    assert "never caught" not in SEEN_FOUR.sentence
    sum_case = json.loads((SCENARIOS / "G1_seen_four_taken_in_sum.json").read_text())
    run_case = json.loads((SCENARIOS / "G2_seen_four_taken_in_run.json").read_text())
    for case in (sum_case, run_case):
        r = evaluate(case["scenario"])
        assert "5" in r["captured"] and r["caida"] is False
    # The next player holds no 5 (all four seen by the trailer): whatever other card it plays
    # and whatever base it takes on a table holding the trailed 5, no caida is possible.
    table = ["A", "2", "3", "4", "5", "6", "J"]
    for card in RANK_NAMES:
        if card == "5":
            continue
        scenario = {"kind": "play", "rules": "quito", "table": table, "card": card,
                    "previous": {"seat": 1, "trail": "5"}}  # fmt: skip
        options = evaluate(scenario)["options"]
        for base in options:
            r = evaluate({**scenario, "base": base})
            assert r["caida"] is False, (card, base)
    # Only a 5 (which the next player cannot hold here) makes it a caida.
    r = evaluate({"kind": "play", "rules": "quito", "table": table, "card": "5",
                  "previous": {"seat": 1, "trail": "5"}, "base": ["5"]})  # fmt: skip
    assert r["caida"] is True


def test_guide_renders_each_rule_sentence() -> None:
    from cuarenta_sim.cuarenta import guide

    text = Path(guide.__file__).with_name("templates").joinpath("players_guide.md.j2").read_text()
    here = Path(guide.__file__).parent
    # The modules that render the guide (not guide_rules.py, which defines the ids).
    source = "".join(
        (here / f"{m}.py").read_text() for m in ("guide", "guide_tables", "guide_figures")
    )
    for rule in GUIDE_RULES:
        assert f"rules.{rule.id}" in text or rule.id.upper() in source, rule.id
    assert "never caught" not in text and "never caught" not in source
    assert "learned_v1" not in source
