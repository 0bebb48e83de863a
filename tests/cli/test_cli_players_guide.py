"""``cuarenta-sim report players-guide`` (issue 13 item 8) at a tiny size, and its bad input."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest

FIGURES = {
    "win_probability_chica",
    "win_probability_mesa",
    "caida_risk",
    "trail_value",
    "departures",
    "dealer_edge",
    "convergence",
}
CSVS = {"win_probability_chica", "win_probability_mesa", "caida_risk", "dealer_edge"}


def test_tiny_guide_writes_every_file(run_cli, tmp_path: Path) -> None:
    run = run_cli(
        "report", "players-guide", "--n", "400", "--policies", "heuristic", "--out", str(tmp_path)
    )
    assert run.code == 0, run.err
    out = tmp_path / "players-guide"
    assert {p.stem for p in (out / "figures").glob("*.png")} == FIGURES
    assert {p.stem for p in out.glob("*.csv")} == CSVS
    report = (out / "report.md").read_text(encoding="utf-8")
    for heading in (
        "## Summary",
        "Win probability by score",
        "Caida risk",
        "Trail or capture",
        "departs from greedy",
        "dealer's and the mano's edge",
        "## Methods",
    ):
        assert heading in report, heading
    for stem in FIGURES:
        assert f"figures/{stem}.png" in report
    prov = json.loads((out / "provenance.json").read_text(encoding="utf-8"))
    assert prov["report"] == "players-guide" and prov["policies"] == ["heuristic"]
    assert prov["sizes"]["datas"] == 400 and "heuristic" in prov["speeds_datas_per_s"]
    table = pd.read_csv(out / "win_probability_chica.csv")
    low = table[(table["n"] > 0) & (table["n"] < table["min_n"])]
    assert len(low) and low["estimate"].isna().all() and low["masked"].all()
    assert "reproduce: cuarenta-sim report players-guide --n 400" in run.out


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["--policies", "greedy,heuristic"], "takes one policy"),
        (["--policies", "random"], "deterministic player"),
        (["--policies", "nonsense"], "--policies"),
        (["--players", "4"], "--players does not apply to players-guide"),
        (["--rules", "cuenca"], "--rules does not apply to players-guide"),
        (["--n", "0"], "--n"),
    ],
)
def test_bad_input_exits_2_with_one_line(run_cli, tmp_path: Path, args: list, needle: str) -> None:
    run = run_cli("report", "players-guide", *args, "--out", str(tmp_path))
    run.assert_bad_input()
    assert needle in run.err
    assert not (tmp_path / "players-guide").exists()
