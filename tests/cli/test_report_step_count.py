"""The rule studies announce how many progress steps they take (``Study.steps``), so the
report's progress reads "step i/N": the count matches the messages the builders send."""

from __future__ import annotations

import pytest

from cuarenta_sim.studies import get_study, run_study


@pytest.mark.parametrize("name", ["quito-vs-cuenca", "odds", "sensitivity"])
def test_announced_steps_match_the_messages(name: str, tmp_path) -> None:
    study = get_study(name)
    settings = study.settings(
        n=400, seed=1, players="2", policies="greedy;random", confirm="greedy", confirm_n=40,
        **({"chicas": 20, "mesas": 5} if name != "odds" else {}),
    )  # fmt: skip
    messages: list[str] = []
    run_study(name, settings, progress=messages.append)
    assert study.steps is not None
    assert study.steps(settings) == len(messages), messages
