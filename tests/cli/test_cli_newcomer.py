"""Issue 11: what a newcomer tripped on, and the shape of the command line (help, version,
module sizes, output checks before any simulation, reproduce lines, console width, warnings)."""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
import time
import warnings
from pathlib import Path

import pytest
import typer

import cuarenta_sim
from cuarenta_sim.cli import app

ROOT = Path(__file__).resolve().parents[2]
COMMANDS = ("simulate", "scenario", "replay", "presets", "rules", "policies", "report",
            "tournament")  # fmt: skip


def test_every_cli_module_is_under_300_lines() -> None:
    modules = sorted((ROOT / "cuarenta_sim" / "cli").glob("*.py"))
    assert len(modules) >= 8
    sizes = {p.name: len(p.read_text(encoding="utf-8").splitlines()) for p in modules}
    assert all(n < 300 for n in sizes.values()), sizes


def test_dash_h_and_version(run_cli) -> None:
    top = run_cli("-h")
    assert top.code == 0 and all(c in top.out for c in COMMANDS)
    version = run_cli("--version")
    assert (version.code, version.out) == (0, f"cuarenta-sim {cuarenta_sim.__version__}\n")
    for command in COMMANDS:
        run = run_cli(command, "-h")
        assert run.code == 0 and "--game" in run.out, command
    help_text = run_cli("simulate", "-h").out
    basic, output, scale = (help_text.index(f"{p} options:") for p in ("Basic", "Output",
                                                                         "Scale-out"))  # fmt: skip
    where = {flag: help_text.index(f"\n  {flag} ") for flag in ("--rules", "--out", "--backend")}
    assert basic < where["--rules"] < output < where["--out"] < scale < where["--backend"]


def _unwritable(tmp_path: Path, kind: str) -> list[Path]:
    """Places nothing can be written: /proc, under a plain file, a read-only directory (only
    when not root: root writes there anyway)."""
    blocker = tmp_path / "plain-file"
    blocker.write_text("x")
    places = [Path("/proc/x"), blocker / "sub"]
    if os.geteuid() != 0:
        locked = tmp_path / "locked"
        locked.mkdir(mode=0o500)
        places.append(locked / "sub")
    return [p.with_suffix(".parquet") if kind == "file" else p for p in places]


CASES = [
    (("simulate", "--n", "100000000"), "--out", "file"),
    (("simulate", "--n", "100000000"), "--report", "dir"),
    (("simulate", "--n", "100000000", "--aggregates-only"), "--dataset", "dir"),
    (("simulate", "--game", "cuatrola", "--n", "100000000"), "--out", "file"),
    (("report", "odds", "--n", "100000000"), "--out", "dir"),
    (("tournament", "--policies", "greedy,random", "--chicas", "100000000"), "--out", "dir"),
]


@pytest.mark.parametrize(("args", "flag", "kind"), CASES, ids=[f"{c[0][0]} {c[1]}" for c in CASES])
def test_unwritable_output_fails_in_seconds_before_any_simulation(
    run_cli, tmp_path: Path, args: tuple[str, ...], flag: str, kind: str
) -> None:
    for place in _unwritable(tmp_path, kind):
        t0 = time.monotonic()
        run = run_cli(*args, flag, str(place), "--no-progress")
        assert time.monotonic() - t0 < 20, place
        run.assert_bad_input()
        assert str(place) in run.err and run.out == ""


def test_readme_newcomer_command_fails_in_seconds() -> None:
    """The issue's own check: huge --n, output under /proc: exit 2, one line naming the path."""
    t0 = time.monotonic()
    proc = subprocess.run(
        [sys.executable, "-m", "cuarenta_sim", "simulate", "--n", "100000000", "--out",
         "/proc/x.parquet"],
        capture_output=True, text=True, cwd=ROOT, timeout=60, check=False,
    )  # fmt: skip
    assert time.monotonic() - t0 < 30
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr.count("\n") == 1 and "/proc/x.parquet" in proc.stderr


def test_out_must_be_a_parquet_path(run_cli, tmp_path: Path) -> None:
    run = run_cli("simulate", "--n", "10", "--out", str(tmp_path / "x.csv"))
    run.assert_bad_input()
    assert "use a .parquet path" in run.err and list(tmp_path.iterdir()) == []


def test_memory_error_names_the_command_line_option(run_cli) -> None:
    run = run_cli("simulate", "--n", str(10**15), "--no-progress")
    run.assert_bad_input()
    assert "--aggregates-only" in run.err


@pytest.mark.parametrize(
    "args",
    [
        ("rules", "quito(max_sum_cards=2,max_sum_cards=3)"),
        ("rules", "--game", "cuatrola", "ro(target=21,target=21)"),
        ("simulate", "--rules", "cuenca(falla_points=2,falla_points=0)"),
    ],
)
def test_a_switch_given_twice_is_refused(run_cli, args: tuple[str, ...]) -> None:
    run = run_cli(*args)
    run.assert_bad_input()
    assert "given twice" in run.err


