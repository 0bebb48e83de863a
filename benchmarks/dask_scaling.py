"""Scaling of the Dask backend: throughput with 1 and 2 local workers, overhead per task, memory.

Target ``dask-scaling`` of ``benchmarks/run.py``, from the repository root::

    python benchmarks/run.py dask-scaling            # 8M datas in chunks of 1M, best of 3
    python benchmarks/run.py dask-scaling --quick    # 2M datas in chunks of 250k, one run

It starts a ``LocalCluster`` of 1 and one of 2 workers (worker processes, 1 thread each, numba
kernels loaded in every worker before timing) and times, alternating between the two so that
both see the same conditions,
``aggregate(n, level="data", chunk_size=chunk, backend="dask")`` (greedy,
2 players, Quito): the large-run mode, whose tasks return a few kilobytes of counters, so what
is timed is simulation plus scheduling. Figures:

* **throughput**: datas (hands) per second with 1 and 2 workers, and the scaling efficiency
  ``rate(2) / (2 rate(1))`` (target >= 0.8 with chunks of 1,000,000 datas);
* **overhead per task**: a run of many tiny chunks (``--tiny-tasks`` chunks of
  ``--tiny-chunk`` datas) on 1 worker; wall time per task minus the time the same datas take
  in one large chunk, i.e. scheduling, transfer and per-chunk aggregation;
* **memory**: peak resident set size (``VmHWM``) of the client process and of every worker
  during the timed runs (flat in ``n`` for the aggregates mode);
* **worker CPU share**: the CPU time the workers got during a timed run over wall time times
  workers; well below 1 means other processes took the cores and the scaling figure is
  contention, not the backend;
* **CPU efficiency**: datas per second of worker CPU time with 2 workers over the same with
  1 worker; with the CPU share it tells backend overhead from contention on a shared machine;
* for reference, the local backend in this process with 1 numba thread;
* **strong play on Dask** (issue 12 item 6): ``simulate`` with ``--strong`` (default
  ``solver``) at seat 0 against ``greedy`` (``--strong-n`` datas in chunks of
  ``--strong-chunk``) on the 1- and 2-worker clusters: datas and decisions per second (the
  strong seat's 20 decisions per data), and a check that the records equal those of the local
  backend bit for bit (the searching policy's randomness comes from (seed, data, stream), not
  from the worker or chunk that ran it). ``--strong none`` skips it.

It prints a table and writes ``benchmarks/results/dask_scaling.json`` atomically. The machine
is shared: timings of other busy processes leak into the figures (rerun when quieter).
"""

from __future__ import annotations

import argparse
import os
import platform
import resource
import time
from typing import Any

import numba
import numpy as np

from cuarenta_sim import __version__, aggregate, simulate
from cuarenta_sim.io import write_json_atomic
from cuarenta_sim.reports import text_table

#: Target of benchmarks/README.md: 2 workers reach this share of twice the 1-worker rate.
EFFICIENCY_TARGET = 0.8


def peak_rss() -> int:
    """Peak resident set size of this process in bytes (``VmHWM``, else ``ru_maxrss``)."""
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


def warm_worker() -> int:
    """Load every kernel in a worker (engine and counters) before timing; return its pid."""
    from cuarenta_sim.cuarenta.engine import warmup

    warmup()
    aggregate(n=100, seed=0)
    return os.getpid()


