"""The ``advise`` scenario (issue 21 item 1): its latency, and its exact cases against ``solve``.

Two targets of ``benchmarks/run.py``:

* ``advise-latency``: wall time of one ``advise`` scenario (:func:`cuarenta_sim.scenario.evaluate`,
  parsing included) at the default samples, for 2-player positions in the middle of a data
  (deals 2 and 3 of 4, a random turn, random scores; Quito), after one warm-up call that
  compiles the kernels. Issue 21's target: p95 under 500 ms, aim 100 ms.
  ``python benchmarks/run.py advise-latency [--positions 300] [--seed 23]``.
* ``advise-vs-solve``: on random positions of the last deal with 2 players (every preset, a
  random turn), ``advise`` from the seat to move must be exact and give ``solve``'s values
  (the scenario with every hand known, built from the same data independently). Issue 21's
  target: 0 differences in 10,000 positions.
  ``python benchmarks/run.py advise-vs-solve [--positions 10000] [--seed 19]``; one row per
  preset, resumable (:class:`benchcli.Journal`); exit status 1 on any difference.
"""

from __future__ import annotations

import argparse
import time
from typing import Any

import numpy as np
from benchcli import Journal

from cuarenta_sim import __version__
from cuarenta_sim.cuarenta.advise import DEFAULT_SAMPLES
from cuarenta_sim.cuarenta.reference.advice import advise_scenario_json
from cuarenta_sim.cuarenta.reference.positions import random_advice_position, random_position
from cuarenta_sim.cuarenta.reference.solver import solve_scenario
from cuarenta_sim.cuarenta.rules import PRESETS
from cuarenta_sim.io import write_json_atomic
from cuarenta_sim.scenario import evaluate

#: Issue 21's bounds on the p95 latency, in milliseconds.
LATENCY_MUST_MS, LATENCY_AIM_MS = 500.0, 100.0


def latency_options(parser: argparse.ArgumentParser) -> None:
    """Add ``advise-latency``'s options (sizes) to ``parser``."""
    parser.add_argument("--positions", type=int, default=300, help="positions timed")
    parser.add_argument("--seed", type=int, default=23)
    parser.add_argument("--preset", default="quito", choices=list(PRESETS))


def run_latency(args: argparse.Namespace) -> int:
    """Time ``--positions`` mid-data 2-player advise scenarios; print and write the
    percentiles; exit status 1 when the p95 is over :data:`LATENCY_MUST_MS`."""
    if args.positions < 1:
        args.error("--positions must be at least 1")
    scenarios = [
        advise_scenario_json(random_advice_position(args.preset, 2, args.seed, i, deal=1 + i % 2))
        for i in range(args.positions)
    ]
    evaluate(scenarios[0])  # compile (or load) the kernels
    times, legal = [], []
    for scenario in scenarios:
        start = time.perf_counter()
        out = evaluate(scenario)
        times.append(1000 * (time.perf_counter() - start))
        if "error" in out or out["exact"]:
            args.error(f"not a sampled advise position: {out}")
        legal.append(len(out["values"]))
    ms = np.array(times)
    row = {
        "preset": args.preset,
        "players": 2,
        "deals": [2, 3],
        "samples": DEFAULT_SAMPLES,
        "positions": args.positions,
        "legal_plays_mean": float(np.mean(legal)),
        "p50_ms": float(np.percentile(ms, 50)),
        "p95_ms": float(np.percentile(ms, 95)),
        "max_ms": float(ms.max()),
        "mean_ms": float(ms.mean()),
        "must_p95_ms": LATENCY_MUST_MS,
        "aim_p95_ms": LATENCY_AIM_MS,
    }
    verdict = (
        "meets the aim"
        if row["p95_ms"] < LATENCY_AIM_MS
        else ("meets the bound" if row["p95_ms"] < LATENCY_MUST_MS else "MISSES the bound")
    )
    print(
        f"advise, 2 players, mid-data, {DEFAULT_SAMPLES} samples, {args.positions:,} positions: "
        f"p50 {row['p50_ms']:.1f} ms, p95 {row['p95_ms']:.1f} ms, max {row['max_ms']:.1f} ms "
        f"({verdict}: must < {LATENCY_MUST_MS:.0f}, aim < {LATENCY_AIM_MS:.0f}); "
        f"command: {args.command}"
    )
    write_json_atomic(args.out, {"seed": args.seed, "command": args.command,
                                 "package_version": __version__, **row})  # fmt: skip
    return 0 if row["p95_ms"] < LATENCY_MUST_MS else 1


def difference(preset: str, seed: int, index: int) -> str | None:
    """None when ``advise`` agrees with ``solve`` at the position, else what differed."""
    advice = evaluate(advise_scenario_json(random_advice_position(preset, 2, seed, index)))
    solved = evaluate(solve_scenario(random_position(preset, 2, seed, index)))
    if "error" in advice or "error" in solved:
        return f"error: advise {advice.get('error')}, solve {solved.get('error')}"
    if not advice["exact"]:
        return "advise is not exact in the last deal with 2 players"
    got = [(v["card"], v["base"], v["value"], v["lower"], v["upper"]) for v in advice["values"]]
    want = [(v["card"], v["base"], v["value"], v["value"], v["value"]) for v in solved["values"]]
    if got != want or advice["best"] != solved["best"]:
        return f"advise {got} != solve {want}"
    return None


def check_row(preset: str, per: int, seed: int) -> dict[str, Any]:
    """Compare ``per`` positions of one preset; the row with its differences (``bad``)."""
    start = time.perf_counter()
    bad = []
    for i in range(per):
        what = difference(preset, seed, i)
        if what is not None:
            bad.append({"preset": preset, "index": i, "what": what})
    return {
        "preset": preset,
        "players": 2,
        "positions": per,
        "differences": len(bad),
        "seconds": time.perf_counter() - start,
        "bad": bad,
    }


def equal_options(parser: argparse.ArgumentParser) -> None:
    """Add ``advise-vs-solve``'s options (sizes) to ``parser``."""
    parser.add_argument(
        "--positions", type=int, default=10_000, help="positions, split over the presets"
    )
    parser.add_argument("--seed", type=int, default=19)


def run_equal(args: argparse.Namespace) -> int:
    """Compare, print, write ``args.out``; exit status 1 on any difference."""
    if args.positions < len(PRESETS):
        args.error(f"--positions must be at least {len(PRESETS)}")
    per = args.positions // len(PRESETS)
    journal = Journal(args.out, fresh=args.fresh)
    rows, bad, t0 = [], [], time.perf_counter()
    for preset in PRESETS:
        identity = {"preset": preset, "players": 2, "positions": per, "seed": args.seed,
                    "package_version": __version__}  # fmt: skip
        row = dict(journal.row(identity, lambda: check_row(preset, per, args.seed)))  # noqa: B023
        bad += row.pop("bad")
        rows.append(row)
        print(
            f"{preset:13s} 2p: {per:,} last-deal positions, {row['differences']} differences "
            f"({row['seconds']:.0f} s)",
            flush=True,
        )
    total = per * len(rows)
    wrong = sum(r["differences"] for r in rows)
    print(
        f"total: advise equals solve on {total - wrong:,} of {total:,} positions "
        f"({wrong} differences), {time.perf_counter() - t0:.0f} s; command: {args.command}"
    )
    write_json_atomic(args.out, {"seed": args.seed, "command": args.command, "rows": rows,
                                 "differences": bad, "positions": total})  # fmt: skip
    journal.finish()
    return 1 if wrong else 0
