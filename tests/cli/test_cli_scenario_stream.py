"""``scenario`` streams (issue 20, failure 5): each result is printed as soon as its line is
read, an interrupt keeps every line printed, whole, and a single multi-line object still works."""

from __future__ import annotations

import io
import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from cuarenta_sim.scenario import iter_results

ROOT = Path(__file__).resolve().parents[2]
PLAY = {"kind": "play", "rules": "quito", "table": ["5", "K"], "card": "5"}


def _readline(stream: io.TextIOBase, timeout: float) -> str:
    """One line of ``stream`` within ``timeout`` seconds (fails the test otherwise)."""
    box: list[str] = []
    reader = threading.Thread(target=lambda: box.append(stream.readline()), daemon=True)
    reader.start()
    reader.join(timeout)
    assert box, f"no output line within {timeout} s: the command does not stream"
    return box[0]


def test_first_result_before_input_ends_and_sigint_keeps_whole_lines() -> None:
    """A pipe whose writer stays open gets its first results before the input is finished;
    SIGINT then exits 130 with one line on stderr, and every stdout line is whole JSON."""
    with subprocess.Popen(
        [sys.executable, "-m", "cuarenta_sim", "scenario", "-"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    ) as proc:
        assert proc.stdin is not None and proc.stdout is not None and proc.stderr is not None
        try:
            line = json.dumps(PLAY) + "\n"
            proc.stdin.write(line)
            proc.stdin.flush()
            first = _readline(proc.stdout, timeout=120)
            assert json.loads(first)["options"] == [[], ["5"]]
            # A long input, still not finished when the interrupt comes.
            proc.stdin.write(line * 300)
            proc.stdin.flush()
            second = _readline(proc.stdout, timeout=60)
            assert json.loads(second)["options"] == [[], ["5"]]
            time.sleep(0.5)
            proc.send_signal(signal.SIGINT)
            code = proc.wait(timeout=60)
            rest = proc.stdout.read()
            err = proc.stderr.read()
        finally:
            if proc.poll() is None:
                proc.kill()
    assert code == 130, (code, err)
    lines = [first, second, *rest.splitlines(keepends=True)]
    assert all(ln.endswith("\n") for ln in lines), "a line was cut short"
    results = [json.loads(ln) for ln in lines]
    assert 2 <= len(results) <= 301
    assert all(r["options"] == [[], ["5"]] for r in results)
    (message,) = err.splitlines()
    assert message == (
        f"cuarenta-sim: error: interrupted after {len(results):,} result line(s); every line "
        "printed is whole, the scenarios after them were not evaluated"
    )


def test_results_are_evaluated_lazily() -> None:
    """The second line is not read before the first result is taken (a generator over the
    lines), and a broken line does not stop the ones after it."""
    read: list[int] = []

    def lines():
        for i, text in enumerate([json.dumps(PLAY), "{oops", json.dumps(PLAY)]):
            read.append(i)
            yield text + "\n"

    results = iter_results(lines())
    assert read == []
    assert "options" in next(results) and read == [0]
    assert "line 2 is not valid JSON" in next(results)["error"] and read == [0, 1]
    assert "options" in next(results) and read == [0, 1, 2]


def test_multiline_object_and_byte_order_mark(run_cli, tmp_path: Path) -> None:
    """One pretty-printed object (with a UTF-8 byte-order mark, as Windows editors write)
    gives one result line."""
    path = tmp_path / "one.json"
    path.write_bytes(b"\xef\xbb\xbf" + json.dumps(PLAY, indent=2).encode())
    run = run_cli("scenario", str(path))
    assert run.code == 0 and run.err == ""
    (line,) = run.out.splitlines()
    assert json.loads(line)["options"] == [[], ["5"]]


def test_progress_only_on_a_terminal(run_cli, monkeypatch: pytest.MonkeyPatch) -> None:
    """Nothing on a stderr that is not a terminal; a tqdm counter on one."""
    text = json.dumps(PLAY) + "\n" + json.dumps(PLAY) + "\n"
    run = run_cli("scenario", "-", stdin=text)
    assert run.code == 0 and run.err == "" and len(run.out.splitlines()) == 2
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True, raising=False)
    run = run_cli("scenario", "-", stdin=text)
    assert run.code == 0 and len(run.out.splitlines()) == 2
    assert "scenario: " in run.err and "2 lines" in run.err
