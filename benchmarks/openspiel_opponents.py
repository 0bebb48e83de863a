"""Our policies against OpenSpiel's own bots (IS-MCTS, uniform random) in duplicate chicas.

Target ``openspiel-opponents`` of ``benchmarks/run.py``, from the repository root (needs the
``rl`` extra)::

    python benchmarks/run.py openspiel-opponents                      # the README's figures
    python benchmarks/run.py openspiel-opponents --policies greedy,solver --ismcts-pairs 20
    python benchmarks/run.py openspiel-opponents --report reports/strategies

Every match is a duplicate match of :func:`cuarenta_sim.rl.outside.play_outside_duplicate`:
chica ``g`` played twice through the OpenSpiel game ``python_cuarenta`` with the seats
swapped, its deals fed as chance outcomes from the project's random streams keyed by
``(seed, g)``; every pairing uses the same seed, hence the same decks. Each policy of
``--policies`` plays the IS-MCTS bot (``--ismcts``, ``--ismcts-pairs`` pairs) and
OpenSpiel's uniform random bot (``--random-pairs`` pairs); the bot also plays the random bot
(``--baseline-pairs``), which says how strong the stated budget is. Win rates carry the
clustered Wilson interval over duplicate pairs, points per data the ratio interval
(:func:`cuarenta_sim.tournament.match_summary`). Decisions per second are per side: the
decisions it took over the wall time it spent deciding.

Matches are split into chunks of chicas run by ``--workers`` processes; the numbers do not
depend on the split. Every finished chunk is appended as one JSON line (one duplicate pair
per line for the IS-MCTS matches, ``--chunk 1``) to ``--records FILE`` as the run goes, by
default ``results/openspiel_opponents.partial.jsonl`` beside the results file (removed once
the results file is written; ``--fresh`` discards it first); a rerun with the same file skips
the chunks it already holds, so a long run can be stopped and resumed; ``--from-records``
plays nothing and summarises the pairs the file holds (a match counts only its chunks that
are present, and the table states how many pairs that is). It prints a table and writes
``benchmarks/results/openspiel_opponents.json`` atomically; ``--report DIR`` also writes
``DIR/openspiel.md`` (table, bots' settings, provenance). Target (issue 14): the solver
against IS-MCTS at the stated budget, duplicate chicas, lower bound of the win rate > 50% (aim 65%).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import platform
import subprocess
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from benchcli import partial_path

from cuarenta_sim import __version__
from cuarenta_sim.cuarenta.policies import split_policy_list
from cuarenta_sim.io import write_json_atomic

#: The stated IS-MCTS budget of the README's figures (see the README for why these values).
DEFAULT_ISMCTS = (
    "openspiel-ismcts(simulations=100,uct_c=2,rollouts=1,rollout_length=40,point_reward=0.025)"
)
RANDOM_BOT = "openspiel-random"
TARGET_LOWER = 0.5
AIM = 0.65


#: Players warmed up in this process (numba compiles a policy's kernel on its first call).
_WARM: set[str] = set()


def _warm_up(spec: str, rules: str, players: int) -> None:
    """Play one untimed chica with ``spec`` on both sides, so that compiling is not timed."""
    from cuarenta_sim.rl.outside import parse_player, play_chica

    if spec in _WARM or parse_player(spec).kind != "policy":
        return
    play_chica((spec, spec), rules=rules, players=players, root=0, chica=0)
    _WARM.add(spec)


def _chunk(job: tuple[str, str, str, int, int, int, int]) -> dict[str, Any]:
    """Play one chunk of a match in a worker: ``n`` pairs from chica ``first``."""
    from cuarenta_sim.rl.outside import play_outside_duplicate

    a, b, rules, players, seed, first, n = job
    for spec in (a, b):
        _warm_up(spec, rules, players)
    m = play_outside_duplicate(a, b, rules=rules, players=players, n=n, seed=seed, first=first)
    return {
        "a": m.a,
        "b": m.b,
        "pairs": m.pairs.to_dict("list"),
        "decisions": m.decisions,
        "seconds": m.seconds,
        "wall": m.wall,
    }


def _record_key(job: tuple[str, str, str, int, int, int, int]) -> str:
    """The identity of one chunk in a records file (players, rules, seed, first chica, n)."""
    a, b, rules, players, seed, first, n = job
    return json.dumps([a, b, rules, players, seed, first, n])


def read_records(path: Path) -> dict[str, dict[str, Any]]:
    """The chunks a records file holds, keyed by :func:`_record_key`.

    A torn last line (a run killed mid-write) is ignored; any other bad line raises
    ``ValueError`` naming the line.
    """
    out: dict[str, dict[str, Any]] = {}
    if not path.exists():
        return out
    lines = path.read_text().splitlines()
    for i, line in enumerate(lines):
        if not line.strip():
            continue
        try:
            rec = json.loads(line)
        except json.JSONDecodeError as exc:
            if i == len(lines) - 1:
                break
            raise ValueError(f"{path}:{i + 1}: not a JSON record ({exc})") from None
        out[rec["key"]] = rec
    return out


def append_record(path: Path, key: str, part: dict[str, Any]) -> None:
    """Append one finished chunk to a records file (one line, flushed to disk)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("a") as fh:
        fh.write(json.dumps({"key": key, **part}) + "\n")
        fh.flush()
        os.fsync(fh.fileno())


