"""Peak memory of ``cuarenta-sim simulate``, measured against the memory model's prediction.

Target ``memory`` of ``benchmarks/run.py``, from the repository root::

    python benchmarks/run.py memory            # every configuration below, about 10 min on 2 cores
    python benchmarks/run.py memory --quick    # Cuarenta level data only, 2 players
    python benchmarks/run.py memory --fit      # also print the coefficients fitted on this run
    python benchmarks/run.py memory --quick --scale 0.01   # smoke test (tests/benchmarks)

Each run is a subprocess ``python -m cuarenta_sim simulate --game G --level L --players P
--n N --seed 1 --threads 2 --no-progress`` (plus ``--out`` or ``--aggregates-only`` for those
output modes), waited for with ``os.wait4``, whose ``ru_maxrss`` is that child's peak resident
set size. For each run it prints the measured peak, the prediction of
:func:`cuarenta_sim.memory.predict_peak` (the coefficients committed in
:mod:`cuarenta_sim.memory`) and their ratio, and writes everything to
``benchmarks/results/memory.json`` atomically. Each measured run is appended to
``results/memory.partial.jsonl`` as it ends (:class:`benchcli.Journal`): a run cut short
keeps them and the same command resumes after them (the base runs are always measured).

Sizes are kept modest (the project machine is shared): every run peaks at a few hundred MB,
enough to measure the slopes. Per configuration (game, level, players, output):

* Cuarenta, level data: 500,000 and 2,000,000 datas (2 players; 4 players and ``--out`` at
  2,000,000 only); level chica: 100,000 and 400,000 chicas; level mesa: 30,000 and 120,000
  mesas; ``--aggregates-only`` at 2,000,000 datas;
* Cuatrola, level hand: 250,000 and 1,000,000 hands; level game: 10,000 and 40,000 games;
* the base of each game: 1,000 units at its hand level, run twice (the first run, not
  measured, loads or compiles the kernels: any source change recompiles them).

Do not edit the package while it runs (a changed source recompiles the kernels in the next
subprocess): run it from a clean checkout.

``--fit`` prints, per configuration, ``(peak - base) / n`` at the largest size (the slope;
the smaller size is then an out-of-fit check), the Parquet factor and the base, to paste into
:mod:`cuarenta_sim.memory`. Target (issue 20): predictions within 25% of the measured peaks
on at least 6 runs.
"""

from __future__ import annotations

import argparse
import datetime
import os
import platform
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from benchcli import Journal

from cuarenta_sim import __version__
from cuarenta_sim.io import write_json_atomic
from cuarenta_sim.memory import CALIBRATION, predict_peak
from cuarenta_sim.reports import text_table
from cuarenta_sim.simulation import check_simulation

MIB = 2**20
#: (game, level, players, output, sizes): the measured configurations.
CONFIGS: list[tuple[str, str, int, str, tuple[int, ...]]] = [
    ("cuarenta", "data", 2, "records", (500_000, 2_000_000)),
    ("cuarenta", "data", 4, "records", (2_000_000,)),
    ("cuarenta", "data", 2, "parquet", (2_000_000,)),
    ("cuarenta", "data", 2, "aggregates", (2_000_000,)),
    ("cuarenta", "chica", 2, "records", (100_000, 400_000)),
    ("cuarenta", "chica", 4, "records", (400_000,)),
    ("cuarenta", "chica", 2, "parquet", (400_000,)),
    ("cuarenta", "mesa", 2, "records", (30_000, 120_000)),
    ("cuarenta", "mesa", 4, "records", (120_000,)),
    ("cuarenta", "mesa", 2, "parquet", (120_000,)),
    ("cuatrola", "hand", 4, "records", (250_000, 1_000_000)),
    ("cuatrola", "hand", 4, "parquet", (1_000_000,)),
    ("cuatrola", "game", 4, "records", (10_000, 40_000)),
    ("cuatrola", "game", 4, "parquet", (40_000,)),
]
QUICK = [c for c in CONFIGS if c[:3] == ("cuarenta", "data", 2) and c[3] == "records"]
#: Units of each game's base run (its hand level).
BASE_N = 1_000


def measure(game: str, level: str, players: int, output: str, n: int) -> dict[str, Any]:
    """Run ``cuarenta-sim simulate`` once in a subprocess; its peak RSS and wall time.

    Raises
    ------
    RuntimeError
        When the run fails (its last stderr line).
    """
    with tempfile.TemporaryDirectory(prefix="memory-bench-") as tmp:
        args = [sys.executable, "-m", "cuarenta_sim", "simulate", "--game", game,
                "--level", level, "--players", str(players), "--n", str(n), "--seed", "1",
                "--threads", "2", "--no-progress"]  # fmt: skip
        if output == "parquet":
            args += ["--out", str(Path(tmp) / "records.parquet")]
        elif output == "aggregates":
            args += ["--aggregates-only"]
        t0 = time.perf_counter()
        with open(Path(tmp) / "stderr", "w+b") as err:
            proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=err)
            _, status, usage = os.wait4(proc.pid, 0)
            proc.returncode = os.waitstatus_to_exitcode(status)
            wall = time.perf_counter() - t0
            if proc.returncode != 0:
                err.seek(0)
                lines = err.read().decode(errors="replace").strip().splitlines()
                raise RuntimeError(f"{' '.join(args[2:])}: {lines[-1] if lines else 'failed'}")
    return {"peak_bytes": int(usage.ru_maxrss) * 1024, "wall_s": wall}


