"""Is ``learned`` a good proxy for ``solver`` in rule studies? (issue 12, target table).

Target ``learned-proxy`` of ``benchmarks/run.py``, from the repository root::

    python benchmarks/run.py learned-proxy                      # 20,000 paired chicas per run
    python benchmarks/run.py learned-proxy --chicas 2000        # quicker
    python benchmarks/run.py learned-proxy --cache /tmp/proxy_cache   # keep and reuse runs

For each player model ``P`` in ``--models`` (default ``learned`` and ``solver``) it plays
``--chicas`` chicas (level ``chica``, 2 players, ``P`` at both seats, seed ``--seed``) under
Quito and under Cuenca rules: the same chica indices, so the same first decks (common random
numbers), and measures the relative change of chica length (datas per chica, R9.2),
``mean(Cuenca) / mean(Quito) - 1`` with its paired log-ratio interval
(:func:`cuarenta_sim.stats.rel_diff_paired`). The proxy figure is the first model's change
minus the second's, chica index by chica index, with the delta-method interval of
:func:`cuarenta_sim.stats.diff_rel_diffs_paired` (correlation between the models' runs on the
same decks counted). Issue 12 target: the interval within +-1.5 percentage points (aim +-0.5).

With ``--cache DIR`` each run's per-chica lengths are stored as ``.npy`` keyed by the model's
canonical spec, rules, chicas, seed and package version, and reused (the solver runs take tens
of minutes on 2 cores; a run cut short keeps the runs it finished there). Prints a table
and writes ``benchmarks/results/learned_proxy.json``
(atomically).
"""

from __future__ import annotations

import argparse
import hashlib
import platform
import sys
import time
from pathlib import Path
from typing import Any

import numba
import numpy as np
from benchcli import check_writable_dir

from cuarenta_sim import __version__, simulate, stats
from cuarenta_sim.cuarenta.policies import parse_policy
from cuarenta_sim.io import write_json_atomic
from cuarenta_sim.reports import text_table

#: Issue 12: the interval of the difference must lie within +- this many percentage points.
TARGET_PP = 1.5
RULES = ("quito", "cuenca")


def chica_lengths(
    model: str, rules: str, chicas: int, seed: int, threads: int, cache: Path | None
) -> tuple[np.ndarray, float]:
    """Datas per chica of ``chicas`` chicas with ``model`` at both seats (int64, (chicas,)),
    and the wall seconds spent (0 when read from the cache)."""
    spec = parse_policy(model).canonical
    key = hashlib.sha256(f"{spec}|{rules}|{chicas}|{seed}|{__version__}".encode()).hexdigest()[:16]
    path = cache / f"{rules}-{key}.npy" if cache is not None else None
    if path is not None and path.exists():
        return np.load(path), 0.0
    t0 = time.perf_counter()
    games = simulate(
        rules=rules,
        players=2,
        policies=(model, model),
        n=chicas,
        level="chica",
        seed=seed,
        threads=threads,
        keep_hands=False,
    ).games
    lengths = games["hands"].to_numpy(np.int64)
    seconds = time.perf_counter() - t0
    if path is not None:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(".tmp.npy")
        np.save(tmp, lengths)
        tmp.replace(path)  # atomic: an interrupted run leaves no half-written cache entry
    return lengths, seconds


def options(parser: argparse.ArgumentParser) -> None:
    """Add the target's options (sizes) to ``parser``."""
    parser.add_argument("--chicas", type=int, default=20_000, help="paired chicas per run")
    parser.add_argument(
        "--models",
        default="learned;solver",
        help="two player models separated by ';' (proxy first)",
    )
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--cache", type=Path, default=None, help="directory keeping each finished run (.npy)"
    )


def run(args: argparse.Namespace) -> int:
    """Run the benchmark and write ``args.out``; see the module docstring."""
    models = [m.strip() for m in args.models.split(";") if m.strip()]
    if len(models) != 2:
        args.error(f"--models needs two models separated by ';', got {args.models!r}")
    if args.chicas < 2:
        args.error(f"--chicas must be at least 2, got {args.chicas}")
    for m in models:
        try:
            parse_policy(m)
        except ValueError as exc:
            args.error(f"--models {args.models!r}: {exc}")
    if args.cache is not None:
        check_writable_dir(args.parser, args.cache, "--cache")

    runs: dict[str, dict[str, np.ndarray]] = {}
    seconds: dict[str, float] = {}
    for m in models:
        runs[m] = {}
        for r in RULES:
            print(f"{m} under {r}: {args.chicas:,} chicas...", file=sys.stderr)
            runs[m][r], seconds[f"{m}|{r}"] = chica_lengths(
                m, r, args.chicas, args.seed, args.threads, args.cache
            )
    per_model = {
        m: stats.rel_diff_paired(
            f"cuenca vs quito chica length under {m}", runs[m]["cuenca"], runs[m]["quito"]
        )
        for m in models
    }
    a, b = models
    diff = stats.diff_rel_diffs_paired(
        f"{a} minus {b}", runs[a]["cuenca"], runs[a]["quito"], runs[b]["cuenca"], runs[b]["quito"]
    )
    margin = TARGET_PP / 100
    inside = bool(diff["defined"] and -margin < diff["lower"] and diff["upper"] < margin)
    rows = [
        [
            m,
            f"{args.chicas:,}",
            f"{100 * per_model[m]['estimate']:+.2f}%",
            f"[{100 * per_model[m]['lower']:+.2f}, {100 * per_model[m]['upper']:+.2f}]",
            per_model[m]["method"],
        ]
        for m in models
    ]
    rows.append(
        [
            f"{a} - {b}",
            f"{args.chicas:,}",
            f"{100 * diff['estimate']:+.2f} pp",
            f"[{100 * diff['lower']:+.2f}, {100 * diff['upper']:+.2f}]",
            diff["method"],
        ]
    )
    print("Quito -> Cuenca, relative change of datas per chica (2 players, same chica indices)")
    print(
        text_table(["model", "chicas", "change", "95% interval", "method"], rows, right=(1, 2, 3))
    )
    status = "pass" if inside else "FAIL"
    print(f"\ninterval within +-{TARGET_PP} percentage points: {status}")
    results: dict[str, Any] = {
        "package_version": __version__,
        "python": platform.python_version(),
        "numba": numba.__version__,
        "machine": platform.machine(),
        "command": args.command,
        "chicas": args.chicas,
        "seed": args.seed,
        "models": {m: parse_policy(m).canonical for m in models},
        "per_model": per_model,
        "difference": diff,
        "target_pp": TARGET_PP,
        "status": status,
        "seconds": seconds,
    }
    write_json_atomic(args.out, results)
    print(f"wrote {args.out}")
    return 0
