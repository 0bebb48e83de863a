"""Strength against cost: pimc and solver at 4 to 128 samples against the heuristic.

Target ``policies-sweep`` of ``benchmarks/run.py`` (issue 12 item 5), from the repository root::

    python benchmarks/run.py policies-sweep --datas 100 --repeats 1 --sweep-chicas 400
    # the committed run: results/policies_sweep.json and results/policies_sweep.png

For ``pimc`` and ``solver`` at each of :data:`SWEEP_SAMPLES`: the decisions per second
(:func:`policies.decisions_per_s`: seat 0 against ``greedy``, level data, 2 players, Quito,
``--datas`` datas, best of ``--repeats``, with the CPU share and the CPU-adjusted rate) and the
duplicate chica win rate against ``heuristic`` over ``--sweep-chicas`` duplicate chica indices
(each played twice, seats swapped, same seed:
:func:`cuarenta_sim.cuarenta.duplicate.play_duplicate`), with its clustered Wilson interval
over duplicate pairs (:func:`cuarenta_sim.tournament.match_summary`), drawn against the
CPU-adjusted decisions per second in ``--figure`` (default: the results file with ``.png``,
``results/policies_sweep.png``, written atomically like the JSON). Each point is appended to
``results/policies_sweep.partial.jsonl`` as it is measured (:class:`benchcli.Journal`), so a
run cut short keeps its points and the same command resumes after them.

``reports/strategies`` reads a copy of the JSON shipped as package data
(``cuarenta_sim/cuarenta/data/policies_sweep.json``; a test checks both are equal): copy the
file there after rerunning the sweep. Benchmarks on a shared machine are noisy: give the
command with the figures.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

from benchcli import Journal
from policies import decisions_per_s, header

from cuarenta_sim import __version__
from cuarenta_sim.cuarenta.policies import parse_policy
from cuarenta_sim.io import atomic_path, write_json_atomic
from cuarenta_sim.reports import text_table

#: Samples of the pimc / solver sweep.
SWEEP_SAMPLES = (4, 8, 16, 32, 64, 128)
#: Policies of the sweep and the opponent of its strength runs.
SWEEP_POLICIES = ("pimc", "solver")
SWEEP_OPPONENT = "heuristic"


def sweep_strength(
    policy: str, pairs: int, seed: int, threads: int, opponent: str = SWEEP_OPPONENT
) -> dict[str, Any]:
    """Duplicate chica win rate of ``policy`` against ``opponent`` (module docstring).

    Parameters
    ----------
    policy, opponent : str
        Policy specs.
    pairs : int
        Duplicate chica indices (each played twice, seats swapped), > 0.
    seed : int
        Seed of both seatings.
    threads : int
        numba threads.

    Returns
    -------
    dict
        ``policy``, ``opponent`` (canonical specs), ``pairs``, ``chicas`` (``2 * pairs``),
        ``win_rate``, ``lower``, ``upper`` (clustered Wilson over duplicate pairs, 95%),
        ``points_per_data`` with ``ppd_lower`` / ``ppd_upper`` (ratio interval), ``method``,
        ``seconds``.
    """
    from cuarenta_sim.cuarenta.duplicate import play_duplicate
    from cuarenta_sim.tournament import match_summary

    t0 = time.perf_counter()
    frame = play_duplicate(policy, opponent, level="chica", n=pairs, seed=seed, threads=threads)
    s = match_summary(frame, 0.95)
    return {
        "policy": parse_policy(policy).canonical,
        "opponent": parse_policy(opponent).canonical,
        "pairs": pairs,
        "chicas": s["games"],
        "win_rate": s["win_rate"],
        "lower": s["lower"],
        "upper": s["upper"],
        "points_per_data": s["points_per_data"],
        "ppd_lower": s["ppd_lower"],
        "ppd_upper": s["ppd_upper"],
        "method": "clustered wilson over duplicate pairs (95%)",
        "seconds": time.perf_counter() - t0,
    }


def draw_sweep(points: list[dict[str, Any]], path: Path) -> None:
    """Draw strength (win rate against the heuristic, 95% interval) against decisions per
    second (CPU-adjusted: per CPU-second times the threads), one line per policy, each point
    labelled with its samples; write ``path`` atomically.

    Parameters
    ----------
    points : list of dict
        ``policy`` (bare name), ``samples``, ``decisions_per_s_cpu_adjusted``, ``win_rate``,
        ``lower``,
        ``upper`` (fractions), ``pairs``.
    path : Path
        PNG to write.
    """
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7.0, 4.5))
    for name, marker in zip(SWEEP_POLICIES, ("o", "s"), strict=True):
        rows = sorted((p for p in points if p["policy"] == name), key=lambda p: p["samples"])
        if not rows:
            continue
        x = [p["decisions_per_s_cpu_adjusted"] for p in rows]
        y = [100 * p["win_rate"] for p in rows]
        err = [
            [100 * (p["win_rate"] - p["lower"]) for p in rows],
            [100 * (p["upper"] - p["win_rate"]) for p in rows],
        ]
        ax.errorbar(x, y, yerr=err, marker=marker, capsize=3, label=name)
        for p, xi, yi in zip(rows, x, y, strict=True):
            ax.annotate(str(p["samples"]), (xi, yi), textcoords="offset points", xytext=(4, 4))
    ax.axhline(50.0, color="grey", lw=0.8, ls="--")
    ax.set_xscale("log")
    # On a shared machine the wall rate moves with the load between points; the rate per
    # CPU-second times the threads is what a quiet machine would show (and is stable).
    ax.set_xlabel(
        "decisions per second, CPU-adjusted (per CPU-second x threads; log scale; labels: samples)"
    )
    ax.set_ylabel(f"duplicate chica win rate vs {SWEEP_OPPONENT} (%)")
    n = sorted({p["pairs"] for p in points})
    ax.set_title(
        f"Strength against cost ({', '.join(f'{k:,}' for k in n)} duplicate chica indices "
        "per point, 95% clustered Wilson)",
        fontsize=9,
    )
    ax.legend()
    fig.tight_layout()
    with atomic_path(path) as tmp:
        fig.savefig(tmp, format="png", dpi=110)
    plt.close(fig)


def sweep_point(args: argparse.Namespace, name: str, k: int) -> dict[str, Any]:
    """One point of the sweep: speed and strength of ``name(samples=k)``."""
    spec = f"{name}(samples={k})"
    print(f"sweep: {spec} speed, {args.datas:,} datas...", file=sys.stderr)
    speed = decisions_per_s(spec, args.datas, args.threads, args.repeats)
    print(f"sweep: {spec} vs {SWEEP_OPPONENT}, {args.sweep_chicas:,} duplicate "
          "chica indices...", file=sys.stderr)  # fmt: skip
    strength = sweep_strength(spec, args.sweep_chicas, args.seed, args.threads)
    return {
        **strength,
        "policy": name,
        "spec": strength["policy"],
        "samples": k,
        "decisions_per_s": speed["decisions_per_s"],
        "decisions_per_s_cpu_adjusted": speed["decisions_per_s_cpu_adjusted"],
        "cpu_share": speed["cpu_share"],
        "speed_decisions": speed["decisions"],
    }


def run_sweep(args: argparse.Namespace, journal: Journal) -> list[dict[str, Any]]:
    """Every point of :data:`SWEEP_SAMPLES` (those ``journal`` holds are read, not measured),
    the table and the figure."""
    points = []
    for name in SWEEP_POLICIES:
        for k in SWEEP_SAMPLES:
            identity = {"policy": name, "samples": k, "datas": args.datas,
                        "repeats": args.repeats, "pairs": args.sweep_chicas, "seed": args.seed,
                        "threads": args.threads, "package_version": __version__}  # fmt: skip
            points.append(journal.row(identity, lambda: sweep_point(args, name, k)))  # noqa: B023
    print(
        text_table(
            ["policy", "samples", "decisions/s", "CPU share", "adjusted",
             "win rate vs heuristic [95%]", "chicas"],
            [
                [
                    p["policy"],
                    p["samples"],
                    f"{p['decisions_per_s']:,.0f}",
                    f"{p['cpu_share']:.2f}",
                    f"{p['decisions_per_s_cpu_adjusted']:,.0f}",
                    f"{100 * p['win_rate']:.2f}% [{100 * p['lower']:.2f}, "
                    f"{100 * p['upper']:.2f}]",
                    f"{p['chicas']:,}",
                ]
                for p in points
            ],
            right=(1, 2, 3, 4, 6),
        )
    )  # fmt: skip
    figure = args.figure or args.out.with_suffix(".png")
    draw_sweep(points, figure)
    print(f"wrote {figure}")
    return points


def options(parser: argparse.ArgumentParser) -> None:
    """Add the target's options (sizes) to ``parser``."""
    parser.add_argument("--datas", type=int, default=2000, help="datas per timed speed run")
    parser.add_argument("--repeats", type=int, default=3, help="timed speed runs, best kept")
    parser.add_argument("--sweep-chicas", type=int, default=400,
                        help="duplicate chica indices per point against the heuristic")  # fmt: skip
    parser.add_argument(
        "--figure", type=Path, default=None, help="PNG of the sweep (default: --out as .png)"
    )
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0)


def run(args: argparse.Namespace) -> int:
    """Run the sweep, draw the figure and write ``args.out`` (module docstring)."""
    if min(args.sweep_chicas, args.datas, args.repeats) < 1:
        args.error("--sweep-chicas, --datas and --repeats must be >= 1")
    journal = Journal(args.out, fresh=args.fresh)
    results = header(args)
    results["sweep"] = run_sweep(args, journal)
    results["sweep_settings"] = {
        "opponent": parse_policy(SWEEP_OPPONENT).canonical,
        "pairs": args.sweep_chicas,
        "seed": args.seed,
        "rules": "quito",
        "players": 2,
        "datas_per_speed_run": args.datas,
        "repeats": args.repeats,
    }
    write_json_atomic(args.out, results)
    journal.finish()
    print(f"\nwrote {args.out}")
    return 0
