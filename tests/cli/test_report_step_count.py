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
    weights = study.steps(settings)
    assert len(weights) == len(messages), messages
    assert all(w > 0 for w in weights)


def test_the_solver_confirmation_weighs_most() -> None:
    """Default quito-vs-cuenca: the 4 confirmatory solver steps are most of the estimated
    work (issue 20: 70% of the run's time), though 4 of 17 steps."""
    study = get_study("quito-vs-cuenca")
    settings = study.settings()
    weights = study.steps(settings)
    messages_confirm = 4  # 2 rule sets x 2 player counts
    assert len(weights) == 17
    confirm = sum(weights[-1 - messages_confirm : -1])
    assert confirm / sum(weights) > 0.5
