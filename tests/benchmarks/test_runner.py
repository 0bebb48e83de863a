"""benchmarks/run.py: named targets, one results file each, partial records that survive a
kill and resume."""

from __future__ import annotations

import importlib
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"


@pytest.fixture
def bench(monkeypatch: pytest.MonkeyPatch):
    """The runner module (``benchmarks/`` on ``sys.path``, as when the script runs)."""
    monkeypatch.syspath_prepend(str(BENCHMARKS))
    return importlib.import_module("run")


def test_list_names_every_target_on_one_line_with_its_figures(run_target, bench) -> None:
    proc = subprocess.run(
        [sys.executable, str(BENCHMARKS / "run.py"), "--list"],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    for t in bench.TARGETS:
        (line,) = [x for x in lines if x.split(" ", 1)[0] == t.name]
        assert t.summary in line and (not t.figures or t.figures in line)
    for name in ("throughput", "policies-sweep", "policies-speed", "policies-ranking",
                 "learned", "solver", "solve-vs-brute-force", "tournament", "dask-scaling",
                 "cuatrola-throughput", "cuatrola-thresholds", "memory", "rl-envs",
                 "rl-batched", "openspiel-opponents", "reports"):  # fmt: skip
        assert name in bench.BY_NAME


def test_one_results_file_per_target_and_no_section_flags(bench) -> None:
    """Every target writes its own file, results/<target with '_'>.json; every module has
    the two functions the runner calls; no target takes a one-section flag."""
    outs = [t.out for t in bench.TARGETS]
    assert len(set(outs)) == len(outs)
    for t in bench.TARGETS:
        assert t.out == BENCHMARKS / "results" / (t.name.replace("-", "_") + ".json")
        if t.forward:
            continue
        parser, run = bench.target_parser(t)
        assert callable(run)
        flags = {a for action in parser._actions for a in action.option_strings}
        assert not {f for f in flags if f.endswith("-only")}, (t.name, flags)
        assert "--out" in flags and ("--fresh" in flags) == t.resumable
    # The committed results: one file per target, nothing else at the top level but the
    # sweep's figure and the heuristic tuning log (README, "Results files").
    top = {p.name for p in (BENCHMARKS / "results").iterdir() if p.is_file()}
    extra = top - {t.out.name for t in bench.TARGETS}
    assert extra <= {"policies_sweep.png", "tune_heuristic.txt"}, extra
    assert not {p for p in top if p.endswith(".partial.jsonl")}


def test_journal_keeps_whole_lines_and_drops_a_torn_one(tmp_path: Path, bench) -> None:
    from benchcli import Journal, partial_path, read_journal

    out = tmp_path / "t.json"
    j = Journal(out)
    calls = []

    def measure(x: int):
        calls.append(x)
        return {"x": x}

    assert j.row({"i": 1}, lambda: measure(1)) == {"x": 1}
    assert j.row({"i": 2}, lambda: measure(2)) == {"x": 2}
    path = partial_path(out)
    assert path == tmp_path / "t.partial.jsonl"
    assert [json.loads(line)["row"] for line in path.read_text().splitlines()] == [
        {"x": 1},
        {"x": 2},
    ]
    with path.open("a") as fh:  # a kill during a write
        fh.write('{"key": "{\\"i\\": 3}", "ro')
    again = Journal(out)
    assert again.row({"i": 1}, lambda: measure(99)) == {"x": 1} and again.reused == 1
    assert again.row({"i": 3}, lambda: measure(3)) == {"x": 3}
    assert calls == [1, 2, 3]
    assert len(read_journal(path)) == 3 and path.read_text().endswith("\n")
    path.write_text('{"key": "a", "row": 1}\nnot json\n{"key": "b", "row": 2}\n')
    with pytest.raises(ValueError, match=r"t.partial.jsonl:2: not a record"):
        Journal(out)
    assert Journal(out, fresh=True).held == {} and not path.exists()
    again.finish()
    assert not path.exists()


def test_a_killed_run_keeps_its_rows_and_the_rerun_resumes(tmp_path: Path) -> None:
    """Fault test: SIGKILL a long target mid-run. The rows it finished are in the partial
    file as whole JSON lines; the same command then measures only the rest, and the results
    file holds every row, the killed run's unchanged."""
    out = tmp_path / "svb.json"
    partial = tmp_path / "svb.partial.jsonl"
    argv = [sys.executable, str(BENCHMARKS / "run.py"), "solve-vs-brute-force",
            "--positions", "48", "--out", str(out)]  # fmt: skip
    env = {**os.environ, "PYTHONPATH": str(BENCHMARKS.parent)}
    log = tmp_path / "stderr.txt"
    with log.open("wb") as err:
        proc = subprocess.Popen(argv, env=env, stdout=subprocess.DEVNULL, stderr=err)
    try:
        deadline = time.monotonic() + 600
        while not (partial.exists() and partial.read_text().count("\n") >= 1):
            assert proc.poll() is None, log.read_text()
            assert time.monotonic() < deadline, "no row measured in 10 minutes"
            time.sleep(0.05)
        assert proc.poll() is None, "the run ended before it could be killed"
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == -signal.SIGKILL
    assert not out.exists()
    text = partial.read_text()
    lines = text.splitlines()
    if not text.endswith("\n"):  # killed during a write: only the last line may be torn
        lines = lines[:-1]
    kept = [json.loads(line) for line in lines]  # every kept line is whole JSON
    assert 1 <= len(kept) < 8
    assert all(set(rec) == {"key", "row"} and rec["row"]["positions"] == 6 for rec in kept)
    done = subprocess.run(argv, env=env, capture_output=True, text=True, timeout=900, check=False)
    assert done.returncode == 0, done.stderr
    rows = json.loads(out.read_text())["rows"]
    assert len(rows) == 8 and sum(r["positions"] for r in rows) == 48
    by_setup = {(r["preset"], r["players"]): r for r in rows}
    for rec in kept:  # read back, not measured again: the killed run's seconds
        row = rec["row"]
        assert by_setup[(row["preset"], row["players"])]["seconds"] == row["seconds"]
    assert not partial.exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["stderr.txt", "svb.json"]
