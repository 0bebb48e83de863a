"""Derive the thresholds of Cuatrola's ``threshold`` bidding policy from simulation.

Target ``cuatrola-thresholds`` of ``benchmarks/run.py``, from the repository root::

    python benchmarks/run.py cuatrola-thresholds                  # 250,000 hands per bid
    python benchmarks/run.py cuatrola-thresholds --n 100000       # quick look

It plays the forced-declarer experiment of ``cuarenta_sim.cuatrola.bidding`` (seat 0 bids
pass, solo, cuatrola and quintola on the same hands, the others pass), prints for every
``hand_strength`` the EV of passing and the paired gain of each contract over passing, and the
derived thresholds (``derive_thresholds``: the lowest strength from which on a contract's EV
beats passing and every lower contract), with the paired value of bidding by them against the
hand-set first guess ``FIRST_GUESS_THRESHOLDS``. The same numbers are in
``reports/cuatrola-bidding/`` (``cuarenta-sim report cuatrola-bidding`` with the same
``--n --seed --policies --rules``). Results: ``benchmarks/results/cuatrola_thresholds.json``
(the settings, the derived thresholds, the per-strength table and the comparison).
``python benchmarks/cuatrola_thresholds.py ...``, the command that report prints, is an alias
of the target.
"""

from __future__ import annotations

import argparse
import json
import shlex
import sys
import time
from typing import Any

from cuarenta_sim.cuatrola.bidding import (
    CONTRACT_BIDS,
    class_table,
    default_play_policy,
    derive_thresholds,
    run_bidding_experiment,
    threshold_comparison,
)
from cuarenta_sim.io import write_json_atomic
from cuarenta_sim.reports import text_table
from cuarenta_sim.studies import cell


def options(parser: argparse.ArgumentParser) -> None:
    """Add the target's options (sizes) to ``parser``."""
    parser.add_argument("--n", type=int, default=250_000, help="hands per bid")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--policy",
        default=None,
        help="Cuatrola play policy of every seat (default pimc if available, else greedy)",
    )
    parser.add_argument("--rules", default="ro", help="Cuatrola preset or slug")
    parser.add_argument("--threads", type=int, default=None)


def _records(frame: Any) -> list[dict[str, Any]]:
    """A frame as JSON records (categories as text)."""
    return json.loads(frame.to_json(orient="records"))


def run(args: argparse.Namespace) -> int:
    """Run the experiment, print the per-strength table and the derived thresholds, write
    ``args.out``; exit status 2 on bad settings (one line)."""
    policy = args.policy or default_play_policy()
    t0 = time.perf_counter()
    try:
        exp = run_bidding_experiment(
            args.n,
            seed=args.seed,
            play_policy=policy,
            rules=args.rules,
            threads=args.threads,
            progress=lambda m: print(m, file=sys.stderr),
        )
    except ValueError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    table = class_table(exp.outcomes, "strength")
    derived = derive_thresholds(table)
    rows = []
    for strength, sub in table.groupby("strength", observed=False):
        sub = sub.set_index("bid")
        n = int(sub["n"].iloc[0])
        if n == 0:
            rows.append([strength, 0, "-", "-", "-", "-"])
            continue
        ev = sub.loc["pass"]
        rows.append(
            [
                strength,
                f"{n:,}",
                cell(ev["ev"], ev["ev_lower"], ev["ev_upper"], bool(ev["defined"])),
                *(
                    cell(
                        sub.loc[b, "gain"],
                        sub.loc[b, "gain_lower"],
                        sub.loc[b, "gain_upper"],
                        bool(sub.loc[b, "defined"]),
                    )
                    for b in CONTRACT_BIDS
                ),
            ]
        )
    print(
        f"Cuatrola thresholds: {exp.n:,} hands per bid, seed {exp.seed}, {exp.play_policy} "
        f"play, rules {exp.rules}; EV normal, gains paired (95% intervals)"
    )
    print(
        text_table(
            ["strength", "hands", "EV pass", "solo - pass", "cuatrola - pass", "quintola - pass"],
            rows,
            right=(0, 1, 2, 3, 4, 5),
        )
    )
    comp = threshold_comparison(exp.outcomes, derived)
    print()
    print(
        text_table(
            ["thresholds", "EV per hand [interval]", "method", "verdict"],
            [
                [
                    r["label"],
                    cell(r["estimate"], r["lower"], r["upper"], r["defined"]),
                    r["method"],
                    r["verdict"],
                ]
                for _, r in comp.iterrows()
            ],
            right=(1,),
        )
    )
    command = shlex.join(
        [
            "python",
            "benchmarks/run.py",
            "cuatrola-thresholds",
            "--n",
            str(args.n),
            "--seed",
            str(args.seed),
            "--policy",
            exp.play_policy,
            "--rules",
            exp.rules,
        ]
    )
    print(f"\nderived thresholds: {derived.spec()}")
    print(f"DEFAULT_THRESHOLDS = ({derived.solo}, {derived.cuatrola}, {derived.quintola})")
    seconds = time.perf_counter() - t0
    print(f"source: {command} ({seconds:.1f} s)")
    write_json_atomic(
        args.out,
        {
            "command": command,
            "n": exp.n,
            "seed": exp.seed,
            "play_policy": exp.play_policy,
            "rules": exp.rules,
            "thresholds": derived._asdict(),
            "spec": derived.spec(),
            "by_strength": _records(table),
            "comparison": _records(comp),
            "seconds": seconds,
        },
    )
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    # The committed reports/cuatrola-bidding cites `python benchmarks/cuatrola_thresholds.py
    # ...` (its text comes from the package, cuatrola/bidding_study.py): a thin alias of
    # `python benchmarks/run.py cuatrola-thresholds ...`.
    from run import main

    sys.exit(main(["cuatrola-thresholds", *sys.argv[1:]]))
