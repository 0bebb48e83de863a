"""README.md and .ci/run agree, and what README documents is true."""

from __future__ import annotations

import re
import shlex
import subprocess
import sys
from pathlib import Path

import pandas as pd

from cuarenta_sim.cuarenta.rules import PRESETS, SWITCHES

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text(encoding="utf-8")
PRESETS_DOC = (ROOT / "docs" / "presets.md").read_text(encoding="utf-8")
CI_RUN = (ROOT / ".ci" / "run").read_text(encoding="utf-8")


def setup_commands() -> list[str]:
    """The README's opening: a title, then exactly two one-line shell blocks."""
    match = re.match(r"# [^\n]+\n\n```sh\n([^\n]+)\n```\n\n```sh\n([^\n]+)\n```\n", README)
    assert match, "README must start with a title and exactly two one-line ```sh blocks"
    return [match.group(1), match.group(2)]


def test_readme_starts_with_main_job_then_tests() -> None:
    main_job, tests = setup_commands()
    assert main_job.startswith("python3 -m venv .venv && .venv/bin/pip install -e . && ")
    assert ".venv/bin/cuarenta-sim report quito-vs-cuenca " in main_job
    # The main job runs on real simulated input: at least a million datas per preset.
    words = shlex.split(main_job)
    assert int(words[words.index("--n") + 1]) >= 1_000_000
    assert tests.startswith('python3 -m venv .venv && .venv/bin/pip install -e ".[test]" && ')
    assert tests.endswith(".venv/bin/python -m pytest -n auto")


def test_ci_runs_exactly_the_readme_test_command() -> None:
    _, tests = setup_commands()
    assert tests in CI_RUN.splitlines(), ".ci/run must contain the README test line verbatim"
    assert "set -euo pipefail" in CI_RUN


def test_ci_script_parses_as_bash() -> None:
    proc = subprocess.run(["bash", "-n", str(ROOT / ".ci" / "run")], capture_output=True)
    assert proc.returncode == 0, proc.stderr


def test_readme_main_job_runs(run_cli, tmp_path: Path) -> None:
    """The README's report command, with a small n and the report in a temporary directory."""
    main_job, _ = setup_commands()
    words = shlex.split(main_job.split(".venv/bin/cuarenta-sim ", 1)[1])
    replace = {"--n": "2000", "--out": str(tmp_path)}
    args = [replace.get(words[i - 1], w) if i else w for i, w in enumerate(words)]
    run = run_cli(*args, "--no-progress")
    assert run.code == 0, run.err
    report = tmp_path / "quito-vs-cuenca"
    assert (report / "report.md").is_file() and (report / "provenance.json").is_file()
    assert "Cuenca - Quito" in run.out and "datas per chica" in run.out  # the summary table


def test_presets_doc_table_matches_the_code() -> None:
    """docs/presets.md (linked from the README) prints every switch of every preset."""
    rows = re.findall(
        r"^\| (\w+) \| ([^|]+) \| ([^|]+) \| ([^|]+) \| ([^|]+) \|$", PRESETS_DOC, re.M
    )
    header, *body = rows
    assert list(header) == ["switch", *PRESETS]
    frame = pd.DataFrame([[c.strip() for c in r] for r in body]).set_index(0)
    assert list(frame.index) == list(SWITCHES)
    for j, name in enumerate(PRESETS, start=1):
        for switch in SWITCHES:
            assert frame.loc[switch, j] == _cell(getattr(PRESETS[name], switch)), (switch, name)


def _cell(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def test_ruff_check_is_clean() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "ruff", "check", "--no-cache", str(ROOT)],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr


PYTHON_TREES = [str(ROOT / d) for d in ("cuarenta_sim", "tests", "benchmarks")]


def test_ruff_format_is_clean() -> None:
    proc = subprocess.run(
        # The Python sources (notebooks and Markdown code blocks are prose, formatted by hand).
        [sys.executable, "-m", "ruff", "format", "--check", "--no-cache", *PYTHON_TREES],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr


LINK = re.compile(r"\]\(([^)#\s]+)(#[^)\s]*)?\)")


def test_readme_is_short_and_every_relative_link_resolves() -> None:
    """The README reads in five minutes; its links and those of docs/ point at real files."""
    assert len(README.splitlines()) <= 120, "README.md: keep reference material in docs/"
    broken = []
    for doc in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]:
        for target, _ in LINK.findall(doc.read_text(encoding="utf-8")):
            if "://" in target:
                continue
            if not (doc.parent / target).exists():
                broken.append(f"{doc.relative_to(ROOT)} -> {target}")
    assert not broken, broken
