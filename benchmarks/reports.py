"""Regenerate the committed rule reports with their default commands, and time each one.

One command regenerates the six committed reports, ``reports/quito-vs-cuenca``,
``reports/sensitivity``, ``reports/odds`` (the player panels' defaults:
``learned;heuristic;greedy`` with a ``solver`` confirmation), ``reports/strategies``,
``reports/players-guide`` and ``reports/cuatrola-bidding``, and records the wall time,
the CPU time of the child process and its share of the 2 cores, so a wall time measured on
a shared machine can be read against an idle one::

    python benchmarks/reports.py                        # all six, into reports/
    python benchmarks/reports.py --only odds --out /tmp/r --extra --n 20000 --extra --confirm
                                                        # (--extra: passed on to every command)

Target (issue 13): each default report regenerates in under 10 minutes on 2 cores.
Results: ``benchmarks/results/reports.json`` (``--results``) and a Markdown table on stdout
for ``benchmarks/README.md`` (section *Reports*).
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import resource
import shlex
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

#: The default command of each committed rule report (``cuarenta-sim report NAME``), in the
#: order they are regenerated. Nothing but the report's name: every size is the default.
COMMANDS: dict[str, list[str]] = {
    "quito-vs-cuenca": ["report", "quito-vs-cuenca"],
    "sensitivity": ["report", "sensitivity"],
    "odds": ["report", "odds"],
    "strategies": ["report", "strategies"],
    "players-guide": ["report", "players-guide"],
    "cuatrola-bidding": ["report", "cuatrola-bidding"],
}
#: Target wall time of one default report on 2 cores, seconds.
TARGET_S = 600.0


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run_one(name: str, out: Path, extra: list[str]) -> dict[str, object]:
    """Run one report's default command as a child process and time it.

    Parameters
    ----------
    name : str
        A key of :data:`COMMANDS`.
    out : Path
        ``--out`` of the command (the report goes to ``out / name``, replacing it: the
        command gets ``--force``).
    extra : list of str
        Arguments appended to the command (e.g. smaller sizes for a smoke test).

    Returns
    -------
    dict
        ``report``, ``command`` (as a user would type it), ``wall_s``, ``cpu_s`` (user +
        system of the child), ``cpu_share`` (cpu / wall / 2 cores), ``returncode``,
        ``target_s`` and ``status`` (``pass`` / ``FAIL`` against :data:`TARGET_S`).

    Raises
    ------
    RuntimeError
        If the command fails (its stderr tail in the message).
    """
    # --force: the committed report folders exist and are replaced (swapped in as one).
    args = [*COMMANDS[name], "--out", str(out), "--force", "--no-progress", *extra]
    cpu0 = _children_cpu()
    t0 = time.perf_counter()
    proc = subprocess.run(
        [sys.executable, "-m", "cuarenta_sim", *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )
    wall = time.perf_counter() - t0
    cpu = _children_cpu() - cpu0
    if proc.returncode != 0:
        raise RuntimeError(f"{name} failed ({proc.returncode}): {proc.stderr[-2000:]}")
    return {
        "report": name,
        "command": "cuarenta-sim " + shlex.join([*COMMANDS[name], *extra]),
        "wall_s": round(wall, 1),
        "cpu_s": round(cpu, 1),
        "cpu_share": round(cpu / wall / 2.0, 2) if wall > 0 else None,
        "returncode": proc.returncode,
        "target_s": TARGET_S,
        "status": "pass" if wall <= TARGET_S else "FAIL",
        "summary_head": proc.stdout.split("\n\n")[0],
    }


def markdown(rows: list[dict[str, object]]) -> str:
    """The table of ``benchmarks/README.md`` (section *Reports*)."""
    lines = [
        "| report | default command | wall time | CPU time | CPU share of 2 cores | "
        "target < 10 min |",
        "|---|---|---:|---:|---:|---|",
    ]
    for r in rows:
        lines.append(
            f"| {r['report']} | `{r['command']}` | {r['wall_s']} s | {r['cpu_s']} s | "
            f"{100 * float(r['cpu_share'] or 0):.0f}% | {r['status']} |"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    """Command line: see the module docstring."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=ROOT / "reports")
    parser.add_argument("--only", choices=list(COMMANDS), action="append")
    parser.add_argument(
        "--extra",
        action="append",
        default=[],
        help="argument passed on to every report command (repeat)",
    )
    parser.add_argument("--results", type=Path, default=ROOT / "benchmarks/results/reports.json")
    args = parser.parse_args(argv)
    names = args.only or list(COMMANDS)
    rows = []
    for name in names:
        print(f"regenerating {name} ...", flush=True)
        row = run_one(name, args.out, args.extra)
        print(f"  {row['wall_s']} s wall, {row['cpu_s']} s CPU ({row['status']})", flush=True)
        rows.append(row)
    now = datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds")
    for row in rows:
        row["created"] = now
        row["load_average_1m_at_end"] = round(os.getloadavg()[0], 2)
    # --only keeps the other reports' earlier rows: the file always holds the latest timing
    # of each report.
    kept = []
    if args.results.is_file():
        kept = [
            r
            for r in json.loads(args.results.read_text()).get("reports", [])
            if r["report"] not in names
        ]
    order = list(COMMANDS)
    merged = sorted(kept + rows, key=lambda r: order.index(r["report"]))
    record = {"cpu_count": os.cpu_count(), "reports": merged}
    args.results.parent.mkdir(parents=True, exist_ok=True)
    args.results.write_text(json.dumps(record, indent=2) + "\n")
    print(markdown(merged))
    print(f"wrote {args.results}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
