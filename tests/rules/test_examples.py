"""Every scenario file in tests/scenarios/ through the scenario interface (spec section F).

Each file is ``{"name", "rule", "scenario", "expected"}``; every ``expected`` field is checked.
Rank lists of ``captured`` and ``table`` are multisets (section F); ``options`` is a set of
bases (section F: its order carries no meaning), each base a multiset: compared with
``same_options``.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from cuarenta_sim.cuarenta.scenario import same_options
from cuarenta_sim.scenario import evaluate

SCENARIOS = sorted((Path(__file__).parent.parent / "scenarios").glob("*.json"))
MULTISETS = ("captured", "table")


def test_there_are_scenarios() -> None:
    assert len(SCENARIOS) >= 40


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_scenario_file(path: Path) -> None:
    spec = json.loads(path.read_text(encoding="utf-8"))
    result = evaluate(spec["scenario"])
    assert "error" not in result, result
    for key, want in spec["expected"].items():
        assert key in result, f"{path.stem}: no {key!r} in {result}"
        got = result[key]
        if key in MULTISETS:
            assert Counter(got) == Counter(want), f"{path.stem} {key}: {got} != {want}"
        elif key == "options":
            assert same_options(got, want), f"{path.stem} options: {got} != {want}"
        else:
            assert got == want, f"{path.stem} {key}: {got!r} != {want!r} ({spec['rule']})"


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_scenario_file_object_is_accepted_whole(path: Path) -> None:
    """A whole scenario file evaluates like its ``scenario`` (convenience of section F)."""
    spec = json.loads(path.read_text(encoding="utf-8"))
    assert evaluate(spec) == evaluate(spec["scenario"])
