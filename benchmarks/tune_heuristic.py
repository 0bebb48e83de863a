"""Tune the heuristic's weights by coordinate search in duplicate play.

Run from the repository root::

    python benchmarks/tune_heuristic.py                      # 2 passes, 10,000 chica indices
    python benchmarks/tune_heuristic.py --passes 1 --chicas 4000 --seed 5

The search: start from ``--start`` (default: the shipped ``heuristic`` defaults). For each
weight in turn, try the candidate values ``0``, ``v/2``, ``3v/2`` and ``2v`` (``v`` the current
value; for a zero weight ``250``, ``500``, ``1000``), each as ``heuristic(weight=value,...)``
against the current best in duplicate chicas (Quito, 2 players, ``--chicas`` chica indices
played twice with the seats swapped, seed ``--seed + step``: a fresh set of decks for each
comparison so that the search does not overfit one set). A candidate replaces the current
best when its chica win rate's 95% Wilson lower bound is above 50%. After the passes the best
spec is played against ``greedy`` and against the starting spec on seed ``--seed + 10**6``
(decks the search never saw) and everything is printed. Deterministic for a given seed.
"""

from __future__ import annotations

import argparse
import sys
import time

from cuarenta_sim import simulate
from cuarenta_sim.cuarenta.policies import HEURISTIC_PARAMS, parse_policy
from cuarenta_sim.stats import wilson_interval

#: The weights searched (``rules_38_30`` is a switch and stays on).
WEIGHTS = tuple(p.name for p in HEURISTIC_PARAMS if not p.choices)


def win_rate(a: str, b: str, chicas: int, seed: int) -> tuple[float, float, float]:
    """``a``'s duplicate chica win rate against ``b`` and its 95% Wilson interval."""
    first = simulate(
        rules="quito",
        players=2,
        policies=(a, b),
        n=chicas,
        level="chica",
        seed=seed,
        keep_hands=False,
    )
    second = simulate(
        rules="quito",
        players=2,
        policies=(b, a),
        n=chicas,
        level="chica",
        seed=seed,
        keep_hands=False,
    )
    wins = int((first.games["winner"] == 0).sum() + (second.games["winner"] == 1).sum())
    rate, lo, hi = wilson_interval(wins, 2 * chicas, 0.95)
    return float(rate), float(lo), float(hi)


def spec_of(values: dict[str, int]) -> str:
    """The heuristic spec of a weight assignment (canonical form)."""
    body = ",".join(f"{k}={v}" for k, v in values.items())
    return parse_policy(f"heuristic({body})").canonical


def candidates(value: int) -> list[int]:
    """Values tried for a weight currently at ``value``."""
    if value == 0:
        return [250, 500, 1000]
    return sorted({0, value // 2, 3 * value // 2, 2 * value} - {value})


def main(argv: list[str] | None = None) -> int:
    """Run the search; see the module docstring."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--chicas", type=int, default=10_000)
    parser.add_argument("--passes", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--start", default="heuristic", help="starting heuristic spec")
    args = parser.parse_args(argv)
    start = parse_policy(args.start)
    if start.name != "heuristic":
        raise SystemExit(f"--start must be a heuristic spec, got {args.start!r}")
    best = {k: v for k, v in start.values if k in WEIGHTS}
    fixed = {k: v for k, v in start.values if k not in WEIGHTS}
    t0 = time.perf_counter()
    step = 0
    for p in range(args.passes):
        for name in WEIGHTS:
            for value in candidates(best[name]):
                trial = {**best, name: value}
                step += 1
                rate, lo, hi = win_rate(
                    spec_of({**trial, **fixed}),
                    spec_of({**best, **fixed}),
                    args.chicas,
                    args.seed + step,
                )
                accepted = lo > 0.5
                print(
                    f"pass {p + 1} {name}={value:<5} vs {best[name]:<5}: {rate:.4f} "
                    f"[{lo:.4f}, {hi:.4f}]{'  accepted' if accepted else ''}",
                    flush=True,
                )
                if accepted:
                    best = trial
    final = spec_of({**best, **fixed})
    print(f"\nbest: {final}  ({time.perf_counter() - t0:.0f} s)")
    held_out = args.seed + 10**6
    for other in ("greedy", start.canonical):
        rate, lo, hi = win_rate(final, other, args.chicas, held_out)
        print(
            f"held-out decks (seed {held_out}): best vs {other.split('(')[0]}"
            f"{' (start)' if other == start.canonical else ''}: {rate:.4f} [{lo:.4f}, {hi:.4f}]"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
