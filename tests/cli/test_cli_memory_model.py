"""The memory model (issue 20, failure 2): a run that cannot fit is refused before it starts,
with the largest --n that fits and the counters-only alternative."""

from __future__ import annotations

import re

import pytest

from cuarenta_sim import memory
from cuarenta_sim.memory import (
    BYTES_PER_UNIT,
    OUTPUTS,
    InsufficientMemoryError,
    check_memory,
    largest_n,
    predict_peak,
)
from cuarenta_sim.simulation import aggregate, check_simulation

#: The machine of the issue's reproduction: 23.5 GiB available.
AVAILABLE = int(23.5 * 2**30)


@pytest.fixture
def machine(monkeypatch: pytest.MonkeyPatch) -> int:
    """Pretend :data:`AVAILABLE` bytes are available (the issue's machine)."""
    monkeypatch.setattr(memory, "available_memory", lambda: (AVAILABLE, "MemAvailable"))
    return AVAILABLE


def test_350_million_datas_are_refused_with_the_n_that_fits(machine: int) -> None:
    """The old check (64 bytes per data against physical memory) accepted n=350,000,000
    datas, about 54 GB at the measured peak; now refused with the largest n that fits."""
    with pytest.raises(InsufficientMemoryError) as info:
        check_simulation(n=350_000_000)
    err = info.value
    assert isinstance(err, ValueError) and isinstance(err, MemoryError)
    message = str(err)
    assert "\n" not in message
    fits = largest_n("cuarenta", "data", 2, machine)
    assert f"the largest --n that fits is {fits:,}" in message
    assert "--aggregates-only" in message and "aggregate()" in message
    assert "23.5 GiB is available (MemAvailable)" in message
    # The suggestion is tight: it fits, one more does not.
    assert predict_peak("cuarenta", "data", 2, fits) * memory.HEADROOM <= machine
    assert predict_peak("cuarenta", "data", 2, fits + 1) * memory.HEADROOM > machine
    assert 50_000_000 < fits < 200_000_000
    check_simulation(n=fits)  # accepted


def test_counters_only_and_small_runs_are_accepted(machine: int) -> None:
    """--aggregates-only holds one chunk at a time: 350 million datas fit."""
    run = check_simulation(n=350_000_000, aggregates=True)
    assert run.mode == "aggregates"
    check_simulation(n=1_000_000, level="chica")


def test_parquet_output_is_checked_on_the_command_line(run_cli, machine: int) -> None:
    """--out converts the records to Arrow: a size that fits in memory may not fit with it."""
    records = largest_n("cuatrola", "hand", 4, machine, "records")
    parquet = largest_n("cuatrola", "hand", 4, machine, "parquet")
    assert parquet < records
    n = (parquet + records) // 2
    check_simulation("cuatrola", n=n)  # fits with the records kept
    out = "/tmp/never-written.parquet"
    run = run_cli("simulate", "--game", "cuatrola", "--n", str(n), "--out", out)
    run.assert_bad_input()
    assert "written by --out" in run.err and f"is {parquet:,}" in run.err
    assert "--aggregates-only" in run.err


def test_refusal_on_the_command_line_is_one_line_exit_2(run_cli, machine: int) -> None:
    run = run_cli("simulate", "--n", "350000000")
    run.assert_bad_input()
    assert re.search(r"the largest --n that fits is [\d,]+; or keep counters only", run.err)
    assert "--aggregates-only" in run.err
    assert run.out == ""


@pytest.mark.parametrize("key", sorted(BYTES_PER_UNIT))
@pytest.mark.parametrize("output", OUTPUTS)
def test_prediction_is_monotone_in_n(key: tuple[str, str, int], output: str) -> None:
    game, level, players = key
    sizes = [0, 1, 10, 1_000, 10**6, 10**8, 10**10, 2**63]
    peaks = [predict_peak(game, level, players, n, output, chunk=4096) for n in sizes]
    assert peaks == sorted(peaks)
    if output != "aggregates":
        assert peaks[-1] > peaks[0]


def test_fallback_for_unmeasured_configurations() -> None:
    """A level the benchmark did not measure uses the game's declared record size."""
    base, slope = memory.coefficients("other", "deal", 3, "records", fallback_unit=100.0)
    assert slope == 100.0 and base == memory.BASE_BYTES["cuarenta"]
    with pytest.raises(ValueError, match="accepted: records, parquet, aggregates"):
        memory.coefficients("cuarenta", "data", 2, "csv")


def test_unknown_available_memory_skips_the_check(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(memory, "available_memory", lambda: None)
    run = check_simulation(n=10**11)
    assert check_memory(run.game, run.spec, run.n) > 10**13


def test_available_memory_reads_meminfo() -> None:
    got = memory.available_memory()
    assert got is not None and got[0] > 0 and got[1] in ("MemAvailable", "physical memory")


def test_aggregate_api_refuses_with_memory_error(monkeypatch: pytest.MonkeyPatch) -> None:
    """The Python API raises the same refusal (a MemoryError subclass) before any work."""
    monkeypatch.setattr(memory, "available_memory", lambda: (2**20, "MemAvailable"))
    with pytest.raises(MemoryError, match="no --n fits in that memory"):
        aggregate(n=10)