def _versions() -> dict[str, str]:
    import numba
    import open_spiel

    try:
        commit = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"],
            capture_output=True,
            text=True,
            check=True,
            cwd=Path(__file__).resolve().parent,
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        commit = "unknown"
    return {
        "package_version": __version__,
        "git_commit": commit,
        "python": sys.version.split()[0],
        "open_spiel": getattr(open_spiel, "__version__", _dist_version("open_spiel")),
        "numpy": np.__version__,
        "numba": numba.__version__,
        "pandas": pd.__version__,
        "machine": platform.machine(),
    }


def _dist_version(name: str) -> str:
    from importlib.metadata import PackageNotFoundError, version

    for n in (name, name.replace("_", "-")):
        try:
            return version(n)
        except PackageNotFoundError:
            continue
    return "unknown"


def budget_label(spec: str) -> str:
    """An IS-MCTS spec as a label that states its budget (simulations per decision, rollouts
    and their length): every sentence and row naming the bot carries it (issue 18 item 8)."""
    from cuarenta_sim.rl.outside import parse_player

    p = parse_player(spec)
    if p.kind != "ismcts" or p.ismcts is None:
        return spec
    b = p.ismcts
    length = f"of at most {b.rollout_length} moves" if b.rollout_length else "to the end"
    return (
        f"openspiel-ismcts ({b.simulations:,} simulations per decision, {b.rollouts} random "
        f"rollout{'s' if b.rollouts != 1 else ''} {length})"
    )


def _pct(x: float) -> str:
    return "nan" if math.isnan(x) else f"{100 * x:.1f}%"


def _rate(x: float) -> str:
    if math.isnan(x):
        return "-"
    return f"{x:,.0f}" if x >= 100 else f"{x:.2f}"


def _who(spec: str, label: str) -> str:
    text = budget_label(spec)
    return f"`{label}`" if text == spec else text


def table_markdown(rows: list[dict[str, Any]]) -> str:
    """The results as a markdown table (one row per match)."""
    lines = [
        "| our side (a) | opponent (b) | pairs (chicas) | a wins [95% interval] | "
        "points per data a-b [95% interval] | verdict | a decisions/s | b decisions/s | "
        "worker s |",
        "|---|---|---:|---|---|---|---:|---:|---:|",
    ]
    for r in rows:
        lines.append(
            f"| {_who(r['a'], r['a_label'])} | {_who(r['b'], r['b_label'])} | "
            f"{r['pairs']} ({r['games']}) | "
            f"{_pct(r['win_rate'])} [{_pct(r['lower'])}, {_pct(r['upper'])}] | "
            f"{r['points_per_data']:+.2f} [{r['ppd_lower']:+.2f}, {r['ppd_upper']:+.2f}] | "
            f"{r['verdict']} | {_rate(r['a_decisions_per_s'])} | {_rate(r['b_decisions_per_s'])} | "
            f"{r['wall_seconds']:.0f} |"
        )
    return "\n".join(lines)


