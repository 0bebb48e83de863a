"""``cuarenta-sim simulate`` with --backend dask, --aggregates-only and --dataset."""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pandas as pd
import pytest

from cuarenta_sim import simulate
from cuarenta_sim.cli import main
from cuarenta_sim.results import read_dataset

ROOT = Path(__file__).resolve().parents[2]


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    capsys.readouterr()
    code = main(list(args))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def estimate_lines(out: str) -> list[str]:
    """The printed estimate rows (between the header and the throughput line)."""
    body = out.split("\nthroughput:")[0]
    return [line for line in body.splitlines()[1:] if line and not line.startswith("-")]


@pytest.mark.parametrize(
    "args,message",
    [
        (("--scheduler", "tcp://127.0.0.1:1"), "--scheduler needs --backend dask"),
        (("--workers", "2"), "--workers needs --backend dask"),
        (("--backend", "ray"), "unknown backend 'ray'; accepted: local, dask"),
        (
            ("--backend", "dask", "--scheduler", "tcp://127.0.0.1:1", "--workers", "2"),
            "the cluster at --scheduler has its own workers",
        ),
        (("--backend", "dask", "--workers", "0"), "--workers must be a positive whole number"),
        (("--chunk-size", "0"), "chunk_size must be a positive"),
        (("--aggregates-only", "--out", "x.parquet"), "records are not kept in memory"),
        (("--dataset", "d", "--out", "x.parquet"), "records are not kept in memory"),
    ],
)
def test_bad_scale_out_options(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    args: tuple[str, ...],
    message: str,
) -> None:
    monkeypatch.chdir(tmp_path)
    code, out, err = run(capsys, "simulate", "--n", "10", "--no-progress", *args)
    assert code == 2 and out == ""
    assert err.startswith("cuarenta-sim: error: ") and len(err.splitlines()) == 1, err
    assert message in err


def test_dataset_of_other_settings_is_refused(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    ds = str(tmp_path / "ds")
    base = ("simulate", "--n", "3000", "--chunk-size", "1000", "--no-progress", "--dataset", ds)
    assert run(capsys, *base)[0] == 0
    code, _, err = run(capsys, *base[:-2], "--seed", "1", "--dataset", ds)
    assert code == 2 and len(err.splitlines()) == 1
    assert "holds a run with different settings (root:" in err and "seed: 0 there, 1 now" in err
    (tmp_path / "file").write_text("x")
    code, _, err = run(capsys, *base[:-1], str(tmp_path / "file"))
    assert code == 2 and "already exists and is not a directory" in err


def test_aggregates_only_prints_the_record_path_estimates(
    capsys: pytest.CaptureFixture[str],
) -> None:
    args = ("simulate", "--n", "20000", "--level", "chica", "--seed", "2", "--no-progress")
    code, records, _ = run(capsys, *args)
    assert code == 0
    code, counts, _ = run(capsys, *args, "--aggregates-only", "--chunk-size", "3000")
    assert code == 0
    assert estimate_lines(counts) == estimate_lines(records)
    assert "chunks: 7 of 3,000 chicas, 7 computed, 0 reused, counters only" in counts


def test_dask_cli_dataset_and_resume(
    capsys: pytest.CaptureFixture[str], dask_client: Any, tmp_path: Path
) -> None:
    ds = tmp_path / "ds"
    args = ("simulate", "--n", "30000", "--seed", "7", "--chunk-size", "4000", "--no-progress",
            "--backend", "dask", "--scheduler", dask_client.scheduler.address,
            "--dataset", str(ds))  # fmt: skip
    code, out, err = run(capsys, *args)
    assert code == 0, err
    assert "8 computed, 0 reused" in out and "2 Dask worker(s)" in out
    local_out = run(capsys, "simulate", "--n", "30000", "--seed", "7", "--no-progress")[1]
    assert estimate_lines(out) == estimate_lines(local_out)
    for marker in sorted(ds.glob("part-*.done.json"))[:2]:
        marker.unlink()
    code, again, _ = run(capsys, *args)
    assert code == 0 and "2 computed, 6 reused" in again
    assert estimate_lines(again) == estimate_lines(out)


def restore_sigint() -> None:
    """Default SIGINT in the child (a background shell job would ignore it; see
    tests/cli/test_cli_simulate.py)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


@pytest.mark.slow
def test_ctrl_c_then_rerun_finishes_the_dataset(tmp_path: Path) -> None:
    """A real interruption: SIGINT to the command while a local Dask cluster runs its chunks,
    then the same command again completes only what is missing."""
    ds = tmp_path / "ds"
    cmd = [sys.executable, "-m", "cuarenta_sim", "simulate", "--n", "3000000", "--seed", "5",
           "--chunk-size", "100000", "--no-progress", "--backend", "dask", "--workers", "2",
           "--dataset", str(ds)]  # fmt: skip
    proc = subprocess.Popen(
        cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, preexec_fn=restore_sigint
    )
    deadline = time.monotonic() + 240
    while time.monotonic() < deadline and len(list(ds.glob("part-*.done.json"))) < 3:
        time.sleep(0.05)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == 130, err
    partial = len(list(ds.glob("part-*.done.json")))
    assert 3 <= partial < 30
    done = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    assert f"{30 - partial} computed, {partial} reused" in done.stdout
    expected = simulate(n=3_000_000, seed=5)
    pd.testing.assert_frame_equal(read_dataset(ds).hands, expected.hands)
    assert not list(ds.glob(".*.tmp"))
