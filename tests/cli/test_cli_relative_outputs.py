"""Relative output paths of the command-line tests land in the test's ``tmp_path`` (the
``run_cli`` fixture's working directory), never in the checkout."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_relative_report_goes_to_tmp_path_not_the_checkout(run_cli, tmp_path: Path) -> None:
    """Regression: ``--report r`` from a test once wrote ``r/`` into the checkout, and it was
    committed."""
    assert Path.cwd() == tmp_path
    before = (ROOT / "r").exists()
    run = run_cli("simulate", "--game", "cuatrola", "--n", "10", "--seed", "0", "--report", "r",
                  "--no-progress")  # fmt: skip
    assert run.code == 0, run.err
    assert (tmp_path / "r" / "report.md").is_file()
    assert (tmp_path / "r" / "provenance.json").is_file()
    assert (ROOT / "r").exists() == before