def time_note(doc: dict[str, Any]) -> str:
    """The run's time, from one source: the worker seconds are the sum of the rows' ``worker
    s`` (each row sums the measured wall times of its chunks, whichever process played them);
    the elapsed time is printed only when this run measured it (``elapsed_seconds``), never
    derived from the worker seconds (a run from the records played nothing)."""
    worker = sum(float(r["wall_seconds"]) for r in doc["results"])
    text = (
        f"worker time {worker:,.0f} s (the sum of the table's `worker s`: each chunk's "
        f"measured wall time, over {doc['workers']} worker process(es))"
    )
    elapsed = doc.get("elapsed_seconds")
    if elapsed is None:
        return text + "; elapsed time not measured (the rows were read from the records)"
    return text + f"; elapsed {float(elapsed):,.0f} s"


def report_markdown(doc: dict[str, Any]) -> str:
    """``reports/strategies/openspiel.md``: table, the bots' settings and provenance."""
    bots = doc["bots"]
    ismcts = bots["ismcts"]["settings"]
    lines = [
        "# Outside opponents (OpenSpiel)",
        "",
        "Generated by `benchmarks/run.py openspiel-opponents`; do not edit by hand.",
        "",
        "Our policies play OpenSpiel's own bots through the OpenSpiel API "
        "(`pyspiel`, game `python_cuarenta`, "
        f"rules `{doc['rules']}`, {doc['players']} players) in **duplicate chicas**: every chica "
        "is played twice with the seats swapped on the same deals (first dealer and decks from "
        f"the project's random streams keyed by seed {doc['seed']} and the chica index, fed as "
        "chance outcomes), and every pairing sees the same decks. `a wins` is the share of "
        "chicas our side won with the clustered Wilson interval over duplicate pairs; points "
        "per data is the side point difference per data played (ratio interval). Our policies "
        "decide from the seat's observation only "
        "(`cuarenta_sim.cuarenta.reference.game.observe` -> "
        "`cuarenta_sim.cuarenta.engine.decide.decide`).",
        "",
        table_markdown(doc["results"]),
        "",
        "The policies' full specs: "
        + "; ".join(f"`{k}` = `{v['spec']}`" for k, v in doc["policies"].items())
        + ". Verdict: `a better` when the win rate's lower bound is above 50%, `b better` when "
        "its upper bound is below, else `not resolved` (too few chicas to tell). Decisions per "
        "second are each side's decisions over the wall time it spent deciding (one process; "
        "the machine is shared, so they are indicative).",
        "",
        "## The bots' settings",
        "",
        f"`openspiel-ismcts` = `{bots['ismcts']['spec']}`:",
        "",
    ]
    lines += [f"* {k}: `{v}`" for k, v in sorted(ismcts.items())]
    random_played = any(str(r["b"]).startswith("openspiel-random") for r in doc["results"])
    lines += [
        "",
        f"`openspiel-random` = `{bots['random']['settings']['bot']}` "
        f"({bots['random']['settings']['rng']})"
        + ("." if random_played else ": configured, but no row of this page played it."),
        "",
        "## Target",
        "",
        f"Solver against {budget_label(bots['ismcts']['spec'])}: lower bound > "
        f"{_pct(TARGET_LOWER)} "
        f"(aim {_pct(AIM)}). " + doc["target_note"],
        "",
        "## Provenance",
        "",
        f"* command: `{doc['command']}`",
        f"* seed: {doc['seed']}; created {doc['created']}; {time_note(doc)}",
    ]
    lines += [f"* {k}: {v}" for k, v in doc["versions"].items()]
    return "\n".join(lines) + "\n"


