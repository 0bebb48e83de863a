"""Fine-tune ``learned`` weights for strength: evolution strategies on duplicate win rates.

Used by ``benchmarks/train_learned.py`` (``--tune-iterations``); also runnable alone::

    python benchmarks/tune_learned.py --weights learned_v2 --players 2 --iterations 10

The imitation fit (``train_learned.py``) maximises agreement with the teacher, not strength.
This stage moves the weights of one player count straight towards more chicas won, with the
kernel (:func:`cuarenta_sim.simulate`) as the only judge:

* the weights are a direction ``theta`` (float, one coefficient per feature divided by its
  scale, as the imitation fit; a linear argmax policy does not change when ``theta`` is scaled,
  so ``theta`` is kept at unit length);
* each iteration draws ``pairs`` directions ``eps`` (standard normal, from the
  :mod:`cuarenta_sim.rng` stream keyed by ``(seed, iteration, 0, STREAM_TUNE)``) and plays
  ``theta + sigma * eps`` and ``theta - sigma * eps`` against ``opponent`` in duplicate chicas
  (``chicas`` indices, seats swapped, the same decks for both members of a pair: common random
  numbers), on the root seed ``seed + 1 + iteration`` (never the benchmark's seed 0);
* the step has length ``lr`` along ``g = sum_i (wins+_i - wins-_i) / (2 chicas) * eps_i /
  (pairs * sigma)`` (the antithetic estimate of the gradient of the win rate), then ``theta``
  is renormalised;
* the iterate kept is the last one; ``check_chicas`` duplicate indices on a separate seed
  compare it with the start, and the start is kept unless the tuned weights win more
  chicas against ``opponent`` there (reported either way).

Everything is a function of the arguments (deterministic simulations, keyed streams).

``learned_v2`` came from two runs of this script from ``learned_v1`` (commands and figures in
``benchmarks/README.md``, "Learned policy"): against the heuristic in duplicate chicas, Quito,
its 2-player model wins 56.25% [55.77%, 56.74%] of 40,000 chicas (v1: 53.55%) and its 4-player
model 53.35% [51.80%, 54.89%] of 4,000 (benchmark seed 0, never used here). The win rate of the
candidates stopped rising after about 90 iterations: the linear model is near its ceiling
against this opponent.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np

from cuarenta_sim import simulate
from cuarenta_sim.cuarenta.engine.learned import N_FEATURES, WEIGHT_SCALE
from cuarenta_sim.cuarenta.policies.learned import MODEL_PLAYERS, load_weights, save_weights
from cuarenta_sim.rng import PyRng, root_from_seed

#: Stream of the tuning directions (outside the engine's stream numbers).
STREAM_TUNE = 40
#: Root-seed offset of the final check (the iterations use ``seed + 1 + iteration``).
CHECK_SEED_OFFSET = 100_000
#: Length of ``theta`` in fixed point: the integer weights are ``INTEGER_LENGTH`` times those
#: of a unit direction, so rounding moves no weight by more than a small fraction.
INTEGER_LENGTH = 10.0


def to_integer(theta: np.ndarray, scale: np.ndarray) -> np.ndarray:
    """Fixed-point weights of a direction: ``round(WEIGHT_SCALE * INTEGER_LENGTH * theta /
    (|theta| scale))`` (int64)."""
    unit = theta / np.linalg.norm(theta)
    return np.round(WEIGHT_SCALE * INTEGER_LENGTH * unit / scale).astype(np.int64)


def to_direction(weights: np.ndarray, scale: np.ndarray) -> np.ndarray:
    """The unit direction of integer weights (inverse of :func:`to_integer` up to length)."""
    theta = weights.astype(np.float64) * scale / WEIGHT_SCALE
    return theta / np.linalg.norm(theta)


class Arena:
    """Duplicate matches of candidate weights against a fixed opponent.

    Candidates are written to a temporary weights file per evaluation (the model of the
    other player count is copied from ``base``), so every match runs the shipped kernel path
    ``learned(weights=PATH)``.
    """

    def __init__(self, base: np.ndarray, players: int, opponent: str, rules: str, threads: int):
        self.base = base.copy()
        self.players = players
        self.opponent = opponent
        self.rules = rules
        self.threads = threads
        self.dir = Path(tempfile.mkdtemp(prefix="tune_learned_"))
        self.count = 0

    def wins(self, weights: np.ndarray, chicas: int, seed: int) -> int:
        """Chicas won by ``weights`` over ``chicas`` duplicate indices of root seed ``seed``
        (``2 * chicas`` chicas)."""
        w = self.base.copy()
        w[MODEL_PLAYERS.index(self.players)] = weights
        self.count += 1
        path = self.dir / f"c{self.count}.npz"
        save_weights(path, w, {"note": "tuning candidate"})
        spec = f"learned(weights={path})"
        won = 0
        for order, side in (((spec, self.opponent), 0), ((self.opponent, spec), 1)):
            games = simulate(
                rules=self.rules,
                players=self.players,
                policies=order,
                n=chicas,
                level="chica",
                seed=seed,
                threads=self.threads,
                keep_hands=False,
            ).games
            won += int((games["winner"] == side).sum())
        path.unlink()
        return won


def directions(seed: int, iteration: int, pairs: int) -> np.ndarray:
    """``pairs`` standard normal directions (float64, (pairs, N_FEATURES)) of an iteration."""
    key = PyRng.for_stream(root_from_seed(seed)[0], iteration, 0, STREAM_TUNE).next64()
    return np.random.default_rng(key).standard_normal((pairs, N_FEATURES))


def tune(
    weights: np.ndarray,
    scale: np.ndarray,
    players: int,
    *,
    base: np.ndarray,
    opponent: str = "heuristic",
    rules: str = "quito",
    iterations: int = 30,
    pairs: int = 16,
    chicas: int = 1000,
    sigma: float = 0.015,
    lr: float = 0.02,
    check_chicas: int = 4000,
    seed: int = 7,
    threads: int = 2,
    log: Any = sys.stdout,
) -> tuple[np.ndarray, dict[str, Any]]:
    """Evolution strategies on the duplicate win rate (module docstring).

    Parameters
    ----------
    weights : ndarray of int64, shape (N_FEATURES,)
        Start (the imitation model of ``players``).
    scale : ndarray of float64, shape (N_FEATURES,)
        Feature scales (standard deviations over the training plays).
    players : int
        2 or 4.
    base : ndarray of int64, shape (2, N_FEATURES)
        Both models; the other player count's row is copied into every candidate file.

    Returns
    -------
    tuple
        The integer weights kept and a record of the run (per-iteration mean win rates,
        check result, settings).
    """
    arena = Arena(base, players, opponent, rules, threads)
    theta = to_direction(weights, scale)
    history = []
    t0 = time.perf_counter()
    for it in range(iterations):
        eps = directions(seed, it, pairs)
        rates = np.zeros((pairs, 2))
        for p in range(pairs):
            for m, sign in enumerate((1.0, -1.0)):
                cand = to_integer(theta + sign * sigma * eps[p], scale)
                rates[p, m] = arena.wins(cand, chicas, seed + 1 + it) / (2 * chicas)
        grad = ((rates[:, 0] - rates[:, 1])[:, None] * eps).sum(axis=0) / (pairs * sigma)
        # A step of fixed length ``lr`` along the estimated gradient: the win-rate differences
        # are mostly noise, so their size says little about how far to go.
        theta = theta + lr * grad / max(np.linalg.norm(grad), 1e-12)
        theta /= np.linalg.norm(theta)
        history.append(round(float(rates.mean()), 4))
        print(
            f"  {players}p iteration {it + 1}/{iterations}: mean win rate of the candidates "
            f"{rates.mean():.4f} (best pair member {rates.max():.4f}); "
            f"{time.perf_counter() - t0:.0f} s",
            file=log,
            flush=True,
        )
    tuned = to_integer(theta, scale)
    check_seed = seed + CHECK_SEED_OFFSET
    start_wins = arena.wins(weights, check_chicas, check_seed)
    tuned_wins = arena.wins(tuned, check_chicas, check_seed)
    shutil.rmtree(arena.dir, ignore_errors=True)
    keep = tuned_wins > start_wins
    record = {
        "method": "evolution strategies on the duplicate win rate (benchmarks/tune_learned.py)",
        "opponent": opponent,
        "rules": rules,
        "iterations": iterations,
        "pairs": pairs,
        "chicas_per_candidate": 2 * chicas,
        "sigma": sigma,
        "lr": lr,
        "seed": seed,
        "iteration_seeds": [seed + 1, seed + iterations],
        "mean_candidate_win_rate": history,
        "check_seed": check_seed,
        "check_chicas": 2 * check_chicas,
        "check_win_rate_start": round(start_wins / (2 * check_chicas), 4),
        "check_win_rate_tuned": round(tuned_wins / (2 * check_chicas), 4),
        "kept": "tuned" if keep else "start",
        "seconds": round(time.perf_counter() - t0, 1),
    }
    print(
        f"  {players}p check on seed {check_seed}, {2 * check_chicas:,} chicas vs {opponent}: "
        f"start {record['check_win_rate_start']:.4f}, tuned {record['check_win_rate_tuned']:.4f}"
        f" -> keep {record['kept']}",
        file=log,
    )
    return (tuned if keep else weights.copy()), record


def sample_scales(players: int, rules: str, seed: int, chicas: int) -> np.ndarray:
    """Feature scales from a fixed sample: the standard deviation (float64, (N_FEATURES,); 1
    where it is 0) of every feature over the legal plays of the decisions of ``chicas`` chicas
    (indices ``0 .. chicas - 1`` of root seed ``seed``) played by ``heuristic`` at every seat
    (the reference engine, :func:`train_learned.generate`). For weights files that do not
    record the scales of their fit."""
    from train_learned import generate  # benchmarks/ is the script's directory

    x = generate("heuristic", rules, players, seed, list(range(chicas)))[0]
    scale = x.std(axis=0)
    scale[scale < 1e-9] = 1.0
    return scale


def main(argv: list[str] | None = None) -> int:
    """Tune the models of a weights file; writes ``--out`` (module docstring)."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--weights", required=True, help="learned_v1, learned_v2 or a .npz path")
    ap.add_argument("--players", default="2", help="player counts tuned: 2, 4 or 2,4")
    ap.add_argument("--iterations", type=int, default=10)
    ap.add_argument("--iterations-4p", type=int, default=None, help="iterations for 4 players")
    ap.add_argument("--rules", default="quito")
    ap.add_argument(
        "--scale-chicas",
        type=int,
        default=60,
        help="chicas of the heuristic sample giving the feature scales when the file has none",
    )
    ap.add_argument("--pairs", type=int, default=16)
    ap.add_argument("--chicas", type=int, default=1000)
    ap.add_argument("--sigma", type=float, default=0.015)
    ap.add_argument("--lr", type=float, default=0.02)
    ap.add_argument("--check-chicas", type=int, default=4000)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--out", type=Path, required=True)
    args = ap.parse_args(argv)
    try:
        players_list = sorted({int(p) for p in args.players.split(",")})
    except ValueError:
        players_list = []
    if not players_list or any(p not in MODEL_PLAYERS for p in players_list):
        print(f"error: --players must be 2, 4 or 2,4, got {args.players!r}", file=sys.stderr)
        return 2
    try:
        lw = load_weights(args.weights)
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    out = lw.weights.copy()
    prov = {
        "start": {"weights": args.weights, "provenance": lw.provenance},
        "feature_version": lw.provenance.get("feature_version"),
        "feature_names": lw.provenance.get("feature_names"),
        "teacher": lw.provenance.get("teacher"),
        "seed": lw.provenance.get("seed"),
        "chicas_per_player_count": lw.provenance.get("chicas_per_player_count"),
        "models": {},
        "command": "python benchmarks/tune_learned.py "
        + " ".join(sys.argv[1:] if argv is None else argv),
    }
    for players in MODEL_PLAYERS:
        model = dict(lw.provenance.get("models", {}).get(str(players), {}))
        model.pop("weights", None)
        # The start's record (imitation data size, agreement with the teacher) stays; the
        # tuning record and the new weights are added.
        prov["models"][str(players)] = model
    for players in players_list:
        model = lw.provenance.get("models", {}).get(str(players), {})
        # A fitted file records its scales; a tuned one, those its tuning used.
        scales = model.get("feature_scales", model.get("tuning", {}).get("feature_scales"))
        if scales is None:
            scale = sample_scales(players, args.rules, args.seed, args.scale_chicas)
            source = f"heuristic sample: {args.scale_chicas} chicas of seed {args.seed}"
        else:
            scale, source = np.array(scales), "the start's fit"
        iterations = args.iterations
        if players == 4 and args.iterations_4p is not None:
            iterations = args.iterations_4p
        w, rec = tune(
            lw.row(players),
            scale,
            players,
            base=out,
            rules=args.rules,
            iterations=iterations,
            pairs=args.pairs,
            chicas=args.chicas,
            sigma=args.sigma,
            lr=args.lr,
            check_chicas=args.check_chicas,
            seed=args.seed,
            threads=args.threads,
        )
        out[MODEL_PLAYERS.index(players)] = w
        rec["feature_scales_from"] = source
        rec["feature_scales"] = [float(f"{v:.6g}") for v in scale.tolist()]
        info = prov["models"][str(players)]
        info["tuning"] = rec
        info["weights"] = {
            n: int(v) for n, v in zip(lw.provenance["feature_names"], w.tolist(), strict=True)
        }
    save_weights(args.out, out, prov)
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