def options(parser: argparse.ArgumentParser) -> None:
    """Add the target's options (sizes) to ``parser``."""
    parser.add_argument("--quick", action="store_true", help="Cuarenta data, 2 players only")
    parser.add_argument("--fit", action="store_true", help="print fitted coefficients")
    parser.add_argument("--scale", type=float, default=1.0,
                        help="multiply every size (a smoke test: 0.01)")  # fmt: skip


def run(args: argparse.Namespace) -> int:
    """Measure, print the table and write ``args.out`` (see the module docstring)."""
    if not 0 < args.scale <= 10:
        args.error(f"--scale must be in (0, 10], got {args.scale}")
    configs = QUICK if args.quick else CONFIGS
    journal = Journal(args.out, fresh=args.fresh)

    base = {}
    for game in sorted({c[0] for c in configs}):
        hand = "data" if game == "cuarenta" else "hand"
        players = 2 if game == "cuarenta" else 4
        # Once unmeasured: a changed source recompiles every kernel (cuarenta_sim.numba_cache),
        # whose memory is not the run's.
        measure(game, hand, players, "records", BASE_N)
        base[game] = measure(game, hand, players, "records", BASE_N)["peak_bytes"]
        print(f"base {game}: {base[game] / MIB:.0f} MiB", flush=True)
    runs = []
    for game, level, players, output, sizes in configs:
        for n in (max(1, round(size * args.scale)) for size in sizes):
            identity = {"game": game, "level": level, "players": players, "output": output,
                        "n": n, "package_version": __version__}  # fmt: skip
            m = journal.row(identity, lambda: measure(game, level, players, output, n))  # noqa: B023
            chunk = check_simulation(game, level=level, players=players, n=n, seed=1,
                                     aggregates=output == "aggregates").chunk  # fmt: skip
            predicted = predict_peak(game, level, players, n, output, chunk)
            runs.append({"game": game, "level": level, "players": players, "output": output,
                         "n": n, "peak_bytes": m["peak_bytes"], "predicted_bytes": predicted,
                         "ratio": m["peak_bytes"] / predicted, "wall_s": m["wall_s"]})  # fmt: skip
            ratio = m["peak_bytes"] / predicted
            print(f"{game} {level} {players}p {output} n={n:,}: measured "
                  f"{m['peak_bytes'] / MIB:.0f} MiB, predicted {predicted / MIB:.0f} MiB, "
                  f"ratio {ratio:.2f} ({m['wall_s']:.1f} s)", flush=True)  # fmt: skip

    rows = [[r["game"], r["level"], r["players"], r["output"], f"{r['n']:,}",
             f"{r['peak_bytes'] / MIB:.0f}", f"{r['predicted_bytes'] / MIB:.0f}",
             f"{r['ratio']:.2f}"] for r in runs]  # fmt: skip
    print()
    print(text_table(["game", "level", "players", "output", "n", "measured MiB",
                      "predicted MiB", "measured / predicted"], rows))  # fmt: skip
    within = sum(abs(r["ratio"] - 1) <= 0.25 for r in runs)
    print(f"\nwithin 25% of the measured peak: {within} of {len(runs)} runs (target: >= 6)")
    fitted = _fit(runs, base)
    if args.fit:
        print("\nfitted (peak - base) / n at each configuration's largest size:")
        for key, value in fitted.items():
            print(f"  {key}: {value:,.1f}")
    write_json_atomic(args.out, {
        "benchmark": args.command,
        "package_version": __version__,
        "created": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
        "machine": {"platform": platform.platform(), "cpus": os.cpu_count()},
        "model_calibration": CALIBRATION,
        "base_bytes": base,
        "runs": runs,
        "within_25_percent": within,
        "fitted": fitted,
    })  # fmt: skip
    journal.finish()
    print(f"wrote {args.out}")
    return 0


def _fit(runs: list[dict[str, Any]], base: dict[str, int]) -> dict[str, float]:
    """Slope ``(peak - base) / n`` at the largest size of each (game, level, players, output),
    and the Parquet factor (parquet slope / records slope) per (game, level)."""
    slopes: dict[tuple[str, str, int, str], tuple[int, float]] = {}
    for r in runs:
        key = (r["game"], r["level"], r["players"], r["output"])
        slope = (r["peak_bytes"] - base[r["game"]]) / r["n"]
        if key not in slopes or r["n"] > slopes[key][0]:
            slopes[key] = (r["n"], slope)
    out = {"/".join(map(str, k)): s for k, (_, s) in slopes.items()}
    for (game, level, players, output), (_, s) in slopes.items():
        records = slopes.get((game, level, players, "records"))
        if output == "parquet" and records:
            out[f"{game}/{level}/parquet_factor"] = s / records[1]
    return out