def options(parser: argparse.ArgumentParser) -> None:
    """Add the target's options (sizes, records) to ``parser``."""
    parser.add_argument("--policies", default="greedy,heuristic,pimc", help="our policy specs")
    parser.add_argument("--ismcts", default=DEFAULT_ISMCTS, help="the IS-MCTS bot's spec")
    parser.add_argument("--ismcts-pairs", type=int, default=5, help="duplicate pairs vs IS-MCTS")
    parser.add_argument("--random-pairs", type=int, default=100, help="pairs vs random bot")
    parser.add_argument(
        "--baseline-pairs", type=int, default=3, help="pairs IS-MCTS vs random bot (0: skip)"
    )
    parser.add_argument("--rules", default="quito")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=2, help="processes")
    parser.add_argument("--chunk", type=int, default=1, help="pairs per job (IS-MCTS matches)")
    parser.add_argument("--report", type=Path, default=None, help="write DIR/openspiel.md")
    parser.add_argument(
        "--records",
        type=Path,
        default=None,
        help="append one JSON line per finished chunk (default: the results file's "
        ".partial.jsonl, removed at the end); a rerun skips the chunks it holds",
    )
    parser.add_argument(
        "--from-records",
        action="store_true",
        help="play nothing: summarise the chunks the records hold (partial matches allowed)",
    )
    parser.add_argument(
        "--from-json",
        type=Path,
        default=None,
        help="play nothing: print the table of a results file (and --report it)",
    )


