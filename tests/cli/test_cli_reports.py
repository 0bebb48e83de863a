"""Report building (cuarenta_sim.reports): tables, decimals, report directories, game summaries."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pandas as pd
import pytest

from cuarenta_sim import reports, stats
from cuarenta_sim.cuarenta import summaries
from cuarenta_sim.cuarenta.rules import SWITCHES, RuleSet


@pytest.mark.parametrize(
    ("lower", "upper", "decimals"),
    [
        (0.299, 0.301, 4),  # half-width 0.001 -> two significant digits need 4 decimals
        (4.9, 5.1, 2),
        (100.0, 300.0, 0),
        (0.5, 0.5, 4),  # zero width: fallback
        (math.nan, math.nan, 4),
        (0.0, 1e-12, reports.MAX_DECIMALS),
    ],
)
def test_estimate_decimals(lower: float, upper: float, decimals: int) -> None:
    assert reports.estimate_decimals(lower, upper) == decimals


def test_text_table_aligns_columns_and_right_aligns_numbers() -> None:
    text = reports.text_table(["name", "n"], [["a", 5], ["longer", 1234]], right=(1,))
    assert text.splitlines() == ["name       n", "------  ----", "a          5", "longer  1234"]


def test_tables_reject_ragged_rows() -> None:
    with pytest.raises(ValueError, match="2 cells, expected 3"):
        reports.text_table(["a", "b", "c"], [[1, 2]])
    with pytest.raises(ValueError, match="1 cells, expected 2"):
        reports.markdown_table(["a", "b"], [[1]])


def test_markdown_table_escapes_pipes() -> None:
    text = reports.markdown_table(["k", "v"], [["a|b", 1]], right=(1,))
    assert text.splitlines() == ["| k | v |", "|---|---:|", "| a\\|b | 1 |"]


def _estimates() -> pd.DataFrame:
    return pd.DataFrame(
        [
            stats.proportion("P(x)", 30, 100),
            stats.proportion("P(empty)", 0, 0),
            stats.mean("points", [2.0, 4.0, 6.0, 8.0]),
        ],
        columns=stats.ESTIMATE_COLUMNS,
    )


def test_estimates_table_text_and_markdown() -> None:
    text = reports.estimates_table(_estimates(), confidence=0.9)
    lines = text.splitlines()
    assert lines[0].split() == ["metric", "estimate", "90%", "interval", "n", "method"]
    assert lines[2].startswith("P(x)") and "0.300" in lines[2] and "wilson" in lines[2]
    assert "n/a" in lines[3] and "undefined" in lines[3]
    md = reports.estimates_table(_estimates(), markdown=True)
    assert md.splitlines()[0] == "| metric | estimate | 95% interval | n | method |"
    # 4 values: Student t with 3 degrees of freedom, 5 +- 3.182 * 2.582 / 2.
    assert "| points | 5.0 | [0.9, 9.1] | 4 | t |" in md


def test_estimate_rows_share_decimals_between_estimate_and_bounds() -> None:
    row = reports.estimate_rows(_estimates())[0]
    est, interval = row[1], row[2]
    decimals = len(est.split(".")[1])
    assert all(len(b.split(".")[1]) == decimals for b in interval.strip("[]").split(", "))


def test_report_writes_markdown_and_provenance(tmp_path: Path) -> None:
    report = reports.Report(
        title="Demo", provenance={"seed": 3, "rules": "quito"}, command="cuarenta-sim x"
    )
    report.add("Numbers", "| a |\n|---|\n| 1 |\n")
    md_path, prov_path = report.write(tmp_path / "deep" / "dir")
    md = md_path.read_text()
    assert md.startswith("# Demo\n")
    assert "## Numbers\n\n| a |" in md
    assert "## Reproduce\n\n```sh\ncuarenta-sim x\n```" in md
    assert "| seed | `3` |" in md
    assert json.loads(prov_path.read_text()) == {
        "seed": 3,
        "rules": "quito",
        "command": "cuarenta-sim x",
    }
    assert sorted(p.name for p in md_path.parent.iterdir()) == ["provenance.json", "report.md"]


def test_report_write_failure_leaves_no_partial_file(tmp_path: Path) -> None:
    blocker = tmp_path / "report"
    blocker.write_text("not a directory")
    with pytest.raises(OSError):
        reports.Report(title="t", provenance={}).write(blocker)
    assert blocker.read_text() == "not a directory"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["report"]


def _games(level: str) -> pd.DataFrame:
    rows = [
        {"winner": 0, "hands": 4, "zapateria": True, "truncated": False},
        {"winner": 1, "hands": 6, "zapateria": False, "truncated": False},
        {"winner": 0, "hands": 5, "zapateria": False, "truncated": False},
        {"winner": -1, "hands": 10_000, "zapateria": False, "truncated": True},
    ]
    frame = pd.DataFrame(rows)
    if level == "mesa":
        frame["chicas_0"] = [1, 1, 2, 0]
        frame["chicas_1"] = [0, 2, 1, 0]
    return frame


def test_summarize_games_chica() -> None:
    out = summaries.summarize_games(_games("chica"), "chica").set_index("metric")
    assert out.loc["P(side 0 wins the chica)", "estimate"] == pytest.approx(2 / 3)
    assert out.loc["P(side 0 wins the chica)", "n"] == 3
    assert out.loc["datas per chica", "estimate"] == pytest.approx((4 + 6 + 5 + 10_000) / 4)
    assert out.loc["P(zapateria)", "estimate"] == pytest.approx(1 / 3)
    assert out.loc["P(chica truncated)", "estimate"] == pytest.approx(1 / 4)
    # Four chicas: the means use Student t (n < stats.T_MAX_N).
    assert set(out["method"]) == {"wilson", "t"}


def test_summarize_games_mesa_adds_chicas_per_mesa() -> None:
    out = summaries.summarize_games(_games("mesa"), "mesa").set_index("metric")
    assert out.loc["chicas per mesa", "estimate"] == pytest.approx((1 + 3 + 3 + 0) / 4)
    assert "P(mesa won by a first-chica zapateria)" in out.index
    assert "P(zapateria)" not in out.index


def test_summarize_games_rejects_level_data() -> None:
    with pytest.raises(ValueError, match="'chica' or 'mesa'"):
        summaries.summarize_games(_games("chica"), "data")


def test_rules_rows_mark_differences_from_the_base_preset() -> None:
    rows = summaries.rules_rows(RuleSet.preset("pagat", falla_points=4))
    assert [r[0] for r in rows] == list(SWITCHES)
    by = {r[0]: r[1:] for r in rows}
    assert by["falla_points"] == ["4", "0 *"]
    assert by["caida_en_ronda_timing"] == ["end_of_deal", "end_of_deal"]