def test_reproduce_line_parses_back_to_the_same_settings(run_cli, tmp_path: Path) -> None:
    """Every non-default option is in the line, output locations included."""
    command = typer.main.get_command(app).commands["simulate"]  # type: ignore[attr-defined]
    runs = [
        ["--rules", "cuenca(falla_points=2)", "--players", "4", "--policies", "greedy,random",
         "--n", "300", "--level", "chica", "--seed", "9", "--threads", "1", "--chunk-size",
         "100", "--confidence", "0.9", "--out", str(tmp_path / "a.parquet"), "--report",
         str(tmp_path / "r"), "--no-progress"],
        ["--game", "cuatrola", "--bid-policies", "never", "--n", "50", "--aggregates-only",
         "--dataset", str(tmp_path / "ds"), "--no-progress"],
    ]  # fmt: skip
    for args in runs:
        run = run_cli("simulate", *args)
        assert run.code == 0, run.err
        words = shlex.split(run.reproduce)
        assert words[:2] == ["cuarenta-sim", "simulate"]
        given = command.make_context("simulate", list(args)).params
        again = command.make_context("simulate", words[2:]).params
        for key, value in given.items():
            if value is not None:
                assert again[key] == value, key
        # The defaults are spelled out, so the line does not depend on them.
        assert all(again[k] is not None for k in ("rules", "players", "policies", "n", "level"))


def test_report_reproduce_line_keeps_out(run_cli, tmp_path: Path) -> None:
    run = run_cli("report", "odds", "--n", "400", "--players", "2", "--out", str(tmp_path),
                  "--no-progress")  # fmt: skip
    assert run.code == 0, run.err
    words = shlex.split(run.reproduce)
    assert words[words.index("--out") + 1] == str(tmp_path)


def _widest(text: str) -> int:
    return max((len(line) for line in text.splitlines()), default=0)


@pytest.mark.parametrize(
    "args",
    [
        ("presets",),
        ("presets", "--game", "cuatrola"),
        ("rules", "cuenca(at_38=none,falla_points=2)"),
        ("rules", "--game", "cuatrola", "ro(target=21)"),
        ("policies",),
        ("policies", "--game", "cuatrola"),
        ("simulate", "--n", "300", "--level", "mesa", "--no-progress"),
        ("simulate", "--game", "cuatrola", "--n", "200", "--level", "game", "--no-progress"),
        ("tournament", "--policies", "random,greedy", "--chicas", "20", "--mesas", "2",
         "--no-progress"),
        ("report", "quito-vs-cuenca", "--n", "400", "--players", "2", "--no-progress"),
    ],
)  # fmt: skip
def test_console_output_fits_100_columns(run_cli, tmp_path: Path, args: tuple[str, ...]) -> None:
    extra = ("--out", str(tmp_path)) if args[0] == "report" else ()
    run = run_cli(*args, *extra)
    assert run.code == 0, run.err
    # the output folder is the caller's own path (its length is theirs, not the layout's)
    out = run.out.replace(str(tmp_path), "OUT")
    assert _widest(out) <= 100, max(out.splitlines(), key=len)


@pytest.mark.parametrize(
    ("args", "desc"),
    [
        (("simulate", "--n", "3000"), "simulate: "),
        (("tournament", "--policies", "random,greedy", "--chicas", "20"), "tournament: "),
        (("report", "odds", "--n", "400", "--players", "2"), "report odds: "),
    ],
)
def test_progress_in_a_log_is_plain_lines(
    run_cli, tmp_path: Path, args: tuple[str, ...], desc: str
) -> None:
    """stderr is not a terminal under pytest: whole lines, never a carriage return."""
    extra = ("--out", str(tmp_path)) if args[0] == "report" else ()
    run = run_cli(*args, *extra)
    assert run.code == 0, run.err
    lines = run.err.splitlines()
    assert lines and all(line.startswith(desc) for line in lines), run.err
    assert "\r" not in run.err


def test_truncated_games_are_a_warning_on_stderr(run_cli, monkeypatch) -> None:
    import cuarenta_sim.simulation as pipeline

    real = pipeline.run_validated

    def truncating(run: object) -> object:
        warnings.warn("7 of 40 chicas were truncated", pipeline.TruncationWarning, stacklevel=1)
        return real(run)  # type: ignore[arg-type]

    monkeypatch.setattr(pipeline, "run_validated", truncating)
    run = run_cli("simulate", "--level", "chica", "--n", "40", "--no-progress")
    assert run.code == 0, run.err
    assert run.err == "cuarenta-sim: warning: 7 of 40 chicas were truncated\n"


def test_every_command_dispatches_on_game(run_cli) -> None:
    presets = run_cli("presets", "--game", "cuatrola")
    assert presets.code == 0 and "ro" in presets.out.split() and "online" in presets.out.split()
    rules = run_cli("rules", "--game", "cuatrola", "ro( target=21 )")
    assert rules.code == 0 and rules.out.startswith("slug: ro(target=21)\n")
    policies = run_cli("policies", "--game", "cuatrola")
    assert policies.code == 0 and "pimc" in policies.out and "threshold" in policies.out
    replay = run_cli("replay", "--game", "cuatrola", "--bid-policies", "never", "--seed", "3")
    assert replay.code == 0 and replay.out.strip(), replay.err
    trick = '{"kind": "trick", "trump": "o", "trick": ["Rc"], "hand": ["Ac", "Sc", "Ro", "3e"]}'
    judged = run_cli("scenario", "--game", "cuatrola", "-", stdin=trick)
    assert judged.code == 0 and "error" not in judged.out, judged.out
    wrong = run_cli("scenario", "-", stdin=trick)  # default cuarenta: not a Cuarenta kind
    assert wrong.code == 2
    unknown = run_cli("presets", "--game", "chess")
    unknown.assert_bad_input()
    assert "accepted: cuarenta, cuatrola" in unknown.err
