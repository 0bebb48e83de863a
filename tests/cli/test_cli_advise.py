"""``cuarenta-sim scenario`` with kind ``advise``: results, exit codes (0, or 2 on bad input)."""

from __future__ import annotations

import json
from pathlib import Path

# Quito, 2 players, the first turn of deal 2 of 4 from seat 0 (tests/solver/test_advise.py).
MID = {
    "kind": "advise",
    "rules": "quito",
    "scores": [10, 4],
    "table": ["5", "J"],
    "hands": [["A", "4", "5", "Q", "K"], None],
    "unseen": [
        "A",
        "A",
        "A",
        "2",
        "2",
        "2",
        "3",
        "3",
        "3",
        "4",
        "4",
        "5",
        "6",
        "6",
        "6",
        "7",
        "7",
        "7",
        "J",
        "J",
        "Q",
        "Q",
        "K",
        "K",
        "K",
    ],
    "cards": [5, 3],
    "last_capturer": 1,
}


def test_advise_scenario_file_exits_0(run_cli, tmp_path: Path) -> None:
    path = tmp_path / "advise.json"
    path.write_text(json.dumps({**MID, "samples": 16}, indent=2))
    run = run_cli("scenario", str(path))
    assert run.code == 0 and run.err == "", run.err
    (line,) = run.out.splitlines()
    out = json.loads(line)
    assert out["exact"] is False and out["samples"] == 16
    assert out["best"] == max(v["value"] for v in out["values"])


def test_advise_bad_input_exits_2_naming_the_field(run_cli) -> None:
    good = json.dumps({**MID, "samples": 8})
    bad = json.dumps({**MID, "samples": 0})
    run = run_cli("scenario", "-", stdin=f"{good}\n{bad}\n")
    run.assert_bad_input()
    first, second = (json.loads(line) for line in run.out.splitlines())
    assert "error" not in first
    assert second["error"].startswith("samples must be")
    assert "samples must be" in run.err
