"""Shared fixtures of the rules tests: scenario evaluation that must succeed."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from cuarenta_sim.scenario import evaluate


@pytest.fixture
def run() -> Callable[..., dict[str, Any]]:
    """Return ``run(**scenario)``: evaluate a scenario, asserting that it is not an error."""

    def _run(**scenario: Any) -> dict[str, Any]:
        result = evaluate(scenario)
        assert "error" not in result, result
        return result

    return _run