def run(args: argparse.Namespace) -> int:
    """Run the matches, print the table, write ``args.out`` (and ``--report``); returns 0 also
    when the target is missed."""
    parser = args.parser
    default_records = args.records is None
    if default_records:
        args.records = partial_path(args.out)
        if args.fresh:
            args.records.unlink(missing_ok=True)
    if args.from_json is not None:
        doc = json.loads(args.from_json.read_text())
        print(table_markdown(doc["results"]))
        if args.report is not None:
            _write_report(args.report, doc)
        return 0

    from cuarenta_sim.rl.outside import OutsideMatch, parse_player

    policies = split_policy_list(args.policies)
    ismcts = parse_player(args.ismcts)
    if ismcts.kind != "ismcts":
        parser.error(f"--ismcts must be an openspiel-ismcts(...) spec, got {args.ismcts!r}")
    for spec in policies:
        parse_player(spec)  # a bad spec fails here, before any game
    for name in ("ismcts_pairs", "random_pairs", "baseline_pairs"):
        if getattr(args, name) < 0:
            parser.error(f"--{name.replace('_', '-')} must be >= 0")
    matches: list[tuple[str, str, int]] = []
    labels: list[tuple[str, str]] = []
    for spec in policies:
        if args.ismcts_pairs:
            matches.append((spec, ismcts.canonical, args.ismcts_pairs))
            labels.append((spec, "openspiel-ismcts"))
        if args.random_pairs:
            matches.append((spec, RANDOM_BOT, args.random_pairs))
            labels.append((spec, RANDOM_BOT))
    if args.baseline_pairs:
        matches.append((ismcts.canonical, RANDOM_BOT, args.baseline_pairs))
        labels.append(("openspiel-ismcts", RANDOM_BOT))

    jobs = []
    for k, (a, b, n) in enumerate(matches):
        step = args.chunk if ismcts.canonical in (a, b) else max(n // (2 * args.workers), 1)
        for first in range(0, n, step):
            jobs.append(
                (k, (a, b, args.rules, args.players, args.seed, first, min(step, n - first)))
            )
    t0 = time.perf_counter()
    parts: dict[int, list[dict[str, Any]]] = {k: [] for k in range(len(matches))}
    held = read_records(args.records)
    todo = []
    for k, job in jobs:
        rec = held.get(_record_key(job))
        if rec is not None:
            parts[k].append(rec)
        elif not args.from_records:
            todo.append((k, job))
    if held:
        print(f"{sum(len(v) for v in parts.values())} chunks read from {args.records}", flush=True)
    if todo:
        with ProcessPoolExecutor(max_workers=args.workers) as pool:
            futures = [(k, job, pool.submit(_chunk, job)) for k, job in todo]
            for k, job, fut in futures:
                part = fut.result()
                parts[k].append(part)
                append_record(args.records, _record_key(job), part)
                done = sum(len(v) for v in parts.values())
                print(
                    f"[{time.perf_counter() - t0:6.0f} s] {done}/{len(jobs)} chunks: "
                    f"{part['a']} vs {part['b']}, {len(part['pairs']['game'])} pairs",
                    flush=True,
                )
    keep = [k for k in range(len(matches)) if parts[k]]
    matches = [matches[k] for k in keep]
    labels = [labels[k] for k in keep]
    parts = {i: parts[k] for i, k in enumerate(keep)}
    if not parts:
        parser.error(f"{args.records} holds no chunk of these matches")
    # Measured only when this run played (from the records it played nothing); the worker
    # seconds are each row's sum of its chunks' measured wall times (time_note).
    elapsed = None if args.from_records else time.perf_counter() - t0
    rows = []
    for k in range(len(matches)):
        ps = parts[k]
        frame = pd.concat([pd.DataFrame(p["pairs"]) for p in ps], ignore_index=True)
        m = OutsideMatch(
            ps[0]["a"],
            ps[0]["b"],
            frame.sort_values("game", ignore_index=True),
            {s: sum(p["decisions"][s] for p in ps) for s in ("a", "b")},
            {s: sum(p["seconds"][s] for p in ps) for s in ("a", "b")},
            sum(p["wall"] for p in ps),
        )
        row = m.summary()
        row["a_label"], row["b_label"] = labels[k]
        rows.append(row)
    print()
    print(table_markdown(rows))
    solver_rows = [r for r in rows if r["a"].startswith("solver") and r["b"] == ismcts.canonical]
    if solver_rows:
        r = solver_rows[0]
        met = r["lower"] > TARGET_LOWER
        target_note = (
            f"Measured: `{r['a']}` wins {_pct(r['win_rate'])} [{_pct(r['lower'])}, "
            f"{_pct(r['upper'])}] of {r['games']} chicas ({r['pairs']} duplicate pairs) "
            f"against {budget_label(r['b'])}: target "
            + ("met." if met else "not met at this sample size.")
        )
    else:
        target_note = "No `solver` policy in this run (pass it in `--policies` once it exists)."
    print(target_note)
    command = args.command
    doc = {
        "benchmark": "openspiel_opponents",
        "created": datetime.now(UTC).isoformat(timespec="seconds"),
        "command": command,
        "seed": args.seed,
        "rules": args.rules,
        "players": args.players,
        "workers": args.workers,
        "elapsed_seconds": elapsed,
        "worker_seconds": sum(float(r["wall_seconds"]) for r in rows),
        "confidence": 0.95,
        "bots": {
            "ismcts": ismcts.describe(),
            "random": parse_player(RANDOM_BOT).describe(),
        },
        "policies": {spec: parse_player(spec).describe() for spec in policies},
        "target": {"lower_bound_above": TARGET_LOWER, "aim": AIM},
        "target_note": target_note,
        "versions": _versions(),
        "results": rows,
    }
    write_json_atomic(args.out, doc)
    print(f"wrote {args.out}")
    if default_records and not args.from_records:
        args.records.unlink(missing_ok=True)
    if args.report is not None:
        _write_report(args.report, doc)
    return 0


def _write_report(directory: Path, doc: dict[str, Any]) -> None:
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / "openspiel.md"
    path.write_text(report_markdown(doc))
    print(f"wrote {path}")
