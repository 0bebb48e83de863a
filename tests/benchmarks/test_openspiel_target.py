"""The openspiel-opponents target: records written as it goes, resumed, summarised."""

from __future__ import annotations

import importlib
import json
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow

#: A small IS-MCTS budget: the tests check the plumbing, not the bot's strength.
SMALL_ISMCTS = "openspiel-ismcts(simulations=4,rollout_length=20,point_reward=0.025)"
BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"


def test_openspiel_records_resume_and_state_the_budget(tmp_path: Path, monkeypatch) -> None:
    """Issue 18 item 8: the target appends one JSON line per finished pair, a rerun skips
    the pairs it holds, --from-records summarises a partial run, and the page states the
    bot's budget in every row."""
    monkeypatch.syspath_prepend(str(BENCHMARKS))
    run = importlib.import_module("run").main
    bench = importlib.import_module("openspiel_opponents")
    records = tmp_path / "pairs.jsonl"
    common = ["openspiel-opponents", "--policies", "greedy", "--ismcts", SMALL_ISMCTS,
              "--random-pairs", "0", "--baseline-pairs", "0", "--workers", "1",
              "--records", str(records)]  # fmt: skip
    assert run([*common, "--ismcts-pairs", "2", "--out", str(tmp_path / "a.json")]) == 0
    assert len(records.read_text().splitlines()) == 2
    first = json.loads((tmp_path / "a.json").read_text())["results"][0]
    # Resume to 3 pairs: only the third is played.
    assert run([*common, "--ismcts-pairs", "3", "--out", str(tmp_path / "b.json")]) == 0
    assert len(records.read_text().splitlines()) == 3
    # A torn last line (a killed run) is ignored; --from-records counts the pairs it holds.
    with records.open("a") as fh:
        fh.write('{"key": "trunc')
    assert run([*common, "--ismcts-pairs", "10", "--from-records",
                "--out", str(tmp_path / "c.json")]) == 0  # fmt: skip
    row = json.loads((tmp_path / "c.json").read_text())["results"][0]
    assert row["pairs"] == 3
    two = bench.read_records(records)
    assert len(two) == 3
    assert first["pairs"] == 2
    table = bench.table_markdown([row | {"a_label": "greedy", "b_label": "openspiel-ismcts"}])
    assert "4 simulations per decision" in table and "at most 20 moves" in table


def test_openspiel_default_records_are_the_partial_file(
    tmp_path: Path, monkeypatch, capsys
) -> None:
    """Without --records the pairs go to <results>.partial.jsonl as they finish: a rerun
    after a cut-short run reads them instead of playing them again, and a finished run
    removes the file (one results file left)."""
    monkeypatch.syspath_prepend(str(BENCHMARKS))
    run = importlib.import_module("run").main
    out = tmp_path / "os.json"
    common = ["openspiel-opponents", "--policies", "greedy", "--ismcts", SMALL_ISMCTS,
              "--random-pairs", "0", "--baseline-pairs", "0", "--workers", "1"]  # fmt: skip
    # The first pair, as a run cut short after it would have left it.
    first = tmp_path / "first.jsonl"
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    assert run([*common, "--ismcts-pairs", "1", "--records", str(first),
                "--out", str(scratch / "one.json")]) == 0  # fmt: skip
    first.rename(tmp_path / "os.partial.jsonl")
    capsys.readouterr()
    assert run([*common, "--ismcts-pairs", "2", "--out", str(out)]) == 0
    assert "1 chunks read from" in capsys.readouterr().out
    assert json.loads(out.read_text())["results"][0]["pairs"] == 2
    assert sorted(p.name for p in tmp_path.iterdir()) == ["os.json", "scratch"]
