"""Bad input anywhere: one line on stderr naming the problem and what is accepted, exit 2."""

from __future__ import annotations

from pathlib import Path

import pytest

CASES = [
    # (arguments, text the message must contain)
    ((), "Missing command"),
    (("simulat",), "No such command"),
    (("simulate", "--bogus"), "No such option"),
    (("simulate", "--rules", "quitto"), "accepted: quito, cuenca, pagat, quito_torneo"),
    (("simulate", "--rules", "quito(max_sum_cards)"), "malformed switch"),
    (("simulate", "--rules", "quito(ronda_points=3)"), "even number"),
    (("simulate", "--rules", "quito(foo=1)"), "accepted: max_sum_cards"),
    (("simulate", "--policies", "greedy,smart"), "accepted: random, greedy"),
    (("simulate", "--policies", "greedy,,random"), "empty name"),
    (("simulate", "--policies", "greedy,greedy,greedy"), "one per side"),
    (("simulate", "--n", "0"), "n must be a positive"),
    (("simulate", "--n", "-5"), "n must be a positive"),
    (("simulate", "--n", "many"), "Invalid value for '--n'"),
    (("simulate", "--players", "3"), "must be 2 or 4"),
    (("simulate", "--level", "torneo"), "accepted: data, chica, mesa"),
    (("simulate", "--seed", "-1"), "non-negative"),
    (("simulate", "--seed", "x"), "Invalid value for '--seed'"),
    (("simulate", "--threads", "0"), "threads must be None or a whole number from 1"),
    (("simulate", "--confidence", "1.5"), "strictly between 0 and 1"),
    (("replay", "--rules", "cuenca("), "malformed rules slug"),
    (("replay", "--players", "5"), "must be 2 or 4"),
    (("replay", "--level", "partida"), "accepted: data, chica, mesa"),
    (("replay", "--policies", "smart"), "accepted: random, greedy"),
    (("replay", "--index", "-1"), "non-negative"),
    (("rules", "torneo"), "accepted: quito, cuenca, pagat, quito_torneo"),
    (("rules", "quito(at_38=never)"), "caida_or_carton"),
    (("rules",), "Missing argument"),
    (("scenario",), "Missing argument"),
    (("scenario", "/nonexistent/scenario.json"), "No such file or directory"),
]


@pytest.mark.parametrize(
    ("args", "needle"), CASES, ids=[" ".join(c[0]) or "no-args" for c in CASES]
)
def test_bad_input_is_one_line_exit_2(run_cli, args: tuple[str, ...], needle: str) -> None:
    run = run_cli(*args)
    run.assert_bad_input()
    assert needle in run.err
    assert run.out == ""


def test_scenario_path_that_is_a_directory(run_cli, tmp_path: Path) -> None:
    run = run_cli("scenario", str(tmp_path))
    run.assert_bad_input()
    assert "Is a directory" in run.err and "'-' for stdin" in run.err


def test_scenario_file_that_is_not_text(run_cli, tmp_path: Path) -> None:
    path = tmp_path / "cards.bin"
    path.write_bytes(b"\xff\xfe\x00\x81garbage")
    run = run_cli("scenario", str(path))
    run.assert_bad_input()
    assert "not UTF-8 text" in run.err


def test_output_path_under_a_file_fails_before_simulating(run_cli, tmp_path: Path) -> None:
    blocker = tmp_path / "plain-file"
    blocker.write_text("x")
    run = run_cli("simulate", "--n", "10", "--out", str(blocker / "hands.parquet"))
    run.assert_bad_input()
    assert "is not a directory" in run.err and run.out == ""
    assert sorted(p.name for p in tmp_path.iterdir()) == ["plain-file"]


def test_existing_output_needs_force(run_cli, tmp_path: Path) -> None:
    """Issue 3, bad input: an existing output without --force is refused before the run."""
    out = tmp_path / "hands.parquet"
    out.write_bytes(b"earlier results")
    run = run_cli("simulate", "--n", "10", "--out", str(out), "--no-progress")
    run.assert_bad_input()
    assert "already exists; pass --force" in run.err and run.out == ""
    assert out.read_bytes() == b"earlier results"
    report = tmp_path / "report"
    report.mkdir()
    (report / "report.md").write_text("old")
    run = run_cli("simulate", "--n", "10", "--report", str(report), "--no-progress")
    run.assert_bad_input()
    assert "report.md already exists" in run.err
    forced = run_cli(
        "simulate",
        "--n",
        "10",
        "--out",
        str(out),
        "--report",
        str(report),
        "--force",
        "--no-progress",
    )
    assert forced.code == 0, forced.err
    assert out.read_bytes() != b"earlier results"
    assert (report / "report.md").read_text() != "old"


def test_output_path_that_is_a_directory(run_cli, tmp_path: Path) -> None:
    run = run_cli("simulate", "--n", "10", "--out", str(tmp_path))
    run.assert_bad_input()
    assert "not a file name" in run.err


def test_report_directory_that_is_a_file(run_cli, tmp_path: Path) -> None:
    blocker = tmp_path / "report"
    blocker.write_text("x")
    run = run_cli("simulate", "--n", "10", "--report", str(blocker))
    run.assert_bad_input()
    assert "not a directory" in run.err
