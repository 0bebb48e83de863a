"""The fast unit tier: every test of this folder is marked ``unit`` except the few listed in
:data:`NOT_UNIT`, so ``python -m pytest tests/unit -m unit`` gives quick feedback (under a
minute on 2 cores, ``docs/development.md``). The default run (``python -m pytest``) runs
all of them, ``unit`` or not."""

from __future__ import annotations

from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent

#: Left out of the unit tier (still in the default run): a fresh interpreter per package
#: module (test_import_graph.py, about 80 subprocesses), and tests that each take seconds of
#: CPU (a full shuffle check, brute-force tables, a kernel compile on a cold cache).
NOT_UNIT = (
    "test_import_graph.py::",
    "test_odds.py::test_data_odds_against_an_independent_shuffle",
    "test_tables.py::test_sum_bases_equal_brute_force_and_are_canonically_ordered",
    "test_game_registry.py::test_cuatrola_replay_matches_the_simulated_hand",
    "test_game_registry.py::test_a_new_game_is_one_registration",
)


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark this folder's tests ``unit``, except :data:`NOT_UNIT` and any marked ``slow``."""
    for item in items:
        path = Path(str(item.path)).resolve()
        if path.parent != HERE or item.get_closest_marker("slow") is not None:
            continue
        nodeid = f"{path.name}::{item.name}"
        if not nodeid.startswith(NOT_UNIT):
            item.add_marker(pytest.mark.unit)
