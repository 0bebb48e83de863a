"""The installed entry points, run as real processes: exit codes and no tracebacks."""

from __future__ import annotations

import subprocess
import sys
from importlib.metadata import entry_points
from pathlib import Path

from cuarenta_sim.cli import main

ROOT = Path(__file__).resolve().parents[2]


def _run(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "cuarenta_sim", *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
        check=False,
    )


def test_console_script_is_the_cli_main() -> None:
    (script,) = [e for e in entry_points(group="console_scripts") if e.name == "cuarenta-sim"]
    assert script.value == "cuarenta_sim.cli:main"
    assert script.load() is main


def test_python_dash_m_help_lists_every_command() -> None:
    proc = _run("--help")
    assert proc.returncode == 0, proc.stderr
    for command in ("simulate", "scenario", "replay", "presets", "rules"):
        assert command in proc.stdout


def test_python_dash_m_bad_input_exits_2_without_traceback() -> None:
    proc = _run("simulate", "--rules", "quito(max_sum_cards=1)")
    assert proc.returncode == 2
    assert proc.stdout == ""
    assert proc.stderr.count("\n") == 1 and "Traceback" not in proc.stderr
    assert proc.stderr.startswith("cuarenta-sim: error: switch max_sum_cards")


def test_python_dash_m_scenario_from_stdin_exit_status() -> None:
    good = '{"kind": "play", "rules": "quito", "table": ["5", "K"], "card": "5", "base": ["5"]}'
    ok = _run("scenario", "-", stdin=good + "\n")
    assert ok.returncode == 0 and ok.stderr == ""
    assert '"captured": ["5", "5"]' in ok.stdout
    bad = _run("scenario", "-", stdin=good + '\n{"kind": "play"}\n')
    assert bad.returncode == 2 and len(bad.stdout.splitlines()) == 2
    assert "Traceback" not in bad.stderr
