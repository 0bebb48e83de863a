"""`cuarenta-sim report`: generates report directories; bad options exit 2 with one line."""

from __future__ import annotations

import json
import re
from pathlib import Path

import matplotlib
import pytest

matplotlib.use("Agg")


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["report", "nope"], "unknown report 'nope'; accepted: quito-vs-cuenca, odds"),
        (["report"], "Missing argument"),
        (["report", "odds", "--players", "3"], "--players must be 2, 4 or 2,4"),
        (["report", "odds", "--players", "2,2"], "--players must be 2, 4 or 2,4"),
        (["report", "odds", "--n", "0"], "--n must be a positive"),
        (["report", "odds", "--n", "many"], "Invalid value for '--n'"),
        (["report", "odds", "--seed", "-1"], "--seed must be a non-negative"),
        (["report", "odds", "--chicas", "0"], "--chicas must be a positive"),
        (["report", "odds", "--mesas", "-5"], "--mesas must be a positive"),
        (["report", "odds", "--rules", "bogus"], "unknown preset 'bogus'"),
        (["report", "sensitivity", "--rules", "quito(nope=1)"], "unknown switch nope"),
        (["report", "quito-vs-cuenca", "--rules", "pagat"], "--rules does not apply"),
        (["report", "odds", "--policies", "smart"], "unknown policy 'smart'"),
        (["report", "odds", "--confidence", "1.5"], "confidence must be strictly between"),
        (["report", "odds", "--threads", "0"], "--threads must be a whole number"),
    ],
)
def test_bad_report_options(run_cli, tmp_path: Path, args: list[str], needle: str) -> None:
    run = run_cli(*args, "--out", str(tmp_path))
    run.assert_bad_input()
    assert needle in run.err
    assert not any(tmp_path.iterdir())  # nothing was written


def test_report_out_that_is_a_file(run_cli, tmp_path: Path) -> None:
    (tmp_path / "odds").write_text("x")
    run = run_cli("report", "odds", "--n", "100", "--out", str(tmp_path), "--no-progress")
    run.assert_bad_input()
    assert "not a directory" in run.err


def test_report_writes_the_directory_and_prints_the_summary(run_cli, tmp_path: Path) -> None:
    args = (
        "report",
        "quito-vs-cuenca",
        "--n",
        "2000",
        "--seed",
        "3",
        "--players",
        "4",
        "--policies",
        "greedy;heuristic",
        "--confirm",
        "none",
        "--chicas",
        "500",
        "--mesas",
        "200",
        "--out",
        str(tmp_path),
        "--no-progress",
    )
    run = run_cli(*args)
    assert run.code == 0, run.err
    out = tmp_path / "quito-vs-cuenca"
    assert sorted(p.name for p in (out / "figures").iterdir()) == [
        "chica_length.png",
        "convergence.png",
        "points_by_source.png",
        "win_probability.png",
    ]
    # Sizes are stated per model, the headline run named (issue 18 cold read).
    assert "Quito vs Cuenca (per rule set and player count: `greedy` (the headline run)" in run.out
    assert "2,000 datas, 500 chicas" in run.out
    assert "datas per chica" in run.out and "across models" in run.out
    prefix = (
        "cuarenta-sim report quito-vs-cuenca --n 2000 --seed 3 --players 4 "
        "--policies 'greedy;heuristic'"
    )
    assert run.reproduce.startswith(prefix)
    prov = json.loads((out / "provenance.json").read_text())
    assert prov["players"] == [4] and prov["seed"] == 3
    first = (out / "report.md").read_text()
    # An existing report folder is replaced only with --force (issue 20, failure 4).
    refused = run_cli(*args)
    refused.assert_bad_input()
    assert "already exists; pass --force" in refused.err and refused.out == ""
    assert (out / "report.md").read_text() == first
    # Regenerated with --force (reports are never hand-edited): same numbers, same sections.
    again = run_cli(*args, "--force")
    assert again.code == 0, again.err
    assert again.reproduce.endswith("--force")

    # Methods states each model's measured wall time ("`greedy` 0.6 s"): the only text that
    # may differ between two runs of the same settings.
    def strip(md: str) -> str:
        return re.sub(r"\d[\d,]*(\.\d+)? s\b", "<t> s", md.split("## Provenance")[0])

    assert strip((out / "report.md").read_text()) == strip(first)


def test_report_progress_goes_to_stderr(run_cli, tmp_path: Path) -> None:
    run = run_cli(
        "report",
        "odds",
        "--n",
        "500",
        "--players",
        "2",
        "--policies",
        "greedy",
        "--confirm",
        "none",
        "--out",
        str(tmp_path),
    )
    assert run.code == 0, run.err
    # One model, one player count: 1 simulation step, convergence, caida risk.
    assert "report odds: step 1/3 simulating quito, 2 players, greedy, elapsed " in run.err
    assert "report odds: step 3/3 counting caida risk on the simulator's decks" in run.err
    assert "report odds: 3 step(s) in " in run.err
    assert "simulating" not in run.out