def timed_once(n: int, chunk: int, client: Any) -> dict[str, Any]:
    """One aggregates-only run of ``n`` datas on ``client``: wall time, rate and CPU share.

    ``cpu_share`` is the CPU time the workers got during the run over its wall time times the
    number of workers: below 1 when other processes share the cores.
    """
    workers = len(client.scheduler_info()["workers"])
    cpu0 = sum(client.run(time.process_time).values())
    t0 = time.perf_counter()
    agg = aggregate(n=n, seed=1, chunk_size=chunk, backend="dask", client=client)
    wall = time.perf_counter() - t0
    cpu = sum(client.run(time.process_time).values()) - cpu0
    assert agg.hands is not None and agg.hands.n == n
    return {
        "n": n,
        "chunk": chunk,
        "tasks": -(-n // chunk),
        "wall_s": wall,
        "datas_per_s": n / wall,
        "cpu_share": cpu / (wall * workers),
    }


def run_clusters(args: argparse.Namespace) -> tuple[dict[str, Any], dict[str, Any]]:
    """Start LocalClusters of 1 and of 2 worker processes and time them in turns.

    The timed runs alternate (1 worker, 2 workers, 1, 2, ...) so that both see the same
    conditions on a shared machine; the best run of each is kept. Then the tiny-task overhead
    is measured on the 1-worker cluster.
    """
    from distributed import Client, LocalCluster

    def cluster(workers: int) -> LocalCluster:
        return LocalCluster(
            n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=":0"
        )

    with cluster(1) as c1, Client(c1) as one, cluster(2) as c2, Client(c2) as two:
        clients = {1: one, 2: two}
        for w, client in clients.items():
            client.wait_for_workers(w)
            client.run(warm_worker)
        best: dict[int, dict[str, Any]] = {}
        for _ in range(args.repeats):
            for w, client in clients.items():
                run = timed_once(args.n, args.chunk, client)
                if w not in best or run["wall_s"] < best[w]["wall_s"]:
                    best[w] = run
        tiny_n = args.tiny_tasks * args.tiny_chunk
        tiny = timed_once(tiny_n, args.tiny_chunk, one)
        whole = timed_once(tiny_n, tiny_n, one)
        best[1]["tiny"] = {
            **tiny,
            "one_chunk_wall_s": whole["wall_s"],
            "overhead_per_task_s": (tiny["wall_s"] - whole["wall_s"]) / (tiny["tasks"] - 1),
        }
        for w, client in clients.items():
            best[w]["workers"] = w
            best[w]["worker_peak_rss_bytes"] = sorted(client.run(peak_rss).values())
        if args.strong != "none":
            reference = simulate(**strong_kwargs(args.strong, args.strong_n), threads=1).hands
            strong = []
            for client in clients.values():
                run, hands = strong_once(args.strong, args.strong_n, args.strong_chunk, client)
                run["equal_to_local"] = bool(hands.equals(reference))
                strong.append(run)
            best[1]["strong"], best[2]["strong"] = strong
    return best[1], best[2]


#: Decisions per data of one seat with 2 players (5 cards x 4 deals, R3).
DECISIONS_PER_DATA = 20


def strong_kwargs(policy: str, n: int) -> dict[str, Any]:
    """The ``simulate`` settings of the strong-play section (policy at seat 0 vs greedy)."""
    return {"rules": "quito", "players": 2, "policies": (policy, "greedy"), "n": n,
            "level": "data", "seed": 3}  # fmt: skip


def strong_once(policy: str, n: int, chunk: int, client: Any) -> tuple[dict[str, Any], Any]:
    """One Dask run of the strong section: its figures and its hands frame."""
    workers = len(client.scheduler_info()["workers"])
    cpu0 = sum(client.run(time.process_time).values())
    t0 = time.perf_counter()
    res = simulate(**strong_kwargs(policy, n), chunk_size=chunk, backend="dask", client=client)
    wall = time.perf_counter() - t0
    cpu = sum(client.run(time.process_time).values()) - cpu0
    return {
        "workers": workers,
        "n": n,
        "chunk": chunk,
        "tasks": -(-n // chunk),
        "wall_s": wall,
        "datas_per_s": n / wall,
        "decisions_per_s": DECISIONS_PER_DATA * n / wall,
        "cpu_share": cpu / (wall * workers),
    }, res.hands


def run_local(n: int, chunk: int) -> dict[str, Any]:
    """The local backend in this process with 1 numba thread (reference)."""
    aggregate(n=1000, seed=1, threads=1)
    t0 = time.perf_counter()
    aggregate(n=n, seed=1, chunk_size=chunk, threads=1)
    wall = time.perf_counter() - t0
    return {"n": n, "chunk": chunk, "wall_s": wall, "datas_per_s": n / wall, "threads": 1}


def options(parser: argparse.ArgumentParser) -> None:
    """Add the target's options (sizes) to ``parser``."""
    parser.add_argument("--quick", action="store_true", help="2M datas in chunks of 250k")
    parser.add_argument("--n", type=int, help="datas per timed run (default 8M; quick 2M)")
    parser.add_argument("--chunk", type=int, help="datas per task (default 1M; quick 250k)")
    parser.add_argument("--repeats", type=int, help="timed runs, best kept (default 3; quick 1)")
    parser.add_argument("--tiny-chunk", type=int, default=100, help="datas per tiny task")
    parser.add_argument("--tiny-tasks", type=int, help="tiny tasks (default 400; quick 100)")
    parser.add_argument(
        "--strong",
        default="solver",
        help="strong policy timed on Dask at seat 0 vs greedy ('none' skips)",
    )
    parser.add_argument("--strong-n", type=int, default=2000, help="datas of the strong run")
    parser.add_argument("--strong-chunk", type=int, default=100, help="datas per strong task")


def run(args: argparse.Namespace) -> int:
    """Check the options, run the measurements, print the table and write ``args.out``."""
    args.n = args.n or (2_000_000 if args.quick else 8_000_000)
    args.chunk = args.chunk or (250_000 if args.quick else 1_000_000)
    args.repeats = args.repeats or (1 if args.quick else 3)
    args.tiny_tasks = args.tiny_tasks or (100 if args.quick else 400)
    if min(args.n, args.chunk, args.repeats, args.tiny_chunk, args.tiny_tasks) < 1:
        args.error("counts must be positive")
    if args.tiny_tasks < 2:
        args.error("--tiny-tasks must be at least 2")
    if min(args.strong_n, args.strong_chunk) < 1:
        args.error("--strong-n and --strong-chunk must be positive")
    if args.strong != "none":
        from cuarenta_sim.cuarenta.policies import parse_policy

        try:
            parse_policy(args.strong)
        except ValueError as exc:
            args.error(f"--strong {args.strong!r}: {exc}")

    from cuarenta_sim.cuarenta.engine import warmup

    warmup()
    if args.strong != "none":
        # Compile (and cache) the strong policy's kernels here, once, so that the workers load
        # them from numba's cache instead of compiling in every worker (minutes under load).
        simulate(**strong_kwargs(args.strong, 2), threads=1)
    t_start = time.perf_counter()
    one, two = run_clusters(args)
    local = run_local(min(args.n, 4 * args.chunk), args.chunk)
    efficiency = two["datas_per_s"] / (2 * one["datas_per_s"])
    # Datas per second of worker CPU time, 2 workers over 1: the per-core cost of the backend,
    # which contention from other processes does not change (it slows both alike).
    cpu_efficiency = (two["datas_per_s"] / (2 * two["cpu_share"])) / (
        one["datas_per_s"] / one["cpu_share"]
    )
    results: dict[str, Any] = {
        "benchmark": "dask_scaling",
        "package_version": __version__,
        "python": platform.python_version(),
        "numba": numba.__version__,
        "numpy": np.__version__,
        "dask": __import__("dask").__version__,
        "cores": os.cpu_count(),
        "settings": {
            "rules": "quito",
            "players": 2,
            "policies": "greedy",
            "level": "data",
            "output": "aggregates",
            "threads_per_worker": 1,
        },
        "workers_1": one,
        "workers_2": two,
        "local_1_thread": local,
        "efficiency": efficiency,
        "cpu_efficiency": cpu_efficiency,
        "overhead_per_task_s": one["tiny"]["overhead_per_task_s"],
        "client_peak_rss_bytes": peak_rss(),
        "strong": (
            None
            if args.strong == "none"
            else {"policy": args.strong, "workers_1": one["strong"], "workers_2": two["strong"]}
        ),
        "target": {
            "efficiency": EFFICIENCY_TARGET,
            "status": "pass" if efficiency >= EFFICIENCY_TARGET else "FAIL",
        },
        "total_wall_s": time.perf_counter() - t_start,
    }
    rows = [
        [
            "local, 1 thread",
            f"{local['n']:,}",
            f"{local['chunk']:,}",
            "-",
            f"{local['wall_s']:.2f}",
            f"{local['datas_per_s'] / 1e6:.3f}M",
            "-",
        ],
    ]
    for r in (one, two):
        rows.append(
            [
                f"dask, {r['workers']} worker(s)",
                f"{r['n']:,}",
                f"{r['chunk']:,}",
                str(r["tasks"]),
                f"{r['wall_s']:.2f}",
                f"{r['datas_per_s'] / 1e6:.3f}M",
                f"{r['cpu_share']:.2f}",
            ]
        )
    headers = ["run", "datas", "chunk", "tasks", "wall (s)", "datas/s", "worker CPU share"]
    print(text_table(headers, rows))
    tiny = one["tiny"]
    print(
        f"\nper worker CPU-second, 2 workers / 1 worker = {cpu_efficiency:.3f} (CPU shares "
        f"{one['cpu_share']:.2f} and {two['cpu_share']:.2f}: below 1 means shared cores)"
    )
    print(
        f"\nscaling efficiency rate(2) / (2 rate(1)) = {efficiency:.3f} "
        f"(target >= {EFFICIENCY_TARGET}: {results['target']['status']})"
    )
    print(
        f"overhead per task: {tiny['overhead_per_task_s'] * 1e3:.2f} ms ({tiny['tasks']} tasks "
        f"of {args.tiny_chunk} datas in {tiny['wall_s']:.2f} s vs one task "
        f"{tiny['one_chunk_wall_s']:.2f} s, 1 worker)"
    )
    gib = 2**30
    print(
        f"peak RSS: client {results['client_peak_rss_bytes'] / gib:.2f} GiB; workers "
        + ", ".join(f"{b / gib:.2f}" for b in two["worker_peak_rss_bytes"])
        + " GiB (2-worker cluster)"
    )
    if args.strong != "none":
        print(f"\nstrong play on Dask: {args.strong} at seat 0 vs greedy, 2 players, level data")
        print(
            text_table(
                ["workers", "datas", "tasks", "wall (s)", "datas/s", "decisions/s",
                 "CPU share", "equal to local"],
                [
                    [r["workers"], f"{r['n']:,}", r["tasks"], f"{r['wall_s']:.1f}",
                     f"{r['datas_per_s']:,.0f}", f"{r['decisions_per_s']:,.0f}",
                     f"{r['cpu_share']:.2f}", "yes" if r["equal_to_local"] else "NO"]
                    for r in (one["strong"], two["strong"])
                ],
            )
        )  # fmt: skip
    write_json_atomic(args.out, results)
    print(f"wrote {args.out}")
    return 0
