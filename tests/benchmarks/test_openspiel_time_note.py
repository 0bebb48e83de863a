"""openspiel.md prints its run time from one source (cold read: the table's `wall s` said
10023 while the provenance said 5012 s, the same worker seconds divided by the worker count
and printed as if measured)."""

from __future__ import annotations

import importlib
from pathlib import Path

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"


def test_time_note_sums_the_rows_and_prints_elapsed_only_when_measured(monkeypatch) -> None:
    monkeypatch.syspath_prepend(str(BENCHMARKS))
    bench = importlib.import_module("openspiel_opponents")
    doc = {"workers": 2, "results": [{"wall_seconds": 10023.2}], "wall_seconds": 5012.0}
    text = bench.time_note(doc)
    assert "worker time 10,023 s" in text and "5012" not in text and "5,012" not in text
    assert "elapsed time not measured" in text
    played = {**doc, "elapsed_seconds": 5100.4}
    assert bench.time_note(played).endswith("; elapsed 5,100 s")
    row = {"a": "solver", "a_label": "solver", "b": "greedy", "b_label": "greedy", "pairs": 1,
           "games": 2, "win_rate": 0.5, "lower": 0.1, "upper": 0.9, "points_per_data": 0.0,
           "ppd_lower": -1.0, "ppd_upper": 1.0, "verdict": "not resolved",
           "a_decisions_per_s": 1.0, "b_decisions_per_s": 1.0, "wall_seconds": 10023.2}  # fmt: skip
    table = bench.table_markdown([row])
    assert "| worker s |" in table and "| 10023 |" in table
